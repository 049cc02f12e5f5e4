// Package analysis answers what was wrong with a machine from its
// performance log: it runs threshold analyses (perfcalc's own defaults, or
// PAL's threshold files read by package palxml) over the values of a log,
// cut into time slices, and reports statistics and alerts.
//
// The model, read from PAL's threshold files or written in Go (Defaults), is
// a Set of Analysis; each names its counters (Datasource), the limits they
// must not cross (Threshold) and the bands drawn behind its charts (Band).
// Run computes a Report from a relog.Converter: per matched counter
// instance, statistics per time slice and overall, and one Alert per
// (analysis, slice, counter instance) that broke a threshold, as
// doc/ANALYSIS.md states. Options.PALCompat reproduces PAL's
// numbers, its defects included (doc/ANALYSIS.md lists every difference).
//
// The package imports only the standard library, without fmt and os: the
// WebAssembly module links it. The report's JSON (Report.AppendJSON) is the
// one form shared by the command, the module, the JS and the Python
// packages.
package analysis

import "github.com/perfcalc/perfcalc/engine/counterpath"

// Condition is how bad a threshold's breach is; the zero value is OK.
type Condition uint8

// The conditions, in increasing severity.
const (
	OK Condition = iota
	Warning
	Critical
)

// Operator compares a statistic with a threshold's value.
type Operator uint8

// The operators of PAL's StaticThreshold (-Operator gt, ge, lt, le, eq,
// ne).
const (
	Greater Operator = iota
	GreaterEqual
	Less
	LessEqual
	Equal
	// NotEqual is PAL's ne: ≠ by default; with Options.PALCompat it acts as
	// Greater, as in PAL (whose StaticThreshold treats any operator it does
	// not know as gt).
	NotEqual
)

// DatasourceKind says where a Datasource's series come from.
type DatasourceKind uint8

// The datasource kinds.
const (
	// CounterLog series are the log's columns that match the
	// datasource's path.
	CounterLog DatasourceKind = iota
	// Generated series are computed from other datasources' series
	// (Datasource.Formula).
	Generated
)

// Datasource is one set of series of an analysis: the log's counter
// instances that match a path, or series computed from others.
type Datasource struct {
	// Name is the datasource's name (PAL's NAME attribute, a counter path
	// such as \Processor(*)\% Processor Time); thresholds and charts refer
	// to the datasource by it or by Var.
	Name string
	// Var is PAL's COLLECTIONVARNAME ("" for perfcalc's own analyses).
	Var  string
	Kind DatasourceKind
	// Path is the counter path that CounterLog columns must match: object
	// and counter equal under PDH's case-insensitive comparison, the
	// instance "*" (or none) matching every instance, otherwise equal.
	// The machine is ignored.
	Path counterpath.Path
	// ObjectRegexp, when not "", replaces the match of Path.Object: a
	// case-insensitive, unanchored regular expression (PAL's
	// ISCOUNTEROBJECTREGULAREXPRESSION), in the syntax of package
	// analysis/objre (a subset of Go's regexp), which matches it.
	ObjectRegexp string
	// Exclude lists instance names left out (exact, case-insensitive).
	Exclude []string
	// Round is the number of decimals values are rounded to (half to
	// even) before statistics, or -1 for none (PAL's DATATYPE: integer is
	// 0, round1 … round6 are 1 … 6).
	Round int
	// Formula computes a Generated datasource's series, one per instance
	// of its first operand; nil for CounterLog.
	Formula *Formula
}

// Formula is a Generated datasource's computation: for each instance, the
// value of the first operand op the value of the second (or Constant when
// Right is ""), times Scale. The generated series that recur in PAL's
// files have this form (network utilisation: Bytes Total/sec × 8 ÷ Current
// Bandwidth × 100).
type Formula struct {
	Left, Right string // datasource names (Right "" for a constant)
	Op          byte   // '+', '-', '*' or '/'
	Constant    float64
	Scale       float64
	// Integer rounds each computed value half to even to an integer
	// (PAL's [int] cast in the generating code), before Round.
	Integer bool
	// PerSlice: PAL computes the value once per time slice from the
	// operands' slice means (its QuantizedAvg), not per sample (network
	// utilisation and the TMG percentages do; the SQL Server ratios use
	// the samples).
	PerSlice bool
}

