package engine

// Statistics summarise a series of raw samples of one counter, like PDH's
// PdhComputeCounterStatistics.
type Statistics struct {
	_       [0]func() // not comparable: no equality function in the module
	Count   int       // values that were Valid
	Skipped int       // samples or pairs whose value was not Valid
	Min     float64   // smallest Valid value (0 when Count is 0)
	Max     float64   // largest Valid value (0 when Count is 0)
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
// in memory that does not grow with the series (144 bytes; 192 in the
// WebAssembly module, whose code it keeps smaller): for a log's
// columns, which cannot all hold their series. Its Statistics equal
// ComputeStatistics' over the samples added, bit for bit: the values are
// computed and summed in the same order. The zero StatisticsFold is one
// of the counter type 0 with options 0.
type StatisticsFold struct {
	_              [0]func() // not comparable: no equality function in the module
	c              Counter
	count, skipped int
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

// Add adds the next sample of the series.
func (f *StatisticsFold) Add(s RawCounter) {
	two := f.c.Type.Samples() == 2
	if !two || f.n > 0 {
		in := Input{Counter: f.c, HasOld: two, New: s}
		if two {
			in.Old = f.prev.raw()
		}
		f.add(Compute(&in, f.opts))
	}
	f.n++
	f.prev = toFold(&s)
	if s.CStatus>>1 == 0 {
		if f.good == 0 {
			f.first = f.prev
			f.good = 1
		} else {
			f.good = 2
		}
		f.last = f.prev
	}
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
	st := Statistics{Count: f.count, Skipped: f.skipped, Min: f.min, Max: f.max}
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
		// The sum stays finite: a Valid value is below about 1e52, so even
		// 2^63 of them add up to less than 1e72.
		st.Mean = f.sum / float64(st.Count)
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
