package gencorpus

import (
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// cell is one computed counter value of the V1 pair.
type cell struct {
	obj  uint32 // ObjectNameTitleIndex
	inst string // PDH instance name ("" without instances)
	def  int    // position of the counter definition
	name uint32 // CounterNameTitleIndex
	typ  engine.CounterType
	old  bool // the instance exists in the first sample
	res  engine.Result
}

// v1Pair decodes global-1 and global-2 and computes every counter of every
// instance of global-2 against global-1 (engine.Compute, options 0). It
// also returns, per object, the instance names of global-1.
func v1Pair(t *testing.T, files map[string][]byte) ([]cell, map[uint32]map[string]bool) {
	t.Helper()
	type inst struct {
		obj perfdata.Object
		in  perfdata.Instance
	}
	var blocks [2]perfdata.Block
	var found [2]map[string]inst
	var objs [2][]uint32
	names := map[uint32]map[string]bool{}
	for s, name := range []string{NameGlobal1, NameGlobal2} {
		blk, err := perfdata.Parse(files[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		blocks[s] = blk
		found[s] = map[string]inst{}
		var nm perfdata.Namer
		oc := blocks[s].Objects()
		for oc.Next() {
			o := oc.Object()
			objs[s] = append(objs[s], o.ObjectNameTitleIndex)
			pdh, err := nm.Names(&blocks[s], o)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			full := make([]string, len(pdh))
			for i, n := range pdh {
				if n.ParentMissing {
					t.Errorf("%s: object %d instance %d: parent missing", name, o.ObjectNameTitleIndex, i)
				}
				full[i] = n.String()
			}
			ic := o.Instances()
			for i := 0; ic.Next(); i++ {
				in := ic.Instance()
				key := strconv.Itoa(int(o.ObjectNameTitleIndex)) + "|" + full[i]
				if _, dup := found[s][key]; dup {
					t.Errorf("%s: two instances named %q", name, key)
				}
				found[s][key] = inst{*o, *in}
				if s == 0 {
					if names[o.ObjectNameTitleIndex] == nil {
						names[o.ObjectNameTitleIndex] = map[string]bool{}
					}
					names[o.ObjectNameTitleIndex][full[i]] = true
				}
			}
			if err := ic.Err(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if err := oc.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if strconv.Quote(blocks[1].SystemName()) != strconv.Quote(MachineName) {
		t.Errorf("system name %q, want %q", blocks[1].SystemName(), MachineName)
	}
	if len(objs[0]) != 8 || len(objs[1]) != 8 {
		t.Errorf("have %d and %d objects, want 8", len(objs[0]), len(objs[1]))
	}
	var cells []cell
	for key, n := range found[1] {
		o, hasOld := found[0][key]
		cc := n.obj.Counters()
		for i := 0; cc.Next(); i++ {
			def := cc.Counter()
			var in engine.Input
			if err := n.obj.Fill(&in, def, n.in.CounterBlock); err != nil {
				t.Fatalf("%s counter %d: %v", key, i, err)
			}
			if hasOld {
				var old engine.Input
				odef, err := o.obj.Counter(i)
				if err != nil {
					t.Fatal(err)
				}
				if odef.CounterType != def.CounterType || odef.CounterNameTitleIndex != def.CounterNameTitleIndex {
					t.Fatalf("%s counter %d: definitions differ between the samples", key, i)
				}
				if err := o.obj.Fill(&old, &odef, o.in.CounterBlock); err != nil {
					t.Fatal(err)
				}
				in.Old, in.HasOld = old.New, true
			}
			c := cell{obj: n.obj.ObjectNameTitleIndex, def: i, name: def.CounterNameTitleIndex,
				typ: def.CounterType, old: hasOld, res: engine.Compute(&in, 0)}
			c.inst = key[len(strconv.Itoa(int(c.obj)))+1:]
			cells = append(cells, c)
		}
		if err := cc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return cells, names
}

// wantStatus is the status every counter of the pair must have: Valid
// unless one of the deliberate cases of the README applies.
func wantStatus(c cell) engine.Status {
	switch {
	case !c.typ.Displayable():
		return engine.NotDisplayable
	case !c.old && c.typ.Samples() == 2: // notepad and its thread are new
		return engine.NewData
	case c.obj == 236 && c.inst == "HarddiskVolume1" && (c.typ == engine.AverageTimer || c.typ == engine.AverageBulk):
		return engine.NegativeDenominator // no transfers between the samples
	}
	return engine.Valid
}

func TestV1PairComputes(t *testing.T) {
	files := build(t)
	cells, old := v1Pair(t, files)
	if len(cells) < 800 {
		t.Errorf("have %d computed counters, want at least 800", len(cells))
	}
	counts := map[engine.Status]int{}
	newInsts := map[string]bool{}
	for _, c := range cells {
		counts[c.res.Status]++
		if !c.old {
			newInsts[strconv.Itoa(int(c.obj))+"|"+c.inst] = true
		}
		if want := wantStatus(c); c.res.Status != want {
			t.Errorf("object %d %q counter %d (%d, %v): have %v %v, want %v",
				c.obj, c.inst, c.def, c.name, c.typ, c.res.Status, c.res.Value, want)
		}
	}
	// Deliberate cases: exactly the two new instances, and each special
	// status present.
	if len(newInsts) != 2 || !newInsts["230|notepad"] || !newInsts["232|notepad/0"] {
		t.Errorf("instances only in global-2: have %v, want 230|notepad and 232|notepad/0", newInsts)
	}
	for _, st := range []engine.Status{engine.Valid, engine.NewData, engine.NegativeDenominator, engine.NotDisplayable} {
		if counts[st] == 0 {
			t.Errorf("no counter with status %v", st)
		}
	}
	// The process that exits: in global-1 only.
	if !old[230]["MpCmdRun"] || !old[232]["MpCmdRun/0"] {
		t.Errorf("MpCmdRun and MpCmdRun/0 missing from global-1")
	}
	for _, c := range cells {
		if c.inst == "MpCmdRun" || c.inst == "MpCmdRun/0" {
			t.Errorf("object %d: %s exists in global-2", c.obj, c.inst)
		}
	}
	// Duplicate names get #n.
	for _, want := range []string{"svchost", "svchost#1", "svchost#2", "svchost#3", "csrss", "csrss#1"} {
		if !old[230][want] {
			t.Errorf("Process instance %q missing", want)
		}
	}
	for _, want := range []string{"svchost/0", "svchost/0#3", "svchost/1#3", "csrss/2", "Idle/1", "_Total/_Total"} {
		if !old[232][want] {
			t.Errorf("Thread instance %q missing", want)
		}
	}
}

// get returns the value of the first definition named name (not a base)
// of instance inst of object obj.
func get(t *testing.T, cells []cell, obj uint32, inst string, name uint32) engine.Result {
	t.Helper()
	best := -1
	for i, c := range cells {
		if c.obj == obj && c.inst == inst && c.name == name && !c.typ.IsBase() && (best < 0 || c.def < cells[best].def) {
			best = i
		}
	}
	if best < 0 {
		t.Fatalf("object %d %q: no counter %d", obj, inst, name)
	}
	return cells[best].res
}

// TestV1HandChecked checks values chosen by construction, with the
// arithmetic written out independently of the engine.
func TestV1HandChecked(t *testing.T) {
	cells, _ := v1Pair(t, build(t))
	// The expected values are computed at run time in float64 (x keeps the
	// compiler from folding them exactly), in the arithmetic order of
	// doc/COUNTER-TYPES.md, so that they must equal the engine's bit for bit.
	sec := 10_000_000.0 // one second, in 100 ns units and in QPC ticks
	for _, tc := range []struct {
		obj  uint32
		inst string
		name uint32
		want float64
	}{
		{2, "", 674, 273_646},                              // System Up Time: UpTime1 + 1 s
		{2, "", 248, 14},                                   // Processes
		{2, "", 250, 31},                                   // Threads
		{2, "", 146, 7_850 / (sec / sec)},                  // Context Switches/sec
		{2, "", 1350, (x(33_554_432) / 536_870_912) * 100}, // % Registry Quota In Use = 6.25
		{4, "", 1406, (x(2_359_552) / 4_718_592) * 100},    // % Committed Bytes In Use
		{4, "", 1382, 6_143},                               // Available MBytes
		{4, "", 40, 96 / (sec / sec)},                      // Pages/sec
		{238, "_Total", 6, 100 * (1 - 7_500_000/sec)},      // % Processor Time = 25
		{238, "0", 6, 100 * (1 - 6_000_000/sec)},           // 40
		{238, "1", 1746, (9_000_000 / sec) * 100},          // % Idle Time = 90
		{238, "_Total", 148, 3_500 / (sec / sec)},          // Interrupts/sec
		{238, "_Total", 142, (1_550_000 / sec) * 100},      // % User Time
		{234, "0 C:", 200, (1_800_000 / sec) * 100},        // % Disk Time = 18
		{234, "0 C:", 1400, 1_800_000 / sec},               // Avg. Disk Queue Length = 0.18
		{234, "0 C:", 206, (1_800_000 / sec) / 200},        // Avg. Disk sec/Transfer
		{234, "0 C:", 224, x(2_621_440) / 200},             // Avg. Disk Bytes/Transfer
		{234, "0 C:", 1482, (8_400_000 / sec) * 100},       // % Idle Time
		{234, "_Total", 200, (1_150_000 / sec) * 100},      // % Disk Time, averaged over the disks
		{234, "_Total", 1400, 2_300_000 / sec},             // Avg. Disk Queue Length, summed
		{236, "C:", 408, (x(47_999) / 120_000) * 100},      // % Free Space
		{236, "_Total", 408, (x(798_066) / 1_073_969) * 100},
		{236, "HarddiskVolume1", 200, 0},
		{230, "_Total", 6, (20_000_000 / sec) * 100},   // % Processor Time = 200 (two CPUs)
		{230, "svchost#1", 6, (1_200_000 / sec) * 100}, // 12
		{230, "Idle", 6, (15_000_000 / sec) * 100},     // 150
		{230, "explorer", 684, 273_646 - 40},           // Elapsed Time
		{230, "notepad", 684, (sec - 4_000_000) / sec}, // started 0.4 s after the first sample
		{230, "notepad", 784, 6_240},                   // ID Process
		{232, "svchost/0", 6, (200_000 / sec) * 100},   // 2
		{232, "_Total/_Total", 6, (20_000_000 / sec) * 100},
		{232, "Idle/0", 804, 4},
		{232, "Idle/1", 6, (9_000_000 / sec) * 100}, // one idle thread per CPU: CPU 1's idle time
		{232, "Idle/0", 706, 0xFFFF_F802_1A2B_3000}, // Start Address (a HEX type) // ID Thread
	} {
		r := get(t, cells, tc.obj, tc.inst, tc.name)
		if r.Status != engine.Valid || r.Value != tc.want {
			t.Errorf("object %d %q counter %d: have %v %v, want Valid %v", tc.obj, tc.inst, tc.name, r.Status, r.Value, tc.want)
		}
	}
}

// TestTypesObject checks that the "PerfCalc Types" object holds every
// winperf.h type and that each computes to the value chosen for it.
func TestTypesObject(t *testing.T) {
	cells, _ := v1Pair(t, build(t))
	sec := 10_000_000.0
	obj := 3_579_545.0 // the object's PerfFreq; one second of it between the samples
	want := map[engine.CounterType]float64{
		engine.CounterCounter:             250 / (sec / sec),
		engine.CounterTimer:               (2_500_000 / sec) * 100,
		engine.CounterQueuelenType:        15_000_000 / sec,
		engine.CounterLargeQueuelenType:   25_000_000 / sec,
		engine.Counter100nsQueuelenType:   5_000_000 / sec,
		engine.CounterObjTimeQueuelenType: 7_159_090 / obj,
		engine.CounterBulkCount:           1_048_576 / (sec / sec),
		engine.CounterRawcount:            43,
		engine.CounterLargeRawcount:       5_000_001_024,
		engine.CounterRawcountHex:         0xDEAD_BEEF,
		engine.CounterLargeRawcountHex:    0x7FF6_A1B2_0000,
		engine.SampleFraction:             (x(3) / 4) * 100,
		engine.SampleCounter:              500 / (sec / sec),
		engine.CounterTimerInv:            100 * (1 - 9_000_000/sec),
		engine.AverageTimer:               (50_000 / sec) / 10,
		engine.AverageBulk:                x(40_960) / 10,
		engine.ObjTimeTimer:               (715_909 / obj) * 100,
		engine.Timer100ns:                 (3_300_000 / sec) * 100,
		engine.Timer100nsInv:              100 * (1 - 6_000_000/sec),
		engine.CounterMultiTimer:          ((12_000_000 / sec) / 4) * 100,
		engine.CounterMultiTimerInv:       100 * (1 - (30_000_000/sec)/4),
		engine.MultiTimer100ns:            ((20_000_000 / sec) / 4) * 100,
		engine.MultiTimer100nsInv:         100 * (1 - (36_000_000/sec)/4),
		engine.RawFraction:                (x(3) / 8) * 100,
		engine.LargeRawFraction:           (x(750_000_000_000) / 1_000_000_000_000) * 100,
		engine.ElapsedTime:                3_601,
		engine.CounterDelta:               7,
		engine.CounterLargeDelta:          9_000_000_000,
		engine.PrecisionSystemTimer:       (4_000_000 / sec) * 100,
		engine.Precision100nsTimer:        (6_500_000 / sec) * 100,
		engine.PrecisionObjectTimer:       (x(895_000) / 3_580_000) * 100,
	}
	seen := map[engine.CounterType]bool{}
	for _, c := range cells {
		if c.obj != TypesObject {
			continue
		}
		seen[c.typ] = true
		if c.name != TypesObject+2+2*uint32(primaryBefore(cells, c)) {
			t.Errorf("counter %d (%v): name index %d", c.def, c.typ, c.name)
		}
		w, ok := want[c.typ]
		switch {
		case !c.typ.Displayable():
			if c.res.Status != engine.NotDisplayable {
				t.Errorf("%v: have %v, want NotDisplayable", c.typ, c.res.Status)
			}
		case !ok:
			t.Errorf("%v: no expected value", c.typ)
		case c.res.Status != engine.Valid || c.res.Value != w:
			t.Errorf("%v: have %v %v, want Valid %v", c.typ, c.res.Status, c.res.Value, w)
		}
	}
	for _, typ := range engine.Types() {
		if !seen[typ] {
			t.Errorf("no counter of type %v", typ)
		}
	}
	if len(seen) != len(engine.Types()) {
		t.Errorf("have %d types, want %d", len(seen), len(engine.Types()))
	}
}

// primaryBefore counts the definitions of the types object before c that
// are not bases: c's name index is TypesObject + 2 + 2·that count, and a
// base carries the index of the counter before it.
func primaryBefore(cells []cell, c cell) int {
	n := 0
	for _, o := range cells {
		if o.obj == TypesObject && o.def < c.def && !o.typ.IsBase() {
			n++
		}
	}
	if c.typ.IsBase() {
		n--
	}
	return n
}

// x returns v; calling it keeps a constant expression from being folded
// exactly at compile time.
func x(v float64) float64 { return v }

func TestNameTables(t *testing.T) {
	files := build(t)
	ct, err := nametable.Parse(files[NameCounter009])
	if err != nil {
		t.Fatal(err)
	}
	ht, err := nametable.Parse(files[NameHelp009])
	if err != nil {
		t.Fatal(err)
	}
	if idx, text := ct.Pair(0); idx != 1 || text.String() != BaseIndex {
		t.Errorf("first pair %d → %q, want 1 → %q", idx, text.String(), BaseIndex)
	}
	if ct.Pairs() != ct.Len() || ht.Pairs() != ht.Len() {
		t.Errorf("repeated indexes: %d/%d pairs, %d/%d distinct", ct.Pairs(), ht.Pairs(), ct.Len(), ht.Len())
	}
	for i := 1; i < ct.Len(); i++ {
		if idx, _ := ct.Pair(i); idx%2 != 0 {
			t.Errorf("Counter 009: odd index %d", idx)
		}
	}
	for i := 0; i < ht.Len(); i++ {
		if idx, _ := ht.Pair(i); idx%2 != 1 {
			t.Errorf("Help 009: even index %d", idx)
		}
	}
	// Every index the pair uses has a name and a help text.
	for _, name := range []string{NameGlobal1, NameGlobal2} {
		blk, err := perfdata.Parse(files[name])
		if err != nil {
			t.Fatal(err)
		}
		oc := blk.Objects()
		for oc.Next() {
			o := oc.Object()
			check := func(n, h uint32) {
				if _, ok := ct.Lookup(n); !ok {
					t.Errorf("%s: no name for index %d", name, n)
				}
				if _, ok := ht.Lookup(h); !ok {
					t.Errorf("%s: no help for index %d", name, h)
				}
			}
			check(o.ObjectNameTitleIndex, o.ObjectHelpTitleIndex)
			cc := o.Counters()
			for cc.Next() {
				d := cc.Counter()
				check(d.CounterNameTitleIndex, d.CounterHelpTitleIndex)
				if d.CounterNameTitleIndex == 696 && d.CounterHelpTitleIndex != 339 {
					t.Errorf("%% DPC Time: help index %d, want 339", d.CounterHelpTitleIndex)
				}
			}
			if err := cc.Err(); err != nil {
				t.Fatal(err)
			}
		}
		if err := oc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		idx  uint32
		want string
	}{{2, "System"}, {238, "Processor"}, {1746, "% Idle Time"}, {TypesObject, "PerfCalc Types"},
		{TypesObject + 2, "PERF_COUNTER_COUNTER"}} {
		if text, ok := ct.Lookup(tc.idx); !ok || text.String() != tc.want {
			t.Errorf("index %d: have %q, want %q", tc.idx, text.String(), tc.want)
		}
	}
}

// TestV1Header checks the PERF_DATA_BLOCK facts of the pair.
func TestV1Header(t *testing.T) {
	files := build(t)
	var b [2]perfdata.Block
	for s, name := range []string{NameGlobal1, NameGlobal2} {
		var err error
		if b[s], err = perfdata.Parse(files[name]); err != nil {
			t.Fatal(err)
		}
	}
	if b[0].PerfFreq != 10_000_000 || b[1].PerfFreq != 10_000_000 {
		t.Errorf("PerfFreq %d, %d", b[0].PerfFreq, b[1].PerfFreq)
	}
	if d := b[1].PerfTime - b[0].PerfTime; d != 10_000_000 {
		t.Errorf("PerfTime delta %d, want 10,000,000", d)
	}
	if d := b[1].PerfTime100nSec - b[0].PerfTime100nSec; d != 10_000_000 {
		t.Errorf("PerfTime100nSec delta %d, want 10,000,000", d)
	}
	// Local time, UTC+1: 2026-03-14 (a Saturday) 10:15:30.250, then 31.250.
	want := wintype.SystemTime{Year: 2026, Month: 3, DayOfWeek: 6, Day: 14, Hour: 10, Minute: 15, Second: 30, Milliseconds: 250}
	if b[0].SystemTime != want {
		t.Errorf("SystemTime %+v, want %+v", b[0].SystemTime, want)
	}
	want.Second++
	if b[1].SystemTime != want {
		t.Errorf("SystemTime %+v, want %+v", b[1].SystemTime, want)
	}
	// 2026-03-14 09:15:30.250 UTC as a FILETIME: days from 1601 to 1970,
	// then Unix seconds.
	const unix = 1_773_479_730 // 2026-03-14T09:15:30Z
	if ft := int64(unix+11_644_473_600)*10_000_000 + 2_500_000; b[0].PerfTime100nSec != ft {
		t.Errorf("PerfTime100nSec %d, want %d", b[0].PerfTime100nSec, ft)
	}
	if b[0].DefaultObject != 238 {
		t.Errorf("DefaultObject %d, want 238", b[0].DefaultObject)
	}
}