// Threshold is one limit of an analysis: the condition raised where a
// statistic of a slice (its min, mean and max, or its trend alone)
// compared with Value by Operator holds.
type Threshold struct {
	Name      string
	Condition Condition
	Priority  int
	// Datasource is the name of the datasource the threshold tests.
	Datasource string
	Operator   Operator
	Value      float64
	// TrendOnly tests the slice's hourly trend instead of its min, mean
	// and max (PAL's -IsTrendOnly $True).
	TrendOnly bool
	// Count, when not nil, computes Value from the log: from the number of
	// counter instances of a datasource on the machine (PAL's thresholds
	// per processor). Run sets Value and leaves Count nil in the
	// Result's copy of the analysis.
	Count *Count
}

// Count makes a threshold's value, or a band's bounds, depend on the log:
// the number of counter instances of a datasource (PAL's
// $CollectionOfProcessorPercentProcessorTime.Count, from which its code
// computes the processor count as the count less one, for _Total).
//
// Run gives Eval, per machine, the number of the datasource's series on the
// machine other than _Total, plus one (the collection as PAL's code
// assumes it: _Total beside each processor), whether or not the log has
// _Total and the datasource excludes it; with Options.PALCompat, PAL's
// count: the series with values of the first analysis run (in the set's
// order) with a datasource of the same Var, on every machine (PAL's
// collections are global variables, kept from their first definition).
type Count struct {
	// Datasource is the name of the datasource whose instances are
	// counted.
	Datasource string
	// Eval returns the value for a count n: a threshold's Value (and 0),
	// or a band's Min and Max; an error where the code cannot compute
	// them for n.
	Eval func(n int) (float64, float64, error)
}

// Band is a coloured band drawn behind a chart, from Min to Max; with
// UseMax it extends to the largest max of the chart's series (or, when
// not GreaterThan, down to the smallest min).
type Band struct {
	Condition   Condition
	Min, Max    float64
	UseMax      bool
	GreaterThan bool
	// Count, when not nil, computes Min and Max from the log, as a
	// Threshold's.
	Count *Count
}

// Chart is one chart of an analysis: a datasource's series with bands.
type Chart struct {
	Title      string
	Datasource string
	// MaxLimit is the chart's top, 0 for the largest value.
	MaxLimit float64
	Bands    []Band
}

// Unsupported is a threshold (or datasource) that could not be evaluated,
// with the reason; reports list them, never drop them silently.
type Unsupported struct {
	Analysis string // the analysis' name
	What     string // the threshold's or datasource's name
	Reason   string
	// Element is the threshold file's element that was not evaluated:
	// "THRESHOLD", "DATASOURCE" (a Generated one, kept without Formula),
	// "SERIES" (a chart band) or "ANALYSIS" (left out of the Set: a
	// datasource's path or regular expression is unreadable); "" for
	// others.
	Element string
}

// Analysis is one question asked of a log: its datasources, thresholds
// and charts (PAL's ANALYSIS element).
type Analysis struct {
	ID          string
	Name        string
	Category    string
	Enabled     bool
	Primary     string // the primary datasource's name
	Description string // HTML, as the threshold file gives it
	Datasources []Datasource
	Thresholds  []Threshold
	Charts      []Chart
	// Reference says where a default analysis' thresholds come from
	// (perfcalc's own analyses; "" for PAL's).
	Reference string
	// CoveredBy lists counter paths that another analysis reads: the
	// series of a machine whose log has a counter matching one of them
	// (as a CounterLog datasource's Path matches) are left out, and an
	// analysis left without series is skipped with the reason (perfcalc's
	// Available Bytes where Available MBytes is logged, which would
	// alert twice).
	CoveredBy []counterpath.Path
}

// Question is a threshold file's variable (PAL's QUESTION): its value is
// Default unless set (Set.Values).
type Question struct {
	Var     string
	Type    string // boolean, integer, string or options
	Default string
	Options []string
	Prompt  string
	// HasDefault is false for a question that must be set (options).
	HasDefault bool
}

// Set is what analyze runs: analyses, the questions they were evaluated
// with, and what could not be evaluated.
type Set struct {
	// Name is the set's name (a threshold file's NAME, or "perfcalc").
	Name      string
	Analyses  []Analysis
	Questions []Question
	// Values are the question variables' values used (defaults and
	// --set), by variable name.
	Values      map[string]string
	Unsupported []Unsupported
}

