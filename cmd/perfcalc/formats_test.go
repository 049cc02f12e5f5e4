package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
)

// TestFormatTable: every format has a name and an extension, the names and
// extensions are unique, and the lists the commands read come from the
// table in its order, the command's default first.
func TestFormatTable(t *testing.T) {
	names, exts := map[string]bool{}, map[string]bool{}
	for i, f := range formats {
		if f.name == "" || len(f.exts) == 0 || f.cmds == 0 {
			t.Errorf("format %d: %+v", i, f)
		}
		if names[f.name] {
			t.Errorf("format %q twice", f.name)
		}
		names[f.name] = true
		for _, e := range f.exts {
			if exts[e] || !strings.HasPrefix(e, ".") || strings.ToLower(e) != e {
				t.Errorf("extension %q twice or not lower-case", e)
			}
			exts[e] = true
		}
		if f.long != (f.relog == 0 && f.name != "csv" && f.name != "table" && f.name != "bin") {
			t.Errorf("format %q: long %v, relog %v", f.name, f.long, f.relog)
		}
	}
	for _, tc := range []struct {
		cmds commandSet
		def  outputFormat
		sep  string
		want string
	}{
		{forRelog, formatCSV, ", ", "csv, tsv, json, parquet, openmetrics or bin"},
		{forConvert, formatParquet, "|", "parquet|csv|tsv|json|openmetrics"},
		{forValues, formatTable, "|", "table|csv|tsv|json|parquet|openmetrics"},
		{forWatch, formatCSV, ", ", "csv, tsv, json or bin"},
	} {
		if have := formatNames(tc.cmds, tc.def, tc.sep); have != tc.want {
			t.Errorf("formatNames(%b, %v): have %q, want %q", tc.cmds, tc.def, have, tc.want)
		}
	}
	for _, tc := range []struct {
		cmd, want, not string
	}{
		{"relog", "\n  .csv .tsv .jsonl .json .parquet .om .blg\n", ""},
		{"values", "\n  .txt .csv .tsv .jsonl .json .parquet .om\n", ""},
		{"watch", "\n  .csv .tsv .jsonl .json .blg\n", ".parquet"},
	} {
		_, help, _ := runCapture(tc.cmd, "-h")
		if !strings.Contains(help, "Without -f, the extension of -o FILE picks the format, one of"+tc.want) || tc.not != "" && strings.Contains(help, tc.not) {
			t.Errorf("%s -h does not list its extensions %q", tc.cmd, tc.want)
		}
	}
	if _, help, _ := runCapture("convert", "-h"); !strings.Contains(help, "\n  parquet .parquet, csv .csv, tsv .tsv, json .jsonl, openmetrics .om\n") {
		t.Errorf("convert -h does not list the extensions of its outputs:\n%s", help)
	}
	if formatJSON.ext() != ".jsonl" || formatOpenMetrics.ext() != ".om" || formatParquet.ext() != ".parquet" {
		t.Errorf("convert's extensions: %s %s %s", formatJSON.ext(), formatOpenMetrics.ext(), formatParquet.ext())
	}
}

