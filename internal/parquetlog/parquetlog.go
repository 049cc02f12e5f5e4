// Package parquetlog writes perfcalc's long table (package longform) as a
// Parquet file, with github.com/parquet-go/parquet-go: dictionary-encoded
// strings, zstd pages, a page index with the statistics of every page, and
// row groups written as the log streams, so that memory does not grow with
// the log.
//
// Only the perfcalc command links this package (a test says so): the
// engine and the WebAssembly module stay standard library only.
//
// # Security
//
// The rows come from perfcalc's decoders, which check the untrusted log;
// this package writes what they yield and allocates in proportion to one
// row group (Options.RowGroupRows) and the number of series.
package parquetlog

import (
	"io"
	"runtime"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/internal/longform"
)

// record is one row of the long table, as parquet-go writes it. The
// optional columns are pointers into the writer's own storage.
type record struct {
	Time          int64    `parquet:"time,timestamp(microsecond:utc)"`
	LocalTime     int64    `parquet:"local_time,timestamp(microsecond:local)"`
	Machine       string   `parquet:"machine,dict"`
	Object        string   `parquet:"object,dict"`
	Instance      *string  `parquet:"instance,optional,dict"`
	Parent        *string  `parquet:"parent,optional,dict"`
	InstanceIndex *int32   `parquet:"instance_index,optional"`
	Counter       string   `parquet:"counter,dict"`
	Path          string   `parquet:"path,dict"`
	CounterType   string   `parquet:"counter_type,dict"`
	Value         *float64 `parquet:"value,optional"`
	Status        string   `parquet:"status,dict"`
	RawStatus     *uint32  `parquet:"raw_status,optional,uint(32)"`
	RawFirst      *uint64  `parquet:"raw_first,optional,uint(64)"`
	RawSecond     *uint64  `parquet:"raw_second,optional,uint(64)"`
	RawMulti      *uint32  `parquet:"raw_multi,optional,uint(32)"`
}

// Options tune the writer. The zero Options are the defaults.
type Options struct {
	// RowGroupRows is the number of rows in a row group (the last one may
	// have fewer); 0 means DefaultRowGroupRows.
	RowGroupRows int
	// Version is written in the file's created_by ("perfcalc version …").
	Version string
}

// DefaultRowGroupRows is the row group size by default: large enough for
// readers to skip row groups by their time statistics, small enough that
// converting a log holds about 10 MiB of buffered pages.
const DefaultRowGroupRows = 128 << 10

// batch is the number of records handed to parquet-go at once.
const batch = 1024

// series is what the writer keeps for each series: the strings that every
// row of the series repeats, and the optional values that point to them.
type series struct {
	longform.Series
	instance, parent *string
	index            *int32
}

// Stats counts what Write wrote.
type Stats struct {
	Samples int   // rows of the source (samples of the log)
	Rows    int64 // rows of the table (cells present)
	Valid   int64 // rows with a value
}

// Write writes the table t to w as one Parquet file, and returns what it
// wrote. A failure of w is returned at once; an error of the source rows
// (a damaged log) is returned after the rows before it have been written
// and the file has been closed properly, so that the file holds them.
func Write(w io.Writer, t *longform.Table, opts Options) (Stats, error) {
	var st Stats
	rg := opts.RowGroupRows
	if rg <= 0 {
		rg = DefaultRowGroupRows
	}
	version := opts.Version
	if version == "" {
		version = "(devel)"
	}
	ss := make([]series, len(t.Series))
	for i := range t.Series {
		s := &ss[i]
		s.Series = t.Series[i]
		if s.HasInstance {
			inst, idx := s.Instance, int32(s.Index)
			s.instance, s.index = &inst, &idx
			if s.Parent != "" {
				parent := s.Parent
				s.parent = &parent
			}
		}
	}
	pw := parquet.NewGenericWriter[record](w,
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}),
		parquet.MaxRowsPerRowGroup(int64(rg)),
		parquet.DataPageVersion(1),
		parquet.CreatedBy("perfcalc", version, runtime.Version()),
		parquet.KeyValueMetadata("perfcalc.schema", "long/1"),
	)
	var (
		recs   = make([]record, 0, batch)
		values [batch]float64
		raws   [batch]struct {
			status, multi uint32
			first, second uint64
		}
	)
	flush := func() error {
		if len(recs) == 0 {
			return nil
		}
		_, err := pw.Write(recs)
		recs = recs[:0]
		return err
	}
	statusNames := statusTable()
	for t.Rows.Next() {
		row := t.Rows.Row()
		st.Samples++
		utc := t.Clock.UTC(row.Time)
		tu, tl := longform.UnixMicros(utc), longform.UnixMicros(row.Time)
		for i := range row.Cells {
			cell := &row.Cells[i]
			if !cell.Present || i >= len(ss) {
				continue
			}
			s := &ss[i]
			k := len(recs)
			recs = append(recs, record{
				Time: tu, LocalTime: tl,
				Machine: s.Machine, Object: s.Object,
				Instance: s.instance, Parent: s.parent, InstanceIndex: s.index,
				Counter: s.Counter, Path: s.Path, CounterType: s.TypeName,
				Status: statusNames[min(int(cell.Result.Status), len(statusNames)-1)],
			})
			r := &recs[k]
			if cell.Result.Status == engine.Valid {
				values[k] = cell.Result.Value
				r.Value = &values[k]
				st.Valid++
			}
			if !t.NoRaw {
				raw := &raws[k]
				raw.status, raw.first, raw.second, raw.multi = cell.Raw.CStatus, cell.Raw.FirstValue, cell.Raw.SecondValue, cell.Raw.MultiCount
				r.RawStatus, r.RawFirst, r.RawSecond, r.RawMulti = &raw.status, &raw.first, &raw.second, &raw.multi
			}
			st.Rows++
			if len(recs) == batch {
				if err := flush(); err != nil {
					return st, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return st, err
	}
	if err := pw.Close(); err != nil {
		return st, err
	}
	return st, t.Rows.Err()
}

// statusTable returns the names of engine's statuses, indexed by status;
// the last entry names any status beyond them.
func statusTable() []string {
	var names []string
	for s := engine.Valid; ; s++ {
		n := s.String()
		names = append(names, n)
		if s == engine.UnknownType {
			return names
		}
	}
}
