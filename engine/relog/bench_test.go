package relog

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/tools/cputime"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
	"github.com/perfcalc/perfcalc/tools/memtest"
)

// BenchmarkCSV reads and converts each real log to CSV (both readings of
// the log, the text written to io.Discard). MB/s is of the .blg;
// allocs/sample divides the allocations by the log's samples.
func BenchmarkCSV(b *testing.B) {
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"} {
		b.Run(name, func(b *testing.B) {
			log := readCorpus(b, name)
			b.ReportAllocs()
			b.SetBytes(int64(len(log)))
			samples := 0
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			for i := 0; i < b.N; i++ {
				c, err := New(bytes.NewReader(log), int64(len(log)), Options{})
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Write(io.Discard, CSV); err != nil {
					b.Fatal(err)
				}
				samples, _, _ = c.Samples()
			}
			runtime.ReadMemStats(&ms1)
			b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(b.N)/float64(samples), "allocs/sample")
		})
	}
}

// BenchmarkPhases measures, on the real Tx log repeated to 42 MB, each
// phase of a conversion by the CPU time of the benchmark's thread
// (cpu-ns/op): reading the log with blg alone (read), the first reading
// (New), both readings (New + Next over every row) and the CSV text (New +
// Write, whose second reading runs on another thread when there are two
// CPUs: there cpu-ns/op is the first reading plus the text, and ns/op the
// wall time of it all; Write-one-goroutine is the same on one goroutine).
//
//	go test -run '^$' -bench Phases -count 6 ./engine/relog | benchstat -col /phase -
func BenchmarkPhases(b *testing.B) {
	log := newTxLog(b, 160).Bytes()
	phases := []struct {
		name string
		run  func() error
	}{
		{"read", func() error {
			r, err := blg.NewReader(bytes.NewReader(log), int64(len(log)))
			if err != nil {
				return err
			}
			for r.Next() {
			}
			return r.Err()
		}},
		{"New", func() error {
			_, err := New(bytes.NewReader(log), int64(len(log)), Options{})
			return err
		}},
		{"Next", func() error {
			c, err := New(bytes.NewReader(log), int64(len(log)), Options{})
			if err != nil {
				return err
			}
			for c.Next() {
			}
			return c.Err()
		}},
		{"ReadRows", func() error {
			c, err := New(bytes.NewReader(log), int64(len(log)), Options{})
			if err != nil {
				return err
			}
			return c.ReadRows(func(*ComputedRow) error { return nil })
		}},
		{"Write", func() error { return writeCSV(log, false) }},
		{"Write-one-goroutine", func() error { return writeCSV(log, true) }},
	}
	for _, ph := range phases {
		b.Run("log=Tx42MB/phase="+ph.name, func(b *testing.B) {
			b.SetBytes(int64(len(log)))
			t := cputime.Start(b)
			for i := 0; i < b.N; i++ {
				if err := ph.run(); err != nil {
					b.Fatal(err)
				}
			}
			t.Report(b, float64(b.N), "op")
		})
	}
}

// BenchmarkPALNames compares, on the Vista-era PAL log, what its name
// table costs (reading it from the log and parsing it, as New does) with
// converting the whole log to CSV (which includes it), by the CPU time of
// the benchmark's thread on one goroutine: issue 14 asks for a tenth at
// most.
//
//	go test -run '^$' -bench PALNames -count 6 ./engine/relog | benchstat -col /phase -
func BenchmarkPALNames(b *testing.B) {
	log := readCorpus(b, "PAL_SamplePerfmonLog.blg")
	for _, ph := range []struct {
		name string
		run  func() error
	}{
		{"names", func() error {
			r, err := blg.NewReader(bytes.NewReader(log), int64(len(log)))
			if err != nil {
				return err
			}
			_, err = nametable.Parse(r.NameTable())
			return err
		}},
		{"convert", func() error { return writeCSV(log, true) }},
	} {
		b.Run("phase="+ph.name, func(b *testing.B) {
			t := cputime.Start(b)
			for i := 0; i < b.N; i++ {
				if err := ph.run(); err != nil {
					b.Fatal(err)
				}
			}
			t.Report(b, float64(b.N), "op")
		})
	}
}

// writeCSV converts log to CSV into io.Discard, on one goroutine when
// sequential is set.
func writeCSV(log []byte, sequential bool) error {
	defer func(old bool) { sequentialWrite = old }(sequentialWrite)
	sequentialWrite = sequential
	c, err := New(bytes.NewReader(log), int64(len(log)), Options{})
	if err != nil {
		return err
	}
	return c.Write(io.Discard, CSV)
}

// newTxLog returns the real Tx log repeated copies times (a log of several
// hundred MB that never exists as a whole).
func newTxLog(t testing.TB, copies int64) *gencorpus.RepeatedLog {
	l, err := gencorpus.NewRepeatedLog(readCorpus(t, "Tx_BasicPerfCounters.blg"), copies)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestPeakMemory converts a log of about 400 MB made from the Tx log's
// buffers to CSV into io.Discard and reports the peak heap in use, the
// total allocated and the process's maximum resident set. It is kept out of
// the default run (it takes several seconds); run it with
//
//	PERFCALC_MEMTEST=1 go test -run PeakMemory -v ./engine/relog
//
// and with PERFCALC_MEMTEST_MERGE=1 for the same log merged (Merge) with a
// second copy of itself.
func TestPeakMemory(t *testing.T) {
	if os.Getenv("PERFCALC_MEMTEST") == "" {
		t.Skip("set PERFCALC_MEMTEST=1 to measure the memory of converting a 400 MB log")
	}
	copies := int64(1600) // 1600 copies of 4 buffers of 64 KiB: 400 MiB
	if s := os.Getenv("PERFCALC_MEMTEST_COPIES"); s != "" {
		copies, _ = strconv.ParseInt(s, 10, 64)
	}
	log := newTxLog(t, copies)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	var c *Converter
	var w countingWriter
	peak := memtest.PeakHeap(func() {
		var err error
		c, err = New(log, log.Size(), Options{})
		if os.Getenv("PERFCALC_MEMTEST_MERGE") != "" {
			// The log merged with a second copy of itself: every sample a
			// duplicate, two readers at once.
			c, err = Merge([]Input{{R: log, Size: log.Size()}, {R: newTxLog(t, copies), Size: log.Size()}}, Options{})
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Write(&w, CSV); err != nil {
			t.Fatal(err)
		}
	})
	elapsed := time.Since(start)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	n, _, _ := c.Samples()
	if want := 100 * int(copies); n < want {
		t.Errorf("have %d samples, want more than %d", n, want)
	}
	t.Logf("log %d MiB, %d samples, %d columns, CSV %d MiB, %v (%.0f MB/s)", log.Size()>>20, n, len(c.Columns()), w.n>>20, elapsed.Round(time.Millisecond), float64(log.Size())/elapsed.Seconds()/1e6)
	t.Logf("heap in use before %d KiB, peak %d KiB; total allocated %d KiB (%.2f allocations per sample); max RSS %s",
		before.HeapInuse>>10, peak>>10, (after.TotalAlloc-before.TotalAlloc)>>10, float64(after.Mallocs-before.Mallocs)/float64(n), memtest.MaxRSS())
	if peak > 64<<20 {
		t.Errorf("peak heap in use %d MiB, want under 64 MiB", peak>>20)
	}
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }
