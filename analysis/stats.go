package analysis

import (
	"encoding/binary"
	"io"
	"math"
	"strconv"
	"sync"
)

// store holds what Run keeps of one series (a column or a generated series,
// with one rounding): its valid values in row order (8 bytes each: the
// exact percentiles, trimmed means and standard deviation need them all),
// where each slice starts among them (exact mode), and its chart envelope.
//
// The values come in chunks (spill.chunk values): the full ones kept in
// memory while the Run's budget allows (spill.keep), else written to the
// spill, and the last one being filled (cur). Which chunks spill is not
// chosen: the first full chunks of every series stay in memory until the
// budget is used, and from then on each chunk that fills is written at
// the end of the spill in one write and its memory reused for the next;
// every series spills in proportion to its values, with no bookkeeping
// per row. At finish, load gathers them into values, one series at a
// time.
type store struct {
	round   int // decimals (exact: applied to values; compat: to statistics), −1 none
	values  []float64
	offsets []int32 // exact: offsets[k] is the index in values of slice k's first value
	chart   []Point
	bucket  int // the chart bucket of the last point, −1 before any
	// sum and cnt are the sum and number of the last point's values.
	sum float64
	cnt int
	// perSlice: one value per slice (Formula.PerSlice), offsets set in
	// both modes; its values are set in values directly.
	perSlice bool
	noChart  bool // Options.NoCharts: chart stays empty

	sp     *spill    // the Run's; nil: DefaultChunk values a chunk, all in memory
	n      int       // the values added
	chunks []chunk   // the full chunks, in row order
	cur    []float64 // the chunk being filled
}

// chunk is a full chunk of a store's values: in memory (mem), or n values
// in the spill at off.
type chunk struct {
	mem []float64
	off int64
	n   int
}

func newStore(round int) *store { return &store{round: round, bucket: -1} }

// add appends the valid value v of row row (time t, slice k); per is the
// number of rows per chart point.
func (s *store) add(row int, t int64, k int, v float64, compat bool, per int) {
	if !compat {
		v = roundTo(v, s.round)
		for len(s.offsets) <= k {
			s.offsets = append(s.offsets, int32(s.n))
		}
	}
	if len(s.cur) == cap(s.cur) {
		s.next()
	}
	s.cur = append(s.cur, v)
	s.n++
	if s.noChart {
		return
	}
	b := row / per
	if b != s.bucket || len(s.chart) == 0 {
		s.bucket = b
		s.sum, s.cnt = v, 1
		if len(s.chart) == cap(s.chart) {
			s.growChart()
		}
		s.chart = append(s.chart, Point{Start: t, End: t, Min: v, Avg: v, Max: v})
		return
	}
	p := &s.chart[len(s.chart)-1]
	p.End = t
	p.Min = min(p.Min, v)
	p.Max = max(p.Max, v)
	s.sum += v
	s.cnt++
	p.Avg = min(max(finite(s.sum/float64(s.cnt)), p.Min), p.Max)
}

// growChart makes room in chart for one more point: it doubles chart's
// capacity up to DefaultChartPoints, the most points a chart has (append
// would grow a chart of 545 to 600 points to 1,024: 40,960 bytes).
func (s *store) growChart() {
	n := min(max(2*cap(s.chart), 8), DefaultChartPoints)
	if n <= len(s.chart) {
		n = 2 * len(s.chart) // not reached: a chart has at most DefaultChartPoints points
	}
	c := make([]Point, len(s.chart), n)
	copy(c, s.chart)
	s.chart = c
}

