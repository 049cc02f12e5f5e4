package longform

import (
	"strings"

	"github.com/perfcalc/perfcalc/engine"
)

// This file is the one definition of the long table's columns. Everything
// else derives from Fields: the Parquet writer's schema and rows
// (internal/parquetlog), and, through make generate (tools/abigen), the
// column table of the package documentation, the Python package's
// _columns.py (its Arrow and Spark schemas) and the external checks of the
// Parquet output. Adding a column is one more entry here, then make
// generate. (The Python package's read_blg builds its columns' arrays from
// the module's records, in _long.py: a new column needs its array there
// too, and the package's tests fail until it has one.)

// Type is the type of a column, in Arrow's and in Parquet's terms.
type Type struct {
	Arrow    string // as pyarrow prints it: timestamp[us, tz=UTC]
	Physical string // Parquet's physical type: INT64
	// Logical is Parquet's logical type as parquet-go prints it with a
	// space after each comma, "" for none: INT(32, false) is unsigned.
	Logical string
}

// The types of the long table's columns. A Value of each holds its value
// in the field named in brackets.
var (
	TimestampUTC   = Type{"timestamp[us, tz=UTC]", "INT64", "TIMESTAMP(isAdjustedToUTC=true, unit=MICROS)"} // [Int] µs since 1970 UTC
	TimestampLocal = Type{"timestamp[us]", "INT64", "TIMESTAMP(isAdjustedToUTC=false, unit=MICROS)"}        // [Int] µs since 1970 on the local clock
	String         = Type{"string", "BYTE_ARRAY", "STRING"}                                                 // [Str] UTF-8
	Int32          = Type{"int32", "INT32", "INT(32, true)"}                                                // [Int]
	Uint32         = Type{"uint32", "INT32", "INT(32, false)"}                                              // [Int]
	Uint64         = Type{"uint64", "INT64", "INT(64, false)"}                                              // [Int] the value's bits
	Double         = Type{"double", "DOUBLE", ""}                                                           // [Float]
)

// Types lists every column type, for the generators and writers that map
// them.
var Types = []Type{TimestampUTC, TimestampLocal, String, Int32, Uint32, Uint64, Double}

// Field is one column of the long table.
type Field struct {
	Name string // the column's name: lower case, digits and _
	Type        // its Arrow and Parquet types
	// Dictionary says that the strings are dictionary-encoded (in Parquet;
	// an Arrow table may hold them as dictionary<values=string> or string).
	Dictionary bool
	Nullable   bool   // whether it may hold nulls
	Doc        string // what it holds (the package documentation's table)
	// OfSeries returns the value of a column that is the same in every row
	// of a series (a writer may take it once per series); Get returns the
	// value of any other column in a row. Exactly one of them is set.
	OfSeries func(s *Series) Value
	Get      func(r *Row) Value
}

// Row is one row of the long table as a column's Get reads it: a series,
// the times of a sample and what the sample holds for the series.
type Row struct {
	Series    *Series
	Time      int64 // the sample's instant, µs since 1970 UTC
	LocalTime int64 // the logging machine's wall-clock time, µs since 1970
	Cell      *Cell
}

// Value is a cell of the long table: Null, or the value in the field of
// its column's type (Types): Int for timestamps and integers (a uint64 as
// its bits), Float for doubles, Str for strings.
type Value struct {
	Null  bool
	Int   int64
	Float float64
	Str   string
}

func null() Value            { return Value{Null: true} }
func intValue(v int64) Value { return Value{Int: v} }
func str(s string) Value     { return Value{Str: s} }
func float(v float64) Value  { return Value{Float: v} }
func statusOf(r *Row) string { return min(r.Cell.Status, engine.UnknownType).String() }

