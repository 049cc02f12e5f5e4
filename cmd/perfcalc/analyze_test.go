package main

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// machineLog writes a log of machine's raw counter \Memory\Pages with
// samples samples one second apart from start (UTC FILETIME): the value
// of sample i is 100·i, so that it passes 500 at the sixth sample.
func machineLog(machine string, start int64, samples int) []byte {
	return machineLogBuffers(machine, start, samples, 64<<10)
}

// machineLogBuffers is machineLog with buffers of bufSize bytes.
func machineLogBuffers(machine string, start int64, samples, bufSize int) []byte {
	c := blgbuild.Counter{Type: uint32(engine.CounterRawcount), Machine: `\\` + machine, Object: "Memory", Counter: "Pages"}
	l := blgbuild.New(bufSize, start)
	l.Record(blgbuild.EventCounterList, start, blgbuild.AppendCounterList(nil, c), blgbuild.MaxEventData)
	for i := range samples {
		ts := start + int64(i)*10_000_000
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, uint64(100*i)), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// pagesThresholds is a PAL threshold file of one analysis of \Memory\Pages:
// a warning above 500, a critical alert above the question Limit (100,000
// unless set), and an options question Mode with no default when
// withOptions.
func pagesThresholds(withOptions bool) string {
	q, mode := "", ""
	if withOptions {
		q = `<QUESTION QUESTIONVARNAME="Mode" DATATYPE="options" OPTIONS="fast,slow">Which mode?</QUESTION>`
		mode = `<THRESHOLD NAME="Mode limit" CONDITION="Critical" COLOR="Red" PRIORITY="100">
      <CODE><![CDATA[$L = 1000
If ($Mode -eq 'slow') {$L = 2000}
StaticThreshold -CollectionOfCounterInstances $CollectionOfPages -Operator 'gt' -Threshold $L]]></CODE>
    </THRESHOLD>`
	}
	return `<?xml version="1.0" encoding="UTF-8"?>
<PAL PALVERSION="2.0" NAME="Pages test" DESCRIPTION="test" VERSION="1.0" LANGUAGE="English" LANGUAGECODE="en">
  <QUESTION QUESTIONVARNAME="Limit" DATATYPE="integer" DEFAULTVALUE="100000">The critical limit of pages</QUESTION>
  ` + q + `
  <ANALYSIS NAME="Memory Pages" ENABLED="True" CATEGORY="Memory" PRIMARYDATASOURCE="\Memory\Pages" ID="{1}">
    <DATASOURCE TYPE="CounterLog" NAME="\Memory\Pages" EXPRESSIONPATH="\Memory\Pages" COLLECTIONVARNAME="CollectionOfPages" DATATYPE="round3" />
    <CHART CHARTTITLE="\Memory\Pages" ISTHRESHOLDSADDED="True" DATASOURCE="\Memory\Pages" CHARTLABELS="instance">
      <SERIES NAME="Warning">
        <CODE><![CDATA[StaticChartThreshold -CollectionOfCounterInstances $CollectionOfPages -MinThreshold 500 -MaxThreshold $Limit -IsOperatorGreaterThan $True -UseMaxValue $False]]></CODE>
      </SERIES>
    </CHART>
    <THRESHOLD NAME="More than 500 pages" CONDITION="Warning" COLOR="Yellow" PRIORITY="50">
      <CODE><![CDATA[StaticThreshold -CollectionOfCounterInstances $CollectionOfPages -Operator 'gt' -Threshold 500]]></CODE>
    </THRESHOLD>
    <THRESHOLD NAME="More than the limit" CONDITION="Critical" COLOR="Red" PRIORITY="100">
      <CODE><![CDATA[StaticThreshold -CollectionOfCounterInstances $CollectionOfPages -Operator 'gt' -Threshold $Limit]]></CODE>
    </THRESHOLD>
    ` + mode + `
    <THRESHOLD NAME="Hand-written loop" CONDITION="Warning" COLOR="Yellow" PRIORITY="50">
      <CODE><![CDATA[ForEach ($oInstance in $CollectionOfPages) { CreateAlert -oInstance $oInstance }]]></CODE>
    </THRESHOLD>
    <DESCRIPTION><![CDATA[<B>Pages</B> of the test.]]></DESCRIPTION>
  </ANALYSIS>
</PAL>
`
}

// analyzeFixture writes two logs of SERVER1 (60 s each, one after the
// other), one of SERVER2, and the threshold files, into a temporary
// folder.
func analyzeFixture(t *testing.T) (dir string) {
	dir = t.TempDir()
	putFile(t, filepath.Join(dir, "logs", "s1a.blg"), machineLog("SERVER1", tinyLogStart, 60))
	putFile(t, filepath.Join(dir, "logs", "s1b.blg"), machineLog("SERVER1", tinyLogStart+60*10_000_000, 60))
	putFile(t, filepath.Join(dir, "logs", "s2.blg"), machineLog("SERVER2", tinyLogStart, 60))
	putFile(t, filepath.Join(dir, "pages.xml"), []byte(pagesThresholds(false)))
	putFile(t, filepath.Join(dir, "options.xml"), []byte(pagesThresholds(true)))
	return dir
}

func TestAnalyzeUsageErrors(t *testing.T) {
	dir := analyzeFixture(t)
	log := filepath.Join(dir, "logs", "s2.blg")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "give the logs to analyze"},
		{[]string{log, "--fail-on", "error"}, `--fail-on: "error" is not warning or critical`},
		{[]string{log, "-f", "xml"}, `-f: "xml" is not html, json or text`},
		{[]string{log, "--interval", "0"}, "--interval 0: want auto or a positive number of seconds"},
		{[]string{log, "--interval", "ten"}, "--interval ten: want auto or a positive number of seconds"},
		{[]string{log, "--set", "Limit"}, "--set Limit: want NAME=VALUE"},
		{[]string{log, "-o", filepath.Join(dir, "out.xlsx")}, "the extension .xlsx names no format that perfcalc analyze writes"},
		{[]string{log, "--set", "Limit=5"}, "--set Limit: no such question (perfcalc's default analyses ask none;"},
		{[]string{log, "--thresholds", filepath.Join(dir, "pages.xml"), "--set", "PhysicalMemory=32"}, "--set PhysicalMemory: no such question (the threshold files ask Limit)"},
		{[]string{log, "--thresholds", filepath.Join(dir, "options.xml")}, "needs question Mode (Which mode?), which has no default: set it (--set Mode=VALUE)"},
		{[]string{log, "--thresholds", filepath.Join(dir, "options.xml"), "--set", "Mode=medium"}, `"medium" is not one of its options (fast, slow)`},
		{[]string{"-", log}, "standard input (-) can only be analyzed alone"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := runCmd(t, "", append([]string{"analyze"}, tc.args...)...)
			if code != exitUsage || out != "" {
				t.Errorf("have exit %d, stdout %q; want 2 and nothing", code, out)
			}
			if !strings.Contains(errs, tc.want) || !strings.HasPrefix(errs, "perfcalc analyze: ") {
				t.Errorf("have stderr %q, want it to say %q", errs, tc.want)
			}
		})
	}
}

