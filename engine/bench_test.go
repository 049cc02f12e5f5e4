package engine

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/tools/cputime"
)

// displayableTypes lists the winperf.h types that have a value.
func displayableTypes() []CounterType {
	var ts []CounterType
	for _, t := range Types() {
		if t.Displayable() {
			ts = append(ts, t)
		}
	}
	return ts
}

// realistic returns a pair of samples of type typ that look like real data
// (time stamps of a running machine, about one second apart, counters that
// move forward by plausible amounts), so that nearly every value is Valid.
func realistic(typ CounterType, rng *rand.Rand) Input {
	in := Input{Counter: Counter{Type: typ, Scale: int32(rng.IntN(5)) - 2}, HasOld: true}
	var f, d0 uint64
	switch typ.TimeBase() {
	case Timer100NS:
		f, d0 = Frequency100NS, 130057734178440000+rng.Uint64N(1<<40)
	default:
		f, d0 = 2725536, 1<<40+rng.Uint64N(1<<40)
	}
	in.TimeBase = int64(f)
	dd := f + rng.Uint64N(f/10) // about one second
	limit := uint64(1 << 40)
	if typ.RawSize() == 4 {
		limit = 1 << 31
	}
	n0 := rng.Uint64N(limit)
	var dn, b0, db uint64
	mc := uint32(1 + rng.IntN(16))
	switch typ {
	case CounterCounter, CounterBulkCount, SampleCounter, CounterDelta, CounterLargeDelta:
		dn = rng.Uint64N(1 << 20)
	case CounterQueuelenType, CounterLargeQueuelenType, Counter100nsQueuelenType, CounterObjTimeQueuelenType:
		dn = dd * rng.Uint64N(8)
	case CounterTimer, Timer100ns, ObjTimeTimer, CounterTimerInv, Timer100nsInv:
		dn = rng.Uint64N(dd + 1)
	case CounterMultiTimer, MultiTimer100ns, CounterMultiTimerInv, MultiTimer100nsInv:
		dn = rng.Uint64N(uint64(mc)*dd + 1)
	case PrecisionSystemTimer, Precision100nsTimer, PrecisionObjectTimer:
		b0, db = d0, dd
		dn = rng.Uint64N(db + 1)
	case RawFraction, LargeRawFraction:
		b0, db = 0, 1+rng.Uint64N(1<<20)
		n0, dn = 0, rng.Uint64N(db+1)
	case SampleFraction:
		b0, db = rng.Uint64N(1<<30), 1+rng.Uint64N(100)
		dn = rng.Uint64N(db + 1)
	case AverageTimer:
		b0, db = rng.Uint64N(1<<30), 1+rng.Uint64N(1000)
		dn = db * rng.Uint64N(f/100)
	case AverageBulk:
		b0, db = rng.Uint64N(1<<30), 1+rng.Uint64N(1000)
		dn = db * 512 * (1 + rng.Uint64N(128))
	case ElapsedTime:
		n0 = d0 - rng.Uint64N(1<<35)
	}
	in.Old = RawCounter{FirstValue: n0, SecondValue: d0, MultiCount: mc}
	in.New = RawCounter{FirstValue: n0 + dn, SecondValue: d0 + dd, MultiCount: mc}
	if b0 != 0 || db != 0 {
		in.Old.SecondValue, in.New.SecondValue = b0, b0+db
	}
	if typ == ElapsedTime {
		in.New.FirstValue = n0
	}
	return in
}

// mixedInputs returns n realistic inputs of random displayable types, in a
// random order fixed by seed.
func mixedInputs(n int, seed uint64) []Input {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	ts := displayableTypes()
	ins := make([]Input, n)
	for i := range ins {
		ins[i] = realistic(ts[rng.IntN(len(ts))], rng)
	}
	return ins
}

// typedInputs returns n realistic inputs of type typ.
func typedInputs(typ CounterType, n int, seed uint64) []Input {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	ins := make([]Input, n)
	for i := range ins {
		ins[i] = realistic(typ, rng)
	}
	return ins
}

func TestRealisticInputsAreValid(t *testing.T) {
	for _, tc := range []struct {
		name string
		ins  []Input
	}{
		{"mixed", mixedInputs(10_000, 1)},
		{"PERF_COUNTER_COUNTER", typedInputs(CounterCounter, 1000, 1)},
		{"PERF_100NSEC_TIMER_INV", typedInputs(Timer100nsInv, 1000, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]Result, len(tc.ins))
			ComputeBatch(tc.ins, Cap100|Scale, out)
			valid := 0
			for _, r := range out {
				if r.Status == Valid {
					valid++
				}
			}
			if valid < len(out)*99/100 {
				t.Errorf("have %d of %d Valid, want at least 99%%", valid, len(out))
			}
		})
	}
	for _, typ := range displayableTypes() {
		t.Run(typ.String(), func(t *testing.T) {
			for i, in := range typedInputs(typ, 200, 2) {
				if r := Compute(&in, 0); r.Status != Valid {
					t.Fatalf("input %d: have %v, want Valid: %+v", i, r, in)
				}
			}
		})
	}
}

var sinkResult Result

