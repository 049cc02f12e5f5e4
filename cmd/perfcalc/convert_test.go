package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestConvertCorpus converts the corpus' folder of four logs, one of them
// a CSV renamed .blg: three outputs, the foreign file named as failed, exit
// status 1; a second run converts nothing; --force converts the three
// again; each output equals what relog writes for the same log.
func TestConvertCorpus(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	out := t.TempDir()
	for _, f := range []outputFormat{formatParquet, formatCSV, formatOpenMetrics} {
		format := f.String()
		t.Run(format, func(t *testing.T) {
			convert := func(args ...string) (int, string) {
				var stdout, stderr bytes.Buffer
				code := run(append([]string{"convert", dir, "-o", out, "-f", format, "-j", "2"}, args...), nil, &stdout, &stderr)
				if stderr.Len() > 0 {
					t.Errorf("stderr is not a terminal but has %q", stderr.String())
				}
				return code, stdout.String()
			}
			code, text := convert()
			if code != exitError {
				t.Errorf("exit status %d, want %d", code, exitError)
			}
			wantSummary := "converted 3, skipped 0 (up to date), failed 1"
			if !strings.Contains(text, wantSummary) || !regexp.MustCompile(`(?m)^failed: .*PowerShell_CorruptBlg\.blg: not a readable \.blg log: `).MatchString(text) {
				t.Errorf("have\n%s\nwant the failure of PowerShell_CorruptBlg.blg and %q", text, wantSummary)
			}
			ext := f.ext()
			for _, name := range []string{"Tx_BasicPerfCounters", "PowerShell_BadCounterSamples", "PAL_SamplePerfmonLog"} {
				have, err := os.ReadFile(filepath.Join(out, name+ext))
				if err != nil {
					t.Fatal(err)
				}
				var want, stderr bytes.Buffer
				if code := run([]string{"relog", filepath.Join(dir, name+".blg"), "-f", format}, nil, &want, &stderr); code != 0 {
					t.Fatalf("relog: %d %s", code, stderr.String())
				}
				if !bytes.Equal(have, want.Bytes()) {
					t.Errorf("%s%s (%d bytes) differs from relog -f %s's output (%d bytes)", name, ext, len(have), format, want.Len())
				}
			}
			if _, err := os.Stat(filepath.Join(out, "PowerShell_CorruptBlg"+ext)); !os.IsNotExist(err) {
				t.Errorf("the failed log has an output (%v)", err)
			}
			if left, _ := filepath.Glob(filepath.Join(out, ".*tmp*")); len(left) > 0 {
				t.Errorf("temporary files left: %q", left)
			}
			code, text = convert()
			if want := "converted 0, skipped 3 (up to date), failed 1"; code != exitError || !strings.Contains(text, want) {
				t.Errorf("second run: status %d, have\n%s\nwant %q", code, text, want)
			}
			code, text = convert("--force")
			if want := "converted 3, skipped 0 (up to date), failed 1"; code != exitError || !strings.Contains(text, want) {
				t.Errorf("--force: status %d, have\n%s\nwant %q", code, text, want)
			}
		})
	}
}

// TestConvertInputs: globs, a file given twice, an input that is missing,
// a pattern that matches nothing, one log in two folders under one name
// (converted once), an output older than its input, and the usage errors.
func TestConvertInputs(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	tx, err := os.ReadFile(filepath.Join(dir, "Tx_BasicPerfCounters.blg"))
	if err != nil {
		t.Fatal(err)
	}
	in := t.TempDir()
	for _, p := range []string{"a/x.blg", "b/x.blg", "b/y.BLG", "b/notes.txt"} {
		os.MkdirAll(filepath.Join(in, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(in, p), tx, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "new", "folder")
	var stdout, stderr bytes.Buffer
	code := run([]string{"convert", "-f", "csv", "-o", out,
		filepath.Join(in, "a", "*.blg"), filepath.Join(in, "a", "x.blg"), filepath.Join(in, "b"),
		filepath.Join(in, "missing.blg"), filepath.Join(in, "c", "*.blg")}, nil, &stdout, &stderr)
	text := stdout.String()
	if code != exitError {
		t.Errorf("status %d, want 1", code)
	}
	for _, want := range []string{
		"converted 2, skipped 1 (up to date), failed 2",
		filepath.Join(in, "missing.blg") + ": stat ",
		filepath.Join(in, "c", "*.blg") + ": the pattern matches no file",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("have\n%s\nwant %q in it", text, want)
		}
	}
	// b/x.blg is a's log (the same identity): converted once, under the
	// name's identity form, as two inputs have the name x.
	if want := filepath.Join(in, "b", "x.blg") + " is the same log as " + filepath.Join(in, "a", "x.blg"); !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	for _, name := range []string{"x~*.csv", "y.csv"} {
		if m, _ := filepath.Glob(filepath.Join(out, name)); len(m) != 1 {
			t.Errorf("%s: %q, want one output", name, m)
		}
	}
	// An input newer than its output is converted again.
	future := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(in, "b", "y.BLG"), future, future)
	stdout.Reset()
	run([]string{"convert", "-f", "csv", "-o", out, filepath.Join(in, "a"), filepath.Join(in, "b", "y.BLG")}, nil, &stdout, &stderr)
	if want := "converted 1, skipped 1 (up to date), failed 0"; !strings.Contains(stdout.String(), want) {
		t.Errorf("have %q, want %q", stdout.String(), want)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", "-o", out}, "give the logs"},
		{[]string{"convert", in}, "-o: give the folder"},
		{[]string{"convert", in, "-o", out, "-f", "xml"}, `-f: "xml" is not parquet`},
		{[]string{"convert", in, "-o", out, "-j", "0"}, "-j: 0 is not"},
	} {
		stderr.Reset()
		if code := run(tc.args, nil, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: status %d, stderr %q, want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
