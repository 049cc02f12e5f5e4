package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/corpus"
)

// The command line as a new user meets it (issue 11): one line for a bad
// flag, -h on standard output, paths as given, a named bad file, hints.

// commandNames lists every command, from the registry.
func commandNames() []string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return names
}

// TestBadFlagOneLine: a flag that does not exist, or a value that a flag
// refuses, gets one line on standard error that ends with "(see perfcalc
// CMD -h)", and exit status 2, in every command.
func TestBadFlagOneLine(t *testing.T) {
	refused := map[string][][]string{
		"calc":   {{"--digits", "18"}, {"--json=maybe"}},
		"relog":  {{"--digits", "18"}, {"-c", `\Processor(*\x`}, {"-t", "x"}, {"-b", "tomorrow"}, {"-q=maybe"}},
		"stats":  {{"-c", "Processor"}, {"-json=2"}},
		"values": {{"--digits", "17.5"}, {"-c", `\Processor(*\x`}},
		"paths":  {{"-c", `\`}},
		"watch":  {{"-c", "x"}, {"-si", "0"}},
	}
	for _, name := range commandNames() {
		for _, args := range append(refused[name], []string{"--frobnicate"}, []string{"-c"}) {
			code, out, errs := runCmd(t, "", append([]string{name}, args...)...)
			want := "(see perfcalc " + name + " -h)\n"
			if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "perfcalc "+name+": ") || !strings.HasSuffix(errs, want) {
				t.Errorf("%s %q: have exit %d, stdout %q, stderr %q; want exit 2 and one line ending with %q", name, args, code, out, errs, want)
			}
		}
	}
}

// TestHelpOnStdout: "perfcalc COMMAND -h" (and --help) prints the usage on
// standard output and exits 0, for every command.
func TestHelpOnStdout(t *testing.T) {
	for _, name := range commandNames() {
		for _, h := range []string{"-h", "--help"} {
			code, out, errs := runCmd(t, "", name, h)
			if code != exitOK || errs != "" || !strings.HasPrefix(out, "Usage:\n  perfcalc "+name+" ") || !strings.Contains(out, "\nFlags:\n") {
				t.Errorf("%s %s: have exit %d, stderr %q, stdout %.80q; want exit 0 and the usage on stdout", name, h, code, errs, out)
			}
		}
	}
}

// TestPathsAsGiven: counter paths in errors are printed as the user gave
// them, never with their backslashes doubled.
func TestPathsAsGiven(t *testing.T) {
	a, b := corpusFile("global-1.bin"), corpusFile("global-2.bin")
	bad := `\\HOST\Processor(*\x`
	for _, args := range [][]string{
		{"relog", "x.blg", "-c", bad},
		{"stats", "x.blg", "-c", bad},
		{"values", a, b, "-c", bad},
		{"paths", a, "-c", bad},
		{"watch", "-c", bad},
		{"values", a, b, "-c", `\\NOPE\#238(*)\#6`},
		{"paths", a, "-c", `\\NOPE\#238(*)\#6`},
	} {
		_, _, errs := runCmd(t, "", args...)
		given := args[len(args)-1]
		if !strings.Contains(errs, given) || strings.Contains(errs, `\\\`) || strings.Count(errs, `\\`) != strings.Count(given, `\\`) {
			t.Errorf("%q: have %q, want the path %s as given", args, errs, given)
		}
	}
	code, _, errs := runCmd(t, "", "values", a, b, "-c", bad)
	if want := `perfcalc values: -c: counterpath: "\\HOST\Processor(*\x" at position 18: an instance part "(…)" must end just before \counter (see perfcalc values -h)` + "\n"; code != exitUsage || errs != want {
		t.Errorf("have exit %d, %q\nwant exit 2, %q", code, errs, want)
	}
}

// TestCaptureOrder: captures given newest first, or the same capture
// twice, make every rate NegativeDenominator: values says why.
func TestCaptureOrder(t *testing.T) {
	a, b, names := corpusFile("global-1.bin"), corpusFile("global-2.bin"), corpusFile("counter-009.multisz")
	for _, tc := range []struct {
		args []string
		note string
	}{
		{[]string{b, a}, "perfcalc values: note: " + a + " was captured before " + b + ", so the values that need two samples are NegativeDenominator: give the older capture first (perfcalc values " + a + " " + b + ")\n"},
		{[]string{b, b}, "perfcalc values: note: " + b + " and " + b + " have the same time stamp (the same capture twice?), so the values that need two samples are NegativeDenominator\n"},
		{[]string{a, b}, ""},
	} {
		code, out, errs := runCmd(t, "", append([]string{"values", "--names", names}, tc.args...)...)
		if code != exitOK || errs != tc.note {
			t.Errorf("%q: have exit %d, stderr %q; want exit 0 and %q", tc.args, code, errs, tc.note)
		}
		if tc.note != "" && !strings.Contains(out, "NegativeDenominator") {
			t.Errorf("%q: no NegativeDenominator value in\n%s", tc.args, out)
		}
	}
}

// TestNothingSelected: -b after the log's end, -e before its start, or a
// range between two samples: one line that says nothing was selected and
// gives the log's range; exit 1, nothing on standard output.
func TestNothingSelected(t *testing.T) {
	tx := filepath.Join(corpus.Shared(t, "blg"), "Tx_BasicPerfCounters.blg")
	const rng = " (" + "%s runs from 02/19/2013 18:50:17.844 to 02/19/2013 19:00:17.840)\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-b", "2020-01-01"}, "perfcalc relog: nothing selected: -b 01/01/2020 00:00:00.000 is after the last sample"},
		{[]string{"-e", "02/19/2013 18:50:17.843"}, "perfcalc relog: nothing selected: -e 02/19/2013 18:50:17.843 is before the first sample"},
		{[]string{"-b", "02/19/2013 18:55:00.1", "-e", "02/19/2013 18:55:00.2"}, "perfcalc relog: nothing selected: no sample lies between -b and -e"},
		{[]string{"-q", "-b", "2020-01-01"}, "perfcalc relog: nothing selected: -b 01/01/2020 00:00:00.000 is after the last sample"},
	} {
		code, out, errs := runCmd(t, "", append([]string{"relog", tx}, tc.args...)...)
		want := tc.want + strings.Replace(rng, "%s", tx, 1)
		if code != exitError || out != "" || errs != want {
			t.Errorf("%q: have exit %d, stdout %.60q, stderr %q; want exit 1 and %q", tc.args, code, out, errs, want)
		}
	}
	// A range that keeps samples is not refused, nor a -c that matches.
	if code, _, errs := runCmd(t, "", "relog", tx, "-b", "02/19/2013 19:00:17.840"); code != exitOK {
		t.Errorf("the last sample alone: exit %d, %q", code, errs)
	}
	code, _, errs := runCmd(t, "", "relog", tx, "-c", `\Nope(*)\*`)
	if want := "perfcalc relog: no counter of " + tx + ` matches \Nope(*)\* (perfcalc relog ` + tx + " -q lists them)\n"; code != exitError || errs != want {
		t.Errorf("no match: have exit %d, %q, want %q", code, errs, want)
	}
}

// synopses returns the usage lines of a command's -h ("perfcalc relog
// IN.blg …").
func synopses(t *testing.T, cmd string) []string {
	_, out, _ := runCmd(t, "", cmd, "-h")
	var lines []string
	for _, l := range strings.Split(out, "\n")[1:] {
		switch {
		case strings.HasPrefix(l, "  perfcalc "):
			lines = append(lines, strings.TrimPrefix(l, "  "))
		case strings.HasPrefix(l, "   ") && len(lines) > 0: // a long synopsis continued
			lines[len(lines)-1] += " " + strings.TrimSpace(l)
		default:
			return lines
		}
	}
	t.Fatalf("%s -h has no usage lines", cmd)
	return nil
}

// TestSynopsesAgree: the synopses of the README and of the command-line
// reference doc/COMMANDS.md ("$ perfcalc relog IN.blg …") and of the
// command's documentation (go doc) are the lines of "perfcalc COMMAND -h",
// and the reference and the documentation show every usage line of relog,
// stats and values.
func TestSynopsesAgree(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(corpus.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	reference, err := os.ReadFile(filepath.Join(corpus.Root(), "doc", "COMMANDS.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	// A synopsis: the command and an upper-case placeholder (IN.blg,
	// OLDER, BLOB) or a flag, not an example with real file names.
	syn := regexp.MustCompile(`^perfcalc ([a-z]+) ([A-Z][A-Za-z.]*( |$)|\[|--?[a-z])`)
	for _, src := range []struct {
		name, text, prefix string
		complete           bool // shows every usage line of relog, stats and values
	}{
		{"README.md", string(readme), "$ ", false},
		{"doc/COMMANDS.md", string(reference), "$ ", true},
		{"main.go's documentation", string(doc), "//\t", true},
	} {
		seen := map[string]bool{}
		for _, line := range strings.Split(src.text, "\n") {
			if !strings.HasPrefix(line, src.prefix+"perfcalc ") {
				continue
			}
			line = strings.TrimPrefix(line, src.prefix)
			if i := strings.Index(line, "  #"); i >= 0 {
				line = strings.TrimRight(line[:i], " ")
			}
			m := syn.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			want := synopses(t, m[1])
			found := false
			for _, w := range want {
				found = found || w == line
			}
			if !found {
				t.Errorf("%s: %q is not a usage line of perfcalc %s -h:\n%s", src.name, line, m[1], strings.Join(want, "\n"))
			}
			seen[line] = true
		}
		if !src.complete {
			continue
		}
		for _, cmd := range []string{"relog", "stats", "values"} {
			for _, w := range synopses(t, cmd) {
				if !seen[w] {
					t.Errorf("%s lacks the synopsis %q of perfcalc %s -h", src.name, w, cmd)
				}
			}
		}
	}
}

// writeFile writes a file into the test's folder and returns its path.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// utf16File is text as Notepad's "Unicode" writes it: UTF-16LE with a BOM.
func utf16File(text string) []byte {
	b := []byte{0xFF, 0xFE}
	for _, r := range text {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

// TestCounterFile: -cf FILE selects what -c selects with the same paths,
// in relog, stats, values and paths; the file may be UTF-8 (with or
// without a BOM, LF or CR LF) or UTF-16 with a BOM, with blank lines and #
// comments; -c and -cf add up.
func TestCounterFile(t *testing.T) {
	a, b, names := corpusFile("global-1.bin"), corpusFile("global-2.bin"), corpusFile("counter-009.multisz")
	dir := filepath.Dir(corpusDirOrEmpty())
	tx := filepath.Join(dir, "blg", "Tx_BasicPerfCounters.blg")
	type run struct {
		cmd      []string // the command, before the selection
		p1, p2   string   // two paths
		needsLog bool
	}
	runs := []run{
		{[]string{"values", a, b, "--names", names}, `\Processor(*)\% Processor Time`, `\System\*`, false},
		{[]string{"paths", a, "--names", names}, `\Processor(_Total)\*`, `\\*\Memory\Available Bytes`, false},
		{[]string{"relog", tx}, `\PhysicalDisk(*)\Avg. Disk Queue Length`, `\\georgis3\Processor(_Total)\*`, true},
		{[]string{"stats", tx, "--json"}, `\Processor(*)\*`, `\PhysicalDisk(0 C:)\Avg. Disk Bytes/Read`, true},
	}
	for _, r := range runs {
		if r.needsLog && dir == "." {
			t.Logf("%s: skipped (../shared/corpus is absent)", r.cmd[0])
			continue
		}
		code, want, errs := runCmd(t, "", append(r.cmd, "-c", r.p1, "-c", r.p2)...)
		if code != exitOK || want == "" {
			t.Fatalf("%s -c: exit %d, %q", r.cmd[0], code, errs)
		}
		for _, file := range [][]byte{
			[]byte(r.p1 + "\n" + r.p2 + "\n"),
			[]byte("\xEF\xBB\xBF# counters\r\n\r\n  " + r.p1 + "  \r\n\t# " + r.p2 + " below\r\n" + r.p2),
			utf16File("# Notepad\r\n" + r.p1 + "\r\n\r\n" + r.p2 + "\r\n"),
		} {
			cf := writeFile(t, "counters.txt", file)
			code, have, errs := runCmd(t, "", append(r.cmd, "-cf", cf)...)
			if code != exitOK || have != want {
				t.Errorf("%s -cf %q: exit %d, stderr %q, the output differs from -c's: %v", r.cmd[0], file, code, errs, have != want)
			}
		}
		one := writeFile(t, "one.txt", []byte(r.p2+"\n"))
		if code, have, errs := runCmd(t, "", append(r.cmd, "-c", r.p1, "-cf", one)...); code != exitOK || have != want {
			t.Errorf("%s -c and -cf: exit %d, stderr %q, the output differs from two -c's", r.cmd[0], code, errs)
		}
	}
	missing := filepath.Join(t.TempDir(), "missing.txt")
	bad := writeFile(t, "bad.txt", []byte("# ok\n\\Processor(*)\\*\nProcessor\n"))
	empty := writeFile(t, "empty.txt", []byte("# nothing\n\n"))
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"values", a, b, "-cf", missing}, exitError, "perfcalc values: -cf: open " + missing + ": no such file or directory\n"},
		{[]string{"paths", a, "-cf", bad}, exitUsage, "perfcalc paths: -cf " + bad + `: line 3: counterpath: "Processor" at position 0: a counter path starts with \ (\object\counter) or \\ (\\machine\object\counter)` + "\n"},
		{[]string{"relog", "x.blg", "-cf", empty}, exitUsage, "perfcalc relog: -cf " + empty + ": the file lists no counter path\n"},
		{[]string{"stats", "x.blg", "-cf", bad}, exitUsage, "perfcalc stats: -cf " + bad + `: line 3: counterpath: "Processor" at position 0: a counter path starts with \ (\object\counter) or \\ (\\machine\object\counter)` + "\n"},
	} {
		code, out, errs := runCmd(t, "", tc.args...)
		if code != tc.code || out != "" || errs != tc.want {
			t.Errorf("%q: have exit %d, stdout %q, stderr %q\nwant exit %d, %q", tc.args, code, out, errs, tc.code, tc.want)
		}
	}
}

// TestRelogMergeCommand: relog and stats take several logs. A log given
// twice gives the log's own output; Tx and PowerShell give the union of
// their counters and rows (PowerShell's moved to Tx's Pacific time), and
// statistics that are each log's own; a damaged or foreign log is named.
func TestRelogMergeCommand(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	tx, ps := filepath.Join(dir, "Tx_BasicPerfCounters.blg"), filepath.Join(dir, "PowerShell_BadCounterSamples.blg")
	for _, args := range [][]string{{"relog"}, {"relog", "-f", "tsv", "--digits", "17"}, {"relog", "-q"}, {"relog", "-f", "json", "-t", "9"}, {"stats"}, {"stats", "--json"}} {
		_, want, _ := runCmd(t, "", append(args, tx)...)
		code, have, errs := runCmd(t, "", append(args, tx, tx)...)
		if code != exitOK || errs != "" || have != want {
			t.Errorf("%q of the log twice: exit %d, stderr %q; the output differs from the log's: %v", args, code, errs, have != want)
		}
	}
	code, out, errs := runCmd(t, "", "relog", tx, ps, "-q")
	if code != exitOK || errs != "" || !strings.HasSuffix(out, `\\s14185423\Processor(_Total)\% Processor Time`+"\n\nTime Begin: 07/02/2007 10:20:12.734\nTime End:   02/19/2013 19:00:17.840\nSamples:    876\n") ||
		!strings.HasPrefix(out, `\\GEORGIS3\PhysicalDisk(0 C:)\Avg. Disk Bytes/Read`+"\n") || strings.Count(out, "\n") != 10+26+4 {
		t.Errorf("relog -q of two logs: exit %d, stderr %q, stdout\n%s", code, errs, out)
	}
	_, txStats, _ := runCmd(t, "", "stats", "--json", tx)
	_, psStats, _ := runCmd(t, "", "stats", "--json", ps)
	_, both, _ := runCmd(t, "", "stats", "--json", tx, ps)
	if want := strings.TrimSuffix(txStats, "\n]\n") + ",\n" + strings.TrimPrefix(psStats, "[\n"); both != want {
		t.Errorf("stats of two logs:\n%s\nwant\n%s", both, want)
	}
	log, err := os.ReadFile(tx)
	if err != nil {
		t.Fatal(err)
	}
	cut := writeFile(t, "cut.blg", log[:len(log)/2+1234])
	code, out, errs = runCmd(t, "", "relog", ps, cut)
	if code != exitError || !strings.HasPrefix(errs, "perfcalc relog: "+cut+": blg: ") || strings.Count(errs, "\n") != 1 || strings.Count(out, "\r\n") < 275+200 {
		t.Errorf("a damaged second log: exit %d, %d lines, stderr %q", code, strings.Count(out, "\r\n"), errs)
	}
	foreign := filepath.Join(dir, "PowerShell_CorruptBlg.blg")
	code, out, errs = runCmd(t, "", "stats", tx, foreign)
	if code != exitError || out != "" || !strings.HasPrefix(errs, "perfcalc stats: "+foreign+": not a readable .blg log: ") || strings.Count(errs, "\n") != 1 {
		t.Errorf("a file that is not a log: exit %d, stderr %q", code, errs)
	}
}

// TestReadmeMakeRun: the README shows the first lines of what make run
// prints, and their number, as the command prints them today.
func TestReadmeMakeRun(t *testing.T) {
	root := corpus.Root()
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`make run` is `go run ./cmd/perfcalc ([^`]*)`, a table of ([0-9]+) counters:\n\n```\n((?s:.*?))```\n").FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README does not show what make run prints")
	}
	m[1] = bytes.ReplaceAll(m[1], []byte("\n"), []byte(" ")) // the command may wrap in the README
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(makefile), "\n\t$(GO) run ./cmd/perfcalc "+string(m[1])+"\n") {
		t.Errorf("make run is not perfcalc %s", m[1])
	}
	var args []string
	for _, a := range strings.Fields(string(m[1])) {
		if strings.HasPrefix(a, "testdata/") {
			a = filepath.Join(root, a)
		}
		args = append(args, a)
	}
	code, out, errs := runCmd(t, "", args...)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, %q", code, errs)
	}
	if !strings.HasPrefix(out, string(m[3])) {
		t.Errorf("the README shows\n%s\nmake run prints\n%.600s", m[3], out)
	}
	if n := strings.Count(out, "\n") - 1; strconv.Itoa(n) != string(m[2]) {
		t.Errorf("the README says %s counters, make run prints %d", m[2], n)
	}
}
