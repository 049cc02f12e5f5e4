package engine

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"
)

// The winperf.h bit values (doc/FORMATS.md §1.8), written out again here so
// that the test composes every type independently of the engine's constants.
const (
	tSizeDword       = 0x00000000
	tSizeLarge       = 0x00000100
	tSizeZero        = 0x00000200
	tSizeVariableLen = 0x00000300
	tTypeNumber      = 0x00000000
	tTypeCounter     = 0x00000400
	tTypeText        = 0x00000800
	tNumberHex       = 0x00000000
	tNumberDecimal   = 0x00010000
	tCounterValue    = 0x00000000
	tCounterRate     = 0x00010000
	tCounterFraction = 0x00020000
	tCounterBase     = 0x00030000
	tCounterElapsed  = 0x00040000
	tCounterQueuelen = 0x00050000
	tCounterPrecise  = 0x00070000
	tTextUnicode     = 0x00000000
	tTimerTick       = 0x00000000
	tTimer100ns      = 0x00100000
	tObjectTimer     = 0x00200000
	tDeltaCounter    = 0x00400000
	tDeltaBase       = 0x00800000
	tInverse         = 0x01000000
	tMulti           = 0x02000000
	tNoSuffix        = 0x00000000
	tPerSec          = 0x10000000
	tPercent         = 0x20000000
	tSeconds         = 0x30000000
	tNoShow          = 0x40000000
	tHistogram       = 0x80000000
)

// typeCase is one composite type of winperf.h, built from its PERF_* bits,
// with what the engine must say about it.
type typeCase struct {
	name    string
	typ     CounterType // the engine's Go constant
	hex     uint32      // the spec's hex column
	dec     uint64      // the spec's decimal column
	comp    uint32      // the composition column, from the bits above
	size    int
	tb      TimeBase
	suffix  Suffix
	samples int
	display bool
	percent bool
	isBase  bool
	isHex   bool
	base    CounterType
	hasBase bool
}

