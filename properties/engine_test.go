package properties

import (
	"cmp"
	"math"
	"math/bits"
	"math/rand"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/perfcalc/perfcalc/engine"
)

// minCases is the number of cases of the engine's properties: 5,000, or
// PERFCALC_PROPERTY_CASES for long runs (CI keeps the default); cases
// scales the other properties' counts alike. PERFCALC_PROPERTY_SEED sets
// the seed (20261121 by default), for runs that explore other cases.
var minCases = envInt("PERFCALC_PROPERTY_CASES", 5000)

func parameters() *gopter.TestParameters {
	p := gopter.DefaultTestParametersWithSeed(int64(envInt("PERFCALC_PROPERTY_SEED", 20261121)))
	p.MinSuccessfulTests = minCases
	p.MaxDiscardRatio = 2
	return p
}

// cases returns n, the cases of a property at the default minCases,
// scaled to the minCases of this run.
func cases(n int) int { return max(1, n*minCases/5000) }

// envInt returns the positive integer in the environment variable name, or
// def.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// wellFormed checks what every result must satisfy.
func wellFormed(r engine.Result) bool {
	return finite(r.Value) &&
		r.Status <= engine.UnknownType &&
		(r.Status == engine.Valid || r.Value == 0) &&
		math.Float64bits(r.Value) != 1<<63 // never −0
}

// safely runs fn and reports a panic as a failed property.
func safely(fn func() bool) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return fn()
}

func TestPropertiesNoNaNNoPanic(t *testing.T) {
	props := gopter.NewProperties(parameters())
	props.Property("any type, any input, any options: finite, never −0, status in range, no panic", prop.ForAll(
		func(in engine.Input, opts engine.Options) bool {
			return safely(func() bool {
				r := engine.Compute(&in, opts)
				_ = engine.AppendValue(nil, in.Type, r, engine.DefaultDigits)
				_ = in.Type.String()
				return wellFormed(r)
			})
		}, InputOf(AnyType()), AnyOptions()))
	props.Property("statistics of any series: finite, counts add up, no panic", prop.ForAll(
		func(c engine.Input, series []engine.RawCounter, opts engine.Options) bool {
			return safely(func() bool {
				st := engine.ComputeStatistics(c.Counter, series, opts)
				values := len(series)
				if c.Type.Samples() == 2 {
					values = max(values-1, 0)
				}
				return finite(st.Min) && finite(st.Max) && finite(st.Mean) &&
					st.Count+st.Skipped == values && st.Min <= st.Max &&
					(st.MeanStatus == engine.Valid || st.Mean == 0)
			})
		}, InputOf(AnyType()), gen.SliceOfN(6, RawCounter()), AnyOptions()))
	props.TestingRun(t)
}

// TestPropertiesMatchModel is the strongest check: on edge-biased inputs
// the engine's straight-line code gives the same bits and status as the
// plain per-type model in model_test.go.
func TestPropertiesMatchModel(t *testing.T) {
	props := gopter.NewProperties(parameters())
	props.Property("Compute == model", prop.ForAll(
		func(in engine.Input, opts engine.Options) bool {
			have, want := engine.Compute(&in, opts), model(in, opts)
			if have.Status != want.Status || math.Float64bits(have.Value) != math.Float64bits(want.Value) {
				t.Logf("%+v %v: have %v, want %v", in, opts, have, want)
				return false
			}
			return true
		}, InputOf(AnyType()), AnyOptions()))
	props.Property("Compute == model, plausible (mostly Valid) inputs", prop.ForAll(
		func(in engine.Input, opts engine.Options) bool {
			have, want := engine.Compute(&in, opts), model(in, opts)
			if have.Status != want.Status || math.Float64bits(have.Value) != math.Float64bits(want.Value) {
				t.Logf("%+v %v: have %v, want %v", in, opts, have, want)
				return false
			}
			return true
		}, PlausibleInput(), AnyOptions()))
	props.Property("ComputeBatch == Compute", prop.ForAll(
		func(ins []engine.Input, opts engine.Options) bool {
			out := make([]engine.Result, len(ins))
			if engine.ComputeBatch(ins, opts, out) != len(ins) {
				return false
			}
			for i := range ins {
				if out[i] != engine.Compute(&ins[i], opts) {
					return false
				}
			}
			return true
		}, gen.SliceOfN(8, InputOf(AnyType())), AnyOptions()))
	// ComputeBatch runs a run of inputs of one type through that formula's
	// kernel, which hands every input that is not plainly valid to the
	// reference code: runs of plausible inputs of one to three types
	// exercise both paths and the hand-over between them.
	props.Property("ComputeBatch == model, runs of one type", prop.ForAll(
		func(ins []engine.Input, types int, opts engine.Options) bool {
			for i := range ins {
				ins[i].Type = ins[i%types].Type
			}
			slices.SortStableFunc(ins, func(a, b engine.Input) int { return cmp.Compare(a.Type, b.Type) })
			out := make([]engine.Result, len(ins))
			if engine.ComputeBatch(ins, opts, out) != len(ins) {
				return false
			}
			for i, in := range ins {
				if want := model(in, opts); out[i].Status != want.Status || math.Float64bits(out[i].Value) != math.Float64bits(want.Value) {
					t.Logf("input %d of %d, %+v %v: have %v, want %v", i, len(ins), in, opts, out[i], want)
					return false
				}
			}
			return true
		}, gen.SliceOfN(24, PlausibleInput()), gen.IntRange(1, 3), AnyOptions()))
	props.TestingRun(t)
}

