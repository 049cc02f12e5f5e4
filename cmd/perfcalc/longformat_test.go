package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/corpus"
	"github.com/perfcalc/perfcalc/internal/gencorpus"
	"github.com/perfcalc/perfcalc/internal/memtest"
)

// txLog returns the real Tx log repeated copies times (160: 42 MB).
func txLog(tb testing.TB, copies int64) *gencorpus.RepeatedLog {
	b, err := os.ReadFile(filepath.Join(corpus.Shared(tb, "blg"), "Tx_BasicPerfCounters.blg"))
	if err != nil {
		tb.Fatal(err)
	}
	l, err := gencorpus.NewRepeatedLog(b, copies)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// BenchmarkLogFormats converts the 42 MB log (the real Tx log ×160) to
// each format, both readings of the log included; MB/s is of the .blg.
// Compare the formats side by side in one run:
//
//	go test -run '^$' -bench LogFormats -count 6 ./cmd/perfcalc | benchstat -col /format -
func BenchmarkLogFormats(b *testing.B) {
	log := txLog(b, 160)
	for _, format := range []string{"csv", "parquet", "openmetrics"} {
		b.Run("format="+format, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(log.Size())
			var out countingWriter
			for i := 0; i < b.N; i++ {
				c, err := relog.New(log, log.Size(), relog.Options{})
				if err != nil {
					b.Fatal(err)
				}
				out.n = 0
				if err := writeLog(&out, c, format); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(out.n)/float64(log.Size()), "out/in")
		})
	}
}

// TestPeakMemoryFormats converts a log of about 400 MB (the Tx log ×1600)
// to Parquet and to OpenMetrics and reports the peak heap in use and the
// process's maximum resident set; the heap must stay under 64 MiB. Kept
// out of the default run (about 20 s):
//
//	PERFCALC_MEMTEST=1 go test -run PeakMemoryFormats -v ./cmd/perfcalc
func TestPeakMemoryFormats(t *testing.T) {
	if os.Getenv("PERFCALC_MEMTEST") == "" {
		t.Skip("set PERFCALC_MEMTEST=1 to measure the memory of converting a 400 MB log to Parquet and OpenMetrics")
	}
	copies := int64(1600)
	if s := os.Getenv("PERFCALC_MEMTEST_COPIES"); s != "" {
		copies, _ = strconv.ParseInt(s, 10, 64)
	}
	log := txLog(t, copies)
	for _, format := range []string{"parquet", "openmetrics"} {
		start := time.Now()
		var out countingWriter
		var err error
		peak := memtest.PeakHeap(func() {
			var c *relog.Converter
			if c, err = relog.New(log, log.Size(), relog.Options{}); err == nil {
				err = writeLog(&out, c, format)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(start)
		t.Logf("%s: log %d MiB → %d MiB in %v (%.0f MB/s); peak heap in use %d MiB; max RSS so far %s",
			format, log.Size()>>20, out.n>>20, el.Round(time.Millisecond), float64(log.Size())/el.Seconds()/1e6, peak>>20, memtest.MaxRSS())
		if peak > 64<<20 {
			t.Errorf("%s: peak heap in use %d MiB, want under 64 MiB", format, peak>>20)
		}
	}
}
