package main

import (
	"bufio"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestStatsValidPercentiles checks --valid and --percentiles on the log of
// bad samples against figures computed here from perfcalc relog -f json's
// values (the valid values of each counter, summed in order; percentiles
// by rank after sorting), and that the flags leave PDH's figures as the
// default output gives them.
func TestStatsValidPercentiles(t *testing.T) {
	log := filepath.Join(corpus.Shared(t, "blg"), "PowerShell_BadCounterSamples.blg")
	code, out, errs := runCmd(t, "", "stats", log, "--json", "--valid", "--percentiles")
	if code != exitOK {
		t.Fatalf("stats: exit %d, %s", code, errs)
	}
	type stat struct {
		Counter, MeanStatus string
		Count, Invalid      int
		Min, Max, Mean      *float64
		ValidMean           *float64
		P90, P95, P99       *float64
		Skipped             int
	}
	var have []stat
	if err := json.Unmarshal([]byte(out), &have); err != nil {
		t.Fatal(err)
	}
	code, plain, errs := runCmd(t, "", "stats", log, "--json")
	if code != exitOK {
		t.Fatalf("stats: exit %d, %s", code, errs)
	}
	var pdh []stat
	if err := json.Unmarshal([]byte(plain), &pdh); err != nil {
		t.Fatal(err)
	}
	code, rows, errs := runCmd(t, "", "relog", log, "-f", "json")
	if code != exitOK {
		t.Fatalf("relog: exit %d, %s", code, errs)
	}
	values := map[string][]float64{}
	sc := bufio.NewScanner(strings.NewReader(rows))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var row struct{ Values map[string]*float64 }
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		for k, v := range row.Values {
			if v != nil {
				values[k] = append(values[k], *v)
			}
		}
	}
	if len(have) != 26 || len(pdh) != len(have) {
		t.Fatalf("%d and %d counters, want 26", len(have), len(pdh))
	}
	for i, s := range have {
		v := values[s.Counter]
		sum := 0.0
		for _, x := range v {
			sum += x
		}
		slices.Sort(v)
		rank := func(p float64) float64 { return v[int(math.Ceil(p*float64(len(v))/100))-1] }
		p := pdh[i]
		if s.Count != len(v) || s.Count == 0 || *s.ValidMean != sum/float64(len(v)) ||
			*s.P90 != rank(90) || *s.P95 != rank(95) || *s.P99 != rank(99) {
			t.Errorf("%s: count %d valid mean %v p90 %v p95 %v p99 %v; want %d %v %v %v %v",
				s.Counter, s.Count, *s.ValidMean, *s.P90, *s.P95, *s.P99, len(v), sum/float64(len(v)), rank(90), rank(95), rank(99))
		}
		// Every counter of this log has a bad sample or more, and
		// PDH's mean NegativeValue.
		if s.Invalid < 1 || s.Invalid > s.Skipped || s.MeanStatus != "NegativeValue" || s.Mean != nil {
			t.Errorf("%s: invalid %d skipped %d mean %v %s", s.Counter, s.Invalid, s.Skipped, s.Mean, s.MeanStatus)
		}
		if p.Counter != s.Counter || p.Count != s.Count || p.Skipped != s.Skipped || *p.Min != *s.Min || *p.Max != *s.Max || p.MeanStatus != s.MeanStatus {
			t.Errorf("%s: PDH's figures differ with the flags: %+v, %+v", s.Counter, p, s)
		}
	}
	if strings.Contains(plain, "validMean") || strings.Contains(plain, "p90") {
		t.Errorf("the default JSON has the new figures: %.200s", plain)
	}
	// The table labels the two means and adds the columns.
	code, table, _ := runCmd(t, "", "stats", log, "--valid", "--percentiles")
	head, _, _ := strings.Cut(table, "\n")
	if code != exitOK || strings.Join(strings.Fields(head), " ") != "Count Skipped Invalid Min Max PDH mean Valid mean P90 P95 P99 Counter" {
		t.Errorf("table header %q (exit %d)", head, code)
	}
	first := strings.Fields(strings.Split(table, "\n")[1])
	if len(first) != 13 || first[2] != "2" || first[5] != "(NegativeValue)" || first[6] != "3.3288894606500468" {
		t.Errorf("first line %q", first)
	}
}

// TestStatsTimeRange: stats -b -e summarises the samples relog -b -e keeps
// (the log the project ships, 10 samples a second apart): counts, minima,
// maxima and valid means equal those of relog -b -e -f json's values, and
// the % Processor Time rate of the range's 5 samples has 4 values (its
// pairs: the range's first sample only starts one, and relog prints no
// value for it).
func TestStatsTimeRange(t *testing.T) {
	log := filepath.Join(corpus.Root(), "testdata", "corpus", "sample.blg")
	b, e := "2025-01-15T12:00:03", "01/15/2025 12:00:07.000"
	code, out, errs := runCmd(t, "", "stats", log, "-b", b, "-e", e, "--json", "--valid")
	if code != exitOK {
		t.Fatalf("stats -b -e: exit %d, %s", code, errs)
	}
	var have []struct {
		Counter        string
		Count, Skipped int
		Min, Max       *float64
		ValidMean      *float64
	}
	if err := json.Unmarshal([]byte(out), &have); err != nil {
		t.Fatal(err)
	}
	code, rows, errs := runCmd(t, "", "relog", log, "-b", b, "-e", e, "-f", "json")
	if code != exitOK {
		t.Fatalf("relog -b -e: exit %d, %s", code, errs)
	}
	values, samples := map[string][]float64{}, 0
	for _, line := range strings.Split(strings.TrimSpace(rows), "\n") {
		var row struct{ Values map[string]*float64 }
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		samples++
		for k, v := range row.Values {
			if v != nil {
				values[k] = append(values[k], *v)
			}
		}
	}
	if samples != 5 || len(have) != 3 {
		t.Fatalf("%d samples and %d counters in the range, want 5 and 3", samples, len(have))
	}
	for _, s := range have {
		v := values[s.Counter]
		sum := 0.0
		for _, x := range v {
			sum += x
		}
		if s.Count != len(v) || s.Count == 0 || *s.Min != slices.Min(v) || *s.Max != slices.Max(v) || *s.ValidMean != sum/float64(len(v)) {
			t.Errorf("%s: count %d min %v max %v valid mean %v; want %d %v %v %v", s.Counter, s.Count, *s.Min, *s.Max, *s.ValidMean,
				len(v), slices.Min(v), slices.Max(v), sum/float64(len(v)))
		}
		if strings.HasSuffix(s.Counter, `% Processor Time`) && (s.Count != 4 || s.Skipped != 0) {
			t.Errorf("%s: %d values, %d skipped; want 4 and 0 (4 pairs in 5 samples)", s.Counter, s.Count, s.Skipped)
		}
	}
	code, whole, _ := runCmd(t, "", "stats", log, "--json")
	if code != exitOK || whole == out {
		t.Errorf("stats without -b -e: exit %d, the same output as with them", code)
	}
	if code, _, errs := runCmd(t, "", "stats", log, "-b", "yesterday"); code == exitOK || !strings.Contains(errs, `"yesterday" is not a time`) {
		t.Errorf("stats -b yesterday: exit %d, %q", code, errs)
	}
}
