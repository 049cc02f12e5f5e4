// Package properties holds perfcalc's property-based tests: generators
// biased towards the edges of the raw formats (0, 1, 2^31, 2^32 − 1, 2^32,
// 2^53, 2^63, 2^64 − 1, …) and properties that must hold for every input.
//
// The generators live in this non-test file so that other property files
// of the package can reuse them.
package properties

import (
	"math"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"

	"github.com/perfcalc/perfcalc/engine"
)

// EdgesU64 are the raw values where integer and float64 arithmetic change
// behaviour; EdgeU64 returns them often.
var EdgesU64 = []uint64{
	0, 1, 2,
	1<<31 - 1, 1 << 31, 1<<31 + 1,
	1<<32 - 1, 1 << 32, 1<<32 + 1,
	1<<53 - 1, 1 << 53, 1<<53 + 1,
	1<<63 - 1, 1 << 63, 1<<63 + 1,
	math.MaxUint64 - 1, math.MaxUint64,
}

// EdgesI64 are the frequencies (time bases) that matter: zero, negative,
// tiny, real ones and the extremes.
var EdgesI64 = []int64{0, 1, 2, -1, math.MinInt64, math.MaxInt64, 1000, 2725536, 10_000_000, 3579545, 1<<53 + 1}

// edgeAround returns values within ±8 of an edge, wrapping in uint64.
func edgeAround() gopter.Gen {
	return gopter.CombineGens(oneOfU64(EdgesU64), gen.Int64Range(-8, 8)).Map(func(v []interface{}) uint64 {
		return v[0].(uint64) + uint64(v[1].(int64))
	})
}

func oneOfU64(vs []uint64) gopter.Gen {
	cs := make([]interface{}, len(vs))
	for i, v := range vs {
		cs[i] = v
	}
	return gen.OneConstOf(cs...)
}

// weighted is gen.Weighted without the boilerplate. (gen.Weighted, unlike
// gen.Frequency, picks each generator in proportion to its weight and
// accepts equal weights; gen.Frequency's map keys are the weights, so two
// generators with the same weight would silently collapse into one.)
func weighted(pairs ...interface{}) gopter.Gen {
	var ws []gen.WeightedGen
	for i := 0; i+1 < len(pairs); i += 2 {
		ws = append(ws, gen.WeightedGen{Weight: pairs[i].(int), Gen: pairs[i+1].(gopter.Gen)})
	}
	return gen.Weighted(ws)
}

// EdgeU64 generates uint64 values: uniform ones, small ones, 32-bit ones,
// the edges themselves and their neighbours. (gen.UInt64 alone is
// uniform: it practically never yields 0, 1, 2^32 or 2^64 − 1.)
func EdgeU64() gopter.Gen {
	return weighted(
		3, gen.UInt64(),
		2, gen.UInt64Range(0, 1<<16),
		2, gen.UInt64Range(0, 1<<32),
		3, oneOfU64(EdgesU64),
		2, edgeAround(),
	)
}

// EdgeU32 generates uint32 values biased to 0, 1, 2 and the top.
func EdgeU32() gopter.Gen {
	return weighted(
		3, gen.UInt32(),
		3, gen.UInt32Range(0, 64),
		2, gen.OneConstOf(uint32(0), uint32(1), uint32(2), uint32(1<<31), uint32(math.MaxUint32)),
	)
}

// EdgeI64 generates frequencies: the edges above, small and uniform values.
func EdgeI64() gopter.Gen {
	cs := make([]interface{}, len(EdgesI64))
	for i, v := range EdgesI64 {
		cs[i] = v
	}
	return weighted(
		2, gen.Int64(),
		2, gen.Int64Range(-4, 1<<24),
		3, gen.OneConstOf(cs...),
	)
}

// Scale generates DefaultScale values, inside and outside −10..10.
func Scale() gopter.Gen {
	return weighted(
		4, gen.Int32Range(-12, 12),
		1, gen.Int32(),
		1, gen.OneConstOf(int32(math.MinInt32), int32(math.MaxInt32)),
	)
}

// CStatus generates PDH_CSTATUS values, mostly good (0 or 1).
func CStatus() gopter.Gen {
	return weighted(
		6, gen.OneConstOf(engine.CStatusValidData, engine.CStatusNewData),
		1, gen.OneConstOf(uint32(2), engine.CStatusNoMachine, engine.CStatusInvalidData, uint32(math.MaxUint32)),
		1, gen.UInt32(),
	)
}

// AnyOptions generates every combination of the options, plus undefined bits.
func AnyOptions() gopter.Gen {
	return weighted(
		6, gen.UInt32Range(0, 15).Map(func(v uint32) engine.Options { return engine.Options(v) }),
		1, gen.UInt32().Map(func(v uint32) engine.Options { return engine.Options(v) }),
	)
}

