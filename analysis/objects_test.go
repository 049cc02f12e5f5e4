package analysis

import (
	"github.com/perfcalc/perfcalc/tools/timebound"
	"strconv"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/tools/hostile"
)

// TestRegexpObjectsOnce (issue 32, item 8): 100 regular-expression
// datasources against a log of 10,000 columns of one object took 197 s,
// each column's object matched by each; each matches the log's one object
// name once now. All but the last read another counter of the object, so
// that the columns they match by object cost no statistics.
func TestRegexpObjectsOnce(t *testing.T) {
	const n, columns = 100, 10_000
	log := hostile.OneObjectLog(columns, "Count")
	set := &Set{Name: "regexp"}
	for i := range n {
		path := `\Wide(*)\Other`
		if i == n-1 {
			path = `\Wide(*)\Count`
		}
		set.Analyses = append(set.Analyses, Analysis{
			Name: "R" + strconv.Itoa(i), Enabled: true,
			Datasources: []Datasource{{Name: path, Path: mustPath(path), ObjectRegexp: hostile.ObjectPattern(i), Round: -1}},
			Thresholds:  []Threshold{{Name: "T", Condition: Warning, Datasource: path, Operator: Greater, Value: 1e18}},
		})
	}
	r := runWithin(t, log, set)
	if len(r.Results) != n || r.Results[n-1].Skipped != "" || len(r.Results[n-1].Series) != columns {
		t.Fatalf("have %d results, the last skipped %q with %d series; want %d, the last of %d series", len(r.Results), r.Results[n-1].Skipped, len(r.Results[n-1].Series), n, columns)
	}
	if want := `no counter of the log matches \Wide(*)\Other`; r.Results[0].Skipped != want {
		t.Errorf("have %q, want %q", r.Results[0].Skipped, want)
	}
}

// TestDatasourcesTimesColumns (issue 32, items 6 and 8): each datasource
// was compared with every column of the log (20,000 analyses × 10,000
// columns: 200 million comparisons of object names); it is compared with
// each distinct object name, then with the columns of the objects it
// matches only. The datasources' object differs from the log's in its
// last letter only, so that each comparison goes through the name.
func TestDatasourcesTimesColumns(t *testing.T) {
	const n, columns = 20_000, 10_000
	log := hostile.OneObjectLog(columns, "Count")
	set := &Set{Name: "near misses"}
	path := `\` + hostile.OneObject + `y(*)\Count`
	for i := range n {
		set.Analyses = append(set.Analyses, Analysis{
			Name: "A" + strconv.Itoa(i), Enabled: true,
			Datasources: []Datasource{{Name: path, Path: mustPath(path), Round: -1}},
			Thresholds:  []Threshold{{Name: "T", Condition: Warning, Datasource: path, Operator: Greater, Value: 1}},
		})
	}
	r := runWithin(t, log, set)
	if len(r.Results) != n || r.Results[n-1].Skipped != "no counter of the log matches "+path {
		t.Errorf("have %d results, the last skipped %q; want %d, each matching nothing", len(r.Results), r.Results[n-1].Skipped, n)
	}
}

// TestDatasourcesTimesThresholds: each threshold looked for its datasource
// among all of the analysis' (for each datasource's series: datasources ×
// thresholds × datasources); they are found in a map. 2,000 datasources,
// each of one series, each with one threshold.
func TestDatasourcesTimesThresholds(t *testing.T) {
	const n = 2_000
	log := hostile.OneObjectLog(10, "Count")
	path := `\` + hostile.OneObject + `(process3)\Count`
	a := Analysis{Name: "wide", Enabled: true}
	for i := range n {
		v := "V" + strconv.Itoa(i)
		a.Datasources = append(a.Datasources, Datasource{Name: path, Var: v, Path: mustPath(path), Round: -1})
		a.Thresholds = append(a.Thresholds, Threshold{Name: "T" + strconv.Itoa(i), Condition: Warning, Datasource: "v" + strconv.Itoa(n-1-i), Operator: Greater, Value: -1})
	}
	set := &Set{Name: "wide", Analyses: []Analysis{a}}
	r := runWithin(t, log, set)
	// Each datasource's series (process3, value 3) breaks its one
	// threshold (> −1); the alerts, one per slice and path, are one.
	if len(r.Results) != 1 || len(r.Results[0].Series) != n || len(r.Alerts) != 1 || len(r.Unsupported) != 0 {
		t.Fatalf("have %d results, %d series, %d alerts, %d unsupported; want 1, %d, 1, 0", len(r.Results), len(r.Results[0].Series), len(r.Alerts), len(r.Unsupported), n)
	}
	for i, se := range r.Results[0].Series {
		if se.Overall.NoThresholds || se.Overall.Condition != Warning {
			t.Fatalf("series %d: no thresholds %v, condition %v; want its threshold broken", i, se.Overall.NoThresholds, se.Overall.Condition)
		}
	}
}

// TestGeneratedJoin: a generated datasource joined each of its left
// operand's instances with the right's by going through all of them
// (instances × instances, each name built again); they are joined through
// a map. A ratio of two counters of 20,000 instances each.
func TestGeneratedJoin(t *testing.T) {
	const n = 20_000
	log := hostile.WideLog([]string{"A", "B"}, n, 2)
	set := &Set{Analyses: []Analysis{{Name: "gen", Enabled: true, Datasources: []Datasource{
		{Name: "num", Path: mustPath(`\Process(*)\A`), Round: -1},
		{Name: "den", Path: mustPath(`\Process(*)\B`), Round: -1},
		{Name: `\Process(*)\Ratio`, Kind: Generated, Path: mustPath(`\Process(*)\Ratio`), Round: -1,
			Formula: &Formula{Left: "num", Right: "den", Op: '/', Scale: 100}},
	}}}}
	r := runWithin(t, log, set)
	ratios := 0
	for _, s := range r.Results[0].Series {
		// A and B of an instance have the same values: 100 %, except
		// process0's first sample (0 / 0).
		if s.Datasource == `\Process(*)\Ratio` && s.Overall.Max == 100 {
			ratios++
		}
	}
	if ratios != n {
		t.Errorf("have %d ratios of 100, want %d", ratios, n)
	}
}

// runWithin runs set on the log's bytes without charts, failing the test
// on an error and when the run takes more than 20 s (the bound of the
// linear-time tests: tools/timebound).
func runWithin(t *testing.T, log []byte, set *Set) *Report {
	t.Helper()
	c := open(t, log)
	var r *Report
	var err error
	timebound.Within(t, 20*time.Second, "the run", func() {
		r, err = Run(c, set, Options{NoCharts: true})
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
