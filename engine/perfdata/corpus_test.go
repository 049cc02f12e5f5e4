package perfdata_test

import (
	"encoding/binary"
	"encoding/json"
	"strconv"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// manifestEntry is one block of ../shared/corpus/v1/manifest.json.
type manifestEntry struct {
	File            string `json:"file"`
	Size            int    `json:"size"`
	Sample          int    `json:"sample"`
	PerfTime        int64  `json:"PerfTime"`
	PerfFreq        int64  `json:"PerfFreq"`
	PerfTime100nSec int64  `json:"PerfTime100nSec"`
	Object          struct {
		Index          uint32 `json:"index"`
		Name           string `json:"name"`
		NumCounters    uint32 `json:"NumCounters"`
		NumInstances   int32  `json:"NumInstances"`
		DetailLevel    uint32 `json:"DetailLevel"`
		DefaultCounter int32  `json:"DefaultCounter"`
		CodePage       uint32 `json:"CodePage"`
		PerfTime       int64  `json:"PerfTime"`
		PerfFreq       int64  `json:"PerfFreq"`
	} `json:"object"`
	Counters []struct {
		Index  uint32 `json:"index"`
		Name   string `json:"name"`
		Type   string `json:"type"`
		Size   uint32 `json:"size"`
		Offset uint32 `json:"offset"`
		Scale  int32  `json:"scale"`
		Detail uint32 `json:"detail"`
	} `json:"counters"`
	Instances []struct {
		Name       *string  `json:"name"`
		ParentObj  *uint32  `json:"parentObj"`
		ParentInst *uint32  `json:"parentInst"`
		UniqueID   *int32   `json:"uniqueID"`
		Values     []uint64 `json:"values"`
	} `json:"instances"`
}

// nameTable reads a REG_MULTI_SZ "Counter 009" table: index → name.
func nameTable(t *testing.T, raw []byte) map[uint32]string {
	t.Helper()
	u := make([]uint16, len(raw)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(raw[2*i:])
	}
	var strs []string
	start := 0
	for i, c := range u {
		if c == 0 {
			if i == start {
				break
			}
			strs = append(strs, string(utf16.Decode(u[start:i])))
			start = i + 1
		}
	}
	m := make(map[uint32]string)
	for i := 0; i+1 < len(strs); i += 2 {
		n, err := strconv.ParseUint(strs[i], 10, 32)
		if err != nil {
			t.Fatalf("name table: index %q: %v", strs[i], err)
		}
		if _, dup := m[uint32(n)]; !dup {
			m[uint32(n)] = strs[i+1]
		}
	}
	return m
}

// TestCorpusManifest decodes the 88 real blocks and compares every field,
// instance and raw value with the manifest written by an independent reader.
func TestCorpusManifest(t *testing.T) {
	dir := corpus.Shared(t, "v1")
	var manifest []manifestEntry
	if err := json.Unmarshal(readCorpusFile(t, dir, "manifest.json"), &manifest); err != nil {
		t.Fatal(err)
	}
	if len(manifest) != 88 {
		t.Fatalf("manifest entries: have %d, want 88", len(manifest))
	}
	names := nameTable(t, readCorpusFile(t, dir, "pal_counter_009.multisz"))
	values := 0
	for _, m := range manifest {
		t.Run(m.File, func(t *testing.T) {
			data := readCorpusFile(t, dir, m.File)
			if len(data) != m.Size {
				t.Fatalf("size: have %d, want %d", len(data), m.Size)
			}
			blk, err := perfdata.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if blk.PerfTime != m.PerfTime || blk.PerfFreq != m.PerfFreq || blk.PerfTime100nSec != m.PerfTime100nSec {
				t.Errorf("block times: have %d %d %d, want %d %d %d", blk.PerfTime, blk.PerfFreq, blk.PerfTime100nSec, m.PerfTime, m.PerfFreq, m.PerfTime100nSec)
			}
			if have := blk.SystemName(); have != "ZACH-PC" {
				t.Errorf("system name: have %q, want ZACH-PC", have)
			}
			// winperf.h's documentation says SYSTEMTIME is UTC, but in these
			// captures (doc/FORMATS.md §1.2) it is
			// the machine's local time (EDT, UTC−4): the same instant as
			// PerfTime100nSec (which is UTC) shifted by -4 h.
			st := blk.SystemTime
			sys := time.Date(int(st.Year), time.Month(st.Month), int(st.Day), int(st.Hour), int(st.Minute), int(st.Second), int(st.Milliseconds)*1e6, time.UTC)
			ft := time.Unix(0, 0).UTC().Add(time.Duration(blk.PerfTime100nSec-116444736000000000) * 100)
			if d := sys.Sub(ft) + 4*time.Hour; d < -time.Second || d > time.Second || sys.Weekday() != time.Weekday(st.DayOfWeek) {
				t.Errorf("system time: have %+v (%v), want PerfTime100nSec's %v in UTC−4", st, sys, ft)
			}
			if blk.NumObjectTypes != 1 || blk.TotalByteLength != uint32(len(data)) || blk.Version != 1 || blk.Revision != 1 {
				t.Errorf("header: have %d objects, TotalByteLength %d, version %d.%d; want 1, %d, 1.1", blk.NumObjectTypes, blk.TotalByteLength, blk.Version, blk.Revision, len(data))
			}
			objs := blk.Objects()
			if !objs.Next() {
				t.Fatal(objs.Err())
			}
			o := objs.Object()
			if objs.Next() || objs.Err() != nil {
				t.Errorf("after the object: have another object or %v, want the end", objs.Err())
			}
			mo := m.Object
			if o.ObjectNameTitleIndex != mo.Index || names[o.ObjectNameTitleIndex] != mo.Name || o.NumCounters != mo.NumCounters ||
				o.NumInstances != mo.NumInstances || o.DetailLevel != mo.DetailLevel || o.DefaultCounter != mo.DefaultCounter ||
				o.CodePage != mo.CodePage || o.PerfTime != mo.PerfTime || o.PerfFreq != mo.PerfFreq {
				t.Errorf("object: have %+v (name %q), want %+v", o, names[o.ObjectNameTitleIndex], mo)
			}
			var defs []perfdata.CounterDef
			cs := o.Counters()
			for cs.Next() {
				c := cs.Counter()
				defs = append(defs, *c)
			}
			if err := cs.Err(); err != nil {
				t.Fatal(err)
			}
			if len(defs) != len(m.Counters) {
				t.Fatalf("counters: have %d, want %d", len(defs), len(m.Counters))
			}
			for i, c := range defs {
				mc := m.Counters[i]
				typ, err := engine.ParseCounterType(mc.Type)
				if err != nil {
					t.Fatalf("counter %d: manifest type %q: %v", i, mc.Type, err)
				}
				if c.CounterNameTitleIndex != mc.Index || names[c.CounterNameTitleIndex] != mc.Name || c.CounterType != typ ||
					c.CounterSize != mc.Size || c.CounterOffset != mc.Offset || c.DefaultScale != mc.Scale || c.DetailLevel != mc.Detail {
					t.Errorf("counter %d: have %+v (name %q), want %+v", i, c, names[c.CounterNameTitleIndex], mc)
				}
			}
			is := o.Instances()
			j := 0
			for ; is.Next(); j++ {
				in := is.Instance()
				if j >= len(m.Instances) {
					t.Fatalf("instances: have more than %d", len(m.Instances))
				}
				mi := m.Instances[j]
				name, err := in.Name()
				if err != nil {
					t.Fatal(err)
				}
				if mi.Name == nil {
					if in.Defined || name != "" || o.NumInstances != -1 {
						t.Errorf("instance %d: have a defined instance %q, want the single counter block of a PERF_NO_INSTANCES object", j, name)
					}
				} else if name != *mi.Name || in.ParentObjectTitleIndex != *mi.ParentObj || in.ParentObjectInstance != *mi.ParentInst || in.UniqueID != *mi.UniqueID {
					t.Errorf("instance %d: have %q parent %d/%d id %d, want %q %d/%d %d", j, name, in.ParentObjectTitleIndex, in.ParentObjectInstance, in.UniqueID, *mi.Name, *mi.ParentObj, *mi.ParentInst, *mi.UniqueID)
				}
				if len(mi.Values) != len(defs) {
					t.Fatalf("instance %d: manifest has %d values for %d counters", j, len(mi.Values), len(defs))
				}
				for i := range defs {
					v, err := in.CounterBlock.Value(&defs[i])
					if err != nil {
						t.Fatal(err)
					}
					if v != mi.Values[i] {
						t.Errorf("instance %d counter %d: have %d, want %d", j, i, v, mi.Values[i])
					}
					values++
				}
			}
			if err := is.Err(); err != nil {
				t.Fatal(err)
			}
			if j != len(m.Instances) {
				t.Errorf("instances: have %d, want %d", j, len(m.Instances))
			}
		})
	}
	t.Logf("%d raw values compared", values)
}

// TestCorpusSystemUpTime computes "System Up Time" (PERF_ELAPSED_TIME, the
// object time base) of the first System block: about 2002 seconds.
func TestCorpusSystemUpTime(t *testing.T) {
	data := readCorpusFile(t, corpus.Shared(t, "v1"), "s00_obj2.bin")
	blk, err := perfdata.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	objs := blk.Objects()
	if !objs.Next() {
		t.Fatal(objs.Err())
	}
	o := objs.Object()
	cb, err := o.SingleCounterBlock()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	cs := o.Counters()
	for {
		if !cs.Next() {
			break
		}
		c := cs.Counter()
		if c.CounterType != engine.ElapsedTime {
			continue
		}
		found = true
		var in engine.Input
		if err := o.Fill(&in, c, cb); err != nil {
			t.Fatal(err)
		}
		if in.New.SecondValue != uint64(o.PerfTime) || in.TimeBase != o.PerfFreq {
			t.Errorf("elapsed time base: have D %d F %d, want the object's %d %d", in.New.SecondValue, in.TimeBase, o.PerfTime, o.PerfFreq)
		}
		r := engine.Compute(&in, 0)
		if r.Status != engine.Valid || int(r.Value) != 2002 {
			t.Errorf("System Up Time: have %v %v, want about 2002 s", r.Value, r.Status)
		}
	}
	if !found {
		t.Fatal("no PERF_ELAPSED_TIME counter in the System block")
	}
}
