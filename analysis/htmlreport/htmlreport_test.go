package htmlreport

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// begin is the first sample of the hand-made reports: 2013-02-19 18:50:00
// local time.
const begin = 130_057_734_000_000_000

const second = 10_000_000

// handReport builds a report of one analysis over a 1-hour log of the
// machine: 30 slices, two series (one named "<script>"), a chart with a
// warning and a critical band, 400 chart points per series (an envelope),
// and an alert in slices 3 and 7.
func handReport(machine string) *analysis.Report {
	set := &analysis.Set{
		Name:   "test",
		Values: map[string]string{"PhysicalMemory": "32", "OS": `<b>"Windows"</b>`},
		Analyses: []analysis.Analysis{{
			ID: "1", Name: "Processor Utilization", Category: "Processor", Enabled: true,
			Primary:     `\Processor(*)\% Processor Time`,
			Description: `<B>% Processor Time</B> is busy time.<BR>See <a href="https://example.com/x" onclick="evil()">docs</a> and <a href="javascript:alert(1)">this</a>.<script>alert(1)</script><img src="http://evil/x.png"><o:p></o:p><p>unclosed <i>italic`,
			Datasources: []analysis.Datasource{{Name: `\Processor(*)\% Processor Time`, Round: -1}},
			Thresholds: []analysis.Threshold{
				{Name: "warn", Condition: analysis.Warning, Priority: 50, Datasource: `\Processor(*)\% Processor Time`, Operator: analysis.Greater, Value: 75},
				{Name: "crit", Condition: analysis.Critical, Priority: 100, Datasource: `\Processor(*)\% Processor Time`, Operator: analysis.Greater, Value: 90},
			},
			Charts: []analysis.Chart{{Title: "Processor time", Datasource: `\Processor(*)\% Processor Time`, MaxLimit: 100, Bands: []analysis.Band{
				{Condition: analysis.Warning, Min: 75, Max: 90},
				{Condition: analysis.Critical, Min: 90, Max: 100, UseMax: true, GreaterThan: true},
			}}},
		}, {
			ID: "2", Name: "Disk <Latency>", Category: "Disk", Enabled: true,
			Datasources: []analysis.Datasource{{Name: `\PhysicalDisk(*)\Avg. Disk sec/Read`}},
		}},
		Unsupported: []analysis.Unsupported{{Analysis: "Handles", What: "loop", Reason: "a hand-written alert loop <foreach>", Element: "THRESHOLD"}},
	}
	r := &analysis.Report{
		Machine: machine, Begin: begin, End: begin + 3600*second, Bias: 480, Samples: 361, Interval: 120,
		Set: set, ChartPoints: 400, Unsupported: set.Unsupported,
	}
	for i := range 30 {
		s := begin + int64(i)*120*second
		r.Slices = append(r.Slices, analysis.Slice{Start: s, End: s + 120*second, Samples: 12})
	}
	res := analysis.Result{Analysis: &set.Analyses[0]}
	for k, inst := range []string{"_Total", "<script>alert(1)</script>", "1"} {
		p := `\\` + machine + `\Processor(` + inst + `)\% Processor Time`
		sr := analysis.Series{Datasource: `\Processor(*)\% Processor Time`, Path: p,
			Parts: counterpath.Path{Machine: machine, Object: "Processor", HasInstance: true, Instance: inst, Counter: "% Processor Time"}}
		for j := range 400 {
			st := begin + int64(j)*9*second
			base := 40 + 30*math.Sin(float64(j)/40+float64(k))
			sr.Chart = append(sr.Chart, analysis.Point{Start: st, End: st + 9*second, Min: base - 5, Max: base + 5 + float64(k)*10})
		}
		sr.Overall = analysis.Overall{Stats: analysis.Stats{N: 361, Min: 1.5, Avg: 45.25, Max: 98.125, Trend: -3}, StdDev: 12.5,
			Trimmed: [3]float64{40, 35, 30}, Percentiles: [3]float64{90, 95, 98}, Condition: analysis.Critical}
		sr.Slices = make([]analysis.Stats, 30)
		res.Series = append(res.Series, sr)
	}
	r.Results = append(r.Results, res, analysis.Result{Analysis: &set.Analyses[1], Skipped: `no counter matches \PhysicalDisk(*)\Avg. Disk sec/Read`})
	for _, sl := range []int{3, 7} {
		r.Alerts = append(r.Alerts, analysis.Alert{
			Analysis: "Processor Utilization", ID: "1", Category: "Processor", Condition: analysis.Critical, Priority: 100, Threshold: "crit",
			Path: res.Series[1].Path, Slice: sl, Start: r.Slices[sl].Start, End: r.Slices[sl].End, Min: 80, Avg: 91.5, Max: 99.75, Trend: 1234567.5,
		}, analysis.Alert{
			Analysis: "Processor Utilization", ID: "1", Category: "Processor", Condition: analysis.Warning, Priority: 50, Threshold: "warn",
			Path: res.Series[0].Path, Slice: sl, Start: r.Slices[sl].Start, End: r.Slices[sl].End, Min: 70, Avg: 76, Max: 80, Trend: 0,
		})
	}
	return r
}

