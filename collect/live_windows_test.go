package collect

import (
	"math"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
)

// These tests read this machine's live counters. They run on Windows and
// under Wine (make wine-smoke), which answers with much less: an empty
// PERF_DATA_BLOCK, a minimal name table, and two PDH counters.

func TestLiveRegistryHeaderAndNames(t *testing.T) {
	src, err := OpenRegistry()
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, q := range []string{"Global", "238 2"} {
		b, err := src.Query(nil, q)
		if err != nil {
			t.Fatalf("Query(%q): %v", q, err)
		}
		blk, err := perfdata.Parse(b)
		if err != nil {
			t.Fatalf("Query(%q): %d bytes that do not decode: %v", q, len(b), err)
		}
		objs := blk.Objects()
		n := 0
		for objs.Next() {
			n++
		}
		if err := objs.Err(); err != nil {
			t.Fatalf("Query(%q): object %d: %v", q, n, err)
		}
		t.Logf("Query(%q): %d bytes, PERF_DATA_BLOCK of %q, %d objects, PerfFreq %d", q, len(b), blk.SystemName(), n, blk.PerfFreq)
	}
	raw, err := src.NameTable(false)
	if err != nil {
		t.Fatalf("Counter 009: %v", err)
	}
	tbl, err := nametable.Parse(raw)
	if err != nil {
		t.Fatalf("Counter 009: %d bytes that do not decode: %v", len(raw), err)
	}
	if tbl.Len() == 0 {
		t.Fatal("Counter 009: no pairs")
	}
	first, _ := tbl.Lookup(1)
	t.Logf("Counter 009: %d bytes, %d pairs, index 1 = %q", len(raw), tbl.Len(), first.String())

	// The registry collector on Global: every sample decodes.
	col, err := NewRegistry(src, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var s Sample
	for range 2 {
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
		if len(s.Errors) > 0 {
			t.Fatalf("Global sample: %v", s.Errors)
		}
	}
	t.Logf("Global: %d values", len(s.Values))
}

// TestLivePDHProcessorTime collects \Processor(_Total)\% Processor Time
// three times through PDH's raw values.
func TestLivePDHProcessorTime(t *testing.T) {
	src, err := OpenPDH()
	if err != nil {
		t.Fatal(err)
	}
	col, err := NewPDH(src, Config{Paths: mustPaths(t, `\Processor(_Total)\% Processor Time`)})
	if err != nil {
		t.Fatal(err)
	}
	defer col.Close()
	var s Sample
	var prev []PDHItem
	for k := 0; k < 3; k++ {
		if k > 0 {
			time.Sleep(300 * time.Millisecond)
		}
		if err := col.Collect(&s); err != nil {
			t.Fatalf("sample %d: %v", k, err)
		}
		if len(s.Values) != 1 || len(s.Errors) > 0 {
			t.Fatalf("sample %d: %d values, errors %v", k, len(s.Values), s.Errors)
		}
		v := s.Values[0]
		raw, err := src.Raw(0, nil) // the raw value just computed
		if err != nil || len(raw) != 1 {
			t.Fatalf("sample %d: raw %v %v", k, raw, err)
		}
		t.Logf("sample %d: %s = %v (%v, %v), raw %+v", k, v.Path, v.Value, v.Status, v.Type, raw[0].Raw)
		if !(v.Value >= 0 && v.Value <= 100) {
			t.Errorf("sample %d: %v is not in [0, 100]", k, v.Value)
		}
		if k > 0 && v.Status == engine.NegativeDenominator && raw[0].Raw.SecondValue == prev[0].Raw.SecondValue {
			// Wine's PDH answers a constant time base (SecondValue 500000):
			// ΔD = 0, and PDH's formula has no value. Any other reason is
			// a failure.
			t.Logf("sample %d: the time base did not advance (%d): no value, as PDH's formula says", k, raw[0].Raw.SecondValue)
			prev = raw
			continue
		}
		prev = raw
		if v.Type != engine.Timer100nsInv {
			t.Errorf("type %v, want PERF_100NSEC_TIMER_INV", v.Type)
		}
		if !strings.HasSuffix(string(v.Path), `\Processor(_Total)\% Processor Time`) {
			t.Errorf("path %s", v.Path)
		}
		switch {
		case k == 0 && v.Status != engine.NewData:
			t.Errorf("first sample: %v, want NewData", v.Status)
		case k > 0 && v.Status != engine.Valid:
			t.Errorf("sample %d: %v, want Valid", k, v.Status)
		}
	}
}

// TestLivePDHMatchesFormatted compares perfcalc's value with
// PdhGetFormattedCounterValue for the same two raw samples (no cap, no
// scale: relog's values).
func TestLivePDHMatchesFormatted(t *testing.T) {
	if onWine() {
		t.Skip("Wine's PdhGetFormattedCounterValue does not compute from the raw values it returns (it answers an integer in the double for PDH_FMT_DOUBLE): the cross-check needs Windows")
	}
	src, err := OpenPDH()
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{`\Processor(_Total)\% Processor Time`, `\System\System Up Time`}
	col, err := NewPDH(src, Config{Paths: mustPaths(t, paths...)})
	if err != nil {
		t.Fatal(err)
	}
	defer col.Close()
	q := src.(*pdhQuery)
	var s Sample
	for k := 0; k < 3; k++ {
		time.Sleep(200 * time.Millisecond)
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			continue
		}
		for id, v := range s.Values {
			pdh, cstatus, err := q.formatted(id, pdhFmtNoCap100|pdhFmtNoScale)
			if err != nil || cstatus > 1 {
				t.Errorf("%s: PdhGetFormattedCounterValue: %v, status 0x%x", v.Path, err, cstatus)
				continue
			}
			same := math.Float64bits(pdh) == math.Float64bits(v.Value)
			t.Logf("%s: perfcalc %.17g, PDH %.17g, bit-identical %v", v.Path, v.Value, pdh, same)
			if v.Status != engine.Valid || math.Abs(pdh-v.Value) > 1e-9*math.Max(1, math.Abs(pdh)) {
				t.Errorf("%s: perfcalc %v (%v), PDH %v", v.Path, v.Value, v.Status, pdh)
			}
		}
	}
}

func TestLivePerfLib(t *testing.T) {
	src, err := OpenPerfLib()
	if err != nil {
		if strings.Contains(err.Error(), "not available") {
			t.Skipf("PerfLib V2 is not on this system (Wine lacks it): %v", err)
		}
		t.Fatal(err)
	}
	sets, err := src.CounterSets()
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) == 0 {
		t.Fatal("no counter sets")
	}
	col, err := NewPerfLib(src, Config{Paths: mustPaths(t, `\Processor Information(_Total)\% Processor Time`)})
	if err != nil {
		t.Fatal(err)
	}
	defer col.Close()
	var s Sample
	for k := 0; k < 2; k++ {
		time.Sleep(200 * time.Millisecond)
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.Values) != 1 || s.Values[0].Status != engine.Valid {
		t.Fatalf("%d sets; values %+v errors %v", len(sets), s.Values, s.Errors)
	}
}

// onWine reports whether the program runs under Wine (ntdll exports
// wine_get_version there).
func onWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
