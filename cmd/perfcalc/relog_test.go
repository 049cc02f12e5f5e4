package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/corpus"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/relog from the real logs")

// The golden outputs of the real logs. The CSV and -q goldens hold every
// column and row; the others keep the files small with -c, -t or -b/-e
// (PAL's whole-object log has 1832 columns).
var goldens = []struct {
	golden string
	args   []string // the log's name comes first
}{
	{"tx.csv", []string{"Tx_BasicPerfCounters.blg"}},
	{"tx.tsv", []string{"Tx_BasicPerfCounters.blg", "-f", "tsv"}},
	{"tx.d17.csv", []string{"Tx_BasicPerfCounters.blg", "--digits", "17"}},
	{"tx.d17.tsv", []string{"Tx_BasicPerfCounters.blg", "-f", "tsv", "--digits", "17"}},
	{"tx.jsonl", []string{"Tx_BasicPerfCounters.blg", "-f", "json", "-t", "10"}},
	{"tx.q.txt", []string{"Tx_BasicPerfCounters.blg", "-q"}},
	{"tx.stats.txt", []string{"stats", "Tx_BasicPerfCounters.blg"}},
	{"tx.stats.json", []string{"stats", "Tx_BasicPerfCounters.blg", "--json"}},
	{"tx.t60.csv", []string{"Tx_BasicPerfCounters.blg", "-t", "60", "-c", `\Processor(*)\*`}},
	{"tx.range.csv", []string{"Tx_BasicPerfCounters.blg", "-b", "02/19/2013 18:55:00", "-e", "2013-02-19T18:55:30", "-c", `\\georgis3\physicaldisk(0 c:)\avg. disk queue length`}},
	{"powershell.csv", []string{"PowerShell_BadCounterSamples.blg"}},
	{"powershell.d17.csv", []string{"PowerShell_BadCounterSamples.blg", "--digits", "17"}},
	{"powershell.tsv", []string{"PowerShell_BadCounterSamples.blg", "-f", "tsv", "-e", "07/02/2007 20:00:00"}},
	{"powershell.jsonl", []string{"PowerShell_BadCounterSamples.blg", "-f", "json", "-b", "07/04/2007 06:00:00"}},
	{"powershell.q.txt", []string{"PowerShell_BadCounterSamples.blg", "-q"}},
	{"powershell.stats.txt", []string{"stats", "PowerShell_BadCounterSamples.blg"}},
	{"powershell.stats.json", []string{"stats", "PowerShell_BadCounterSamples.blg", "--json"}},
	{"pal.csv", []string{"PAL_SamplePerfmonLog.blg"}},
	{"pal.d17.csv", []string{"PAL_SamplePerfmonLog.blg", "--digits", "17"}},
	{"pal.tsv", []string{"PAL_SamplePerfmonLog.blg", "-f", "tsv", "-c", `\Processor(*)\*`, "-c", `\Memory\*`}},
	{"pal.jsonl", []string{"PAL_SamplePerfmonLog.blg", "-f", "json", "-c", `\Processor(*)\*`, "-c", `\Memory\*`}},
	{"pal.q.txt", []string{"PAL_SamplePerfmonLog.blg", "-q"}},
	{"pal.stats.txt", []string{"stats", "PAL_SamplePerfmonLog.blg", "-c", `\Process(*)\% Processor Time`, "-c", `\PhysicalDisk(*)\*`}},
	{"pal.stats.json", []string{"stats", "PAL_SamplePerfmonLog.blg", "--json", "-c", `\Process(svchost*)\*`, "-c", `\System\*`}},
}

// commandArgs turns a golden's arguments into perfcalc's: relog by default,
// the log's name made a path into dir.
func commandArgs(dir string, args []string) []string {
	cmd := "relog"
	if args[0] == "stats" {
		cmd, args = "stats", args[1:]
	}
	return append([]string{cmd, filepath.Join(dir, args[0])}, args[1:]...)
}

func TestRelogGolden(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	for _, tc := range goldens {
		t.Run(tc.golden, func(t *testing.T) {
			code, out, errs := runCmd(t, "", commandArgs(dir, tc.args)...)
			if code != exitOK || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			golden := filepath.Join("testdata", "relog", tc.golden)
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if out != string(want) {
				hl, wl := strings.Split(out, "\n"), strings.Split(string(want), "\n")
				for i := 0; i < len(hl) && i < len(wl); i++ {
					if hl[i] != wl[i] {
						t.Fatalf("line %d:\nhave %.300q\nwant %.300q", i+1, hl[i], wl[i])
					}
				}
				t.Fatalf("have %d lines, want %d", len(hl), len(wl))
			}
		})
	}
}

