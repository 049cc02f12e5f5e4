package analysis

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

var update = flag.Bool("update", false, "rewrite doc/DEFAULT-ANALYSES.md's table from Defaults (go generate ./analysis)")

// The categories of the default analyses (issue 24).
var categories = []string{"Processor", "Memory", "Disk", "Network", "Process", "System"}

// TestDefaultsWellFormed: every default analysis has a unique ID and name,
// a known category, datasources whose names parse as the counter paths
// they hold, a primary datasource, a Warning (priority 50) and a Critical
// (priority 100) threshold on existing datasources in the right order,
// chart bands that are its thresholds, Generated formulas over existing
// CounterLog datasources, a description with its rationale and what to
// do, and references.
func TestDefaultsWellFormed(t *testing.T) {
	set := Defaults()
	if set.Name != "perfcalc" {
		t.Errorf("Set.Name: have %q, want perfcalc", set.Name)
	}
	if len(set.Analyses) < 30 {
		t.Fatalf("have %d default analyses, want the 30 or more of issue 24's list", len(set.Analyses))
	}
	ids, names := map[string]bool{}, map[string]bool{}
	for i := range set.Analyses {
		a := &set.Analyses[i]
		t.Run(a.ID, func(t *testing.T) {
			if a.ID == "" || ids[a.ID] {
				t.Errorf("ID %q empty or not unique", a.ID)
			}
			if a.Name == "" || names[strings.ToLower(a.Name)] {
				t.Errorf("Name %q empty or not unique", a.Name)
			}
			ids[a.ID], names[strings.ToLower(a.Name)] = true, true
			if !slices.Contains(categories, a.Category) {
				t.Errorf("Category %q is not one of %q", a.Category, categories)
			}
			if !a.Enabled {
				t.Error("not enabled")
			}
			checkDatasources(t, a)
			checkThresholds(t, a)
			checkCharts(t, a)
			checkText(t, a)
		})
	}
}

// datasource returns a's datasource named name, or nil.
func datasource(a *Analysis, name string) *Datasource {
	for i := range a.Datasources {
		if a.Datasources[i].Name == name {
			return &a.Datasources[i]
		}
	}
	return nil
}

func checkDatasources(t *testing.T, a *Analysis) {
	t.Helper()
	if datasource(a, a.Primary) == nil {
		t.Errorf("Primary %q names no datasource", a.Primary)
	}
	seen := map[string]bool{}
	for i := range a.Datasources {
		d := &a.Datasources[i]
		if seen[d.Name] {
			t.Errorf("datasource %q twice", d.Name)
		}
		seen[d.Name] = true
		p, err := counterpath.Parse(d.Name)
		if err != nil {
			t.Errorf("datasource %q: %v", d.Name, err)
			continue
		}
		if have, want := d.Path.String(), p.String(); have != want || p.Machine != "" {
			t.Errorf("datasource %q: Path %q, want %q without a machine", d.Name, have, want)
		}
		if d.Round < -1 || d.Round > 6 {
			t.Errorf("datasource %q: Round %d outside −1 … 6", d.Name, d.Round)
		}
		for _, x := range d.Exclude {
			if d.Path.Instance != "*" {
				t.Errorf("datasource %q excludes %q but names one instance", d.Name, x)
			}
		}
		switch d.Kind {
		case CounterLog:
			if d.Formula != nil {
				t.Errorf("CounterLog datasource %q has a formula", d.Name)
			}
		case Generated:
			f := d.Formula
			if f == nil {
				t.Errorf("Generated datasource %q has no formula", d.Name)
				continue
			}
			for _, operand := range []string{f.Left, f.Right} {
				if o := datasource(a, operand); o == nil || o.Kind != CounterLog {
					t.Errorf("Generated %q: operand %q is no CounterLog datasource of the analysis", d.Name, operand)
				} else if !strings.EqualFold(o.Path.Object, d.Path.Object) || o.Path.Instance != d.Path.Instance {
					t.Errorf("Generated %q: operand %q is not of the same object and instances", d.Name, operand)
				}
			}
			if !strings.ContainsRune("+-*/", rune(f.Op)) || f.Scale == 0 || math.IsNaN(f.Scale) {
				t.Errorf("Generated %q: Op %q, Scale %v", d.Name, f.Op, f.Scale)
			}
		default:
			t.Errorf("datasource %q: Kind %d", d.Name, d.Kind)
		}
	}
}

