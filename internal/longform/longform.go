package longform

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
)

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

// Cell is what a sample holds for one series: the computed value and its
// status, and the raw record it was computed from (PDH_RAW_COUNTER), in 40
// bytes.
type Cell struct {
	// Present says whether the sample holds the series (a cell that relog
	// leaves empty is no row of the table).
	Present bool
	Status  engine.Status // the computed value's status
	CStatus uint32        // the raw record's PDH_CSTATUS_*
	Value   float64       // the computed value (engine.Result.Value)
	First   uint64        // the raw record's FirstValue
	Second  uint64        // its SecondValue
	Multi   uint32        // its MultiCount
}

// NewCell returns the cell of a computed result and its raw record.
func NewCell(r engine.Result, raw *engine.RawCounter) Cell {
	return Cell{Present: true, Status: r.Status, Value: r.Value, CStatus: raw.CStatus, First: raw.FirstValue, Second: raw.SecondValue, Multi: raw.MultiCount}
}

// Sample is one sample of a table's source: its local time and a cell per
// series.
type Sample struct {
	Time  int64  // the logging machine's local time, as a FILETIME
	Cells []Cell // in Table.Series order
}

// Rows is a stream of samples: Next advances to the next one (false at
// the end or on an error), Sample returns it (valid until the next call of
// Next), Err returns the error that ended the stream, if any.
type Rows interface {
	Next() bool
	Sample() *Sample
	Err() error
}

// Table is a source of long rows: the series (relog's columns), the
// samples that fill them, and the clock that turns their local times into
// UTC.
type Table struct {
	Series []Series
	Rows   Rows
	Clock  *Clock
}

// FromConverter returns the table of a relog converter: its columns, its
// rows as samples, and a clock in the log header's time zone. It does not
// start reading the rows.
func FromConverter(c *relog.Converter) *Table {
	return &Table{Series: SeriesOf(c.Columns()), Rows: &converterRows{c: c}, Clock: NewClock(&c.Header().TimeZone)}
}

// converterRows feeds the rows of a relog converter as samples.
type converterRows struct {
	c *relog.Converter
	s Sample
}

func (r *converterRows) Next() bool {
	if !r.c.Next() {
		return false
	}
	row := r.c.Row()
	r.s.Time = row.Time
	r.s.Cells = r.s.Cells[:0]
	for i := range row.Cells {
		c := &row.Cells[i]
		cell := NewCell(c.Result, &c.Raw)
		cell.Present = c.Present
		r.s.Cells = append(r.s.Cells, cell)
	}
	return true
}

func (r *converterRows) Sample() *Sample { return &r.s }
func (r *converterRows) Err() error      { return r.c.Err() }
