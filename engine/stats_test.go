package engine

import (
	"math"
	"testing"
)

// nd builds raw samples from (N, D) pairs.
func nd(pairs ...uint64) []RawCounter {
	s := make([]RawCounter, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		s = append(s, RawCounter{FirstValue: pairs[i], SecondValue: pairs[i+1], MultiCount: 1})
	}
	return s
}

// bad marks sample i of s with a bad CStatus.
func bad(s []RawCounter, i int, cstatus uint32) []RawCounter {
	s[i].CStatus = cstatus
	return s
}

func TestComputeStatistics(t *testing.T) {
	for _, tc := range []struct {
		name    string
		c       Counter
		samples []RawCounter
		opts    Options
		want    Statistics
	}{
		{
			// Pair values 10/1, 20/2, 0/1, 30/4; their arithmetic mean
			// would be 6.875, the spec's mean is (60 − 0) / ((8 − 0) / 1).
			name:    "rate",
			c:       Counter{Type: CounterCounter, TimeBase: 1},
			samples: nd(0, 0, 10, 1, 30, 3, 30, 4, 60, 8),
			want:    Statistics{Count: 4, Min: 0, Max: 10, Mean: fl(60) / (fl(8) / fl(1)), MeanStatus: Valid},
		},
		{
			name:    "rate/literal mean",
			c:       Counter{Type: CounterBulkCount, TimeBase: 2},
			samples: nd(0, 0, 10, 2, 30, 6, 30, 8, 60, 16),
			want:    Statistics{Count: 4, Min: 0, Max: 10, Mean: 7.5, MeanStatus: Valid},
		},
		{
			name:    "rate/bad sample in the middle",
			c:       Counter{Type: CounterCounter, TimeBase: 1},
			samples: bad(nd(0, 0, 10, 1, 999, 2, 30, 3, 60, 4), 2, CStatusNoMachine),
			want:    Statistics{Count: 2, Skipped: 2, Min: 10, Max: 30, Mean: fl(60) / (fl(4) / fl(1)), MeanStatus: Valid},
		},
		{
			name:    "rate/bad first sample: the mean starts at the first good one",
			c:       Counter{Type: CounterCounter, TimeBase: 1},
			samples: bad(nd(500, 0, 10, 1, 30, 3, 60, 4), 0, CStatusInvalidData),
			want:    Statistics{Count: 2, Skipped: 1, Min: 10, Max: 30, Mean: fl(50) / (fl(3) / fl(1)), MeanStatus: Valid},
		},
		{
			name:    "rate/counter reset",
			c:       Counter{Type: CounterCounter, TimeBase: 1},
			samples: nd(100, 0, 110, 1, 5, 2, 25, 3),
			want:    Statistics{Count: 2, Skipped: 1, Min: 10, Max: 20, Mean: 0, MeanStatus: NegativeValue},
		},
		{
			name:    "rate/one sample",
			c:       Counter{Type: CounterCounter, TimeBase: 1},
			samples: nd(100, 0),
			want:    Statistics{MeanStatus: NewData},
		},
		{
			name:    "rate/no sample",
			c:       Counter{Type: CounterCounter, TimeBase: 1},
			samples: nil,
			want:    Statistics{MeanStatus: NewData},
		},
		{
			name:    "rate/all bad",
			c:       Counter{Type: CounterCounter, TimeBase: 1},
			samples: bad(bad(nd(0, 0, 10, 1), 0, 2), 1, 2),
			want:    Statistics{Skipped: 1, MeanStatus: InvalidData},
		},
		{
			name:    "rate/only one good",
			c:       Counter{Type: CounterCounter, TimeBase: 1},
			samples: bad(bad(nd(0, 0, 10, 1, 20, 2), 0, 2), 2, 2),
			want:    Statistics{Skipped: 2, MeanStatus: NewData},
		},
		{
			name:    "percent/Cap100",
			c:       Counter{Type: CounterTimer},
			samples: nd(0, 0, 50, 100, 250, 200),
			opts:    Cap100,
			want:    Statistics{Count: 2, Min: 50, Max: 100, Mean: 100, MeanStatus: Valid},
		},
		{
			name:    "percent/no cap",
			c:       Counter{Type: CounterTimer},
			samples: nd(0, 0, 50, 100, 250, 200),
			want:    Statistics{Count: 2, Min: 50, Max: 200, Mean: fl(250) / fl(200) * 100, MeanStatus: Valid},
		},
		{
			name:    "inverse timer",
			c:       Counter{Type: Timer100nsInv, TimeBase: f100ns},
			samples: nd(0, 0, 25, 100, 125, 200),
			want:    Statistics{Count: 2, Min: 0, Max: 75, Mean: 100 * (1 - fl(125)/fl(200)), MeanStatus: Valid},
		},
		{
			name:    "raw count/arithmetic mean",
			c:       Counter{Type: CounterRawcount},
			samples: bad(nd(1, 0, 2, 0, 3, 0, 99, 0, 10, 0), 3, CStatusNoMachine),
			want:    Statistics{Count: 4, Skipped: 1, Min: 1, Max: 10, Mean: (fl(1) + 2 + 3 + 10) / 4, MeanStatus: Valid},
		},
		{
			name:    "raw count/scaled",
			c:       Counter{Type: CounterLargeRawcount, Scale: -1},
			samples: nd(10, 0, 20, 0, 60, 0),
			opts:    Scale,
			want:    Statistics{Count: 3, Min: 1, Max: 6, Mean: 3, MeanStatus: Valid},
		},
		{
			name:    "raw fraction",
			c:       Counter{Type: RawFraction},
			samples: nd(1, 4, 1, 2, 3, 4, 1, 0),
			want:    Statistics{Count: 3, Skipped: 1, Min: 25, Max: 75, Mean: (fl(25) + 50 + 75) / 3, MeanStatus: Valid},
		},
		{
			name:    "raw fraction/all zero bases",
			c:       Counter{Type: RawFraction},
			samples: nd(1, 0, 1, 0),
			want:    Statistics{Skipped: 2, MeanStatus: NegativeDenominator},
		},
		{
			name:    "raw count/all bad",
			c:       Counter{Type: CounterRawcount},
			samples: bad(nd(1, 0), 0, 5),
			want:    Statistics{Skipped: 1, MeanStatus: InvalidData},
		},
		{
			name: "raw count/no sample",
			c:    Counter{Type: CounterRawcount},
			want: Statistics{MeanStatus: NewData},
		},
		{
			name:    "delta/arithmetic mean of the deltas",
			c:       Counter{Type: CounterDelta},
			samples: nd(0, 1, 5, 2, 15, 3, 15, 4),
			want:    Statistics{Count: 3, Min: 0, Max: 10, Mean: 5, MeanStatus: Valid},
		},
		{
			name:    "large delta/one sample",
			c:       Counter{Type: CounterLargeDelta},
			samples: nd(7, 0),
			want:    Statistics{MeanStatus: NewData},
		},
		{
			name:    "elapsed",
			c:       Counter{Type: ElapsedTime, TimeBase: 10},
			samples: nd(0, 100, 0, 200, 0, 600),
			want:    Statistics{Count: 3, Min: 10, Max: 60, Mean: (fl(10) + 20 + 60) / 3, MeanStatus: Valid},
		},
		{
			name:    "average timer",
			c:       Counter{Type: AverageTimer, TimeBase: 1000},
			samples: nd(0, 0, 3000, 2, 4000, 4),
			want:    Statistics{Count: 2, Min: 0.5, Max: 1.5, Mean: fl(4000) / fl(1000) / fl(4), MeanStatus: Valid},
		},
		{
			name:    "multi timer",
			c:       Counter{Type: CounterMultiTimer, TimeBase: 1},
			samples: nd(0, 0, 100, 100, 300, 200),
			want:    Statistics{Count: 2, Min: 100, Max: 200, Mean: fl(300) / fl(200) / fl(1) * 100, MeanStatus: Valid},
		},
		{
			name:    "unknown type",
			c:       Counter{Type: 0x12345678},
			samples: nd(1, 1, 2, 2, 3, 3),
			want:    Statistics{Skipped: 3, MeanStatus: UnknownType},
		},
		{
			name:    "base type",
			c:       Counter{Type: AverageBase},
			samples: nd(1, 1, 2, 2),
			want:    Statistics{Skipped: 2, MeanStatus: NotDisplayable},
		},
		{
			name:    "rate/zero frequency",
			c:       Counter{Type: CounterCounter},
			samples: nd(1, 1, 2, 2),
			want:    Statistics{Skipped: 1, MeanStatus: NegativeDenominator},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have := ComputeStatistics(tc.c, tc.samples, tc.opts)
			if have.Count != tc.want.Count || have.Skipped != tc.want.Skipped || have.MeanStatus != tc.want.MeanStatus {
				t.Errorf("have count %d skipped %d mean status %v, want %d %d %v",
					have.Count, have.Skipped, have.MeanStatus, tc.want.Count, tc.want.Skipped, tc.want.MeanStatus)
			}
			for _, f := range []struct {
				name       string
				have, want float64
			}{
				{"Min", have.Min, tc.want.Min},
				{"Max", have.Max, tc.want.Max},
				{"Mean", have.Mean, tc.want.Mean},
			} {
				if math.Float64bits(f.have) != math.Float64bits(f.want) {
					t.Errorf("%s: have %v, want %v", f.name, f.have, f.want)
				}
			}
		})
	}
}