func checkThresholds(t *testing.T, a *Analysis) {
	t.Helper()
	var warn, crit *Threshold
	for i := range a.Thresholds {
		th := &a.Thresholds[i]
		if datasource(a, th.Datasource) == nil {
			t.Errorf("threshold %q: datasource %q does not exist", th.Name, th.Datasource)
		}
		if math.IsNaN(th.Value) || math.IsInf(th.Value, 0) {
			t.Errorf("threshold %q: Value %v", th.Name, th.Value)
		}
		if th.Operator != Greater && th.Operator != Less {
			t.Errorf("threshold %q: operator %d, want Greater or Less", th.Name, th.Operator)
		}
		switch th.Condition {
		case Warning:
			if warn != nil || th.Priority != WarningPriority || !strings.HasPrefix(th.Name, "Warning: ") {
				t.Errorf("threshold %q: a second warning, or priority %d", th.Name, th.Priority)
			}
			warn = th
		case Critical:
			if crit != nil || th.Priority != CriticalPriority || !strings.HasPrefix(th.Name, "Critical: ") {
				t.Errorf("threshold %q: a second critical, or priority %d", th.Name, th.Priority)
			}
			crit = th
		default:
			t.Errorf("threshold %q: condition %d", th.Name, th.Condition)
		}
	}
	if warn == nil || crit == nil {
		t.Fatalf("have %d thresholds, want a Warning and a Critical", len(a.Thresholds))
	}
	if warn.Datasource != a.Primary || crit.Datasource != a.Primary {
		t.Errorf("thresholds on %q and %q, want the primary %q", warn.Datasource, crit.Datasource, a.Primary)
	}
	if warn.Operator != crit.Operator || warn.TrendOnly != crit.TrendOnly {
		t.Errorf("warning and critical compare differently")
	}
	// The critical limit lies beyond the warning's: every value that
	// breaks the critical breaks the warning too.
	if warn.Operator == Greater && !(warn.Value < crit.Value) || warn.Operator == Less && !(warn.Value > crit.Value) {
		t.Errorf("warning %v and critical %v in the wrong order", warn.Value, crit.Value)
	}
	// A trend-only limit of a counter that only grows while something goes
	// wrong (a count since start-up) may be 0; other limits may not.
	if crit.Value == 0 {
		t.Errorf("critical limit 0")
	}
}

func checkCharts(t *testing.T, a *Analysis) {
	t.Helper()
	if len(a.Charts) != 1 {
		t.Fatalf("have %d charts, want 1", len(a.Charts))
	}
	c := &a.Charts[0]
	if c.Datasource != a.Primary || c.Title == "" {
		t.Errorf("chart %q on %q, want a title and the primary %q", c.Title, c.Datasource, a.Primary)
	}
	// Bands show the limits of values: one per threshold that tests them
	// (none for trend-only thresholds), of its condition, from the limit
	// outwards (up to the next limit or the chart's largest value for
	// greater-than, down to the next limit or 0 for less-than).
	var want []Band
	for _, th := range a.Thresholds {
		if th.TrendOnly {
			continue
		}
		b := Band{Condition: th.Condition}
		if th.Operator == Greater {
			b.Min, b.GreaterThan = th.Value, true
			b.Max, b.UseMax = th.Value, true
			for _, o := range a.Thresholds {
				if o.Value > th.Value && (b.UseMax || o.Value < b.Max) {
					b.Max, b.UseMax = o.Value, false
				}
			}
		} else {
			b.Max = th.Value
			for _, o := range a.Thresholds {
				if o.Value < th.Value && o.Value > b.Min {
					b.Min = o.Value
				}
			}
		}
		want = append(want, b)
	}
	if len(c.Bands) != len(want) {
		t.Fatalf("have %d bands %+v, want %d %+v", len(c.Bands), c.Bands, len(want), want)
	}
	for i := range want {
		if c.Bands[i] != want[i] {
			t.Errorf("band %d: have %+v, want %+v", i, c.Bands[i], want[i])
		}
		if c.MaxLimit > 0 && c.Bands[i].Min >= c.MaxLimit {
			t.Errorf("band %d starts at %v, above the chart's top %v", i, c.Bands[i].Min, c.MaxLimit)
		}
	}
}

