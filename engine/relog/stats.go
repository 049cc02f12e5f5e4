package relog

import "github.com/perfcalc/perfcalc/engine"

// cStatusNoInstance is PDH_CSTATUS_NO_INSTANCE: the raw value that stands,
// in a column's series, for a sample that lacks the column's instance.
const cStatusNoInstance = 0x800007D1

// Statistics computes, for every column, engine.ComputeStatistics over the
// column's series of raw values (options 0: not capped, not scaled), in
// Columns order. A column's series runs from the first row that has it to
// the last; a row in between that lacks it counts as a raw value with the
// status PDH_CSTATUS_NO_INSTANCE, so that the pairs around the gap are
// skipped, as relog prints no value for them (for several logs, a row
// counts only where a log that has the column has a sample). The series
// are held in
// memory: 40 bytes per column and row.
//
// Statistics reads the log a second time, like Write: call one of them,
// once. It returns the statistics of the rows before a damage, and the
// damage as its error.
func (c *Converter) Statistics() ([]engine.Statistics, error) {
	series := make([][]engine.RawCounter, len(c.columns))
	counters := make([]engine.Counter, len(c.columns))
	gaps := make([]int, len(c.columns)) // rows without the column since it was last present
	for c.Next() {
		for i := range c.row.Cells {
			cell := &c.row.Cells[i]
			if !cell.Present {
				if len(series[i]) > 0 && c.covers(i) {
					gaps[i]++
				}
				continue
			}
			for ; gaps[i] > 0; gaps[i]-- {
				series[i] = append(series[i], engine.RawCounter{CStatus: cStatusNoInstance})
			}
			series[i] = append(series[i], cell.Raw)
			counters[i] = cell.Counter
		}
	}
	st := make([]engine.Statistics, len(c.columns))
	for i := range st {
		if len(series[i]) == 0 {
			counters[i] = engine.Counter{Type: c.columns[i].Type}
		}
		st[i] = engine.ComputeStatistics(counters[i], series[i], 0)
	}
	return st, c.Err()
}