var typeCases = []typeCase{
	{"PERF_COUNTER_COUNTER", CounterCounter, 0x10410400, 272696320, tSizeDword | tTypeCounter | tCounterRate | tTimerTick | tDeltaCounter | tPerSec, 4, TimerTick, PerSec, 2, true, false, false, false, 0, false},
	{"PERF_COUNTER_TIMER", CounterTimer, 0x20410500, 541132032, tSizeLarge | tTypeCounter | tCounterRate | tTimerTick | tDeltaCounter | tPercent, 8, TimerTick, Percent, 2, true, true, false, false, 0, false},
	{"PERF_COUNTER_QUEUELEN_TYPE", CounterQueuelenType, 0x00450400, 4523008, tSizeDword | tTypeCounter | tCounterQueuelen | tTimerTick | tDeltaCounter | tNoSuffix, 4, TimerTick, NoSuffix, 2, true, false, false, false, 0, false},
	{"PERF_COUNTER_LARGE_QUEUELEN_TYPE", CounterLargeQueuelenType, 0x00450500, 4523264, tSizeLarge | tTypeCounter | tCounterQueuelen | tTimerTick | tDeltaCounter, 8, TimerTick, NoSuffix, 2, true, false, false, false, 0, false},
	{"PERF_COUNTER_100NS_QUEUELEN_TYPE", Counter100nsQueuelenType, 0x00550500, 5571840, tSizeLarge | tTypeCounter | tCounterQueuelen | tTimer100ns | tDeltaCounter, 8, Timer100NS, NoSuffix, 2, true, false, false, false, 0, false},
	{"PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE", CounterObjTimeQueuelenType, 0x00650500, 6620416, tSizeLarge | tTypeCounter | tCounterQueuelen | tObjectTimer | tDeltaCounter, 8, ObjectTimer, NoSuffix, 2, true, false, false, false, 0, false},
	{"PERF_COUNTER_BULK_COUNT", CounterBulkCount, 0x10410500, 272696576, tSizeLarge | tTypeCounter | tCounterRate | tTimerTick | tDeltaCounter | tPerSec, 8, TimerTick, PerSec, 2, true, false, false, false, 0, false},
	{"PERF_COUNTER_TEXT", CounterText, 0x00000B00, 2816, tSizeVariableLen | tTypeText | tTextUnicode, 0, TimerTick, NoSuffix, 0, false, false, false, false, 0, false},
	{"PERF_COUNTER_RAWCOUNT", CounterRawcount, 0x00010000, 65536, tSizeDword | tTypeNumber | tNumberDecimal, 4, TimerTick, NoSuffix, 1, true, false, false, false, 0, false},
	{"PERF_COUNTER_LARGE_RAWCOUNT", CounterLargeRawcount, 0x00010100, 65792, tSizeLarge | tTypeNumber | tNumberDecimal, 8, TimerTick, NoSuffix, 1, true, false, false, false, 0, false},
	{"PERF_COUNTER_RAWCOUNT_HEX", CounterRawcountHex, 0x00000000, 0, tSizeDword | tTypeNumber | tNumberHex, 4, TimerTick, NoSuffix, 1, true, false, false, true, 0, false},
	{"PERF_COUNTER_LARGE_RAWCOUNT_HEX", CounterLargeRawcountHex, 0x00000100, 256, tSizeLarge | tTypeNumber | tNumberHex, 8, TimerTick, NoSuffix, 1, true, false, false, true, 0, false},
	{"PERF_SAMPLE_FRACTION", SampleFraction, 0x20C20400, 549585920, tSizeDword | tTypeCounter | tCounterFraction | tDeltaCounter | tDeltaBase | tPercent, 4, TimerTick, Percent, 2, true, true, false, false, SampleBase, true},
	{"PERF_SAMPLE_COUNTER", SampleCounter, 0x00410400, 4260864, tSizeDword | tTypeCounter | tCounterRate | tTimerTick | tDeltaCounter, 4, TimerTick, NoSuffix, 2, true, false, false, false, 0, false},
	{"PERF_COUNTER_NODATA", CounterNodata, 0x40000200, 1073742336, tSizeZero | tNoShow, 0, TimerTick, NoShow, 0, false, false, false, false, 0, false},
	{"PERF_COUNTER_TIMER_INV", CounterTimerInv, 0x21410500, 557909248, tSizeLarge | tTypeCounter | tCounterRate | tTimerTick | tDeltaCounter | tPercent | tInverse, 8, TimerTick, Percent, 2, true, true, false, false, 0, false},
	{"PERF_SAMPLE_BASE", SampleBase, 0x40030401, 1073939457, tSizeDword | tTypeCounter | tCounterBase | tNoShow | 1, 4, TimerTick, NoShow, 0, false, false, true, false, 0, false},
	{"PERF_AVERAGE_TIMER", AverageTimer, 0x30020400, 805438464, tSizeDword | tTypeCounter | tCounterFraction | tSeconds, 4, TimerTick, Seconds, 2, true, false, false, false, AverageBase, true},
	{"PERF_AVERAGE_BASE", AverageBase, 0x40030402, 1073939458, tSizeDword | tTypeCounter | tCounterBase | tNoShow | 2, 4, TimerTick, NoShow, 0, false, false, true, false, 0, false},
	{"PERF_AVERAGE_BULK", AverageBulk, 0x40020500, 1073874176, tSizeLarge | tTypeCounter | tCounterFraction | tNoShow, 8, TimerTick, NoShow, 2, true, false, false, false, AverageBase, true},
	{"PERF_OBJ_TIME_TIMER", ObjTimeTimer, 0x20610500, 543229184, tSizeLarge | tTypeCounter | tCounterRate | tObjectTimer | tDeltaCounter | tPercent, 8, ObjectTimer, Percent, 2, true, true, false, false, 0, false},
	{"PERF_100NSEC_TIMER", Timer100ns, 0x20510500, 542180608, tSizeLarge | tTypeCounter | tCounterRate | tTimer100ns | tDeltaCounter | tPercent, 8, Timer100NS, Percent, 2, true, true, false, false, 0, false},
	{"PERF_100NSEC_TIMER_INV", Timer100nsInv, 0x21510500, 558957824, tSizeLarge | tTypeCounter | tCounterRate | tTimer100ns | tDeltaCounter | tPercent | tInverse, 8, Timer100NS, Percent, 2, true, true, false, false, 0, false},
	{"PERF_COUNTER_MULTI_TIMER", CounterMultiTimer, 0x22410500, 574686464, tSizeLarge | tTypeCounter | tCounterRate | tTimerTick | tDeltaCounter | tMulti | tPercent, 8, TimerTick, Percent, 2, true, true, false, false, CounterMultiBase, true},
	{"PERF_COUNTER_MULTI_TIMER_INV", CounterMultiTimerInv, 0x23410500, 591463680, tSizeLarge | tTypeCounter | tCounterRate | tTimerTick | tDeltaCounter | tMulti | tPercent | tInverse, 8, TimerTick, Percent, 2, true, true, false, false, CounterMultiBase, true},
	{"PERF_COUNTER_MULTI_BASE", CounterMultiBase, 0x42030500, 1107494144, tSizeLarge | tTypeCounter | tCounterBase | tMulti | tNoShow, 8, TimerTick, NoShow, 0, false, false, true, false, 0, false},
	{"PERF_100NSEC_MULTI_TIMER", MultiTimer100ns, 0x22510500, 575735040, tSizeLarge | tTypeCounter | tCounterRate | tTimer100ns | tDeltaCounter | tMulti | tPercent, 8, Timer100NS, Percent, 2, true, true, false, false, CounterMultiBase, true},
	{"PERF_100NSEC_MULTI_TIMER_INV", MultiTimer100nsInv, 0x23510500, 592512256, tSizeLarge | tTypeCounter | tCounterRate | tTimer100ns | tDeltaCounter | tMulti | tPercent | tInverse, 8, Timer100NS, Percent, 2, true, true, false, false, CounterMultiBase, true},
	{"PERF_RAW_FRACTION", RawFraction, 0x20020400, 537003008, tSizeDword | tTypeCounter | tCounterFraction | tPercent, 4, TimerTick, Percent, 1, true, true, false, false, RawBase, true},
	{"PERF_LARGE_RAW_FRACTION", LargeRawFraction, 0x20020500, 537003264, tSizeLarge | tTypeCounter | tCounterFraction | tPercent, 8, TimerTick, Percent, 1, true, true, false, false, LargeRawBase, true},
	{"PERF_RAW_BASE", RawBase, 0x40030403, 1073939459, tSizeDword | tTypeCounter | tCounterBase | tNoShow | 3, 4, TimerTick, NoShow, 0, false, false, true, false, 0, false},
	{"PERF_LARGE_RAW_BASE", LargeRawBase, 0x40030500, 1073939712, tSizeLarge | tTypeCounter | tCounterBase | tNoShow, 8, TimerTick, NoShow, 0, false, false, true, false, 0, false},
	{"PERF_PRECISION_TIMESTAMP", PrecisionTimestamp, 0x40030500, 1073939712, tSizeLarge | tTypeCounter | tCounterBase | tNoShow, 8, TimerTick, NoShow, 0, false, false, true, false, 0, false},
	{"PERF_ELAPSED_TIME", ElapsedTime, 0x30240500, 807666944, tSizeLarge | tTypeCounter | tCounterElapsed | tObjectTimer | tSeconds, 8, ObjectTimer, Seconds, 1, true, false, false, false, 0, false},
	{"PERF_COUNTER_DELTA", CounterDelta, 0x00400400, 4195328, tSizeDword | tTypeCounter | tCounterValue | tDeltaCounter, 4, TimerTick, NoSuffix, 2, true, false, false, false, 0, false},
	{"PERF_COUNTER_LARGE_DELTA", CounterLargeDelta, 0x00400500, 4195584, tSizeLarge | tTypeCounter | tCounterValue | tDeltaCounter, 8, TimerTick, NoSuffix, 2, true, false, false, false, 0, false},
	{"PERF_PRECISION_SYSTEM_TIMER", PrecisionSystemTimer, 0x20470500, 541525248, tSizeLarge | tTypeCounter | tCounterPrecise | tTimerTick | tDeltaCounter | tPercent, 8, TimerTick, Percent, 2, true, true, false, false, PrecisionTimestamp, true},
	{"PERF_PRECISION_100NS_TIMER", Precision100nsTimer, 0x20570500, 542573824, tSizeLarge | tTypeCounter | tCounterPrecise | tTimer100ns | tDeltaCounter | tPercent, 8, Timer100NS, Percent, 2, true, true, false, false, PrecisionTimestamp, true},
	{"PERF_PRECISION_OBJECT_TIMER", PrecisionObjectTimer, 0x20670500, 543622400, tSizeLarge | tTypeCounter | tCounterPrecise | tObjectTimer | tDeltaCounter | tPercent, 8, ObjectTimer, Percent, 2, true, true, false, false, PrecisionTimestamp, true},
	{"PERF_COUNTER_HISTOGRAM_TYPE", CounterHistogramType, 0x80000000, 2147483648, tHistogram, 4, TimerTick, NoSuffix, 0, false, false, false, false, 0, false},
}

