package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/hostile"
)

// TestMaxColumns: relog, stats and convert refuse a log of more columns
// than --max-columns with exit status 1, a message naming the log, the
// limit and the flag, and -o left as it was; at the limit, the output is
// the one without a limit. The help of each documents the default.
func TestMaxColumns(t *testing.T) {
	dir := t.TempDir()
	in := putFile(t, filepath.Join(dir, "wide.blg"), hostile.NewInstancesLog(2, 50, 3)) // 300 columns
	out := filepath.Join(dir, "out.csv")
	for _, cmd := range []string{"relog", "stats"} {
		code, want, errs := runCmd(t, "", cmd, in)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", cmd, code, errs)
		}
		os.WriteFile(out, []byte("old"), 0o644)
		code, _, errs = runCmd(t, "", cmd, in, "--max-columns", "299", "-o", out)
		if code != 1 || !strings.Contains(errs, in+": more than 299 columns") || !strings.Contains(errs, "--max-columns N raises the limit") {
			t.Errorf("%s --max-columns 299: exit %d, stderr %q", cmd, code, errs)
		}
		if b, _ := os.ReadFile(out); string(b) != "old" {
			t.Errorf("%s --max-columns 299: -o holds %q", cmd, b)
		}
		for _, max := range []string{"300", "0"} {
			code, got, errs := runCmd(t, "", cmd, in, "--max-columns", max)
			if code != 0 || got != want {
				t.Errorf("%s --max-columns %s: exit %d (%s), output differs: %v", cmd, max, code, errs, got != want)
			}
		}
		if code, _, errs := runCmd(t, "", cmd, in, "--max-columns", "-1"); code != 2 || !strings.Contains(errs, "--max-columns") {
			t.Errorf("%s --max-columns -1: exit %d, stderr %q", cmd, code, errs)
		}
		if _, help, _ := runCmd(t, "", cmd, "-h"); !strings.Contains(help, "--max-columns N (default 1000000)") {
			t.Errorf("%s -h does not document --max-columns' default", cmd)
		}
	}
	code, _, errs := runCmd(t, "", "relog", in, in, "--max-columns", "299")
	if code != 1 || !strings.Contains(errs, "the logs: more than 299 columns") {
		t.Errorf("relog of two logs over the limit: exit %d, stderr %q", code, errs)
	}
	outDir := filepath.Join(dir, "out")
	code, stdout, _ := runCmd(t, "", "convert", in, "-o", outDir, "-f", "csv", "--max-columns", "299")
	if code != 1 || !strings.Contains(stdout, "more than 299 columns") {
		t.Errorf("convert --max-columns 299: exit %d, stdout %q", code, stdout)
	}
	if _, err := os.Stat(filepath.Join(outDir, "wide.csv")); err == nil {
		t.Error("convert --max-columns 299 wrote an output")
	}
	if code, _, errs := runCmd(t, "", "convert", in, "-o", outDir, "-f", "csv", "--max-columns", "300"); code != 0 {
		t.Errorf("convert --max-columns 300: exit %d: %s", code, errs)
	}
	if _, help, _ := runCmd(t, "", "convert", "-h"); !strings.Contains(help, "--max-columns N (default 1000000)") {
		t.Error("convert -h does not document --max-columns' default")
	}
}