// sorted2 generates (lo, hi) with lo ≤ hi.
func sorted2() gopter.Gen {
	return gopter.CombineGens(EdgeU64(), EdgeU64()).Map(func(v []interface{}) [2]uint64 {
		a, b := v[0].(uint64), v[1].(uint64)
		if a > b {
			a, b = b, a
		}
		return [2]uint64{a, b}
	})
}

// goodPair builds a 2-sample input with good statuses and the given deltas,
// starting at n0 and d0 (moved down so that nothing overflows).
func goodPair(typ engine.CounterType, f int64, n0, dn, d0, dd uint64, mc uint32) engine.Input {
	n0 = min(n0, math.MaxUint64-dn)
	d0 = min(d0, math.MaxUint64-dd)
	return engine.Input{
		Counter: engine.Counter{Type: typ, TimeBase: f},
		HasOld:  true,
		Old:     engine.RawCounter{FirstValue: n0, SecondValue: d0, MultiCount: mc},
		New:     engine.RawCounter{FirstValue: n0 + dn, SecondValue: d0 + dd, MultiCount: mc},
	}
}

func TestPropertiesTimerBounds(t *testing.T) {
	inverse := typesOf([]engine.CounterType{engine.CounterTimerInv, engine.Timer100nsInv})
	multis := typesOf([]engine.CounterType{engine.CounterMultiTimer, engine.MultiTimer100ns, engine.CounterMultiTimerInv, engine.MultiTimer100nsInv})
	props := gopter.NewProperties(parameters())
	props.Property("inverse timers: 0 ≤ ΔN ≤ ΔD ⇒ value in [0, 100], Valid when ΔD > 0", prop.ForAll(
		func(typ engine.CounterType, nd [2]uint64, n0, d0 uint64, opts engine.Options) bool {
			in := goodPair(typ, 10_000_000, n0, nd[0], d0, nd[1], 1)
			r := engine.Compute(&in, opts&^(engine.Scale|engine.Times1000))
			return r.Value >= 0 && r.Value <= 100 && (nd[1] == 0 || r.Status == engine.Valid)
		}, inverse, sorted2(), EdgeU64(), EdgeU64(), AnyOptions()))
	props.Property("multi timers: 0 ≤ ΔN ≤ B1·ΔD, B1 > 0 ⇒ value in [0, 100], Valid when ΔD > 0", prop.ForAll(
		func(typ engine.CounterType, dd, r uint64, mc uint32, exact bool, n0, d0 uint64, opts engine.Options) bool {
			mc = max(mc, 1)
			// ΔN ≤ B1·ΔD: the product itself (when it fits) or below it.
			hi, lo := bits.Mul64(uint64(mc), dd)
			dn := r
			switch {
			case hi > 0: // any ΔN < 2^64 ≤ B1·ΔD
			case exact:
				dn = lo
			case lo < math.MaxUint64:
				dn = r % (lo + 1)
			}
			in := goodPair(typ, 10_000_000, n0, dn, d0, dd, mc)
			res := engine.Compute(&in, opts&^(engine.Scale|engine.Times1000))
			return res.Value >= 0 && res.Value <= 100 && (dd == 0 || res.Status == engine.Valid)
		}, multis, EdgeU64(), EdgeU64(), EdgeU32(), gen.Bool(), EdgeU64(), EdgeU64(), AnyOptions()))
	percent := typesOf(Where(func(t engine.CounterType) bool { return t.IsPercent() }))
	props.Property("Cap100: every percentage ≤ 100, any input", prop.ForAll(
		func(in engine.Input, wrap bool) bool {
			opts := engine.Cap100
			if wrap {
				opts |= engine.Wrap32
			}
			r := engine.Compute(&in, opts)
			return r.Value <= 100
		}, InputOf(percent), gen.Bool()))
	props.TestingRun(t)
}