func TestTypeCasesCoverTheSpec(t *testing.T) {
	// winperf.h names 40 types (PERF_PRECISION_TIMESTAMP included), for 39
	// distinct values.
	if have, want := len(typeCases), 40; have != want {
		t.Fatalf("have %d names in the test table, want %d", have, want)
	}
	distinct := map[CounterType]bool{}
	for _, tc := range typeCases {
		distinct[tc.typ] = true
	}
	if have, want := len(distinct), 39; have != want {
		t.Errorf("have %d distinct values, want %d", have, want)
	}
	ts := Types()
	if have, want := len(ts), len(distinct); have != want {
		t.Errorf("Types(): have %d types, want %d", have, want)
	}
	seen := map[CounterType]bool{}
	for _, typ := range ts {
		if !distinct[typ] {
			t.Errorf("Types() has %v, which is not in the spec's table", typ)
		}
		if seen[typ] {
			t.Errorf("Types() lists %v twice", typ)
		}
		seen[typ] = true
	}
}

func TestCounterTypeComposition(t *testing.T) {
	for _, tc := range typeCases {
		t.Run(tc.name, func(t *testing.T) {
			if have, want := uint32(tc.typ), tc.hex; have != want {
				t.Errorf("constant: have %#08x, want %#08x", have, want)
			}
			if have, want := uint64(tc.typ), tc.dec; have != want {
				t.Errorf("decimal: have %d, want %d", have, want)
			}
			if have, want := uint32(tc.typ), tc.comp; have != want {
				t.Errorf("composition: have %#08x, want %#08x", have, want)
			}
			if !tc.typ.Known() {
				t.Errorf("Known: have false, want true")
			}
			if have, want := tc.typ.RawSize(), tc.size; have != want {
				t.Errorf("RawSize: have %d, want %d", have, want)
			}
			if have, want := tc.typ.TimeBase(), tc.tb; have != want {
				t.Errorf("TimeBase: have %v, want %v", have, want)
			}
			if have, want := tc.typ.Suffix(), tc.suffix; have != want {
				t.Errorf("Suffix: have %d, want %d", have, want)
			}
			if have, want := tc.typ.Samples(), tc.samples; have != want {
				t.Errorf("Samples: have %d, want %d", have, want)
			}
			if have, want := tc.typ.Displayable(), tc.display; have != want {
				t.Errorf("Displayable: have %v, want %v", have, want)
			}
			if have, want := tc.typ.IsPercent(), tc.percent; have != want {
				t.Errorf("IsPercent: have %v, want %v", have, want)
			}
			if have, want := tc.typ.IsBase(), tc.isBase; have != want {
				t.Errorf("IsBase: have %v, want %v", have, want)
			}
			if have, want := tc.typ.IsHex(), tc.isHex; have != want {
				t.Errorf("IsHex: have %v, want %v", have, want)
			}
			base, ok := tc.typ.Base()
			if base != tc.base || ok != tc.hasBase {
				t.Errorf("Base: have %v, %v, want %v, %v", base, ok, tc.base, tc.hasBase)
			}
			if tc.hasBase && !base.IsBase() {
				t.Errorf("Base %v is not a base type", base)
			}
			if have, want := tc.typ.DeltaCounter(), tc.comp&tDeltaCounter != 0; have != want {
				t.Errorf("DeltaCounter: have %v, want %v", have, want)
			}
			if have, want := tc.typ.DeltaBase(), tc.comp&tDeltaBase != 0; have != want {
				t.Errorf("DeltaBase: have %v, want %v", have, want)
			}
			if have, want := tc.typ.Inverse(), tc.comp&tInverse != 0; have != want {
				t.Errorf("Inverse: have %v, want %v", have, want)
			}
			if have, want := tc.typ.Multi(), tc.comp&tMulti != 0; have != want {
				t.Errorf("Multi: have %v, want %v", have, want)
			}
		})
	}
}

