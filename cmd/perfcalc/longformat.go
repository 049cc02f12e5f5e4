package main

import (
	"errors"
	"io"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/longform"
	"github.com/perfcalc/perfcalc/internal/openmetrics"
	"github.com/perfcalc/perfcalc/internal/parquetlog"
)

// The output formats of relog, values and convert beyond relog's own (csv,
// tsv, json): the long table as Parquet, and OpenMetrics text for
// Prometheus.
const (
	formatParquet     = "parquet"
	formatOpenMetrics = "openmetrics"
)

// logFormats names every format relog and convert write, for messages.
const logFormats = "csv, tsv, json, parquet or openmetrics"

// version is written into Parquet files' created_by.
var version = "(devel)"

// checkLogFormat reports whether name is a format relog and convert write.
func checkLogFormat(name string) bool {
	switch name {
	case formatParquet, formatOpenMetrics:
		return true
	}
	_, err := relog.ParseFormat(name)
	return err == nil
}

// writeLog writes the rows of c to w in the named format (checkLogFormat
// accepted it). Like relog.Converter.Write, it returns the first error of
// w, or else the converter's Err once the rows before a damage are
// written. dropped counts the OpenMetrics samples left out (droppedNote).
func writeLog(w io.Writer, c *relog.Converter, format string) (dropped int64, err error) {
	if format == formatParquet || format == formatOpenMetrics {
		return writeTable(w, longform.FromConverter(c), format)
	}
	f, err := relog.ParseFormat(format)
	if err != nil {
		return 0, err
	}
	return 0, c.Write(w, f)
}

// writeTable writes a long table as Parquet or OpenMetrics (format). For
// OpenMetrics, dropped counts the valid samples left out because their
// time stamp was not after the previous sample of their metric.
func writeTable(w io.Writer, t *longform.Table, format string) (dropped int64, err error) {
	if format == formatParquet {
		_, err := parquetlog.Write(w, t, parquetlog.Options{Version: version})
		return 0, err
	}
	st, err := openmetrics.Write(w, t, openmetrics.Options{})
	return st.Dropped, err
}

// droppedNote is the note that relog and convert print on standard error
// when the OpenMetrics text leaves out dropped samples (exit status 0: the
// text holds every sample OpenMetrics can hold).
func droppedNote(dropped int64) string {
	var b []byte
	b = strconv.AppendInt(b, dropped, 10)
	if dropped == 1 {
		b = append(b, " sample"...)
	} else {
		b = append(b, " samples"...)
	}
	b = append(b, " left out of the OpenMetrics text: their time stamp is not after the previous sample of the same metric (the log's clock went back, or two samples fall in one millisecond); -f csv or parquet keeps every sample"...)
	return string(b)
}

// valuesTable is the long table of perfcalc values' results: one sample,
// the newer capture's, whose local time is s.Local and whose UTC time is
// s.Local plus the capture's bias, with each value's raw record.
func valuesTable(vals []query.Value, s query.Stamp) (*longform.Table, error) {
	if !s.OK {
		return nil, errors.New("the newer capture's SystemTime is not a valid time: the long formats need the sample's time")
	}
	t := &longform.Table{
		Series: make([]longform.Series, len(vals)),
		Clock:  longform.FixedClock(s.Bias),
	}
	row := &valuesRows{row: relog.Row{Time: s.Local, Cells: make([]relog.Cell, len(vals))}}
	for i := range vals {
		v := &vals[i]
		t.Series[i] = longform.NewSeries(string(v.Path), &v.Parts, v.Type)
		row.row.Cells[i] = relog.Cell{
			Present: true,
			Counter: engine.Counter{Type: v.Type, Scale: v.Scale},
			Result:  engine.Result{Value: v.Value, Status: v.Status},
			Raw:     v.Raw,
		}
	}
	t.Rows = row
	return t, nil
}

// valuesRows is the one row of a values table (longform.Rows).
type valuesRows struct {
	row  relog.Row
	done bool
}

func (r *valuesRows) Next() bool {
	if r.done {
		return false
	}
	r.done = true
	return true
}

func (r *valuesRows) Row() *relog.Row { return &r.row }
func (r *valuesRows) Err() error      { return nil }
