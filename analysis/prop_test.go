package analysis

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/perfcalc/perfcalc/engine/relog"
)

// propParameters: 300 cases per property (each builds and reads small
// logs), from a fixed seed.
func propParameters(n int) *gopter.TestParameters {
	p := gopter.DefaultTestParametersWithSeed(20261126)
	p.MinSuccessfulTests = n
	return p
}

// randomLog is a small log made from a seed: 3 to 80 rows of two
// instances, step seconds apart (1, 2, 5 or 15), values 0 … 100, with
// some instances absent from some rows when blanks.
type randomLog struct {
	step  int64
	names []string
	raws  [][]uint64
}

func newRandomLog(seed int64, blanks bool) randomLog {
	rnd := rand.New(rand.NewSource(seed))
	l := randomLog{step: []int64{1, 2, 5, 15}[rnd.Intn(4)], names: []string{"a", "b"}}
	n := 3 + rnd.Intn(78)
	for range n {
		row := []uint64{uint64(rnd.Intn(101)), uint64(rnd.Intn(101))}
		if blanks && rnd.Intn(6) == 0 {
			row[rnd.Intn(2)] = absent
		}
		l.raws = append(l.raws, row)
	}
	return l
}

func (l randomLog) bytes(from, to int) []byte {
	return buildLog(t0+int64(from)*l.step*sec, l.step, rawCount, l.names, l.raws[from:to])
}

// alertKeys returns the (slice, path, condition) of each alert.
type alertKey struct {
	slice int
	path  string
	cond  Condition
}

func alertKeys(r *Report) []alertKey {
	var ks []alertKey
	for _, a := range r.Alerts {
		ks = append(ks, alertKey{a.Slice, a.Path, a.Condition})
	}
	return ks
}

// TestPropSlicesPartition: every row lies in exactly one slice, slices
// are in time order and each holds rows within its bounds; exact mode
// keeps every row, compat mode all but those of the last slice.
func TestPropSlicesPartition(t *testing.T) {
	props := gopter.NewProperties(propParameters(500))
	props.Property("slices partition the rows", prop.ForAll(func(seed int64, compat bool) bool {
		rnd := rand.New(rand.NewSource(seed))
		n := 1 + rnd.Intn(200)
		times := make([]int64, n)
		tm := int64(t0)
		for i := range times {
			times[i] = tm
			tm += int64(rnd.Intn(4)) * sec * int64(1+rnd.Intn(30)) // gaps and equal times
		}
		interval := int64(1 + rnd.Intn(120))
		tl, err := newTimeline(times[0], times[n-1], interval, compat)
		if err != nil {
			return false
		}
		rowSlice := make([]int, n)
		for i, x := range times {
			if rowSlice[i], err = tl.add(x); err != nil {
				return false
			}
		}
		sl := tl.finish()
		total := 0
		for k, s := range sl {
			total += s.Samples
			if s.Start > s.End || (k > 0 && sl[k-1].End > s.Start) {
				return false
			}
		}
		kept := n
		if compat {
			kept = 0
			for _, k := range rowSlice {
				if k < len(sl) {
					kept++
				}
			}
		}
		for i, k := range rowSlice {
			if i > 0 && k < rowSlice[i-1] {
				return false
			}
			if k < len(sl) && (times[i] < sl[k].Start || times[i] > sl[k].End) {
				return false
			}
		}
		return total == kept
	}, gen.Int64(), gen.Bool()))
	props.TestingRun(t)
}

// TestPropRaiseThreshold: raising a gt threshold never adds alerts.
func TestPropRaiseThreshold(t *testing.T) {
	props := gopter.NewProperties(propParameters(150))
	props.Property("a higher gt threshold raises a subset of the alerts", prop.ForAll(func(seed int64, v, d uint8, compat bool) bool {
		l := newRandomLog(seed, true)
		b := l.bytes(0, len(l.raws))
		run := func(th float64) []alertKey {
			set := oneAnalysis(`\Obj(*)\Ctr`, Threshold{Name: "t", Condition: Warning, Priority: 50, Operator: Greater, Value: th})
			r, err := Run(open(t, b), set, Options{PALCompat: compat})
			if err != nil {
				t.Fatal(err)
			}
			return alertKeys(r)
		}
		low, high := run(float64(v%101)), run(float64(v%101)+float64(d%50))
		for _, k := range high {
			if !slices.Contains(low, k) {
				return false
			}
		}
		return true
	}, gen.Int64(), gen.UInt8(), gen.UInt8(), gen.Bool()))
	props.TestingRun(t)
}

