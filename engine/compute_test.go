package engine

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// fl returns x unchanged. Expected values are written as fl(a) / fl(b) …
// so that Go evaluates them in float64, one rounding per operation, as the
// engine must; an untyped constant expression would be evaluated exactly.
func fl(x float64) float64 { return x }

// u2f converts like the engine: uint64 → float64, rounded to nearest.
func u2f(x uint64) float64 { return float64(x) }

// two builds a 2-sample input: N and D (or B) of the older and newer sample.
func two(typ CounterType, f int64, n0, d0, n1, d1 uint64) Input {
	return Input{
		Counter: Counter{Type: typ, TimeBase: f},
		HasOld:  true,
		Old:     RawCounter{FirstValue: n0, SecondValue: d0},
		New:     RawCounter{FirstValue: n1, SecondValue: d1},
	}
}

// one builds a 1-sample input.
func one(typ CounterType, f int64, n1, d1 uint64) Input {
	return Input{Counter: Counter{Type: typ, TimeBase: f}, New: RawCounter{FirstValue: n1, SecondValue: d1}}
}

// multi builds a multi-timer input with item count m.
func multi(typ CounterType, n0, d0, n1, d1 uint64, m uint32) Input {
	in := two(typ, 10_000_000, n0, d0, n1, d1)
	in.Old.MultiCount, in.New.MultiCount = m, m
	return in
}

// with returns in changed by fn, for one-line variants in tables.
func with(in Input, fn func(*Input)) Input {
	fn(&in)
	return in
}

type computeCase struct {
	name string
	in   Input
	opts Options
	want float64
	st   Status
}

func runComputeCases(t *testing.T, cases []computeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			have := Compute(&in, tc.opts)
			if have.Status != tc.st {
				t.Errorf("status: have %v, want %v (value %v)", have.Status, tc.st, have.Value)
			}
			if math.Float64bits(have.Value) != math.Float64bits(tc.want) {
				t.Errorf("value: have %v (%#016x), want %v (%#016x)", have.Value, math.Float64bits(have.Value), tc.want, math.Float64bits(tc.want))
			}
			if math.Float64bits(have.Value) == 1<<63 {
				t.Errorf("value is negative zero")
			}
			// ComputeBatch gives the same result.
			var out [1]Result
			if n := ComputeBatch([]Input{tc.in}, tc.opts, out[:]); n != 1 || out[0] != have {
				t.Errorf("ComputeBatch: have %d, %v, want 1, %v", n, out[0], have)
			}
		})
	}
}

const f100ns = 10_000_000

