package relog

import (
	"bytes"
	"math"
	"math/rand"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/hostile"
)

// statisticsAllValues is Converter.Statistics as it was before it folded
// the rows (commit 2f327bf): every column's whole series in memory, then
// engine.ComputeStatistics with the counter of the column's last value.
// It is the reference the streaming Statistics must equal bit for bit
// (engine's TestStatisticsFoldAllValues proves ComputeStatistics itself
// unchanged).
func statisticsAllValues(c *Converter) ([]engine.Statistics, error) {
	series := make([][]engine.RawCounter, len(c.columns))
	counters := make([]engine.Counter, len(c.columns))
	gaps := make([]int, len(c.columns))
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

// counterChanges returns the number of columns whose counter changes along
// their series (the columns Statistics cannot fold).
func counterChanges(c *Converter) int {
	last := make([]*engine.Counter, len(c.columns))
	changed := make([]bool, len(c.columns))
	n := 0
	for c.Next() {
		for i := range c.row.Cells {
			cell := &c.row.Cells[i]
			if !cell.Present {
				continue
			}
			if last[i] != nil && *last[i] != cell.Counter && !changed[i] {
				changed[i] = true
				n++
			}
			counter := cell.Counter
			last[i] = &counter
		}
	}
	return n
}

// sameStatistics fails the test unless have and want are equal bit for bit.
func sameStatistics(t *testing.T, what string, cols []Column, have, want []engine.Statistics, haveErr, wantErr error) {
	t.Helper()
	if (haveErr == nil) != (wantErr == nil) || haveErr != nil && haveErr.Error() != wantErr.Error() {
		t.Fatalf("%s: error %v, want %v", what, haveErr, wantErr)
	}
	if len(have) != len(want) {
		t.Fatalf("%s: %d statistics, want %d", what, len(have), len(want))
	}
	bits := math.Float64bits
	for i := range want {
		a, b := have[i], want[i]
		if a.Count != b.Count || a.Skipped != b.Skipped || bits(a.Min) != bits(b.Min) || bits(a.Max) != bits(b.Max) ||
			bits(a.Mean) != bits(b.Mean) || a.MeanStatus != b.MeanStatus ||
			a.Invalid != b.Invalid || bits(a.ValidMean) != bits(b.ValidMean) {
			t.Fatalf("%s: column %d %s (%v):\nhave %+v\nwant %+v", what, i, cols[i].Path, cols[i].Type, a, b)
		}
	}
}

// checkStreaming compares Statistics with statisticsAllValues on fresh
// Converters from open, and returns the number of columns whose counter
// changes.
func checkStreaming(t *testing.T, what string, open func() *Converter) int {
	t.Helper()
	c := open()
	have, haveErr := c.Statistics()
	want, wantErr := statisticsAllValues(open())
	sameStatistics(t, what, c.Columns(), have, want, haveErr, wantErr)
	return counterChanges(open())
}

// TestStatisticsStreamingCorpus: on the real logs, alone, with options and
// merged (with themselves and cut in two), the streaming Statistics equal
// the statistics over every column's whole series, bit for bit.
func TestStatisticsStreamingCorpus(t *testing.T) {
	for _, name := range append(realLogs, "cut") {
		var log []byte
		if name == "cut" {
			// Damaged half-way: the statistics of the rows before, and
			// the damage.
			log = readCorpus(t, "Tx_BasicPerfCounters.blg")
			log = log[:len(log)/2+1234]
		} else {
			log = readCorpus(t, name)
		}
		for k, opts := range []Options{{}, {Every: 3}, {Counters: MustPaths(`\\*\*(*)\*`)}} {
			what := name + " options " + strconv.Itoa(k)
			checkStreaming(t, what, func() *Converter { return open(t, log, opts) })
			checkStreaming(t, what+" merged with itself", func() *Converter { return merge(t, opts, log, log) })
		}
		if name == "cut" {
			continue
		}
		n, _, _ := open(t, log, Options{}).Samples()
		a, b := rebuild(t, log, 0, n/2+1), rebuild(t, log, n/2, n)
		checkStreaming(t, name+" halves", func() *Converter { return merge(t, Options{}, b, a) })
	}
}

// randomStatsLog is a log of random raw values of a few counters (single
// and wildcard entries, from a pool of paths whose types and time bases
// are drawn per log), with instances coming and going and bad statuses;
// its samples start at second from and step by step seconds.
func randomStatsLog(rng *rand.Rand, from, step int) []byte {
	types := engine.Types()
	pick := func() counterSpec {
		cs := counterSpec{Type: uint32(types[rng.Intn(len(types))]), TimeBase: []int64{0, 1, 1000, 10_000_000}[rng.Intn(4)],
			Machine: `\\H`, Object: "O", Counter: []string{"A", "B"}[rng.Intn(2)]}
		if rng.Intn(4) == 0 {
			cs.Type = uint32([]engine.CounterType{engine.CounterCounter, engine.CounterRawcount, engine.CounterLargeRawcount}[rng.Intn(3)])
		}
		if rng.Intn(2) == 0 {
			cs.Flags, cs.Instance = 1, "*"
		}
		return cs
	}
	cs := make([]counterSpec, 1+rng.Intn(3))
	for i := range cs {
		cs[i] = pick()
	}
	l := newLog(pacific, collideLocal+8*3600*ticksPerSecond)
	l.record(0x20, collideLocal, counterList(cs...))
	var n, d uint64
	value := func() engine.RawCounter {
		n += uint64(rng.Intn(1000))
		d += uint64(rng.Intn(1000))
		r := engine.RawCounter{FirstValue: n, SecondValue: d, MultiCount: uint32(rng.Intn(3))}
		switch rng.Intn(10) {
		case 0:
			r.CStatus = engine.CStatusInvalidData
		case 1:
			r.CStatus = engine.CStatusNewData
		case 2:
			r.FirstValue, r.SecondValue = rng.Uint64(), uint64(rng.Intn(5))
		}
		return r
	}
	for k := range rng.Intn(14) {
		ts := int64(collideLocal + (from+k*step)*ticksPerSecond)
		var subs [][]byte
		for _, c := range cs {
			if c.Instance != "*" {
				r := value()
				r.TimeStamp = ts
				subs = append(subs, rawCounterRec(r))
				continue
			}
			var names []string
			var raws []engine.RawCounter
			for _, name := range []string{"a", "b", "c"} {
				if rng.Intn(3) > 0 {
					names, raws = append(names, name), append(raws, value())
				}
			}
			subs = append(subs, multiRecRaw(0, ts, names, raws))
		}
		l.record(0x22, ts, sampleRecord(subs...))
	}
	return l.bytes()
}

// TestStatisticsStreamingRandom: on random logs, alone and merged (where
// one path may have other types or time bases in each log, so that a
// column's counter changes along its series and Statistics reads the rows
// again), the streaming Statistics equal the statistics over every
// column's whole series, bit for bit.
func TestStatisticsStreamingRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(20261126))
	cases := 600
	if testing.Short() {
		cases = 100
	}
	changes := 0
	for n := 0; n < cases; n++ {
		a := randomStatsLog(rng, 0, 2)
		what := "case " + strconv.Itoa(n)
		opts := Options{Every: rng.Intn(3)}
		checkStreaming(t, what, func() *Converter { return open(t, a, opts) })
		b := randomStatsLog(rng, rng.Intn(3), 1+rng.Intn(2))
		changes += checkStreaming(t, what+" merged", func() *Converter { return merge(t, opts, a, b) })
	}
	if changes == 0 {
		t.Error("no column's counter changed: the rereading path went untested")
	}
	t.Logf("%d columns whose counter changed", changes)
}