// Fields lists the columns in order.
var Fields = []Field{
	{Name: "time", Type: TimestampUTC,
		Doc: "the sample's instant in UTC, to the microsecond",
		Get: func(r *Row) Value { return intValue(r.Time) }},
	{Name: "local_time", Type: TimestampLocal,
		Doc: `the logging machine's wall-clock time of the sample, as relog prints it in its CSV ("02/19/2013 18:50:17.844"); local_time − time is the zone's offset in force`,
		Get: func(r *Row) Value { return intValue(r.LocalTime) }},
	{Name: "machine", Type: String, Dictionary: true,
		Doc:      `the machine of the counter path, without the leading \\ ("" when the path has none)`,
		OfSeries: func(s *Series) Value { return str(s.Machine) }},
	{Name: "object", Type: String, Dictionary: true,
		Doc:      `the performance object (counter set): "Processor"`,
		OfSeries: func(s *Series) Value { return str(s.Object) }},
	{Name: "instance", Type: String, Dictionary: true, Nullable: true,
		Doc: `the instance name without parent and #index ("_Total", "svchost"); null for an object without instances`,
		OfSeries: func(s *Series) Value {
			if !s.HasInstance {
				return null()
			}
			return str(s.Instance)
		}},
	{Name: "parent", Type: String, Dictionary: true, Nullable: true,
		Doc: `the parent instance ("0" in Thread(0/12)); null where there is none`,
		OfSeries: func(s *Series) Value {
			if !s.HasInstance || s.Parent == "" {
				return null()
			}
			return str(s.Parent)
		}},
	{Name: "instance_index", Type: Int32, Nullable: true,
		Doc: "PDH's #n numbering of instances that share a name: 0 for the first (written without #), 1 for name#1, …; null for an object without instances",
		OfSeries: func(s *Series) Value {
			if !s.HasInstance {
				return null()
			}
			return intValue(int64(int32(s.Index)))
		}},
	{Name: "counter", Type: String, Dictionary: true,
		Doc:      `the counter's name: "% Processor Time"`,
		OfSeries: func(s *Series) Value { return str(s.Counter) }},
	{Name: "path", Type: String, Dictionary: true,
		Doc:      `the full counter path exactly as relog's CSV header prints it, \\MACHINE\Object(parent/instance#n)\Counter: the column's identity`,
		OfSeries: func(s *Series) Value { return str(s.Path) }},
	{Name: "counter_type", Type: String, Dictionary: true,
		Doc:      "the Windows name of the counter type (PERF_100NSEC_TIMER; a type that winperf.h does not define prints as 0x…)",
		OfSeries: func(s *Series) Value { return str(s.TypeName) }},
	{Name: "value", Type: Double, Nullable: true,
		Doc: `the value PDH computes (relog's: not capped at 100, not scaled), bit-identical to relog's CSV; null unless status is "Valid"`,
		Get: func(r *Row) Value {
			if r.Cell.Status != engine.Valid {
				return null()
			}
			return float(r.Cell.Value)
		}},
	{Name: "status", Type: String, Dictionary: true,
		Doc: "why there is or is not a value: Valid, NewData, NegativeDenominator, NegativeValue, InvalidData, NotDisplayable or UnknownType (engine.Status)",
		Get: func(r *Row) Value { return str(statusOf(r)) }},
	{Name: "raw_status", Type: Uint32, Nullable: true,
		Doc: "the raw sample's PDH_CSTATUS_* (0 valid, 1 new data, 0x800007D0 no machine, …)",
		Get: func(r *Row) Value { return intValue(int64(r.Cell.CStatus)) }},
	{Name: "raw_first", Type: Uint64, Nullable: true,
		Doc: "PDH_RAW_COUNTER.FirstValue: the counter's raw value N",
		Get: func(r *Row) Value { return intValue(int64(r.Cell.First)) }},
	{Name: "raw_second", Type: Uint64, Nullable: true,
		Doc: "PDH_RAW_COUNTER.SecondValue: its time stamp D or base B",
		Get: func(r *Row) Value { return intValue(int64(r.Cell.Second)) }},
	{Name: "raw_multi", Type: Uint32, Nullable: true,
		Doc: "PDH_RAW_COUNTER.MultiCount: the item count of the multi timers",
		Get: func(r *Row) Value { return intValue(int64(r.Cell.Multi)) }},
	{Name: "pid", Type: Uint32, Nullable: true,
		Doc: `the process ID of a Process, Process V2 or Thread instance whose name carries it: name:pid (Process with --identity pid, Process V2 always) or process:pid/tid (Thread with --identity pid); null elsewhere`,
		OfSeries: func(s *Series) Value {
			if pid, ok := ProcessID(s); ok {
				return intValue(int64(pid))
			}
			return null()
		}},
}

// ProcessID returns the process ID that a series' instance name carries:
// the digits after the last ":" of a Process or Process V2 instance
// (chrome:4242) or of a Thread instance's parent (chrome:4242/5120), as
// --identity pid names them (and Windows names Process V2 instances).
func ProcessID(s *Series) (uint32, bool) {
	name := ""
	switch {
	case !s.HasInstance:
		return 0, false
	case strings.EqualFold(s.Object, "Process"), strings.EqualFold(s.Object, "Process V2"):
		name = s.Instance
	case strings.EqualFold(s.Object, "Thread"):
		name = s.Parent
	default:
		return 0, false
	}
	i := strings.LastIndexByte(name, ':')
	if i < 0 || i == len(name)-1 || len(name)-i-1 > 10 {
		return 0, false
	}
	var pid uint64
	for _, c := range []byte(name[i+1:]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		pid = pid*10 + uint64(c-'0')
	}
	if pid > 1<<32-1 {
		return 0, false
	}
	return uint32(pid), true
}

// Value returns the column's value in a row (OfSeries or Get).
func (f *Field) Value(r *Row) Value {
	if f.OfSeries != nil {
		return f.OfSeries(r.Series)
	}
	return f.Get(r)
}