// TestOutputExtension: without -f, relog's and values' -o FILE extension
// picks the format (the file equals what -f writes); an extension that
// names no format of the command is a usage error that leaves no file; -f
// wins over the extension; a name without extension, a .txt file and
// outputs that are not regular files keep the default.
func TestOutputExtension(t *testing.T) {
	tx, _ := readShared(t, "Tx_BasicPerfCounters.blg")
	pair := valuesPairs(t)["global"]
	dir := t.TempDir()
	for _, tc := range []struct {
		cmd    []string
		file   string
		format string // what the file must hold: the output of -f format
	}{
		{[]string{"relog", tx}, "a.csv", "csv"},
		{[]string{"relog", tx}, "a.TSV", "tsv"},
		{[]string{"relog", tx}, "a.jsonl", "json"},
		{[]string{"relog", tx}, "a.json", "json"},
		{[]string{"relog", tx}, "a.parquet", "parquet"},
		{[]string{"relog", tx}, "a.om", "openmetrics"},
		{[]string{"relog", tx}, "noextension", "csv"},
		{[]string{"relog", tx}, "b.txt", "csv"},
		{[]string{"relog", tx, "-f", "tsv"}, "c.parquet", "tsv"},
		{append([]string{"values"}, pair...), "v.txt", "table"},
		{append([]string{"values"}, pair...), "v", "table"},
		{append([]string{"values"}, pair...), "v.csv", "csv"},
		{append([]string{"values"}, pair...), "v.tsv", "tsv"},
		{append([]string{"values"}, pair...), "v.jsonl", "json"},
		{append([]string{"values"}, pair...), "v.parquet", "parquet"},
		{append([]string{"values"}, pair...), "v.om", "openmetrics"},
	} {
		file := filepath.Join(dir, tc.file)
		code, stdout, errs := runCmd(t, "", append(append([]string(nil), tc.cmd...), "-o", file)...)
		have, err := os.ReadFile(file)
		if code != exitOK || stdout != "" || errs != "" || err != nil {
			t.Errorf("%v -o %s: exit %d, %q, %q, %v", tc.cmd, tc.file, code, stdout, errs, err)
			continue
		}
		args := append([]string(nil), tc.cmd...) // without -f and what follows
		for i := range args {
			if args[i] == "-f" {
				args = args[:i]
				break
			}
		}
		_, want, _ := runCmd(t, "", append(args, "-f", tc.format)...)
		if string(have) != want {
			t.Errorf("%v -o %s: %d bytes, not the %d bytes of -f %s", tc.cmd, tc.file, len(have), len(want), tc.format)
		}
	}
	for _, tc := range []struct {
		cmd  []string
		file string
		want string
	}{
		{[]string{"relog", tx}, "x.xml", "perfcalc relog: -o X: the extension .xml names no format that perfcalc relog writes (.csv, .tsv, .jsonl, .json, .parquet, .om or .blg); give -f\n"},
		{append([]string{"values"}, pair...), "x.blg", "perfcalc values: -o X: the extension .blg names no format that perfcalc values writes (.txt, .csv, .tsv, .jsonl, .json, .parquet or .om); give -f\n"},
		{[]string{"watch", `\Processor(_Total)\% Processor Time`, "-sc", "1"}, "x.parquet", "perfcalc watch: -o X: the extension .parquet names no format that perfcalc watch writes (.csv, .tsv, .jsonl, .json or .blg); give -f\n"},
	} {
		file := filepath.Join(dir, tc.file)
		code, stdout, errs := runCmd(t, "", append(append([]string(nil), tc.cmd...), "-o", file)...)
		want := strings.Replace(tc.want, "X", file, 1)
		if _, err := os.Stat(file); code != exitUsage || stdout != "" || errs != want || err == nil {
			t.Errorf("%v -o %s: exit %d, %q, %q, the file: %v; want exit 2 and %q", tc.cmd, tc.file, code, stdout, errs, err, want)
		}
	}
	// Outputs that are not regular files keep the default.
	_, csv, _ := runCmd(t, "", "relog", tx)
	for _, out := range []string{"-", os.DevNull} {
		code, stdout, errs := runCmd(t, "", "relog", tx, "-o", out)
		if code != exitOK || errs != "" || out == "-" && stdout != csv {
			t.Errorf("relog -o %s: exit %d, %q, %d bytes", out, code, errs, len(stdout))
		}
	}
	// -q lists the counters whatever -o's extension.
	list := filepath.Join(dir, "list.parquet")
	if code, _, errs := runCmd(t, "", "relog", tx, "-q", "-o", list); code != exitOK {
		t.Errorf("relog -q -o list.parquet: exit %d, %q", code, errs)
	}
	if b, _ := os.ReadFile(list); !strings.Contains(string(b), "Samples:") {
		t.Errorf("relog -q -o list.parquet wrote %.40q", b)
	}
}

// TestWatchOutputExtension: watch's -o FILE extension picks TSV and JSON.
func TestWatchOutputExtension(t *testing.T) {
	replayWatch(t)
	dir := t.TempDir()
	for _, tc := range []struct{ file, prefix string }{
		{"w.tsv", "\r\n\"(PDH-TSV 4.0)\"\t"},
		{"w.csv", "\r\n\"(PDH-CSV 4.0)\","},
		{"w.json", `{"time":"`},
	} {
		file := filepath.Join(dir, tc.file)
		code, _, errs := runCapture("watch", `\Processor(_Total)\% Processor Time`, "-sc", "1", "-si", "1ms", "-o", file)
		b, _ := os.ReadFile(file)
		if code != exitOK || !strings.HasPrefix(string(b), tc.prefix) {
			t.Errorf("watch -o %s: exit %d, %q, the file starts %.40q", tc.file, code, errs, b)
		}
	}
}

// TestConvertErrorChain: convert's failures keep the error they came from
// (the log's *engine.FormatError through errors.As), and their text the
// one the summary prints without the file's name.
func TestConvertErrorChain(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.blg")
	os.WriteFile(bad, []byte("not a log at all, but long enough to be read as one"), 0o644)
	folder := filepath.Join(dir, "folder.blg")
	os.Mkdir(folder, 0o755)
	j := &job{in: bad, out: filepath.Join(dir, "bad.csv")}
	err := convertOne(j, formatCSV, 20, defaultMaxColumns)
	var fe *engine.FormatError
	if err == nil || !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), "not a readable .blg log: ") {
		t.Errorf("a foreign file: %v (%T); want a *engine.FormatError saying it is not a readable .blg log", err, err)
	}
	if _, serr := os.Stat(j.out); serr == nil {
		t.Errorf("a failed conversion left %s", j.out)
	}
	if err := convertOne(&job{in: folder, out: filepath.Join(dir, "f.csv")}, formatCSV, 20, defaultMaxColumns); err == nil || err.Error() != "is a folder" {
		t.Errorf("a folder: %v, want \"is a folder\"", err)
	}
	missing := filepath.Join(dir, "missing.blg")
	if err := convertOne(&job{in: missing, out: filepath.Join(dir, "m.csv")}, formatCSV, 20, defaultMaxColumns); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing file: %v; want os.ErrNotExist naming the file", err)
	}
}