func TestComputeFormulas(t *testing.T) {
	const F = 2725536 // the tick frequency of a real log (Tx_BasicPerfCounters.blg)
	runComputeCases(t, []computeCase{
		// Rates: ΔN / (ΔD / F).
		{"COUNTER_COUNTER/1s", two(CounterCounter, f100ns, 1000, 0, 2501000, 10_000_000), 0, 2500000, Valid},
		{"COUNTER_COUNTER/spec order", two(CounterCounter, F, 7, 1000, 7+123457, 1000+3*F+17), 0, fl(123457) / (fl(3*F+17) / fl(F)), Valid},
		{"BULK_COUNT/half second", two(CounterBulkCount, 1000, 0, 0, 3000, 500), 0, 6000, Valid},
		{"BULK_COUNT/spec order", two(CounterBulkCount, F, 1<<40, 5, 1<<40+987654321, 5+17*F+3), 0, fl(987654321) / (fl(17*F+3) / fl(F)), Valid},
		{"SAMPLE_COUNTER", two(SampleCounter, 100, 10, 0, 40, 300), 0, fl(30) / (fl(300) / fl(100)), Valid},
		{"SAMPLE_COUNTER/literal", two(SampleCounter, 100, 10, 0, 40, 300), 0, 10, Valid},
		{"COUNTER_COUNTER/zero ΔN", two(CounterCounter, F, 9, 1, 9, 2), 0, 0, Valid},
		// Queue lengths: ΔN / ΔD, F unused (a zero F is fine).
		{"QUEUELEN", two(CounterQueuelenType, 0, 0, 0, 300, 100), 0, 3, Valid},
		{"LARGE_QUEUELEN", two(CounterLargeQueuelenType, -5, 100, 100, 100+7, 100+3), 0, fl(7) / fl(3), Valid},
		{"100NS_QUEUELEN", two(Counter100nsQueuelenType, f100ns, 0, 0, 12345, 10_000_000), 0, fl(12345) / fl(10_000_000), Valid},
		{"OBJ_TIME_QUEUELEN", two(CounterObjTimeQueuelenType, 1, 5, 5, 25, 9), 0, 5, Valid},
		// Timers: (ΔN / ΔD) * 100.
		{"COUNTER_TIMER", two(CounterTimer, 0, 0, 0, 25, 100), 0, 25, Valid},
		{"COUNTER_TIMER/thirds", two(CounterTimer, 0, 0, 0, 1, 3), 0, fl(1) / fl(3) * 100, Valid},
		{"100NSEC_TIMER", two(Timer100ns, f100ns, 100, 1000, 100+2_500_000, 1000+10_000_000), 0, 25, Valid},
		{"OBJ_TIME_TIMER/over 100", two(ObjTimeTimer, 1, 0, 0, 150, 100), 0, 150, Valid},
		{"COUNTER_TIMER/ΔN = ΔD", two(CounterTimer, 0, 0, 0, 77, 77), 0, 100, Valid},
		// Inverse timers: 100 * (1 − ΔN / ΔD).
		{"COUNTER_TIMER_INV", two(CounterTimerInv, 0, 0, 0, 25, 100), 0, 75, Valid},
		{"100NSEC_TIMER_INV/thirds", two(Timer100nsInv, f100ns, 0, 0, 1, 3), 0, 100 * (1 - fl(1)/fl(3)), Valid},
		{"100NSEC_TIMER_INV/idle", two(Timer100nsInv, f100ns, 5, 5, 5, 1000), 0, 100, Valid},
		{"100NSEC_TIMER_INV/busy", two(Timer100nsInv, f100ns, 5, 5, 1000, 1000), 0, 0, Valid},
		{"100NSEC_TIMER_INV/ΔN > ΔD", two(Timer100nsInv, f100ns, 5, 5, 1001, 1000), 0, 0, NegativeValue},
		// Multi timers: ((ΔN / ΔD) / B1) * 100 and 100 * (1 − (ΔN / ΔD) / B1).
		{"COUNTER_MULTI_TIMER", multi(CounterMultiTimer, 0, 0, 150, 100, 2), 0, 75, Valid},
		{"100NSEC_MULTI_TIMER/thirds", multi(MultiTimer100ns, 0, 0, 2, 3, 3), 0, fl(2) / fl(3) / fl(3) * 100, Valid},
		{"COUNTER_MULTI_TIMER_INV", multi(CounterMultiTimerInv, 0, 0, 150, 100, 2), 0, 25, Valid},
		{"100NSEC_MULTI_TIMER_INV/thirds", multi(MultiTimer100nsInv, 0, 0, 2, 3, 3), 0, 100 * (1 - fl(2)/fl(3)/fl(3)), Valid},
		{"COUNTER_MULTI_TIMER/ΔN = B1·ΔD", multi(CounterMultiTimer, 0, 0, 400, 100, 4), 0, 100, Valid},
		{"COUNTER_MULTI_TIMER_INV/ΔN = B1·ΔD", multi(CounterMultiTimerInv, 0, 0, 400, 100, 4), 0, 0, Valid},
		{"COUNTER_MULTI_TIMER_INV/ΔN > B1·ΔD", multi(CounterMultiTimerInv, 0, 0, 401, 100, 4), 0, 0, NegativeValue},
		// ΔN = B1·ΔD above 2^53: float64(ΔN) rounds up and float64(ΔD)
		// down, so without care the fraction exceeds 1.
		{"COUNTER_MULTI_TIMER/ΔN = B1·ΔD above 2^53", multi(CounterMultiTimer, 0, 0, 3*(1<<53+1), 1<<53+1, 3), 0, 100, Valid},
		{"COUNTER_MULTI_TIMER_INV/ΔN = B1·ΔD above 2^53", multi(CounterMultiTimerInv, 0, 0, 3*(1<<53+1), 1<<53+1, 3), 0, 0, Valid},
		{"COUNTER_MULTI_TIMER/ΔN > B1·ΔD above 2^53", multi(CounterMultiTimer, 0, 0, 3*(1<<53+1)+4, 1<<53+1, 3), 0, fl(3*(1<<53+1)+4) / fl(1<<53+1) / fl(3) * 100, Valid},
		{"COUNTER_MULTI_TIMER/B1 = 0", multi(CounterMultiTimer, 0, 0, 50, 100, 0), 0, 0, NegativeDenominator},
		{"100NSEC_MULTI_TIMER_INV/B1 = 0", multi(MultiTimer100nsInv, 0, 0, 50, 100, 0), 0, 0, NegativeDenominator},
		{"COUNTER_MULTI_TIMER/only B1 counts", with(multi(CounterMultiTimer, 0, 0, 150, 100, 2), func(in *Input) { in.Old.MultiCount = 0 }), 0, 75, Valid},
		// Precision timers: (ΔN / ΔB) * 100.
		{"PRECISION_SYSTEM_TIMER", two(PrecisionSystemTimer, 0, 0, 0, 1_000_000, 4_000_000), 0, 25, Valid},
		{"PRECISION_100NS_TIMER/sevenths", two(Precision100nsTimer, 0, 3, 3, 3+1, 3+7), 0, fl(1) / fl(7) * 100, Valid},
		{"PRECISION_OBJECT_TIMER/ΔB = 0", two(PrecisionObjectTimer, 0, 0, 8, 1, 8), 0, 0, NegativeDenominator},
		// Raw fractions: (N1 / B1) * 100, one sample.
		{"RAW_FRACTION", one(RawFraction, 0, 1, 4), 0, 25, Valid},
		{"RAW_FRACTION/thirds", one(RawFraction, 0, 1, 3), 0, fl(1) / fl(3) * 100, Valid},
		{"LARGE_RAW_FRACTION/over 100", one(LargeRawFraction, 0, 3, 2), 0, 150, Valid},
		{"LARGE_RAW_FRACTION/B1 = 0", one(LargeRawFraction, 0, 3, 0), 0, 0, NegativeDenominator},
		{"RAW_FRACTION/N1 = 0", one(RawFraction, 0, 0, 7), 0, 0, Valid},
		{"RAW_FRACTION/old sample ignored", with(one(RawFraction, 0, 1, 4), func(in *Input) { in.HasOld, in.Old.FirstValue, in.Old.SecondValue = true, 9, 9 }), 0, 25, Valid},
		// Sample fraction: (ΔN / ΔB) * 100.
		{"SAMPLE_FRACTION", two(SampleFraction, 0, 10, 100, 15, 120), 0, 25, Valid},
		{"SAMPLE_FRACTION/thirds", two(SampleFraction, 0, 10, 100, 12, 106), 0, fl(2) / fl(6) * 100, Valid},
		{"SAMPLE_FRACTION/ΔB = 0", two(SampleFraction, 0, 10, 100, 12, 100), 0, 0, NegativeDenominator},
		// Average timer: (ΔN / F) / ΔB seconds.
		{"AVERAGE_TIMER", two(AverageTimer, 1000, 0, 0, 3000, 2), 0, 1.5, Valid},
		{"AVERAGE_TIMER/spec order", two(AverageTimer, F, 5, 7, 5+1234567, 7+89), 0, fl(1234567) / fl(F) / fl(89), Valid},
		{"AVERAGE_TIMER/ΔB = 0", two(AverageTimer, F, 5, 7, 9, 7), 0, 0, NegativeDenominator},
		// Average bulk: ΔN / ΔB (NOSHOW bit, still computed).
		{"AVERAGE_BULK", two(AverageBulk, 0, 0, 0, 4096*3, 3), 0, 4096, Valid},
		{"AVERAGE_BULK/real", two(AverageBulk, F, 16964053504, 852665, 16964053504+65536*7+512, 852665+7), 0, fl(65536*7+512) / fl(7), Valid},
		// Elapsed time: (D1 − N1) / F, one sample.
		{"ELAPSED_TIME/System Up Time", one(ElapsedTime, f100ns, 5*f100ns, (2002+5)*f100ns), 0, 2002, Valid},
		{"ELAPSED_TIME/fraction", one(ElapsedTime, F, 1000, 1000+F/3), 0, fl(F/3) / fl(F), Valid},
		{"ELAPSED_TIME/N1 = D1", one(ElapsedTime, F, 1000, 1000), 0, 0, Valid},
		{"ELAPSED_TIME/N1 > D1", one(ElapsedTime, F, 1001, 1000), 0, 0, NegativeValue},
		// Deltas: ΔN.
		{"COUNTER_DELTA", two(CounterDelta, 0, 40, 7, 82, 8), 0, 42, Valid},
		{"COUNTER_LARGE_DELTA", two(CounterLargeDelta, 0, 1<<40, 7, 1<<40+5, 8), 0, 5, Valid},
		{"COUNTER_DELTA/zero", two(CounterDelta, 0, 40, 7, 40, 8), 0, 0, Valid},
		{"COUNTER_LARGE_DELTA/backwards", two(CounterLargeDelta, 0, 41, 7, 40, 8), 0, 0, NegativeValue},
		// The samples must have advanced: ΔD ≤ 0 is NegativeDenominator even
		// though the formula does not divide by ΔD (it wins over NegativeValue).
		{"COUNTER_DELTA/ΔD=0", two(CounterDelta, 0, 40, 8, 82, 8), 0, 0, NegativeDenominator},
		{"COUNTER_LARGE_DELTA/ΔD=0", two(CounterLargeDelta, 0, 40, 0, 82, 0), 0, 0, NegativeDenominator},
		{"COUNTER_LARGE_DELTA/ΔD<0", two(CounterLargeDelta, 0, 40, 9, 82, 8), 0, 0, NegativeDenominator},
		{"COUNTER_LARGE_DELTA/ΔD<0 and backwards", two(CounterLargeDelta, 0, 82, 9, 40, 8), 0, 0, NegativeDenominator},
		// Raw counts: N1.
		{"RAWCOUNT", one(CounterRawcount, 0, 1234, 0), 0, 1234, Valid},
		{"LARGE_RAWCOUNT", one(CounterLargeRawcount, 0, 1<<50, 0), 0, 1 << 50, Valid},
		{"RAWCOUNT_HEX", one(CounterRawcountHex, 0, 0xBEEF, 0), 0, 0xBEEF, Valid},
		{"LARGE_RAWCOUNT_HEX", one(CounterLargeRawcountHex, 0, 0xDEADBEEF00, 0), 0, 0xDEADBEEF00, Valid},
		{"RAWCOUNT/zero", one(CounterRawcount, 0, 0, 0), 0, 0, Valid},
	})
}

