package query_test

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
	"github.com/perfcalc/perfcalc/tools/importban"
)

// TestImports: the package imports only the standard library (without fmt
// and os, which would bloat the WebAssembly module) and perfcalc's engine.
func TestImports(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

// bigPair returns an older and a newer capture of a Process object with n
// instances (with duplicate names, and the newer in another order) of the
// given counters.
func bigPair(tb testing.TB, n int, counters []encode.V1Counter) (older, newer []byte) {
	tb.Helper()
	enc := func(sec int64, step uint64, reverse bool) []byte {
		o := encode.V1Object{ObjectNameTitleIndex: idxProcess, NumInstances: int32(n), PerfTime: sec, PerfFreq: 1, Counters: counters}
		for i := range n {
			k := i
			if reverse {
				k = n - 1 - i
			}
			vals := make([]uint64, len(counters))
			for c := range vals {
				vals[c] = uint64(k+1) * step * uint64(c+1)
			}
			o.Instances = append(o.Instances, encode.V1Instance{Name: "proc" + strconv.Itoa(k%(n/2+1)), UniqueID: -1, Values: vals})
		}
		data, err := encode.EncodeV1(&encode.V1Blob{SystemName: "HOST", PerfTime: sec * 1000, PerfFreq: 1000,
			PerfTime100nSec: sec * secondIn100n, Objects: []encode.V1Object{o}})
		if err != nil {
			tb.Fatal(err)
		}
		return data
	}
	return enc(10, 1, false), enc(11, 3, true)
}

// mixedCounters returns n counters of assorted types (with bases).
func mixedCounters(n int) []encode.V1Counter {
	kinds := []encode.V1Counter{
		{CounterType: engine.Timer100ns, CounterSize: 8},
		{CounterType: engine.CounterCounter, CounterSize: 4},
		{CounterType: engine.CounterBulkCount, CounterSize: 8},
		{CounterType: engine.CounterLargeRawcount, CounterSize: 8},
	}
	var cs []encode.V1Counter
	for i := range n {
		c := kinds[i%len(kinds)]
		c.CounterNameTitleIndex = uint32(2 * (i + 1))
		cs = append(cs, c)
	}
	encode.V1Layout(cs)
	return cs
}

// TestAllocs pins the allocations of a query: once its buffers have grown
// (and its names are known), Run allocates nothing, whatever the number of
// counters, instances and selected paths, for V1 and V2.
func TestAllocs(t *testing.T) {
	allocs := func(counters, instances int, names bool, paths ...string) float64 {
		older, newer := bigPair(t, instances, mixedCounters(counters))
		cfg := query.Config{Paths: mustPaths(t, paths...)}
		if names {
			cfg.Names = testNames(t)
		}
		q := query.New(cfg)
		var vals []query.Value
		var err error
		if vals, err = q.Run(vals, older, newer); err != nil {
			t.Fatal(err)
		}
		if len(vals) == 0 {
			t.Fatal("no values")
		}
		return testing.AllocsPerRun(20, func() {
			vals, err = q.Run(vals[:0], older, newer)
		})
	}
	for _, tc := range []struct {
		name  string
		names bool
		paths []string
	}{
		{"every counter", false, nil},
		{"with names", true, nil},
		{"selected", false, []string{`\#230(proc1*)\*`, `\#230(*)\#2`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			few, many := allocs(4, 40, tc.names, tc.paths...), allocs(64, 40, tc.names, tc.paths...)
			if few != 0 || many != 0 {
				t.Errorf("have %v allocations per run with 4 counters per instance and %v with 64, want 0", few, many)
			}
		})
	}

	t.Run("V2", func(t *testing.T) {
		reg, strs := v2Reg(t)
		var insts []v2inst
		for i := range 30 {
			insts = append(insts, v2inst{"w" + strconv.Itoa(i%7), uint64(i), 1, uint64(i)})
		}
		older, newer := v2Data(t, 1, insts), v2Data(t, 2, insts)
		q := query.New(query.Config{RegInfo: reg, Strings: strs, Paths: mustPaths(t, `\*(*)\*`, `\{04030201-0000-0000-0000-000000000000}(w1*)\*`)})
		vals, err := q.Run(nil, older, newer)
		if err != nil || len(vals) == 0 {
			t.Fatal(err, len(vals))
		}
		if a := testing.AllocsPerRun(20, func() { vals, err = q.Run(vals[:0], older, newer) }); a != 0 {
			t.Errorf("have %v allocations per V2 run, want 0", a)
		}
	})
}

// BenchmarkRun measures a whole-snapshot query of a synthetic Process pair
// (200 instances × 28 counters), per counter.
func BenchmarkRun(b *testing.B) {
	older, newer := bigPair(b, 200, mixedCounters(28))
	for _, bc := range []struct {
		name  string
		paths []string
	}{
		{"all", nil},
		{"wildcards", []string{`\#230(*)\*`}},
		{"one-counter", []string{`\#230(*)\#2`}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			q := query.New(query.Config{Paths: mustPaths(b, bc.paths...)})
			vals, err := q.Run(nil, older, newer)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				vals, _ = q.Run(vals[:0], older, newer)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(vals)), "ns/counter")
		})
	}
}

// BenchmarkRealProcess measures a whole-snapshot query over the real
// Process block pair s00/s01 (51 instances × 28 counters), named through
// the real name table. It skips where ../shared/corpus is absent.
func BenchmarkRealProcess(b *testing.B) {
	dir := corpus.Shared(b, "v1")
	older := readFile(b, filepath.Join(dir, "s00_obj230.bin"))
	newer := readFile(b, filepath.Join(dir, "s01_obj230.bin"))
	names, err := nametable.Parse(readFile(b, filepath.Join(dir, "pal_counter_009.multisz")))
	if err != nil {
		b.Fatal(err)
	}
	q := query.New(query.Config{Names: names})
	vals, err := q.Run(nil, older, newer)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		vals, _ = q.Run(vals[:0], older, newer)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(vals)), "ns/counter")
}
