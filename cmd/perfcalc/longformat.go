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

// writeLog writes the rows of c to w in the format f (one of relog's and
// convert's). Like relog.Converter.Write, it returns the first error of
// w, or else the converter's Err once the rows before a damage are
// written. dropped counts the OpenMetrics samples left out (droppedNote).
func writeLog(w io.Writer, c *relog.Converter, f outputFormat) (dropped int64, err error) {
	if f.long() {
		return writeTable(w, longform.FromConverter(c), f)
	}
	return 0, c.Write(w, formats[f].relog)
}

// writeTable writes a long table as Parquet or OpenMetrics (f). For
// OpenMetrics, dropped counts the valid samples left out because their
// time stamp was not after the previous sample of their metric.
func writeTable(w io.Writer, t *longform.Table, f outputFormat) (dropped int64, err error) {
	if f == formatParquet {
		_, err := parquetlog.Write(w, t, parquetlog.Options{Version: currentVersion().Version})
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
	row := &valuesRows{sample: longform.Sample{Time: s.Local, Cells: make([]longform.Cell, len(vals))}}
	for i := range vals {
		v := &vals[i]
		t.Series[i] = longform.NewSeries(string(v.Path), &v.Parts, v.Type)
		row.sample.Cells[i] = longform.NewCell(engine.Result{Value: v.Value, Status: v.Status}, &v.Raw)
	}
	t.Rows = row
	return t, nil
}

// valuesRows is the one sample of a values table (longform.Rows).
type valuesRows struct {
	sample longform.Sample
	done   bool
}

func (r *valuesRows) Next() bool {
	if r.done {
		return false
	}
	r.done = true
	return true
}

func (r *valuesRows) Sample() *longform.Sample { return &r.sample }
func (r *valuesRows) Err() error               { return nil }
