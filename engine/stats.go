package engine

// Statistics summarise a series of raw samples of one counter, like PDH's
// PdhComputeCounterStatistics.
type Statistics struct {
	_       [0]func() // not comparable: no equality function in the module
	Count   int       // values that were Valid
	Skipped int       // samples or pairs whose value was not Valid
	// Invalid is the number of samples whose CStatus is bad (neither
	// PDH_CSTATUS_VALID_DATA nor PDH_CSTATUS_NEW_DATA): not PDH's; a bad
	// sample makes Skipped count the values of both pairs it is in.
	Invalid int
	Min     float64 // smallest Valid value (0 when Count is 0)
	Max     float64 // largest Valid value (0 when Count is 0)
	// Mean is the mean value over the series: for a 2-sample type, the
	// formula applied to the first and the last sample with a good CStatus
	// (for a rate, (Nx − N0) / ((Dx − D0) / F): the "Average" of the
	// counter-type pages); for a 1-sample type and for the delta types
	// (PERF_COUNTER_DELTA, PERF_COUNTER_LARGE_DELTA), whose value over the
	// whole series is not an average, the arithmetic mean of the Valid
	// values.
	Mean float64
	// MeanStatus is the status of Mean: Valid, or why there is none (for
	// example NewData when fewer than two good samples exist).
	MeanStatus Status
	// ValidMean is the arithmetic mean of the Valid values (0 when Count
	// is 0): not PDH's. For a 1-sample type and the delta types it is
	// Mean; for the other 2-sample types it stands when Mean does not (a
	// bad first or last sample makes PDH's mean NegativeValue or
	// InvalidData), and differs from Mean where pairs were skipped.
	ValidMean float64
}

// ComputeStatistics computes the statistics of a series of raw samples of
// the counter c, oldest first, with the given options. A 2-sample type
// yields one value per pair of consecutive samples; a 1-sample type one per
// sample. It allocates nothing. It is the Statistics of a StatisticsFold to
// which every sample was added in order.
func ComputeStatistics(c Counter, samples []RawCounter, opts Options) Statistics {
	f := NewStatisticsFold(c, opts)
	for i := range samples {
		f.Add(samples[i])
	}
	return f.Statistics()
}

// StatisticsFold computes the Statistics of a series one sample at a time,
// in memory that does not grow with the series (152 bytes; 200 in the
// WebAssembly module, whose code it keeps smaller): for a log's
// columns, which cannot all hold their series. Its Statistics equal
// ComputeStatistics' over the samples added, bit for bit: the values are
// computed and summed in the same order. The zero StatisticsFold is one
// of the counter type 0 with options 0.
type StatisticsFold struct {
	_              [0]func() // not comparable: no equality function in the module
	c              Counter
	count, skipped int
	invalid        int // samples with a bad CStatus
	min, max, sum  float64
	n              int // samples added
	opts           Options
	lastBad        Status // the status of the last skipped value
	good           uint8  // samples with a good CStatus, up to 2
	// prev is the last sample added; first and last the first and the
	// last with a good CStatus (the mean of a 2-sample type).
	prev, first, last foldRaw
}

// NewStatisticsFold returns a fold over the samples of the counter c with
// the given options, no sample added yet.
func NewStatisticsFold(c Counter, opts Options) StatisticsFold {
	return StatisticsFold{c: c, opts: opts, lastBad: NewData}
}

// Counter returns the counter the fold computes with.
func (f *StatisticsFold) Counter() Counter { return f.c }

// Samples returns the number of samples added.
func (f *StatisticsFold) Samples() int { return f.n }

// Add adds the next sample of the series. It returns the value that the
// sample completes and whether that value is Valid (and so counted): a
// host that keeps the Valid values (for percentiles) appends it.
func (f *StatisticsFold) Add(s RawCounter) (v float64, valid bool) {
	return f.AddRaw(&s)
}