func TestComputeDenominators(t *testing.T) {
	var cases []computeCase
	// Zero and negative time / base deltas.
	for _, typ := range []CounterType{
		CounterCounter, CounterBulkCount, SampleCounter, CounterQueuelenType, CounterLargeQueuelenType,
		Counter100nsQueuelenType, CounterObjTimeQueuelenType, CounterTimer, Timer100ns, ObjTimeTimer,
		CounterTimerInv, Timer100nsInv, PrecisionSystemTimer, Precision100nsTimer, PrecisionObjectTimer,
		SampleFraction, AverageTimer, AverageBulk,
	} {
		cases = append(cases,
			computeCase{typ.String() + "/ΔD = 0", two(typ, f100ns, 10, 500, 20, 500), 0, 0, NegativeDenominator},
			computeCase{typ.String() + "/ΔD < 0", two(typ, f100ns, 10, 500, 20, 499), 0, 0, NegativeDenominator},
			computeCase{typ.String() + "/ΔD < 0, ΔN < 0", two(typ, f100ns, 20, 500, 10, 499), 0, 0, NegativeDenominator},
			computeCase{typ.String() + "/ΔN < 0", two(typ, f100ns, 20, 500, 10, 600), 0, 0, NegativeValue},
		)
	}
	for _, typ := range []CounterType{CounterMultiTimer, MultiTimer100ns, CounterMultiTimerInv, MultiTimer100nsInv} {
		cases = append(cases,
			computeCase{typ.String() + "/ΔD = 0", multi(typ, 10, 500, 20, 500, 1), 0, 0, NegativeDenominator},
			computeCase{typ.String() + "/ΔD < 0", multi(typ, 10, 500, 20, 1, 1), 0, 0, NegativeDenominator},
			computeCase{typ.String() + "/ΔN < 0", multi(typ, 20, 500, 10, 600, 1), 0, 0, NegativeValue},
		)
	}
	// F ≤ 0 where F divides: rates, average timer, elapsed time.
	for _, f := range []int64{0, -1, math.MinInt64} {
		fs := strconv.FormatInt(f, 10)
		cases = append(cases,
			computeCase{"COUNTER_COUNTER/F=" + fs, two(CounterCounter, f, 0, 0, 10, 10), 0, 0, NegativeDenominator},
			computeCase{"BULK_COUNT/F=" + fs, two(CounterBulkCount, f, 0, 0, 10, 10), 0, 0, NegativeDenominator},
			computeCase{"SAMPLE_COUNTER/F=" + fs, two(SampleCounter, f, 0, 0, 10, 10), 0, 0, NegativeDenominator},
			computeCase{"AVERAGE_TIMER/F=" + fs, two(AverageTimer, f, 0, 0, 10, 10), 0, 0, NegativeDenominator},
			computeCase{"ELAPSED_TIME/F=" + fs, one(ElapsedTime, f, 0, 10), 0, 0, NegativeDenominator},
			// Where F does not divide, it does not matter.
			computeCase{"COUNTER_TIMER/F=" + fs, two(CounterTimer, f, 0, 0, 10, 40), 0, 25, Valid},
			computeCase{"100NS_QUEUELEN/F=" + fs, two(Counter100nsQueuelenType, f, 0, 0, 10, 40), 0, 0.25, Valid},
			computeCase{"AVERAGE_BULK/F=" + fs, two(AverageBulk, f, 0, 0, 10, 40), 0, 0.25, Valid},
			computeCase{"RAW_FRACTION/F=" + fs, one(RawFraction, f, 10, 40), 0, 25, Valid},
			computeCase{"COUNTER_DELTA/F=" + fs, two(CounterDelta, f, 0, 0, 10, 40), 0, 10, Valid},
			computeCase{"RAWCOUNT/F=" + fs, one(CounterRawcount, f, 10, 40), 0, 10, Valid},
		)
	}
	runComputeCases(t, cases)
}

