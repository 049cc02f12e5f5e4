package host_test

import (
	"bytes"
	"os"
	"reflect"
	"runtime"
	"testing"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/host"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/cputime"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// speedSide is one way of running the module's hot paths: natively (Native)
// or through wazero (an Engine).
type speedSide struct {
	name string
	csv  func([]byte) ([]byte, error)
	blg  func([]byte, relog.Options) (*host.Decoded, error)
	stat func([]byte, relog.Options) (*host.Decoded, error)
}

// BenchmarkModuleSpeed measures the module's hot paths against the native
// code on one core, side by side in one run, on the 42 MB log (the real Tx
// log repeated 160 times, 76,603 samples; PERFCALC_BENCH_LOG names another
// log): relog's CSV text (relog_text), the log's records (decode_blg) and
// its statistics (relog_stats). side=native is package host's Native, on
// one core (GOMAXPROCS 1: relog's sequential paths, as the module's), and
// side=module this package's module through wazero, the log copied into its
// memory on every call as a host does, on the instance that the call before
// left in the pool (Config.WithIdleMemory's default), and side=fresh the
// same on a new instance per call (WithIdleMemory(0): its memory faulted
// in as the log is copied); when PERFCALC_BASE_WASM names
// another module (an earlier build), side=base runs it too. Every side's
// output is compared with the native one's before it is measured.
//
//	go test -run '^$' -bench ModuleSpeed -benchtime 2x -count 3 ./host | benchstat -col /side -
//
// Read cpu-ns/op (the benchmark thread's CPU time, the module runs on it)
// on a busy machine.
func BenchmarkModuleSpeed(b *testing.B) {
	log := benchLog(b)
	native := host.Native{}
	sides := []speedSide{{"native", func(l []byte) ([]byte, error) { return native.RelogText(l, relog.Options{}, relog.CSV) }, native.DecodeBlg, native.RelogStats}}
	engine := func(name string, e *host.Engine) speedSide {
		return speedSide{name, func(l []byte) ([]byte, error) { return e.RelogText(l, relog.Options{}, relog.CSV) }, e.DecodeBlg, e.RelogStats}
	}
	sides = append(sides, engine("module", newEngine(b, host.NewConfig().WithPoolSize(1))))
	sides = append(sides, engine("fresh", newEngine(b, host.NewConfig().WithPoolSize(1).WithIdleMemory(0))))
	if p := os.Getenv("PERFCALC_BASE_WASM"); p != "" {
		sides = append(sides, engine("base", newEngine(b, host.NewConfig().WithModule(readFile(b, p)).WithPoolSize(1))))
	} else {
		b.Log("PERFCALC_BASE_WASM is not set: no earlier module is measured")
	}

	// The native outputs, made when a work is first measured (decode's
	// records are about 900 MB of the host's memory).
	var (
		wantCSV   []byte
		wantBlg   *host.Decoded
		wantStats *host.Decoded
	)
	want := func(b *testing.B, work string) {
		var err error
		switch {
		case work == "relog-csv" && wantCSV == nil:
			wantCSV, err = native.RelogText(log, relog.Options{}, relog.CSV)
		case work == "decode" && wantBlg == nil:
			wantBlg, err = native.DecodeBlg(log, relog.Options{})
		case work == "stats" && wantStats == nil:
			wantStats, err = native.RelogStats(log, relog.Options{})
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	run := func(b *testing.B, op func() error) {
		// One core (set here: the testing package sets GOMAXPROCS for
		// each benchmark function it runs).
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		b.SetBytes(int64(len(log)))
		b.ReportAllocs()
		if err := op(); err != nil { // warm: an instance, its memory grown
			b.Fatal(err)
		}
		t := cputime.Start(b)
		for i := 0; i < b.N; i++ {
			if err := op(); err != nil {
				b.Fatal(err)
			}
		}
		t.Report(b, float64(b.N), "op")
	}
	for _, s := range sides {
		b.Run("work=relog-csv/side="+s.name, func(b *testing.B) {
			want(b, "relog-csv")
			run(b, func() error {
				text, err := s.csv(log)
				if err == nil && !bytes.Equal(text, wantCSV) {
					b.Fatalf("%d bytes of CSV, want %d identical bytes", len(text), len(wantCSV))
				}
				return err
			})
		})
	}
	for _, s := range sides {
		b.Run("work=decode/side="+s.name, func(b *testing.B) {
			want(b, "decode")
			run(b, func() error {
				d, err := s.blg(log, relog.Options{})
				if err == nil && (len(d.Records) != len(wantBlg.Records) || !reflect.DeepEqual(d.Records[len(d.Records)-1], wantBlg.Records[len(wantBlg.Records)-1])) {
					b.Fatalf("%d records, want %d, the last the same", len(d.Records), len(wantBlg.Records))
				}
				return err
			})
		})
	}
	for _, s := range sides {
		b.Run("work=stats/side="+s.name, func(b *testing.B) {
			want(b, "stats")
			run(b, func() error {
				d, err := s.stat(log, relog.Options{})
				if err == nil && (len(d.Statistics) != len(wantStats.Statistics) || !reflect.DeepEqual(d.Statistics, wantStats.Statistics)) {
					b.Fatalf("%d statistics, want %d, the same", len(d.Statistics), len(wantStats.Statistics))
				}
				return err
			})
		})
	}
}

// benchLog is the benchmarks' log: PERFCALC_BENCH_LOG's file, or the Tx
// log repeated 160 times (42 MB).
func benchLog(b *testing.B) []byte {
	if p := os.Getenv("PERFCALC_BENCH_LOG"); p != "" {
		return readFile(b, p)
	}
	tx := readFile(b, corpus.Shared(b, "blg", "Tx_BasicPerfCounters.blg"))
	l, err := gencorpus.NewRepeatedLog(tx, 160)
	if err != nil {
		b.Fatal(err)
	}
	return l.Bytes()
}
