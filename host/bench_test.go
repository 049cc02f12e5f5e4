package host_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/host"
	"github.com/perfcalc/perfcalc/tools/cputime"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// calculator is the method set that Engine and Native share.
type calculator interface {
	Compute(*engine.Input, engine.Options) (engine.Result, error)
	ComputeBatch([]engine.Input, engine.Options, []engine.Result) (int, error)
	DecodeV1(data, names []byte, opts engine.Options) (*host.Decoded, error)
}

var (
	_ calculator = (*host.Engine)(nil)
	_ calculator = host.Native{}
)

func sides() []struct {
	name string
	c    calculator
} {
	return []struct {
		name string
		c    calculator
	}{{"native", host.Native{}}, {"host", shared}}
}

// BenchmarkCompute is the cost of one value.
func BenchmarkCompute(b *testing.B) {
	in := engine.Input{Counter: engine.Counter{Type: engine.Timer100ns, TimeBase: engine.Frequency100NS}, HasOld: true,
		Old: engine.RawCounter{FirstValue: 1843201, SecondValue: 7178903079}, New: engine.RawCounter{FirstValue: 1851877, SecondValue: 7393676247}}
	for _, s := range sides() {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := s.c.Compute(&in, engine.Cap100); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// With a per-call deadline: wazero's close-on-context-done.
	b.Run("host-timeout", func(b *testing.B) {
		e := newEngine(b, host.NewConfig().WithCallTimeout(time.Second))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := e.Compute(&in, engine.Cap100); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkComputeBatch is the cost of a batch of 10,000 counters, native
// and in the module, per counter (cpu-ns/counter: the benchmark thread's
// CPU time; the module runs on it): edge cases of every type, and
// realistic rates, inverse timers and a mix of eight common types.
//
//	go test -run '^$' -bench ComputeBatch -count 6 ./host | benchstat -col /side -
func BenchmarkComputeBatch(b *testing.B) {
	edge, _ := edgeInputs()
	batch := make([]engine.Input, 10_000)
	for i := range batch {
		batch[i] = edge[i%len(edge)]
	}
	for _, set := range []struct {
		name string
		ins  []engine.Input
	}{
		{"edge", batch},
		{"rate", realisticInputs(engine.CounterBulkCount, 10_000)},
		{"inverse", realisticInputs(engine.Timer100nsInv, 10_000)},
		{"mixed", realisticInputs(0, 10_000)},
	} {
		out := make([]engine.Result, len(set.ins))
		for _, s := range sides() {
			if _, err := s.c.ComputeBatch(set.ins, engine.Cap100, out); err != nil { // an instance, warm
				b.Fatal(err)
			}
			b.Run("set="+set.name+"/side="+s.name, func(b *testing.B) {
				b.ReportAllocs()
				t := cputime.Start(b)
				for i := 0; i < b.N; i++ {
					if n, err := s.c.ComputeBatch(set.ins, engine.Cap100, out); n != len(set.ins) || err != nil {
						b.Fatal(n, err)
					}
				}
				t.Report(b, float64(b.N*len(set.ins)), "counter")
			})
		}
	}
}

// realisticInputs returns n pairs of samples about a second apart that
// give Valid values: of type typ, or, for typ 0, of eight common types at
// random.
func realisticInputs(typ engine.CounterType, n int) []engine.Input {
	rng := rand.New(rand.NewPCG(1, 2))
	types := []engine.CounterType{engine.CounterBulkCount, engine.Timer100nsInv, engine.CounterLargeRawcount, engine.Timer100ns,
		engine.Counter100nsQueuelenType, engine.CounterCounter, engine.CounterRawcount, engine.CounterLargeDelta}
	ins := make([]engine.Input, n)
	for i := range ins {
		const f = engine.Frequency100NS
		d0 := 130057734178440000 + rng.Uint64N(1<<40)
		dd := f + rng.Uint64N(f/10)
		n0 := rng.Uint64N(1 << 40)
		t := typ
		if t == 0 {
			t = types[rng.IntN(len(types))]
		}
		ins[i] = engine.Input{Counter: engine.Counter{Type: t, TimeBase: f, Scale: int32(rng.IntN(5)) - 2}, HasOld: true,
			Old: engine.RawCounter{FirstValue: n0, SecondValue: d0}, New: engine.RawCounter{FirstValue: n0 + rng.Uint64N(dd+1), SecondValue: d0 + dd}}
	}
	return ins
}

// syntheticV1 is the ~1 MB V1 blob of tools/gencorpus, which
// perfdata's benchmarks walk too.
func syntheticV1(tb testing.TB) []byte {
	b, err := gencorpus.SyntheticV1()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// BenchmarkDecodeV1 decodes the synthetic ~1 MB blob into records.
func BenchmarkDecodeV1(b *testing.B) {
	data := syntheticV1(b)
	for _, s := range sides() {
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if d, err := s.c.DecodeV1(data, nil, 0); err != nil || len(d.Records) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNew is the start-up: compiling the module (cold: an empty cache
// each time) or loading it from a warm compilation cache, then one
// instance. Run it with -benchtime=3x: a cold start takes about a second.
func BenchmarkNew(b *testing.B) {
	b.Run("cold", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			e, err := host.New(context.Background(), host.NewConfig().WithCompilationCacheDir(b.TempDir()))
			if err != nil {
				b.Fatal(err)
			}
			e.Close(context.Background())
		}
	})
	b.Run("warm", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			e, err := host.New(context.Background(), host.NewConfig().WithCompilationCacheDir(cacheDir))
			if err != nil {
				b.Fatal(err)
			}
			e.Close(context.Background())
		}
	})
}