func TestComputeFirstSample(t *testing.T) {
	for _, tc := range typeCases {
		t.Run(tc.name, func(t *testing.T) {
			in := one(tc.typ, f100ns, 30, 40)
			in.New.MultiCount = 1
			// Garbage in Old must not matter without HasOld.
			in.Old = RawCounter{CStatus: 0xFFFFFFFF, FirstValue: 1 << 63, SecondValue: 1 << 63}
			have := Compute(&in, 0)
			var want Result
			switch tc.samples {
			case 2:
				want = Result{0, NewData}
			case 1:
				want = Compute(&Input{Counter: in.Counter, HasOld: true, Old: RawCounter{FirstValue: 1, SecondValue: 1}, New: in.New}, 0)
				if want.Status != Valid {
					t.Fatalf("the same sample with an old one: have %v, want Valid", want)
				}
			default:
				want = Result{0, NotDisplayable}
			}
			if have != want {
				t.Errorf("have %v, want %v", have, want)
			}
		})
	}
}

func TestComputeWrap32(t *testing.T) {
	const w = 1 << 32
	runComputeCases(t, []computeCase{
		// 4-byte counters: ΔN = N1 + 2^32 − N0 when below 2^31.
		{"COUNTER_COUNTER/wrap", two(CounterCounter, 10, w-10, 0, 5, 10), Wrap32, fl(15) / (fl(10) / fl(10)), Valid},
		{"COUNTER_COUNTER/no Wrap32", two(CounterCounter, 10, w-10, 0, 5, 10), 0, 0, NegativeValue},
		{"COUNTER_COUNTER/wrap 2^31−1", two(CounterCounter, 1, w-100, 0, 1<<31-101, 1), Wrap32, 1<<31 - 1, Valid},
		{"COUNTER_COUNTER/wrap 2^31", two(CounterCounter, 1, w-100, 0, 1<<31-100, 1), Wrap32, 0, NegativeValue},
		{"COUNTER_COUNTER/wrap from 2^32−1 to 0", two(CounterCounter, 1, w-1, 0, 0, 1), Wrap32, 1, Valid},
		{"COUNTER_COUNTER/backwards by 2^31+1", two(CounterCounter, 1, w-1, 0, 1<<31-2, 1), Wrap32, 1<<31 - 1, Valid},
		{"COUNTER_COUNTER/backwards by 2^31−1", two(CounterCounter, 1, w-1, 0, 1<<31, 1), Wrap32, 0, NegativeValue},
		{"COUNTER_COUNTER/backwards by 5", two(CounterCounter, 1, 100, 0, 95, 1), Wrap32, 0, NegativeValue},
		{"COUNTER_COUNTER/backwards beyond 2^32", two(CounterCounter, 1, 1<<40, 0, 5, 1), Wrap32, 0, NegativeValue},
		{"SAMPLE_COUNTER/wrap", two(SampleCounter, 2, w-1, 0, 1, 4), Wrap32, fl(2) / (fl(4) / fl(2)), Valid},
		{"QUEUELEN/wrap", two(CounterQueuelenType, 0, w-6, 0, 6, 4), Wrap32, 3, Valid},
		{"COUNTER_DELTA/wrap", two(CounterDelta, 0, w-6, 0, 6, 1), Wrap32, 12, Valid},
		{"COUNTER_DELTA/no Wrap32", two(CounterDelta, 0, w-6, 0, 6, 1), 0, 0, NegativeValue},
		{"AVERAGE_TIMER/ΔN wraps", two(AverageTimer, 4, w-2, 10, 2, 11), Wrap32, fl(4) / fl(4) / fl(1), Valid},
		{"SAMPLE_FRACTION/ΔN wraps", two(SampleFraction, 0, w-2, 10, 2, 18), Wrap32, 50, Valid},
		// 8-byte counters never wrap.
		{"BULK_COUNT/no wrap", two(CounterBulkCount, 10, w-10, 0, 5, 10), Wrap32, 0, NegativeValue},
		{"LARGE_DELTA/no wrap", two(CounterLargeDelta, 0, w-6, 0, 6, 1), Wrap32, 0, NegativeValue},
		{"LARGE_QUEUELEN/no wrap", two(CounterLargeQueuelenType, 0, w-6, 0, 6, 4), Wrap32, 0, NegativeValue},
		{"100NSEC_TIMER/no wrap", two(Timer100ns, 0, w-6, 0, 6, 100), Wrap32, 0, NegativeValue},
		{"AVERAGE_BULK/ΔN no wrap", two(AverageBulk, 0, w-6, 0, 6, 4), Wrap32, 0, NegativeValue},
		{"PRECISION_100NS_TIMER/no wrap", two(Precision100nsTimer, 0, w-6, 0, 6, 100), Wrap32, 0, NegativeValue},
		// The 4-byte bases of SAMPLE_FRACTION, AVERAGE_TIMER, AVERAGE_BULK.
		{"SAMPLE_FRACTION/ΔB wraps", two(SampleFraction, 0, 0, w-50, 25, 50), Wrap32, 25, Valid},
		{"SAMPLE_FRACTION/ΔB no Wrap32", two(SampleFraction, 0, 0, w-50, 25, 50), 0, 0, NegativeDenominator},
		{"SAMPLE_FRACTION/ΔB wrap too far", two(SampleFraction, 0, 0, w-50, 25, 1<<31-50), Wrap32, 0, NegativeDenominator},
		{"SAMPLE_FRACTION/ΔB wraps to 2^31−1", two(SampleFraction, 0, 0, w-50, 1, 1<<31-51), Wrap32, fl(1) / fl(1<<31-1) * 100, Valid},
		{"AVERAGE_TIMER/ΔB wraps", two(AverageTimer, 1000, 0, w-1, 3000, 1), Wrap32, 1.5, Valid},
		{"AVERAGE_BULK/ΔB wraps", two(AverageBulk, 0, 0, w-2, 4096*3, 1), Wrap32, 4096, Valid},
		{"AVERAGE_BULK/ΔB no Wrap32", two(AverageBulk, 0, 0, w-2, 4096*3, 1), 0, 0, NegativeDenominator},
		// Other bases and time stamps never wrap.
		{"PRECISION_SYSTEM_TIMER/ΔB backwards", two(PrecisionSystemTimer, 0, 0, w-50, 25, 50), Wrap32, 0, NegativeDenominator},
		{"COUNTER_COUNTER/ΔD backwards", two(CounterCounter, 10, 0, w-10, 5, 10), Wrap32, 0, NegativeDenominator},
		{"COUNTER_TIMER/ΔD backwards", two(CounterTimer, 10, 0, w-10, 5, 10), Wrap32, 0, NegativeDenominator},
		{"COUNTER_MULTI_TIMER/ΔD backwards", multi(CounterMultiTimer, 0, w-10, 5, 10, 1), Wrap32, 0, NegativeDenominator},
		{"ELAPSED_TIME/never wraps", one(ElapsedTime, 1, 10, 5), Wrap32, 0, NegativeValue},
		// Wrap32 leaves forward steps alone.
		{"COUNTER_COUNTER/forward", two(CounterCounter, 1, 5, 0, w-5, 1), Wrap32, w - 10, Valid},
	})
}