func checkText(t *testing.T, a *Analysis) {
	t.Helper()
	why, err := rationale(a.Description)
	if err != nil {
		t.Error(err)
	}
	if len(why) < 40 || strings.ContainsAny(why, "<>|") {
		t.Errorf("rationale %q: too short, or HTML or | in it", why)
	}
	if !strings.HasPrefix(a.Description, "<p>") || !strings.Contains(a.Description, "<p><b>What to do:</b> ") {
		t.Errorf("description %q: want paragraphs: what, why, what to do", a.Description)
	}
	// Reports embed descriptions as HTML: only paragraphs, bold and code,
	// balanced, and no character that HTML would read as markup.
	text := a.Description
	for _, tag := range []string{"p", "b", "code"} {
		open, end := "<"+tag+">", "</"+tag+">"
		if strings.Count(text, open) != strings.Count(text, end) {
			t.Errorf("description %q: unbalanced <%s>", a.Description, tag)
		}
		text = strings.ReplaceAll(strings.ReplaceAll(text, open, ""), end, "")
	}
	if strings.ContainsAny(text, "<>&") {
		t.Errorf("description %q: markup other than <p>, <b> and <code>, or a bare &", a.Description)
	}
	refs := references(a.Reference)
	if len(refs) == 0 {
		t.Error("no reference")
	}
	for _, r := range refs {
		if r[0] == "" || r[1] != "" && !strings.HasPrefix(r[1], "https://") && !strings.HasPrefix(r[1], "http://") {
			t.Errorf("reference %q: want a title and an http(s) address", r)
		}
	}
	// A threshold's name says its limit in the unit people read.
	for _, th := range a.Thresholds {
		if !strings.ContainsAny(th.Name, "0123456789") {
			t.Errorf("threshold name %q has no number", th.Name)
		}
		if th.TrendOnly != strings.Contains(th.Name, "growing") {
			t.Errorf("threshold name %q: trend-only %v", th.Name, th.TrendOnly)
		}
	}
}

// rationale returns the plain text of a description's "Why these limits"
// paragraph.
func rationale(description string) (string, error) {
	_, after, ok := strings.Cut(description, "<p>"+rationaleMark)
	if !ok || strings.Count(description, rationaleMark) != 1 {
		return "", fmt.Errorf("description %q: want one paragraph starting %q", description, rationaleMark)
	}
	why, _, ok := strings.Cut(after, "</p>")
	if !ok {
		return "", fmt.Errorf("description %q: rationale paragraph not closed", description)
	}
	return why, nil
}

// references splits an analysis' Reference, "Title <URL>; Title", into
// titles and addresses ("" where none).
func references(s string) [][2]string {
	var refs [][2]string
	for _, part := range strings.Split(s, "; ") {
		title, url := part, ""
		if i := strings.LastIndex(part, " <"); i >= 0 && strings.HasSuffix(part, ">") {
			title, url = part[:i], part[i+2:len(part)-1]
		}
		refs = append(refs, [2]string{title, url})
	}
	return refs
}

// TestDefaultsFresh: each call of Defaults returns a set of its own, so
// that a caller may change it (Join, --set) without changing the next.
func TestDefaultsFresh(t *testing.T) {
	a := Defaults()
	for i := range a.Analyses {
		an := &a.Analyses[i]
		an.Name += " changed"
		an.Thresholds[0].Value = -1
		an.Charts[0].Bands = nil
		for j := range an.Datasources {
			d := &an.Datasources[j]
			for k := range d.Exclude {
				d.Exclude[k] = "changed"
			}
			if d.Formula != nil {
				d.Formula.Scale = -1
			}
		}
	}
	b := Defaults()
	for i := range b.Analyses {
		an := &b.Analyses[i]
		if strings.HasSuffix(an.Name, " changed") || an.Thresholds[0].Value == -1 {
			t.Fatalf("%s: a change to an earlier set shows", an.ID)
		}
		for _, d := range an.Datasources {
			if slices.Contains(d.Exclude, "changed") || d.Formula != nil && d.Formula.Scale == -1 {
				t.Fatalf("%s: %s: a change to an earlier set shows", an.ID, d.Name)
			}
		}
	}
}

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {2, "2"}, {0.5, "0.5"}, {20, "20"}, {999, "999"}, {1000, "1,000"},
		{60000, "60,000"}, {1234567.25, "1,234,567.25"}, {-12345, "-12,345"},
	} {
		if have := number(tc.v); have != tc.want {
			t.Errorf("number(%v): have %q, want %q", tc.v, have, tc.want)
		}
	}
}

// The generated table of doc/DEFAULT-ANALYSES.md lies between these lines.
const (
	docFile  = "doc/DEFAULT-ANALYSES.md"
	docBegin = "<!-- defaults:begin (generated from analysis.Defaults by go generate ./analysis; do not edit) -->\n"
	docEnd   = "<!-- defaults:end -->\n"
)

