package main

import (
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
	"github.com/perfcalc/perfcalc/tools/memtest"
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
// each format (bin: relog -f bin, the log rewritten), both readings of the
// log included; MB/s is of the .blg.
// Compare the formats side by side in one run:
//
//	go test -run '^$' -bench LogFormats -count 6 ./cmd/perfcalc | benchstat -col /format -
func BenchmarkLogFormats(b *testing.B) {
	log := txLog(b, 160)
	for _, format := range []outputFormat{formatCSV, formatParquet, formatOpenMetrics, formatBin} {
		b.Run("format="+format.String(), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(log.Size())
			var out countingWriter
			for i := 0; i < b.N; i++ {
				c, err := relog.New(log, log.Size(), relog.Options{})
				if err != nil {
					b.Fatal(err)
				}
				out.n = 0
				if format == formatBin {
					logs := &openedLogs{c: c, inputs: []relog.Input{{R: log, Size: log.Size()}}}
					if _, err := writeBin(&out, logs, relog.Options{}, nil); err != nil {
						b.Fatal(err)
					}
					continue
				}
				if _, err := writeLog(&out, c, format); err != nil {
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
	for _, format := range []outputFormat{formatParquet, formatOpenMetrics} {
		start := time.Now()
		var out countingWriter
		var err error
		peak := memtest.PeakHeap(func() {
			var c *relog.Converter
			if c, err = relog.New(log, log.Size(), relog.Options{}); err == nil {
				_, err = writeLog(&out, c, format)
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

// repeatedTimeLog writes a copy of the real Tx log whose third sample has
// the time stamp of the second (each of its FILETIMEs: the event's and its
// raw records'), as a log whose clock went back writes it. It returns the
// copy's path and the number of OpenMetrics samples that must be left
// out: the columns with a valid value in both samples (their CSV cells).
func repeatedTimeLog(t *testing.T) (path string, dropped int64) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), "Tx_BasicPerfCounters.blg"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := relog.New(bytes.NewReader(b), int64(len(b)), relog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var times [3]int64
	for i := range times {
		if !c.Next() {
			t.Fatal("the log has fewer than three samples")
		}
		times[i] = c.Row().Time
	}
	var second, third [8]byte
	binary.LittleEndian.PutUint64(second[:], uint64(times[1]))
	binary.LittleEndian.PutUint64(third[:], uint64(times[2]))
	if n := bytes.Count(b, third[:]); n == 0 {
		t.Fatal("the third sample's time stamp is not in the log")
	}
	b = bytes.ReplaceAll(b, third[:], second[:])
	path = filepath.Join(t.TempDir(), "repeated.blg")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCapture("relog", path)
	if code != exitOK {
		t.Fatalf("relog: exit %d: %s", code, errs)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if recs[2][0] != recs[3][0] {
		t.Fatalf("the second and third samples have times %s and %s, want the same", recs[2][0], recs[3][0])
	}
	for j := 1; j < len(recs[0]); j++ {
		if valid := func(s string) bool { return s != "" && s != " " }; valid(recs[2][j]) && valid(recs[3][j]) {
			dropped++
		}
	}
	if dropped == 0 {
		t.Fatal("no column has a valid value in both samples")
	}
	return path, dropped
}

// TestOpenMetricsDroppedNote: samples that OpenMetrics cannot hold (a
// time stamp not after the previous sample of their metric) are left out
// with one note on standard error naming how many and why, and the exit
// status stays 0, for relog and for convert; the other formats keep every
// sample and say nothing.
func TestOpenMetricsDroppedNote(t *testing.T) {
	log, dropped := repeatedTimeLog(t)
	note := strconv.FormatInt(dropped, 10) + " samples left out of the OpenMetrics text: their time stamp is not after the previous sample of the same metric"
	out := filepath.Join(t.TempDir(), "out.om")
	code, stdout, errs := runCapture("relog", log, "-f", "openmetrics", "-o", out)
	if code != exitOK || stdout != "" || !strings.HasPrefix(errs, "perfcalc relog: note: "+note) || strings.Count(errs, "\n") != 1 {
		t.Errorf("relog -f openmetrics: exit %d, stderr %q; want 0 and one line: %s", code, errs, note)
	}
	if text, err := os.ReadFile(out); err != nil || !bytes.HasSuffix(text, []byte("# EOF\n")) {
		t.Errorf("the output is not a whole OpenMetrics text (%v)", err)
	}
	for _, format := range []string{"csv", "parquet"} {
		if code, _, errs := runCapture("relog", log, "-f", format, "-o", out); code != exitOK || errs != "" {
			t.Errorf("relog -f %s: exit %d, stderr %q; want 0 and nothing", format, code, errs)
		}
	}
	code, stdout, errs = runCapture("convert", log, "-o", t.TempDir(), "-f", "openmetrics")
	if code != exitOK || !strings.Contains(stdout, "converted 1, skipped 0 (up to date), failed 0") ||
		errs != "perfcalc convert: note: "+log+": "+droppedNote(dropped)+"\n" {
		t.Errorf("convert -f openmetrics: exit %d, stdout %q, stderr %q; want 0, one converted and the note %s", code, stdout, errs, note)
	}
}
