package fuzz

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// FuzzRun: analysing any small log (a spec over blgSmallSeeds, as
// FuzzRelogMerge's) with thresholds of any value and operator on its
// first columns, a generated ratio of two of them, any interval and either
// mode never panics; the report's JSON parses, holds no NaN or ±Inf, and
// is the same twice; every alert's slice exists.
func FuzzRun(f *testing.F) {
	seeds := blgSmallSeeds()
	for i := range seeds {
		f.Add([]byte{byte(i)}, 50.0, uint8(0), int32(0), false)
		f.Add([]byte{byte(i)}, 0.0, uint8(2), int32(1), true)
		f.Add([]byte{byte(i)}, -1e308, uint8(5), int32(7), true)
	}
	f.Fuzz(func(t *testing.T, spec []byte, value float64, op uint8, interval int32, compat bool) {
		data := fromSpec(seeds, spec)
		c, err := relog.New(bytes.NewReader(data), int64(len(data)), relog.Options{})
		if err != nil {
			return
		}
		set := fuzzSet(c.Columns(), value, op)
		r, err := analysis.Run(c, set, analysis.Options{Interval: int64(interval), PALCompat: compat})
		if r == nil {
			if err == nil {
				t.Fatal("Run returned neither a report nor an error")
			}
			return
		}
		for _, a := range r.Alerts {
			if a.Slice < 0 || a.Slice >= len(r.Slices) {
				t.Fatalf("alert of slice %d among %d", a.Slice, len(r.Slices))
			}
		}
		b := r.AppendJSON(nil)
		if !bytes.Equal(b, r.AppendJSON(nil)) {
			t.Fatal("AppendJSON differs between two calls")
		}
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("the JSON does not parse: %v\n%.400s", err, b)
		}
		if bytes.Contains(b, []byte("NaN")) || bytes.Contains(b, []byte("Inf")) {
			t.Fatalf("NaN or Inf in the JSON: %.400s", b)
		}
		r.AppendText(nil)
	})
}

// fuzzSet returns a set of one analysis per column of the first three
// (its object and counter, every instance), each with a threshold of value
// by operator op, and a generated ratio of the first two columns' series.
func fuzzSet(cols []relog.Column, value float64, op uint8) *analysis.Set {
	if math.IsNaN(value) {
		value = 0
	}
	set := &analysis.Set{Name: "fuzz"}
	var dss []analysis.Datasource
	for i := range min(len(cols), 3) {
		p := counterpath.Path{Object: cols[i].Parts.Object, Counter: cols[i].Parts.Counter, HasInstance: cols[i].Parts.HasInstance, Instance: "*"}
		name := "ds" + string(rune('0'+i))
		ds := analysis.Datasource{Name: name, Path: p, Round: int(op%9) - 2}
		dss = append(dss, ds)
		set.Analyses = append(set.Analyses, analysis.Analysis{
			Name: "A" + name, Category: "C", Enabled: true, Primary: name,
			Datasources: []analysis.Datasource{ds},
			Thresholds: []analysis.Threshold{
				{Name: "t", Condition: analysis.Warning, Priority: 50, Operator: analysis.Operator(op % 6), Value: value},
				{Name: "u", Condition: analysis.Critical, Priority: 100, Operator: analysis.Operator((op / 6) % 6), Value: value / 2, TrendOnly: op&0x80 != 0},
			},
		})
	}
	if len(dss) >= 2 {
		set.Analyses = append(set.Analyses, analysis.Analysis{
			Name: "ratio", Enabled: true,
			Datasources: append(dss[:2:2], analysis.Datasource{Name: "r", Kind: analysis.Generated, Round: -1,
				Formula: &analysis.Formula{Left: "ds0", Right: "ds1", Op: '/', Scale: 100}}),
			Thresholds: []analysis.Threshold{{Name: "t", Condition: analysis.Critical, Datasource: "r", Operator: analysis.Greater, Value: value}},
		})
	}
	return set
}
