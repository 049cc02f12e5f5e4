package htmlreport

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/perfcalc/perfcalc/analysis"
)

// The chart's geometry, in SVG user units.
const (
	chartW, chartH         = 960, 260
	padL, padR, padT, padB = 64, 28, 10, 28
	plotW, plotH           = chartW - padL - padR, chartH - padT - padB
)

// palette colours a chart's series (up to 12, as PAL's charts hold).
var palette = [...]string{
	"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
	"#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939", "#843c39",
}

// maxPerChart is the most series one chart draws (PAL: 12).
const maxPerChart = 12

// chartGroups cuts the series of one datasource into the groups that get
// a chart each: `_Total` instances alone, then the others by twelve.
func chartGroups(series []*analysis.Series) [][]*analysis.Series {
	var groups [][]*analysis.Series
	var rest []*analysis.Series
	for _, s := range series {
		if strings.EqualFold(s.Parts.Instance, "_Total") {
			groups = append(groups, []*analysis.Series{s})
		} else {
			rest = append(rest, s)
		}
	}
	for len(rest) > 0 {
		n := min(len(rest), maxPerChart)
		groups = append(groups, rest[:n])
		rest = rest[n:]
	}
	return groups
}

// axis is a linear scale from lo to hi onto [a, b].
type axis struct{ lo, hi, a, b float64 }

func (x axis) at(v float64) float64 {
	if x.hi == x.lo {
		return x.a
	}
	return x.a + (v-x.lo)/(x.hi-x.lo)*(x.b-x.a)
}