// next makes room in cur for one more value: it grows cur up to the chunk
// length (doubling, so that a short series stays small), and moves a full
// cur to the chunks, in memory or to the spill.
func (s *store) next() {
	size := DefaultChunk
	if s.sp != nil {
		size = s.sp.chunk
	}
	if len(s.cur) < size {
		c := make([]float64, len(s.cur), min(max(2*cap(s.cur), 8), size))
		copy(c, s.cur)
		s.cur = c
		return
	}
	if s.sp.keep() {
		s.chunks = append(s.chunks, chunk{mem: s.cur, n: len(s.cur)})
		s.cur = make([]float64, 0, size)
		return
	}
	if off, ok := s.sp.write(s.cur); ok {
		s.chunks = append(s.chunks, chunk{off: off, n: len(s.cur)})
	}
	s.cur = s.cur[:0] // written (or lost to a spill error, which Run returns)
}

// load sets values to the series' values in row order (except for a
// series computed per slice, whose values are set already), in buf's
// storage where it has room, and returns that storage; the chunks are
// released. A single chunk is used as it is. tmp is the caller's buffer for
// the bytes read from the spill: stores may be loaded concurrently, each
// caller with its own buf and tmp.
func (s *store) load(buf []float64, tmp *[]byte) ([]float64, error) {
	if s.perSlice {
		return buf, nil
	}
	if len(s.chunks) == 0 {
		s.values, s.cur = s.cur, nil
		return buf, nil
	}
	if cap(buf) < s.n {
		buf = make([]float64, 0, s.n)
	}
	vs := buf[:0]
	for _, c := range s.chunks {
		if c.mem != nil {
			vs = append(vs, c.mem...)
			continue
		}
		var err error
		if vs, err = s.sp.read(vs, c, tmp); err != nil {
			return buf, err
		}
	}
	vs = append(vs, s.cur...)
	if s.sp != nil {
		s.sp.release(s.chunks)
	}
	s.values, s.chunks, s.cur = vs, nil, nil
	return buf, nil
}

// DefaultChunk is the most values in a chunk of a series (32 KiB); a
// small budget or many series make smaller chunks (newSpill).
const DefaultChunk = 4096

// DefaultBudget is Options.Budget's default: the bytes of values Run keeps
// in memory before it writes them to Options.Spill (as
// internal/openmetrics' DefaultBudget for its windows).
const DefaultBudget = 8 << 20

// SpillFile is where Run writes the values beyond its budget (written at
// increasing offsets, then read back): a temporary file, or a buffer in
// memory. *os.File is one.
type SpillFile interface {
	io.ReaderAt
	io.WriterAt
}

// SpillError is a failure of Options.Spill: Op ("writing" or "reading")
// Len bytes at Offset.
type SpillError struct {
	Op     string
	Offset int64
	Len    int
	Err    error
}

func (e *SpillError) Error() string {
	b := []byte("analysis: ")
	b = append(b, e.Op...)
	b = append(b, " the values' spill file: "...)
	b = strconv.AppendInt(b, int64(e.Len), 10)
	b = append(b, " bytes at offset "...)
	b = strconv.AppendInt(b, e.Offset, 10)
	if e.Err != nil {
		b = append(b, ": "...)
		b = append(b, e.Err.Error()...)
	}
	return string(b)
}

// Unwrap returns the spill's error.
func (e *SpillError) Unwrap() error { return e.Err }

// spill is a Run's budget for the values in memory and its spill file.
type spill struct {
	f      SpillFile  // nil: everything in memory
	budget int        // bytes of full chunks kept in memory
	inMem  int        // bytes of full chunks in memory
	chunk  int        // values a chunk
	size   int64      // bytes written to f
	buf    []byte     // write's
	err    error      // the first failure of f
	mu     sync.Mutex // guards inMem in release
}

// newSpill returns the spill of opts for a number of stores.
//
// A chunk holds DefaultChunk values, fewer where the budget would not
// hold 64 full chunks and two per store (each store's chunk being filled
// is outside the budget), but not fewer than 256 (2 KiB: a spilled series
// is read back at least 2 KiB a read) unless the budget is below 128 KiB.
func newSpill(opts *Options, stores int) *spill {
	sp := &spill{f: opts.Spill, budget: opts.Budget, chunk: DefaultChunk}
	if sp.f == nil {
		return sp
	}
	if sp.budget <= 0 {
		sp.budget = DefaultBudget
	}
	least := max(min(256, sp.budget/8/64), 1)
	sp.chunk = min(max(sp.budget/8/max(64, 2*stores), least), DefaultChunk)
	return sp
}