// TestComputeStatisticsMatchesCompute checks min, max and count against the
// values Compute gives pair by pair.
func TestComputeStatisticsMatchesCompute(t *testing.T) {
	samples := nd(0, 0, 7, 3, 7, 5, 20, 6, 2, 9, 40, 20, 41, 20, 90, 31)
	for _, typ := range Types() {
		t.Run(typ.String(), func(t *testing.T) {
			c := Counter{Type: typ, TimeBase: 3}
			st := ComputeStatistics(c, samples, 0)
			count, skipped := 0, 0
			lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
			for i := range samples {
				in := Input{Counter: c, New: samples[i]}
				if typ.Samples() == 2 {
					if i == 0 {
						continue
					}
					in.HasOld, in.Old = true, samples[i-1]
				}
				r := Compute(&in, 0)
				if r.Status != Valid {
					skipped++
					continue
				}
				count++
				sum += r.Value
				lo, hi = min(lo, r.Value), max(hi, r.Value)
			}
			mean := 0.0
			if count == 0 {
				lo, hi = 0, 0
			} else {
				mean = sum / float64(count)
			}
			if math.Float64bits(st.ValidMean) != math.Float64bits(mean) || st.Invalid != 0 {
				t.Errorf("have valid mean %v invalid %d, want %v 0", st.ValidMean, st.Invalid, mean)
			}
			if st.Count != count || st.Skipped != skipped || st.Min != lo || st.Max != hi {
				t.Errorf("have %+v, want count %d skipped %d min %v max %v", st, count, skipped, lo, hi)
			}
		})
	}
}