// defaultsTable renders the default analyses as doc/DEFAULT-ANALYSES.md
// tables them, one row per analysis in Defaults' order.
func defaultsTable(set *Set) []byte {
	var b bytes.Buffer
	b.WriteString("| Analysis | Counter | Warning | Critical | Rationale | Reference |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for i := range set.Analyses {
		a := &set.Analyses[i]
		why, _ := rationale(a.Description)
		var warn, crit string
		for _, th := range a.Thresholds {
			_, text, _ := strings.Cut(th.Name, ": ")
			if th.TrendOnly {
				text += " (hourly trend)"
			}
			if th.Condition == Critical {
				crit = text
			} else {
				warn = text
			}
		}
		var refs []string
		for _, r := range references(a.Reference) {
			if r[1] == "" {
				refs = append(refs, r[0])
			} else {
				refs = append(refs, "["+r[0]+"]("+r[1]+")")
			}
		}
		fmt.Fprintf(&b, "| %s (`%s`, %s) | %s | %s | %s | %s | %s |\n",
			a.Name, a.ID, a.Category, counterCell(a), warn, crit, why, strings.Join(refs, "; "))
	}
	return b.Bytes()
}

// counterCell is the table's counter column: the primary counter, how a
// generated one is computed, and the instances left out.
func counterCell(a *Analysis) string {
	d := datasource(a, a.Primary)
	cell := "`" + d.Name + "`"
	if f := d.Formula; f != nil {
		op := map[byte]string{'+': "+", '-': "−", '*': "×", '/': "÷"}[f.Op]
		cell += " = `" + f.Left + "` " + op + " `" + f.Right + "` × " + number(f.Scale)
	}
	if len(d.Exclude) > 0 {
		cell += " without " + strings.Join(d.Exclude, ", ")
	}
	return cell
}

