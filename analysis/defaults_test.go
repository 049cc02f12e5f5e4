package analysis

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
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

// matched returns the IDs of the analyses of set whose every CounterLog
// datasource matches one of cols (as Datasource.Path says: object and
// counter equal, the instance "*" matching all but the excluded).
func matched(set *Set, cols []relog.Column) []string {
	var ids []string
	for i := range set.Analyses {
		a := &set.Analyses[i]
		all := true
		for _, d := range a.Datasources {
			if d.Kind != CounterLog {
				continue
			}
			found := false
			for j := range cols {
				c := &cols[j].Parts
				if !d.Path.Matches(*c) {
					continue
				}
				if slices.ContainsFunc(d.Exclude, func(x string) bool { return strings.EqualFold(x, c.Instance) }) {
					continue
				}
				found = true
				break
			}
			all = all && found
		}
		if all {
			ids = append(ids, a.ID)
		}
	}
	return ids
}

// TestDefaultsFindCounters: on each real log of the corpus, the default
// analyses that find their counters are the ones its counters call for
// (perfcalc relog -q LOG lists them).
func TestDefaultsFindCounters(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	for _, tc := range []struct {
		log  string
		want []string
		why  string
	}{
		{
			log: "PAL_SamplePerfmonLog.blg",
			// Every analysis but those of counters the log lacks: TCPv6
			// (the log has TCPv4 only); the rest of issue 24's list is
			// there (Processor 0 and _Total, System, Memory, both disk
			// objects, two adapters, TCPv4, 57 processes).
			want: []string{
				"processor-total", "processor-each", "processor-privileged", "processor-interrupt", "processor-dpc", "processor-queue",
				"memory-available-mbytes", "memory-available-bytes", "memory-pages", "memory-pages-input", "memory-committed",
				"memory-pool-nonpaged", "memory-pool-paged", "memory-free-ptes",
				"logicaldisk-read-latency", "logicaldisk-write-latency", "physicaldisk-read-latency", "physicaldisk-write-latency",
				"logicaldisk-current-queue", "logicaldisk-avg-queue", "physicaldisk-current-queue", "physicaldisk-avg-queue",
				"logicaldisk-free-space", "logicaldisk-free-megabytes", "logicaldisk-idle", "physicaldisk-idle",
				"network-utilization", "network-output-queue", "network-received-errors", "network-outbound-discarded",
				"tcpv4-retransmitted", "tcpv4-connection-failures",
				"process-handles", "process-threads", "process-private-bytes", "process-working-set",
				"system-context-switches",
			},
		},
		{
			log: "Tx_BasicPerfCounters.blg",
			// % Processor Time of 4 processors and _Total, and
			// PhysicalDisk(0 C:)'s queue lengths (no latency, no Current
			// Disk Queue Length, no idle time).
			want: []string{"processor-total", "processor-each", "physicaldisk-avg-queue"},
		},
		{
			log: "PowerShell_BadCounterSamples.blg",
			// % Processor Time of _Total only, of 26 machines: no per
			// processor instance for processor-each to read.
			want: []string{"processor-total"},
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
			if have := matched(Defaults(), c.Columns()); !slices.Equal(have, tc.want) {
				t.Errorf("analyses that find their counters:\nhave %q\nwant %q", have, tc.want)
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
