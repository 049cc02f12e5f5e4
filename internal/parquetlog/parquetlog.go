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
	"errors"
	"io"
	"reflect"
	"runtime"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/internal/longform"
)

// Options tune the writer. The zero Options are the defaults.
type Options struct {
	// RowGroupRows is the number of rows in a row group (the last one may
	// have fewer); 0 means DefaultRowGroupRows.
	RowGroupRows int
	// Version is written in the file's created_by ("perfcalc version …").
	Version string
	// TimeOrder keeps the rows of each row group in the log's order
	// (sample by sample) instead of ordering them by series.
	TimeOrder bool
}

// DefaultRowGroupRows is the row group size by default: large enough for
// readers to skip row groups by their time statistics, small enough that
// converting a log holds about 10 MiB of buffered pages.
const DefaultRowGroupRows = 128 << 10

// batch is the number of records handed to parquet-go at once.
const batch = 1024

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
	if err := recordFresh(); err != nil {
		return st, err
	}
	ss := t.Series
	// Each series' record, with the columns that every row of the series
	// repeats; for very many series (instances that come and go), none:
	// each row's record takes its series' columns itself (the same
	// values), rather than 260 bytes a series for the whole run.
	var series []record
	var seriesNulls []nullables
	if len(ss) <= cachedSeries {
		series = make([]record, len(ss))
		seriesNulls = make([]nullables, len(ss))
		for i := range ss {
			series[i].setSeries(&ss[i], &seriesNulls[i])
		}
	}
	pw := parquet.NewGenericWriter[record](w,
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}),
		parquet.DataPageVersion(1),
		parquet.CreatedBy("perfcalc", version, runtime.Version()),
		parquet.KeyValueMetadata("perfcalc.schema", "long/1"),
	)
	g := group{recs: make([]record, 0, batch)}
	for t.Rows.Next() {
		row := t.Rows.Sample()
		st.Samples++
		utc := t.Clock.UTC(row.Time)
		tu, tl := longform.UnixMicros(utc), longform.UnixMicros(row.Time)
		for i := range row.Cells {
			c := &row.Cells[i]
			if !c.Present || i >= len(ss) {
				continue
			}
			g.cells = append(g.cells, cell{series: int32(i), time: tu, local: tl, cell: *c})
			st.Rows++
			if c.Status == engine.Valid {
				st.Valid++
			}
			if len(g.cells) == rg {
				if err := g.write(pw, ss, series, opts.TimeOrder); err != nil {
					return st, err
				}
			}
		}
	}
	if err := g.write(pw, ss, series, opts.TimeOrder); err != nil {
		return st, err
	}
	if err := pw.Close(); err != nil {
		return st, err
	}
	return st, t.Rows.Err()
}

// cachedSeries is the most series whose records Write prepares once (a
// variable: the tests compare both ways).
var cachedSeries = 1 << 15

// recordFresh reports a record.go older than longform.Fields (make generate
// not run after a column changed) as an error rather than a wrong file.
var recordFresh = sync.OnceValue(func() error {
	rt := reflect.TypeFor[record]()
	ok := rt.NumField() == len(longform.Fields)
	for i := 0; ok && i < rt.NumField(); i++ {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("parquet"), ",")
		ok = name == longform.Fields[i].Name
	}
	if !ok {
		return errors.New("parquetlog: record.go does not have the columns of longform.Fields: run make generate")
	}
	return nil
})

// cell is a row of the table while its row group gathers: the series, the
// sample's times (µs since 1970, UTC and local) and what it holds for the
// series.
type cell struct {
	time, local int64
	cell        longform.Cell
	series      int32
}

// group gathers the rows of one row group.
type group struct {
	cells []cell
	order []int32 // cells' indexes in series order
	count []int32 // per series: the number of cells, then the next slot
	recs  []record
	nulls [batch]nullables // what the optional columns of recs point to
	// row is the row that setRow reads (a field, so that handing it to the
	// columns' functions allocates nothing per row).
	row longform.Row
}

// write writes the gathered rows as one row group and empties the group
// (series holds each series' record, its rows' other columns unset, or
// is nil: each record then takes its series' columns itself):
// ordered by series (relog's column order) and, within a series, by time,
// unless timeOrder keeps them as they came.
func (g *group) write(pw *parquet.GenericWriter[record], ss []longform.Series, series []record, timeOrder bool) error {
	if len(g.cells) == 0 {
		return nil
	}
	g.order = g.order[:0]
	if timeOrder {
		for i := range g.cells {
			g.order = append(g.order, int32(i))
		}
	} else {
		// A counting sort by series, stable: rows came in time order.
		if len(g.count) != len(ss)+1 {
			g.count = make([]int32, len(ss)+1)
		}
		clear(g.count)
		for i := range g.cells {
			g.count[g.cells[i].series+1]++
		}
		for i := 1; i < len(g.count); i++ {
			g.count[i] += g.count[i-1]
		}
		g.order = append(g.order, make([]int32, len(g.cells))...)
		for i := range g.cells {
			s := g.cells[i].series
			g.order[g.count[s]] = int32(i)
			g.count[s]++
		}
	}
	for _, i := range g.order {
		c := &g.cells[i]
		g.row = longform.Row{Series: &ss[c.series], Time: c.time, LocalTime: c.local, Cell: &c.cell}
		k := len(g.recs)
		if series != nil {
			g.recs = append(g.recs, series[c.series])
		} else {
			g.recs = append(g.recs, record{})
			g.recs[k].setSeries(&ss[c.series], &g.nulls[k])
		}
		g.recs[k].setRow(&g.row, &g.nulls[k])
		if len(g.recs) == batch {
			if _, err := pw.Write(g.recs); err != nil {
				return err
			}
			g.recs = g.recs[:0]
		}
	}
	if len(g.recs) > 0 {
		if _, err := pw.Write(g.recs); err != nil {
			return err
		}
		g.recs = g.recs[:0]
	}
	g.cells = g.cells[:0]
	return pw.Flush()
}
