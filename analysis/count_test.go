package analysis

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// perProcessor is PAL's processor-queue threshold: (count − 1) × 10 with
// a count below 2 giving 1 processor (QuickSystemOverview.xml's code).
func perProcessor(n int) (float64, float64, error) {
	p := n - 1
	if p == 0 {
		p = 1
	}
	return float64(p) * 10, float64(p) * 20, nil
}

// TestRunCount: a threshold and a band computed from the count of a
// datasource's instances. The log has 3 processors (0, 1, 2) and _Total;
// the tested counter's values are 25 (instance 0) and 35 (instance 1).
//   - Exact: the count is the 3 processors plus one, whatever Exclude
//     says: (4 − 1) × 10 = 30, so only 35 breaks it.
//   - PAL: the collection of the first analysis run with the variable:
//     with "first" (no Exclude, 4 instances) before, 30 again; without
//     it, the analysis' own (Exclude _Total, 3 instances): (3 − 1) × 10
//     = 20, and 25 breaks it too (PAL's one processor fewer).
func TestRunCount(t *testing.T) {
	var raws [][]uint64
	for range 31 {
		raws = append(raws, []uint64{25, 35, 5, 22})
	}
	log := buildLog(t0, 1, rawCount, []string{"0", "1", "2", "_Total"}, raws)
	procs := Datasource{Name: `\Obj(*)\Ctr`, Var: "Procs", Path: mustPath(`\Obj(*)\Ctr`), Exclude: []string{"_Total"}, Round: -1}
	counted := Analysis{Name: "queue", Category: "System", Enabled: true, Primary: "tested",
		Datasources: []Datasource{{Name: "tested", Path: mustPath(`\Obj(*)\Ctr`), Exclude: []string{"_Total", "2"}, Round: -1}, procs},
		Thresholds:  []Threshold{{Name: "per processor", Condition: Critical, Priority: 100, Datasource: "tested", Operator: Greater, Count: &Count{Datasource: "Procs", Eval: perProcessor}}},
		Charts:      []Chart{{Title: "q", Datasource: "tested", Bands: []Band{{Condition: Critical, Count: &Count{Datasource: `\Obj(*)\Ctr`, Eval: perProcessor}}}}},
	}
	first := Analysis{Name: "first", Enabled: true, Datasources: []Datasource{{Name: "all", Var: "procs", Path: mustPath(`\Obj(*)\Ctr`), Round: -1}}}
	for _, tc := range []struct {
		name   string
		set    []Analysis
		compat bool
		value  float64
		paths  []string
	}{
		{"exact", []Analysis{counted}, false, 30, []string{`\\HOST\Obj(1)\Ctr`}},
		{"exact, first", []Analysis{first, counted}, false, 30, []string{`\\HOST\Obj(1)\Ctr`}},
		{"compat, first", []Analysis{first, counted}, true, 30, []string{`\\HOST\Obj(1)\Ctr`}},
		{"compat, own", []Analysis{counted}, true, 20, []string{`\\HOST\Obj(0)\Ctr`, `\\HOST\Obj(1)\Ctr`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := &Set{Analyses: tc.set}
			r, err := Run(open(t, log), set, Options{PALCompat: tc.compat})
			if err != nil {
				t.Fatal(err)
			}
			res := r.Results[len(r.Results)-1]
			if th := res.Analysis.Thresholds; len(th) != 1 || th[0].Value != tc.value || th[0].Count != nil {
				t.Fatalf("resolved thresholds %+v, want one of value %v without Count", th, tc.value)
			}
			if b := res.Analysis.Charts[0].Bands; len(b) != 1 || b[0].Min != tc.value || b[0].Max != 2*tc.value || b[0].Count != nil {
				t.Errorf("resolved bands %+v, want %v to %v", b, tc.value, 2*tc.value)
			}
			if set.Analyses[len(set.Analyses)-1].Thresholds[0].Count == nil {
				t.Error("Run changed the set's analysis")
			}
			paths := map[string]bool{}
			for _, a := range r.Alerts {
				paths[a.Path] = true
			}
			if len(paths) != len(tc.paths) {
				t.Errorf("alerts of %v, want %v", paths, tc.paths)
			}
			for _, p := range tc.paths {
				if !paths[p] {
					t.Errorf("no alert of %s: %v", p, paths)
				}
			}
			v := checkJSON(t, r)
			an := v["analyses"].([]any)
			th := an[len(an)-1].(map[string]any)["thresholds"].([]any)[0].(map[string]any)
			if th["value"] != tc.value {
				t.Errorf("JSON threshold value %v, want %v", th["value"], tc.value)
			}
		})
	}

	// Code that fails for the log's count: listed, the threshold left out.
	bad := counted
	bad.Thresholds = []Threshold{{Name: "fails", Condition: Warning, Datasource: "tested", Count: &Count{Datasource: "Procs", Eval: func(n int) (float64, float64, error) {
		return 0, 0, errors.New("no call")
	}}}}
	r, err := Run(open(t, log), &Set{Analyses: []Analysis{bad}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Alerts) != 0 || len(r.Results[0].Analysis.Thresholds) != 0 || len(r.Unsupported) == 0 ||
		!strings.Contains(r.Unsupported[0].Reason, "with the count 4 of Procs: no call") {
		t.Errorf("alerts %v, thresholds %v, unsupported %+v", r.Alerts, r.Results[0].Analysis.Thresholds, r.Unsupported)
	}

	// A skipped analysis' counted threshold has no value: null in JSON.
	skipped := counted
	skipped.Enabled = false
	r, err = Run(open(t, log), &Set{Analyses: []Analysis{skipped}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b := r.AppendJSON(nil); !strings.Contains(string(b), `"operator":"gt","value":null`) || !strings.Contains(string(b), `"min":null,"max":null`) {
		t.Errorf("JSON of a skipped analysis: %s", b)
	}
}

// TestRunCountPerMachine: in a log of two machines, each machine's series
// are tested with its own processor count (exact): A has 4 processors, B
// one, each a queue of 5 threads against 2 per processor: B's breaks 2,
// A's stays under 8. PAL counts its collection over both machines (7
// series with _Total): (7 − 1) × 2 = 12, and neither breaks it.
func TestRunCountPerMachine(t *testing.T) {
	var cs []blgbuild.Counter
	var vals []uint64
	add := func(machine, object, instance, counter string, v uint64) {
		cs = append(cs, blgbuild.Counter{Type: rawCount, Machine: machine, Object: object, Instance: instance, Counter: counter})
		vals = append(vals, v)
	}
	for _, in := range []string{"0", "1", "2", "3", "_Total"} {
		add(`\\A`, "Processor", in, "% Processor Time", 10)
	}
	add(`\\A`, "System", "", "Processor Queue Length", 5)
	for _, in := range []string{"0", "_Total"} {
		add(`\\B`, "Processor", in, "% Processor Time", 10)
	}
	add(`\\B`, "System", "", "Processor Queue Length", 5)
	l := blgbuild.New(64<<10, t0+8*3600*sec)
	l.Record(blgbuild.EventCounterList, t0, blgbuild.AppendCounterList(nil, cs...), blgbuild.MaxEventData)
	for i := range int64(11) {
		ts := t0 + i*60*sec
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, vals...), blgbuild.MaxEventData)
	}
	log := l.Bytes()
	twice := func(n int) (float64, float64, error) { return float64(n-1) * 2, 0, nil }
	set := &Set{Analyses: []Analysis{{
		Name: "queue", Enabled: true, Primary: `\System\Processor Queue Length`,
		Datasources: []Datasource{
			{Name: `\System\Processor Queue Length`, Path: mustPath(`\System\Processor Queue Length`), Round: -1},
			{Name: `\Processor(*)\% Processor Time`, Var: "Procs", Path: mustPath(`\Processor(*)\% Processor Time`), Round: -1},
		},
		Thresholds: []Threshold{{Name: "2 per processor", Condition: Warning, Priority: 50, Datasource: `\System\Processor Queue Length`, Operator: Greater, Count: &Count{Datasource: "Procs", Eval: twice}}},
	}}}
	for _, tc := range []struct {
		compat bool
		paths  []string
		value  float64 // the report's (machine A's)
	}{
		{false, []string{`\\B\System\Processor Queue Length`}, 8},
		{true, nil, 12},
	} {
		r, err := Run(open(t, log), set, Options{PALCompat: tc.compat})
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, a := range r.Alerts {
			if !slices.Contains(paths, a.Path) {
				paths = append(paths, a.Path)
			}
		}
		if !slices.Equal(paths, tc.paths) || r.Machine != "A" || r.Results[0].Analysis.Thresholds[0].Value != tc.value {
			t.Errorf("compat %v: alerts of %v, machine %s, threshold %v; want %v, A, %v", tc.compat, paths, r.Machine, r.Results[0].Analysis.Thresholds[0].Value, tc.paths, tc.value)
		}
	}
}
