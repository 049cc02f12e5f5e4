package engine

import (
	"math"
	"math/rand"
	"runtime"
	"testing"
	"unsafe"
)

// computeStatisticsAllValues is ComputeStatistics as it was before
// StatisticsFold (commit 2f327bf), over the whole series at once: the
// reference that the fold must equal bit for bit.
func computeStatisticsAllValues(c Counter, samples []RawCounter, opts Options) Statistics {
	var st Statistics
	var sum float64
	lastBad := NewData
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
			st.MeanStatus = lastBad
			return st
		}
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

// sameStatistics reports whether two Statistics are equal bit for bit.
func sameStatistics(a, b Statistics) bool {
	bits := math.Float64bits
	return a.Count == b.Count && a.Skipped == b.Skipped && bits(a.Min) == bits(b.Min) &&
		bits(a.Max) == bits(b.Max) && bits(a.Mean) == bits(b.Mean) && a.MeanStatus == b.MeanStatus
}

// TestStatisticsFoldAllValues: over random series of every type (and
// unknown ones), with random options, statuses and values (small, huge,
// backwards), a StatisticsFold fed one sample at a time gives the same
// Statistics, bit for bit, as the computation over all values at once, at
// every prefix of the series.
func TestStatisticsFoldAllValues(t *testing.T) {
	rng := rand.New(rand.NewSource(20261126))
	types := append(Types(), 0, 0x12345678)
	value := func() uint64 {
		switch rng.Intn(5) {
		case 0:
			return uint64(rng.Intn(3))
		case 1:
			return rng.Uint64()
		case 2:
			return uint64(rng.Int63n(1 << 32))
		default:
			return uint64(rng.Int63n(1000))
		}
	}
	cases := 20000
	if testing.Short() {
		cases = 2000
	}
	for n := 0; n < cases; n++ {
		c := Counter{Type: types[rng.Intn(len(types))], Scale: int32(rng.Intn(21) - 10), TimeBase: int64(rng.Intn(3)) * rng.Int63n(1e8)}
		opts := Options(rng.Intn(16))
		samples := make([]RawCounter, rng.Intn(12))
		var n0, d0 uint64
		for i := range samples {
			s := &samples[i]
			// Mostly increasing, as counters are; sometimes anything.
			n0 += value()
			d0 += value()
			s.FirstValue, s.SecondValue, s.MultiCount, s.TimeStamp = n0, d0, uint32(rng.Intn(3)), rng.Int63()
			if rng.Intn(8) == 0 {
				s.FirstValue, s.SecondValue = value(), value()
			}
			switch rng.Intn(8) {
			case 0:
				s.CStatus = CStatusNewData
			case 1:
				s.CStatus = CStatusInvalidData
			case 2:
				s.CStatus = 0x800007D1 // PDH_CSTATUS_NO_INSTANCE
			}
		}
		f := NewStatisticsFold(c, opts)
		for i := 0; i <= len(samples); i++ {
			have, want := f.Statistics(), computeStatisticsAllValues(c, samples[:i], opts)
			if !sameStatistics(have, want) {
				t.Fatalf("%v %+v opts %d, %d samples %+v:\nhave %+v\nwant %+v", c.Type, c, opts, i, samples[:i], have, want)
			}
			if have := ComputeStatistics(c, samples[:i], opts); !sameStatistics(have, want) {
				t.Fatalf("ComputeStatistics %v, %d samples: have %+v, want %+v", c.Type, i, have, want)
			}
			if i < len(samples) {
				f.Add(samples[i])
			}
		}
		if f.Samples() != len(samples) || f.Counter() != c {
			t.Fatalf("Samples %d, Counter %+v; want %d, %+v", f.Samples(), f.Counter(), len(samples), c)
		}
	}
}

// TestStatisticsFoldSize pins the fold's size, which a log's every column
// holds in Converter.Statistics.
func TestStatisticsFoldSize(t *testing.T) {
	// 144 and 192 before issue 25; its invalid count (Statistics.Invalid)
	// added 8 bytes.
	want := uintptr(152)
	if runtime.GOARCH == "wasm" {
		want = 200 // foldRaw is a whole RawCounter
	}
	if have := unsafe.Sizeof(StatisticsFold{}); have > want {
		t.Errorf("StatisticsFold is %d bytes, want at most %d", have, want)
	}
}
