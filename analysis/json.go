package analysis

import (
	"io"
	"math"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/logtext"
)

// conditionNames are the conditions as reports print them.
var conditionNames = [...]string{"OK", "Warning", "Critical"}

// conditionName returns OK, Warning or Critical. (Not a String method: the
// other parts of issue 24 are written in parallel and may add one.)
func conditionName(c Condition) string {
	if int(c) < len(conditionNames) {
		return conditionNames[c]
	}
	return "Condition(" + strconv.Itoa(int(c)) + ")"
}

// operatorNames are PAL's names of the operators.
var operatorNames = [...]string{"gt", "ge", "lt", "le", "eq", "ne"}

// operatorName returns PAL's name of the operator: gt, ge, lt, le, eq or
// ne.
func operatorName(o Operator) string {
	if int(o) < len(operatorNames) {
		return operatorNames[o]
	}
	return "Operator(" + strconv.Itoa(int(o)) + ")"
}

// AppendISOTime appends the local FILETIME ft of a log whose bias is bias
// minutes (UTC = local + bias) as ISO 8601 UTC:
// 2013-02-20T02:50:17.844Z.
func AppendISOTime(dst []byte, ft int64, bias int32) []byte {
	u := satAdd(ft, int64(bias)*60*ticksPerSecond)
	return append(logtext.AppendISOTime(dst, u), 'Z')
}

// jsonWriter appends the members of JSON objects: to b, and, with out
// (WriteJSON, WriteFleetJSON), writes b to out in pieces of about
// jsonPiece bytes as it goes, at the start of an array's element (the
// first error of out kept in err, after which b is dropped).
type jsonWriter struct {
	b     []byte
	first bool
	bias  int32
	out   io.Writer
	err   error
}

// jsonPiece is the size of the pieces WriteJSON writes.
const jsonPiece = 64 << 10

// write writes b to out and empties b.
func (w *jsonWriter) write() {
	if w.err == nil && len(w.b) > 0 {
		_, w.err = w.out.Write(w.b)
	}
	w.b = w.b[:0]
}

//go:noinline
func (w *jsonWriter) key(k string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = logtext.AppendJSONString(w.b, k)
	w.b = append(w.b, ':')
}

//go:noinline
func (w *jsonWriter) open(c byte) { w.b = append(w.b, c); w.first = true }

//go:noinline
func (w *jsonWriter) close(c byte) { w.b = append(w.b, c); w.first = false }

// elem starts an element of an array.
//
//go:noinline
func (w *jsonWriter) elem() {
	if w.out != nil && len(w.b) >= jsonPiece {
		w.write()
	}
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
}

//go:noinline
func (w *jsonWriter) str(k, v string) { w.key(k); w.b = logtext.AppendJSONString(w.b, v) }

//go:noinline
func (w *jsonWriter) int(k string, v int64) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, v, 10)
}

//go:noinline
func (w *jsonWriter) bool(k string, v bool) { w.key(k); w.b = strconv.AppendBool(w.b, v) }

//go:noinline
func (w *jsonWriter) num(k string, v float64) {
	w.key(k)
	w.b = appendNumber(w.b, v)
}

//go:noinline
func (w *jsonWriter) time(k string, ft int64) {
	w.key(k)
	w.b = append(w.b, '"')
	w.b = AppendISOTime(w.b, ft, w.bias)
	w.b = append(w.b, '"')
}

// appendNumber appends v as the shortest decimal that reads back as the
// same float64 (null for NaN and ±Inf, which reports never hold).
func appendNumber(dst []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(dst, "null"...)
	}
	if v == 0 {
		return append(dst, '0') // −0 too
	}
	return engine.AppendFloat(dst, v, engine.ShortestDigits)
}

// alert writes one alert object.
func (w *jsonWriter) alert(machine string, a *Alert) {
	w.open('{')
	w.str("machine", machine)
	w.str("analysis", a.Analysis)
	w.str("id", a.ID)
	w.str("datasource", a.Datasource)
	w.str("category", a.Category)
	w.str("condition", conditionName(a.Condition))
	w.int("priority", int64(a.Priority))
	w.str("threshold", a.Threshold)
	w.str("path", a.Path)
	w.int("slice", int64(a.Slice))
	w.time("start", a.Start)
	w.time("end", a.End)
	w.num("min", a.Min)
	w.num("avg", a.Avg)
	w.num("max", a.Max)
	w.num("trend", a.Trend)
	w.close('}')
}