func TestAnalyzeHelp(t *testing.T) {
	code, out, _ := runCmd(t, "", "analyze", "-h")
	if code != exitOK || !strings.Contains(out, "perfcalc analyze LOG...") || !strings.Contains(out, "-fail-on") {
		t.Errorf("exit %d, help %.200q", code, out)
	}
}

// TestAnalyzeFailOn: exit status 3 when --fail-on's condition was raised,
// 0 otherwise; the report is written either way.
func TestAnalyzeFailOn(t *testing.T) {
	dir := analyzeFixture(t)
	log := filepath.Join(dir, "logs", "s2.blg")
	th := filepath.Join(dir, "pages.xml")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{nil, exitOK},
		{[]string{"--fail-on", "warning"}, exitAlerts},
		{[]string{"--fail-on", "critical"}, exitOK}, // values stay under 100,000
		{[]string{"--fail-on", "critical", "--set", "Limit=3000"}, exitAlerts},
		{[]string{"--fail-on", "Critical", "--set", "limit=3000"}, exitAlerts},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append([]string{"analyze", log, "--thresholds", th, "-f", "json"}, tc.args...)
			code, out, errs := runCmd(t, "", args...)
			if code != tc.code {
				t.Fatalf("have exit %d (stderr %q), want %d", code, errs, tc.code)
			}
			var doc struct{ Alerts []map[string]any }
			if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Alerts) == 0 {
				t.Fatalf("the JSON report (%v) has no alerts: %.300s", err, out)
			}
		})
	}
}

