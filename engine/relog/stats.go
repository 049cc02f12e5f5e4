package relog

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/internal/heapsort"
)

// cStatusNoInstance is PDH_CSTATUS_NO_INSTANCE: the raw value that stands,
// in a column's series, for a sample that lacks the column's instance.
const cStatusNoInstance = 0x800007D1

// noInstanceRaw is the raw value of a row that lacks a column.
var noInstanceRaw = engine.RawCounter{CStatus: cStatusNoInstance}

// Statistics computes, for every column, engine.ComputeStatistics over the
// column's series of raw values (options 0: not capped, not scaled), in
// Columns order. A column's series runs from the first row that has it to
// the last; a row in between that lacks it counts as a raw value with the
// status PDH_CSTATUS_NO_INSTANCE, so that the pairs around the gap are
// skipped, as relog prints no value for them (for several logs, a row
// counts only where a log that has the column has a sample). The counter
// (type, scale, time base) of a column's last value computes the whole
// series.
//
// The series are folded row by row (engine.StatisticsFold): memory is
// about 160 bytes per column (210 in the WebAssembly module), whatever the
// number of rows. A column whose counter changes along the series (a whole
// object's counter definition, or a merge of logs that log one path with
// other types or time bases) cannot be folded before its last counter is
// known: Statistics then reads the rows once more and folds those columns
// again with it.
//
// Statistics reads the log a second time, like Write: call one of them,
// once. It returns the statistics of the rows before a damage, and the
// damage as its error.
func (c *Converter) Statistics() ([]engine.Statistics, error) {
	return c.statistics(nil)
}

// Percentiles are the 90th, 95th and 99th percentiles of a column's Valid
// values, by engine.Percentile's nearest rank (each one of the values); 0
// when the column has none. They are not PDH's.
type Percentiles struct {
	P90, P95, P99 float64
}

// StatisticsPercentiles is Statistics with the Percentiles of every
// column. Exact percentiles need every value: it keeps the Valid values
// of each column until the end (8 bytes each, and a column's at most
// twice while its slice grows) and sorts them, so its memory grows with
// the log (about as much as relog's rows), unlike Statistics'.
func (c *Converter) StatisticsPercentiles() ([]engine.Statistics, []Percentiles, error) {
	values := make([][]float64, len(c.columns))
	st, err := c.statistics(values)
	pc := make([]Percentiles, len(st))
	for i, v := range values {
		// No NaN: a Valid value is finite. heapsort, not slices.Sort:
		// one more pdqsort would cost the module about 20 KB.
		heapsort.Sort(len(v), func(a, b int) bool { return v[a] < v[b] }, func(a, b int) { v[a], v[b] = v[b], v[a] })
		pc[i] = Percentiles{engine.Percentile(v, 90), engine.Percentile(v, 95), engine.Percentile(v, 99)}
		values[i] = nil
	}
	return st, pc, err
}

// statistics is Statistics; with values (one slice per column), it also
// appends each column's Valid values to its slice.
func (c *Converter) statistics(values [][]float64) ([]engine.Statistics, error) {
	c.rawOnly = true // the folds compute the series
	folds := make([]engine.StatisticsFold, len(c.columns))
	// Per column: the rows without it since it was last present, or −1
	// before its first value (what the rows that lack a column touch: 4
	// bytes, not its fold).
	gaps := make([]int32, len(c.columns))
	last := c.fold(folds, gaps, nil, values)
	err := c.Err()
	if last != nil {
		// Fold the changed columns again, with their last counter.
		redo := make([]engine.StatisticsFold, len(c.columns))
		c.rewind()
		c.fold(redo, gaps, last, values)
		for i := range last {
			if last[i] != nil {
				folds[i] = redo[i]
			}
		}
		if err == nil {
			err = c.Err()
		}
	}
	st := make([]engine.Statistics, len(c.columns))
	for i := range st {
		if folds[i].Samples() == 0 {
			folds[i] = engine.NewStatisticsFold(engine.Counter{Type: c.columns[i].Type}, 0)
		}
		st[i] = folds[i].Statistics()
	}
	return st, err
}

// fold reads the rows into folds. Without only, it folds every column,
// each with the counter of its first value, and returns, for the columns
// whose counter changes along the series, the counter of their last value
// (nil for the others, and nil when none changes). With only, it folds
// the columns that only has a counter for, with that counter. With
// values, it appends each folded column's Valid values to its slice (a
// column folded again starts its slice again).
func (c *Converter) fold(folds []engine.StatisticsFold, gaps []int32, only []*engine.Counter, values [][]float64) (last []*engine.Counter) {
	for i := range gaps {
		gaps[i] = -1
	}
	for c.Next() {
		for i := range c.row.Cells {
			if only != nil && only[i] == nil {
				continue
			}
			cell, f := &c.row.Cells[i], &folds[i]
			if !cell.Present {
				if gaps[i] >= 0 && c.covers(i) {
					gaps[i]++
				}
				continue
			}
			switch {
			case gaps[i] >= 0 && only == nil && f.Counter() != cell.Counter || last != nil && last[i] != nil:
				if last == nil {
					last = make([]*engine.Counter, len(c.columns))
				}
				if last[i] == nil {
					last[i] = new(engine.Counter)
				}
				*last[i] = cell.Counter
			case gaps[i] < 0:
				counter := &cell.Counter
				if only != nil {
					counter = only[i]
				}
				*f = engine.NewStatisticsFold(*counter, 0)
				gaps[i] = 0
				if values != nil {
					values[i] = values[i][:0]
				}
			}
			// The rows that lacked the column, then its value.
			for g := gaps[i]; g >= 0; g-- {
				raw := &cell.Raw
				if g > 0 {
					raw = &noInstanceRaw
				}
				if v, ok := f.Add(*raw); ok && values != nil {
					values[i] = append(values[i], v)
				}
			}
			gaps[i] = 0
		}
	}
	return last
}

// rewind makes Next read the rows again from the first (Statistics'
// second look at the columns that it could not fold).
func (c *Converter) rewind() {
	c.started, c.err, c.kept, c.seen = false, nil, 0, 0
	if c.merge != nil {
		c.merge.rewind()
	}
}