// AppendFleetJSON appends the reports of several machines as one JSON
// object: "alerts", every machine's alerts in time order (UTC start, then
// the machine, then each report's own order; the same objects as in the
// machines' reports), and "machines", the reports as AppendJSON writes
// them (doc/ANALYSIS.md §6).
func AppendFleetJSON(dst []byte, reports []*Report) []byte {
	w := &jsonWriter{b: dst}
	fleetJSON(w, reports)
	return w.b
}

// WriteFleetJSON writes what AppendFleetJSON appends to out, in pieces of
// about 64 KiB as it goes, and returns the first error of out.
func WriteFleetJSON(out io.Writer, reports []*Report) error {
	w := &jsonWriter{b: make([]byte, 0, jsonPiece+jsonPiece/4), out: out}
	fleetJSON(w, reports)
	w.write()
	return w.err
}

// fleetJSON writes the fleet object with w (AppendFleetJSON).
func fleetJSON(w *jsonWriter, reports []*Report) {
	type ref struct {
		r *Report
		i int
	}
	var all []ref
	for _, r := range reports {
		for i := range r.Alerts {
			all = append(all, ref{r, i})
		}
	}
	utc := func(x ref) int64 { return x.r.Alerts[x.i].Start + int64(x.r.Bias)*600_000_000 }
	// Insertion into place keeps the order stable without package sort's
	// generic code (the module's size).
	for k := 1; k < len(all); k++ {
		for j := k; j > 0; j-- {
			a, b := all[j-1], all[j]
			if ua, ub := utc(a), utc(b); ua < ub || ua == ub && a.r.Machine <= b.r.Machine {
				break
			}
			all[j-1], all[j] = b, a
		}
	}
	w.open('{')
	w.key("alerts")
	w.open('[')
	for _, x := range all {
		w.bias = x.r.Bias
		w.elem()
		w.alert(x.r.Machine, &x.r.Alerts[x.i])
	}
	w.close(']')
	w.key("machines")
	w.open('[')
	for _, r := range reports {
		w.elem()
		r.json(w)
	}
	w.close(']')
	w.close('}')
}

// AppendJSON appends the report as one JSON object to dst, the form the
// command (-f json), the module, the JS and the Python packages share;
// doc/ANALYSIS.md documents its schema. The output is deterministic: the
// same report gives the same bytes on every host. Times are ISO 8601 UTC
// (the log's local FILETIMEs plus its bias), numbers the shortest decimal
// that reads back exactly.
func (r *Report) AppendJSON(dst []byte) []byte {
	w := &jsonWriter{b: dst}
	r.json(w)
	return w.b
}

// WriteJSON writes what AppendJSON appends to out, in pieces of about
// 64 KiB as it goes (the report is never held whole as bytes), and
// returns the first error of out.
func (r *Report) WriteJSON(out io.Writer) error {
	w := &jsonWriter{b: make([]byte, 0, jsonPiece+jsonPiece/4), out: out}
	r.json(w)
	w.write()
	return w.err
}

// json writes the report's object with w (AppendJSON).
func (r *Report) json(w *jsonWriter) {
	w.bias = r.Bias
	w.open('{')
	w.key("parameters")
	w.open('{')
	w.str("machine", r.Machine)
	w.time("begin", r.Begin)
	w.time("end", r.End)
	w.int("bias", int64(r.Bias))
	w.int("samples", int64(r.Samples))
	w.int("interval", r.Interval)
	w.bool("palCompat", r.PALCompat)
	w.int("chartPoints", int64(r.ChartPoints))
	if r.Identity != "" {
		w.str("identity", r.Identity)
		w.int("identityBreaks", r.IdentityBreaks)
	}
	name := ""
	var values map[string]string
	if r.Set != nil {
		name, values = r.Set.Name, r.Set.Values
	}
	w.str("set", name)
	w.key("values")
	w.open('{')
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sortStrings(keys)
	for _, k := range keys {
		w.str(k, values[k])
	}
	w.close('}')
	w.close('}')

	w.key("slices")
	w.open('[')
	for i, s := range r.Slices {
		w.elem()
		w.open('{')
		w.int("index", int64(i))
		w.time("start", s.Start)
		w.time("end", s.End)
		w.int("samples", int64(s.Samples))
		w.close('}')
	}
	w.close(']')

	w.key("alerts")
	w.open('[')
	for i := range r.Alerts {
		w.elem()
		w.alert(r.Machine, &r.Alerts[i])
	}
	w.close(']')

	w.key("analyses")
	w.open('[')
	for i := range r.Results {
		w.elem()
		r.appendResult(w, &r.Results[i])
	}
	w.close(']')

	w.key("unsupported")
	w.open('[')
	for _, u := range r.Unsupported {
		w.elem()
		w.open('{')
		w.str("analysis", u.Analysis)
		w.str("what", u.What)
		w.str("reason", u.Reason)
		w.str("element", u.Element)
		w.close('}')
	}
	w.close(']')
	w.close('}')
}