// Options tune Run.
type Options struct {
	// Interval is the slices' length in seconds; 0 is automatic (the
	// log's duration ÷ 30, rounded half to even, at least 1).
	Interval int64
	// PALCompat reproduces PAL's numbers, quirks included.
	PALCompat bool
	// Spill, when not nil, takes the values beyond Budget (a temporary
	// file; the report is the same with or without it); nil keeps every
	// value in memory.
	Spill SpillFile
	// Budget is the bytes of values Run keeps in memory when Spill is set;
	// 0 or less means DefaultBudget.
	Budget int
	// NoCharts leaves every Series.Chart empty, for a report that prints
	// no chart (the text summary): 40 bytes a point (at most ChartPoints)
	// less per series; the rest of the report is the same.
	NoCharts bool
}

// Stats are the statistics of one series over a slice or the whole log.
// Min, Avg and Max are those of the valid values (N of them); with N = 0
// they are 0 and the series has no value there.
type Stats struct {
	N             int
	Min, Avg, Max float64
	// Trend is the hourly trend (ANALYSIS.md §3): for a slice, the change
	// of its mean since the first slice's per hour; overall, the last
	// slice's.
	Trend float64
}

// Overall are a series' statistics over the whole log.
type Overall struct {
	Stats
	StdDev float64
	// Trimmed are the means without the highest 10, 20 and 30 % of
	// values (PAL's "outliers removed"), Percentiles the 90th, 95th and
	// 99th percentiles (nearest rank).
	Trimmed     [3]float64
	Percentiles [3]float64
	Condition   Condition // the worst threshold the overall figures break
	// NoThresholds is set where the series' datasource has no threshold
	// (PAL's "No Thresholds"; Condition is then OK).
	NoThresholds bool
}

// Point is one pixel column of a chart: the smallest, mean and largest
// value of the samples from Start to End (local FILETIMEs).
type Point struct {
	Start, End    int64
	Min, Avg, Max float64
}

// Series is one matched counter instance of an analysis' datasource.
type Series struct {
	Datasource string
	// Path is the counter instance's full path as relog prints it, and
	// Parts its parts.
	Path    string
	Parts   counterpath.Path
	Overall Overall
	Slices  []Stats // one per Report.Slices
	// Chart is the series downsampled to at most Report.ChartPoints
	// points: a min/max envelope.
	Chart []Point
}

// Alert is one (analysis, slice, counter instance) whose statistics broke
// a threshold: the worst condition (by priority) among the thresholds it
// broke.
type Alert struct {
	Analysis string // the analysis' name
	// ID is the analysis' ID (PAL's ANALYSIS ID, a default analysis'
	// key): with the name, it tells apart analyses of the same name in
	// joined threshold files.
	ID string
	// Datasource is the name of the datasource of the alert's series
	// (Series.Datasource).
	Datasource string
	Category   string
	Condition  Condition
	Priority   int
	Threshold  string // the name of the threshold that set the condition
	Path       string
	Slice      int
	// Start and End are the slice's bounds (local FILETIMEs; the report
	// prints them as ISO 8601 UTC with the log's time zone).
	Start, End           int64
	Min, Avg, Max, Trend float64
}

// Slice is one time slice: the samples from Start to End (local FILETIMEs,
// both included).
type Slice struct {
	Start, End int64
	Samples    int
}

// Result is one analysis' outcome.
type Result struct {
	Analysis *Analysis
	Series   []Series
	// Skipped says why the analysis was not run ("" when it was): a
	// datasource matched nothing, or it is disabled.
	Skipped string
}

// Report is what Run returns.
type Report struct {
	// Machine is the machine the log's columns name (the first one).
	Machine string
	// Begin and End are the first and last samples' local FILETIMEs;
	// Bias the log's time zone bias in minutes (UTC = local + Bias).
	Begin, End int64
	Bias       int32
	Samples    int
	Interval   int64 // seconds
	Slices     []Slice
	Results    []Result
	Alerts     []Alert // in time order, then by analysis and path
	Set        *Set
	PALCompat  bool
	// Unsupported lists what was not evaluated: the set's Unsupported,
	// then what Run found it could not compute (a generated datasource
	// naming an unknown datasource, a threshold of an unknown datasource).
	Unsupported []Unsupported
	// ChartPoints is the most points of a Series.Chart.
	ChartPoints int
	// Identity is "pid" when the log's Process and Thread instances were
	// paired by process ID (identity.PID, set by the caller, as
	// perfcalc analyze --identity pid does), and IdentityBreaks the
	// number of identity breaks that avoided (relog.Converter's); ""
	// and 0 otherwise, and the JSON report then leaves them out.
	Identity       string
	IdentityBreaks int64
}