// TestDefaultsDoc: doc/DEFAULT-ANALYSES.md's table is Defaults, row for
// row (go generate ./analysis rewrites it: the test with -update).
func TestDefaultsDoc(t *testing.T) {
	root := corpus.Root()
	if root == "" {
		t.Fatal("cannot find the project's root (go.mod)")
	}
	name := filepath.Join(root, docFile)
	doc, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := bytes.Cut(doc, []byte(docBegin))
	have, after, ok2 := bytes.Cut(rest, []byte(docEnd))
	if !ok1 || !ok2 {
		t.Fatalf("%s: no %q … %q lines", docFile, docBegin, docEnd)
	}
	want := defaultsTable(Defaults())
	if bytes.Equal(have, want) {
		return
	}
	if *update {
		out := slices.Concat(before, []byte(docBegin), want, []byte(docEnd), after)
		if err := os.WriteFile(name, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	haveRows, wantRows := strings.Split(string(have), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(haveRows), len(wantRows)); i++ {
		var h, w string
		if i < len(haveRows) {
			h = haveRows[i]
		}
		if i < len(wantRows) {
			w = wantRows[i]
		}
		if h != w {
			t.Errorf("%s: row %d is stale (go generate ./analysis):\nhave %s\nwant %s", docFile, i+1, h, w)
		}
	}
}

// alertLine is an alert as TestDefaultsOnCorpus states it: the slice, the
// condition, the analysis' ID, the instance's path without the machine,
// and the figure that broke the limit (the slice's maximum for a
// greater-than limit, its minimum for a less-than one, its hourly trend,
// rounded to an integer, for a trend limit).
func alertLine(a *Alert, set *Set) string {
	var an *Analysis
	for i := range set.Analyses {
		if set.Analyses[i].Name == a.Analysis {
			an = &set.Analyses[i]
		}
	}
	if an == nil {
		return "no analysis named " + a.Analysis
	}
	th := an.Thresholds[0]
	v := strconv.FormatFloat(a.Max, 'f', -1, 64)
	switch {
	case th.TrendOnly:
		v = "trend " + strconv.FormatFloat(math.Round(a.Trend), 'f', -1, 64)
	case th.Operator == Less:
		v = strconv.FormatFloat(a.Min, 'f', -1, 64)
	}
	path := a.Path
	if strings.HasPrefix(path, `\\`) {
		if i := strings.IndexByte(path[2:], '\\'); i >= 0 {
			path = path[2+i:]
		}
	}
	return strconv.Itoa(a.Slice) + " " + [...]string{"OK", "Warning", "Critical"}[a.Condition] + " " + an.ID + " " + path + " " + v
}

// TestDefaultsOnCorpus runs the default analyses on each real log of the
// corpus with no options and checks which analyses find their counters and
// every alert, each verified by hand from the log's values (perfcalc relog
// LOG -f csv -c PATH) as the reasons below say.
func TestDefaultsOnCorpus(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	for _, tc := range []struct {
		log    string
		ran    []string // the analyses that found their counters
		alerts []string // alertLine of each alert, in the report's order
		// generated: per analysis, its generated series: path, number of
		// values, largest value.
		generated map[string][]string
	}{
		{
			// 11 samples a minute apart (08/14/2007 15:40:38 to 15:50:38,
			// 599.94 s): the automatic interval is round(599.94 ÷ 30) = 20 s,
			// 30 slices; sample k (k ≥ 1) lies at 60·k s, in slice 3k − 1
			// (slices hold (begin + k·20 s, begin + (k+1)·20 s]), sample 0
			// in slice 0; one value per slice, so min = mean = max. Rate
			// counters have no value at sample 0.
			log: "PAL_SamplePerfmonLog.blg",
			// Every analysis but TCPv6's (the log has TCPv4 only) and
			// Available Bytes' (the log has Available MBytes too:
			// CoveredBy; until issue 24's item on the 11 duplicate alerts,
			// it ran and repeated each Available MBytes alert).
			ran: []string{
				"processor-total", "processor-each", "processor-privileged", "processor-interrupt", "processor-dpc", "processor-queue",
				"memory-available-mbytes", "memory-pages", "memory-pages-input", "memory-committed",
				"memory-pool-nonpaged", "memory-pool-paged", "memory-free-ptes",
				"logicaldisk-read-latency", "logicaldisk-write-latency", "physicaldisk-read-latency", "physicaldisk-write-latency",
				"logicaldisk-current-queue", "logicaldisk-avg-queue", "physicaldisk-current-queue", "physicaldisk-avg-queue",
				"logicaldisk-free-space", "logicaldisk-free-megabytes", "logicaldisk-idle", "physicaldisk-idle",
				"network-utilization", "network-output-queue", "network-received-errors", "network-outbound-discarded",
				"tcpv4-retransmitted", "tcpv4-connection-failures",
				"process-handles", "process-threads", "process-private-bytes", "process-working-set",
				"system-context-switches",
			},
			// The machine (one processor) is short of memory:
			// Available MBytes 79 … 212 (all below 500, sample 0 below
			// 100), Pages Input/sec above 100 at samples 1 … 7 (128.1,
			// 104.1, 377.5, 207.1, 107.5, 340.7, 125.6); % Processor Time
			// 82.15 and 86.9 at samples 1 and 2 (above 80), % Privileged
			// Time 44.41, 46.37, 30.05, 34.45 and 53.39 (above 30; above
			// 50 at sample 5) on Processor(0) and _Total alike; the
			// processor queue 10 at sample 1 (above 8); reads of C: took
			// 38.7, 25.8 and 47.6 ms at samples 4, 5 and 9 (above 20 ms;
			// writes at most 16.9 ms). Nothing else crosses a static
			// limit: Pages/sec at most 571, committed 46.8 %, C: 75 %
			// free, the 767 MB recovery volume 19.9 % free, idle time at
			// least 52.9 %, no network traffic (so no utilisation, and no
			// retransmission share: 0 ÷ 0 has no value), context switches
			// at most 2,075/s, 355,608 free PTEs, queues at most 2.6.
			//
			// Trend limits, per hour: trend = (mean − first mean) ÷ slices
			// between × 3600 ÷ 20. On a 10-minute log that extrapolates
			// small changes, as the analyses' descriptions warn: lsass'
			// handles 592 → 599 in 2 slices make 630/hour; mmc's handles
			// 345 → 362 (1,530/hour) and → 360 at slice 5 (540); svchost#7
			// 386 → 396 (900); mmc's threads 13 → 15 (180 > 100);
			// explorer's handles 686 → 748 at slice 17 (656) and its
			// private bytes 36,818,944 → 57,470,976 (218,668,574 B, 208.5
			// MB/hour > 100 MB). AppSvc32's private bytes jump from
			// 9,375,744 to 34,701,312 at slice 8 (569,825,280 B/hour >
			// 500 MB: critical) and its working set from 2,138,112 to
			// 34,508,800 (728,340,480: critical), then fall back.
			// rundll32#1 starts at sample 6 (slice 17) with 175 handles,
			// 3 threads, 5,115,904 private and 9,990,144 working-set
			// bytes: handles 307, 329, 340 at slices 20, 23, 26 (7,920,
			// 4,620, 3,300 per hour: critical); threads 6 and 8 (180, 150
			// per hour; 7 at slice 26 is 80); private bytes 8,269,824 at
			// slice 20 (180.5 MB/hour; 94.8 and 99.4 MB/hour after, under
			// the limit); working set 13,156,352 and, at slice 26,
			// 15,470,592 (181.2 and 104.5 MB/hour; 99.1 at slice 23).
			// The kernel pools grow less than 10 MB/hour (nonpaged at most
			// 8.2 MB/hour, at slice 11), and no adapter error or TCP
			// failure count moves.
			// No traffic: both adapters' utilisation is 0 at the 10 samples
			// after the first (the wireless adapter's Current Bandwidth is
			// 2^63 − 1, disconnected; the wired one's 10,000,000); no TCP
			// segment sent, so the retransmitted share has no value (0 ÷ 0).
			generated: map[string][]string{
				"network-utilization": {
					`\\ZACH-PC\Network Interface(VIA Rhine II Fast Ethernet Adapter)\% Network Utilization 10 0`,
					`\\ZACH-PC\Network Interface(Atheros AR5005G Wireless Network Adapter)\% Network Utilization 10 0`,
				},
				"tcpv4-retransmitted": {`\\ZACH-PC\TCPv4\% Segments Retransmitted 0 0`},
			},
			alerts: []string{
				`0 Critical memory-available-mbytes \Memory\Available MBytes 79`,
				`2 Warning processor-total \Processor(_Total)\% Processor Time 82.15`,
				`2 Warning processor-privileged \Processor(0)\% Privileged Time 44.41`,
				`2 Warning processor-privileged \Processor(_Total)\% Privileged Time 44.41`,
				`2 Warning processor-queue \System\Processor Queue Length 10`,
				`2 Warning memory-available-mbytes \Memory\Available MBytes 107`,
				`2 Warning memory-pages-input \Memory\Pages Input/sec 128.1`,
				`2 Warning process-handles \Process(lsass)\Handle Count trend 630`,
				`2 Warning process-handles \Process(mmc)\Handle Count trend 1530`,
				`2 Warning process-handles \Process(svchost#7)\Handle Count trend 900`,
				`2 Warning process-threads \Process(mmc)\Thread Count trend 180`,
				`5 Warning processor-total \Processor(_Total)\% Processor Time 86.9`,
				`5 Warning processor-privileged \Processor(0)\% Privileged Time 46.37`,
				`5 Warning processor-privileged \Processor(_Total)\% Privileged Time 46.37`,
				`5 Warning memory-available-mbytes \Memory\Available MBytes 172`,
				`5 Warning memory-pages-input \Memory\Pages Input/sec 104.1`,
				`5 Warning process-handles \Process(mmc)\Handle Count trend 540`,
				`8 Warning processor-privileged \Processor(0)\% Privileged Time 30.05`,
				`8 Warning processor-privileged \Processor(_Total)\% Privileged Time 30.05`,
				`8 Warning memory-available-mbytes \Memory\Available MBytes 150`,
				`8 Warning memory-pages-input \Memory\Pages Input/sec 377.5`,
				`8 Critical process-private-bytes \Process(AppSvc32)\Private Bytes trend 569825280`,
				`8 Critical process-working-set \Process(AppSvc32)\Working Set trend 728340480`,
				`11 Warning processor-privileged \Processor(0)\% Privileged Time 34.45`,
				`11 Warning processor-privileged \Processor(_Total)\% Privileged Time 34.45`,
				`11 Warning memory-available-mbytes \Memory\Available MBytes 127`,
				`11 Warning memory-pages-input \Memory\Pages Input/sec 207.1`,
				`11 Warning logicaldisk-read-latency \LogicalDisk(C:)\Avg. Disk sec/Read 0.0387`,
				`11 Warning physicaldisk-read-latency \PhysicalDisk(0 C:)\Avg. Disk sec/Read 0.0387`,
				`14 Critical processor-privileged \Processor(0)\% Privileged Time 53.39`,
				`14 Critical processor-privileged \Processor(_Total)\% Privileged Time 53.39`,
				`14 Warning memory-available-mbytes \Memory\Available MBytes 212`,
				`14 Warning memory-pages-input \Memory\Pages Input/sec 107.5`,
				`14 Warning logicaldisk-read-latency \LogicalDisk(C:)\Avg. Disk sec/Read 0.0258`,
				`14 Warning physicaldisk-read-latency \PhysicalDisk(0 C:)\Avg. Disk sec/Read 0.0258`,
				`17 Warning memory-available-mbytes \Memory\Available MBytes 191`,
				`17 Warning memory-pages-input \Memory\Pages Input/sec 340.7`,
				`17 Warning process-handles \Process(explorer)\Handle Count trend 656`,
				`17 Warning process-private-bytes \Process(explorer)\Private Bytes trend 218668574`,
				`20 Warning memory-available-mbytes \Memory\Available MBytes 191`,
				`20 Warning memory-pages-input \Memory\Pages Input/sec 125.6`,
				`20 Critical process-handles \Process(rundll32#1)\Handle Count trend 7920`,
				`20 Warning process-threads \Process(rundll32#1)\Thread Count trend 180`,
				`20 Warning process-private-bytes \Process(rundll32#1)\Private Bytes trend 189235200`,
				`20 Warning process-working-set \Process(rundll32#1)\Working Set trend 189972480`,
				`23 Warning memory-available-mbytes \Memory\Available MBytes 195`,
				`23 Critical process-handles \Process(rundll32#1)\Handle Count trend 4620`,
				`23 Warning process-threads \Process(rundll32#1)\Thread Count trend 150`,
				`26 Warning memory-available-mbytes \Memory\Available MBytes 192`,
				`26 Warning logicaldisk-read-latency \LogicalDisk(C:)\Avg. Disk sec/Read 0.0476`,
				`26 Warning physicaldisk-read-latency \PhysicalDisk(0 C:)\Avg. Disk sec/Read 0.0476`,
				`26 Critical process-handles \Process(rundll32#1)\Handle Count trend 3300`,
				`26 Warning process-working-set \Process(rundll32#1)\Working Set trend 109608960`,
				`29 Warning memory-available-mbytes \Memory\Available MBytes 194`,
			},
		},
		{
			// % Processor Time of 4 processors and _Total, and PhysicalDisk(0
			// C:)'s queue lengths (no latency, no current queue, no idle
			// time). No alert: the busiest processor peaks at 81.25 %
			// (under 90), _Total at 53.91 % (under 80), the average disk
			// queue at 4.0 (under 10).
			log: "Tx_BasicPerfCounters.blg",
			ran: []string{"processor-total", "processor-each", "physicaldisk-avg-queue"},
		},
		{
			// % Processor Time of _Total only, of 26 machines: no processor
			// instance for processor-each. No alert: the busiest machine
			// peaks at 77.03 % (under 80).
			log: "PowerShell_BadCounterSamples.blg",
			ran: []string{"processor-total"},
		},
	} {
		t.Run(tc.log, func(t *testing.T) {
			f, err := os.Open(filepath.Join(dir, tc.log))
			if err != nil {
				t.Skip(err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			c, err := relog.New(f, st.Size(), relog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			set := Defaults()
			r, err := Run(c, set, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Unsupported) > 0 {
				t.Errorf("unsupported: %+v", r.Unsupported)
			}
			var ran []string
			for _, res := range r.Results {
				if res.Skipped == "" {
					ran = append(ran, res.Analysis.ID)
				}
			}
			if !slices.Equal(ran, tc.ran) {
				t.Errorf("analyses that found their counters:\nhave %q\nwant %q", ran, tc.ran)
			}
			var alerts []string
			for i := range r.Alerts {
				alerts = append(alerts, alertLine(&r.Alerts[i], set))
			}
			if !slices.Equal(alerts, tc.alerts) {
				t.Errorf("alerts:\nhave %s\nwant %s", strings.Join(alerts, "\n     "), strings.Join(tc.alerts, "\n     "))
			}
			for _, res := range r.Results {
				if want, ok := tc.generated[res.Analysis.ID]; ok {
					var have []string
					for _, se := range res.Series {
						if se.Datasource == res.Analysis.Primary {
							have = append(have, se.Path+" "+strconv.Itoa(se.Overall.N)+" "+strconv.FormatFloat(se.Overall.Max, 'g', -1, 64))
						}
					}
					if !slices.Equal(have, want) {
						t.Errorf("%s: generated series (path, values, max):\nhave %q\nwant %q", res.Analysis.ID, have, want)
					}
				}
			}
			if j := r.AppendJSON(nil); !json.Valid(j) {
				t.Errorf("the report's JSON does not parse: %.200s", j)
			}
			// PAL's numbers (--pal-compat) come from the same analyses: the
			// same ones run, nothing unsupported.
			c, err = relog.New(f, st.Size(), relog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rc, err := Run(c, Defaults(), Options{PALCompat: true})
			if err != nil {
				t.Fatal(err)
			}
			var ranCompat []string
			for _, res := range rc.Results {
				if res.Skipped == "" {
					ranCompat = append(ranCompat, res.Analysis.ID)
				}
			}
			if !slices.Equal(ranCompat, tc.ran) || len(rc.Unsupported) > 0 {
				t.Errorf("PAL-compat: ran %q, unsupported %+v", ranCompat, rc.Unsupported)
			}
		})
	}
}

// ExampleDefaults prints the thresholds of one default analysis.
func ExampleDefaults() {
	set := Defaults()
	for _, a := range set.Analyses {
		if a.ID != "logicaldisk-read-latency" {
			continue
		}
		fmt.Println(a.Name, "on", a.Primary, "without", a.Datasources[0].Exclude)
		for _, th := range a.Thresholds {
			fmt.Println(th.Name, "=", th.Value, "s, priority", th.Priority)
		}
	}
	// Output:
	// LogicalDisk Avg. Disk sec/Read on \LogicalDisk(*)\Avg. Disk sec/Read without [_Total]
	// Warning: more than 20 ms = 0.02 s, priority 50
	// Critical: more than 50 ms = 0.05 s, priority 100
}

// BenchmarkDefaults runs the default analyses on each real log of the
// corpus (the PAL sample log matches 37 of them over 57 processes; the Tx
// log, 601 samples of 6 counters, 3 of them).
func BenchmarkDefaults(b *testing.B) {
	for _, name := range []string{"PAL_SamplePerfmonLog.blg", "Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg"} {
		b.Run(strings.TrimSuffix(name, ".blg"), func(b *testing.B) {
			log := corpusLog(b, name)
			b.ReportAllocs()
			b.SetBytes(int64(len(log)))
			for b.Loop() {
				if _, err := Run(open(b, log), Defaults(), Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAvailableBytesCovered: the default Available Bytes analysis leaves
// out the machines whose log has Available MBytes (which the Available
// MBytes analysis reads: the same limits, so the same alerts twice), per
// machine: of a log of machine A with both counters and machine B with
// Available Bytes only, 50 MB free on each, the alerts are A's Available
// MBytes and B's Available Bytes; a log of A alone skips the analysis
// and says why.
func TestAvailableBytesCovered(t *testing.T) {
	const mb = 1 << 20
	build := func(cs []blgbuild.Counter, vals ...uint64) []byte {
		l := blgbuild.New(64<<10, t0+8*3600*sec)
		l.Record(blgbuild.EventCounterList, t0, blgbuild.AppendCounterList(nil, cs...), blgbuild.MaxEventData)
		for i := range int64(11) {
			ts := t0 + i*60*sec
			l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, vals...), blgbuild.MaxEventData)
		}
		return l.Bytes()
	}
	c := func(machine, counter string) blgbuild.Counter {
		return blgbuild.Counter{Type: rawCount, Machine: machine, Object: "Memory", Counter: counter}
	}
	both := []blgbuild.Counter{c(`\\A`, "Available Bytes"), c(`\\A`, "Available MBytes"), c(`\\B`, "Available Bytes")}
	r, err := Run(open(t, build(both, 50*mb, 50, 50*mb)), Defaults(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]int{}
	for _, a := range r.Alerts {
		paths[a.Path]++
	}
	if len(paths) != 2 || paths[`\\A\Memory\Available MBytes`] == 0 || paths[`\\B\Memory\Available Bytes`] == 0 {
		t.Errorf("alerts of %v, want \\\\A's Available MBytes and \\\\B's Available Bytes only", paths)
	}
	for _, res := range r.Results {
		if res.Analysis.ID == "memory-available-bytes" && (res.Skipped != "" || len(res.Series) != 1 || res.Series[0].Path != `\\B\Memory\Available Bytes`) {
			t.Errorf("Available Bytes: skipped %q, series %v; want \\\\B's alone", res.Skipped, res.Series)
		}
	}
	r, err = Run(open(t, build(both[:2], 50*mb, 50)), Defaults(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range r.Results {
		if res.Analysis.ID == "memory-available-bytes" && res.Skipped != `the log has \Memory\Available MBytes, which another analysis reads` {
			t.Errorf("Available Bytes on A alone: skipped %q", res.Skipped)
		}
	}
}