func TestPropertiesZeroDenominators(t *testing.T) {
	props := gopter.NewProperties(parameters())
	// Every 2-sample type: those that divide by ΔD or ΔB, and the deltas,
	// whose samples must have advanced although ΔN alone is their value.
	twoSample := typesOf(Where(func(t engine.CounterType) bool {
		return t.Displayable() && t.Samples() == 2
	}))
	props.Property("ΔD = 0 or ΔB = 0 is never Valid", prop.ForAll(
		func(in engine.Input, opts engine.Options) bool {
			in.New.SecondValue = in.Old.SecondValue
			return engine.Compute(&in, opts).Status != engine.Valid
		}, InputOf(twoSample), AnyOptions()))
	// Without Wrap32, which reads a backwards step of a 4-byte base as a
	// 32-bit wrap.
	props.Property("ΔD ≤ 0 or ΔB ≤ 0 is never Valid (every 2-sample type, Wrap32 off)", prop.ForAll(
		func(in engine.Input, d [2]uint64, opts engine.Options) bool {
			in.Old.SecondValue, in.New.SecondValue = d[1], d[0]
			r := engine.Compute(&in, opts&^engine.Wrap32)
			// With both samples good, nothing outranks NegativeDenominator.
			good := in.HasOld && in.Old.CStatus <= 1 && in.New.CStatus <= 1
			return r.Status != engine.Valid && (!good || r.Status == engine.NegativeDenominator)
		}, InputOf(twoSample), sorted2(), AnyOptions()))
	props.Property("B1 = 0 is never Valid (raw fractions, multi timers)", prop.ForAll(
		func(in engine.Input, opts engine.Options) bool {
			if in.Type.Multi() {
				in.New.MultiCount = 0
			} else {
				in.New.SecondValue = 0
			}
			return engine.Compute(&in, opts).Status != engine.Valid
		}, InputOf(typesOf([]engine.CounterType{engine.RawFraction, engine.LargeRawFraction,
			engine.CounterMultiTimer, engine.MultiTimer100ns, engine.CounterMultiTimerInv, engine.MultiTimer100nsInv})), AnyOptions()))
	props.Property("F ≤ 0 is never Valid where F divides (rates, average timer, elapsed)", prop.ForAll(
		func(in engine.Input, f int64, opts engine.Options) bool {
			in.TimeBase = -max(f, -math.MaxInt64) // 0 or negative
			if f == math.MinInt64 {
				in.TimeBase = math.MinInt64
			}
			return engine.Compute(&in, opts).Status != engine.Valid
		}, InputOf(typesOf([]engine.CounterType{engine.CounterCounter, engine.CounterBulkCount, engine.SampleCounter,
			engine.AverageTimer, engine.ElapsedTime})), weighted(1, gen.Const(int64(0)), 3, gen.Int64Range(0, math.MaxInt64), 1, gen.Const(int64(math.MinInt64))), AnyOptions()))
	props.TestingRun(t)
}

func TestPropertiesRatesLinear(t *testing.T) {
	rates := typesOf([]engine.CounterType{engine.CounterCounter, engine.CounterBulkCount, engine.SampleCounter})
	// ΔN and ΔD up to 2^63 so that doubling them fits in uint64; F > 0.
	half := EdgeU64().Map(func(v uint64) uint64 { return v >> 1 })
	posF := EdgeI64().Map(func(f int64) int64 { return max(f, 1) })
	props := gopter.NewProperties(parameters())
	props.Property("doubling ΔN doubles the rate", prop.ForAll(
		func(typ engine.CounterType, f int64, n0, dn, d0, dd uint64) bool {
			dd = max(dd, 1)
			a := goodPair(typ, f, n0, dn, d0, dd, 1)
			b := goodPair(typ, f, n0, 2*dn, d0, dd, 1)
			ra, rb := engine.Compute(&a, 0), engine.Compute(&b, 0)
			return ra.Status == engine.Valid && rb.Status == engine.Valid && rb.Value == 2*ra.Value
		}, rates, posF, EdgeU64(), half, EdgeU64(), half))
	props.Property("doubling ΔD halves the rate (within one ulp)", prop.ForAll(
		func(typ engine.CounterType, f int64, n0, dn, d0, dd uint64) bool {
			dd = max(dd, 1)
			a := goodPair(typ, f, n0, dn, d0, dd, 1)
			b := goodPair(typ, f, n0, dn, d0, 2*dd, 1)
			ra, rb := engine.Compute(&a, 0), engine.Compute(&b, 0)
			return ra.Status == engine.Valid && rb.Status == engine.Valid && withinULP(rb.Value, ra.Value/2)
		}, rates, posF, EdgeU64(), EdgeU64(), EdgeU64(), half))
	props.Property("halving F halves the rate (within one ulp)", prop.ForAll(
		func(typ engine.CounterType, f int64, n0, dn, d0, dd uint64) bool {
			dd = max(dd, 1)
			f = max(f&^1, 2) // even, so that F/2 is exact
			a := goodPair(typ, f, n0, dn, d0, dd, 1)
			b := goodPair(typ, f/2, n0, dn, d0, dd, 1)
			ra, rb := engine.Compute(&a, 0), engine.Compute(&b, 0)
			return ra.Status == engine.Valid && rb.Status == engine.Valid && withinULP(rb.Value, ra.Value/2)
		}, rates, posF, EdgeU64(), EdgeU64(), EdgeU64(), EdgeU64()))
	props.TestingRun(t)
}