// keep reports whether a full chunk stays in memory, and counts it.
func (sp *spill) keep() bool {
	if sp == nil || sp.f == nil {
		return true
	}
	if sp.inMem+8*sp.chunk > sp.budget {
		return false
	}
	sp.inMem += 8 * sp.chunk
	return true
}

// release uncounts the chunks of a store that load gathered (stores may
// be loaded concurrently).
func (sp *spill) release(cs []chunk) {
	if sp.f == nil {
		return
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for _, c := range cs {
		if c.mem != nil {
			sp.inMem -= 8 * c.n
		}
	}
}

// write appends vs to the file and returns their offset; false after a
// failure (kept in err: no later write is tried).
func (sp *spill) write(vs []float64) (int64, bool) {
	if sp.err != nil {
		return 0, false
	}
	sp.buf = sp.buf[:0]
	for _, v := range vs {
		sp.buf = binary.LittleEndian.AppendUint64(sp.buf, math.Float64bits(v))
	}
	off := sp.size
	n, err := sp.f.WriteAt(sp.buf, off)
	if err == nil && n < len(sp.buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		sp.err = &SpillError{Op: "writing", Offset: off, Len: len(sp.buf), Err: err}
		return 0, false
	}
	sp.size += int64(n)
	return off, true
}

// read appends the values of chunk c, read from the file (through the
// buffer tmp, grown as needed), to vs. Reads may run concurrently.
func (sp *spill) read(vs []float64, c chunk, tmp *[]byte) ([]float64, error) {
	need := 8 * c.n
	if cap(*tmp) < need {
		*tmp = make([]byte, need)
	}
	b := (*tmp)[:need]
	n, err := sp.f.ReadAt(b, c.off)
	if n == need {
		err = nil // io.EOF at the end of the file
	} else if err == nil {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return vs, &SpillError{Op: "reading", Offset: c.off, Len: need, Err: err}
	}
	for i := 0; i < need; i += 8 {
		vs = append(vs, math.Float64frombits(binary.LittleEndian.Uint64(b[i:])))
	}
	return vs, nil
}

// bounds returns the positions [lo, hi) of exact slice k among the values.
// (load sets values first.)
func (s *store) bounds(k int) (lo, hi int) {
	n := len(s.values)
	lo, hi = n, n
	if k < len(s.offsets) {
		lo = int(s.offsets[k])
	}
	if k+1 < len(s.offsets) {
		hi = int(s.offsets[k+1])
	}
	return lo, hi
}

// roundTo rounds v to d decimals, half to even, as .NET's Math.Round(v, d)
// (PAL's DATATYPE); d < 0 leaves v as it is, and so does a v too large to
// scale.
func roundTo(v float64, d int) float64 {
	if d < 0 {
		return v
	}
	if d == 0 {
		return math.RoundToEven(v)
	}
	p := math.Pow10(min(d, 15))
	x := v * p
	if math.Abs(x) >= 1e16 || math.IsInf(x, 0) || math.IsNaN(x) {
		return v
	}
	r := math.RoundToEven(x) / p
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return v
	}
	return r
}

// finite returns v, or 0 when it is NaN or ±Inf: no report holds either (a
// sum of huge values may overflow).
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// mean returns the mean of vs: their sum ÷ their count, or, where the sum
// overflows, the sum of each ÷ the count.
func mean(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	sum := 0.0
	for _, v := range vs {
		sum += v
	}
	n := float64(len(vs))
	if m := sum / n; !math.IsInf(m, 0) && !math.IsNaN(m) {
		return m
	}
	m := 0.0
	for _, v := range vs {
		m += v / n
	}
	return finite(m)
}

