package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/collect"
	"github.com/perfcalc/perfcalc/internal/corpus"
)

// replayWatch makes perfcalc watch read the Processor object of the
// corpus' real samples (s00..s10) instead of a live machine, and returns
// the blobs' file names.
func replayWatch(t *testing.T) []string {
	t.Helper()
	dir := corpus.Shared(t, "v1")
	files, err := filepath.Glob(filepath.Join(dir, "s*_obj238.bin"))
	if err != nil || len(files) < 4 {
		t.Fatalf("corpus: %v %v", files, err)
	}
	var blobs [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blobs = append(blobs, b)
	}
	names, err := os.ReadFile(filepath.Join(dir, "pal_counter_009.multisz"))
	if err != nil {
		t.Fatal(err)
	}
	old := openCollector
	openCollector = func(kind collect.Kind, cfg collect.Config) (*collect.Collector, error) {
		return collect.NewRegistry(collect.ReplayRegistry(blobs, names), cfg)
	}
	t.Cleanup(func() { openCollector = old })
	return append(files, filepath.Join(dir, "pal_counter_009.multisz"))
}

var typeperfCell = regexp.MustCompile(`^"(-?\d+\.\d{6}| )"$`)

func TestWatchTypeperfLayout(t *testing.T) {
	replayWatch(t)
	code, out, errs := runCapture("watch", `\Processor(*)\% Processor Time`, "-c", `\Processor(_Total)\Interrupts/sec`, "-sc", "3", "-si", "1ms")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(out, "\r\n")
	want := []string{"", `"(PDH-CSV 4.0)","\\ZACH-PC\Processor(0)\% Processor Time","\\ZACH-PC\Processor(_Total)\% Processor Time","\\ZACH-PC\Processor(_Total)\Interrupts/sec"`}
	if len(lines) != 2+3+3 || lines[0] != want[0] || lines[1] != want[1] {
		t.Fatalf("output:\n%s", out)
	}
	for _, row := range lines[2:5] {
		cells := strings.Split(row, ",")
		if len(cells) != 4 || !regexp.MustCompile(`^"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d\.\d{3}"$`).MatchString(cells[0]) {
			t.Fatalf("row %q", row)
		}
		for _, c := range cells[1:] {
			if !typeperfCell.MatchString(c) || c == `" "` {
				t.Fatalf("row %q: cell %s is not typeperf's %%f of a value", row, c)
			}
		}
	}
	if lines[5] != "Exiting, please wait..." || lines[6] != "The command completed successfully." || lines[7] != "" {
		t.Fatalf("closing lines %q", lines[5:])
	}
}

// TestWatchEqualsValues: every row of watch --log is what perfcalc values
// prints for the same two captures.
func TestWatchEqualsValues(t *testing.T) {
	files := replayWatch(t)
	names := files[len(files)-1]
	path := `\Processor(*)\*`
	code, out, errs := runCapture("watch", "-c", path, "-sc", "4", "-si", "1ms", "--log", "-f", "tsv")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(out, "\r\n")
	if !strings.HasPrefix(lines[0], `"(PDH-TSV 4.0) (UTC`) {
		t.Fatalf("header %q", lines[0])
	}
	// The rows are samples 1..4, each computed from the one before.
	for k := 1; k <= 4; k++ {
		code, vout, verrs := runCapture("values", files[k-1], files[k], "--names", names, "-c", path, "-f", "tsv")
		if code != exitOK {
			t.Fatalf("values: %s", verrs)
		}
		vlines := strings.Split(vout, "\r\n")
		if colsOf(vlines[0]) != colsOf(lines[0]) {
			t.Fatalf("columns differ:\nwatch  %s\nvalues %s", lines[0], vlines[0])
		}
		if cellsOf(lines[k]) != cellsOf(vlines[1]) {
			t.Fatalf("sample %d:\nwatch  %s\nvalues %s", k, lines[k], vlines[1])
		}
	}
}