// withinULP reports whether a and b differ by at most one unit in the last place.
func withinULP(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Nextafter(a, b) == b
}

func TestPropertiesSwappedSamples(t *testing.T) {
	twoSample := typesOf(Where(func(t engine.CounterType) bool { return t.Samples() == 2 }))
	props := gopter.NewProperties(parameters())
	props.Property("swapping the samples of a counter that went forward never gives a Valid positive value", prop.ForAll(
		func(in engine.Input, opts engine.Options) bool {
			if in.New.FirstValue == in.Old.FirstValue {
				in.New.FirstValue++ // the counter must have moved
			}
			if in.New.FirstValue < in.Old.FirstValue {
				in.Old, in.New = in.New, in.Old
			}
			in.Old, in.New = in.New, in.Old // now it went backwards
			r := engine.Compute(&in, opts&^engine.Wrap32)
			return !(r.Status == engine.Valid && r.Value > 0)
		}, InputOf(twoSample), AnyOptions()))
	props.Property("with Wrap32, an 8-byte counter that went backwards is never Valid", prop.ForAll(
		func(in engine.Input, opts engine.Options) bool {
			if in.New.FirstValue == in.Old.FirstValue {
				in.New.FirstValue++
			}
			if in.New.FirstValue > in.Old.FirstValue {
				in.Old, in.New = in.New, in.Old
			}
			return engine.Compute(&in, opts|engine.Wrap32).Status != engine.Valid
		}, InputOf(typesOf(Where(func(t engine.CounterType) bool { return t.Samples() == 2 && t.RawSize() == 8 }))), AnyOptions()))
	props.TestingRun(t)
}

// TestGeneratorsReachTheEdges checks that the edge values really come up:
// a property over uniform generators would practically never see them.
func TestGeneratorsReachTheEdges(t *testing.T) {
	params := gopter.DefaultGenParameters()
	params.Rng = rand.New(rand.NewSource(1)) // deterministic draws
	for _, tc := range []struct {
		name  string
		g     gopter.Gen
		wants []interface{}
	}{
		{"EdgeU64", EdgeU64(), []interface{}{uint64(0), uint64(1), uint64(1<<32 - 1), uint64(1 << 32), uint64(1 << 63), uint64(math.MaxUint64)}},
		{"EdgeU32", EdgeU32(), []interface{}{uint32(0), uint32(1), uint32(math.MaxUint32)}},
		{"EdgeI64", EdgeI64(), []interface{}{int64(0), int64(-1), int64(math.MinInt64), int64(math.MaxInt64)}},
		{"AnyOptions", AnyOptions(), []interface{}{engine.Options(0), engine.Cap100 | engine.Scale | engine.Times1000 | engine.Wrap32}},
		{"CStatus", CStatus(), []interface{}{uint32(0), uint32(1), engine.CStatusNoMachine}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen := map[interface{}]bool{}
			for range 5000 {
				v, ok := tc.g(params).Retrieve()
				if ok {
					seen[v] = true
				}
			}
			for _, w := range tc.wants {
				if !seen[w] {
					t.Errorf("have never generated %v in 5000 draws", w)
				}
			}
		})
	}
	t.Run("AnyType", func(t *testing.T) {
		known, unknown := 0, 0
		for range 5000 {
			v, _ := AnyType()(params).Retrieve()
			if v.(engine.CounterType).Known() {
				known++
			} else {
				unknown++
			}
		}
		if known < 2500 || unknown < 1000 {
			t.Errorf("have %d known and %d unknown types, want both well represented", known, unknown)
		}
	})
}
