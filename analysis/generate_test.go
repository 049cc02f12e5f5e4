package analysis

import (
	"math/rand"
	"reflect"
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/tools/hostile"
)

// fixpointOrder is generationOrder as the fixpoint runs it: passes over
// the datasources until one does nothing (the reference).
func fixpointOrder(a *Analysis) (steps []genStep, cyclic []int) {
	idx := newDSIndex(a)
	done := make([]bool, len(a.Datasources))
	for di := range a.Datasources {
		done[di] = a.Datasources[di].Kind == CounterLog
	}
	for progress := true; progress; {
		progress = false
		for di := range a.Datasources {
			if done[di] {
				continue
			}
			f := a.Datasources[di].Formula
			if f == nil || f.Op != '+' && f.Op != '-' && f.Op != '*' && f.Op != '/' {
				done[di], progress = true, true
				steps = append(steps, genStep{di, -1, -1, "a generated datasource without a formula perfcalc computes"})
				continue
			}
			li, ri := idx.find(f.Left), -1
			if f.Left == "" {
				li = -1
			}
			if f.Right != "" {
				ri = idx.find(f.Right)
			}
			if li < 0 || li == di || (f.Right != "" && (ri < 0 || ri == di)) {
				done[di], progress = true, true
				steps = append(steps, genStep{di, -1, -1, "the formula names a datasource the analysis does not have"})
				continue
			}
			if !done[li] || (ri >= 0 && !done[ri]) {
				continue
			}
			done[di], progress = true, true
			steps = append(steps, genStep{di, li, ri, ""})
		}
	}
	for di := range a.Datasources {
		if !done[di] {
			cyclic = append(cyclic, di)
		}
	}
	return steps, cyclic
}

// TestGenerationOrder: generationOrder does the generated datasources in
// the fixpoint's order (which decides the order of generated series and
// of notes), on random analyses: operands before and after, missing,
// themselves, in cycles, constants, formulas perfcalc does not compute.
func TestGenerationOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	name := func(n int) string { return "d" + strconv.Itoa(rng.Intn(n+2)) } // d(n+1), d(n) exist not
	for range 20_000 {
		n := 1 + rng.Intn(12)
		a := &Analysis{}
		for i := range n {
			d := Datasource{Name: "d" + strconv.Itoa(i)}
			if rng.Intn(3) > 0 {
				d.Kind = Generated
				switch rng.Intn(8) {
				case 0: // no formula
				case 1:
					d.Formula = &Formula{Left: name(n), Right: name(n), Op: '%'}
				case 2:
					d.Formula = &Formula{Left: name(n), Op: '*', Constant: 2}
				default:
					d.Formula = &Formula{Left: name(n), Right: name(n), Op: '/'}
				}
			}
			a.Datasources = append(a.Datasources, d)
		}
		hs, hc := generationOrder(a, newDSIndex(a))
		ws, wc := fixpointOrder(a)
		if !reflect.DeepEqual(hs, ws) || !reflect.DeepEqual(hc, wc) {
			t.Fatalf("%+v:\nhave %v %v\nwant %v %v", a.Datasources, hs, hc, ws, wc)
		}
	}
}

// TestGenerationChain: 20,000 generated datasources, each of the next
// (written last to first), took 20,000 passes over them all, each
// looking for operands among all; they are ordered at once.
func TestGenerationChain(t *testing.T) {
	const n = 20_000
	path := `\` + hostile.OneObject + `(process0)\Count`
	a := Analysis{Name: "chain", Enabled: true, Datasources: []Datasource{{Name: "c", Path: mustPath(path), Round: -1}}}
	for i := range n {
		left := "g" + strconv.Itoa(i+1)
		if i == n-1 {
			left = "c"
		}
		a.Datasources = append(a.Datasources, Datasource{Name: "g" + strconv.Itoa(i), Kind: Generated, Round: -1, Formula: &Formula{Left: left, Op: '+', Constant: 1}})
	}
	r := runWithin(t, hostile.OneObjectLog(1, "Count"), &Set{Analyses: []Analysis{a}})
	// g0 = c + 20,000: the chain's last series.
	series := r.Results[0].Series
	if len(series) != n+1 || len(r.Unsupported) != 0 {
		t.Fatalf("have %d series, %d unsupported; want %d, none", len(series), len(r.Unsupported), n+1)
	}
	for _, s := range series {
		if s.Datasource == "g0" && s.Overall.Max-s.Overall.Min != 1 {
			t.Errorf("g0: min %v, max %v", s.Overall.Min, s.Overall.Max)
		}
	}
}