func TestCounterTypeString(t *testing.T) {
	for _, tc := range typeCases {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.name
			if tc.name == "PERF_PRECISION_TIMESTAMP" {
				want = "PERF_LARGE_RAW_BASE" // the value it aliases
			}
			if have := tc.typ.String(); have != want {
				t.Errorf("have %q, want %q", have, want)
			}
		})
	}
	for _, tc := range []struct {
		typ  CounterType
		want string
	}{
		{0x00000001, "0x00000001"},
		{0xFFFFFFFF, "0xFFFFFFFF"},
		{0x10410401, "0x10410401"},
		{0x0ABCDEF0, "0x0ABCDEF0"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if have := tc.typ.String(); have != tc.want {
				t.Errorf("have %q, want %q", have, tc.want)
			}
		})
	}
}

func TestParseCounterType(t *testing.T) {
	for _, tc := range typeCases {
		for _, s := range []string{
			tc.name,
			tc.name[len("PERF_"):],
			" " + toLower(tc.name) + "\t",
			"0x" + strconv.FormatUint(uint64(tc.hex), 16),
			"0X" + strconv.FormatUint(uint64(tc.hex), 16),
			strconv.FormatUint(tc.dec, 10),
		} {
			t.Run(s, func(t *testing.T) {
				have, err := ParseCounterType(s)
				if err != nil {
					t.Fatalf("have error %v, want %v", err, tc.typ)
				}
				if have != tc.typ {
					t.Errorf("have %v, want %v", have, tc.typ)
				}
			})
		}
	}
	for _, s := range []string{
		"", " ", "PERF_", "PERF_COUNTER", "PERF_COUNTER_COUNTERS", "PERF_COUNTER_COUNTER2",
		"0x", "0x10410401", "0x1_0410400", "0x110410400", "272696321", "4294967296", "-1",
		"+272696320", "0x-1", "1e3", "0xFFFFFFFF", "4294967295", "1", "PERF_DELTA_COUNTER",
		"PERF_PERF_COUNTER_COUNTER", "PERF_TIMER_TICK", "27269632O",
	} {
		t.Run("bad/"+s, func(t *testing.T) {
			have, err := ParseCounterType(s)
			if err == nil {
				t.Fatalf("have %v, nil; want an error", have)
			}
			if !errors.Is(err, ErrUnknownType) {
				t.Errorf("have error %v, want one wrapping ErrUnknownType", err)
			}
			var te *TypeError
			if !errors.As(err, &te) || te.Text == "" && s != "" && s != " " {
				t.Errorf("have error %#v, want a *TypeError with the text", err)
			}
		})
	}
}

func toLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func TestTypeTablePerfectHash(t *testing.T) {
	// No two known types share a slot, and each one finds itself.
	used := map[uint32]CounterType{}
	for _, tc := range typeCases {
		if tc.name == "PERF_PRECISION_TIMESTAMP" {
			continue
		}
		s := slot(tc.typ, hashMul)
		if other, ok := used[s]; ok {
			t.Errorf("%v and %v share slot %d", other, tc.typ, s)
		}
		used[s] = tc.typ
		if in := tc.typ.info(); in == nil || in.typ != tc.typ {
			t.Errorf("%v: its slot does not hold it", tc.typ)
		}
	}
	// hashMul is the first collision-free odd multiplier from 0x9E3779B1.
	first := uint32(0)
	for mul := uint32(0x9E3779B1); first == 0; mul += 2 {
		var taken [64]bool
		ok := true
		for _, ty := range Types() {
			s := slot(ty, mul)
			ok = ok && !taken[s]
			taken[s] = true
		}
		if ok {
			first = mul
		}
	}
	if first != hashMul {
		t.Errorf("hashMul is %#x; the first collision-free odd multiplier from 0x9E3779B1 is %#x", hashMul, first)
	}
}

// isKnownValue reports whether v is in the spec's table, by the test's own list.
func isKnownValue(v uint32) bool {
	for _, tc := range typeCases {
		if tc.hex == v {
			return true
		}
	}
	return false
}