func TestComputeExtremes(t *testing.T) {
	const max64 = math.MaxUint64
	runComputeCases(t, []computeCase{
		{"LARGE_RAWCOUNT/2^64−1", one(CounterLargeRawcount, 0, max64, 0), 0, 18446744073709551616.0, Valid},
		{"LARGE_RAWCOUNT/2^63", one(CounterLargeRawcount, 0, 1<<63, 0), 0, 9223372036854775808.0, Valid},
		{"LARGE_RAWCOUNT/2^63−1", one(CounterLargeRawcount, 0, 1<<63-1, 0), 0, 9223372036854775808.0, Valid},
		{"LARGE_RAWCOUNT/2^53+1 rounds to even", one(CounterLargeRawcount, 0, 1<<53+1, 0), 0, 1 << 53, Valid},
		{"LARGE_DELTA/0 → 2^64−1", two(CounterLargeDelta, 0, 0, 0, max64, 1), 0, u2f(max64), Valid},
		{"LARGE_DELTA/2^63 → 2^64−1", two(CounterLargeDelta, 0, 1<<63, 0, max64, 1), 0, u2f(1<<63 - 1), Valid},
		{"LARGE_DELTA/2^64−1 → 0", two(CounterLargeDelta, 0, max64, 0, 0, 1), 0, 0, NegativeValue},
		// The delta is taken in integers: float64(N1) − float64(N0) would be 4.
		{"LARGE_DELTA/integer subtraction", two(CounterLargeDelta, 0, 1<<53+1, 0, 1<<53+3, 1), 0, 2, Valid},
		{"BULK_COUNT/integer subtraction", two(CounterBulkCount, 1, 1<<60+1, 1<<62, 1<<60+2, 1<<62+1), 0, 1, Valid},
		// Unsigned time stamps: a delta of 2^63 or more is forward, not negative.
		{"BULK_COUNT/ΔD = 2^63", two(CounterBulkCount, 1<<62, 0, 0, 1<<62, 1<<63), 0, fl(1<<62) / (fl(1<<63) / fl(1<<62)), Valid},
		{"BULK_COUNT/ΔD = 2^64−1", two(CounterBulkCount, math.MaxInt64, 0, 0, max64, max64), 0, u2f(max64) / (u2f(max64) / fl(math.MaxInt64)), Valid},
		{"BULK_COUNT/ΔN = 2^64−1, ΔD = 1, F max", two(CounterBulkCount, math.MaxInt64, 0, 7, max64, 8), 0, u2f(max64) / (fl(1) / fl(math.MaxInt64)), Valid},
		{"100NSEC_TIMER/2^64−1 over 1", two(Timer100ns, 0, 0, 0, max64, 1), 0, u2f(max64) / fl(1) * 100, Valid},
		{"100NSEC_TIMER_INV/ΔN = ΔD = 2^64−1", two(Timer100nsInv, 0, 0, 0, max64, max64), 0, 0, Valid},
		{"100NSEC_TIMER_INV/ΔN = 2^64−2, ΔD = 2^64−1", two(Timer100nsInv, 0, 0, 0, max64-1, max64), 0, 0, Valid},
		{"LARGE_RAW_FRACTION/2^64−1 over 2^64−1", one(LargeRawFraction, 0, max64, max64), 0, 100, Valid},
		{"LARGE_RAW_FRACTION/2^63 over 1", one(LargeRawFraction, 0, 1<<63, 1), 0, fl(1<<63) * 100, Valid},
		{"ELAPSED_TIME/2^64−1 seconds", one(ElapsedTime, 1, 0, max64), 0, u2f(max64), Valid},
		{"AVERAGE_TIMER/huge", two(AverageTimer, 1, 0, 0, max64, 1), 0, u2f(max64), Valid},
		{"COUNTER_MULTI_TIMER/B1 = 2^32−1", multi(CounterMultiTimer, 0, 0, max64, 1, math.MaxUint32), 0, u2f(max64) / fl(1) / fl(math.MaxUint32) * 100, Valid},
		{"COUNTER_MULTI_TIMER_INV/B1 = 2^32−1", multi(CounterMultiTimerInv, 0, 0, 1, 1, math.MaxUint32), 0, 100 * (1 - fl(1)/fl(1)/fl(math.MaxUint32)), Valid},
		// The largest value the engine can produce stays finite, all options on.
		{"BULK_COUNT/largest", func() Input {
			in := two(CounterBulkCount, math.MaxInt64, 0, 0, max64, 1)
			in.Scale = 10
			return in
		}(), Scale | Times1000, u2f(max64) / (fl(1) / fl(math.MaxInt64)) * 1e10 * 1000, Valid},
	})
}

