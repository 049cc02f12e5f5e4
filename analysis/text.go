package analysis

import (
	"math"
	"strconv"

	"github.com/perfcalc/perfcalc/engine/termtext"
)

// TextWorst is the most alerts AppendText lists as the worst slices.
const TextWorst = 20

// AppendText appends a summary of the report for a terminal: the run's
// parameters; per analysis with alerts, its critical and warning counts;
// the worst slices (up to TextWorst alerts, critical before warning, then
// by priority, then in time order: time, condition, analysis, path and
// the slice's min, mean, max and hourly trend); then how many analyses
// were skipped and how many thresholds could not be evaluated. Times are
// ISO 8601 UTC. The text is plain ASCII apart from the names the log and
// the set hold, whose control characters and invisible or bidirectional
// runes are escaped (termtext.AppendVisible); lines end in \n.
func (r *Report) AppendText(dst []byte) []byte {
	dst = append(dst, "Machine "...)
	dst = termtext.AppendVisible(dst, r.Machine)
	dst = append(dst, ", "...)
	dst = AppendISOTime(dst, r.Begin, r.Bias)
	dst = append(dst, " to "...)
	dst = AppendISOTime(dst, r.End, r.Bias)
	dst = append(dst, ", "...)
	dst = strconv.AppendInt(dst, int64(r.Samples), 10)
	dst = append(dst, " samples, "...)
	dst = strconv.AppendInt(dst, int64(len(r.Slices)), 10)
	dst = append(dst, " slices of "...)
	dst = strconv.AppendInt(dst, r.Interval, 10)
	dst = append(dst, " s"...)
	if r.PALCompat {
		dst = append(dst, " (PAL-compatible)"...)
	}
	dst = append(dst, '\n')
	if r.Set != nil && r.Set.Name != "" {
		dst = append(dst, "Thresholds: "...)
		dst = termtext.AppendVisible(dst, r.Set.Name)
		keys := make([]string, 0, len(r.Set.Values))
		for k := range r.Set.Values {
			keys = append(keys, k)
		}
		sortStrings(keys)
		for i, k := range keys {
			if i == 0 {
				dst = append(dst, " ("...)
			} else {
				dst = append(dst, ", "...)
			}
			dst = termtext.AppendVisible(dst, k)
			dst = append(dst, '=')
			dst = termtext.AppendVisible(dst, r.Set.Values[k])
		}
		if len(keys) > 0 {
			dst = append(dst, ')')
		}
		dst = append(dst, '\n')
	}

	// Counts per analysis, in the set's order.
	type count struct {
		name       string
		crit, warn int
		order      int // first alert's index: no ties
	}
	var counts []count
	type key struct{ name, id string } // two analyses of a name apart
	at := map[key]int{}
	crit, warn := 0, 0
	for _, a := range r.Alerts {
		i, ok := at[key{a.Analysis, a.ID}]
		if !ok {
			i = len(counts)
			at[key{a.Analysis, a.ID}] = i
			counts = append(counts, count{name: a.Analysis, order: i})
		}
		if a.Condition == Critical {
			counts[i].crit++
			crit++
		} else {
			counts[i].warn++
			warn++
		}
	}
	dst = append(dst, '\n')
	dst = strconv.AppendInt(dst, int64(crit), 10)
	dst = append(dst, " critical and "...)
	dst = strconv.AppendInt(dst, int64(warn), 10)
	dst = append(dst, " warning alerts"...)
	if len(counts) > 0 {
		dst = append(dst, " in "...)
		dst = strconv.AppendInt(dst, int64(len(counts)), 10)
		dst = append(dst, " analyses:\n"...)
		heapSort(len(counts), func(i, j int) bool {
			x, y := &counts[i], &counts[j]
			switch {
			case x.crit != y.crit:
				return x.crit > y.crit
			case x.warn != y.warn:
				return x.warn > y.warn
			}
			return x.order < y.order
		}, func(i, j int) { counts[i], counts[j] = counts[j], counts[i] })
		dst = append(dst, "  Critical  Warning  Analysis\n"...)
		for _, c := range counts {
			dst = pad(dst, strconv.Itoa(c.crit), 10)
			dst = pad(dst, strconv.Itoa(c.warn), 9)
			dst = append(dst, "  "...)
			dst = termtext.AppendVisible(dst, c.name)
			dst = append(dst, '\n')
		}
	} else {
		dst = append(dst, ".\n"...)
	}

	if len(r.Alerts) > 0 {
		worst := make([]int, len(r.Alerts))
		for i := range worst {
			worst[i] = i
		}
		heapSort(len(worst), func(x, y int) bool {
			i, j := worst[x], worst[y]
			a, b := &r.Alerts[i], &r.Alerts[j]
			switch {
			case a.Condition != b.Condition:
				return a.Condition > b.Condition
			case a.Priority != b.Priority:
				return a.Priority > b.Priority
			}
			return i < j
		}, func(x, y int) { worst[x], worst[y] = worst[y], worst[x] })
		n := min(len(worst), TextWorst)
		dst = append(dst, "\nWorst slices"...)
		if n < len(worst) {
			dst = append(dst, " (the first "...)
			dst = strconv.AppendInt(dst, int64(n), 10)
			dst = append(dst, " of "...)
			dst = strconv.AppendInt(dst, int64(len(worst)), 10)
			dst = append(dst, ')')
		}
		dst = append(dst, ":\n"...)
		for _, i := range worst[:n] {
			a := &r.Alerts[i]
			dst = append(dst, "  "...)
			dst = AppendISOTime(dst, a.Start, r.Bias)
			dst = append(dst, "  "...)
			dst = append(dst, conditionName(a.Condition)...)
			dst = append(dst, "  "...)
			dst = termtext.AppendVisible(dst, a.Analysis)
			dst = append(dst, "  "...)
			dst = termtext.AppendVisible(dst, a.Path)
			dst = append(dst, "\n      min "...)
			dst = appendReadable(dst, a.Min)
			dst = append(dst, ", avg "...)
			dst = appendReadable(dst, a.Avg)
			dst = append(dst, ", max "...)
			dst = appendReadable(dst, a.Max)
			dst = append(dst, ", trend "...)
			dst = appendReadable(dst, a.Trend)
			dst = append(dst, "/h (slice "...)
			dst = strconv.AppendInt(dst, int64(a.Slice), 10)
			dst = append(dst, ", "...)
			dst = termtext.AppendVisible(dst, a.Threshold)
			dst = append(dst, ")\n"...)
		}
	}

	run, skipped, disabled := 0, 0, 0
	for _, res := range r.Results {
		switch {
		case res.Skipped == "disabled":
			disabled++
		case res.Skipped != "":
			skipped++
		default:
			run++
		}
	}
	dst = append(dst, '\n')
	dst = strconv.AppendInt(dst, int64(run), 10)
	dst = append(dst, " analyses run, "...)
	dst = strconv.AppendInt(dst, int64(skipped), 10)
	dst = append(dst, " skipped (a counter not in the log), "...)
	dst = strconv.AppendInt(dst, int64(disabled), 10)
	dst = append(dst, " disabled; "...)
	dst = strconv.AppendInt(dst, int64(len(r.Unsupported)), 10)
	dst = append(dst, " not evaluated (unsupported)\n"...)
	return dst
}

// pad appends s right-aligned in width columns.
func pad(dst []byte, s string, width int) []byte {
	for n := width - len(s); n > 0; n-- {
		dst = append(dst, ' ')
	}
	return append(dst, s...)
}

// appendReadable appends v for people: at most 3 decimals, no exponent
// below 10^15.
func appendReadable(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, '-')
	}
	if a := math.Abs(v); a >= 1e15 || (a < 1e-3 && a != 0) {
		return strconv.AppendFloat(dst, v, 'g', 6, 64)
	}
	r := math.Round(v*1000) / 1000
	if r == 0 {
		r = 0 // no −0
	}
	return strconv.AppendFloat(dst, r, 'f', -1, 64)
}