// minMax returns the smallest and largest of vs (not empty).
func minMax(vs []float64) (lo, hi float64) {
	lo, hi = vs[0], vs[0]
	for _, v := range vs[1:] {
		lo = min(lo, v)
		hi = max(hi, v)
	}
	return lo, hi
}

// hourly scales a change per slice of interval seconds to a change per
// hour, as PAL's CalculateHourlyTrend does (× 3600/I below an hour, ÷ I/3600
// above).
func hourly(v float64, interval int64) float64 {
	switch i := float64(interval); {
	case interval < 3600:
		return v * (3600 / i)
	case interval > 3600:
		return v / (i / 3600)
	}
	return v
}

// sliceStats computes a series' statistics per slice.
//
// Exact: min, mean and max of the slice's valid values (already rounded);
// the trend of slice i is (mean[i] − mean[f]) ÷ (i − f) per hour, f the
// first slice with values (0 for f itself and for slices without values).
//
// Compat (PAL): the values of slice k are those at the slice's row
// positions among the series' valid values (the shift quirk); min, mean
// and max are rounded to the series' decimals; a slice without values has
// the mean −1 and the min and max 0, and a slice reaching past the values
// the min 0 (PAL compares with $null); trend[i] is the sum of the
// differences of consecutive means up to i, ÷ i, per hour, rounded to an
// integer.
func sliceStats(s *store, tl *timeline, interval int64) []Stats {
	out := make([]Stats, len(tl.slices))
	if tl.compat && !s.perSlice {
		sum := 0.0
		for k := range out {
			lo, hi, beyond := tl.compatBounds(k, len(s.values))
			st := &out[k]
			vs := s.values[lo:hi]
			st.N = len(vs)
			if st.N == 0 {
				st.Avg = -1
			} else {
				a, b := minMax(vs)
				sum := 0.0
				for _, v := range vs {
					sum += v
				}
				st.Min, st.Max = roundTo(a, s.round), roundTo(b, s.round)
				st.Avg = finite(roundTo(sum/float64(st.N), s.round))
				if beyond {
					st.Min = 0
				}
			}
			if k > 0 {
				sum += out[k].Avg - out[k-1].Avg
				st.Trend = finite(math.RoundToEven(hourly(sum/float64(k), interval)))
			}
		}
		return out
	}
	first := -1
	for k := range out {
		lo, hi := s.bounds(k)
		vs := s.values[lo:hi]
		st := &out[k]
		st.N = len(vs)
		if st.N == 0 {
			continue
		}
		st.Min, st.Max = minMax(vs)
		st.Avg = mean(vs)
		if first < 0 {
			first = k
			continue
		}
		st.Trend = finite(hourly((st.Avg-out[first].Avg)/float64(k-first), interval))
	}
	if tl.compat { // a series computed per slice: PAL's rounding and trend
		sum := 0.0
		for k := range out {
			st := &out[k]
			if st.N == 0 {
				st.Avg = -1
			} else {
				st.Min, st.Avg, st.Max = roundTo(st.Min, s.round), roundTo(st.Avg, s.round), roundTo(st.Max, s.round)
			}
			st.Trend = 0
			if k > 0 {
				sum += out[k].Avg - out[k-1].Avg
				st.Trend = finite(math.RoundToEven(hourly(sum/float64(k), interval)))
			}
		}
	}
	return out
}

