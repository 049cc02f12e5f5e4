package perfdata_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// planMatchesFill walks data and checks, for every instance, that
// Plan.Fill fills exactly what Object.Fill does counter by counter, and
// returns the same first error. It returns how many values it compared.
func planMatchesFill(t *testing.T, data []byte) (values int) {
	t.Helper()
	blk, err := perfdata.Parse(data)
	if err != nil {
		return 0
	}
	var p perfdata.Plan
	var have, want []engine.Input
	objs := blk.Objects()
	for {
		if !objs.Next() {
			return values
		}
		o := objs.Object()
		if err := o.Plan(&p); err != nil {
			t.Fatalf("object %d: Plan: %v", o.Index, err)
		}
		if len(p.Defs) != int(o.NumCounters) {
			t.Fatalf("object %d: have %d definitions, want NumCounters %d", o.Index, len(p.Defs), o.NumCounters)
		}
		have, want = make([]engine.Input, len(p.Defs)), make([]engine.Input, len(p.Defs))
		is := o.Instances()
		for {
			if !is.Next() {
				break
			}
			in := is.Instance()
			var wantErr error
			k := 0
			for ; k < len(p.Defs); k++ {
				// Fill leaves HasOld and Old alone: both sides start
				// with the same ones.
				want[k] = engine.Input{HasOld: true, Old: engine.RawCounter{FirstValue: uint64(k)}}
				have[k] = want[k]
				if wantErr = o.Fill(&want[k], &p.Defs[k], in.CounterBlock); wantErr != nil {
					break
				}
			}
			for i := k; i < len(have); i++ {
				have[i] = engine.Input{HasOld: true, Old: engine.RawCounter{FirstValue: uint64(i)}}
			}
			haveErr := p.Fill(have, in.CounterBlock)
			if (haveErr == nil) != (wantErr == nil) || haveErr != nil && haveErr.Error() != wantErr.Error() {
				t.Fatalf("object %d instance %d: Plan.Fill error %v, Fill error %v", o.Index, in.Index, haveErr, wantErr)
			}
			for i := range k {
				if have[i] != want[i] {
					t.Fatalf("object %d instance %d counter %d (%v):\nPlan.Fill %+v\nFill      %+v", o.Index, in.Index, i, p.Defs[i].CounterType, have[i], want[i])
				}
				values++
			}
		}
	}
}

func TestPlanFill(t *testing.T) {
	c := func(t engine.CounterType, size uint32) encode.V1Counter {
		return encode.V1Counter{CounterType: t, CounterSize: size}
	}
	// Every kind of counter of TestFill: time bases, bases, multi counts,
	// missing and wrong bases, a size-zero type.
	counters := laid(
		encode.V1Counter{CounterType: engine.CounterCounter, CounterSize: 4, DefaultScale: -2},
		c(engine.Timer100ns, 8), c(engine.ObjTimeTimer, 8), c(engine.ElapsedTime, 8),
		c(engine.RawFraction, 4), c(engine.RawBase, 4), c(engine.AverageTimer, 4), c(engine.AverageBase, 4),
		c(engine.Precision100nsTimer, 8), c(engine.PrecisionTimestamp, 8),
		c(engine.CounterMultiTimer, 8), c(engine.CounterMultiBase, 8),
		c(engine.MultiTimer100ns, 8), // trailing DWORD
		c(engine.LargeRawFraction, 8), c(engine.CounterRawcount, 4), c(engine.CounterNodata, 0),
		c(engine.SampleFraction, 4), // last, no base
	)
	values := []uint64{11, 12, 13, 1<<40 + 14, 15, 16, 17, 18, 19, 20, 21, 1<<33 + 22, 23, 25, 26, 0, 27}
	multi := make([]uint32, len(counters))
	multi[12] = 24
	blob := encode.V1Blob{PerfTime: 1000, PerfFreq: 100, PerfTime100nSec: 5_000_000, Objects: []encode.V1Object{{
		NumInstances: 2, PerfTime: 777, PerfFreq: 50, Counters: counters,
		Instances: []encode.V1Instance{{Name: "x", Values: values, MultiCounts: multi}, {Name: "y", Values: values, MultiCounts: multi}},
	}}}
	data := mustEncode(t, blob)
	o, cb := firstObject(t, data)
	defOff := func(i int) int {
		d, err := o.Counter(i)
		if err != nil {
			t.Fatal(err)
		}
		return d.Offset
	}
	// patch returns data with a definition's field (at byte field of
	// definition i) set to v.
	patch := func(i, field int, v uint32) []byte {
		b := append([]byte(nil), data...)
		binary.LittleEndian.PutUint32(b[defOff(i)+field:], v)
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		min  int // values compared at least
	}{
		{"every kind", data, 2 * len(counters)},
		{"CounterSize 3 (an error at counter 6)", patch(6, 32, 3), 2 * 6},
		{"base with CounterSize 5", patch(5, 32, 5), 2 * 4},
		{"multi base with CounterSize 2", patch(11, 32, 2), 2 * 10},
		{"value past the block (an error at counter 1)", patch(1, 36, cb.ByteLength-4), 0},
		{"multi timer's trailing DWORD missing (the slow path)", patch(12, 36, cb.ByteLength-8), 2 * len(counters)},
		{"offset near 2^32", patch(3, 36, 1<<32-6), 2 * 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if n := planMatchesFill(t, tc.data); n < tc.min {
				t.Errorf("compared %d values, want at least %d", n, tc.min)
			}
		})
	}
	t.Run("synthetic", func(t *testing.T) {
		if n := planMatchesFill(t, syntheticBlob(t)); n < 10_000 {
			t.Errorf("compared %d values, want at least 10,000", n)
		}
	})
	t.Run("real", func(t *testing.T) {
		dir := corpus.Shared(t, "v1")
		files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if n := planMatchesFill(t, data); n == 0 {
				t.Errorf("%s: no value compared", filepath.Base(f))
			}
		}
	})
	t.Run("short dst", func(t *testing.T) {
		var p perfdata.Plan
		if err := o.Plan(&p); err != nil {
			t.Fatal(err)
		}
		dst := make([]engine.Input, 3)
		if err := p.Fill(dst[:2], cb); err != nil {
			t.Fatal(err)
		}
		if dst[1].New.FirstValue != values[1] || dst[2] != (engine.Input{}) {
			t.Errorf("have %+v, want the first two filled, the third untouched", dst)
		}
	})
}

// TestPlanAllocs: preparing object after object into one Plan, and filling,
// allocate nothing once the Plan's buffers have grown.
func TestPlanAllocs(t *testing.T) {
	data := syntheticBlob(t)
	blk, err := perfdata.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var p perfdata.Plan
	dst := make([]engine.Input, 256)
	walk := func() {
		objs := blk.Objects()
		for {
			if !objs.Next() {
				return
			}
			o := objs.Object()
			if err := o.Plan(&p); err != nil {
				t.Fatal(err)
			}
			is := o.Instances()
			for {
				if !is.Next() {
					break
				}
				in := is.Instance()
				if err := p.Fill(dst, in.CounterBlock); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	walk()
	if n := testing.AllocsPerRun(10, walk); n != 0 {
		t.Errorf("have %v allocations per walk, want 0", n)
	}
}
