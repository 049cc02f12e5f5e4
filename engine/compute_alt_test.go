package engine

import (
	"math"
	"math/bits"
	"testing"
)

// Designs of ComputeBatch that were measured and not kept, for
// BenchmarkComputeBatch to compare against (see doc/PERFORMANCE.md for the
// figures).

// computeBatchGeneric is the first ComputeBatch: the reference straight-line
// compute on every value, whatever its type (formula as masks: every type
// pays for every formula's work).
func computeBatchGeneric(in []Input, opts Options, out []Result) {
	for i := range min(len(in), len(out)) {
		out[i] = compute(&in[i], opts)
	}
}

// computeBatchPerValue dispatches every value to its formula's kernel, without
// looking for runs of one type.
func computeBatchPerValue(in []Input, opts Options, out []Result) {
	o := prepareOptions(opts)
	for i := range min(len(in), len(out)) {
		runKernel(formulaOf(in[i].Type), in[i:i+1], o, out[i:i+1])
	}
}

// computeBatchGrouped is a prepared plan made on the fly: each chunk of
// up to 256 inputs is grouped by formula (a counting sort of indices), then
// each group runs through its formula's kernel one value at a time, so that
// the dispatch is predictable even when the types are mixed.
func computeBatchGrouped(in []Input, opts Options, out []Result) {
	o := prepareOptions(opts)
	n := min(len(in), len(out))
	var idx [256]uint16
	for base := 0; base < n; base += len(idx) {
		chunk := in[base:min(base+len(idx), n)]
		var count [fElapsed + 2]uint16
		var forms [len(idx)]formula
		for i := range chunk {
			f := formulaOf(chunk[i].Type)
			forms[i] = f
			count[f+1]++
		}
		for f := 1; f < len(count); f++ {
			count[f] += count[f-1]
		}
		start := count
		for i := range chunk {
			f := forms[i]
			idx[count[f]] = uint16(i)
			count[f]++
		}
		for f := range fElapsed + 1 {
			for _, i := range idx[start[f]:start[f+1]] {
				j := base + int(i)
				runKernel(f, in[j:j+1], o, out[j:j+1])
			}
		}
	}
}

// soaRates is a structure-of-arrays layout of rate inputs: only the fields
// the rate kernel reads, each in its own slice.
type soaRates struct {
	bad            []bool // a CStatus other than 0 and 1, or no older sample
	n0, n1, d0, d1 []uint64
	f              []int64
	scale          []int32
}

func toSoA(in []Input) soaRates {
	s := soaRates{bad: make([]bool, len(in)), n0: make([]uint64, len(in)), n1: make([]uint64, len(in)),
		d0: make([]uint64, len(in)), d1: make([]uint64, len(in)), f: make([]int64, len(in)), scale: make([]int32, len(in))}
	for i, c := range in {
		s.bad[i] = (c.New.CStatus|c.Old.CStatus)>>1 != 0 || !c.HasOld
		s.n0[i], s.n1[i], s.d0[i], s.d1[i] = c.Old.FirstValue, c.New.FirstValue, c.Old.SecondValue, c.New.SecondValue
		s.f[i], s.scale[i] = c.TimeBase, c.Scale
	}
	return s
}

// kernelRateSoA is kernelRate over the SoA layout (valid inputs only: it
// measures the layout, not the fallback).
func kernelRateSoA(s *soaRates, o batchOptions, out []Result) int {
	n := len(s.n0)
	n1, d0, d1, f, scale, bad, out := s.n1[:n], s.d0[:n], s.d1[:n], s.f[:n], s.scale[:n], s.bad[:n], out[:n]
	for i, n0 := range s.n0 {
		x, bx := bits.Sub64(n1[i], n0, 0)
		_, forward := bits.Sub64(d0[i], d1[i], 0)
		if b2u(bad[i])|bx|(forward^1)|badF(f[i]) != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(float64(x)/(float64(d1[i]-d0[i])/float64(f[i])), scale[i])}
	}
	return n
}

func TestAlternativesMatchComputeBatch(t *testing.T) {
	ins := perturb(mixedInputs(3000, 9))
	for _, opts := range []Options{0, Cap100 | Scale | Times1000 | Wrap32} {
		want := make([]Result, len(ins))
		ComputeBatch(ins, opts, want)
		for _, alt := range []struct {
			name string
			fn   func([]Input, Options, []Result)
		}{
			{"generic", computeBatchGeneric},
			{"per-value-kernel", computeBatchPerValue},
			{"grouped", computeBatchGrouped},
		} {
			have := make([]Result, len(ins))
			alt.fn(ins, opts, have)
			for i := range have {
				if have[i].Status != want[i].Status || math.Float64bits(have[i].Value) != math.Float64bits(want[i].Value) {
					t.Fatalf("%s, input %d: have %v, want %v", alt.name, i, have[i], want[i])
				}
			}
		}
	}
}

func TestSoAMatchesComputeBatch(t *testing.T) {
	ins := typedInputs(CounterCounter, 2000, 9)
	want, have := make([]Result, len(ins)), make([]Result, len(ins))
	ComputeBatch(ins, Cap100|Scale, want)
	soa := toSoA(ins)
	if n := kernelRateSoA(&soa, prepareOptions(Cap100|Scale), have); n != len(ins) {
		t.Fatalf("have %d computed, want %d", n, len(ins))
	}
	for i := range have {
		if have[i] != want[i] {
			t.Fatalf("input %d: have %v, want %v", i, have[i], want[i])
		}
	}
}