func write(t *testing.T, reports []*analysis.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, reports, Params{Logs: []string{"a <b>.blg"}, Interval: "auto", Set: []string{"PhysicalMemory=32"}, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// wellFormed parses doc as HTML read as XML (void tags closed, HTML's
// entities known) and checks that every element is closed in order.
func wellFormed(t *testing.T, doc string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	var stack []string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, _ := d.InputPos()
			t.Fatalf("line %d: %v", line, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			stack = append(stack, tok.Name.Local)
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1] != tok.Name.Local {
				line, _ := d.InputPos()
				t.Fatalf("line %d: </%s> closes %v", line, tok.Name.Local, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		t.Fatalf("elements left open: %v", stack)
	}
}

func TestWriteWellFormed(t *testing.T) {
	for _, n := range []int{0, 1, 2} {
		var reports []*analysis.Report
		for i := range n {
			reports = append(reports, handReport([]string{"SERVER1", "SERVER<2>"}[i]))
		}
		doc := write(t, reports)
		wellFormed(t, doc)
		if !strings.HasPrefix(doc, "<!DOCTYPE html>") || !strings.HasSuffix(doc, "</html>\n") {
			t.Errorf("%d reports: have %.40q … %q, want a whole HTML document", n, doc, doc[len(doc)-20:])
		}
	}
}

var (
	urlAttr   = regexp.MustCompile(`(?i)\b(src|href|xlink:href)\s*=\s*"([^"]*)"`)
	cssURL    = regexp.MustCompile(`(?i)url\(([^)]*)\)`)
	descBlock = regexp.MustCompile(`(?s)<div class="desc">.*?</div>|<p class="ref">.*?</p>`)
)

// TestSelfContained: no script, no src, and no link or CSS url that
// leaves the file, but in a description's links and a reference's.
func TestSelfContained(t *testing.T) {
	doc := write(t, []*analysis.Report{handReport("SERVER1"), handReport("SERVER2")})
	if strings.Contains(strings.ToLower(doc), "<script") {
		t.Error("the report holds a <script> tag")
	}
	outside := descBlock.ReplaceAllString(doc, "")
	for _, m := range urlAttr.FindAllStringSubmatch(outside, -1) {
		if m[1] != "href" || !strings.HasPrefix(m[2], "#") {
			t.Errorf("%s=%q outside a description: the report must hold everything", m[1], m[2])
		}
	}
	for _, m := range cssURL.FindAllStringSubmatch(doc, -1) {
		if !strings.HasPrefix(m[1], "#") {
			t.Errorf("url(%s): the report must hold everything", m[1])
		}
	}
	// the description's link is kept, the javascript one and the image are not
	if !strings.Contains(doc, `<a href="https://example.com/x" rel="noreferrer">docs</a>`) {
		t.Error("the description's https link is missing")
	}
	for _, bad := range []string{"javascript:", "onclick", `src="http`} {
		if strings.Contains(doc, bad) {
			t.Errorf("the report holds %q", bad)
		}
	}
}

// TestEscapes: names from the log and the threshold file show as written.
func TestEscapes(t *testing.T) {
	doc := write(t, []*analysis.Report{handReport("SERVER<2>")})
	for _, want := range []string{
		`Processor(&lt;script&gt;alert(1)&lt;/script&gt;)`, // an instance
		`Disk &lt;Latency&gt;`,                             // an analysis
		`a hand-written alert loop &lt;foreach&gt;`,        // a reason
		`&lt;b&gt;&#34;Windows&#34;&lt;/b&gt;`,             // a question's value
		`SERVER&lt;2&gt;`,                                  // the machine
		`<code>a &lt;b&gt;.blg</code>`,                     // a log's name
		`&lt;script&gt;alert(1)&lt;/script&gt;`,            // the description's script
		`&lt;img src=&#34;http://evil/x.png&#34;&gt;`,      // its image, as text
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(doc, "o:p") {
		t.Error("Office's <o:p> is left in the description")
	}
}

var (
	svgRe  = regexp.MustCompile(`(?s)<svg class="chart".*?</svg>`)
	bandRe = regexp.MustCompile(`<rect class="band-(warning|critical)" x="64" y="([0-9.]+)" width="868" height="([0-9.]+)">`)
)

// TestChartsCarryBands: each chart of the processor analysis draws its
// warning band (75–90) and critical band (90–top) behind the series, at
// the heights of a 0–100 axis, and draws long series as envelopes.
func TestChartsCarryBands(t *testing.T) {
	doc := write(t, []*analysis.Report{handReport("SERVER1")})
	charts := svgRe.FindAllString(doc, -1)
	// _Total alone, then the two other instances
	if len(charts) != 2 {
		t.Fatalf("have %d charts, want 2 (_Total on its own, then the others)", len(charts))
	}
	for i, c := range charts {
		bands := bandRe.FindAllStringSubmatch(c, -1)
		if len(bands) != 2 || bands[0][1] != "warning" || bands[1][1] != "critical" {
			t.Fatalf("chart %d: have bands %v, want warning then critical", i, bands)
		}
		// plot from y=10 (100) to y=232 (0): 90 at 32.2, 75 at 65.5
		if bands[0][2] != "32.2" || bands[0][3] != "33.3" {
			t.Errorf("chart %d: warning band at y %s height %s, want 32.2 and 33.3 (75 to 90 of 0–100)", i, bands[0][2], bands[0][3])
		}
		if bands[1][2] != "10" || bands[1][3] != "22.2" {
			t.Errorf("chart %d: critical band at y %s height %s, want 10 and 22.2 (90 to the top)", i, bands[1][2], bands[1][3])
		}
		if strings.Index(c, "band-critical") > strings.Index(c, "<polyline") {
			t.Errorf("chart %d: a band is drawn over the lines", i)
		}
		if !strings.Contains(c, `<polygon class="env"`) {
			t.Errorf("chart %d: no min/max envelope", i)
		}
		if !strings.Contains(c, `class="xlab"`) || !strings.Contains(c, `class="ylab"`) {
			t.Errorf("chart %d: no axis labels", i)
		}
	}
	if !strings.Contains(charts[0], "<title>"+esc(`\\SERVER1\Processor(_Total)\% Processor Time`)+"</title>") || strings.Contains(charts[0], "Processor(1)") {
		t.Error("the first chart is not _Total's alone")
	}
}

// TestAlertsAndFleet: alerts in time order grouped by slice; the fleet
// summary names the machines with critical alerts and when.
func TestAlertsAndFleet(t *testing.T) {
	r2 := handReport("SERVER2")
	r2.Alerts = nil
	doc := write(t, []*analysis.Report{handReport("SERVER1"), r2})
	fleet := doc[strings.Index(doc, `<section id="fleet">`):]
	fleet = fleet[:strings.Index(fleet, "</section>")]
	for _, want := range []string{
		`<tr class="critical"><td><a href="#m0-machine">SERVER1</a> <span class="badge critical">Critical</span></td>`,
		`<td class="num">2</td><td class="num">2</td><td>2013-02-19 18:56:00 – 18:58:00<br>2013-02-19 19:04:00 – 19:06:00</td>`,
		`<tr class="ok"><td><a href="#m1-machine">SERVER2</a></td>`,
	} {
		if !strings.Contains(fleet, want) {
			t.Errorf("the fleet summary lacks %q:\n%s", want, fleet)
		}
	}
	if i, j := strings.Index(doc, "Slice 4: 2013-02-19 18:56:00 – 18:58:00"), strings.Index(doc, "Slice 8: 2013-02-19 19:04:00 – 19:06:00"); i < 0 || j < i {
		t.Errorf("slices 4 and 8 are not in time order (at %d and %d)", i, j)
	}
	for _, want := range []string{
		`<td class="num" title="1234567.5">1,234,568</td>`, // the trend, readable, exact on hover
		`<td class="num" title="99.75">99.75</td>`,
		`(2013-02-20T02:56:00Z UTC)`, // bias 480
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

func TestNum(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {1234567.5, "1,234,568"}, {-1234.4, "-1,234"}, {999.94, "999.9"}, {100, "100"},
		{12.5, "12.5"}, {12.3456, "12.35"}, {1, "1"}, {0.0123456, "0.0123"}, {0.5, "0.5"},
		{-0.000123456, "-0.000123"}, {1e-9, "1e-09"}, {math.NaN(), "–"}, {math.Inf(1), "–"},
		{1e21, "1,000,000,000,000,000,000,000"}, {-0.0001, "-0.0001"},
	} {
		if have := num(tc.v); have != tc.want {
			t.Errorf("num(%v): have %q, want %q", tc.v, have, tc.want)
		}
	}
}

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<B>bold</B><BR>x`, `<b>bold</b><br>x`},
		{`<p>a<p>b`, `<p>a<p>b</p></p>`},
		{`</b>stray`, `stray`},
		{`<b><i>x</b>y`, `<b><i>x</i></b>y`},
		{`<a href='http://x/?a=1&amp;b=2'>l</a>`, `<a href="http://x/?a=1&amp;b=2" rel="noreferrer">l</a>`},
		{`<a href=" JavaScript:x">l</a>`, `<a>l</a>`},
		{`<httpRuntime maxRequests="5">`, `&lt;httpRuntime maxRequests=&#34;5&#34;&gt;`},
		{`a < b & c > d &nbsp;`, "a &lt; b &amp; c &gt; d \u00a0"},
		{`<p onclick="x()">t</p>`, `<p>t</p>`},
		{`<o:p></o:p>x`, `x`},
		{`<b`, `&lt;b`},
		{`<scr<script>ipt>`, `&lt;scr&lt;script&gt;ipt&gt;`},
		{strings.Repeat("<b>", 33) + "x", strings.Repeat("<b>", 32) + "&lt;b&gt;x" + strings.Repeat("</b>", 32)},
	} {
		if have := sanitize(tc.in); have != tc.want {
			t.Errorf("sanitize(%q):\nhave %q\nwant %q", tc.in, have, tc.want)
		}
	}
}

func TestLinkify(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`Guide (TechNet) <https://x.example/a?b=1&c=2>; more <http://y/>`, `Guide (TechNet) <a href="https://x.example/a?b=1&amp;c=2" rel="noreferrer">https://x.example/a?b=1&amp;c=2</a>; more <a href="http://y/" rel="noreferrer">http://y/</a>`},
		{`a <b> & <httpx"onx=1>`, `a &lt;b&gt; &amp; &lt;httpx&#34;onx=1&gt;`},
		{`<https://x" onclick="y>`, `&lt;https://x&#34; onclick=&#34;y&gt;`},
		{`<https://open`, `&lt;https://open`},
	} {
		if have := linkify(tc.in); have != tc.want {
			t.Errorf("linkify(%q):\nhave %q\nwant %q", tc.in, have, tc.want)
		}
	}
}

func TestShortPath(t *testing.T) {
	r := &analysis.Report{Machine: "SERVER1"}
	for _, tc := range []struct{ in, want string }{
		{`\\SERVER1\Memory\Pages`, `\Memory\Pages`},
		{`\\server1\Memory\Pages`, `\Memory\Pages`},
		{`\\SERVER10\Memory\Pages`, `\\SERVER10\Memory\Pages`}, // another machine
		{`\\SERVER1\`, `\\SERVER1\`},
		{`\Memory\Pages`, `\Memory\Pages`},
	} {
		if have := shortPath(r, tc.in); have != tc.want {
			t.Errorf("shortPath(%q): have %q, want %q", tc.in, have, tc.want)
		}
	}
	doc := write(t, []*analysis.Report{handReport("SERVER1")})
	if want := `<td class="path" title="\\SERVER1\Processor(_Total)\% Processor Time">\Processor(_Total)\% Processor Time</td>`; !strings.Contains(doc, want) {
		t.Errorf("the report lacks %q", want)
	}
}

func TestAppendCoord(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{0, "0.0"}, {12.34, "12.3"}, {12.35, "12.4"}, {-0.04, "0.0"}, {-3.26, "-3.3"}, {math.NaN(), "0.0"}, {1e300, "0.0"}, {959.96, "960.0"}} {
		if have := string(appendCoord(nil, tc.v)); have != tc.want {
			t.Errorf("appendCoord(%v): have %q, want %q", tc.v, have, tc.want)
		}
	}
}

func TestTimeRange(t *testing.T) {
	for _, tc := range []struct {
		a, b int64
		want string
	}{
		{begin, begin, "2013-02-19 18:50:00"},
		{begin, begin + 600*second, "2013-02-19 18:50:00 – 19:00:00"},
		{begin, begin + 86400*second, "2013-02-19 18:50:00 – 2013-02-20 18:50:00"},
	} {
		if have := timeRange(tc.a, tc.b); have != tc.want {
			t.Errorf("timeRange(%d, %d): have %q, want %q", tc.a, tc.b, have, tc.want)
		}
	}
}

// TestChartFallback: an analysis whose chart's datasource has no series
// (a generated one not computed) still charts the series it has, without
// bands, one chart per datasource.
func TestChartFallback(t *testing.T) {
	r := handReport("SERVER1")
	a := *r.Results[0].Analysis
	a.Charts = []analysis.Chart{{Title: "Overwhelmed", Datasource: `\PAL Generated(*)\Overwhelmed`, Bands: a.Charts[0].Bands}}
	r.Results[0].Analysis = &a
	r.Results[0].Series[2].Datasource = `\Processor(*)\% User Time`
	charts := svgRe.FindAllString(write(t, []*analysis.Report{r}), -1)
	// % Processor Time: _Total alone, then <script>; % User Time: 1
	if len(charts) != 3 {
		t.Fatalf("have %d charts, want 3", len(charts))
	}
	for i, c := range charts {
		if strings.Contains(c, "band-") {
			t.Errorf("chart %d draws another datasource's bands", i)
		}
	}
	if !strings.Contains(charts[2], `aria-label="\Processor(*)\% User Time"`) {
		t.Errorf("the third chart is not the User Time one: %.200s", charts[2])
	}
}

// TestBandsBeyondValues: a band wholly above the chart's values (more
// than three times the largest, where the axis stops growing for it) or
// below them is not lost: a strip in its colour at that edge and a label
// saying where it starts, so a reader sees the threshold exists. Bands
// within reach of the values are drawn as bands.
func TestBandsBeyondValues(t *testing.T) {
	r := handReport("SERVER1")
	a := *r.Results[0].Analysis
	a.Charts = []analysis.Chart{{Title: "Processor time", Datasource: `\Processor(*)\% Processor Time`, Bands: []analysis.Band{
		{Condition: analysis.Warning, Min: 500, Max: 800},
		{Condition: analysis.Critical, Min: 800, Max: 800, UseMax: true, GreaterThan: true},
		{Condition: analysis.Critical, Min: -50, Max: -20},
	}}}
	r.Results[0].Analysis = &a
	doc := write(t, []*analysis.Report{r})
	wellFormed(t, doc)
	charts := svgRe.FindAllString(doc, -1)
	if len(charts) != 2 {
		t.Fatalf("have %d charts, want 2", len(charts))
	}
	for i, c := range charts {
		if bands := bandRe.FindAllString(c, -1); len(bands) != 0 {
			t.Errorf("chart %d: bands drawn inside the plot: %v", i, bands)
		}
		for _, want := range []string{
			`<rect class="edge-warning" x="64" y="13" width="868" height="3"/>`,
			`<rect class="edge-critical" x="64" y="10" width="868" height="3"/>`,
			`<rect class="edge-critical" x="64" y="229" width="868" height="3"/>`,
			`>▲ <tspan class="edge-warning">Warning 500 – 800</tspan> · <tspan class="edge-critical">Critical ≥ 800</tspan> (above the values)</text>`,
			`>▼ <tspan class="edge-critical">Critical -50 – -20</tspan> (below the values)</text>`,
		} {
			if !strings.Contains(c, want) {
				t.Errorf("chart %d: no %s", i, want)
			}
		}
		// the labels over the lines, the strips behind them
		if strings.Index(c, `class="edge"`) < strings.LastIndex(c, "<polyline") || strings.Index(c, `rect class="edge-warning"`) > strings.Index(c, "<polyline") {
			t.Errorf("chart %d: strips must be behind the lines, labels over them", i)
		}
	}
	// A band within three times the values still stretches the axis and is drawn.
	a.Charts[0].Bands = []analysis.Band{{Condition: analysis.Warning, Min: 150, Max: 200}}
	doc = write(t, []*analysis.Report{r})
	c := svgRe.FindAllString(doc, -1)[0]
	if len(bandRe.FindAllString(c, -1)) != 1 || strings.Contains(c, "edge-") {
		t.Errorf("a band near the values: have %s", c[:min(len(c), 600)])
	}
}