// AddRaw is Add with the sample passed by its address: the same result,
// without copying the sample (WebAssembly copies a RawCounter with a call
// out of the module's code, memory.copy, at every copy). The fold keeps
// no reference to s.
func (f *StatisticsFold) AddRaw(s *RawCounter) (v float64, valid bool) {
	two := f.c.Type.Samples() == 2
	if !two || f.n > 0 {
		// The input field by field (a RawCounter assigned whole is a
		// memory.copy in WebAssembly), in scratchInput in the module
		// (foldScratch).
		var local Input
		in := &local
		if foldScratch {
			in = &scratchInput
		}
		in.Counter, in.HasOld = f.c, two
		setRaw(&in.New, s)
		if two {
			f.prev.old(&in.Old)
		} else {
			in.Old.CStatus, in.Old.TimeStamp, in.Old.FirstValue, in.Old.SecondValue, in.Old.MultiCount = 0, 0, 0, 0, 0
		}
		r := Compute(in, f.opts)
		f.add(r)
		v, valid = r.Value, r.Status == Valid
	}
	f.n++
	if s.CStatus>>1 != 0 {
		f.invalid++
	}
	f.prev.set(s)
	if s.CStatus>>1 == 0 {
		if f.good == 0 {
			f.first.set(s)
			f.good = 1
		} else {
			f.good = 2
		}
		f.last.set(s)
	}
	return v, valid
}

// setRaw sets *d to *s field by field: Go's WebAssembly code copies a
// struct of more than 16 bytes assigned whole with memory.copy, which
// wazero runs as a call to the host's memmove.
func setRaw(d, s *RawCounter) {
	d.CStatus, d.TimeStamp, d.FirstValue, d.SecondValue, d.MultiCount = s.CStatus, s.TimeStamp, s.FirstValue, s.SecondValue, s.MultiCount
}

// add takes in one value of the series.
func (f *StatisticsFold) add(r Result) {
	if r.Status != Valid {
		f.skipped++
		f.lastBad = r.Status
		return
	}
	if f.count == 0 || r.Value < f.min {
		f.min = r.Value
	}
	if f.count == 0 || r.Value > f.max {
		f.max = r.Value
	}
	f.count++
	f.sum += r.Value
}

// Statistics returns the statistics of the samples added so far.
func (f *StatisticsFold) Statistics() Statistics {
	st := Statistics{Count: f.count, Skipped: f.skipped, Invalid: f.invalid, Min: f.min, Max: f.max}
	if st.Count > 0 {
		// The sum stays finite: a Valid value is below about 1e52, so even
		// 2^63 of them add up to less than 1e72.
		st.ValidMean = f.sum / float64(st.Count)
	}
	c, opts := f.c, f.opts
	if !c.Type.Known() || !c.Type.Displayable() {
		st.MeanStatus = compute(&Input{Counter: c}, opts).Status
		return st
	}
	if c.Type.Samples() != 2 || c.Type == CounterDelta || c.Type == CounterLargeDelta {
		if st.Count == 0 {
			// No value at all (no sample, or a single one of a delta
			// type) is NewData; otherwise the values were all skipped,
			// and the last one says why.
			st.MeanStatus = f.lastBad
			return st
		}
		st.Mean = st.ValidMean
		return st
	}
	if f.good < 2 {
		st.MeanStatus = NewData
		if f.good == 0 && f.n > 0 {
			st.MeanStatus = InvalidData
		}
		return st
	}
	r := compute(&Input{Counter: c, HasOld: true, Old: f.first.raw(), New: f.last.raw()}, opts)
	st.Mean, st.MeanStatus = r.Value, r.Status
	return st
}

// Percentile returns the p-th percentile (0 < p ≤ 100) of the values in
// sorted (ascending, none NaN) by the nearest-rank method: the smallest
// value that at least p percent of the values are less than or equal to,
// always one of the values (numpy's percentile with
// method="inverted_cdf"). It returns 0 for no value or p out of range.
func Percentile(sorted []float64, p int) float64 {
	n := len(sorted)
	if n == 0 || p <= 0 || p > 100 {
		return 0
	}
	// The rank ⌈p·n/100⌉, in integers: p·n fits an int for any slice.
	k := (p*n + 99) / 100
	return sorted[k-1]
}
