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
// sample. It allocates nothing.
func ComputeStatistics(c Counter, samples []RawCounter, opts Options) Statistics {
	var st Statistics
	var sum float64
	lastBad := NewData // the status of the last skipped value
	add := func(r Result) {
		if r.Status != Valid {
			st.Skipped++
			lastBad = r.Status
			return
		}
		if st.Count == 0 || r.Value < st.Min {
			st.Min = r.Value
		}
		if st.Count == 0 || r.Value > st.Max {
			st.Max = r.Value
		}
		st.Count++
		sum += r.Value
	}
	in := Input{Counter: c}
	twoSample := c.Type.Samples() == 2
	for i := range samples {
		in.New = samples[i]
		if twoSample {
			if i == 0 {
				continue
			}
			in.HasOld, in.Old = true, samples[i-1]
		}
		add(Compute(&in, opts))
	}
	if !c.Type.Known() || !c.Type.Displayable() {
		st.MeanStatus = compute(&Input{Counter: c}, opts).Status
		return st
	}
	if !twoSample || c.Type == CounterDelta || c.Type == CounterLargeDelta {
		if st.Count == 0 {
			// No value at all (no sample, or a single one of a delta
			// type) is NewData; otherwise the values were all skipped,
			// and the last one says why.
			st.MeanStatus = lastBad
			return st
		}
		// The sum stays finite: a Valid value is below about 1e52, so even
		// 2^63 of them add up to less than 1e72.
		st.Mean = sum / float64(st.Count)
		return st
	}
	first, last := -1, -1
	for i := range samples {
		if samples[i].CStatus>>1 == 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 || first == last {
		st.MeanStatus = NewData
		if first < 0 && len(samples) > 0 {
			st.MeanStatus = InvalidData
		}
		return st
	}
	r := compute(&Input{Counter: c, HasOld: true, Old: samples[first], New: samples[last]}, opts)
	st.Mean, st.MeanStatus = r.Value, r.Status
	return st
}
