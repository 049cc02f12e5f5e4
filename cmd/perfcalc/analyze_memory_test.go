package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfcalc/perfcalc/tools/hostile"
	"github.com/perfcalc/perfcalc/tools/memtest"
)

// TestPeakMemoryAnalyzeWide measures analyze on a log wide rather than
// long: 1,000 processes × 4 Process counters (4,000 series of the default
// analyses) × 1,000 samples (197 MB), in each format, and logs the peak
// heap in use and the process's maximum resident set. The charts are kept
// (500 points × 40 bytes a series: 82 MB) for JSON and HTML, none for the
// text; the reports (175 MB of JSON, 121 MB of HTML) are written as they
// go. Bounds, of the heap in use (the garbage between two collections
// included: up to as much as what is live): 256 MiB for JSON and HTML
// (the JSON took 800 MiB when it was written whole), 64 MiB for the text.
// Kept out of the default run (about 15 s):
//
//	PERFCALC_MEMTEST=1 go test -run PeakMemoryAnalyzeWide -v ./cmd/perfcalc
func TestPeakMemoryAnalyzeWide(t *testing.T) {
	if os.Getenv("PERFCALC_MEMTEST") == "" {
		t.Skip("set PERFCALC_MEMTEST=1 to measure the memory of analyze on a log of 4,000 series")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "wide.blg")
	if err := os.WriteFile(log, hostile.WideLog([]string{"Handle Count", "Thread Count", "Private Bytes", "Working Set"}, 1000, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		format string
		bound  uint64
	}{{"json", 256 << 20}, {"html", 256 << 20}, {"text", 64 << 20}} {
		out := filepath.Join(dir, "report."+tc.format)
		code := -1
		peak := memtest.PeakHeap(func() {
			code = run([]string{"analyze", log, "-f", tc.format, "-o", out}, nil, os.Stdout, os.Stderr)
		})
		fi, err := os.Stat(out)
		if code != exitOK || err != nil {
			t.Fatalf("%s: exit %d, %v", tc.format, code, err)
		}
		t.Logf("%s: %d MiB report; peak heap in use %d MiB; max RSS so far %s", tc.format, fi.Size()>>20, peak>>20, memtest.MaxRSS())
		if peak > tc.bound {
			t.Errorf("%s: peak heap in use %d MiB, want under %d MiB", tc.format, peak>>20, tc.bound>>20)
		}
		os.Remove(out)
	}
}
