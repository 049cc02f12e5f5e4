package query_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// manifestBlock is one entry of ../shared/corpus/v1/manifest.json: the
// expected decode of one real block, by an independent reader.
type manifestBlock struct {
	File            string `json:"file"`
	Sample          int    `json:"sample"`
	PerfTime        int64  `json:"PerfTime"`
	PerfFreq        int64  `json:"PerfFreq"`
	PerfTime100nSec int64  `json:"PerfTime100nSec"`
	Object          struct {
		Index        uint32 `json:"index"`
		Name         string `json:"name"`
		NumInstances int    `json:"NumInstances"`
		PerfTime     int64  `json:"PerfTime"`
		PerfFreq     int64  `json:"PerfFreq"`
	} `json:"object"`
	Counters []struct {
		Name  string `json:"name"`
		Type  string `json:"type"`
		Size  int    `json:"size"`
		Scale int32  `json:"scale"`
	} `json:"counters"`
	Instances []struct {
		Name   *string  `json:"name"`
		Values []uint64 `json:"values"`
	} `json:"instances"`
}

// want is the expected value of one counter, computed in the test.
type want struct {
	path   string
	value  float64
	status engine.Status
}

// pdhNames returns the PDH names of the block's instances: the name, and
// "#k" for the k-th repetition (case-insensitive) of a name. The real
// blocks hold one object each, so no parent can be resolved.
func pdhNames(b *manifestBlock) []string {
	seen := map[string]int{}
	var out []string
	for _, in := range b.Instances {
		if in.Name == nil {
			out = append(out, "")
			continue
		}
		k := seen[strings.ToLower(*in.Name)]
		seen[strings.ToLower(*in.Name)] = k + 1
		n := *in.Name
		if k > 0 {
			n += "#" + strconv.Itoa(k)
		}
		out = append(out, n)
	}
	return out
}

