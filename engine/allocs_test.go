package engine

import (
	"math"
	"testing"
)

// TestAllocs pins the hot paths at zero allocations. It uses
// testing.AllocsPerRun rather than a benchmark's b.Loop, which on some Go
// versions keeps the call from being inlined and reports allocations that
// real code does not have.
func TestAllocs(t *testing.T) {
	ins := mixedInputs(256, 1)
	out := make([]Result, len(ins))
	series := make([]RawCounter, 64)
	for i := range series {
		series[i] = RawCounter{FirstValue: uint64(i * i), SecondValue: uint64(10 * i), MultiCount: 2}
	}
	buf := make([]byte, 0, 64)
	var sink float64
	for _, tc := range []struct {
		name string
		fn   func()
	}{
		{"Compute", func() {
			for i := range ins {
				sink += Compute(&ins[i], Cap100|Scale|Wrap32).Value
			}
		}},
		{"ComputeBatch", func() { ComputeBatch(ins, Cap100|Scale|Times1000|Wrap32, out) }},
		{"ComputeBatch/stack arrays", func() {
			// Arrays on the caller's stack stay there: ComputeBatch
			// keeps no reference (no indirect call leaks them).
			var in [4]Input
			var res [4]Result
			copy(in[:], ins)
			ComputeBatch(in[:], Cap100, res[:])
			sink += res[3].Value
		}},
		{"ComputeStatistics/2-sample", func() {
			sink += ComputeStatistics(Counter{Type: CounterCounter, TimeBase: 10}, series, Cap100).Mean
		}},
		{"ComputeStatistics/1-sample", func() {
			sink += ComputeStatistics(Counter{Type: CounterLargeRawcount}, series, Scale).Mean
		}},
		{"ComputeStatistics/unknown", func() {
			sink += ComputeStatistics(Counter{Type: 0x12345678}, series, 0).Mean
		}},
		{"AppendValue", func() {
			for _, v := range printfG17 {
				buf = AppendValue(buf[:0], CounterCounter, Result{Value: math.Float64frombits(v.bits)}, DefaultDigits)
			}
		}},
		{"AppendFloat/17 and 20 digits", func() {
			for _, v := range printfG20 {
				buf = AppendFloat(buf[:0], math.Float64frombits(v.bits), LegacyDigits)
				buf = AppendFloat(buf[:0], math.Float64frombits(v.bits), DefaultDigits)
			}
		}},
		{"AppendValue/hex", func() {
			buf = AppendValue(buf[:0], CounterLargeRawcountHex, Result{Value: 1 << 60}, DefaultDigits)
		}},
		{"AppendValue/not valid", func() {
			buf = AppendValue(buf[:0], CounterCounter, Result{Status: NewData}, DefaultDigits)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if have := testing.AllocsPerRun(100, tc.fn); have != 0 {
				t.Errorf("have %v allocations per run, want 0", have)
			}
		})
	}
	_ = sink
}
