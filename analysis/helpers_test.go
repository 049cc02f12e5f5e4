package analysis

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// sec is one second in FILETIME ticks.
const sec = ticksPerSecond

// t0 is the local start of the hand-made series: 2013-02-19 18:50:00.
const t0 = 130057734000000000

// series is a hand-made series: one value per row (NaN: no valid value).
type series struct {
	times []int64
	vals  []float64
}

// analyze is the internal layer without a log: it slices the rows of s by
// time and computes the statistics of its one series, as Run does.
func analyze(t *testing.T, s series, interval int64, compat bool, round int) ([]Slice, []Stats, Overall) {
	t.Helper()
	tl, err := newTimeline(s.times[0], s.times[len(s.times)-1], interval, compat)
	if err != nil {
		t.Fatal(err)
	}
	st := newStore(round)
	for i, tm := range s.times {
		k, err := tl.add(tm)
		if err != nil {
			t.Fatal(err)
		}
		if !math.IsNaN(s.vals[i]) {
			st.add(i, tm, k, s.vals[i], compat, 1)
		}
	}
	sl := tl.finish()
	if _, err := st.load(nil, new([]byte)); err != nil {
		t.Fatal(err)
	}
	stats := sliceStats(st, tl, interval)
	return sl, stats, overallStats(st, stats, compat)
}

// regular returns n rows every step seconds from t0 with the values vals.
func regular(step int64, vals ...float64) series {
	s := series{vals: vals}
	for i := range vals {
		s.times = append(s.times, t0+int64(i)*step*sec)
	}
	return s
}

// absent in buildLog's raws leaves the instance out of the row.
const absent = ^uint64(0)

// Counter types of the hand-made logs.
const (
	rawCount = 0x00010000 // PERF_COUNTER_RAWCOUNT: the value is the raw value
	rate     = 0x10410400 // PERF_COUNTER_COUNTER: ΔN per second; the first row has no value
)

// buildLog returns a log of one wildcard counter of type typ
// \\HOST\Obj(inst)\Ctr for the instances names: row i holds, per
// instance j, the raw value raws[i][j]. Rows are step seconds apart from
// start (local; the log's zone is Pacific, bias 480).
func buildLog(start, step int64, typ uint32, names []string, raws [][]uint64) []byte {
	utc := start + 8*3600*sec
	l := blgbuild.New(64<<10, utc)
	l.Record(blgbuild.EventCounterList, start, blgbuild.AppendCounterList(nil, blgbuild.Counter{
		Flags: 1, Type: typ, TimeBase: ticksPerSecond, Machine: `\\HOST`, Object: "Obj", Instance: "*", Counter: "Ctr",
	}), blgbuild.MaxEventData)
	for i, row := range raws {
		ts := start + int64(i)*step*sec
		var ns []string
		var vs []uint64
		for j, v := range row {
			if v != absent {
				ns, vs = append(ns, names[j]), append(vs, v)
			}
		}
		l.Record(blgbuild.EventSample, ts, blgbuild.MultiSample(ts, ns, vs), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// open returns a converter over the log b.
func open(t testing.TB, b []byte) *relog.Converter {
	t.Helper()
	c, err := relog.New(bytes.NewReader(b), int64(len(b)), relog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// mustPath parses a counter path.
func mustPath(s string) counterpath.Path {
	p, err := counterpath.Parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

// oneAnalysis returns a set of one analysis of the datasource path with
// thresholds.
func oneAnalysis(path string, ths ...Threshold) *Set {
	return &Set{Name: "test", Analyses: []Analysis{{
		ID: "a1", Name: "A", Category: "Cat", Enabled: true, Primary: path,
		Datasources: []Datasource{{Name: path, Path: mustPath(path), Round: -1}},
		Thresholds:  ths,
	}}}
}

// corpusLog reads a log of ../shared/corpus/blg, skipping where absent.
func corpusLog(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(corpus.Shared(t, "blg", name))
	if err != nil {
		t.Skip(err)
	}
	return b
}

// checkJSON asserts that AppendJSON of r parses, holds no NaN and is the
// same twice.
func checkJSON(t testing.TB, r *Report) map[string]any {
	t.Helper()
	b := r.AppendJSON(nil)
	if !bytes.Equal(b, r.AppendJSON(nil)) {
		t.Fatal("AppendJSON differs between two calls")
	}
	if strings.Contains(string(b), "NaN") || strings.Contains(string(b), "Inf") {
		t.Fatalf("JSON holds NaN or Inf: %.300s", b)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("JSON does not parse: %v\n%.500s", err, b)
	}
	return v
}
