package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/collect"
	"github.com/perfcalc/perfcalc/engine"
)

// TestWatchBin: watch -f bin writes the replayed samples as a .blg whose
// relog CSV has the rows of watch --log -f csv (but the first, where relog
// has no earlier sample for the two-sample counters), and a copy of the
// log cut anywhere reads up to its last whole buffer: a sample per buffer.
func TestWatchBin(t *testing.T) {
	replayWatch(t)
	path := `\Processor(*)\*`
	code, csv, errs := runCapture("watch", "-c", path, "-sc", "5", "-si", "1ms", "--log")
	if code != exitOK {
		t.Fatalf("watch --log: exit %d: %s", code, errs)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "w.blg") // the extension picks -f bin
	code, stdout, errs := runCapture("watch", "-c", path, "-sc", "5", "-si", "1ms", "-o", out)
	if code != exitOK || !strings.Contains(stdout, "The command completed successfully.") {
		t.Fatalf("watch -o w.blg: exit %d: %s %s", code, stdout, errs)
	}
	code, rel, errs := runCmd(t, "", "relog", out, "-f", "csv")
	if code != exitOK || errs != "" {
		t.Fatalf("relog w.blg: exit %d: %s", code, errs)
	}
	want := strings.Split(csv, "\r\n")
	have := strings.Split(rel, "\r\n")
	if len(have) != 1+5+1 || colsOf(strings.ReplaceAll(have[0], ",", "\t")) != colsOf(strings.ReplaceAll(want[0], ",", "\t")) {
		t.Fatalf("relog w.blg:\n%s\nwatch --log:\n%s", rel, csv)
	}
	for k := 2; k <= 5; k++ {
		if cellsOf(strings.ReplaceAll(have[k], ",", "\t")) != cellsOf(strings.ReplaceAll(want[k], ",", "\t")) { // two runs: other times
			t.Errorf("row %d:\nrelog w.blg  %s\nwatch --log  %s", k, have[k], want[k])
		}
	}
	// Cut copies: one sample per buffer after the header's.
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != (1+5)*watchBufferSize {
		t.Fatalf("have %d bytes, want the header's buffer and one per sample (%d)", len(b), 6*watchBufferSize)
	}
	cut := filepath.Join(dir, "cut.blg")
	for k := 2; k <= 5; k++ {
		if err := os.WriteFile(cut, b[:k*watchBufferSize+watchBufferSize/2], 0o644); err != nil {
			t.Fatal(err)
		}
		code, part, _ := runCmd(t, "", "relog", cut, "-f", "csv")
		rows := strings.Split(part, "\r\n")
		if code == exitOK || len(rows) != 1+(k-1)+1 || strings.Join(rows[:k], "\r\n") != strings.Join(have[:k], "\r\n") {
			t.Errorf("cut in buffer %d: exit %d, %d rows; want a failure after the %d samples of the whole buffers", k, code, len(rows)-2, k-1)
		}
	}
}

// TestWatchBinPDH: with the PDH source (replayed), watch -f bin logs each
// value's raw data and PDH's time base: relog computes from the log the
// values watch --log prints.
func TestWatchBinPDH(t *testing.T) {
	const path = `\\HOST\Object\Counter`
	old := openCollector
	defer func() { openCollector = old }()
	openCollector = func(kind collect.Kind, cfg collect.Config) (*collect.Collector, error) {
		var samples [][]collect.PDHItem
		for k := range 6 {
			samples = append(samples, []collect.PDHItem{{Raw: engine.RawCounter{FirstValue: uint64(1000 + 37*k*k), SecondValue: uint64(3_579_545 * k)}}})
		}
		return collect.NewPDH(&replayPDH{info: collect.PDHCounter{FullPath: path, Type: engine.CounterCounter, TimeBase: 3_579_545}, samples: samples}, cfg)
	}
	code, csv, errs := runCapture("watch", path, "-sc", "4", "-si", "1ms", "--log", "--source", "pdh")
	if code != exitOK {
		t.Fatalf("watch --log: exit %d: %s", code, errs)
	}
	out := filepath.Join(t.TempDir(), "p.blg")
	if code, _, errs := runCapture("watch", path, "-sc", "4", "-si", "1ms", "--source", "pdh", "-f", "bin", "-o", out); code != exitOK {
		t.Fatalf("watch -f bin: exit %d: %s", code, errs)
	}
	code, rel, errs := runCmd(t, "", "relog", out)
	if code != exitOK || errs != "" {
		t.Fatalf("relog: exit %d: %s", code, errs)
	}
	want, have := strings.Split(csv, "\r\n"), strings.Split(rel, "\r\n")
	if len(have) != 1+4+1 {
		t.Fatalf("relog:\n%s", rel)
	}
	for k := 2; k <= 4; k++ {
		if cellsOf(strings.ReplaceAll(have[k], ",", "\t")) != cellsOf(strings.ReplaceAll(want[k], ",", "\t")) || !strings.Contains(have[k], `","`) {
			t.Errorf("row %d:\nrelog p.blg  %s\nwatch --log  %s", k, have[k], want[k])
		}
	}
}

// TestWatchBinV2: -f bin refuses the v2 source, which gives no time bases,
// before anything is collected or written.
func TestWatchBinV2(t *testing.T) {
	out := filepath.Join(t.TempDir(), "v.blg")
	code, _, errs := runCapture("watch", `\Processor(*)\*`, "--source", "v2", "-o", out)
	if code != exitUsage || !strings.Contains(errs, "--source v2 does not give the counters' time bases") {
		t.Fatalf("exit %d, %q", code, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("the output was created")
	}
}