// expected computes every displayed counter of the newer block from the raw
// values of the manifest, with doc/COUNTER-TYPES.md's formulas written out.
// The arithmetic is on float64 variables (Go's constant arithmetic would be
// exact).
func expected(t *testing.T, machine string, old, cur *manifestBlock) []want {
	oldNames := pdhNames(old)
	oldByName := map[string]int{}
	for i, n := range oldNames {
		oldByName[strings.ToLower(n)] = i
	}
	var out []want
	for i, name := range pdhNames(cur) {
		j, hasOld := oldByName[strings.ToLower(name)]
		for c, def := range cur.Counters {
			typ, err := strconv.ParseUint(def.Type, 0, 32)
			if err != nil {
				t.Fatal(err)
			}
			if typ&0xFFFF0000 == 0x40030000 { // *_BASE and PERF_PRECISION_TIMESTAMP: not listed
				continue
			}
			path := `\\` + machine + `\` + cur.Object.Name
			if cur.Object.NumInstances >= 0 {
				path += "(" + name + ")"
			}
			path += `\` + def.Name
			w := want{path: path}
			n1 := cur.Instances[i].Values[c]
			var n0, b0 uint64
			if hasOld {
				n0 = old.Instances[j].Values[c]
			}
			var b1 uint64
			if c+1 < len(cur.Counters) {
				b1 = cur.Instances[i].Values[c+1]
				if hasOld {
					b0 = old.Instances[j].Values[c+1]
				}
			}
			twoSample := typ != 0x00010000 && typ != 0x00010100 && typ != 0x20020400 && typ != 0x30240500
			switch {
			case twoSample && !hasOld:
				w.status = engine.NewData
			default:
				w.value, w.status = formula(t, uint32(typ), n0, n1, b0, b1, old, cur)
			}
			out = append(out, w)
		}
	}
	return out
}

// formula is doc/COUNTER-TYPES.md's table for the types of the real captures.
func formula(t *testing.T, typ uint32, n0, n1, b0, b1 uint64, old, cur *manifestBlock) (float64, engine.Status) {
	dN := float64(n1 - n0)
	switch typ {
	case 0x10410400, 0x10410500: // PERF_COUNTER_COUNTER, PERF_COUNTER_BULK_COUNT: ΔN / (ΔD / F)
		dD, F := cur.PerfTime-old.PerfTime, cur.PerfFreq
		if dD <= 0 || F <= 0 {
			return 0, engine.NegativeDenominator
		}
		if n1 < n0 {
			return 0, engine.NegativeValue
		}
		return dN / (float64(dD) / float64(F)), engine.Valid
	case 0x00010000, 0x00010100: // PERF_COUNTER_RAWCOUNT, PERF_COUNTER_LARGE_RAWCOUNT: N1
		return float64(n1), engine.Valid
	case 0x20510500, 0x21510500, 0x00550500: // 100 ns timer, its inverse, 100 ns queue length
		dD := cur.PerfTime100nSec - old.PerfTime100nSec
		if dD <= 0 {
			return 0, engine.NegativeDenominator
		}
		if n1 < n0 {
			return 0, engine.NegativeValue
		}
		switch typ {
		case 0x20510500: // (ΔN / ΔD) * 100
			return (dN / float64(dD)) * 100, engine.Valid
		case 0x21510500: // 100 * (1 − ΔN / ΔD)
			v := 100 * (1 - dN/float64(dD))
			if v < 0 {
				return 0, engine.NegativeValue
			}
			return v, engine.Valid
		default: // ΔN / ΔD
			return dN / float64(dD), engine.Valid
		}
	case 0x20570500: // PERF_PRECISION_100NS_TIMER: (ΔN / ΔB) * 100
		if b1 <= b0 {
			return 0, engine.NegativeDenominator
		}
		if n1 < n0 {
			return 0, engine.NegativeValue
		}
		return (dN / float64(b1-b0)) * 100, engine.Valid
	case 0x30020400: // PERF_AVERAGE_TIMER: (ΔN / F) / ΔB
		F := cur.PerfFreq
		if b1 <= b0 || F <= 0 {
			return 0, engine.NegativeDenominator
		}
		if n1 < n0 {
			return 0, engine.NegativeValue
		}
		return (dN / float64(F)) / float64(b1-b0), engine.Valid
	case 0x40020500: // PERF_AVERAGE_BULK: ΔN / ΔB
		if b1 <= b0 {
			return 0, engine.NegativeDenominator
		}
		if n1 < n0 {
			return 0, engine.NegativeValue
		}
		return dN / float64(b1-b0), engine.Valid
	case 0x20020400: // PERF_RAW_FRACTION: (N1 / B1) * 100
		if b1 == 0 {
			return 0, engine.NegativeDenominator
		}
		return (float64(n1) / float64(b1)) * 100, engine.Valid
	case 0x30240500: // PERF_ELAPSED_TIME: (D1 − N1) / F, object time base
		D, F := uint64(cur.Object.PerfTime), cur.Object.PerfFreq
		if F <= 0 {
			return 0, engine.NegativeDenominator
		}
		if n1 > D {
			return 0, engine.NegativeValue
		}
		return float64(D-n1) / float64(F), engine.Valid
	}
	t.Fatalf("type %#x: no formula in the test", typ)
	return 0, 0
}

func loadManifest(t *testing.T, dir string) map[string]*manifestBlock {
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []*manifestBlock
	if err := json.Unmarshal(data, &blocks); err != nil {
		t.Fatal(err)
	}
	m := map[string]*manifestBlock{}
	for _, b := range blocks {
		m[b.File] = b
	}
	return m
}

// TestCorpusV1 computes every counter of every pair of consecutive real
// samples (sNN, sNN+1) of each object and compares each value, bit for bit,
// and each status with the formulas above applied to the manifest's raw
// values. It skips where ../shared/corpus is absent.
func TestCorpusV1(t *testing.T) {
	dir := corpus.Shared(t, "v1")
	man := loadManifest(t, dir)
	table, err := os.ReadFile(filepath.Join(dir, "pal_counter_009.multisz"))
	if err != nil {
		t.Fatal(err)
	}
	names, err := nametable.Parse(table)
	if err != nil {
		t.Fatal(err)
	}
	q := query.New(query.Config{Names: names})
	var vals []query.Value
	checked := 0
	for _, obj := range []int{2, 4, 230, 234, 236, 238, 510, 638} {
		for s := 0; s < 10; s++ {
			oldFile := "s" + pad2(s) + "_obj" + strconv.Itoa(obj) + ".bin"
			newFile := "s" + pad2(s+1) + "_obj" + strconv.Itoa(obj) + ".bin"
			t.Run(newFile, func(t *testing.T) {
				older := readFile(t, filepath.Join(dir, oldFile))
				newer := readFile(t, filepath.Join(dir, newFile))
				vals, err = q.Run(vals[:0], older, newer)
				if err != nil {
					t.Fatal(err)
				}
				ws := expected(t, "ZACH-PC", man[oldFile], man[newFile])
				if len(vals) != len(ws) {
					t.Fatalf("have %d values, want %d", len(vals), len(ws))
				}
				for i, w := range ws {
					v := vals[i]
					if string(v.Parts.AppendTo(nil)) != w.path {
						t.Errorf("value %d: have parts %+v, want those of %s", i, v.Parts, w.path)
					}
					if string(v.Path) != w.path || v.Status != w.status || math.Float64bits(v.Value) != math.Float64bits(w.value) {
						t.Errorf("value %d: have %s = %v (%v), want %s = %v (%v)", i, v.Path, v.Value, v.Status, w.path, w.value, w.status)
					}
					checked++
				}
			})
		}
	}
	if checked == 0 {
		t.Fatal("no value checked")
	}
	t.Logf("%d values checked", checked)
}

// TestCorpusDuplicateNames checks that the real Process block's duplicate
// names come out as svchost, svchost#1, … in order of appearance.
func TestCorpusDuplicateNames(t *testing.T) {
	dir := corpus.Shared(t, "v1")
	data := readFile(t, filepath.Join(dir, "s00_obj230.bin"))
	// Without a name table, Process is #230 and % Processor Time #6.
	q := query.New(query.Config{Paths: mustPaths(t, `\#230(svchost*)\#6`)})
	vals, err := q.Run(nil, nil, data)
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, v := range vals {
		have = append(have, string(v.Path))
	}
	var want []string
	for i := range 13 {
		n := "svchost"
		if i > 0 {
			n += "#" + strconv.Itoa(i)
		}
		want = append(want, `\\ZACH-PC\#230(`+n+`)\#6`)
	}
	if strings.Join(have, "\n") != strings.Join(want, "\n") {
		t.Errorf("have\n%s\nwant\n%s", strings.Join(have, "\n"), strings.Join(want, "\n"))
	}
}

func pad2(i int) string {
	if i < 10 {
		return "0" + strconv.Itoa(i)
	}
	return strconv.Itoa(i)
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