// TestAnalyzeJSON: the JSON parses, and its alerts are those of the
// thresholds: warnings of \\SERVER2\Memory\Pages (above 500 from the
// sixth second), critical ones above the limit set.
func TestAnalyzeJSON(t *testing.T) {
	dir := analyzeFixture(t)
	code, out, errs := runCmd(t, "", "analyze", filepath.Join(dir, "logs", "s2.blg"), "--thresholds", filepath.Join(dir, "pages.xml"), "--set", "Limit=5000", "-f", "json")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var doc struct {
		Alerts []struct {
			Machine, Analysis, Category, Condition, Path, Start, End string
			Slice                                                    int
			Max                                                      float64
		}
		Slices []any
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %.300s", err, out)
	}
	if len(doc.Slices) == 0 {
		t.Error("no slices")
	}
	var warn, crit int
	for _, a := range doc.Alerts {
		if a.Analysis != "Memory Pages" || a.Category != "Memory" || a.Path != `\\SERVER2\Memory\Pages` {
			t.Errorf("alert %+v: want analysis Memory Pages, category Memory, path \\\\SERVER2\\Memory\\Pages", a)
		}
		switch a.Condition {
		case "Warning":
			warn++
		case "Critical":
			crit++
			if a.Max <= 5000 {
				t.Errorf("a critical alert of max %v, not above 5000", a.Max)
			}
		default:
			t.Errorf("condition %q", a.Condition)
		}
		if !strings.HasSuffix(a.Start, "Z") || !strings.HasPrefix(a.Start, "2013-02-20T02:5") {
			t.Errorf("start %q: want ISO 8601 UTC of 2013-02-20 02:50 to 02:51", a.Start)
		}
	}
	if warn == 0 || crit == 0 {
		t.Errorf("have %d warning and %d critical alerts, want some of each", warn, crit)
	}
}

// TestAnalyzeFormatsByExtension: -o's extension picks the format, -f
// overrides it, standard output gets text.
func TestAnalyzeFormatsByExtension(t *testing.T) {
	dir := analyzeFixture(t)
	log := filepath.Join(dir, "logs", "s2.blg")
	th := filepath.Join(dir, "pages.xml")
	isHTML := func(s string) bool { return strings.HasPrefix(s, "<!DOCTYPE html>") }
	isJSON := func(s string) bool { return json.Valid([]byte(s)) && strings.HasPrefix(s, "{") }
	isText := func(s string) bool { return s != "" && !isHTML(s) && !isJSON(s) }
	for _, tc := range []struct {
		out  string
		f    string
		want func(string) bool
	}{
		{"r.html", "", isHTML},
		{"r.HTM", "", isHTML},
		{"r.json", "", isJSON},
		{"r.txt", "", isText},
		{"report", "", isText},
		{"r.json", "html", isHTML},
		{"", "", isText},
		{"", "json", isJSON},
		{"", "html", isHTML},
	} {
		t.Run(tc.out+" -f "+tc.f, func(t *testing.T) {
			args := []string{"analyze", log, "--thresholds", th}
			if tc.f != "" {
				args = append(args, "-f", tc.f)
			}
			out := ""
			if tc.out != "" {
				out = filepath.Join(t.TempDir(), tc.out)
				args = append(args, "-o", out)
			}
			code, stdout, errs := runCmd(t, "", args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			if out != "" {
				if stdout != "" {
					t.Errorf("stdout %q with -o", stdout)
				}
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				stdout = string(b)
			}
			if !tc.want(stdout) {
				t.Errorf("the output is not of the format wanted: %.200q", stdout)
			}
		})
	}
}

// TestAnalyzeOutputIsInput: an -o that is a log or a threshold file is
// refused, and the file is left as it was.
func TestAnalyzeOutputIsInput(t *testing.T) {
	dir := analyzeFixture(t)
	log := filepath.Join(dir, "logs", "s2.blg")
	th := filepath.Join(dir, "pages.xml")
	link := filepath.Join(dir, "link.html")
	if err := os.Symlink(log, link); err != nil {
		t.Skip(err)
	}
	for _, out := range []string{log, th, link, filepath.Join(dir, "logs", ".", "s2.blg")} {
		before, _ := os.ReadFile(out)
		code, _, errs := runCmd(t, "", "analyze", filepath.Join(dir, "logs"), "--thresholds", th, "-f", "html", "-o", out)
		if code != exitUsage || !strings.Contains(errs, "is the same file as the input") {
			t.Errorf("-o %s: exit %d, stderr %q; want 2 and the same-file error", out, code, errs)
		}
		if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
			t.Errorf("-o %s: the input was changed", out)
		}
	}
}

