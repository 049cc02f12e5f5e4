// Package htmlreport writes the reports of perfcalc analyze as one
// self-contained HTML file: inline CSS and SVG charts, no script, no font,
// image or style fetched from elsewhere, so that it opens offline and
// prints (an @media print style keeps charts and tables whole on a page).
//
// The report keeps the order of PAL's HTML report: the run's
// parameters, a fleet summary when the logs are of several machines, then
// per machine the alerts in time order and, per category and analysis, the
// description, a chart per group of up to twelve instances (`_Total` on its
// own) with the warning and critical bands behind the lines, the
// statistics table and the analysis' alerts by slice; then what could not
// be evaluated, with the reasons.
//
// # Security
//
// Threshold files and logs are untrusted: every name (counter paths,
// instance names, analysis names, question values) is escaped; a
// description's HTML keeps only a small set of tags without attributes
// (links keep an http, https or mailto href), the rest is escaped and
// shows as written. The package is the command's only (it uses fmt and
// html); the WebAssembly module does not link it.
package htmlreport

import (
	"fmt"
	"html"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/analysis"
)

// Params are the run's parameters, as the command got them, which the
// report lists beside what the reports themselves hold (time range,
// interval, question values, PAL compatibility).
type Params struct {
	// Logs are the logs' names as given (or expanded from a folder or a
	// pattern).
	Logs []string
	// Thresholds are the threshold files' names; none means perfcalc's
	// default analyses.
	Thresholds []string
	// Interval is the interval as asked: "auto" or a number of seconds.
	Interval string
	// Set are the --set NAME=VALUE arguments, in order.
	Set []string
	// NotRead are the logs left out because they could not be read, each
	// "NAME: why".
	NotRead []string
	// Version is perfcalc's version, for the report's footer ("" for
	// none).
	Version string
}

// Write writes the HTML report of reports (one per machine, in order) to
// w, in pieces of about 64 KiB as it goes (a chart at most beyond that),
// and returns w's first error.
func Write(w io.Writer, reports []*analysis.Report, p Params) error {
	var b strings.Builder
	b.Grow(2 * piece)
	rw := &writer{b: &b, out: w, reports: reports, p: p}
	rw.document()
	rw.flush()
	return rw.err
}

// piece is the size of the pieces Write writes.
const piece = 64 << 10

// writer holds one report being written: b the text not yet written to
// out, err out's first error (after which the text is dropped).
type writer struct {
	b       *strings.Builder
	out     io.Writer
	err     error
	reports []*analysis.Report
	p       Params
}

func (w *writer) s(parts ...string) {
	for _, p := range parts {
		w.b.WriteString(p)
	}
	if w.b.Len() >= piece {
		w.flush()
	}
}

// flush writes b to out and empties it.
func (w *writer) flush() {
	if w.err == nil && w.b.Len() > 0 {
		_, w.err = io.WriteString(w.out, w.b.String())
	}
	w.b.Reset()
	w.b.Grow(2 * piece)
}

// esc escapes a text for HTML, once made valid (clean).
func esc(s string) string { return html.EscapeString(clean(s)) }

