package htmlreport

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/analysis/palxml"
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// pagesLog is a log of \\SERVER1\Memory\Pages, one sample a second from
// begin: sample i is 100·i, above 500 from the seventh.
func pagesLog(samples int) []byte {
	c := blgbuild.Counter{Type: uint32(engine.CounterRawcount), Machine: `\\SERVER1`, Object: "Memory", Counter: "Pages"}
	l := blgbuild.New(64<<10, begin+8*3600*second)
	l.Record(blgbuild.EventCounterList, begin, blgbuild.AppendCounterList(nil, c), blgbuild.MaxEventData)
	for i := range samples {
		ts := begin + int64(i)*second
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, uint64(100*i)), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// sameNames is a PAL threshold file of two analyses named alike (as
// HyperV.xml, IIS.xml and Exchange2013.xml have), told apart by their
// IDs: the first alerts above 500 pages, the second above 10^9 (never).
const sameNames = `<?xml version="1.0" encoding="UTF-8"?>
<PAL PALVERSION="2.0" NAME="Same names" DESCRIPTION="test" VERSION="1.0" LANGUAGE="English" LANGUAGECODE="en">
  <ANALYSIS NAME="Memory Pages" ENABLED="True" CATEGORY="Memory" PRIMARYDATASOURCE="\Memory\Pages" ID="{first}">
    <DATASOURCE TYPE="CounterLog" NAME="\Memory\Pages" EXPRESSIONPATH="\Memory\Pages" COLLECTIONVARNAME="CollectionOfPages" DATATYPE="round3" />
    <THRESHOLD NAME="More than 500 pages" CONDITION="Critical" COLOR="Red" PRIORITY="100">
      <CODE><![CDATA[StaticThreshold -CollectionOfCounterInstances $CollectionOfPages -Operator 'gt' -Threshold 500]]></CODE>
    </THRESHOLD>
  </ANALYSIS>
  <ANALYSIS NAME="Memory Pages" ENABLED="True" CATEGORY="Memory" PRIMARYDATASOURCE="\Memory\Pages" ID="{second}">
    <DATASOURCE TYPE="CounterLog" NAME="\Memory\Pages" EXPRESSIONPATH="\Memory\Pages" COLLECTIONVARNAME="CollectionOfPages" DATATYPE="round3" />
    <THRESHOLD NAME="More than a billion pages" CONDITION="Critical" COLOR="Red" PRIORITY="100">
      <CODE><![CDATA[StaticThreshold -CollectionOfCounterInstances $CollectionOfPages -Operator 'gt' -Threshold 1000000000]]></CODE>
    </THRESHOLD>
  </ANALYSIS>
</PAL>
`

var analysisSection = regexp.MustCompile(`(?s)<section class="analysis" id="m0-a(\d+)">.*?</section>`)

// TestAlertsOfSameNamedAnalyses (issue 32, item 12): of two analyses of
// the same name, only the one whose thresholds were broken shows alerts
// and a Critical badge, in its section and in the contents, as the JSON
// report ties alerts to analyses by their IDs (both showed the first
// one's).
func TestAlertsOfSameNamedAnalyses(t *testing.T) {
	set, err := palxml.Load("same.xml", func(string) ([]byte, error) { return []byte(sameNames), nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := pagesLog(60)
	c, err := relog.New(bytes.NewReader(b), int64(len(b)), relog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := analysis.Run(c, set, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Alerts) == 0 || len(r.Results) != 2 {
		t.Fatalf("%d alerts, %d results: the log should break the first analysis' threshold", len(r.Alerts), len(r.Results))
	}
	for _, a := range r.Alerts {
		if a.ID != "{first}" {
			t.Fatalf("an alert of the analysis %q: the second analysis should not alert", a.ID)
		}
	}
	doc := write(t, []*analysis.Report{r})
	sections := analysisSection.FindAllStringSubmatch(doc, -1)
	if len(sections) != 2 {
		t.Fatalf("%d analysis sections, want 2", len(sections))
	}
	for _, s := range sections {
		k, _ := strconv.Atoi(s[1])
		first := r.Results[k].Analysis.ID == "{first}"
		badged := strings.Contains(s[0], `<span class="badge critical">Critical</span></h`)
		rows := strings.Count(s[0], `<td class="cond" title=`) // an alert's row (the statistics' have no title)
		if first && (!badged || rows != len(r.Alerts)) || !first && (badged || rows != 0) {
			t.Errorf("section of %s: Critical badge %v, %d alert rows; want the badge and %d rows for {first} only", r.Results[k].Analysis.ID, badged, rows, len(r.Alerts))
		}
	}
	toc := doc[strings.Index(doc, `<nav class="toc">`):strings.Index(doc, `</nav>`)]
	if n := strings.Count(toc, "Critical</span></li>"); n != 1 {
		t.Errorf("%d Critical badges in the contents, want 1:\n%s", n, toc)
	}
}

// manyAlerting is a report of n analyses of distinct names (a shared
// prefix, as PAL's names have), each with one alert (and no series: no
// chart or statistics, so that the time goes where alerts are matched).
func manyAlerting(n int) *analysis.Report {
	set := &analysis.Set{Name: "many"}
	r := &analysis.Report{Machine: "SERVER1", Begin: begin, End: begin + 3600*second, Bias: 480, Samples: 361, Interval: 120, Set: set}
	for i := range 30 {
		s := begin + int64(i)*120*second
		r.Slices = append(r.Slices, analysis.Slice{Start: s, End: s + 120*second, Samples: 12})
	}
	set.Analyses = make([]analysis.Analysis, n)
	for i := range n {
		id := strconv.Itoa(i)
		set.Analyses[i] = analysis.Analysis{ID: id, Name: "Hyper-V Virtual Storage Device Error Count " + id, Category: "Hyper-V", Enabled: true}
	}
	for i := range n {
		a := &set.Analyses[i]
		path := `\\SERVER1\Device(` + a.ID + `)\Error Count`
		r.Results = append(r.Results, analysis.Result{Analysis: a})
		sl := i % len(r.Slices)
		r.Alerts = append(r.Alerts, analysis.Alert{Analysis: a.Name, ID: a.ID, Category: a.Category, Condition: analysis.Warning, Priority: 50,
			Threshold: "warn", Path: path, Slice: sl, Start: r.Slices[sl].Start, End: r.Slices[sl].End, Min: 1, Avg: 2, Max: 3})
	}
	return r
}

// TestWriteLinearInAlerts (issue 32, item 13): the report of eight times
// as many alerting analyses takes less than 24 times as long (linear: 8;
// it was quadratic, up to 64: each analysis scanned every alert, twice).
// The best of five runs of each.
func TestWriteLinearInAlerts(t *testing.T) {
	if testing.Short() {
		t.Skip("times reports of 500 and 4,000 analyses")
	}
	best := func(r *analysis.Report) time.Duration {
		d := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			if err := Write(io.Discard, []*analysis.Report{r}, Params{}); err != nil {
				t.Fatal(err)
			}
			d = min(d, time.Since(start))
		}
		return d
	}
	// 8 times the analyses: linear takes 8 times as long, quadratic 64;
	// the bound, 24, leaves a shared machine's noise three times the
	// linear ratio (each time the best of five).
	small, large := best(manyAlerting(500)), best(manyAlerting(4000))
	ratio := float64(large) / float64(small)
	t.Logf("500 analyses: %v; 4,000: %v; ratio %.1f", small, large, ratio)
	if ratio > 24 {
		t.Errorf("8 times the analyses and alerts took %.1f times as long (500: %v, 4,000: %v), want under 24 (linear)", ratio, small, large)
	}
}