// TestPropCompatSameWhereNoQuirk: on a log without blanks or gaps whose
// duration is a multiple of the interval, compat and exact mode raise the
// same alerts with the same figures (trend aside: PAL rounds it), but
// for the last slice, which PAL drops.
func TestPropCompatSameWhereNoQuirk(t *testing.T) {
	props := gopter.NewProperties(propParameters(150))
	props.Property("compat = exact without quirks", prop.ForAll(func(seed int64, th uint8, opi uint8, slicesN uint8) bool {
		l := newRandomLog(seed, false)
		per := min(1+int(slicesN%5), (len(l.raws)-1)/2) // rows per slice
		k := (len(l.raws) - 1) / per                    // ≥ 2
		l.raws = l.raws[:k*per+1]                       // duration = k intervals
		interval := int64(per) * l.step
		b := l.bytes(0, len(l.raws))
		op := []Operator{Greater, GreaterEqual, Less, LessEqual, Equal}[opi%5]
		set := oneAnalysis(`\Obj(*)\Ctr`, Threshold{Name: "t", Condition: Critical, Priority: 100, Operator: op, Value: float64(th % 101)})
		ex, err := Run(open(t, b), set, Options{Interval: interval})
		if err != nil {
			t.Fatal(err)
		}
		co, err := Run(open(t, b), set, Options{Interval: interval, PALCompat: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(co.Slices) != len(ex.Slices)-1 {
			return false
		}
		var exA []Alert
		for _, a := range ex.Alerts {
			if a.Slice < len(co.Slices) {
				a.Trend = 0
				exA = append(exA, a)
			}
		}
		coA := slices.Clone(co.Alerts)
		for i := range coA {
			coA[i].Trend = 0
		}
		return slices.Equal(exA, coA)
	}, gen.Int64(), gen.UInt8(), gen.UInt8(), gen.UInt8()))
	props.TestingRun(t)
}

// TestPropMergeHalves: a log cut in two (the halves sharing one row) and
// merged (relog.Merge) gives the alerts of the whole log.
func TestPropMergeHalves(t *testing.T) {
	props := gopter.NewProperties(propParameters(150))
	props.Property("merged halves = whole", prop.ForAll(func(seed int64, cut uint8, th uint8, compat bool) bool {
		l := newRandomLog(seed, true)
		m := 1 + int(cut)%(len(l.raws)-1)
		whole := l.bytes(0, len(l.raws))
		a, b := l.bytes(0, m+1), l.bytes(m, len(l.raws))
		merged, err := relog.Merge([]relog.Input{
			{R: bytes.NewReader(a), Size: int64(len(a)), Name: "a"},
			{R: bytes.NewReader(b), Size: int64(len(b)), Name: "b"},
		}, relog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		set := oneAnalysis(`\Obj(*)\Ctr`,
			Threshold{Name: "w", Condition: Warning, Priority: 50, Operator: Greater, Value: float64(th % 101)},
			Threshold{Name: "c", Condition: Critical, Priority: 100, Operator: Less, Value: float64(th%101) / 2})
		rw, err := Run(open(t, whole), set, Options{PALCompat: compat})
		if err != nil {
			t.Fatal(err)
		}
		rm, err := Run(merged, set, Options{PALCompat: compat})
		if err != nil {
			t.Fatal(err)
		}
		return slices.Equal(rw.Alerts, rm.Alerts) && bytes.Equal(rw.AppendJSON(nil), rm.AppendJSON(nil))
	}, gen.Int64(), gen.UInt8(), gen.UInt8(), gen.Bool()))
	props.TestingRun(t)
}