func TestComputeOptions(t *testing.T) {
	scaled := func(in Input, s int32) Input { in.Scale = s; return in }
	rate25 := two(CounterCounter, 10, 0, 0, 25, 10) // 25/sec
	pct150 := two(CounterTimer, 0, 0, 0, 150, 100)  // 150%
	runComputeCases(t, []computeCase{
		// Cap100 clamps percentage types only.
		{"Cap100/timer 150%", pct150, Cap100, 100, Valid},
		{"Cap100/off", pct150, 0, 150, Valid},
		{"Cap100/below 100", two(CounterTimer, 0, 0, 0, 99, 100), Cap100, 99, Valid},
		{"Cap100/raw fraction", one(RawFraction, 0, 3, 2), Cap100, 100, Valid},
		{"Cap100/large raw fraction", one(LargeRawFraction, 0, 3, 2), Cap100, 100, Valid},
		{"Cap100/sample fraction", two(SampleFraction, 0, 0, 0, 3, 2), Cap100, 100, Valid},
		{"Cap100/precision", two(PrecisionObjectTimer, 0, 0, 0, 3, 2), Cap100, 100, Valid},
		{"Cap100/multi", multi(MultiTimer100ns, 0, 0, 3, 1, 2), Cap100, 100, Valid},
		{"Cap100/obj time timer", two(ObjTimeTimer, 0, 0, 0, 3, 2), Cap100, 100, Valid},
		{"Cap100/100ns timer", two(Timer100ns, 0, 0, 0, 3, 2), Cap100, 100, Valid},
		{"Cap100/rate untouched", two(CounterCounter, 1, 0, 0, 150, 1), Cap100, 150, Valid},
		{"Cap100/raw count untouched", one(CounterRawcount, 0, 150, 0), Cap100, 150, Valid},
		{"Cap100/average timer untouched", two(AverageTimer, 1, 0, 0, 150, 1), Cap100, 150, Valid},
		{"Cap100/average bulk untouched", two(AverageBulk, 1, 0, 0, 150, 1), Cap100, 150, Valid},
		{"Cap100/queue length untouched", two(CounterQueuelenType, 1, 0, 0, 150, 1), Cap100, 150, Valid},
		{"Cap100/elapsed untouched", one(ElapsedTime, 1, 0, 150), Cap100, 150, Valid},
		{"Cap100/delta untouched", two(CounterLargeDelta, 1, 0, 0, 150, 1), Cap100, 150, Valid},
		// Scale: 10^DefaultScale, negative scales divide.
		{"Scale/+2", scaled(rate25, 2), Scale, 2500, Valid},
		{"Scale/+2 off", scaled(rate25, 2), 0, 25, Valid},
		{"Scale/−2", scaled(rate25, -2), Scale, 0.25, Valid},
		{"Scale/0", scaled(rate25, 0), Scale, 25, Valid},
		{"Scale/+10", scaled(rate25, 10), Scale, 25e10, Valid},
		{"Scale/+11 clamps to 10", scaled(rate25, 11), Scale, 25e10, Valid},
		{"Scale/max int32 clamps to 10", scaled(rate25, math.MaxInt32), Scale, 25e10, Valid},
		{"Scale/−10", scaled(rate25, -10), Scale, fl(25) / 1e10, Valid},
		{"Scale/−11 clamps to −10", scaled(rate25, -11), Scale, fl(25) / 1e10, Valid},
		{"Scale/min int32 clamps to −10", scaled(rate25, math.MinInt32), Scale, fl(25) / 1e10, Valid},
		// Dividing is correctly rounded: 3 × 0.1 would be 0.30000000000000004.
		{"Scale/−1 divides", scaled(one(CounterRawcount, 0, 3, 0), -1), Scale, 0.3, Valid},
		{"Scale/−3 divides", scaled(one(CounterRawcount, 0, 7, 0), -3), Scale, fl(7) / fl(1000), Valid},
		{"Scale/not for invalid", scaled(two(CounterCounter, 10, 0, 0, 25, 0), 2), Scale, 0, NegativeDenominator},
		// Times1000.
		{"Times1000", rate25, Times1000, 25000, Valid},
		{"Times1000/fraction", one(RawFraction, 0, 1, 3), Times1000, fl(1) / fl(3) * 100 * 1000, Valid},
		// Order: Cap100, then Scale, then Times1000.
		// 150% → cap 100 → ×10^−1 = 10 → ×1000 = 10000. Scaling first
		// would give 15000, ×1000 first 10.
		{"order/Cap100 Scale Times1000", scaled(pct150, -1), Cap100 | Scale | Times1000, 10000, Valid},
		{"order/Cap100 Scale", scaled(pct150, 1), Cap100 | Scale, 1000, Valid},
		{"order/Cap100 Times1000", pct150, Cap100 | Times1000, 100000, Valid},
		{"order/Scale Times1000", scaled(rate25, -2), Scale | Times1000, fl(25) / fl(100) * 1000, Valid},
		{"order/all on, non-percent", scaled(rate25, 3), Cap100 | Scale | Times1000, 25e6, Valid},
		// Wrap32 combines with the others.
		{"Wrap32 with Cap100", two(SampleFraction, 0, 0, 1<<32-1, 5, 1), Wrap32 | Cap100, 100, Valid},
		// Undefined option bits are ignored.
		{"undefined bits", rate25, 1 << 10, 25, Valid},
	})
}