// appendResult appends one analysis' object.
func (r *Report) appendResult(w *jsonWriter, res *Result) {
	a := res.Analysis
	if a == nil {
		a = &Analysis{}
	}
	w.open('{')
	w.str("name", a.Name)
	w.str("category", a.Category)
	w.str("id", a.ID)
	w.str("skipped", res.Skipped)
	w.str("description", a.Description)
	w.str("reference", a.Reference)
	w.key("thresholds")
	w.open('[')
	for _, t := range a.Thresholds {
		w.elem()
		w.open('{')
		w.str("name", t.Name)
		w.str("condition", conditionName(t.Condition))
		w.int("priority", int64(t.Priority))
		w.str("datasource", t.Datasource)
		w.str("operator", operatorName(t.Operator))
		if t.Count != nil {
			// Computed from a count, in an analysis that was not run.
			w.key("value")
			w.b = append(w.b, "null"...)
		} else {
			w.num("value", t.Value)
		}
		w.bool("trendOnly", t.TrendOnly)
		w.close('}')
	}
	w.close(']')
	w.key("charts")
	w.open('[')
	for _, c := range a.Charts {
		w.elem()
		w.open('{')
		w.str("title", c.Title)
		w.str("datasource", c.Datasource)
		w.num("maxLimit", c.MaxLimit)
		w.key("bands")
		w.open('[')
		for _, b := range c.Bands {
			w.elem()
			w.open('{')
			w.str("condition", conditionName(b.Condition))
			if b.Count != nil {
				w.key("min")
				w.b = append(w.b, "null"...)
				w.key("max")
				w.b = append(w.b, "null"...)
			} else {
				w.num("min", b.Min)
				w.num("max", b.Max)
			}
			w.bool("useMax", b.UseMax)
			w.bool("greaterThan", b.GreaterThan)
			w.close('}')
		}
		w.close(']')
		w.close('}')
	}
	w.close(']')
	w.key("series")
	w.open('[')
	for i := range res.Series {
		s := &res.Series[i]
		o := &s.Overall
		w.elem()
		w.open('{')
		w.str("path", s.Path)
		w.str("datasource", s.Datasource)
		cond := conditionName(o.Condition)
		if o.NoThresholds {
			cond = "No Thresholds"
		}
		w.str("condition", cond)
		r.appendStats(w, &o.Stats)
		for j, k := range [...]string{"stddev", "trimmed10", "trimmed20", "trimmed30", "p90", "p95", "p99"} {
			v := [...]float64{o.StdDev, o.Trimmed[0], o.Trimmed[1], o.Trimmed[2], o.Percentiles[0], o.Percentiles[1], o.Percentiles[2]}[j]
			if o.N == 0 {
				w.key(k)
				w.b = append(w.b, "null"...)
				continue
			}
			w.num(k, v)
		}
		w.key("slices")
		w.open('[')
		for j := range s.Slices {
			w.elem()
			w.open('{')
			r.appendStats(w, &s.Slices[j])
			w.close('}')
		}
		w.close(']')
		w.key("chart")
		w.open('[')
		for _, p := range s.Chart {
			w.elem()
			w.b = append(w.b, '[', '"')
			w.b = AppendISOTime(w.b, p.Start, r.Bias)
			w.b = append(w.b, '"', ',', '"')
			w.b = AppendISOTime(w.b, p.End, r.Bias)
			w.b = append(w.b, '"', ',')
			w.b = appendNumber(w.b, p.Min)
			w.b = append(w.b, ',')
			w.b = appendNumber(w.b, p.Avg)
			w.b = append(w.b, ',')
			w.b = appendNumber(w.b, p.Max)
			w.b = append(w.b, ']')
		}
		w.close(']')
		w.close('}')
	}
	w.close(']')
	w.close('}')
}

// appendStats appends n, min, avg, max and trend: null for a series
// without values there (PAL's figures for an empty slice in compat mode).
func (r *Report) appendStats(w *jsonWriter, s *Stats) {
	w.int("n", int64(s.N))
	for i, k := range [...]string{"min", "avg", "max", "trend"} {
		v := [...]float64{s.Min, s.Avg, s.Max, s.Trend}[i]
		if s.N == 0 && !r.PALCompat {
			w.key(k)
			w.b = append(w.b, "null"...)
			continue
		}
		w.num(k, v)
	}
}
