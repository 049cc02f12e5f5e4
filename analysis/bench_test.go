package analysis

import (
	"bytes"
	"io"
	"os"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
	"github.com/perfcalc/perfcalc/tools/memtest"
)

// benchSet is a few analyses of the Tx log's counters: every column
// matched, thresholds on each.
func benchSet() *Set {
	set := oneAnalysis(`\Processor(*)\% Processor Time`,
		Threshold{Name: "w", Condition: Warning, Priority: 50, Operator: Greater, Value: 50},
		Threshold{Name: "c", Condition: Critical, Priority: 100, Operator: Greater, Value: 80})
	for _, p := range []string{`\PhysicalDisk(*)\Avg. Disk Queue Length`, `\PhysicalDisk(*)\Avg. Disk Bytes/Write`} {
		set.Analyses = append(set.Analyses, oneAnalysis(p, Threshold{Name: "w", Condition: Warning, Priority: 50, Operator: GreaterEqual, Value: 2}).Analyses...)
	}
	for i := range set.Analyses {
		set.Analyses[i].Name += string(rune('0' + i))
	}
	return set
}

// BenchmarkRunTx: Run on the real Tx log (601 rows, 10 columns), exact
// and compat; the bytes are the log's.
func BenchmarkRunTx(b *testing.B) {
	log := corpusLog(b, "Tx_BasicPerfCounters.blg")
	set := benchSet()
	for _, mode := range []struct {
		name string
		opts Options
	}{{"exact", Options{}}, {"compat", Options{PALCompat: true}}} {
		b.Run(mode.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(log)))
			for b.Loop() {
				r, err := Run(open(b, log), set, mode.opts)
				if err != nil || len(r.Results) != 3 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRunLarge compares Run with relog's CSV conversion on the Tx log
// repeated to about 42 MB (96,000 rows of 10 columns, as relog's
// BenchmarkPhases): the issue asks analyze for at most 1.5 × relog's
// time. peak-heap-MB is the largest heap in use during one run: without a
// spill Run keeps every matched value (8 bytes × rows × series: 7 MB);
// with one (analyze-spill, as perfcalc analyze with a budget of 1 MiB),
// the budget's and, at the end, the largest series' (one per CPU). The
// sub-benchmark "interleaved" runs the conversion and Run with the default
// analyses one after the other in each iteration and reports the ratio of
// their wall times, analyze/relog (a load that comes and goes on the
// machine weighs on both alike).
//
//	go test -run '^$' -bench RunLarge -benchtime 3x ./analysis
func BenchmarkRunLarge(b *testing.B) {
	l, err := gencorpus.NewRepeatedLog(corpusLog(b, "Tx_BasicPerfCounters.blg"), 160)
	if err != nil {
		b.Fatal(err)
	}
	log := l.Bytes()
	set := benchSet()
	relogCSV := func() error {
		c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
		if err != nil {
			return err
		}
		return c.Write(io.Discard, relog.CSV)
	}
	b.Run("interleaved", func(b *testing.B) {
		var conv, an time.Duration
		for b.Loop() {
			t0 := time.Now()
			if err := relogCSV(); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			if _, err := Run(open(b, log), Defaults(), Options{}); err != nil {
				b.Fatal(err)
			}
			conv, an = conv+t1.Sub(t0), an+time.Since(t1)
		}
		b.ReportMetric(float64(an)/float64(conv), "analyze/relog")
	})
	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"relog-csv", relogCSV},
		{"analyze", func() error {
			_, err := Run(open(b, log), set, Options{})
			return err
		}},
		{"analyze-defaults", func() error {
			_, err := Run(open(b, log), Defaults(), Options{})
			return err
		}},
		{"analyze-compat", func() error {
			_, err := Run(open(b, log), set, Options{PALCompat: true})
			return err
		}},
		{"analyze-spill", func() error { // the values beyond 1 MiB in a temporary file (the log's 7 MB of values pass it)
			f, err := os.CreateTemp(b.TempDir(), "spill")
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = Run(open(b, log), set, Options{Spill: f, Budget: 1 << 20})
			return err
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(log)))
			peak := memtest.PeakHeap(func() {
				if err := tc.run(); err != nil {
					b.Fatal(err)
				}
			})
			b.ResetTimer()
			for b.Loop() {
				if err := tc.run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
		})
	}
}