// BenchmarkCompute compares Compute on one value with the reference
// straight-line code it runs only for inputs that are not plainly valid
// (impl=generic):
//
//	go test -run '^$' -bench 'Compute$' -count 6 ./engine | benchstat -col /impl -
func BenchmarkCompute(b *testing.B) {
	for _, typ := range []CounterType{CounterCounter, Timer100nsInv, CounterMultiTimer, AverageTimer, CounterLargeRawcount} {
		for _, impl := range []struct {
			name string
			fn   func(*Input, Options) Result
		}{{"Compute", Compute}, {"generic", compute}} {
			b.Run("type="+typ.String()+"/impl="+impl.name, func(b *testing.B) {
				ins := typedInputs(typ, 64, 3)
				b.ReportAllocs()
				var r Result
				t := cputime.Start(b)
				for i := 0; i < b.N; i++ {
					r = impl.fn(&ins[i&63], Cap100|Scale)
				}
				t.Report(b, float64(b.N), "counter")
				sinkResult = r
			})
		}
	}
}

const batchSize = 10_000

// batchSets are the inputs of the batch benchmarks, each with the plain
// loop that computes it (baseline_test.go): one-type slices of a rate and
// of an inverse timer, and a random mix of every displayable type.
var batchSets = []struct {
	name  string
	in    func() []Input
	plain func([]Input, Options, []Result)
}{
	{"rate", func() []Input { return typedInputs(CounterCounter, batchSize, 4) }, plainRate},
	{"inverse", func() []Input { return typedInputs(Timer100nsInv, batchSize, 4) }, plainTimerInv},
	{"mixed", func() []Input { return mixedInputs(batchSize, 4) }, plainMixed},
}

// BenchmarkComputeBatch compares ComputeBatch with the plain loops and with
// the designs it replaced or rejected (compute_alt_test.go), side by side:
//
//	go test -run '^$' -bench ComputeBatch -count 6 ./engine | benchstat -col /impl -
func BenchmarkComputeBatch(b *testing.B) {
	for _, set := range batchSets {
		ins := set.in()
		for _, impl := range []struct {
			name string
			fn   func([]Input, Options, []Result)
		}{
			{"ComputeBatch", func(in []Input, opts Options, out []Result) { ComputeBatch(in, opts, out) }},
			{"plain", set.plain},
			{"generic", computeBatchGeneric},
			{"per-value-kernel", computeBatchPerValue},
			{"grouped", computeBatchGrouped},
		} {
			b.Run("set="+set.name+"/impl="+impl.name, func(b *testing.B) { benchBatch(b, ins, impl.fn) })
		}
	}
}

// BenchmarkComputeBatchGrowth is ComputeBatch's cost per counter at 100,
// 10^4 and 10^6 counters, one type and a random mix (doc/PERFORMANCE.md's
// growth rows): the cost is linear when ns/counter stays put.
//
//	go test -run '^$' -bench ComputeBatchGrowth -count 6 ./engine | benchstat -col /n -
func BenchmarkComputeBatchGrowth(b *testing.B) {
	for _, set := range batchSets {
		if set.name == "inverse" {
			continue
		}
		for _, n := range []int{100, 10_000, 1_000_000} {
			var ins []Input
			switch set.name {
			case "rate":
				ins = typedInputs(CounterCounter, n, 4)
			default:
				ins = mixedInputs(n, 4)
			}
			b.Run("set="+set.name+"/n="+strconv.Itoa(n), func(b *testing.B) {
				benchBatch(b, ins, func(in []Input, opts Options, out []Result) { ComputeBatch(in, opts, out) })
			})
		}
	}
}

// BenchmarkComputeBatchSoA measures the rate kernel over a
// structure-of-arrays layout, beside ComputeBatch's array of Input
// structures (BenchmarkComputeBatch/set=rate).
func BenchmarkComputeBatchSoA(b *testing.B) {
	soa := toSoA(typedInputs(CounterCounter, batchSize, 4))
	o := prepareOptions(Cap100 | Scale)
	out := make([]Result, batchSize)
	b.ReportAllocs()
	t := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		kernelRateSoA(&soa, o, out)
	}
	t.Report(b, float64(b.N)*batchSize, "counter")
}

func benchBatch(b *testing.B, ins []Input, fn func([]Input, Options, []Result)) {
	out := make([]Result, len(ins))
	b.ReportAllocs()
	t := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		fn(ins, Cap100|Scale, out)
	}
	t.Report(b, float64(b.N)*float64(len(ins)), "counter")
	sinkResult = out[len(out)-1]
}

func BenchmarkComputeStatistics(b *testing.B) {
	ins := typedInputs(CounterBulkCount, 1, 5)
	series := make([]RawCounter, 1000)
	for i := range series {
		series[i] = ins[0].Old
		series[i].FirstValue += uint64(i) * 1000
		series[i].SecondValue += uint64(i) * 2725536
	}
	b.ReportAllocs()
	var st Statistics
	for i := 0; i < b.N; i++ {
		st = ComputeStatistics(ins[0].Counter, series, 0)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(series)), "ns/sample")
	sinkResult.Value = st.Mean
}

func BenchmarkAppendValue(b *testing.B) {
	buf := make([]byte, 0, 64)
	r := Result{Value: 123.45678901234567}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = AppendValue(buf[:0], CounterCounter, r, DefaultDigits)
	}
}