// statsBytes returns the bytes that Statistics allocates (its second
// reading included) on the Tx log repeated copies times, and the log's
// samples and columns.
func statsBytes(t testing.TB, copies int64, all bool) (bytes uint64, samples, columns int) {
	log := newTxLog(t, copies)
	c, err := New(log, log.Size(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if all {
		_, err = statisticsAllValues(c)
	} else {
		_, err = c.Statistics()
	}
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	n, _, _ := c.Samples()
	return after.TotalAlloc - before.TotalAlloc, n, len(c.Columns())
}

// TestStatisticsMemory: Statistics' memory does not grow with the log's
// samples. The Tx log 20 times over (12,000 samples) allocates about as
// much as once (600): before the fold, every column's series took 40 bytes
// per sample (20 times as much).
func TestStatisticsMemory(t *testing.T) {
	one, n1, cols := statsBytes(t, 1, false)
	many, n20, _ := statsBytes(t, 20, false)
	t.Logf("%d columns: %d samples %d bytes, %d samples %d bytes", cols, n1, one, n20, many)
	if many > one+one/2 || many > uint64(cols)*1024+256<<10 {
		t.Errorf("Statistics allocated %d bytes over %d samples, %d over %d: want no growth with the samples", one, n1, many, n20)
	}
}

// BenchmarkStatistics compares the bytes per operation of Statistics
// (state per column) with the old computation over every column's whole
// series (40 bytes per column and sample), on the Tx log 20 times over.
//
//	go test -run '^$' -bench Statistics -benchtime 3x ./engine/relog
func BenchmarkStatistics(b *testing.B) {
	log := newTxLog(b, 20)
	for _, tc := range []struct {
		name string
		all  bool
	}{{"fold", false}, {"all-values", true}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				b.StopTimer()
				c, err := New(log, log.Size(), Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if tc.all {
					_, err = statisticsAllValues(c)
				} else {
					_, err = c.Statistics()
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestStatisticsWideLogMemory bounds what Statistics allocates per column
// on a log whose columns each have one sample (40,000 columns, each
// instance in one sample): the fold's 152 bytes (200 in the module), the
// gap count's 4 and the result's 64 (issue 25 added the invalid count to
// the fold and to the result, and the valid values' mean to the result:
// 24 bytes; the bounds were 200 and 250 before). The values held before the fold cost less on this shape
// (one value: 40 bytes and a slice) and 40 bytes more for each further
// value (TestStatisticsMemory).
func TestStatisticsWideLogMemory(t *testing.T) {
	log := hostile.NewInstancesLog(4, 1000, 10)
	c, err := New(bytes.NewReader(log), int64(len(log)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := c.Statistics(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	per := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(c.Columns()))
	t.Logf("%d columns: %.0f bytes a column", len(c.Columns()), per)
	want := 224.0
	if runtime.GOARCH == "wasm" {
		want = 274
	}
	if per > want {
		t.Errorf("%.0f bytes a column, want at most %.0f", per, want)
	}
}

// TestStatisticsStreamingWholeObjects: in one log of whole objects, a
// sample whose PERF_DATA_BLOCK has another PerfFreq changes the time base
// of its rate counters: Statistics reads the log a third time for those
// columns, and still equals the statistics over every column's whole
// series, bit for bit.
func TestStatisticsStreamingWholeObjects(t *testing.T) {
	log := readCorpus(t, "PAL_SamplePerfmonLog.blg")
	sig := []byte{'P', 0, 'E', 0, 'R', 0, 'F', 0}
	var at []int
	for i := 0; ; {
		j := bytes.Index(log[i:], sig)
		if j < 0 {
			break
		}
		at, i = append(at, i+j), i+j+1
	}
	if len(at) < 10 {
		t.Fatalf("%d PERF_DATA_BLOCKs", len(at))
	}
	for _, k := range []int{len(at) / 2, len(at) - 1} {
		b := append([]byte(nil), log...)
		le.PutUint64(b[at[k]+64:], le.Uint64(b[at[k]+64:])*2) // PerfFreq
		what := "block " + strconv.Itoa(k)
		if n := checkStreaming(t, what, func() *Converter { return open(t, b, Options{}) }); n == 0 {
			t.Errorf("%s: no column's counter changed", what)
		}
	}
}

// TestSkippedEventsSplit: a damaged event header in a later part of a
// log that the first reading splits among goroutines is counted once, as
// when the log is read in one piece (Converter.SkippedEvents).
func TestSkippedEventsSplit(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	log := newTxLog(t, 40).Bytes() // 10 MB: two parts of at least 4 MB
	guid := []byte{0xb3, 0x3b, 0x3f, 0x93, 0x3e, 0x94, 0x0d, 0x49, 0x9c, 0xed, 0x3c, 0xbb, 0x14, 0xc1, 0x44, 0x79}
	at := bytes.Index(log[len(log)*3/4:], guid)
	if at < 0 {
		t.Fatal("no PDH event in the last quarter")
	}
	log[len(log)*3/4+at] = 0
	defer func() { sequentialScan = false }()
	var samples [2]int
	for k, seq := range []bool{true, false} {
		sequentialScan = seq
		c := open(t, log, Options{})
		samples[k], _, _ = c.Samples()
		if n := c.SkippedEvents(); n != 1 {
			t.Errorf("read in one piece %v: %d events skipped, want 1", seq, n)
		}
	}
	if samples[0] != samples[1] {
		t.Errorf("%d samples in one piece, %d in parts", samples[0], samples[1])
	}
}

// TestStatisticsPercentilesCorpus computes, on the real logs, the figures
// that are not PDH's another way: the Valid values of each column from
// relog's rows (ReadRows), their mean summed in order, their percentiles by
// rank after sorting, and the bad samples from the raw rows (Next). The
// Statistics and Percentiles must equal them bit for bit; Statistics must
// equal StatisticsPercentiles' statistics.
func TestStatisticsPercentilesCorpus(t *testing.T) {
	for _, name := range realLogs {
		log := readCorpus(t, name)
		if n := counterChanges(open(t, log, Options{})); n > 0 {
			t.Fatalf("%s: %d columns change counter (relog's rows compute them otherwise)", name, n)
		}
		c := open(t, log, Options{})
		st, pc, err := c.StatisticsPercentiles()
		plain, plainErr := open(t, log, Options{}).Statistics()
		sameStatistics(t, name, c.Columns(), st, plain, err, plainErr)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		values := make([][]float64, len(st))
		if err := open(t, log, Options{}).ReadRows(func(r *ComputedRow) error {
			for i, res := range r.Results {
				if r.Present[i] && res.Status == engine.Valid {
					values[i] = append(values[i], res.Value)
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// The bad samples: present cells with a bad CStatus, and the
		// rows between a column's first and last that lack it.
		invalid, gaps, seen := make([]int, len(st)), make([]int, len(st)), make([]bool, len(st))
		raw := open(t, log, Options{})
		for raw.Next() {
			for i := range raw.row.Cells {
				cell := &raw.row.Cells[i]
				if !cell.Present {
					if seen[i] && raw.covers(i) {
						gaps[i]++
					}
					continue
				}
				seen[i] = true
				invalid[i] += gaps[i]
				gaps[i] = 0
				if cell.Raw.CStatus > 1 {
					invalid[i]++
				}
			}
		}
		for i, v := range values {
			sum := 0.0
			for _, x := range v {
				sum += x
			}
			mean := 0.0
			if len(v) > 0 {
				mean = sum / float64(len(v))
			}
			slices.Sort(v)
			rank := func(p int) float64 { // ⌈p·n/100⌉, in floating point
				if len(v) == 0 {
					return 0
				}
				return v[int(math.Ceil(float64(p)*float64(len(v))/100))-1]
			}
			want := Percentiles{rank(90), rank(95), rank(99)}
			if st[i].Count != len(v) || math.Float64bits(st[i].ValidMean) != math.Float64bits(mean) || st[i].Invalid != invalid[i] || pc[i] != want {
				t.Errorf("%s column %d %s: count %d valid mean %v invalid %d %+v; want %d %v %d %+v",
					name, i, c.Columns()[i].Path, st[i].Count, st[i].ValidMean, st[i].Invalid, pc[i], len(v), mean, invalid[i], want)
			}
		}
		if name == "PowerShell_BadCounterSamples.blg" {
			bad := 0
			for i := range st {
				if st[i].MeanStatus == engine.NegativeValue && st[i].Count > 0 && st[i].Invalid > 0 {
					bad++
				}
			}
			if bad == 0 {
				t.Errorf("%s: no column with bad samples and PDH's mean NegativeValue", name)
			}
			t.Logf("%s: %d of %d columns have PDH's mean NegativeValue and bad samples; column 0: %+v %+v", name, bad, len(st), st[0], pc[0])
		}
	}
}

// TestSortFloats checks sortFloats against slices.Sort, and percentiles
// against engine.Percentile over the sorted values, on random, sorted,
// reversed and repetitive values.
func TestSortFloats(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	for _, n := range []int{0, 1, 2, 3, 7, 10, 11, 19, 20, 21, 99, 100, 101, 1001, 4097} {
		for shape := 0; shape < 4; shape++ {
			v := make([]float64, n)
			for i := range v {
				switch shape {
				case 0:
					v[i] = rng.NormFloat64() * 1e6
				case 1:
					v[i] = float64(i)
				case 2:
					v[i] = float64(n - i)
				case 3:
					v[i] = float64(rng.Intn(3))
				}
			}
			want := slices.Clone(v)
			slices.Sort(want)
			wantPc := Percentiles{engine.Percentile(want, 90), engine.Percentile(want, 95), engine.Percentile(want, 99)}
			if have := percentiles(slices.Clone(v)); have != wantPc {
				t.Fatalf("n %d shape %d: percentiles %+v, want %+v", n, shape, have, wantPc)
			}
			sortFloats(v)
			if !slices.Equal(v, want) {
				t.Fatalf("n %d shape %d: %v, want %v", n, shape, v, want)
			}
		}
	}
}
