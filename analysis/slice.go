package analysis

import (
	"errors"
	"math"
	"strconv"
)

// ticksPerSecond is FILETIME's unit.
const ticksPerSecond = 10_000_000

// MaxSlices is the most time slices Run cuts a log into: a shorter
// interval is refused (each slice costs memory per matched series).
const MaxSlices = 10_000

// autoInterval returns the automatic interval of a log from begin to end
// (local FILETIMEs): its duration in seconds ÷ 30, rounded half to even
// (PowerShell's [Math]::Round, as PAL), at least 1 second.
func autoInterval(begin, end int64) int64 {
	d := float64(end-begin) / ticksPerSecond
	i := math.RoundToEven(d / 30)
	if !(i >= 1) { // NaN too
		return 1
	}
	if i > math.MaxInt64/(2*ticksPerSecond) {
		return math.MaxInt64 / (2 * ticksPerSecond)
	}
	return int64(i)
}

// timeline cuts the rows of a log, given in time order, into slices.
//
// Exact (the default): slice k holds the rows whose time t lies in
// (begin + k·I, begin + (k+1)·I] (slice 0 also holds begin itself); a row
// before begin joins slice 0, one after end the last; every slice is kept,
// empty ones (gaps in the log) included. Compat (PAL): a cursor starts at
// begin + I; a row with t ≤ cursor joins the current slice, any other
// starts a new slice and advances the cursor by one I (not to the row: after
// a gap, each row starts a slice until the cursor catches up); the last
// slice, never closed, is dropped.
type timeline struct {
	compat      bool
	begin, step int64 // step: the interval in ticks
	count       int   // exact: the number of slices
	cursor      int64 // compat
	rows        int
	slices      []Slice
	starts      []int // per slice: its first row (compat: positions)
}

// newTimeline starts the timeline of a log of rows from begin to end with
// slices of interval seconds; the number of slices must stay within
// MaxSlices (exact: known from the times; compat: checked as rows come).
func newTimeline(begin, end, interval int64, compat bool) (*timeline, error) {
	if interval <= 0 {
		return nil, errors.New("analysis: the interval must be positive, not " + strconv.FormatInt(interval, 10))
	}
	if interval > math.MaxInt64/(2*ticksPerSecond) {
		interval = math.MaxInt64 / (2 * ticksPerSecond)
	}
	tl := &timeline{compat: compat, begin: begin, step: interval * ticksPerSecond}
	if compat {
		tl.cursor = satAdd(begin, tl.step)
		return tl, nil
	}
	if end < begin {
		end = begin
	}
	d := uint64(end - begin) // no overflow: FILETIMEs are ≥ 0 in practice, and uint64 holds any difference
	n := d / uint64(tl.step)
	if d%uint64(tl.step) != 0 || n == 0 {
		n++
	}
	if n > MaxSlices {
		return nil, tooManySlices(interval)
	}
	tl.count = int(n)
	tl.slices = make([]Slice, n)
	tl.starts = make([]int, n)
	for k := range tl.slices {
		// Nominal bounds, for the slices that no row fills.
		tl.slices[k].Start = satAdd(begin, int64(k)*tl.step)
		tl.slices[k].End = satAdd(begin, int64(k+1)*tl.step)
		tl.starts[k] = -1
	}
	return tl, nil
}

func tooManySlices(interval int64) error {
	return errors.New("analysis: an interval of " + strconv.FormatInt(interval, 10) +
		" s cuts the log into more than " + strconv.Itoa(MaxSlices) + " slices; give a longer interval")
}

// satAdd is a + b, saturated at the int64 bounds.
func satAdd(a, b int64) int64 {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		if b > 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return s
}

// index returns the exact slice of time t.
func (tl *timeline) index(t int64) int {
	if t <= tl.begin {
		return 0
	}
	d := uint64(t - tl.begin)
	if t-tl.begin < 0 { // overflow: far after begin
		return tl.count - 1
	}
	k := (d + uint64(tl.step) - 1) / uint64(tl.step)
	if k == 0 {
		return 0
	}
	if k-1 >= uint64(tl.count) {
		return tl.count - 1
	}
	return int(k - 1)
}

// add places the next row, of time t, and returns its slice.
func (tl *timeline) add(t int64) (int, error) {
	row := tl.rows
	tl.rows++
	var k int
	if tl.compat {
		if len(tl.slices) == 0 || t > tl.cursor {
			if len(tl.slices) > 0 {
				tl.cursor = satAdd(tl.cursor, tl.step)
			}
			if len(tl.slices) >= MaxSlices+1 {
				return 0, tooManySlices(tl.step / ticksPerSecond)
			}
			tl.slices = append(tl.slices, Slice{Start: t})
			tl.starts = append(tl.starts, row)
		}
		k = len(tl.slices) - 1
	} else {
		k = tl.index(t)
	}
	s := &tl.slices[k]
	if s.Samples == 0 || t < s.Start {
		s.Start = t
	}
	if s.Samples == 0 || t > s.End {
		s.End = t
	}
	if s.Samples == 0 && !tl.compat {
		tl.starts[k] = row
	}
	s.Samples++
	return k, nil
}

// finish returns the slices: compat drops the last one.
func (tl *timeline) finish() []Slice {
	if tl.compat && len(tl.slices) > 0 {
		tl.slices = tl.slices[:len(tl.slices)-1]
		tl.starts = tl.starts[:len(tl.slices)]
	}
	return tl.slices
}

// compatBounds returns the positions [lo, hi) of compat slice k among a
// series' valid values, of which there are n: the slice's row positions
// (PAL applies the rows' positions to the series with its blanks removed),
// clipped to n; beyond reports whether the slice reaches past the values.
func (tl *timeline) compatBounds(k, n int) (lo, hi int, beyond bool) {
	lo = tl.starts[k]
	if k+1 < len(tl.starts) {
		hi = tl.starts[k+1]
	} else {
		hi = lo + tl.slices[k].Samples
	}
	beyond = hi > n
	return min(lo, n), min(hi, n), beyond
}