func TestComputeStatusPriority(t *testing.T) {
	bad := func(in Input) Input { in.New.CStatus = CStatusInvalidData; return in }
	badOld := func(in Input) Input { in.Old.CStatus = CStatusNoMachine; return in }
	first := func(in Input) Input { in.HasOld = false; return in }
	runComputeCases(t, []computeCase{
		{"UnknownType over InvalidData", bad(two(0x10410401, 1, 0, 0, 1, 1)), 0, 0, UnknownType},
		{"UnknownType over NewData", first(two(0x10410401, 1, 0, 0, 1, 1)), 0, 0, UnknownType},
		{"NotDisplayable over InvalidData", bad(two(SampleBase, 1, 0, 0, 1, 1)), 0, 0, NotDisplayable},
		{"NotDisplayable/text", one(CounterText, 1, 1, 1), 0, 0, NotDisplayable},
		{"NotDisplayable/nodata", one(CounterNodata, 1, 1, 1), 0, 0, NotDisplayable},
		{"NotDisplayable/histogram", one(CounterHistogramType, 1, 1, 1), 0, 0, NotDisplayable},
		{"NotDisplayable/multi base", one(CounterMultiBase, 1, 1, 1), 0, 0, NotDisplayable},
		{"NotDisplayable/precision timestamp", one(PrecisionTimestamp, 1, 1, 1), 0, 0, NotDisplayable},
		{"InvalidData over NewData", first(bad(two(CounterCounter, 1, 0, 0, 1, 1))), 0, 0, InvalidData},
		{"InvalidData over NegativeDenominator", bad(two(CounterCounter, 0, 0, 0, 1, 0)), 0, 0, InvalidData},
		{"InvalidData/old sample", badOld(two(CounterCounter, 1, 0, 0, 1, 1)), 0, 0, InvalidData},
		{"NewData over NegativeDenominator", first(two(CounterCounter, 0, 0, 0, 1, 0)), 0, 0, NewData},
		{"NewData/bad old sample ignored", first(badOld(two(CounterCounter, 1, 0, 0, 1, 1))), 0, 0, NewData},
		{"NegativeDenominator over NegativeValue", two(CounterCounter, 1, 5, 5, 1, 1), 0, 0, NegativeDenominator},
		{"NegativeDenominator/F over NegativeValue", two(CounterCounter, 0, 5, 1, 1, 5), 0, 0, NegativeDenominator},
		{"NegativeValue", two(CounterCounter, 1, 5, 1, 1, 5), 0, 0, NegativeValue},
		// A 1-sample type ignores the old sample's status.
		{"1-sample/bad old ignored", badOld(with(one(CounterRawcount, 0, 7, 0), func(in *Input) { in.HasOld = true })), 0, 7, Valid},
		{"1-sample/bad new", bad(one(CounterRawcount, 0, 7, 0)), 0, 0, InvalidData},
		{"1-sample/InvalidData over NegativeDenominator", bad(one(RawFraction, 0, 7, 0)), 0, 0, InvalidData},
	})
}

func TestComputeCStatus(t *testing.T) {
	for _, tc := range []struct {
		cstatus uint32
		good    bool
	}{
		{CStatusValidData, true},
		{CStatusNewData, true},
		{2, false},
		{3, false},
		{CStatusNoMachine, false},
		{CStatusInvalidData, false},
		{0x80000000, false},
		{0xFFFFFFFF, false},
		{0xFFFFFFFE, false},
	} {
		t.Run(strconv.FormatUint(uint64(tc.cstatus), 16), func(t *testing.T) {
			want := Status(Valid)
			if !tc.good {
				want = InvalidData
			}
			for _, side := range []string{"new", "old"} {
				for _, typ := range []CounterType{CounterCounter, Timer100nsInv, CounterLargeRawcount, RawFraction} {
					in := two(typ, 1, 1, 1, 2, 4)
					if typ == RawFraction {
						in = with(one(typ, 1, 2, 4), func(in *Input) { in.HasOld = true })
					}
					w := want
					if side == "new" {
						in.New.CStatus = tc.cstatus
					} else {
						in.Old.CStatus = tc.cstatus
						if typ.Samples() == 1 {
							w = Valid // the old sample does not matter
						}
					}
					if have := Compute(&in, 0); have.Status != w || (w != Valid && have.Value != 0) {
						t.Errorf("%s %v: have %v, want status %v", side, typ, have, w)
					}
				}
			}
		})
	}
}