// overallStats computes a series' statistics over the whole log (every
// valid value: in compat mode too, those of PAL's dropped last slice),
// given its slices' statistics.
//
// Exact: min, mean, max; the trend of the last slice with values; the
// sample standard deviation (two passes: √(Σ(x − mean)² ÷ (n − 1)), 0 for
// one value); the means without the highest 10, 20 and 30 % of the values
// (⌊n·p/100⌋ values left out); the nearest-rank percentiles 90, 95, 99
// (the ⌈p/100·n⌉-th smallest).
//
// Compat (PAL): min, mean, max, the last slice's trend and the standard
// deviation √|(Σx² − (Σx)²/n) ÷ (n − 1)| (0 where Σx ≤ 0) rounded to the
// series' decimals; Trimmed holds PAL's "outliers removed" figures
// (outliersPAL); Percentiles are the exact ones.
//
// It sorts s.values in place (after the figures that depend on their
// order): the values of a series are not used after its statistics.
func overallStats(s *store, sl []Stats, compat bool) Overall {
	var o Overall
	vs := s.values
	o.N = len(vs)
	if o.N == 0 {
		return o
	}
	o.Min, o.Max = minMax(vs)
	o.Avg = mean(vs)
	if compat {
		if len(sl) > 0 {
			o.Trend = roundTo(sl[len(sl)-1].Trend, s.round)
		}
	} else {
		for k := len(sl) - 1; k >= 0; k-- {
			if sl[k].N > 0 {
				o.Trend = sl[k].Trend
				break
			}
		}
	}
	n := len(vs)
	if compat {
		sum, sq := 0.0, 0.0
		for _, v := range vs {
			sum += v
			sq += float64(v * v) // the conversion forbids a fused multiply-add (arm64): the same bits on every host
		}
		o.Avg = finite(sum / float64(n))
		if sum > 0 {
			d := float64(n - 1)
			if n == 1 {
				d = 1
			}
			o.StdDev = finite(math.Sqrt(math.Abs((sq - sum*sum/float64(n)) / d)))
		}
	} else {
		o.StdDev = stdDev(vs, o.Avg)
	}
	// The order statistics, from the values sorted in place.
	sorted := vs
	sortFloats(sorted)
	for i, p := range [3]int{90, 95, 99} {
		r := (p*n + 99) / 100
		o.Percentiles[i] = sorted[max(r, 1)-1]
	}
	if compat {
		for i, p := range [3]int{90, 80, 70} {
			o.Trimmed[i] = roundTo(outliersPAL(sorted, p), s.round)
		}
		o.Min, o.Avg, o.Max = roundTo(o.Min, s.round), roundTo(o.Avg, s.round), roundTo(o.Max, s.round)
		o.StdDev = roundTo(o.StdDev, s.round)
		return o
	}
	for i, p := range [3]int{10, 20, 30} {
		o.Trimmed[i] = mean(sorted[:n-n*p/100])
	}
	return o
}

// stdDev returns the sample standard deviation of vs about their mean m,
// scaled by the largest deviation so that squares cannot overflow.
func stdDev(vs []float64, m float64) float64 {
	if len(vs) < 2 {
		return 0
	}
	scale := 0.0
	for _, v := range vs {
		scale = max(scale, math.Abs(v-m))
	}
	if scale == 0 || math.IsInf(scale, 0) || math.IsNaN(scale) {
		return 0
	}
	sq := 0.0
	for _, v := range vs {
		d := (v - m) / scale
		sq += float64(d * d) // no fused multiply-add: the same bits on every host
	}
	return finite(scale * math.Sqrt(sq/float64(len(vs)-1)))
}

// outliersPAL is PAL's CalculatePercentile(values, p), which its report
// labels "(100 − p)% of Outliers Removed": with the values sorted
// ascending and r = [int](p/100 · n) (rounded half to even), the value at
// n − r when that equals min(r, n − 1), else the mean of the first
// min(r, n − 1) values (0 when that is none: PAL prints "-").
func outliersPAL(sorted []float64, p int) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	r := int(math.RoundToEven(float64(p) / 100 * float64(n)))
	lb, ub := n-r, min(r, n-1)
	if lb == ub {
		return sorted[lb]
	}
	if ub <= 0 {
		return 0
	}
	sum := 0.0
	for _, v := range sorted[:ub] {
		sum += v
	}
	return finite(sum / float64(ub))
}