// TestRelogGoldenShape checks what the goldens must show whatever their
// exact values: relog's header, the row count, the query's summary.
func TestRelogGoldenShape(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	for _, tc := range []struct {
		args     []string
		prefix   string
		lines    int
		contains string
	}{
		{[]string{"relog", "Tx_BasicPerfCounters.blg"}, `"(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\GEORGIS3\PhysicalDisk(0 C:)\Avg. Disk Bytes/Read",`, 602, "\r\n" + `"02/19/2013 18:50:17.844"," "," "," "," "," "," "," "," "," "," "` + "\r\n"},
		{[]string{"relog", "Tx_BasicPerfCounters.blg", "-f", "tsv"}, `"(PDH-TSV 4.0) (Pacific Standard Time)(480)"` + "\t", 602, "\r\n\"02/19/2013 19:00:17.840\"\t"},
		{[]string{"relog", "PowerShell_BadCounterSamples.blg"}, `"(PDH-CSV 4.0) (SA Eastern Standard Time)(180)","\\s14185201\Processor(_Total)\% Processor Time"`, 276, `"07/02/2007 14:20:12.734"`},
		{[]string{"relog", "PAL_SamplePerfmonLog.blg"}, `"(PDH-CSV 4.0) (Eastern Daylight Time)(240)","\\ZACH-PC\LogicalDisk(HarddiskVolume1)\% Free Space"`, 12, `"\\ZACH-PC\Process(svchost#12)\% Processor Time"`},
		{[]string{"relog", "Tx_BasicPerfCounters.blg", "-q"}, `\\GEORGIS3\PhysicalDisk(0 C:)\Avg. Disk Bytes/Read` + "\n", 14, "\nTime Begin: 02/19/2013 18:50:17.844\nTime End:   02/19/2013 19:00:17.840\nSamples:    601\n"},
		{[]string{"relog", "Tx_BasicPerfCounters.blg", "-f", "json"}, `{"time":"2013-02-19T18:50:17.844","values":{"\\\\GEORGIS3\\PhysicalDisk(0 C:)\\Avg. Disk Bytes/Read":null,`, 601, `"\\\\GEORGIS3\\Processor(_Total)\\% Processor Time":9.378262382554226}}`},
		{[]string{"stats", "PowerShell_BadCounterSamples.blg"}, "  Count  Skipped", 27, `\\s14185201\Processor(_Total)\% Processor Time`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append([]string{tc.args[0], filepath.Join(dir, tc.args[1])}, tc.args[2:]...)
			code, out, errs := runCmd(t, "", args...)
			if code != exitOK || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			if !strings.HasPrefix(out, tc.prefix) {
				t.Errorf("have %.200q…, want it to start with %q", out, tc.prefix)
			}
			if have := strings.Count(out, "\n"); have != tc.lines {
				t.Errorf("have %d lines, want %d", have, tc.lines)
			}
			if !strings.Contains(out, tc.contains) {
				t.Errorf("the output lacks %q", tc.contains)
			}
		})
	}
}

func TestRelogUsage(t *testing.T) {
	tx := filepath.Join(corpusDirOrEmpty(), "Tx_BasicPerfCounters.blg")
	for _, tc := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no input", []string{"relog"}, "give one to 32 input logs"},
		{"33 inputs", append([]string{"relog"}, strings.Split(strings.Repeat("a.blg ", 33), " ")[:33]...), "give one to 32 input logs"},
		{"bad format", []string{"relog", tx, "-f", "xml"}, `"xml" is not csv, tsv, json, parquet, openmetrics or bin`},
		{"bad -t", []string{"relog", tx, "-t", "0"}, "not a positive number"},
		{"bad -b", []string{"relog", tx, "-b", "tomorrow"}, `"tomorrow" is not a time`},
		{"-e before -b", []string{"relog", tx, "-b", "02/19/2013 18:55:00", "-e", "02/19/2013 18:54:00"}, "-e is before -b"},
		{"bad -c", []string{"relog", tx, "-c", `Processor(*)`}, "-c"},
		{"unknown flag", []string{"relog", tx, "-x"}, "flag provided but not defined"},
		{"stats without input", []string{"stats", "--json"}, "give one to 32 input logs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCmd(t, "", tc.args...)
			if code != exitUsage || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("have exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errs, tc.want)
			}
		})
	}
}

