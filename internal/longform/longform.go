package longform

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// Field is one column of the long table.
type Field struct {
	Name  string // the column's name
	Arrow string // its Arrow type, as pyarrow prints it
	// Dictionary says that the strings are dictionary-encoded (in Parquet;
	// an Arrow table may hold them as dictionary<values=string> or string).
	Dictionary bool
	Nullable   bool // whether it may hold nulls
}

// Fields lists the columns in order (see the package documentation for
// what each holds).
var Fields = []Field{
	{"time", "timestamp[us, tz=UTC]", false, false},
	{"local_time", "timestamp[us]", false, false},
	{"machine", "string", true, false},
	{"object", "string", true, false},
	{"instance", "string", true, true},
	{"parent", "string", true, true},
	{"instance_index", "int32", false, true},
	{"counter", "string", true, false},
	{"path", "string", true, false},
	{"counter_type", "string", true, false},
	{"value", "double", false, true},
	{"status", "string", true, false},
	{"raw_status", "uint32", false, true},
	{"raw_first", "uint64", false, true},
	{"raw_second", "uint64", false, true},
	{"raw_multi", "uint32", false, true},
}

// Series is what the long table repeats in every row of one column of
// relog's output: the parts of its counter path and its type.
type Series struct {
	Path    string // \\MACHINE\Object(parent/instance#n)\Counter, as relog prints it
	Machine string // without the leading \\
	Object  string
	// HasInstance says whether the path names an instance; Instance,
	// Parent and Index are meaningful only then.
	HasInstance bool
	Instance    string // without parent and #n
	Parent      string // "" for none
	Index       int    // PDH's #n, 0 for the first instance of a name
	Counter     string
	Type        engine.CounterType
	TypeName    string // Type.String(): PERF_100NSEC_TIMER
}

// SeriesOf returns the series of relog's columns, from the parts each
// carries (relog.Column.Parts).
func SeriesOf(cols []relog.Column) []Series {
	s := make([]Series, len(cols))
	for i := range cols {
		s[i] = NewSeries(cols[i].Path, &cols[i].Parts, cols[i].Type)
	}
	return s
}

// NewSeries returns the series of the counter path path, whose parts are p
// (as the decoder that formatted path gives them: relog.Column.Parts,
// query.Value.Parts), of type t. The parts are taken as they are, not read
// again from path; an index of "#*" (AnyIndex), which no log or capture
// names, is 0.
func NewSeries(path string, p *counterpath.Path, t engine.CounterType) Series {
	s := Series{Path: path, Machine: p.Machine, Object: p.Object, Counter: p.Counter, Type: t, TypeName: t.String()}
	if p.HasInstance {
		s.HasInstance = true
		s.Instance, s.Parent, s.Index = p.Instance, p.Parent, max(p.Index, 0)
	}
	return s
}

// FullInstance returns the instance as PDH writes it in a path:
// parent/instance#n, the parent and #n only where there are.
func (s *Series) FullInstance() string {
	if !s.HasInstance {
		return ""
	}
	b := make([]byte, 0, len(s.Parent)+1+len(s.Instance)+4)
	if s.Parent != "" {
		b = append(b, s.Parent...)
		b = append(b, '/')
	}
	b = append(b, s.Instance...)
	if s.Index > 0 {
		b = append(b, '#')
		b = appendUint(b, uint64(s.Index))
	}
	return string(b)
}

func appendUint(dst []byte, v uint64) []byte {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(dst, b[i:]...)
}

// Rows is a stream of relog rows: *relog.Converter is one (Next, Row, Err
// as documented there).
type Rows interface {
	Next() bool
	Row() *relog.Row
	Err() error
}

// Table is a source of long rows: the series (relog's columns), the rows
// that fill them, and the clock that turns their local times into UTC.
type Table struct {
	Series []Series
	Rows   Rows
	Clock  *Clock
}

// FromConverter returns the table of a relog converter: its columns, its
// rows, and a clock in the log header's time zone. It does not start
// reading the rows.
func FromConverter(c *relog.Converter) *Table {
	return &Table{Series: SeriesOf(c.Columns()), Rows: c, Clock: NewClock(&c.Header().TimeZone)}
}