// TestStatisticsValidMeanInvalid checks the figures that are not PDH's
// against hand-computed values: the mean of the Valid values stands where
// PDH's mean is NegativeValue, and Invalid counts bad samples, not pairs.
func TestStatisticsValidMeanInvalid(t *testing.T) {
	for _, tc := range []struct {
		name           string
		c              Counter
		samples        []RawCounter
		validMean      float64
		invalid        int
		pdhMeanStatus  Status
		count, skipped int
	}{
		// Pairs 10/1, 20/2 (reset skipped: NegativeValue), 20/1: PDH's
		// mean (25 − 100) is negative; the valid values' mean is 50/3.
		{"rate/counter reset", Counter{Type: CounterCounter, TimeBase: 1}, nd(100, 0, 110, 1, 5, 2, 25, 3), (fl(10) + 20) / 2, 0, NegativeValue, 2, 1},
		// One bad sample (index 2) skips two pairs; Invalid counts it once.
		{"rate/bad sample", Counter{Type: CounterCounter, TimeBase: 1}, bad(nd(0, 0, 10, 1, 999, 2, 30, 3, 60, 4), 2, CStatusNoMachine), (fl(10) + 30) / 2, 1, Valid, 2, 2},
		{"raw count/bad sample", Counter{Type: CounterRawcount}, bad(nd(1, 0, 2, 0, 3, 0, 99, 0, 10, 0), 3, CStatusNoMachine), (fl(1) + 2 + 3 + 10) / 4, 1, Valid, 4, 1},
		// New data (1) is a good CStatus; 2 and 5 are bad.
		{"rate/all bad", Counter{Type: CounterCounter, TimeBase: 1}, bad(bad(nd(0, 0, 10, 1, 20, 2), 0, 2), 2, 5), 0, 2, NewData, 0, 2},
		{"rate/new data is good", Counter{Type: CounterCounter, TimeBase: 1}, bad(nd(0, 0, 10, 1), 0, CStatusNewData), 10, 0, Valid, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := ComputeStatistics(tc.c, tc.samples, 0)
			if math.Float64bits(st.ValidMean) != math.Float64bits(tc.validMean) || st.Invalid != tc.invalid ||
				st.MeanStatus != tc.pdhMeanStatus || st.Count != tc.count || st.Skipped != tc.skipped {
				t.Errorf("have valid mean %v invalid %d mean status %v count %d skipped %d, want %v %d %v %d %d",
					st.ValidMean, st.Invalid, st.MeanStatus, st.Count, st.Skipped, tc.validMean, tc.invalid, tc.pdhMeanStatus, tc.count, tc.skipped)
			}
		})
	}
}

// TestPercentile checks the nearest rank against hand-computed ranks.
func TestPercentile(t *testing.T) {
	ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	hundredOne := make([]float64, 101)
	for i := range hundredOne {
		hundredOne[i] = float64(i)
	}
	for _, tc := range []struct {
		sorted []float64
		p      int
		want   float64
	}{
		{ten, 90, 9},   // rank ⌈9⌉ = 9
		{ten, 95, 10},  // rank ⌈9.5⌉ = 10
		{ten, 99, 10},  // rank ⌈9.9⌉ = 10
		{ten, 100, 10}, // the largest
		{ten, 10, 1},
		{ten, 11, 2},         // rank ⌈1.1⌉ = 2
		{hundredOne, 90, 90}, // rank ⌈90.9⌉ = 91: the value 90
		{hundredOne, 99, 99}, // rank ⌈99.99⌉ = 100
		{[]float64{7}, 90, 7},
		{nil, 90, 0},
		{ten, 0, 0},
		{ten, 101, 0},
	} {
		if have := Percentile(tc.sorted, tc.p); have != tc.want {
			t.Errorf("Percentile(%d values, %d) = %v, want %v", len(tc.sorted), tc.p, have, tc.want)
		}
	}
}
