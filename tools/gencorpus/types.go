package gencorpus

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// typeCounter is one counter of the "PerfCalc Types" object: a raw value at
// the first sample and its increment, and its base (when the type has a
// base definition) or its trailing multi count.
type typeCounter struct {
	typ        engine.CounterType
	size       uint32
	v, d       uint64
	baseType   engine.CounterType // 0: no base definition
	baseSize   uint32
	baseV      func(s int) uint64
	multiCount uint32 // the DWORD after a multi timer without a MULTI_BASE definition
}

func constant(v uint64) func(int) uint64 { return func(int) uint64 { return v } }
func step(v, d uint64) func(int) uint64  { return func(s int) uint64 { return lin(v, d, s) } }

// typesObjTime is the types object's private PerfTime (PerfFreq
// TypesFrequency): exactly one second of that clock between the samples.
func typesObjTime(s int) int64 { return typesObj1 + int64(s)*TypesFrequency }

// typeCounters lists one counter of every winperf.h type, with values that
// give a round result between the two samples (README: "PerfCalc Types").
func typeCounters() []typeCounter {
	return []typeCounter{
		{typ: engine.CounterCounter, size: 4, v: 1_000_000, d: 250},
		{typ: engine.CounterTimer, size: 8, v: 50_000_000, d: 2_500_000},
		{typ: engine.CounterQueuelenType, size: 4, v: 100_000_000, d: 15_000_000},
		{typ: engine.CounterLargeQueuelenType, size: 8, v: 10_000_000_000, d: 25_000_000},
		{typ: engine.Counter100nsQueuelenType, size: 8, v: 20_000_000_000, d: 5_000_000},
		{typ: engine.CounterObjTimeQueuelenType, size: 8, v: 30_000_000_000, d: 7_159_090},
		{typ: engine.CounterBulkCount, size: 8, v: 123_456_789_012, d: 1_048_576},
		{typ: engine.CounterText, size: 8, v: 0x006B_006F}, // UTF-16LE "ok" and a NUL
		{typ: engine.CounterRawcount, size: 4, v: 42, d: 1},
		{typ: engine.CounterLargeRawcount, size: 8, v: 5_000_000_000, d: 1_024},
		{typ: engine.CounterRawcountHex, size: 4, v: 0xDEAD_BEEF},
		{typ: engine.CounterLargeRawcountHex, size: 8, v: 0x0000_7FF6_A1B2_0000},
		{typ: engine.SampleFraction, size: 4, v: 300, d: 3, baseType: engine.SampleBase, baseSize: 4, baseV: step(400, 4)},
		{typ: engine.SampleCounter, size: 4, v: 70_000, d: 500},
		{typ: engine.CounterNodata, size: 0},
		{typ: engine.CounterTimerInv, size: 8, v: 40_000_000_000, d: 9_000_000},
		{typ: engine.AverageTimer, size: 4, v: 1_000_000, d: 50_000, baseType: engine.AverageBase, baseSize: 4, baseV: step(200, 10)},
		{typ: engine.AverageBulk, size: 8, v: 819_200, d: 40_960, baseType: engine.AverageBase, baseSize: 4, baseV: step(200, 10)},
		{typ: engine.ObjTimeTimer, size: 8, v: 7_159_090_000, d: 715_909},
		{typ: engine.Timer100ns, size: 8, v: 1_000_000_000, d: 3_300_000},
		{typ: engine.Timer100nsInv, size: 8, v: 2_000_000_000, d: 6_000_000},
		{typ: engine.CounterMultiTimer, size: 8, v: 480_000_000, d: 12_000_000, baseType: engine.CounterMultiBase, baseSize: 8, baseV: constant(4)},
		{typ: engine.CounterMultiTimerInv, size: 8, v: 1_200_000_000, d: 30_000_000, multiCount: 4},
		{typ: engine.MultiTimer100ns, size: 8, v: 800_000_000, d: 20_000_000, multiCount: 4},
		{typ: engine.MultiTimer100nsInv, size: 8, v: 1_440_000_000, d: 36_000_000, baseType: engine.CounterMultiBase, baseSize: 8, baseV: constant(4)},
		{typ: engine.RawFraction, size: 4, v: 3, baseType: engine.RawBase, baseSize: 4, baseV: constant(8)},
		{typ: engine.LargeRawFraction, size: 8, v: 750_000_000_000, baseType: engine.LargeRawBase, baseSize: 8, baseV: constant(1_000_000_000_000)},
		{typ: engine.ElapsedTime, size: 8, v: uint64(typesObj1 - 3600*TypesFrequency)},
		{typ: engine.CounterDelta, size: 4, v: 100, d: 7},
		{typ: engine.CounterLargeDelta, size: 8, v: 90_000_000_000, d: 9_000_000_000},
		{typ: engine.PrecisionSystemTimer, size: 8, v: 400_000_000, d: 4_000_000, baseType: engine.PrecisionTimestamp, baseSize: 8,
			baseV: func(s int) uint64 { return uint64(PerfTime(s) + 1_000) }},
		{typ: engine.Precision100nsTimer, size: 8, v: 650_000_000, d: 6_500_000, baseType: engine.PrecisionTimestamp, baseSize: 8,
			baseV: func(s int) uint64 { return uint64(PerfTime100nSec(s) + 2_000) }},
		{typ: engine.PrecisionObjectTimer, size: 8, v: 89_500_000, d: 895_000, baseType: engine.PrecisionTimestamp, baseSize: 8,
			baseV: step(uint64(typesObj1+100), 3_580_000)},
		{typ: engine.CounterHistogramType, size: 4},
	}
}

// typesObject is the "PerfCalc Types" object (TypesObject): no instances,
// one counter of every type, named after its type; base definitions carry
// the name index of the counter they serve, as in real data.
func typesObject(s int) encode.V1Object {
	var defs []def
	var vals []uint64
	var counts []uint32
	for i, tc := range typeCounters() {
		idx := uint32(TypesObject + 2 + 2*i)
		defs = append(defs, def{name: idx, typ: tc.typ, size: tc.size, detail: 100})
		vals = append(vals, lin(tc.v, tc.d, s))
		counts = append(counts, tc.multiCount)
		if tc.baseType != 0 {
			defs = append(defs, def{name: idx, typ: tc.baseType, size: tc.baseSize, detail: 100})
			vals = append(vals, tc.baseV(s))
			counts = append(counts, 0)
		}
	}
	o := single(TypesObject, layout(defs), 0, vals, counts)
	o.PerfTime, o.PerfFreq = typesObjTime(s), TypesFrequency
	return o
}
