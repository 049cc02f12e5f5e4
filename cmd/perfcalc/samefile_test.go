package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// tinyLogStart is the UTC start of tinyLog's logs: 2013-02-20 02:50:17.844.
const tinyLogStart = 130_057_734_178_440_000

// tinyLog writes a log of one raw counter per instance name (none: one
// counter without instance) and samples samples one second apart, through
// the project's log writer.
func tinyLog(samples int, instances ...string) []byte {
	if len(instances) == 0 {
		instances = []string{""}
	}
	var cs []blgbuild.Counter
	for _, inst := range instances {
		cs = append(cs, blgbuild.Counter{Type: uint32(engine.CounterRawcount), Machine: `\\TINY`, Object: "Memory", Instance: inst, Counter: "Pages"})
	}
	l := blgbuild.New(64<<10, tinyLogStart)
	l.Record(blgbuild.EventCounterList, tinyLogStart, blgbuild.AppendCounterList(nil, cs...), blgbuild.MaxEventData)
	for i := range samples {
		ts := tinyLogStart + int64(i)*10_000_000
		vals := make([]uint64, len(instances))
		for j := range vals {
			vals[j] = uint64(100*i + j)
		}
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, vals...), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// putFile writes data to the file path (making its folder) and returns
// path.
func putFile(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOutputIsInput: an -o that is one of the command's inputs (by another
// name, a hard link, a symbolic link, standard input) is refused, naming
// both, and the input is left as it was; relog used to replace the log
// with its CSV, exit 0. convert fails a log whose output is the log itself
// (it used to skip it as up to date, or with --force replace it).
func TestOutputIsInput(t *testing.T) {
	dir := t.TempDir()
	log := tinyLog(3)
	in := putFile(t, filepath.Join(dir, "x.blg"), log)
	cf := putFile(t, filepath.Join(dir, "counters.txt"), []byte(`\Memory\Pages`+"\n"))
	hard := filepath.Join(dir, "hard.csv")
	if err := os.Link(in, hard); err != nil {
		t.Skip(err)
	}
	sym := filepath.Join(dir, "sym.csv")
	if err := os.Symlink(in, sym); err != nil {
		t.Skip(err)
	}
	other := filepath.Join(dir, ".", "x.blg")
	for _, tc := range []struct {
		args []string
		out  string // -o as given
		what string // the input named
	}{
		{[]string{"relog", in, "-f", "csv"}, in, "the input " + in + " (IN.blg)"},
		{[]string{"relog", in, "-f", "csv"}, other, // without -f, .blg names no format: refused before (exit 2)
			"the input " + in + " (IN.blg)"},
		{[]string{"relog", in, "-q"}, hard, "the input " + in + " (IN.blg)"},
		{[]string{"relog", in, in + "x", "-f", "json"}, sym, "the input " + in + " (IN.blg)"}, // the missing second log is not reached
		{[]string{"relog", in, "-cf", cf}, cf, "the input " + cf + " (-cf)"},
		{[]string{"stats", in}, hard, "the input " + in + " (IN.blg)"},
		{[]string{"values", in, corpusFile("global-2.bin"), "-f", "csv"}, in, "the input " + in + " (OLDER)"},
		{[]string{"values", corpusFile("global-1.bin"), corpusFile("global-2.bin"), "--names", in}, sym, "the input " + in + " (--names)"},
		{[]string{"watch", "-cf", cf}, cf, "the input " + cf + " (-cf)"},
	} {
		args := append(append([]string(nil), tc.args...), "-o", tc.out)
		code, _, errs := runCmd(t, "", args...)
		want := "perfcalc " + tc.args[0] + ": -o " + tc.out + " is the same file as " + tc.what + ": writing it would replace the input; write the output to another file\n"
		if code != exitUsage || errs != want {
			t.Errorf("%q: exit %d, %q\nwant exit 2, %q", args, code, errs, want)
		}
		if have, _ := os.ReadFile(in); !bytes.Equal(have, log) {
			t.Fatalf("%q: the log was replaced (%d bytes)", args, len(have))
		}
	}
	// --keep-partial's OUT.partial that is the input: a damaged log's rows
	// before the damage replaced it (exit 1).
	damaged := instancesLog(2000, "a", "b")[:5*64<<10/2]
	partial := putFile(t, filepath.Join(dir, "y.partial"), damaged)
	for _, cmd := range []string{"relog", "stats"} {
		args := []string{cmd, partial, "-o", filepath.Join(dir, "y"), "--keep-partial"}
		code, _, errs := runCmd(t, "", args...)
		want := "perfcalc " + cmd + ": --keep-partial's " + partial + " is the same file as the input " + partial + " (IN.blg): writing it would replace the input; write the output to another file\n"
		if code != exitUsage || errs != want {
			t.Errorf("%q: exit %d, %q\nwant exit 2, %q", args, code, errs, want)
		}
		if have, _ := os.ReadFile(partial); !bytes.Equal(have, damaged) {
			t.Fatalf("%q: the log was replaced (%d bytes)", args, len(have))
		}
	}
	// Standard input that is the file -o names.
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stdout, stderr bytes.Buffer
	code := run([]string{"relog", "-", "-o", hard}, f, &stdout, &stderr)
	if want := "-o " + hard + " is the same file as standard input (IN.blg)"; code != exitUsage || !strings.Contains(stderr.String(), want) {
		t.Errorf("relog - < x.blg -o hard.csv: exit %d, %q, want %q", code, stderr.String(), want)
	}
	// Another file, /dev/null and a new file are written as before.
	for _, out := range []string{filepath.Join(dir, "new.csv"), os.DevNull} {
		if code, _, errs := runCmd(t, "", "relog", in, "-o", out); code != exitOK || errs != "" {
			t.Errorf("relog -o %s: exit %d, %q", out, code, errs)
		}
	}
	if have, _ := os.ReadFile(in); !bytes.Equal(have, log) {
		t.Fatal("the log was replaced")
	}

	// convert: a log named like its output, converted into its own folder
	// (with and without --force), and an output that is a link to a log.
	logs, outs := filepath.Join(dir, "logs"), filepath.Join(dir, "outs")
	os.MkdirAll(outs, 0o755)
	self := putFile(t, filepath.Join(logs, "self.csv"), log)
	linked := putFile(t, filepath.Join(logs, "linked.blg"), log)
	if err := os.Symlink(linked, filepath.Join(outs, "linked.csv")); err != nil {
		t.Skip(err)
	}
	for _, force := range []bool{false, true} {
		for _, tc := range [][]string{{self, logs}, {linked, outs}} {
			args := []string{"convert", tc[0], "-o", tc[1], "-f", "csv"}
			if force {
				args = append(args, "--force")
			}
			stdout.Reset()
			code := run(args, nil, &stdout, &stderr)
			out := filepath.Join(tc[1], strings.TrimSuffix(filepath.Base(tc[0]), filepath.Ext(tc[0]))+".csv")
			want := "failed: " + tc[0] + ": its output " + out + " is the same file as the input " + tc[0] + ": writing it would replace the input; convert it into another folder\nconverted 0, skipped 0 (up to date), failed 1\n"
			if code != exitError || stdout.String() != want {
				t.Errorf("%q: exit %d, %q\nwant exit 1, %q", args, code, stdout.String(), want)
			}
			if have, _ := os.ReadFile(tc[0]); !bytes.Equal(have, log) {
				t.Fatalf("%q: the log was replaced (%d bytes)", args, len(have))
			}
		}
	}
}

// TestOutputsApart: every file a command reads or writes besides -o is
// an input or an output that -o may not replace, and two outputs of one
// command are never one file (issue 32, item 15). relog -o o.csv
// --redact-map o.csv left the map of the real machine names in o.csv
// (exit 0), whether the map existed or not; a map that is one of the
// inputs was replaced by the map; convert replaced a --names-file named
// like its output. Each is refused, naming both files, and every file is
// left as it was.
func TestOutputsApart(t *testing.T) {
	dir := t.TempDir()
	log := tinyLog(3)
	in := putFile(t, filepath.Join(dir, "x.blg"), log)
	mapText := []byte("MACHINE-1\tTINY\n")
	oldMap := putFile(t, filepath.Join(dir, "old.tsv"), mapText)
	empty := putFile(t, filepath.Join(dir, "empty.txt"), nil) // an empty -cf reads as an empty map
	newFile := filepath.Join(dir, "new.csv")
	link := filepath.Join(dir, "link.tsv")
	if err := os.Symlink(oldMap, link); err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--redact-map", newFile, "-o", newFile}, "--redact-map " + newFile + " is the same file as -o " + newFile + ": one output would replace the other"},
		{[]string{"--redact-map", filepath.Join(dir, ".", "new.csv"), "-o", newFile}, "--redact-map " + filepath.Join(dir, ".", "new.csv") + " is the same file as -o " + newFile},
		{[]string{"--redact-map", oldMap, "-o", oldMap}, "--redact-map " + oldMap + " is the same file as -o " + oldMap},
		{[]string{"--redact-map", oldMap, "-o", link}, "--redact-map " + oldMap + " is the same file as -o " + link},
		{[]string{"--redact-map", oldMap, "-o", filepath.Join(dir, "y.csv"), "--keep-partial"}, ""}, // apart: written
		{[]string{"--redact-map", filepath.Join(dir, "y.csv.partial"), "-o", filepath.Join(dir, "y.csv"), "--keep-partial"}, "--redact-map " + filepath.Join(dir, "y.csv.partial") + " is the same file as --keep-partial's " + filepath.Join(dir, "y.csv.partial")},
		{[]string{"--redact-map", in}, "--redact-map " + in + " is the same file as the input " + in + " (IN.blg)"},
		{[]string{"--redact-map", empty, "-cf", empty}, "--redact-map " + empty + " is the same file as the input " + empty + " (-cf)"},
		{[]string{"--redact-map", "-"}, "--redact-map -: the map is read, then written: name a file"},
		{[]string{"--redact-map", dir}, "--redact-map " + dir + ": not a regular file"},
		{[]string{"--redact-map", os.DevNull}, "--redact-map " + os.DevNull + ": not a regular file"},
	} {
		args := append([]string{"relog", in}, tc.args...)
		code, _, errs := runCmd(t, "", args...)
		switch {
		case tc.want == "" && code != exitOK:
			t.Errorf("%q: exit %d, %q", args, code, errs)
		case tc.want != "" && (code != exitUsage || !strings.HasPrefix(errs, "perfcalc relog: "+tc.want)):
			t.Errorf("%q: exit %d, %q\nwant exit 2, %q", args, code, errs, tc.want)
		}
		if tc.want == "" {
			continue
		}
		if have, err := os.ReadFile(newFile); err == nil {
			t.Errorf("%q: %s was written: %q", args, newFile, have)
			os.Remove(newFile)
		}
		for _, f := range []struct {
			name string
			data []byte
		}{{in, log}, {oldMap, mapText}, {empty, nil}} {
			if have, _ := os.ReadFile(f.name); !bytes.Equal(have, f.data) {
				t.Errorf("%q: %s was replaced (%d bytes)", args, f.name, len(have))
				putFile(t, f.name, f.data)
			}
		}
	}
	// The map written to standard output, which -o - writes too.
	if f, err := os.Create(filepath.Join(dir, "stdout")); err == nil {
		defer f.Close()
		var stderr bytes.Buffer
		code := run([]string{"relog", in, "--redact-map", f.Name()}, strings.NewReader(""), f, &stderr)
		if want := "--redact-map " + f.Name() + " is the same file as standard output (-o)"; code != exitUsage || !strings.Contains(stderr.String(), want) {
			t.Errorf("relog --redact-map FILE > FILE: exit %d, %q, want %q", code, stderr.String(), want)
		}
	}

	// convert: a --names-file that is a log's output (named as convert
	// names it), converted with --force.
	outs := filepath.Join(dir, "outs")
	if code, _, errs := runCmd(t, "", "convert", in, "-o", outs, "-f", "csv"); code != exitOK {
		t.Fatalf("convert: exit %d, %s", code, errs)
	}
	written, _ := filepath.Glob(filepath.Join(outs, "*.csv"))
	if len(written) != 1 {
		t.Fatalf("convert wrote %q, want one CSV", written)
	}
	table, err := os.ReadFile(corpusFile("counter-009.multisz"))
	if err != nil {
		t.Fatal(err)
	}
	names := putFile(t, written[0], table)
	code, stdout, _ := runCmd(t, "", "convert", in, "-o", outs, "-f", "csv", "--force", "--names-lang", "en", "--names-file", names)
	if want := "its output " + names + " is the same file as the input " + names + " (--names-file)"; code != exitError || !strings.Contains(stdout, want) {
		t.Errorf("convert --names-file OUTPUT: exit %d, %q\nwant exit 1, %q", code, stdout, want)
	}
	if have, _ := os.ReadFile(names); !bytes.Equal(have, table) {
		t.Errorf("convert replaced the --names-file (%d bytes)", len(have))
	}
}

// TestWatchSaveApart: watch's -o, -cf and --names-file may not be files
// that its --save folder's captures take (a --names-file of the
// counter-009.multisz an earlier run saved there, an -o named like a
// capture): the capture replaced them (issue 32, item 15). Files of other
// names in the folder are written as before.
func TestWatchSaveApart(t *testing.T) {
	replayWatch(t)
	dir := t.TempDir()
	table, err := os.ReadFile(corpusFile("counter-009.multisz"))
	if err != nil {
		t.Fatal(err)
	}
	paths := []byte(`\Processor(*)\*` + "\n")
	names := filepath.Join(dir, "counter-009.multisz")
	cf := filepath.Join(dir, "pdh-000001.paths") // a saved list of paths, as -cf
	out := filepath.Join(dir, "v1-000001.bin")
	for _, tc := range []struct {
		args []string
		what string
		file string // and its bytes, left as they were
		data []byte
	}{
		{[]string{"-f", "csv", "-o", out}, "-o " + out, out, nil},
		{[]string{"--names-lang", "en", "--names-file", names}, "--names-file " + names, names, table},
		{[]string{"-cf", cf}, "-cf " + cf, cf, paths},
	} {
		if tc.data != nil {
			putFile(t, tc.file, tc.data)
		}
		args := append([]string{"watch", `\Processor(*)\*`, "-sc", "2", "-si", "1ms", "--save", dir}, tc.args...)
		code, _, errs := runCmd(t, "", args...)
		want := "perfcalc watch: " + tc.what + " is in --save " + dir + " under a name its captures take"
		if code != exitUsage || !strings.HasPrefix(errs, want) {
			t.Errorf("%q: exit %d, %q\nwant exit 2, %q", args, code, errs, want)
		}
		if have, err := os.ReadFile(tc.file); tc.data == nil && err == nil || tc.data != nil && !bytes.Equal(have, tc.data) {
			t.Errorf("%q: %s was replaced (%d bytes)", args, tc.file, len(have))
		}
		os.Remove(tc.file)
	}
	out = filepath.Join(dir, "rows.csv")
	if code, _, errs := runCmd(t, "", "watch", `\Processor(*)\*`, "-sc", "2", "-si", "1ms", "--save", dir, "-o", out); code != exitOK {
		t.Errorf("watch --save DIR -o DIR/rows.csv: exit %d, %s", code, errs)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), `\Processor(`) {
		t.Errorf("rows.csv: %v %.100q", err, b)
	}
}