func checkUnknown(t *testing.T, v uint32) {
	t.Helper()
	typ := CounterType(v)
	if typ.Known() {
		t.Fatalf("%#08x: Known() true, want false", v)
	}
	in := Input{Counter: Counter{Type: typ, TimeBase: 10}, HasOld: true,
		Old: RawCounter{FirstValue: 1, SecondValue: 1, MultiCount: 1},
		New: RawCounter{FirstValue: 5, SecondValue: 9, MultiCount: 1}}
	if r := Compute(&in, Cap100|Scale); r.Status != UnknownType || r.Value != 0 {
		t.Fatalf("%#08x: have %v, want 0 UnknownType", v, r)
	}
	if typ.Displayable() || typ.IsBase() || typ.IsPercent() || typ.Samples() != 0 {
		t.Fatalf("%#08x: unknown type has properties", v)
	}
	if b, ok := typ.Base(); ok || b != 0 {
		t.Fatalf("%#08x: Base() = %v, %v for an unknown type", v, b, ok)
	}
	if _, err := ParseCounterType(strconv.FormatUint(uint64(v), 10)); !errors.Is(err, ErrUnknownType) {
		t.Fatalf("%#08x: ParseCounterType: have %v, want ErrUnknownType", v, err)
	}
}

func TestUnknownTypes(t *testing.T) {
	t.Run("one bit from a known type", func(t *testing.T) {
		for _, tc := range typeCases {
			for b := 0; b < 32; b++ {
				if v := tc.hex ^ 1<<b; !isKnownValue(v) {
					checkUnknown(t, v)
				}
			}
		}
	})
	t.Run("every value that shares a slot with a known type", func(t *testing.T) {
		// Values t+k·2^26/hashMul land near a known type's slot; instead
		// of solving for them, sample widely and keep those that collide.
		rng := rand.New(rand.NewPCG(1, 2))
		collided := 0
		for range 1 << 20 {
			v := rng.Uint32()
			if isKnownValue(v) {
				continue
			}
			if table[slot(CounterType(v), hashMul)].formula != fUnknown {
				collided++
			}
			checkUnknown(t, v)
		}
		if collided == 0 {
			t.Errorf("no sampled value hashed to an occupied slot; the sample proves nothing")
		}
	})
	t.Run("special values", func(t *testing.T) {
		for _, v := range []uint32{0xFFFFFFFF, 0x7FFFFFFF, 0x00000001, 0x80000001, 0x40000000, 0x00000400, 0x00000200, 0x00000300} {
			checkUnknown(t, v)
		}
	})
	t.Run("every slot", func(t *testing.T) {
		// For each of the 64 slots, find values that hash to it and are
		// not known: the empty ones and the occupied ones must both reject.
		for s := uint32(0); s < 64; s++ {
			found := 0
			for v := uint32(0); found < 8 && v < 1<<24; v++ {
				w := v * 2654435761 // spread the candidates
				if slot(CounterType(w), hashMul) == s && !isKnownValue(w) {
					checkUnknown(t, w)
					found++
				}
			}
			if found == 0 {
				t.Errorf("slot %d: no candidate found", s)
			}
		}
	})
}

// TestKnownExhaustive walks all 2^32 values: exactly the spec's 39 are
// known. It takes about 5 s, so -short skips it (TestUnknownTypes samples).
func TestKnownExhaustive(t *testing.T) {
	if testing.Short() {
		t.Skip("walks all 2^32 type values; run without -short")
	}
	n := 0
	for v := uint64(0); v < 1<<32; v++ {
		if CounterType(v).Known() {
			n++
			if !isKnownValue(uint32(v)) {
				t.Errorf("%#08x: Known() true, but not in the spec's table", v)
			}
		}
	}
	if n != 39 {
		t.Errorf("have %d known values, want 39", n)
	}
}

func TestTimeBaseAndSuffixString(t *testing.T) {
	for _, tc := range []struct {
		have, want string
	}{
		{TimerTick.String(), "PERF_TIMER_TICK"},
		{Timer100NS.String(), "PERF_TIMER_100NS"},
		{ObjectTimer.String(), "PERF_OBJECT_TIMER"},
		{TimeBase(3).String(), "TimeBase(3)"},
		{NoSuffix.String(), ""},
		{PerSec.String(), "/sec"},
		{Percent.String(), "%"},
		{Seconds.String(), "secs"},
		{NoShow.String(), ""},
		{Suffix(7).String(), ""},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if tc.have != tc.want {
				t.Errorf("have %q, want %q", tc.have, tc.want)
			}
		})
	}
}