// corpusDirOrEmpty returns the real logs' folder, or "" where it is absent
// (the usage errors do not need the file to exist).
func corpusDirOrEmpty() string {
	dir := filepath.Join(filepath.Dir(corpus.Root()), "shared", "corpus", "blg")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// TestRelogFailures: an absent file, a file that is not a log, a damaged
// log and a filter that matches nothing: one line on stderr, exit 1.
func TestRelogFailures(t *testing.T) {
	tmp := t.TempDir()
	notLog := filepath.Join(tmp, "not.blg")
	if err := os.WriteFile(notLog, []byte("\"(PDH-CSV 4.0) (x)(0)\"\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"absent", []string{"relog", filepath.Join(tmp, "absent.blg")}, "no such file"},
		{"directory", []string{"relog", tmp}, "is a folder"},
		{"not a log", []string{"relog", notLog}, "not a readable .blg log"},
		{"stats of not a log", []string{"stats", notLog}, "not a readable .blg log"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCmd(t, "", tc.args...)
			if code != exitError || out != "" || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("have exit %d, stdout %q, stderr %q; want exit 1 and one line with %q", code, out, errs, tc.want)
			}
		})
	}
}

func TestRelogCorruptAndTruncated(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	code, out, errs := runCmd(t, "", "relog", filepath.Join(dir, "PowerShell_CorruptBlg.blg"))
	if code != exitError || out != "" || !strings.Contains(errs, "not a readable .blg log") || strings.Count(errs, "\n") != 1 {
		t.Errorf("corrupt log: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	log, err := os.ReadFile(filepath.Join(dir, "Tx_BasicPerfCounters.blg"))
	if err != nil {
		t.Fatal(err)
	}
	_, whole, _ := runCmd(t, "", "relog", filepath.Join(dir, "Tx_BasicPerfCounters.blg"))
	cut := filepath.Join(t.TempDir(), "cut.blg")
	if err := os.WriteFile(cut, log[:len(log)*2/3+100], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"relog", "stats"} {
		code, out, errs := runCmd(t, "", cmd, cut)
		if code != exitError || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "cut.blg: blg:") {
			t.Errorf("%s of a truncated log: exit %d, stderr %q; want exit 1 and one line", cmd, code, errs)
		}
		rows := strings.Count(out, "\n") - 1
		if cmd == "relog" && (rows < 300 || rows >= 601 || !strings.HasPrefix(whole, out)) {
			t.Errorf("truncated log: %d rows, a prefix of the whole log's: %v", rows, strings.HasPrefix(whole, out))
		}
	}
}

// TestRelogOutputFile: -o writes what standard output would get, replaces
// an existing file, leaves no temporary file, and leaves the old file alone
// when the log cannot be read.
func TestRelogOutputFile(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out.csv")
	if err := os.WriteFile(out, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "Tx_BasicPerfCounters.blg")
	_, want, _ := runCmd(t, "", "relog", in, "-f", "tsv")
	// Flags after the input, -o among them.
	if code, stdout, errs := runCmd(t, "", "relog", in, "-o", out, "-f", "tsv"); code != exitOK || stdout != "" || errs != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	have, err := os.ReadFile(out)
	if err != nil || string(have) != want {
		t.Errorf("-o wrote %d bytes (%v), want the %d of standard output", len(have), err, len(want))
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the replaced file's mode: %v, %v; want 0600 kept", fi.Mode(), err)
	}
	code, _, _ := runCmd(t, "", "relog", filepath.Join(dir, "PowerShell_CorruptBlg.blg"), "-o", out)
	have, _ = os.ReadFile(out)
	if code != exitError || string(have) != want {
		t.Errorf("a corrupt log with -o: exit %d and the file changed", code)
	}
	stats := filepath.Join(tmp, "stats.json")
	if code, _, errs := runCmd(t, "", "stats", "-o", stats, "--json", in); code != exitOK {
		t.Fatalf("stats -o: exit %d, %q", code, errs)
	}
	if b, err := os.ReadFile(stats); err != nil || !bytes.HasPrefix(b, []byte("[\n  {\"counter\":")) {
		t.Errorf("stats -o wrote %.40q, %v", b, err)
	}
	entries, _ := os.ReadDir(tmp)
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the folder holds %q, want out.csv and stats.json only", names)
	}
}