// TestAnalyzeMachines: logs of two machines given as a folder: SERVER1's
// two logs merged (120 s), SERVER2's alone; the HTML has a section per
// machine and the fleet summary; the JSON one report per machine and every
// alert in time order at the top; an
// unreadable log in the folder is reported, the others analyzed, exit 1.
func TestAnalyzeMachines(t *testing.T) {
	dir := analyzeFixture(t)
	th := filepath.Join(dir, "pages.xml")
	code, out, errs := runCmd(t, "", "analyze", filepath.Join(dir, "logs"), "--thresholds", th, "-f", "json", "--set", "Limit=5000")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	type alert struct{ Machine, Path, Condition, Start string }
	var doc struct {
		Alerts   []alert
		Machines []struct{ Alerts []alert }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %.300s", err, out)
	}
	if len(doc.Machines) != 2 {
		t.Fatalf("have %d machines, want 2", len(doc.Machines))
	}
	// The top-level alerts: every machine's, in time order.
	if n := len(doc.Machines[0].Alerts) + len(doc.Machines[1].Alerts); len(doc.Alerts) != n || n == 0 {
		t.Fatalf("%d top-level alerts, the machines have %d", len(doc.Alerts), n)
	}
	for i := 1; i < len(doc.Alerts); i++ {
		if a, b := doc.Alerts[i-1], doc.Alerts[i]; a.Start > b.Start || a.Start == b.Start && a.Machine > b.Machine {
			t.Fatalf("top-level alerts %d and %d out of order: %v, %v", i-1, i, a, b)
		}
	}
	seen := map[alert]int{}
	for _, a := range doc.Alerts {
		seen[a]++
	}
	for _, m := range doc.Machines {
		for _, a := range m.Alerts {
			if seen[a]--; seen[a] < 0 {
				t.Fatalf("%v of a machine's report is not among the top-level alerts", a)
			}
		}
	}
	latest := map[string]string{}
	for k, m := range doc.Machines {
		want := []string{`\\SERVER1\Memory\Pages`, `\\SERVER2\Memory\Pages`}[k]
		for _, a := range m.Alerts {
			if a.Path != want {
				t.Errorf("machine %d: alert of %s, want %s", k, a.Path, want)
			}
			latest[want] = max(latest[want], a.Start)
		}
	}
	// SERVER1's second log runs from 02:51:17 on: merged, its alerts come after SERVER2's
	if latest[`\\SERVER1\Memory\Pages`] <= latest[`\\SERVER2\Memory\Pages`] {
		t.Errorf("SERVER1's last alert %s is not after SERVER2's %s: its logs were not merged", latest[`\\SERVER1\Memory\Pages`], latest[`\\SERVER2\Memory\Pages`])
	}

	code, out, errs = runCmd(t, "", "analyze", filepath.Join(dir, "logs", "*.blg"), "--thresholds", th, "-f", "html", "--set", "Limit=5000")
	if code != exitOK {
		t.Fatalf("glob: exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{`<section id="fleet">`, `<section class="machine" id="m0-machine"><h2>SERVER1</h2>`, `<section class="machine" id="m1-machine"><h2>SERVER2</h2>`} {
		if !strings.Contains(out, want) {
			t.Errorf("the HTML lacks %q", want)
		}
	}

	code, out, errs = runCmd(t, "", "analyze", filepath.Join(dir, "logs"), "--thresholds", th, "--set", "Limit=5000")
	if code != exitOK || !strings.Contains(out, "SERVER1") || !strings.Contains(out, "SERVER2") || !strings.Contains(out, "Fleet: 2 machines") {
		t.Errorf("text: exit %d, stderr %q, stdout %.500q", code, errs, out)
	}

	putFile(t, filepath.Join(dir, "logs", "bad.blg"), []byte("not a log at all, not a log at all, not a log at all, not a log at all"))
	code, out, errs = runCmd(t, "", "analyze", filepath.Join(dir, "logs"), "--thresholds", th, "-f", "json")
	if code != exitError || !strings.Contains(errs, "bad.blg: not a readable .blg log") || !json.Valid([]byte(out)) {
		t.Errorf("a bad log among good ones: exit %d, stderr %q, stdout valid JSON %v; want 1, the bad log named, the others' report", code, errs, json.Valid([]byte(out)))
	}
	code, out, _ = runCmd(t, "", "analyze", filepath.Join(dir, "logs"), "--thresholds", th, "-f", "html")
	if notRead := "<tr><th>Not read</th><td><span class=\"notread\">" + html.EscapeString(filepath.Join(dir, "logs", "bad.blg")) + ": not a readable .blg log"; code != exitError || !strings.Contains(out, notRead) {
		t.Errorf("a bad log among good ones: exit %d; want 1 and the HTML's parameters to name it (%q)", code, notRead)
	}
}

// TestAnalyzeDefaultsOnCorpus: perfcalc's default analyses run on the real
// logs of the corpus with no option, in each format.
func TestAnalyzeDefaultsOnCorpus(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	for _, name := range []string{"PAL_SamplePerfmonLog.blg", "Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg"} {
		for _, f := range []string{"text", "json", "html"} {
			code, out, errs := runCmd(t, "", "analyze", filepath.Join(dir, name), "-f", f)
			if code != exitOK || out == "" {
				t.Errorf("%s -f %s: exit %d, stderr %q, %d bytes", name, f, code, errs, len(out))
			}
			if f == "json" && !json.Valid([]byte(out)) {
				t.Errorf("%s: the JSON does not parse", name)
			}
		}
	}
}

// TestAnalyzeUnsupported: a threshold perfcalc cannot evaluate is named,
// with its analysis and the reason, on standard error and in the report.
func TestAnalyzeUnsupported(t *testing.T) {
	dir := analyzeFixture(t)
	code, out, errs := runCmd(t, "", "analyze", filepath.Join(dir, "logs", "s2.blg"), "--thresholds", filepath.Join(dir, "pages.xml"), "-f", "html")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(errs, "perfcalc analyze: note: not evaluated: Memory Pages: Hand-written loop: ") || strings.Count(errs, "\n") != 1 {
		t.Errorf("stderr %q: want one note naming the analysis, the threshold and the reason", errs)
	}
	reason := strings.TrimSpace(errs[strings.Index(errs, "Hand-written loop: ")+len("Hand-written loop: "):])
	if !strings.Contains(out, "<tr><td>Memory Pages</td><td>Hand-written loop <span class=\"muted\">(threshold)</span></td><td>"+html.EscapeString(reason)+"</td></tr>") {
		t.Errorf("the report does not list the threshold with the reason %q", reason)
	}
}

// TestAnalyzeStdin: "-" analyzes a log read from standard input.
func TestAnalyzeStdin(t *testing.T) {
	dir := analyzeFixture(t)
	log, err := os.ReadFile(filepath.Join(dir, "logs", "s2.blg"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, string(log), "analyze", "-", "--thresholds", filepath.Join(dir, "pages.xml"), "-f", "json", "--fail-on", "warning")
	if code != exitAlerts || !strings.Contains(out, `"path":"\\\\SERVER2\\Memory\\Pages"`) {
		t.Errorf("exit %d, stderr %q, stdout %.300q", code, errs, out)
	}
}

// TestAnalyzeDamaged: a log cut short is analyzed up to the damage; the
// report is written, the damage named, the exit status 1.
func TestAnalyzeDamaged(t *testing.T) {
	dir := analyzeFixture(t)
	log := machineLogBuffers("SERVER2", tinyLogStart, 300, 4096)
	cut := putFile(t, filepath.Join(dir, "cut.blg"), log[:len(log)*2/3])
	out := filepath.Join(dir, "cut.json")
	code, _, errs := runCmd(t, "", "analyze", cut, "--thresholds", filepath.Join(dir, "pages.xml"), "-o", out)
	if code != exitError || !strings.Contains(errs, "perfcalc analyze: "+cut+": ") || !strings.Contains(errs, "the report covers the samples before the damage") {
		t.Errorf("exit %d, stderr %q: want 1 and the damage named", code, errs)
	}
	b, err := os.ReadFile(out)
	var doc struct{ Alerts []any }
	if err != nil || json.Unmarshal(b, &doc) != nil || len(doc.Alerts) == 0 {
		t.Errorf("the report of the samples before the damage is missing or has no alerts (%v): %.200q", err, b)
	}
}

// TestAnalyzeInheritance: a threshold file's INHERITANCE is read relative
// to its folder, a name differing only in case found as on Windows.
func TestAnalyzeInheritance(t *testing.T) {
	dir := analyzeFixture(t)
	child := putFile(t, filepath.Join(dir, "sub", "child.xml"), []byte(`<?xml version="1.0"?>
<PAL PALVERSION="2.0" NAME="child"><INHERITANCE FILEPATH="..\PAGES.XML" /></PAL>`))
	code, out, errs := runCmd(t, "", "analyze", filepath.Join(dir, "logs", "s2.blg"), "--thresholds", child, "--set", "Limit=3000", "--fail-on", "critical", "-f", "json")
	if code != exitAlerts || !strings.Contains(out, `"analysis":"Memory Pages"`) {
		t.Errorf("exit %d, stderr %q, stdout %.200q: want 3 and the inherited analysis' alerts", code, errs, out)
	}
}