// niceStep returns a round step (1, 2 or 5 × 10^k) near span/n.
func niceStep(span float64, n int) float64 {
	if span <= 0 || math.IsInf(span, 0) || math.IsNaN(span) {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// valueRange returns the value axis of a chart of series with bands: from
// 0 (or below, for negative values) to a round value above the largest
// max; the chart's MaxLimit when the values stay below it; a band's start
// when it lies within three times the largest max, so that the band shows.
func valueRange(series []*analysis.Series, c *analysis.Chart) (lo, hi, step float64) {
	lo, hi = 0, math.Inf(-1)
	for _, s := range series {
		for _, p := range s.Chart {
			if !finite(p.Min) || !finite(p.Max) {
				continue
			}
			lo = math.Min(lo, p.Min)
			hi = math.Max(hi, p.Max)
		}
	}
	if math.IsInf(hi, -1) {
		hi = 1
	}
	if c != nil {
		if c.MaxLimit > 0 && c.MaxLimit >= hi {
			hi = c.MaxLimit
		}
		for _, b := range c.Bands {
			if b.GreaterThan && finite(b.Min) && b.Min > hi && b.Min <= 3*hi {
				hi = b.Min * 1.05
			}
			if !b.GreaterThan && finite(b.Max) && b.Max > hi && b.Max <= 3*hi {
				hi = b.Max * 1.05
			}
		}
	}
	if hi <= lo {
		hi = lo + 1
	}
	step = niceStep(hi-lo, 5)
	lo = math.Floor(lo/step) * step
	hi = math.Ceil(hi/step) * step
	return lo, hi, step
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// maxValueTicks is the most lines of the value axis (valueRange's step
// cuts it in about 5).
const maxValueTicks = 16

// timeSteps are the time axis' candidate steps, in seconds, up to a
// week; longer ranges step by calendar months and years (monthSteps).
var timeSteps = []int64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800}

// monthSteps are the time axis' steps beyond a week, in calendar months:
// 1, 2, 3 and 6 months, then 1, 2, 5 × 10^k years up to 10,000 (a
// FILETIME spans 29,000 years: 8 steps at most cover it).
var monthSteps = []int{1, 2, 3, 6, 12, 24, 60, 120, 240, 600, 1200, 2400, 6000, 12000, 24000, 60000, 120000}

// maxTimeTicks is the most ticks a time axis has: 8 steps of the range
// (the ladder's choice) and its two ends; a bound for the calendar
// steps, whose months are not of equal length.
const maxTimeTicks = 10

// timeTicks returns the time axis' ticks from the local FILETIME begin to
// end (the x axis' end, a float64 as that axis is), as wall clock times
// (wall), and the layout of their labels. The step is the first of the
// ladder (seconds to a week, then calendar months and years) that cuts
// the range into at most 8; ticks fall on multiples of the step (of its
// months from January of year 0). Their number is bounded whatever the
// range, so that a log whose samples lie thousands of years apart still
// gets an axis of a few labels.
func timeTicks(begin int64, end float64) ([]time.Time, string) {
	// The span in whole seconds, computed as a float64: FILETIMEs from 1601
	// to 30828 lie 9.2e18 ticks apart, at the edge of an int64, whose
	// conversion then overflowed into a negative span (a one-second step).
	span := int64(max(0, min((end-float64(begin))/10_000_000, 1<<62)))
	first := wall(begin)
	var ticks []time.Time
	for _, s := range timeSteps {
		if span/s > 8 {
			continue
		}
		step := time.Duration(s) * time.Second
		t := first.Truncate(step)
		if t.Before(first) {
			t = t.Add(step)
		}
		for ; float64(fileTime(t)) <= end && len(ticks) < maxTimeTicks; t = t.Add(step) {
			ticks = append(ticks, t)
		}
		layout := "15:04"
		switch {
		case s < 60:
			layout = "15:04:05"
		case span > 86400:
			layout = "01-02 15:04"
		}
		return ticks, layout
	}
	const month = 2_629_746 // seconds: an average Gregorian month
	m := monthSteps[len(monthSteps)-1]
	for _, s := range monthSteps {
		if span/(int64(s)*month) <= 8 {
			m = s
			break
		}
	}
	// the first month (of a multiple of m months since year 0) not
	// before first
	n := int64(first.Year())*12 + int64(first.Month()) - 1
	n -= n % int64(m)
	if n < 0 {
		n += int64(m) // years before 0 never come from a FILETIME
	}
	for ; len(ticks) < maxTimeTicks; n += int64(m) {
		t := time.Date(int(n/12), time.Month(n%12+1), 1, 0, 0, 0, 0, time.UTC)
		if t.Before(first) {
			continue
		}
		if float64(fileTime(t)) > end {
			break
		}
		ticks = append(ticks, t)
	}
	if m < 12 {
		return ticks, "2006-01"
	}
	return ticks, "2006"
}

// fileTime is wall's inverse: the FILETIME of a wall clock time, valid
// over a FILETIME's whole range (time.Time's UnixNano is not beyond
// 2262).
func fileTime(t time.Time) int64 {
	return t.Unix()*10_000_000 + int64(t.Nanosecond()/100) + fileTimeUnix
}

// chartSVG draws one chart: the bands of c behind the series' lines (each
// a translucent min/max envelope per pixel column under a line through
// its middle; a series whose columns each hold one value is a plain
// line), a time axis from the report's first to its last sample and a
// value axis. colours gives each series' colour, in order.
func chartSVG(b *strings.Builder, r *analysis.Report, c *analysis.Chart, series []*analysis.Series, title string) {
	lo, hi, step := valueRange(series, c)
	y := axis{lo, hi, padT + plotH, padT}
	begin, end := float64(r.Begin), float64(r.End)
	if end <= begin {
		end = begin + 1e7
	}
	x := axis{begin, end, padL, padL + plotW}
	b.WriteString(`<svg class="chart" viewBox="0 0 ` + itoa(chartW) + ` ` + itoa(chartH) + `" role="img" aria-label="` + esc(title) + `" preserveAspectRatio="xMidYMid meet">`)
	b.WriteString(`<title>` + esc(title) + `</title>`)
	b.WriteString(`<rect class="plot" x="` + itoa(padL) + `" y="` + itoa(padT) + `" width="` + itoa(plotW) + `" height="` + itoa(plotH) + `"/>`)
	// bands, critical last (on top); a band beyond the values (wholly
	// above the axis' top or below its bottom) is marked at that edge
	var above, below []analysis.Band
	if c != nil {
		for _, cond := range []analysis.Condition{analysis.Warning, analysis.Critical} {
			for _, band := range c.Bands {
				if band.Condition != cond {
					continue
				}
				bl, bh := band.Min, band.Max
				if band.UseMax {
					if band.GreaterThan {
						bh = math.Max(hi, bl)
					} else {
						bl = math.Min(lo, bh)
					}
				}
				if !finite(bl) || !finite(bh) || bh < bl {
					continue
				}
				switch {
				case bl >= hi && bh > bl || bl > hi:
					above = append(above, band)
					continue
				case bh <= lo && bh > bl || bh < lo:
					below = append(below, band)
					continue
				}
				bl, bh = math.Max(bl, lo), math.Min(bh, hi)
				if bh <= bl {
					continue
				}
				cls := "band-warning"
				if cond == analysis.Critical {
					cls = "band-critical"
				}
				y0, y1 := y.at(bh), y.at(bl)
				b.WriteString(`<rect class="` + cls + `" x="` + itoa(padL) + `" y="` + ftoa(y0) + `" width="` + itoa(plotW) + `" height="` + ftoa(y1-y0) + `"><title>` +
					conditionName(cond) + ": " + esc(num(band.Min)) + " – " + esc(bandTop(band)) + `</title></rect>`)
			}
		}
		// strips 3 units high, the last (critical) at the edge, the
		// others stacked inwards
		for i, band := range above {
			b.WriteString(`<rect class="edge-` + conditionClass(band.Condition) + `" x="` + itoa(padL) + `" y="` + itoa(padT+3*(len(above)-1-i)) + `" width="` + itoa(plotW) + `" height="3"/>`)
		}
		for i, band := range below {
			b.WriteString(`<rect class="edge-` + conditionClass(band.Condition) + `" x="` + itoa(padL) + `" y="` + itoa(padT+plotH-3-3*(len(below)-1-i)) + `" width="` + itoa(plotW) + `" height="3"/>`)
		}
	}
	// value grid and labels
	// (at most maxValueTicks: a step too small to move v, from a range
	// beyond float64's, ends there)
	for v, n := lo, 0; v <= hi+step/2 && n < maxValueTicks; v, n = v+step, n+1 {
		yy := ftoa(y.at(v))
		b.WriteString(`<line class="grid" x1="` + itoa(padL) + `" x2="` + itoa(padL+plotW) + `" y1="` + yy + `" y2="` + yy + `"/>`)
		b.WriteString(`<text class="ylab" x="` + itoa(padL-4) + `" y="` + yy + `" dy="0.32em">` + esc(num(v)) + `</text>`)
	}
	// time grid and labels
	ticks, layout := timeTicks(r.Begin, end)
	for _, t := range ticks {
		xx := ftoa(x.at(float64(fileTime(t))))
		b.WriteString(`<line class="grid" x1="` + xx + `" x2="` + xx + `" y1="` + itoa(padT) + `" y2="` + itoa(padT+plotH) + `"/>`)
		b.WriteString(`<text class="xlab" x="` + xx + `" y="` + itoa(padT+plotH+16) + `">` + t.Format(layout) + `</text>`)
	}
	// series; the envelopes lighter the more they are, so that they never
	// add up to a solid band
	envOpacity := strconv.FormatFloat(math.Max(0.06, math.Min(0.2, 0.4/float64(len(series)))), 'f', 2, 64)
	for i, s := range series {
		col := palette[i%len(palette)]
		envelope := false
		for _, p := range s.Chart {
			if p.Max != p.Min {
				envelope = true
				break
			}
		}
		var run []column // the columns since the last gap
		var buf []byte
		flush := func() {
			if len(run) == 0 {
				return
			}
			buf = buf[:0]
			if envelope {
				buf = append(buf, `<polygon class="env" fill="`+col+`" fill-opacity="`+envOpacity+`" points="`...)
				for k, c := range run {
					if k > 0 {
						buf = append(buf, ' ')
					}
					buf = appendXY(buf, c.x, c.hi)
				}
				for k := len(run) - 1; k >= 0; k-- {
					buf = append(buf, ' ')
					buf = appendXY(buf, run[k].x, run[k].lo)
				}
				buf = append(buf, `"/>`...)
			}
			if len(run) == 1 {
				buf = append(buf, `<circle fill="`+col+`" r="2" cx="`...)
				buf = appendCoord(buf, run[0].x)
				buf = append(buf, `" cy="`...)
				buf = appendCoord(buf, run[0].mid)
				buf = append(buf, `"/>`...)
			} else {
				buf = append(buf, `<polyline class="line" stroke="`+col+`" points="`...)
				for k, c := range run {
					if k > 0 {
						buf = append(buf, ' ')
					}
					buf = appendXY(buf, c.x, c.mid)
				}
				buf = append(buf, `"/>`...)
			}
			b.Write(buf)
			run = run[:0]
		}
		b.WriteString(`<g><title>` + esc(s.Path) + `</title>`)
		for _, p := range s.Chart {
			if !finite(p.Min) || !finite(p.Max) {
				flush() // a gap: no value there
				continue
			}
			run = append(run, column{x.at(midpoint(p.Start, p.End)), y.at(p.Min), y.at(p.Avg), y.at(p.Max)})
		}
		flush()
		b.WriteString(`</g>`)
	}
	// the labels of the bands beyond the values, over the lines
	edgeLabel(b, above, "▲ ", " (above the values)", padT+16)
	edgeLabel(b, below, "▼ ", " (below the values)", padT+plotH-8)
	b.WriteString(`<rect class="frame" x="` + itoa(padL) + `" y="` + itoa(padT) + `" width="` + itoa(plotW) + `" height="` + itoa(plotH) + `"/>`)
	b.WriteString("</svg>\n")
}

// edgeLabel writes the label of the bands beyond one edge of the values,
// at the plot's right end at y: "▲ Warning 50 – 80 · Critical ≥ 80 (above
// the values)", each band in its condition's colour, so that a reader sees
// the thresholds the values stay far from.
func edgeLabel(b *strings.Builder, bands []analysis.Band, lead, tail string, y int) {
	if len(bands) == 0 {
		return
	}
	b.WriteString(`<text class="edge" x="` + itoa(padL+plotW-6) + `" y="` + itoa(y) + `">` + lead)
	for i, band := range bands {
		if i > 0 {
			b.WriteString(" · ")
		}
		b.WriteString(`<tspan class="edge-` + conditionClass(band.Condition) + `">` + conditionName(band.Condition) + " " + esc(bandRange(band)) + `</tspan>`)
	}
	b.WriteString(tail + `</text>`)
}

// bandRange writes a band's range: "50 – 80", "≥ 80" for one that extends
// to the largest value, "≤ 10" for one that extends to the smallest.
func bandRange(band analysis.Band) string {
	switch {
	case band.UseMax && band.GreaterThan:
		return "≥ " + num(band.Min)
	case band.UseMax:
		return "≤ " + num(band.Max)
	}
	return num(band.Min) + " – " + num(band.Max)
}

// midpoint is the middle of the FILETIMEs a and b: (a+b)/2, each halved
// first where their sum is beyond an int64 (FILETIMEs after the year
// 16,200).
func midpoint(a, b int64) float64 {
	if sum := a + b; (sum > a) == (b > 0) {
		return float64(sum) / 2
	}
	return float64(a)/2 + float64(b)/2
}

// column is one chart point's pixel column: its x and the y of its min,
// mean and max.
type column struct{ x, lo, mid, hi float64 }

// appendCoord appends a coordinate with one decimal.
func appendCoord(dst []byte, v float64) []byte {
	if !finite(v) || math.Abs(v) > 1e9 {
		v = 0 // never in a chart of 960 × 260
	}
	n := int64(math.Round(v * 10))
	if n < 0 {
		dst = append(dst, '-')
		n = -n
	}
	dst = strconv.AppendInt(dst, n/10, 10)
	return append(dst, '.', byte('0'+n%10))
}

// appendXY appends "x,y".
func appendXY(dst []byte, x, y float64) []byte {
	dst = appendCoord(dst, x)
	dst = append(dst, ',')
	return appendCoord(dst, y)
}

// bandTop writes a band's upper end: its Max, or "max" for a band that
// extends to the chart's largest value.
func bandTop(band analysis.Band) string {
	if band.UseMax && band.GreaterThan {
		return "max"
	}
	return num(band.Max)
}

func itoa(n int) string { return strconv.Itoa(n) }

// ftoa writes a coordinate with one decimal.
func ftoa(v float64) string {
	if !finite(v) {
		v = 0
	}
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}