// KnownType generates the winperf.h types.
func KnownType() gopter.Gen { return typesOf(engine.Types()) }

// DisplayableType generates the winperf.h types that have a value.
func DisplayableType() gopter.Gen {
	return typesOf(Where(func(t engine.CounterType) bool { return t.Displayable() }))
}

// AnyType generates known types, their one-bit neighbours and any uint32.
func AnyType() gopter.Gen {
	known := engine.Types()
	flip := gopter.CombineGens(typesOf(known), gen.IntRange(0, 31)).Map(func(v []interface{}) engine.CounterType {
		return v[0].(engine.CounterType) ^ 1<<uint(v[1].(int))
	})
	return weighted(
		6, typesOf(known),
		2, flip,
		2, gen.UInt32().Map(func(v uint32) engine.CounterType { return engine.CounterType(v) }),
	)
}

// Where returns the known types for which keep is true.
func Where(keep func(engine.CounterType) bool) []engine.CounterType {
	var ts []engine.CounterType
	for _, t := range engine.Types() {
		if keep(t) {
			ts = append(ts, t)
		}
	}
	return ts
}

// typesOf picks one of ts.
func typesOf(ts []engine.CounterType) gopter.Gen {
	cs := make([]interface{}, len(ts))
	for i, t := range ts {
		cs[i] = t
	}
	return gen.OneConstOf(cs...)
}

// RawCounter generates raw samples with edge-biased values.
func RawCounter() gopter.Gen {
	return gopter.CombineGens(CStatus(), EdgeU64(), EdgeU64(), EdgeU32()).Map(func(v []interface{}) engine.RawCounter {
		return engine.RawCounter{CStatus: v[0].(uint32), FirstValue: v[1].(uint64), SecondValue: v[2].(uint64), MultiCount: v[3].(uint32)}
	})
}

// InputOf generates inputs of the types that typ generates, with any
// samples, frequency and scale, and HasOld mostly true.
func InputOf(typ gopter.Gen) gopter.Gen {
	return gopter.CombineGens(typ, Scale(), EdgeI64(), weighted(5, gen.Const(true), 1, gen.Const(false)), RawCounter(), RawCounter()).
		Map(func(v []interface{}) engine.Input {
			return engine.Input{
				Counter: engine.Counter{Type: v[0].(engine.CounterType), Scale: v[1].(int32), TimeBase: v[2].(int64)},
				HasOld:  v[3].(bool),
				Old:     v[4].(engine.RawCounter),
				New:     v[5].(engine.RawCounter),
			}
		})
}

// Delta generates steps between two samples: mostly small and forward,
// sometimes an edge value, sometimes a step back of about 2^31 to 2^32
// (what a 4-byte counter's wrap looks like), added modulo 2^64.
func Delta() gopter.Gen {
	back := gen.UInt64Range(1<<31-8, 1<<32+8).Map(func(step uint64) uint64 { return -step })
	return weighted(
		6, gen.UInt64Range(0, 1<<24),
		2, EdgeU64(),
		2, back,
		1, gen.UInt64Range(0, 16).Map(func(step uint64) uint64 { return -step }),
	)
}

// PlausibleInput generates inputs that are mostly Valid: displayable
// types, good statuses, a positive frequency, an item count of at least 1,
// and newer samples that are the older ones plus a Delta. Properties over
// InputOf spend most of their cases on invalid inputs; this one exercises
// the formulas, the options and Wrap32.
func PlausibleInput() gopter.Gen {
	posF := weighted(
		6, gen.OneConstOf(int64(10_000_000), int64(2725536), int64(1000), int64(1)),
		3, gen.Int64Range(1, math.MaxInt64),
		1, EdgeI64(),
	)
	mc := weighted(6, gen.UInt32Range(1, 64), 1, EdgeU32())
	return gopter.CombineGens(DisplayableType(), Scale(), posF, EdgeU64(), Delta(), EdgeU64(), Delta(), mc, weighted(9, gen.Const(true), 1, gen.Const(false))).
		Map(func(v []interface{}) engine.Input {
			n0, dn, d0, dd := v[3].(uint64), v[4].(uint64), v[5].(uint64), v[6].(uint64)
			m := v[7].(uint32)
			return engine.Input{
				Counter: engine.Counter{Type: v[0].(engine.CounterType), Scale: v[1].(int32), TimeBase: v[2].(int64)},
				HasOld:  v[8].(bool),
				Old:     engine.RawCounter{FirstValue: n0, SecondValue: d0, MultiCount: m},
				New:     engine.RawCounter{FirstValue: n0 + dn, SecondValue: d0 + dd, MultiCount: m},
			}
		})
}
