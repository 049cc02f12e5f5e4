package relog

import "github.com/perfcalc/perfcalc/engine"

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
// twice while its slice grows), so its memory grows with the log (the Tx
// log repeated to 42 MB: 26 MB resident where Statistics takes 12 MB),
// unlike Statistics'; then it sorts the largest tenth of each column's.
// A bounded estimate (a histogram, a sketch) would keep the fold's bound
// but give values that are not the log's; perfcalc asks for these only
// on request (perfcalc stats --percentiles, relog_stats' flag).
func (c *Converter) StatisticsPercentiles() ([]engine.Statistics, []Percentiles, error) {
	values := make([][]float64, len(c.columns))
	st, err := c.statistics(values)
	pc := make([]Percentiles, len(st))
	for i, v := range values {
		pc[i] = percentiles(v)
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
				if v, ok := f.AddRaw(raw); ok && values != nil {
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

// percentiles returns the Percentiles of the values v (no NaN: a Valid
// value is finite), reordering v: engine.Percentile's over v sorted. The
// three ranks lie in the largest tenth of the values, so it keeps those
// in a min-heap (one comparison for most values) and sorts them alone by
// a heapsort of its own: O(n log n) on any input, nothing allocated, a
// few hundred bytes of module (slices.Sort's pdqsort costs about 20 KB),
// and about 3 times as fast as sorting every value in the module.
func percentiles(v []float64) Percentiles {
	n := len(v)
	if n == 0 {
		return Percentiles{}
	}
	rank := func(p int) int { return (p*n + 99) / 100 } // 1-based, as engine.Percentile
	skip := rank(90) - 1                                // the values below the 90th percentile's rank
	m := n - skip
	top := v[:m]
	for i := m/2 - 1; i >= 0; i-- {
		siftMin(top, i)
	}
	for _, x := range v[m:] {
		if x > top[0] {
			top[0] = x
			siftMin(top, 0)
		}
	}
	sortFloats(top)
	return Percentiles{top[0], top[rank(95)-1-skip], top[rank(99)-1-skip]}
}

// siftMin moves v[root] down the min-heap v until neither child is
// smaller. Not inlined: one copy is smaller in the module.
//
//go:noinline
func siftMin(v []float64, root int) {
	n, x := len(v), v[root]
	for {
		child := 2*root + 1
		if child >= n {
			break
		}
		if child+1 < n && v[child+1] < v[child] {
			child++
		}
		if !(v[child] < x) {
			break
		}
		v[root] = v[child]
		root = child
	}
	v[root] = x
}

// sortFloats sorts v (no NaN) in place by a heapsort.
func sortFloats(v []float64) {
	n := len(v)
	for i := n/2 - 1; i >= 0; i-- {
		siftMax(v, i, n)
	}
	for end := n - 1; end > 0; end-- {
		v[0], v[end] = v[end], v[0]
		siftMax(v, 0, end)
	}
}

// siftMax moves v[root] down the max-heap of v[:n] until neither child is
// greater. Not inlined: one copy is smaller in the module.
//
//go:noinline
func siftMax(v []float64, root, n int) {
	x := v[root]
	for {
		child := 2*root + 1
		if child >= n {
			break
		}
		if child+1 < n && v[child] < v[child+1] {
			child++
		}
		if !(x < v[child]) {
			break
		}
		v[root] = v[child]
		root = child
	}
	v[root] = x
}
