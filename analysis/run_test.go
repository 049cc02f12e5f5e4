package analysis

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestAutoInterval: the log's duration ÷ 30, rounded half to even, at
// least 1 s.
func TestAutoInterval(t *testing.T) {
	for _, tc := range []struct {
		seconds int64
		want    int64
	}{
		{599, 20}, // 19.97
		{45, 2},   // 1.5 → 2 (even)
		{75, 2},   // 2.5 → 2 (even)
		{105, 4},  // 3.5 → 4
		{10, 1},   // 0.33 → 0 → at least 1
		{0, 1},    // one sample
		{86400, 2880},
	} {
		if have := autoInterval(t0, t0+tc.seconds*sec); have != tc.want {
			t.Errorf("%d s: have %d, want %d", tc.seconds, have, tc.want)
		}
	}
}

// TestSlicesExact: rows every 10 s for 100 s (11 rows), interval 30 s:
// slice 0 holds t0 … t0+30 (4 rows, the bound included), slice 1
// t0+40 … t0+60, slice 2 t0+70 … t0+90, and the last, kept, t0+100.
func TestSlicesExact(t *testing.T) {
	s := regular(10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
	sl, st, o := analyze(t, s, 30, false, -1)
	wantN := []int{4, 3, 3, 1}
	if len(sl) != len(wantN) {
		t.Fatalf("have %d slices, want %d", len(sl), len(wantN))
	}
	for k, n := range wantN {
		if sl[k].Samples != n || st[k].N != n {
			t.Errorf("slice %d: have %d samples and %d values, want %d", k, sl[k].Samples, st[k].N, n)
		}
	}
	if sl[1].Start != t0+40*sec || sl[1].End != t0+60*sec {
		t.Errorf("slice 1 from %d to %d s, want 40 to 60", (sl[1].Start-t0)/sec, (sl[1].End-t0)/sec)
	}
	// Slice means 2.5, 6, 9, 11; trend per hour = Δmean ÷ slices × 3600/30.
	wantAvg := []float64{2.5, 6, 9, 11}
	wantTrend := []float64{0, 3.5 * 120, 6.5 / 2 * 120, 8.5 / 3 * 120}
	for k := range wantAvg {
		if st[k].Avg != wantAvg[k] || math.Abs(st[k].Trend-wantTrend[k]) > 1e-9 {
			t.Errorf("slice %d: have avg %v trend %v, want %v and %v", k, st[k].Avg, st[k].Trend, wantAvg[k], wantTrend[k])
		}
	}
	if o.N != 11 || o.Min != 1 || o.Max != 11 || o.Avg != 6 || o.Trend != st[3].Trend {
		t.Errorf("overall: have %+v", o.Stats)
	}
}

// TestSlicesCompat: PAL's cursor slices the same rows as exact mode where
// the log has no gap, and drops the last slice.
func TestSlicesCompat(t *testing.T) {
	s := regular(10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
	sl, st, _ := analyze(t, s, 30, true, -1)
	if len(sl) != 3 {
		t.Fatalf("have %d slices, want 3 (the last dropped)", len(sl))
	}
	for k, n := range []int{4, 3, 3} {
		if sl[k].Samples != n || st[k].N != n {
			t.Errorf("slice %d: have %d samples, %d values, want %d", k, sl[k].Samples, st[k].N, n)
		}
	}
	// PAL's trend: integer, from the mean of the differences.
	if st[1].Trend != 420 || st[2].Trend != 390 {
		t.Errorf("trends %v %v, want 420 390", st[1].Trend, st[2].Trend)
	}
}

// TestSlicesGap: after a gap, exact mode leaves empty slices where the
// log has no rows; PAL's cursor advances one interval per new slice, so
// each row after the gap opens a slice until it catches up.
func TestSlicesGap(t *testing.T) {
	s := series{times: []int64{t0, t0 + 10*sec, t0 + 100*sec, t0 + 110*sec, t0 + 120*sec, t0 + 130*sec}, vals: []float64{1, 1, 5, 5, 5, 5}}
	sl, st, _ := analyze(t, s, 30, false, -1)
	if len(sl) != 5 {
		t.Fatalf("exact: have %d slices, want 5", len(sl))
	}
	for k, n := range []int{2, 0, 0, 3, 1} { // (90,120] holds 100,110,120
		if sl[k].Samples != n || st[k].N != n {
			t.Errorf("exact slice %d: have %d samples, want %d", k, sl[k].Samples, n)
		}
	}
	csl, _, _ := analyze(t, s, 30, true, -1)
	// Cursor 30: rows 0,10; row 100 opens slice 1 (cursor 60); 110 opens
	// slice 2 (90); 120 opens slice 3 (120); 130 opens slice 4, dropped.
	var have []int
	for _, x := range csl {
		have = append(have, x.Samples)
	}
	if !slices.Equal(have, []int{2, 1, 1, 1}) {
		t.Errorf("compat slices %v, want [2 1 1 1]", have)
	}
}

// TestShiftQuirk: a blank value shifts the series' later values one slot
// earlier in compat mode (PAL removes blanks, then slices by position);
// exact mode keeps each value in the slice of its time.
func TestShiftQuirk(t *testing.T) {
	nan := math.NaN()
	// 7 rows 10 s apart, interval 20 s: slices {0,10,20} {30,40} {50,60}.
	s := regular(10, nan, 10, 10, 50, 50, 90, 90)
	_, ex, _ := analyze(t, s, 20, false, -1)
	if ex[0].Avg != 10 || ex[1].Avg != 50 || ex[2].Avg != 90 {
		t.Errorf("exact means %v %v %v, want 10 50 90", ex[0].Avg, ex[1].Avg, ex[2].Avg)
	}
	_, co, _ := analyze(t, s, 20, true, -1)
	// Compat: values 10 10 50 50 90 90 at positions 0…5: slice 0 is
	// positions 0–2 (10 10 50), slice 1 positions 3–4 (50 90).
	if len(co) != 2 || co[0].Avg != 70.0/3 || co[1].Avg != 70 || co[0].N != 3 || co[1].N != 2 {
		t.Errorf("compat: have %+v, want means 70/3 and 70", co)
	}
}

// TestCompatEmptySlice: in compat mode a slice past the shifted values
// has the mean −1 and min and max 0, and a slice reaching past them the
// min 0 (PAL's $null).
func TestCompatEmptySlice(t *testing.T) {
	nan := math.NaN()
	// 7 rows, interval 10: slices {0,10} {20} {30} {40} {50} and 60 dropped.
	s := regular(10, nan, nan, nan, 5, 7, 9, 11)
	_, co, _ := analyze(t, s, 10, true, -1)
	// Values 5 7 9 11 at positions 0–3: slice 0 = 5 7, 1 = 9, 2 = 11,
	// 3 and 4 past the values.
	want := []Stats{{N: 2, Min: 5, Avg: 6, Max: 7}, {N: 1, Min: 9, Avg: 9, Max: 9}, {N: 1, Min: 11, Avg: 11, Max: 11}, {Avg: -1}, {Avg: -1}}
	if len(co) != len(want) {
		t.Fatalf("have %d slices, want %d", len(co), len(want))
	}
	for k := range want {
		co[k].Trend = 0
		if co[k] != want[k] {
			t.Errorf("slice %d: have %+v, want %+v", k, co[k], want[k])
		}
	}
	// A slice half past the values: min 0.
	s = regular(10, nan, 1, 2, 3, 4, 5)
	_, co, _ = analyze(t, s, 20, true, -1)
	// Slices by rows {0,10,20} {30,40} (50 dropped); values 1…5 at
	// positions 0–4: slice 1 = positions 3,4 = 4,5, within the values.
	if co[1].Min != 4 {
		t.Errorf("slice 1 min %v, want 4", co[1].Min)
	}
	s = regular(10, nan, nan, nan, 1, 2, 3, 4)
	_, co, _ = analyze(t, s, 20, true, -1)
	// Rows {0,10,20} {30,40} ({50,60} dropped); values 1…4: slice 1 =
	// positions 3,4: 4 and past the end → min 0.
	if len(co) != 2 || co[1].Min != 0 || co[1].Max != 4 || co[1].N != 1 {
		t.Errorf("slice 1: have %+v, want min 0 max 4 n 1", co)
	}
}

// TestOverallExact: the sample standard deviation, the trimmed means and
// the nearest-rank percentiles of 1 … 20, by hand.
func TestOverallExact(t *testing.T) {
	var vs []float64
	for i := 1; i <= 20; i++ {
		vs = append(vs, float64(21-i)) // descending: sorting matters
	}
	_, _, o := analyze(t, regular(1, vs...), 5, false, -1)
	// Σ(x − 10.5)² = 665 → √(665/19) = √35.
	if math.Abs(o.StdDev-math.Sqrt(35)) > 1e-12 {
		t.Errorf("stddev %v, want √35", o.StdDev)
	}
	// Without the highest 2, 4, 6: means of 1…18, 1…16, 1…14.
	if o.Trimmed != [3]float64{9.5, 8.5, 7.5} {
		t.Errorf("trimmed %v, want [9.5 8.5 7.5]", o.Trimmed)
	}
	// ⌈0.9·20⌉ = 18th, ⌈0.95·20⌉ = 19th, ⌈0.99·20⌉ = 20th.
	if o.Percentiles != [3]float64{18, 19, 20} {
		t.Errorf("percentiles %v, want [18 19 20]", o.Percentiles)
	}
}

// TestOverallCompat: PAL's standard deviation (0 when Σx ≤ 0, else the
// same for positive values) and its "outliers removed" figures.
func TestOverallCompat(t *testing.T) {
	var vs []float64
	for i := 1; i <= 20; i++ {
		vs = append(vs, float64(i))
	}
	_, _, o := analyze(t, regular(1, vs...), 5, true, -1)
	if math.Abs(o.StdDev-math.Sqrt(35)) > 1e-12 {
		t.Errorf("stddev %v, want √35", o.StdDev)
	}
	// p = 90: r = 18, ub = 18, lb = 2: mean of 1…18 = 9.5; 80: 1…16;
	// 70: 1…14 — here the same as the trimmed means.
	if o.Trimmed != [3]float64{9.5, 8.5, 7.5} {
		t.Errorf("outliers %v", o.Trimmed)
	}
	// Negative values: PAL's deviation is 0, exact's is not.
	neg := regular(1, -1, -2, -3, -4)
	_, _, oc := analyze(t, neg, 1, true, -1)
	_, _, oe := analyze(t, neg, 1, false, -1)
	if oc.StdDev != 0 || math.Abs(oe.StdDev-math.Sqrt(5.0/3)) > 1e-12 {
		t.Errorf("negative: compat stddev %v (want 0), exact %v (want √(5/3))", oc.StdDev, oe.StdDev)
	}
	// Outliers differ from trimmed means on few values: n = 3, p = 90:
	// r = [int]2.7 = 3, ub = min(3, 2) = 2, lb = 0: mean of the lowest 2.
	three := regular(1, 30, 10, 20)
	_, _, oc = analyze(t, three, 1, true, -1)
	_, _, oe = analyze(t, three, 1, false, -1)
	if oc.Trimmed[0] != 15 || oe.Trimmed[0] != 20 {
		t.Errorf("n=3: PAL's 10%% figure %v (want 15), trimmed mean %v (want 20: nothing left out)", oc.Trimmed[0], oe.Trimmed[0])
	}
	// p = 70 on 2 values: r = [int]1.4 = 1, ub = 1, lb = 1: the value at 1.
	_, _, oc = analyze(t, regular(1, 4, 8), 1, true, -1)
	if oc.Trimmed[2] != 8 {
		t.Errorf("n=2: PAL's 30%% figure %v, want 8 (the highest)", oc.Trimmed[2])
	}
}

// TestRounding: half to even to the datasource's decimals; exact rounds
// values (0.4, 1.4, 0 are 0, 1, 0: mean 1/3), compat the statistics (the
// mean of 0.4 and 1.4, 0.9, is 1).
func TestRounding(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		d    int
		want float64
	}{
		{2.5, 0, 2}, {3.5, 0, 4}, {-2.5, 0, -2}, {1.25, 1, 1.2}, {1.35, 1, 1.4}, {7, -1, 7}, {1e300, 3, 1e300},
	} {
		if have := roundTo(tc.v, tc.d); have != tc.want {
			t.Errorf("roundTo(%v, %d) = %v, want %v", tc.v, tc.d, have, tc.want)
		}
	}
	_, ex, _ := analyze(t, regular(1, 0.4, 1.4, 0), 10, false, 0)
	_, co, _ := analyze(t, regular(1, 0.4, 1.4, 0), 1, true, 0)
	if ex[0].Avg != 1.0/3 { // values 0, 1 and 0
		t.Errorf("exact: mean %v, want 1/3", ex[0].Avg)
	}
	if co[0].Avg != 1 || co[0].Min != 0 || co[0].Max != 1 { // slice {0.4, 1.4}: mean 0.9 rounded
		t.Errorf("compat: %+v, want mean 1, min 0, max 1", co[0])
	}
}

// TestRunHandMade: Run over a hand-made log of two instances, one of
// which breaks a gt threshold in one slice; alerts name the analysis, the
// instance's path and the slice's figures.
func TestRunHandMade(t *testing.T) {
	var raws [][]uint64
	for i := range 61 { // 60 s, one row a second: auto interval 2 s
		a, b := uint64(10), uint64(20)
		if i >= 30 && i <= 32 {
			b = 95
		}
		raws = append(raws, []uint64{a, b})
	}
	log := buildLog(t0, 1, rawCount, []string{"a", "b"}, raws)
	set := oneAnalysis(`\Obj(*)\Ctr`,
		Threshold{Name: "warn", Condition: Warning, Priority: 50, Operator: Greater, Value: 50},
		Threshold{Name: "crit", Condition: Critical, Priority: 100, Operator: Greater, Value: 90},
	)
	r, err := Run(open(t, log), set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Interval != 2 || len(r.Slices) != 30 || r.Samples != 61 || r.Machine != "HOST" {
		t.Fatalf("interval %d, %d slices, %d samples, machine %q", r.Interval, len(r.Slices), r.Samples, r.Machine)
	}
	// Rows 30–32 at t0+30…32: slice (28,30] = 14 and (30,32] = 15.
	if len(r.Alerts) != 2 {
		t.Fatalf("have %d alerts, want 2: %+v", len(r.Alerts), r.Alerts)
	}
	for i, k := range []int{14, 15} {
		a := r.Alerts[i]
		if a.Slice != k || a.Condition != Critical || a.Threshold != "crit" || a.Path != `\\HOST\Obj(b)\Ctr` || a.Max != 95 || a.Analysis != "A" || a.Category != "Cat" {
			t.Errorf("alert %d: %+v", i, a)
		}
	}
	if r.Alerts[0].Avg != 57.5 || r.Alerts[1].Avg != 95 {
		t.Errorf("alert means %v %v, want 57.5 (20, 95) and 95", r.Alerts[0].Avg, r.Alerts[1].Avg)
	}
	res := r.Results[0]
	if res.Skipped != "" || len(res.Series) != 2 {
		t.Fatalf("result: skipped %q, %d series", res.Skipped, len(res.Series))
	}
	if res.Series[0].Overall.Condition != OK || res.Series[1].Overall.Condition != Critical {
		t.Errorf("overall conditions %v %v, want OK and Critical (max 95)", res.Series[0].Overall.Condition, res.Series[1].Overall.Condition)
	}
	v := checkJSON(t, r)
	alerts := v["alerts"].([]any)
	a0 := alerts[0].(map[string]any)
	if a0["condition"] != "Critical" || a0["start"] != "2013-02-20T02:50:29.000Z" || a0["end"] != "2013-02-20T02:50:30.000Z" || a0["slice"] != 14.0 {
		t.Errorf("JSON alert: %v", a0)
	}
	// The alert names its analysis by id too, and its series' datasource.
	if a0["id"] != "a1" || a0["datasource"] != `\Obj(*)\Ctr` || r.Alerts[0].ID != "a1" || r.Alerts[0].Datasource != `\Obj(*)\Ctr` {
		t.Errorf("JSON alert id %v, datasource %v; want a1, \\Obj(*)\\Ctr", a0["id"], a0["datasource"])
	}
}

// TestRunSkipped: an analysis whose datasource matches no column is
// skipped with the reason; a disabled one too; matching is
// case-insensitive, Exclude removes an instance, a named instance matches
// only itself.
func TestRunSkipped(t *testing.T) {
	log := buildLog(t0, 1, rawCount, []string{"a", "B", "_Total"}, [][]uint64{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}})
	set := &Set{Analyses: []Analysis{
		{Name: "none", Enabled: true, Datasources: []Datasource{{Name: `\Obj(*)\Other`, Path: mustPath(`\Obj(*)\Other`)}}},
		{Name: "off", Enabled: false, Datasources: []Datasource{{Name: `\Obj(*)\Ctr`, Path: mustPath(`\Obj(*)\Ctr`)}}},
		{Name: "excl", Enabled: true, Datasources: []Datasource{{Name: `\obj(*)\ctr`, Path: mustPath(`\obj(*)\ctr`), Exclude: []string{"_total"}}}},
		{Name: "one", Enabled: true, Datasources: []Datasource{{Name: `\Obj(b)\Ctr`, Path: mustPath(`\Obj(b)\Ctr`)}}},
		{Name: "re", Enabled: true, Datasources: []Datasource{{Name: "x", Path: mustPath(`\X(*)\Ctr`), ObjectRegexp: "^o.j$"}}},
		{Name: "badre", Enabled: true, Datasources: []Datasource{{Name: "x", Path: mustPath(`\X(*)\Ctr`), ObjectRegexp: "(?<=x)"}}},
	}}
	r, err := Run(open(t, log), set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	paths := func(res Result) (ps []string) {
		for _, s := range res.Series {
			ps = append(ps, s.Path)
		}
		return ps
	}
	if !strings.Contains(r.Results[0].Skipped, `\Obj(*)\Other`) || r.Results[1].Skipped != "disabled" {
		t.Errorf("skipped: %q, %q", r.Results[0].Skipped, r.Results[1].Skipped)
	}
	if have := paths(r.Results[2]); !slices.Equal(have, []string{`\\HOST\Obj(a)\Ctr`, `\\HOST\Obj(B)\Ctr`}) {
		t.Errorf("exclude: %v", have)
	}
	if have := paths(r.Results[3]); !slices.Equal(have, []string{`\\HOST\Obj(B)\Ctr`}) {
		t.Errorf("one instance: %v", have)
	}
	if have := paths(r.Results[4]); len(have) != 3 {
		t.Errorf("regexp: %v", have)
	}
	if !strings.Contains(r.Results[5].Skipped, "not supported") {
		t.Errorf("bad regexp: %q", r.Results[5].Skipped)
	}
	checkJSON(t, r)
}

// TestRunGenerated: a Generated datasource per instance of its left
// operand, joined by instance with its right, × Scale; a zero base leaves
// the value out.
func TestRunGenerated(t *testing.T) {
	log := buildLog(t0, 1, rawCount, []string{"a", "b"}, [][]uint64{{10, 0}, {20, 0}, {30, 0}})
	set := &Set{Analyses: []Analysis{{Name: "gen", Enabled: true, Datasources: []Datasource{
		{Name: "num", Path: mustPath(`\Obj(*)\Ctr`), Round: -1},
		{Name: "den", Path: mustPath(`\Obj(*)\Ctr`), Round: -1},
		{Name: `\Obj(*)\Ratio`, Kind: Generated, Path: mustPath(`\Obj(*)\Ratio`), Round: -1,
			Formula: &Formula{Left: "num", Right: "den", Op: '/', Scale: 100}},
		{Name: "half", Kind: Generated, Round: -1, Formula: &Formula{Left: "num", Op: '*', Constant: 0.5}},
	}}}}
	r, err := Run(open(t, log), set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ratio, half []Series
	for _, s := range r.Results[0].Series {
		switch s.Datasource {
		case `\Obj(*)\Ratio`:
			ratio = append(ratio, s)
		case "half":
			half = append(half, s)
		}
	}
	if len(ratio) != 2 || ratio[0].Path != `\\HOST\Obj(a)\Ratio` || ratio[0].Overall.Avg != 100 || ratio[1].Overall.N != 0 {
		t.Errorf("ratio: %+v", ratio)
	}
	if len(half) != 2 || half[0].Overall.Avg != 10 || half[0].Overall.Max != 15 {
		t.Errorf("half: %+v", half)
	}
	checkJSON(t, r)
}

// TestRunTx: the real Tx log (601 rows, 1 s apart, the first row blank):
// processor time over 5 % raises alerts, and the JSON parses.
func TestRunTx(t *testing.T) {
	b := corpusLog(t, "Tx_BasicPerfCounters.blg")
	set := oneAnalysis(`\Processor(*)\% Processor Time`,
		Threshold{Name: "busy", Condition: Warning, Priority: 50, Operator: Greater, Value: 50})
	for _, compat := range []bool{false, true} {
		r, err := Run(open(t, b), set, Options{PALCompat: compat})
		if err != nil {
			t.Fatal(err)
		}
		// 600 s: interval 20; exact 30 slices, compat 29.
		want := 30
		if compat {
			want = 29
		}
		if r.Interval != 20 || len(r.Slices) != want || r.Machine != "GEORGIS3" {
			t.Errorf("compat %v: interval %d, %d slices, machine %q", compat, r.Interval, len(r.Slices), r.Machine)
		}
		if n := len(r.Results[0].Series); n != 5 {
			t.Errorf("%d series, want 5", n)
		}
		total := 0
		for _, s := range r.Slices {
			total += s.Samples
		}
		if !compat && total != 601 {
			t.Errorf("slices hold %d samples, want 601", total)
		}
		checkJSON(t, r)
	}
}

// TestNotEqualQuirk: ne is ≠ by default; PAL's StaticThreshold has no ne
// and treats it as gt.
func TestNotEqualQuirk(t *testing.T) {
	var raws [][]uint64
	for range 31 {
		raws = append(raws, []uint64{10})
	}
	log := buildLog(t0, 1, rawCount, []string{"a"}, raws)
	for _, tc := range []struct {
		value  float64
		compat bool
		want   int
	}{
		{10, false, 0}, // every value equals 10
		{5, false, 30}, // every slice differs from 5
		{5, true, 29},  // as gt: 10 > 5, in each of PAL's 29 slices
		{20, true, 0},  // as gt: 10 > 20 never holds, though 10 ≠ 20
		{20, false, 30},
	} {
		set := oneAnalysis(`\Obj(*)\Ctr`, Threshold{Name: "ne", Condition: Warning, Priority: 50, Operator: NotEqual, Value: tc.value})
		r, err := Run(open(t, log), set, Options{Interval: 1, PALCompat: tc.compat})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Alerts) != tc.want {
			t.Errorf("ne %v, compat %v: %d alerts, want %d", tc.value, tc.compat, len(r.Alerts), tc.want)
		}
	}
}

// TestEmptySliceQuirk: a log whose series has blanks: in PAL's mode the
// shifted values run out before the last slices, whose mean −1 breaks an
// lt threshold; exact mode raises nothing there.
func TestEmptySliceQuirk(t *testing.T) {
	var raws [][]uint64
	for i := range 31 {
		v := uint64(50)
		if i%3 == 1 {
			v = absent // a third of the rows lack the instance
		}
		raws = append(raws, []uint64{v})
	}
	log := buildLog(t0, 1, rawCount, []string{"a"}, raws)
	set := oneAnalysis(`\Obj(*)\Ctr`, Threshold{Name: "low", Condition: Critical, Priority: 100, Operator: Less, Value: 10})
	ex, err := Run(open(t, log), set, Options{Interval: 3})
	if err != nil {
		t.Fatal(err)
	}
	co, err := Run(open(t, log), set, Options{Interval: 3, PALCompat: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Alerts) != 0 {
		t.Errorf("exact: %d alerts, want none (every value is 50)", len(ex.Alerts))
	}
	// PAL's slices: rows 0–3, then 3 rows each (slice k: positions 3k+1
	// to 3k+3), the tenth (rows 28–30) dropped. The 21 values fill
	// positions 0–20: slice 6 (19–21) reaches past them (min 0: PAL's
	// $null), slices 7 and 8 lie past them (mean −1, min and max 0).
	want := []Stats{{Min: 0, Avg: 50, Max: 50}, {Min: 0, Avg: -1, Max: 0}, {Min: 0, Avg: -1, Max: 0}}
	if len(co.Alerts) != len(want) {
		t.Fatalf("compat: alerts %+v, want 3", co.Alerts)
	}
	for i, w := range want {
		a := co.Alerts[i]
		if a.Slice != 6+i || a.Min != w.Min || a.Avg != w.Avg || a.Max != w.Max {
			t.Errorf("compat alert %d: %+v, want slice %d with %+v", i, a, 6+i, w)
		}
	}
}

// TestRunUnsupported: generated datasources that name an unknown operand
// or each other, a formula perfcalc does not compute and a threshold of an
// unknown datasource are listed once each (not again where the set lists
// them already), and the analysis still runs.
func TestRunUnsupported(t *testing.T) {
	log := buildLog(t0, 1, rawCount, []string{"a"}, [][]uint64{{1}, {2}, {3}})
	set := &Set{
		Analyses: []Analysis{{Name: "u", Enabled: true, Datasources: []Datasource{
			{Name: "c", Path: mustPath(`\Obj(*)\Ctr`), Round: -1},
			{Name: "g1", Kind: Generated, Formula: &Formula{Left: "nope", Op: '+'}},
			{Name: "g2", Kind: Generated, Formula: &Formula{Left: "g3", Op: '+'}},
			{Name: "g3", Kind: Generated, Formula: &Formula{Left: "g2", Op: '+'}},
			{Name: "g4", Kind: Generated},
		}, Thresholds: []Threshold{{Name: "t", Datasource: "missing"}, {Name: "ok", Datasource: "c", Operator: Greater, Value: 2, Condition: Warning}}}},
		Unsupported: []Unsupported{{Analysis: "u", What: "g4", Reason: "PowerShell"}},
	}
	r, err := Run(open(t, log), set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, u := range r.Unsupported {
		have = append(have, u.What+": "+u.Reason)
	}
	want := []string{
		"g4: PowerShell",
		"g1: the formula names a datasource the analysis does not have",
		"g2: the formulas of the generated datasources form a cycle",
		"g3: the formulas of the generated datasources form a cycle",
		"t: the threshold names a datasource the analysis does not have: missing",
	}
	if !slices.Equal(have, want) {
		t.Errorf("unsupported:\n%q\nwant\n%q", have, want)
	}
	if r.Results[0].Skipped != "" || len(r.Alerts) != 1 {
		t.Errorf("skipped %q, %d alerts (want 1: the value 3 > 2)", r.Results[0].Skipped, len(r.Alerts))
	}
	v := checkJSON(t, r)
	if n := len(v["unsupported"].([]any)); n != 5 {
		t.Errorf("JSON: %d unsupported", n)
	}
}

// TestRunPerSlice: a Formula.PerSlice series has one value per slice, the
// formula of its operands' slice means (PAL's network utilisation);
// Integer rounds each value half to even.
func TestRunPerSlice(t *testing.T) {
	// Instance a: 10, 30 in slice 0 (rows 0–2 with 20), 50 in slice 1.
	log := buildLog(t0, 1, rawCount, []string{"a", "b"}, [][]uint64{{10, 4}, {30, 4}, {20, 4}, {50, 8}, {50, 8}})
	set := &Set{Analyses: []Analysis{{Name: "ps", Enabled: true, Datasources: []Datasource{
		{Name: "bytes", Path: mustPath(`\Obj(a)\Ctr`), Round: -1},
		{Name: "bw", Path: mustPath(`\Obj(b)\Ctr`), Round: -1},
		{Name: "util", Kind: Generated, Round: -1, Formula: &Formula{Left: "bytes", Right: "bw", Op: '/', Scale: 1, PerSlice: true}},
		{Name: "int", Kind: Generated, Round: -1, Formula: &Formula{Left: "bytes", Op: '/', Constant: 4, Integer: true}},
	}, Thresholds: []Threshold{{Name: "hot", Datasource: "util", Condition: Critical, Priority: 100, Operator: Greater, Value: 5.5}}}}}
	for _, compat := range []bool{false, true} {
		r, err := Run(open(t, log), set, Options{Interval: 2, PALCompat: compat})
		if err != nil {
			t.Fatal(err)
		}
		var util, in Series
		for _, s := range r.Results[0].Series {
			switch s.Datasource {
			case "util":
				util = s
			case "int":
				in = s
			}
		}
		// Slices (exact): rows 0–2 (means 20 and 4), rows 3–4 (50, 8).
		if compat {
			// PAL: one slice (rows 0–2), the last dropped.
			if len(util.Slices) != 1 || util.Slices[0].Avg != 5 || util.Slices[0].N != 1 {
				t.Errorf("compat util: %+v", util.Slices)
			}
			continue
		}
		if len(util.Slices) != 2 || util.Slices[0].Avg != 5 || util.Slices[1].Avg != 6.25 || util.Overall.N != 2 || util.Overall.Max != 6.25 {
			t.Errorf("util: %+v, overall %+v", util.Slices, util.Overall)
		}
		if len(util.Chart) != 2 || util.Chart[1].Max != 6.25 {
			t.Errorf("util chart: %+v", util.Chart)
		}
		if len(r.Alerts) != 1 || r.Alerts[0].Slice != 1 || r.Alerts[0].Avg != 6.25 {
			t.Errorf("alerts: %+v", r.Alerts)
		}
		// 10/4 = 2.5 → 2, 30/4 = 7.5 → 8, 5, 12.5 → 12, 12.
		if in.Overall.N != 5 || in.Overall.Min != 2 || in.Overall.Max != 12 || in.Overall.Avg != (2+8+5+12+12)/5.0 {
			t.Errorf("integer: %+v", in.Overall)
		}
	}
}

// TestTrendQuirk: PAL rounds the slice trend to an integer; exact mode
// keeps it as computed. Means 1 then 2 over slices of 7 s: +1 per 7 s is
// 514.285… per hour.
func TestTrendQuirk(t *testing.T) {
	s := regular(1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2)
	_, ex, _ := analyze(t, s, 7, false, -1)
	_, co, _ := analyze(t, s, 7, true, -1)
	// Rows 0–7 (mean 1), 8–14 (2), 15 (2): both modes agree on the
	// means of the first two slices.
	if ex[1].Avg != 2 || co[1].Avg != 2 {
		t.Fatalf("means: exact %v, compat %v", ex[1].Avg, co[1].Avg)
	}
	if math.Abs(ex[1].Trend-3600.0/7) > 1e-9 || co[1].Trend != 514 {
		t.Errorf("trend: exact %v (want 3600/7), compat %v (want 514)", ex[1].Trend, co[1].Trend)
	}
}

// TestRunTxBySlices: on the real Tx log (601 rows about a second apart
// from 18:50:17.844; the first row blank), \Processor(_Total)\% Processor
// Time per slice of 20 s, checked against the rows read directly and cut
// here by their time stamps: exact slice k holds the rows of times in
// (t0 + 20k s, t0 + 20(k+1) s]; PAL's slices take, by position, the values
// of the series without its blank, so each holds the values of rows one
// later than its own (the shift quirk on a real log).
func TestRunTxBySlices(t *testing.T) {
	b := corpusLog(t, "Tx_BasicPerfCounters.blg")
	c := open(t, b)
	col := -1
	for i, x := range c.Columns() {
		if x.Path == `\\GEORGIS3\Processor(_Total)\% Processor Time` {
			col = i
		}
	}
	if col < 0 {
		t.Fatal("no _Total column")
	}
	var vals []float64 // per row, NaN where blank
	var times []int64
	for c.Next() {
		cell := c.Row().Cells[col]
		times = append(times, c.Row().Time)
		if cell.Present && cell.Result.Status == 0 {
			vals = append(vals, cell.Result.Value)
		} else {
			vals = append(vals, math.NaN())
		}
	}
	if len(vals) != 601 || !math.IsNaN(vals[0]) {
		t.Fatalf("%d rows, first %v", len(vals), vals[0])
	}
	meanOf := func(vs []float64) float64 {
		s, n := 0.0, 0
		for _, v := range vs {
			if !math.IsNaN(v) {
				s += v
				n++
			}
		}
		return s / float64(n)
	}
	// Exact: the rows of each slice by time.
	const step = 20 * sec
	var exRows [][2]int // [first, end) per slice
	for i, tm := range times {
		k := 0
		if d := tm - times[0]; d > 0 {
			k = int((d+step-1)/step) - 1
		}
		for len(exRows) <= k {
			exRows = append(exRows, [2]int{i, i})
		}
		exRows[k][1] = i + 1
	}
	// PAL: its cursor's slices of rows, applied as positions to the
	// values without the blank row 0.
	var coRows [][2]int
	cursor := times[0] + step
	for i, tm := range times {
		if i == 0 || tm > cursor {
			if i > 0 {
				cursor += step
			}
			coRows = append(coRows, [2]int{i, i})
		}
		coRows[len(coRows)-1][1] = i + 1
	}
	coRows = coRows[:len(coRows)-1] // the last slice dropped
	compact := vals[1:]

	set := oneAnalysis(`\Processor(_Total)\% Processor Time`)
	ex, err := Run(open(t, b), set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	co, err := Run(open(t, b), set, Options{PALCompat: true})
	if err != nil {
		t.Fatal(err)
	}
	exS, coS := ex.Results[0].Series[0].Slices, co.Results[0].Series[0].Slices
	if len(exS) != len(exRows) || len(coS) != len(coRows) {
		t.Fatalf("%d and %d slices, want %d and %d", len(exS), len(coS), len(exRows), len(coRows))
	}
	shifted := 0
	for k := range exS {
		if want := meanOf(vals[exRows[k][0]:exRows[k][1]]); math.Abs(exS[k].Avg-want) > 1e-9*math.Abs(want) {
			t.Errorf("exact slice %d: mean %v, want %v", k, exS[k].Avg, want)
		}
	}
	for k := range coS {
		want := meanOf(compact[coRows[k][0]:coRows[k][1]])
		if math.Abs(coS[k].Avg-want) > 1e-9*math.Abs(want) {
			t.Errorf("compat slice %d: mean %v, want %v", k, coS[k].Avg, want)
		}
		if coS[k].Avg != exS[k].Avg {
			shifted++
		}
	}
	if shifted == 0 {
		t.Error("compat and exact means are equal in every slice: no shift seen")
	}
	o := ex.Results[0].Series[0].Overall
	if o.N != 600 || math.Abs(o.Avg-meanOf(vals)) > 1e-9*o.Avg {
		t.Errorf("overall: n %d, mean %v, want 600 and %v", o.N, o.Avg, meanOf(vals))
	}
}

// TestChartEnvelope: 1,300 rows make chart points of ⌈1300 ÷ 600⌉ = 3
// rows each; a point's min, mean and max are those of its rows' values
// (row i holds i·i mod 101, so the three differ), and no chart has more
// than 600 points.
func TestChartEnvelope(t *testing.T) {
	const rows = 1300
	var raws [][]uint64
	for i := range rows {
		raws = append(raws, []uint64{uint64(i * i % 101)})
	}
	r, err := Run(open(t, buildLog(t0, 1, rawCount, []string{"a"}, raws)), oneAnalysis(`\Obj(*)\Ctr`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	chart := r.Results[0].Series[0].Chart
	if len(chart) != (rows+2)/3 || len(chart) > r.ChartPoints {
		t.Fatalf("%d chart points, want %d (at most %d)", len(chart), (rows+2)/3, r.ChartPoints)
	}
	for k, p := range chart {
		lo, sum, hi, n := math.Inf(1), 0.0, math.Inf(-1), 0
		for i := 3 * k; i < min(3*k+3, rows); i++ {
			v := float64(raws[i][0])
			lo, sum, hi, n = min(lo, v), sum+v, max(hi, v), n+1
		}
		if p.Min != lo || p.Avg != sum/float64(n) || p.Max != hi {
			t.Fatalf("point %d: min %v avg %v max %v, want %v %v %v", k, p.Min, p.Avg, p.Max, lo, sum/float64(n), hi)
		}
	}
}