func colsOf(line string) string  { _, rest, _ := strings.Cut(line, "\t"); return rest }
func cellsOf(line string) string { _, rest, _ := strings.Cut(line, "\t"); return rest }

func TestWatchCtrlCFlushes(t *testing.T) {
	replayWatch(t)
	dir := t.TempDir()
	outFile := filepath.Join(dir, "out.csv")
	ctx, cancel := context.WithCancel(context.Background())
	old := watchContext
	watchContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	defer func() { watchContext = old }()
	// Ctrl-C after the second row: the rows written are complete.
	go func() {
		for {
			b, _ := os.ReadFile(outFile)
			if strings.Count(string(b), "\r\n") >= 4 {
				cancel()
				return
			}
			runtime.Gosched()
		}
	}()
	code, out, errs := runCapture("watch", `\Processor(_Total)\% Processor Time`, "-si", "20ms", "-o", outFile, "--source", "registry")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if out != "Exiting, please wait...\r\nThe command completed successfully.\r\n" {
		t.Fatalf("console %q", out)
	}
	b, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\r\n")
	if len(lines) < 5 || lines[len(lines)-1] != "" {
		t.Fatalf("file %q", b)
	}
	for _, row := range lines[2 : len(lines)-1] {
		if cells := strings.Split(row, ","); len(cells) != 2 || !typeperfCell.MatchString(cells[1]) {
			t.Fatalf("row %q", row)
		}
	}
}

func TestWatchCounterFileAndList(t *testing.T) {
	replayWatch(t)
	cf := filepath.Join(t.TempDir(), "counters.txt")
	os.WriteFile(cf, []byte("\xEF\xBB\xBF# processors\r\n\r\n\\Processor(_Total)\\% Processor Time\r\n"), 0o644)
	code, out, errs := runCapture("watch", "-cf", cf, "-sc", "1", "-si", "1ms", "-f", "json")
	if code != exitOK || !regexp.MustCompile(`^\{"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}","values":\{"\\\\\\\\ZACH-PC\\\\Processor\(_Total\)\\\\% Processor Time":[0-9.e+-]+\}\}\n$`).MatchString(out) {
		t.Fatalf("exit %d: %q %s", code, out, errs)
	}
	code, out, _ = runCapture("watch", "-q", "Processor")
	if code != exitOK || !strings.HasPrefix(out, "\\Processor(*)\\% Processor Time\r\n") || strings.Contains(out, "(0)") {
		t.Fatalf("-q: %d %q", code, out)
	}
	code, out, _ = runCapture("watch", "-qx", "Processor")
	if code != exitOK || !strings.Contains(out, "\\Processor(0)\\% Processor Time\r\n") || !strings.Contains(out, "\\Processor(_Total)\\% Processor Time\r\n") {
		t.Fatalf("-qx: %d %q", code, out)
	}
}

func TestWatchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"watch"},
		{"watch", "-c", `\Processor(*)\x`, "--source", "wmi"},
		{"watch", "-c", `\Processor(*)\x`, "-si", "0"},
		// Found by FuzzWatchInterval: 200,000,000 minutes overflowed into a
		// negative interval (larger ones into wrong positive ones).
		{"watch", "-c", `\Processor(*)\x`, "-si", "0200000000:0"},
		{"watch", "-c", `\Processor(*)\x`, "-si", "2562047:47:17"},
		{"watch", "-c", `\Processor(*)\x`, "-f", "xml"},
	} {
		if code, _, errs := runCapture(args...); code != exitUsage || errs == "" {
			t.Errorf("%q: exit %d, %q", args, code, errs)
		}
	}
}

func TestWatchNeedsWindows(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("live collection is there")
	}
	code, out, errs := runCapture("watch", `\Processor(_Total)\% Processor Time`, "-sc", "1")
	if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 ||
		!strings.Contains(errs, "needs Windows") || !strings.Contains(errs, "perfcalc relog") || !strings.Contains(errs, "perfcalc values") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
