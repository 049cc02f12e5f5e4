package analysis

import (
	"strings"
	"testing"
)

// TestAppendText: the summary counts the alerts per analysis, lists the
// worst slice first with its figures, and counts skipped analyses.
func TestAppendText(t *testing.T) {
	var raws [][]uint64
	for i := range 61 {
		b := uint64(20)
		switch {
		case i == 10:
			b = 60
		case i == 40:
			b = 95
		}
		raws = append(raws, []uint64{10, b})
	}
	log := buildLog(t0, 1, rawCount, []string{"a", "b"}, raws)
	set := oneAnalysis(`\Obj(*)\Ctr`,
		Threshold{Name: "warn", Condition: Warning, Priority: 50, Operator: Greater, Value: 50},
		Threshold{Name: "crit", Condition: Critical, Priority: 100, Operator: Greater, Value: 90},
	)
	set.Analyses = append(set.Analyses, Analysis{Name: "Missing", Enabled: true, Datasources: []Datasource{{Name: "m", Path: mustPath(`\No\Such`)}}})
	set.Values = map[string]string{"PhysicalMemory": "32"}
	r, err := Run(open(t, log), set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := string(r.AppendText(nil))
	for _, want := range []string{
		"Machine HOST, 2013-02-20T02:50:00.000Z to 2013-02-20T02:51:00.000Z, 61 samples, 30 slices of 2 s\n",
		"Thresholds: test (PhysicalMemory=32)\n",
		"1 critical and 1 warning alerts in 1 analyses:\n",
		"         1        1  A\n",
		"Worst slices:\n  2013-02-20T02:50:39.000Z  Critical  A  \\\\HOST\\Obj(b)\\Ctr\n      min 20, avg 57.5, max 95,",
		"1 analyses run, 1 skipped (a counter not in the log), 0 disabled; 0 not evaluated",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	if strings.Index(text, "Critical  A  \\\\") > strings.Index(text, "Warning  A  \\\\") {
		t.Errorf("the critical alert is not listed first:\n%s", text)
	}
}

// TestAppendTextSameNames (issue 32, item 12): two analyses of the same
// name, told apart by their IDs, are counted apart (the counts of both
// were added under the first).
func TestAppendTextSameNames(t *testing.T) {
	var raws [][]uint64
	for i := range 61 {
		raws = append(raws, []uint64{uint64(i)})
	}
	log := buildLog(t0, 1, rawCount, []string{"a"}, raws)
	set := oneAnalysis(`\Obj(*)\Ctr`, Threshold{Name: "crit", Condition: Critical, Priority: 100, Operator: Greater, Value: 50})
	second := oneAnalysis(`\Obj(*)\Ctr`, Threshold{Name: "warn", Condition: Warning, Priority: 50, Operator: Greater, Value: 10}).Analyses[0]
	second.ID = "a2"
	set.Analyses = append(set.Analyses, second)
	r, err := Run(open(t, log), set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := string(r.AppendText(nil))
	for _, want := range []string{" alerts in 2 analyses:\n", "         5        0  A\n", "         0       25  A\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
}