// TestComputeArithmeticOrder checks, on inputs where the orders differ in
// the last bit, that the engine uses the specification's order.
func TestComputeArithmeticOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	type found struct{ x, y, z uint64 }
	search := func(t *testing.T, ok func(x, y, z float64) bool) found {
		t.Helper()
		for range 1_000_000 {
			x := rng.Uint64N(1<<40) + 1
			y := rng.Uint64N(1<<40) + 1
			z := rng.Uint64N(1<<24) + 2
			if ok(float64(x), float64(y), float64(z)) {
				return found{x, y, z}
			}
		}
		t.Fatal("no distinguishing input found")
		return found{}
	}
	t.Run("rate ΔN/(ΔD/F)", func(t *testing.T) {
		f := search(t, func(n, d, fr float64) bool {
			spec := n / (d / fr)
			return spec != n*fr/d && spec != n/d*fr
		})
		in := two(CounterBulkCount, int64(f.z), 3, 5, 3+f.x, 5+f.y)
		n, d, fr := u2f(f.x), u2f(f.y), u2f(f.z)
		have := Compute(&in, 0)
		if want := n / (d / fr); have.Value != want || have.Status != Valid {
			t.Errorf("have %v, want %v (not %v or %v)", have, want, n*fr/d, n/d*fr)
		}
	})
	t.Run("timer (ΔN/ΔD)*100", func(t *testing.T) {
		f := search(t, func(n, d, _ float64) bool { return n/d*100 != 100*n/d })
		in := two(Timer100ns, f100ns, 0, 0, f.x, f.y)
		n, d := u2f(f.x), u2f(f.y)
		if have, want := Compute(&in, 0).Value, n/d*100; have != want {
			t.Errorf("have %v, want %v (not %v)", have, want, 100*n/d)
		}
	})
	t.Run("raw fraction (N1/B1)*100", func(t *testing.T) {
		f := search(t, func(n, d, _ float64) bool { return n/d*100 != 100*n/d })
		in := one(LargeRawFraction, 0, f.x, f.y)
		n, d := u2f(f.x), u2f(f.y)
		if have, want := Compute(&in, 0).Value, n/d*100; have != want {
			t.Errorf("have %v, want %v (not %v)", have, want, 100*n/d)
		}
	})
	t.Run("inverse 100*(1−ΔN/ΔD)", func(t *testing.T) {
		f := search(t, func(n, d, _ float64) bool {
			if n > d {
				return false
			}
			spec := 100 * (1 - n/d)
			return spec != 100-100*n/d && spec != 100-n/d*100 && spec != (d-n)/d*100
		})
		in := two(Timer100nsInv, f100ns, 0, 0, f.x, f.y)
		n, d := u2f(f.x), u2f(f.y)
		if have, want := Compute(&in, 0).Value, 100*(1-n/d); have != want {
			t.Errorf("have %v, want %v (not %v)", have, want, 100-100*n/d)
		}
	})
	t.Run("multi ((ΔN/ΔD)/B1)*100", func(t *testing.T) {
		f := search(t, func(n, d, b float64) bool {
			spec := n / d / b * 100
			return spec != n/(d*b)*100 && spec != 100*n/d/b && spec != n/d*100/b
		})
		in := multi(CounterMultiTimer, 0, 0, f.x, f.y, uint32(f.z))
		n, d, b := u2f(f.x), u2f(f.y), u2f(f.z)
		if have, want := Compute(&in, 0).Value, n/d/b*100; have != want {
			t.Errorf("have %v, want %v (not %v)", have, want, n/(d*b)*100)
		}
	})
	t.Run("multi inverse 100*(1−(ΔN/ΔD)/B1)", func(t *testing.T) {
		// The order shows only when ΔN/ΔD/B1 is near 1: take ΔN just
		// below B1·ΔD.
		for range 1_000_000 {
			d := rng.Uint64N(1<<30) + 1
			b := rng.Uint64N(1<<16) + 2
			x := d*b - rng.Uint64N(d)
			n, dd, bb := u2f(x), u2f(d), u2f(b)
			spec := 100 * (1 - n/dd/bb)
			if spec == 100*(1-n/(dd*bb)) {
				continue
			}
			in := multi(MultiTimer100nsInv, 0, 0, x, d, uint32(b))
			if have := Compute(&in, 0); have.Value != spec || have.Status != Valid {
				t.Errorf("have %v, want %v (not %v)", have, spec, 100*(1-n/(dd*bb)))
			}
			return
		}
		t.Fatal("no distinguishing input found")
	})
	t.Run("average timer (ΔN/F)/ΔB", func(t *testing.T) {
		f := search(t, func(n, b, fr float64) bool {
			spec := n / fr / b
			return spec != n/(fr*b) && spec != n/b/fr
		})
		in := two(AverageTimer, int64(f.z), 0, 0, f.x, f.y)
		n, b, fr := u2f(f.x), u2f(f.y), u2f(f.z)
		if have, want := Compute(&in, 0).Value, n/fr/b; have != want {
			t.Errorf("have %v, want %v (not %v or %v)", have, want, n/(fr*b), n/b/fr)
		}
	})
	t.Run("negative scale divides", func(t *testing.T) {
		f := search(t, func(n, _, _ float64) bool { return n/1000 != n*0.001 })
		in := one(CounterLargeRawcount, 0, f.x, 0)
		in.Scale = -3
		n := u2f(f.x)
		if have, want := Compute(&in, Scale).Value, n/1000; have != want {
			t.Errorf("have %v, want %v (not %v)", have, want, n*0.001)
		}
	})
	t.Run("deltas in integers", func(t *testing.T) {
		for _, tc := range []struct{ n0, n1 uint64 }{
			{1<<53 + 1, 1<<53 + 3},
			{1<<63 - 1, 1<<63 + 1},
			{math.MaxUint64 - 2048, math.MaxUint64},
		} {
			in := two(CounterLargeDelta, 0, tc.n0, 0, tc.n1, 1)
			have := Compute(&in, 0).Value
			if want := u2f(tc.n1 - tc.n0); have != want {
				t.Errorf("%d − %d: have %v, want %v (float subtraction: %v)", tc.n1, tc.n0, have, want, u2f(tc.n1)-u2f(tc.n0))
			}
		}
	})
}

func TestComputeBatch(t *testing.T) {
	ins := []Input{
		two(CounterCounter, 10, 0, 0, 25, 10),
		one(RawFraction, 0, 1, 4),
		two(0x12345678, 1, 0, 0, 1, 1),
		one(CounterRawcount, 0, 9, 0),
	}
	for _, tc := range []struct {
		name   string
		in     []Input
		outLen int
		want   int
	}{
		{"equal", ins, 4, 4},
		{"short out", ins, 2, 2},
		{"long out", ins[:3], 4, 3},
		{"empty", nil, 4, 0},
		{"nil out", ins, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]Result, tc.outLen+1)
			sentinel := Result{Value: -1, Status: UnknownType}
			for i := range out {
				out[i] = sentinel
			}
			n := ComputeBatch(tc.in, Cap100, out[:tc.outLen])
			if n != tc.want {
				t.Fatalf("have %d, want %d", n, tc.want)
			}
			for i := range n {
				if want := Compute(&tc.in[i], Cap100); out[i] != want {
					t.Errorf("out[%d]: have %v, want %v", i, out[i], want)
				}
			}
			for i := n; i < len(out); i++ {
				if out[i] != sentinel {
					t.Errorf("out[%d] written: %v", i, out[i])
				}
			}
		})
	}
}

func TestStatusString(t *testing.T) {
	for _, tc := range []struct {
		s    Status
		want string
	}{
		{Valid, "Valid"}, {NewData, "NewData"}, {NegativeDenominator, "NegativeDenominator"},
		{NegativeValue, "NegativeValue"}, {InvalidData, "InvalidData"}, {NotDisplayable, "NotDisplayable"},
		{UnknownType, "UnknownType"}, {Status(7), "Status(7)"}, {Status(255), "Status(255)"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if have := tc.s.String(); have != tc.want {
				t.Errorf("have %q, want %q", have, tc.want)
			}
			back, ok := ParseStatus(tc.want)
			if wantOK := tc.s <= UnknownType; ok != wantOK || ok && back != tc.s {
				t.Errorf("ParseStatus(%q): have %v, %v, want %v, %v", tc.want, back, ok, tc.s, wantOK)
			}
		})
	}
	if Status(0) != Valid {
		t.Errorf("the zero Status is %v, want Valid", Status(0))
	}
}