// clean replaces what a valid HTML text cannot hold, from hostile inputs:
// invalid UTF-8, control characters other than tab and line ends, and
// U+FFFE/U+FFFF, each with U+FFFD.
func clean(s string) string {
	ok := utf8.ValidString(s)
	if ok {
		for _, r := range s {
			if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f || r == 0xfffe || r == 0xffff {
				ok = false
				break
			}
		}
	}
	if ok {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f || r == 0xfffe || r == 0xffff {
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// machineName is a report's machine, or "(local machine)".
func machineName(r *analysis.Report) string {
	if r.Machine == "" {
		return "(local machine)"
	}
	return strings.TrimPrefix(r.Machine, `\\`)
}

// anchor returns the id of a part of report i: "m0-a3" …
func anchor(i int, part string) string { return "m" + strconv.Itoa(i) + "-" + part }

func (w *writer) document() {
	title := "perfcalc analysis"
	switch len(w.reports) {
	case 0:
	case 1:
		title += " of " + machineName(w.reports[0])
	default:
		title += " of " + strconv.Itoa(len(w.reports)) + " machines"
	}
	w.s("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
		"<title>", esc(title), "</title>\n<style>", css, "</style>\n</head>\n<body>\n")
	w.s(patterns)
	w.s("<header><h1>", esc(title), "</h1></header>\n")
	w.toc()
	w.parameters()
	if len(w.reports) > 1 {
		w.fleet()
	}
	for i, r := range w.reports {
		w.machine(i, r)
	}
	w.s("<footer>Written by perfcalc")
	if w.p.Version != "" {
		w.s(" ", esc(w.p.Version))
	}
	w.s(". Times are the log's local time unless marked UTC.</footer>\n</body>\n</html>\n")
}

// categories groups a report's run analyses by category, in the order of
// their first appearance, and lists the skipped ones apart.
func categories(r *analysis.Report) (names []string, byName map[string][]int, skipped []int) {
	byName = map[string][]int{}
	for i := range r.Results {
		res := &r.Results[i]
		if res.Skipped != "" || res.Analysis == nil {
			skipped = append(skipped, i)
			continue
		}
		c := res.Analysis.Category
		if _, ok := byName[c]; !ok {
			names = append(names, c)
		}
		byName[c] = append(byName[c], i)
	}
	return names, byName, skipped
}

func categoryTitle(c string) string {
	if c == "" {
		return "Other"
	}
	return c
}

func (w *writer) toc() {
	w.s("<nav class=\"toc\"><h2>Contents</h2>\n<ol>\n<li><a href=\"#parameters\">Parameters</a></li>\n")
	if len(w.reports) > 1 {
		w.s("<li><a href=\"#fleet\">Fleet summary</a></li>\n")
	}
	for i, r := range w.reports {
		if len(w.reports) > 1 {
			w.s("<li><a href=\"#", anchor(i, "machine"), "\">", esc(machineName(r)), "</a><ol>\n")
		}
		crit, warn := counts(r.Alerts)
		w.s("<li><a href=\"#", anchor(i, "alerts"), "\">Alerts</a> <span class=\"muted\">(", count(crit), " critical, ", count(warn), " warning)</span></li>\n")
		names, byName, skipped := categories(r)
		of := alertsByAnalysis(r.Alerts)
		for _, c := range names {
			w.s("<li>", esc(categoryTitle(c)), "<ol>\n")
			for _, k := range byName[c] {
				a := r.Results[k].Analysis
				w.s("<li><a href=\"#", anchor(i, "a"+strconv.Itoa(k)), "\">", esc(a.Name), "</a>", badge(worst(r.Alerts, of[keyOf(a)])), "</li>\n")
			}
			w.s("</ol></li>\n")
		}
		if len(skipped) > 0 {
			w.s("<li><a href=\"#", anchor(i, "skipped"), "\">Analyses not run</a> <span class=\"muted\">(", count(len(skipped)), ")</span></li>\n")
		}
		if len(r.Unsupported) > 0 {
			w.s("<li><a href=\"#", anchor(i, "unsupported"), "\">Not evaluated</a> <span class=\"muted\">(", count(len(r.Unsupported)), ")</span></li>\n")
		}
		if len(w.reports) > 1 {
			w.s("</ol></li>\n")
		}
	}
	w.s("</ol></nav>\n")
}

// badge is a small coloured mark of a condition, "" for OK.
func badge(c analysis.Condition) string {
	switch c {
	case analysis.Critical:
		return ` <span class="badge critical">Critical</span>`
	case analysis.Warning:
		return ` <span class="badge warning">Warning</span>`
	}
	return ""
}

// analysisKey tells an analysis apart from others of the same name, as
// an alert names it (Alert.Analysis and Alert.ID): the JSON report's
// "analysis" and "id".
type analysisKey struct{ name, id string }

func keyOf(a *analysis.Analysis) analysisKey { return analysisKey{a.Name, a.ID} }

// alertsByAnalysis indexes alerts by their analysis once: the indexes of
// each analysis' alerts, in order (the report's time order), so that
// writing a report takes time linear in its analyses and alerts.
func alertsByAnalysis(alerts []analysis.Alert) map[analysisKey][]int {
	of := map[analysisKey][]int{}
	for i := range alerts {
		k := analysisKey{alerts[i].Analysis, alerts[i].ID}
		of[k] = append(of[k], i)
	}
	return of
}

// worst returns the worst condition of the alerts at the indexes idx.
func worst(alerts []analysis.Alert, idx []int) analysis.Condition {
	c := analysis.OK
	for _, i := range idx {
		c = max(c, alerts[i].Condition)
	}
	return c
}

// counts returns the numbers of critical and warning alerts.
func counts(alerts []analysis.Alert) (crit, warn int) {
	for i := range alerts {
		switch alerts[i].Condition {
		case analysis.Critical:
			crit++
		case analysis.Warning:
			warn++
		}
	}
	return crit, warn
}

func conditionName(c analysis.Condition) string {
	switch c {
	case analysis.Critical:
		return "Critical"
	case analysis.Warning:
		return "Warning"
	}
	return "OK"
}

func conditionClass(c analysis.Condition) string {
	switch c {
	case analysis.Critical:
		return "critical"
	case analysis.Warning:
		return "warning"
	}
	return "ok"
}

// row writes a table row of header-less cells.
func (w *writer) th(cells ...string) {
	w.s("<tr>")
	for _, c := range cells {
		w.s("<th>", c, "</th>")
	}
	w.s("</tr>\n")
}

// shortPath is a counter path without its machine when that is the
// report's (the section names it): \\SERVER1\Memory\Pages is \Memory\Pages.
func shortPath(r *analysis.Report, path string) string {
	prefix := `\\` + strings.TrimPrefix(r.Machine, `\\`) + `\`
	if r.Machine != "" && len(path) > len(prefix) && strings.EqualFold(path[:len(prefix)], prefix) {
		return path[len(prefix)-1:]
	}
	return path
}

// pathCell is a table cell of a counter path, short (shortPath), the
// full path on hover.
func pathCell(r *analysis.Report, path string) string {
	return `<td class="path" title="` + esc(path) + `">` + esc(shortPath(r, path)) + `</td>`
}

// numCell is a table cell of a number, its exact value on hover.
func numCell(v float64) string {
	return `<td class="num" title="` + exact(v) + `">` + esc(num(v)) + `</td>`
}

func (w *writer) parameters() {
	w.s("<section id=\"parameters\"><h2>Parameters</h2>\n<table class=\"params\">\n")
	kv := func(k, v string) { w.s("<tr><th>", k, "</th><td>", v, "</td></tr>\n") }
	logs := make([]string, len(w.p.Logs))
	for i, l := range w.p.Logs {
		logs[i] = "<code>" + esc(l) + "</code>"
	}
	kv("Logs", strings.Join(logs, "<br>"))
	if len(w.p.NotRead) > 0 {
		bad := make([]string, len(w.p.NotRead))
		for i, l := range w.p.NotRead {
			bad[i] = `<span class="notread">` + esc(l) + `</span>`
		}
		kv("Not read", strings.Join(bad, "<br>"))
	}
	if len(w.p.Thresholds) == 0 {
		kv("Thresholds", "perfcalc's default analyses")
	} else {
		th := make([]string, len(w.p.Thresholds))
		for i, t := range w.p.Thresholds {
			th[i] = "<code>" + esc(t) + "</code>"
		}
		kv("Thresholds", strings.Join(th, "<br>"))
	}
	if len(w.reports) > 0 {
		r := w.reports[0]
		if len(w.reports) == 1 {
			kv("Machine", esc(machineName(r)))
			kv("Time range", esc(localTime(r.Begin))+" – "+esc(localTime(r.End))+` <span class="muted">(`+esc(utcTime(r.Begin, r.Bias))+" – "+esc(utcTime(r.End, r.Bias))+" UTC)</span>")
			kv("Duration", esc(duration(r.End-r.Begin))+", "+count(r.Samples)+" samples")
		}
		iv := esc(seconds(r.Interval)) + ", " + count(len(r.Slices)) + " time slices"
		if w.p.Interval == "" || w.p.Interval == "auto" {
			iv += ` <span class="muted">(auto: the duration ÷ 30)</span>`
		}
		if len(w.reports) > 1 {
			iv = esc(w.p.Interval)
			if w.p.Interval == "" || w.p.Interval == "auto" {
				iv = "auto (each machine's duration ÷ 30)"
			}
		}
		kv("Interval", iv)
		compat := "no: exact statistics"
		if r.PALCompat {
			compat = "yes: PAL's numbers, its quirks included"
		}
		kv("PAL compatibility", compat)
		if r.Set != nil && len(r.Set.Values) > 0 {
			keys := make([]string, 0, len(r.Set.Values))
			for k := range r.Set.Values {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var q strings.Builder
			q.WriteString("<table class=\"inner\">")
			for _, k := range keys {
				q.WriteString("<tr><td><code>" + esc(k) + "</code></td><td><code>" + esc(r.Set.Values[k]) + "</code></td></tr>")
			}
			q.WriteString("</table>")
			kv("Question values", q.String())
		}
	}
	if len(w.p.Set) > 0 {
		set := make([]string, len(w.p.Set))
		for i, s := range w.p.Set {
			set[i] = "<code>" + esc(s) + "</code>"
		}
		kv("--set", strings.Join(set, " "))
	}
	w.s("</table></section>\n")
}

// maxSpans is the most time ranges of critical alerts the fleet summary
// lists per machine.
const maxSpans = 8

// timeRange writes a range of local FILETIMEs: "2013-02-19 18:50:17 –
// 19:00:17", the date once when both ends share it, one time when they
// are equal.
func timeRange(a, b int64) string {
	la, lb := localTime(a), localTime(b)
	switch {
	case la == lb:
		return la
	case la[:10] == lb[:10]:
		return la + " – " + lb[11:]
	}
	return la + " – " + lb
}

// spans merges the slices of alerts of one condition into time ranges:
// "18:50 – 19:10".
func spans(r *analysis.Report, cond analysis.Condition) []string {
	hit := make([]bool, len(r.Slices))
	for i := range r.Alerts {
		if a := &r.Alerts[i]; a.Condition == cond && a.Slice >= 0 && a.Slice < len(hit) {
			hit[a.Slice] = true
		}
	}
	var out []string
	for i := 0; i < len(hit); i++ {
		if !hit[i] {
			continue
		}
		j := i
		for j+1 < len(hit) && hit[j+1] {
			j++
		}
		out = append(out, timeRange(r.Slices[i].Start, r.Slices[j].End))
		i = j
	}
	return out
}

func (w *writer) fleet() {
	w.s("<section id=\"fleet\"><h2>Fleet summary</h2>\n<table class=\"data\">\n")
	w.th("Machine", "Logged", "Critical", "Warning", "When critical")
	for i, r := range w.reports {
		crit, warn := counts(r.Alerts)
		cls := conditionClass(analysis.OK)
		if crit > 0 {
			cls = "critical"
		} else if warn > 0 {
			cls = "warning"
		}
		worst := analysis.OK
		if crit > 0 {
			worst = analysis.Critical
		} else if warn > 0 {
			worst = analysis.Warning
		}
		w.s("<tr class=\"", cls, "\"><td><a href=\"#", anchor(i, "machine"), "\">", esc(machineName(r)), "</a>", badge(worst), "</td>")
		w.s("<td>", esc(timeRange(r.Begin, r.End)), "</td>")
		w.s("<td class=\"num\">", count(crit), "</td><td class=\"num\">", count(warn), "</td><td>")
		when := spans(r, analysis.Critical)
		if len(when) == 0 {
			w.s("—")
		}
		more := 0
		if len(when) > maxSpans {
			when, more = when[:maxSpans], len(when)-maxSpans
		}
		for k, s := range when {
			if k > 0 {
				w.s("<br>")
			}
			w.s(esc(s))
		}
		if more > 0 {
			w.s("<br><span class=\"muted\">and ", count(more), " more (see its alerts)</span>")
		}
		w.s("</td></tr>\n")
	}
	w.s("</table></section>\n")
}

func (w *writer) machine(i int, r *analysis.Report) {
	h := "h2"
	if len(w.reports) > 1 {
		w.s("<section class=\"machine\" id=\"", anchor(i, "machine"), "\"><h2>", esc(machineName(r)), "</h2>\n")
		w.s("<p class=\"muted\">", esc(timeRange(r.Begin, r.End)), ", ", esc(duration(r.End-r.Begin)), ", ", count(r.Samples), " samples, ",
			count(len(r.Slices)), " slices of ", esc(seconds(r.Interval)), "</p>\n")
		h = "h3"
	}
	sub := map[string]string{"h2": "h3", "h3": "h4"}[h]
	subsub := map[string]string{"h3": "h4", "h4": "h5"}[sub]
	// alerts in time order
	w.s("<section id=\"", anchor(i, "alerts"), "\"><", h, ">Alerts in time order</", h, ">\n")
	crit, warn := counts(r.Alerts)
	w.s("<p>", count(crit), " critical and ", count(warn), " warning alerts")
	if len(r.Alerts) > 0 {
		w.s(" in ", count(slicesWithAlerts(r.Alerts)), " of ", count(len(r.Slices)), " time slices")
	}
	w.s(".</p>\n")
	w.alertTable(r, r.Alerts, nil, true)
	w.s("</section>\n")
	names, byName, skipped := categories(r)
	of := alertsByAnalysis(r.Alerts)
	for _, c := range names {
		w.s("<section class=\"category\"><", h, ">", esc(categoryTitle(c)), "</", h, ">\n")
		for _, k := range byName[c] {
			w.analysis(i, k, r, of[keyOf(r.Results[k].Analysis)], sub, subsub)
		}
		w.s("</section>\n")
	}
	if len(skipped) > 0 {
		w.s("<section id=\"", anchor(i, "skipped"), "\"><", h, ">Analyses not run</", h, ">\n<table class=\"data\">\n")
		w.th("Category", "Analysis", "Why")
		for _, k := range skipped {
			res := &r.Results[k]
			name, cat := "", ""
			if res.Analysis != nil {
				name, cat = res.Analysis.Name, res.Analysis.Category
			}
			w.s("<tr><td>", esc(categoryTitle(cat)), "</td><td>", esc(name), "</td><td>", esc(res.Skipped), "</td></tr>\n")
		}
		w.s("</table></section>\n")
	}
	if len(r.Unsupported) > 0 {
		w.s("<section id=\"", anchor(i, "unsupported"), "\"><", h, ">Not evaluated</", h, ">\n")
		w.s("<p>These thresholds or datasources could not be evaluated; their analyses ran without them.</p>\n<table class=\"data\">\n")
		w.th("Analysis", "Threshold or datasource", "Reason")
		for _, u := range r.Unsupported {
			what := esc(u.What)
			if u.Element != "" {
				what += ` <span class="muted">(` + esc(strings.ToLower(u.Element)) + `)</span>`
			}
			w.s("<tr><td>", esc(u.Analysis), "</td><td>", what, "</td><td>", esc(u.Reason), "</td></tr>\n")
		}
		w.s("</table></section>\n")
	}
	if len(w.reports) > 1 {
		w.s("</section>\n")
	}
}

// slicesWithAlerts counts the distinct slices of alerts.
func slicesWithAlerts(alerts []analysis.Alert) int {
	seen := map[int]bool{}
	for i := range alerts {
		seen[alerts[i].Slice] = true
	}
	return len(seen)
}

// alertTable writes the alerts at the indexes idx (all of them when idx
// is nil) grouped by slice, in the order given (time order); withAnalysis
// adds the analysis' column.
func (w *writer) alertTable(r *analysis.Report, alerts []analysis.Alert, idx []int, withAnalysis bool) {
	n := len(alerts)
	if idx != nil {
		n = len(idx)
	}
	if n == 0 {
		w.s("<p class=\"muted\">No alert.</p>\n")
		return
	}
	cols := 6
	w.s("<table class=\"data alerts\">\n<tr><th>Condition</th>")
	if withAnalysis {
		w.s("<th>Analysis</th>")
		cols++
	}
	w.s("<th>Counter</th><th>Min</th><th>Avg</th><th>Max</th><th>Hourly trend</th></tr>\n")
	last := -1
	for j := range n {
		a := &alerts[j]
		if idx != nil {
			a = &alerts[idx[j]]
		}
		if a.Slice != last {
			last = a.Slice
			w.s("<tr class=\"slice\"><th colspan=\"", itoa(cols), "\">Slice ", itoa(a.Slice+1), ": ", esc(timeRange(a.Start, a.End)),
				" <span class=\"muted\">(", esc(utcTime(a.Start, r.Bias)), " UTC)</span></th></tr>\n")
		}
		w.s("<tr class=\"", conditionClass(a.Condition), "\"><td class=\"cond\" title=\"", esc(a.Threshold), "\">", conditionName(a.Condition), "</td>")
		if withAnalysis {
			w.s("<td>", esc(a.Analysis), "</td>")
		}
		w.s(pathCell(r, a.Path), numCell(a.Min), numCell(a.Avg), numCell(a.Max), numCell(a.Trend), "</tr>\n")
	}
	w.s("</table>\n")
}

// chartSeries is one chart of an analysis and the series it draws.
type chartSeries struct {
	chart  analysis.Chart
	series []*analysis.Series
}

// chartPlan returns the charts an analysis draws: its own, each with the
// series of its datasource; where none of them has a series (an analysis
// without charts, or whose charts' datasource could not be computed), one
// chart without bands per datasource that has series.
func chartPlan(a *analysis.Analysis, res *analysis.Result) []chartSeries {
	var plan []chartSeries
	for _, c := range a.Charts {
		var series []*analysis.Series
		for j := range res.Series {
			if s := &res.Series[j]; s.Datasource == c.Datasource {
				series = append(series, s)
			}
		}
		if len(series) > 0 {
			plan = append(plan, chartSeries{c, series})
		}
	}
	if len(plan) > 0 {
		return plan
	}
	index := map[string]int{}
	for j := range res.Series {
		s := &res.Series[j]
		k, ok := index[s.Datasource]
		if !ok {
			k = len(plan)
			index[s.Datasource] = k
			plan = append(plan, chartSeries{chart: analysis.Chart{Title: s.Datasource, Datasource: s.Datasource}})
		}
		plan[k].series = append(plan[k].series, s)
	}
	if len(plan) == 1 {
		plan[0].chart.Title = a.Name
	}
	return plan
}

// analysis writes the section of the analysis of r.Results[k], whose
// alerts are those of r.Alerts at the indexes alerts.
func (w *writer) analysis(i, k int, r *analysis.Report, alerts []int, h, sub string) {
	res := &r.Results[k]
	a := res.Analysis
	w.s("<section class=\"analysis\" id=\"", anchor(i, "a"+strconv.Itoa(k)), "\"><", h, ">", esc(a.Name), badge(worst(r.Alerts, alerts)), "</", h, ">\n")
	if d := strings.TrimSpace(a.Description); d != "" {
		w.s("<div class=\"desc\">", sanitize(d), "</div>\n")
	}
	if a.Reference != "" {
		w.s("<p class=\"ref\">Thresholds: ", linkify(a.Reference), "</p>\n")
	}
	if len(a.Thresholds) > 0 {
		w.s("<p class=\"thresholds\">")
		for j, t := range a.Thresholds {
			if j > 0 {
				w.s("; ")
			}
			w.s("<span class=\"", conditionClass(t.Condition), "\">", conditionName(t.Condition), "</span> ")
			if t.TrendOnly {
				w.s("hourly trend ")
			}
			w.s(esc(t.Datasource), " ", operatorText(t.Operator), " ", esc(num(t.Value)))
		}
		w.s("</p>\n")
	}
	for _, cs := range chartPlan(a, res) {
		c, series := cs.chart, cs.series
		groups := chartGroups(series)
		for g, group := range groups {
			title := c.Title
			if title == "" {
				title = a.Name
			}
			if n := len(groups); n > 1 {
				title += " (" + itoa(g+1) + " of " + itoa(n) + ")"
			}
			w.s("<figure class=\"chart\"><figcaption>", esc(title), "</figcaption>\n")
			chartSVG(w.b, r, &c, group, title)
			w.s("<ul class=\"legend\">")
			for j, s := range group {
				w.s("<li><span class=\"swatch\" style=\"background:", palette[j%len(palette)], "\"></span>", esc(shortPath(r, s.Path)), "</li>")
			}
			for _, band := range c.Bands {
				w.s("<li><span class=\"swatch band-", conditionClass(band.Condition), "\"></span>", conditionName(band.Condition), " ", esc(num(band.Min)), " – ", esc(bandTop(band)), "</li>")
			}
			w.s("</ul></figure>\n")
		}
	}
	// statistics
	if len(res.Series) > 0 {
		w.s("<", sub, ">Statistics</", sub, ">\n<div class=\"scroll\"><table class=\"data stats\">\n")
		trimmed := []string{"Mean without top 10%", "without top 20%", "without top 30%"}
		if r.PALCompat {
			trimmed = []string{"10% of outliers removed", "20% of outliers removed", "30% of outliers removed"}
		}
		w.th(append(append([]string{"Condition", "Instance", "Min", "Avg", "Max", "Hourly trend", "Std. deviation"}, trimmed...), "90th percentile", "95th", "99th")...)
		noThresholds := len(a.Thresholds) == 0
		for j := range res.Series {
			s := &res.Series[j]
			o := &s.Overall
			cond := conditionName(o.Condition)
			if noThresholds {
				cond = "No thresholds"
			}
			w.s("<tr class=\"", conditionClass(o.Condition), "\"><td class=\"cond\">", cond, "</td>", pathCell(r, s.Path))
			if o.N == 0 {
				w.s("<td colspan=\"11\" class=\"muted\">no value</td></tr>\n")
				continue
			}
			w.s(numCell(o.Min), numCell(o.Avg), numCell(o.Max), numCell(o.Trend), numCell(o.StdDev))
			for _, v := range o.Trimmed {
				w.s(numCell(v))
			}
			for _, v := range o.Percentiles {
				w.s(numCell(v))
			}
			w.s("</tr>\n")
		}
		w.s("</table></div>\n")
	}
	// alerts by slice
	if len(alerts) > 0 {
		w.s("<", sub, ">Alerts by time slice</", sub, ">\n")
		w.alertTable(r, r.Alerts, alerts, false)
	}
	w.s("</section>\n")
}

// operatorText writes an operator as a sign.
func operatorText(op analysis.Operator) string {
	switch op {
	case analysis.Greater:
		return "&gt;"
	case analysis.GreaterEqual:
		return "≥"
	case analysis.Less:
		return "&lt;"
	case analysis.LessEqual:
		return "≤"
	case analysis.Equal:
		return "="
	}
	return fmt.Sprintf("op%d", op)
}

// patterns are the hatchings of the bands, defined once for every chart
// (they keep warning and critical apart in grey-scale print).
const patterns = `<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>` +
	`<pattern id="hatch-critical" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="#f4b6aa"/><line x1="0" y1="0" x2="0" y2="8" stroke="#d9534f" stroke-width="2" stroke-opacity="0.45"/></pattern>` +
	`<pattern id="hatch-warning" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="#fbe7a1"/><circle cx="4" cy="4" r="1" fill="#c9a227" fill-opacity="0.5"/></pattern>` +
	`</defs></svg>` + "\n"

// css is the report's style sheet.
const css = `
:root{--crit:#c9302c;--critbg:#f8d7d0;--warn:#8a6d00;--warnbg:#fcf0c0;--ink:#1d2228;--muted:#68707a;--line:#d6dae0}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--ink);margin:0 auto;max-width:1200px;padding:16px 24px}
h1{font-size:1.6em;margin:.2em 0 .6em}
h2{font-size:1.3em;border-bottom:2px solid var(--line);padding-bottom:.2em;margin-top:1.6em}
h3{font-size:1.12em;margin-top:1.4em}
h4,h5{font-size:1em;margin:1em 0 .4em}
code,.path{font-family:ui-monospace,SFMono-Regular,Consolas,"Liberation Mono",monospace;font-size:.92em}
.path{overflow-wrap:anywhere}
table.stats td.path{min-width:18em}
.muted{color:var(--muted);font-weight:normal}
nav.toc ol{margin:.2em 0;padding-left:1.4em}
nav.toc>ol{columns:2;column-gap:2em}
nav.toc li{break-inside:avoid}
table{border-collapse:collapse}
table.params th{text-align:left;vertical-align:top;padding:3px 16px 3px 0;white-space:nowrap}
table.params td{padding:3px 0}
table.inner td{padding:1px 12px 1px 0}
table.data{width:100%;margin:.4em 0 1em;font-size:.93em}
table.data th,table.data td{border-bottom:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
table.data th{background:#f1f3f5}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;width:1%}
td.cond{width:1%;white-space:nowrap}
tr.slice th{background:#e7eaee;font-weight:600}
tr.critical td.cond,span.critical,.badge.critical{background:var(--critbg);color:var(--crit);font-weight:700}
tr.warning td.cond,span.warning,.badge.warning{background:var(--warnbg);color:var(--warn);font-weight:700}
tr.critical td.cond{border-left:4px solid var(--crit)}
tr.warning td.cond{border-left:4px dashed var(--warn)}
.badge{font-size:.75em;padding:1px 6px;border-radius:8px;vertical-align:middle}
span.critical,span.warning{padding:0 4px;border-radius:3px}
.notread{color:var(--crit)}
.desc{background:#f7f8fa;border-left:3px solid var(--line);padding:4px 12px;margin:.4em 0;max-height:none}
.desc p{margin:.4em 0}
.ref,.thresholds{font-size:.92em}
.scroll{overflow-x:auto}
figure.chart{margin:.6em 0 1em;break-inside:avoid}
figcaption{font-weight:600;margin-bottom:2px}
svg.chart{width:100%;height:auto;display:block;background:#fff}
svg.chart .plot{fill:#fff}
svg.chart .frame{fill:none;stroke:#9aa2ab;stroke-width:1}
svg.chart .grid{stroke:#e3e6ea;stroke-width:1}
svg.chart text{font-size:11px;fill:#4a525c;font-family:system-ui,sans-serif}
svg.chart .ylab{text-anchor:end}
svg.chart .xlab{text-anchor:middle}
svg.chart .band-warning{fill:url(#hatch-warning);fill-opacity:.85}
svg.chart .band-critical{fill:url(#hatch-critical);fill-opacity:.85}
svg.chart .env{stroke:none}
svg.chart rect.edge-critical{fill:#c9302c}
svg.chart rect.edge-warning{fill:#e0b020}
svg.chart text.edge{text-anchor:end;font-size:12px;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
svg.chart tspan.edge-critical{fill:var(--crit);font-weight:700}
svg.chart tspan.edge-warning{fill:var(--warn);font-weight:700}
svg.chart .line{fill:none;stroke-width:1.5;stroke-linejoin:round}
ul.legend{list-style:none;padding:0;margin:4px 0 0 64px;display:flex;flex-wrap:wrap;gap:2px 18px;font-size:.88em}
ul.legend li{word-break:break-all}
.swatch{display:inline-block;width:14px;height:10px;margin-right:5px;vertical-align:baseline;border:1px solid rgba(0,0,0,.2)}
.swatch.band-critical{background:#f4b6aa}
.swatch.band-warning{background:#fbe7a1}
footer{margin-top:2em;color:var(--muted);font-size:.85em;border-top:1px solid var(--line);padding-top:.5em}
@media print{
body{max-width:none;padding:0;font-size:10pt}
nav.toc>ol{columns:2}
a{color:inherit;text-decoration:none}
section.analysis,figure.chart,table.alerts tr,table.stats tr{break-inside:avoid}
h2,h3,h4{break-after:avoid}
section.machine{break-before:page}
.scroll{overflow:visible}
tr.critical td.cond,tr.warning td.cond,.badge,span.critical,span.warning,.swatch{-webkit-print-color-adjust:exact;print-color-adjust:exact}
svg.chart{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`
