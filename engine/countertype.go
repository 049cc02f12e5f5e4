package engine

import (
	"errors"
	"strconv"
	"strings"
)

// CounterType is a Windows performance counter type, the CounterType field of
// winperf.h's PERF_COUNTER_DEFINITION (and of PERF_COUNTER_REG_INFO.Type and of
// a .blg log's counter list). Its bit fields say how a raw value is read and
// turned into a displayed value; the accessors below name them.
type CounterType uint32

// The counter types of winperf.h. The Go names drop the PERF_ prefix;
// String returns the Windows name.
const (
	CounterCounter             CounterType = 0x10410400   // PERF_COUNTER_COUNTER
	CounterTimer               CounterType = 0x20410500   // PERF_COUNTER_TIMER
	CounterQueuelenType        CounterType = 0x00450400   // PERF_COUNTER_QUEUELEN_TYPE
	CounterLargeQueuelenType   CounterType = 0x00450500   // PERF_COUNTER_LARGE_QUEUELEN_TYPE
	Counter100nsQueuelenType   CounterType = 0x00550500   // PERF_COUNTER_100NS_QUEUELEN_TYPE
	CounterObjTimeQueuelenType CounterType = 0x00650500   // PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE
	CounterBulkCount           CounterType = 0x10410500   // PERF_COUNTER_BULK_COUNT
	CounterText                CounterType = 0x00000B00   // PERF_COUNTER_TEXT
	CounterRawcount            CounterType = 0x00010000   // PERF_COUNTER_RAWCOUNT
	CounterLargeRawcount       CounterType = 0x00010100   // PERF_COUNTER_LARGE_RAWCOUNT
	CounterRawcountHex         CounterType = 0x00000000   // PERF_COUNTER_RAWCOUNT_HEX
	CounterLargeRawcountHex    CounterType = 0x00000100   // PERF_COUNTER_LARGE_RAWCOUNT_HEX
	SampleFraction             CounterType = 0x20C20400   // PERF_SAMPLE_FRACTION
	SampleCounter              CounterType = 0x00410400   // PERF_SAMPLE_COUNTER
	CounterNodata              CounterType = 0x40000200   // PERF_COUNTER_NODATA
	CounterTimerInv            CounterType = 0x21410500   // PERF_COUNTER_TIMER_INV
	SampleBase                 CounterType = 0x40030401   // PERF_SAMPLE_BASE
	AverageTimer               CounterType = 0x30020400   // PERF_AVERAGE_TIMER
	AverageBase                CounterType = 0x40030402   // PERF_AVERAGE_BASE
	AverageBulk                CounterType = 0x40020500   // PERF_AVERAGE_BULK
	ObjTimeTimer               CounterType = 0x20610500   // PERF_OBJ_TIME_TIMER
	Timer100ns                 CounterType = 0x20510500   // PERF_100NSEC_TIMER
	Timer100nsInv              CounterType = 0x21510500   // PERF_100NSEC_TIMER_INV
	CounterMultiTimer          CounterType = 0x22410500   // PERF_COUNTER_MULTI_TIMER
	CounterMultiTimerInv       CounterType = 0x23410500   // PERF_COUNTER_MULTI_TIMER_INV
	CounterMultiBase           CounterType = 0x42030500   // PERF_COUNTER_MULTI_BASE
	MultiTimer100ns            CounterType = 0x22510500   // PERF_100NSEC_MULTI_TIMER
	MultiTimer100nsInv         CounterType = 0x23510500   // PERF_100NSEC_MULTI_TIMER_INV
	RawFraction                CounterType = 0x20020400   // PERF_RAW_FRACTION
	LargeRawFraction           CounterType = 0x20020500   // PERF_LARGE_RAW_FRACTION
	RawBase                    CounterType = 0x40030403   // PERF_RAW_BASE
	LargeRawBase               CounterType = 0x40030500   // PERF_LARGE_RAW_BASE
	PrecisionTimestamp         CounterType = LargeRawBase // PERF_PRECISION_TIMESTAMP, an alias of PERF_LARGE_RAW_BASE
	ElapsedTime                CounterType = 0x30240500   // PERF_ELAPSED_TIME
	CounterDelta               CounterType = 0x00400400   // PERF_COUNTER_DELTA
	CounterLargeDelta          CounterType = 0x00400500   // PERF_COUNTER_LARGE_DELTA
	PrecisionSystemTimer       CounterType = 0x20470500   // PERF_PRECISION_SYSTEM_TIMER
	Precision100nsTimer        CounterType = 0x20570500   // PERF_PRECISION_100NS_TIMER
	PrecisionObjectTimer       CounterType = 0x20670500   // PERF_PRECISION_OBJECT_TIMER
	CounterHistogramType       CounterType = 0x80000000   // PERF_COUNTER_HISTOGRAM_TYPE
)

// Bit fields of a CounterType (winperf.h; the SDK defines the values, the
// masks are derived from them).
const (
	sizeMask      = 0x00000300 // PERF_SIZE_DWORD, _LARGE, _ZERO, _VARIABLE_LEN
	typeMask      = 0x00000C00 // PERF_TYPE_NUMBER, _COUNTER, _TEXT, _ZERO
	subtypeMask   = 0x000F0000 // meaning depends on the type field
	timerMask     = 0x00300000 // PERF_TIMER_TICK, _100NS, PERF_OBJECT_TIMER
	deltaCounter  = 0x00400000 // PERF_DELTA_COUNTER
	deltaBase     = 0x00800000 // PERF_DELTA_BASE
	inverseBit    = 0x01000000 // PERF_INVERSE_COUNTER
	multiBit      = 0x02000000 // PERF_MULTI_COUNTER
	displayMask   = 0x70000000 // PERF_DISPLAY_*
	histogramBit  = 0x80000000 // PERF_COUNTER_HISTOGRAM_TYPE
	sizeDword     = 0x00000000
	sizeLarge     = 0x00000100
	sizeZero      = 0x00000200
	typeNumber    = 0x00000000
	typeCounter   = 0x00000400
	typeText      = 0x00000800
	numberHex     = 0x00000000
	counterBase   = 0x00030000 // PERF_COUNTER_BASE subtype
	displayNoShow = 0x40000000
)

// TimeBase says which time stamp and frequency a counter type is measured
// against (bits 20–21 of the type).
type TimeBase uint8

// The three time bases of winperf.h.
const (
	TimerTick   TimeBase = 0 // PERF_TIMER_TICK: PERF_DATA_BLOCK.PerfTime and PerfFreq
	Timer100NS  TimeBase = 1 // PERF_TIMER_100NS: PERF_DATA_BLOCK.PerfTime100nSec, 10,000,000 per second
	ObjectTimer TimeBase = 2 // PERF_OBJECT_TIMER: PERF_OBJECT_TYPE.PerfTime and PerfFreq
)

// Frequency100NS is the frequency of the Timer100NS time base, in ticks per second.
const Frequency100NS = 10_000_000

// String returns the winperf.h name of the time base.
func (b TimeBase) String() string {
	switch b {
	case TimerTick:
		return "PERF_TIMER_TICK"
	case Timer100NS:
		return "PERF_TIMER_100NS"
	case ObjectTimer:
		return "PERF_OBJECT_TIMER"
	}
	return "TimeBase(" + strconv.Itoa(int(b)) + ")"
}

// Suffix is how a counter's value is labelled when displayed (bits 28–30).
type Suffix uint8

// The display suffixes of winperf.h.
const (
	NoSuffix Suffix = 0 // PERF_DISPLAY_NO_SUFFIX
	PerSec   Suffix = 1 // PERF_DISPLAY_PER_SEC
	Percent  Suffix = 2 // PERF_DISPLAY_PERCENT
	Seconds  Suffix = 3 // PERF_DISPLAY_SECONDS
	NoShow   Suffix = 4 // PERF_DISPLAY_NOSHOW
)

var suffixText = [8]string{"", "/sec", "%", "secs", "", "", "", ""}

// String returns the unit text shown after a value: "", "/sec", "%" or
// "secs". NoShow and the undefined values have no text.
func (s Suffix) String() string { return suffixText[s&7] }

// formula is the kind of computation a counter type needs. It is data in a
// type's descriptor, not a branch: see compute.go.
type formula uint8

const (
	fUnknown        formula = iota // not a winperf.h type
	fNone                          // base, text, no-data, histogram: not displayed
	fRaw                           // N1
	fDelta                         // ΔN
	fRate                          // ΔN / (ΔD / F)
	fQueuelen                      // ΔN / ΔD
	fTimer                         // (ΔN / ΔD) * 100
	fTimerInv                      // 100 * (1 − ΔN / ΔD)
	fMultiTimer                    // ((ΔN / ΔD) / B1) * 100
	fMultiTimerInv                 // 100 * (1 − (ΔN / ΔD) / B1)
	fPrecision                     // (ΔN / ΔB) * 100
	fRawFraction                   // (N1 / B1) * 100
	fSampleFraction                // (ΔN / ΔB) * 100
	fAverageTimer                  // (ΔN / F) / ΔB
	fAverageBulk                   // ΔN / ΔB
	fElapsed                       // (D1 − N1) / F
)

// typeInfo is what the engine knows of one counter type: its name, formula,
// base, and everything compute needs as masks and constants.
type typeInfo struct {
	typ     CounterType
	name    string
	formula formula
	base    CounterType // the base counter type it needs (valid when hasBase)
	hasBase bool
	comp    computeParams
}

// names lists every winperf.h type with its Windows name, in the order of
// the spec's table. PERF_PRECISION_TIMESTAMP is accepted by ParseCounterType
// but String prints PERF_LARGE_RAW_BASE, the name it aliases.
var names = [...]struct {
	t CounterType
	n string
	f formula
}{
	{CounterCounter, "PERF_COUNTER_COUNTER", fRate},
	{CounterBulkCount, "PERF_COUNTER_BULK_COUNT", fRate},
	{SampleCounter, "PERF_SAMPLE_COUNTER", fRate},
	{CounterQueuelenType, "PERF_COUNTER_QUEUELEN_TYPE", fQueuelen},
	{CounterLargeQueuelenType, "PERF_COUNTER_LARGE_QUEUELEN_TYPE", fQueuelen},
	{Counter100nsQueuelenType, "PERF_COUNTER_100NS_QUEUELEN_TYPE", fQueuelen},
	{CounterObjTimeQueuelenType, "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE", fQueuelen},
	{CounterTimer, "PERF_COUNTER_TIMER", fTimer},
	{Timer100ns, "PERF_100NSEC_TIMER", fTimer},
	{ObjTimeTimer, "PERF_OBJ_TIME_TIMER", fTimer},
	{CounterTimerInv, "PERF_COUNTER_TIMER_INV", fTimerInv},
	{Timer100nsInv, "PERF_100NSEC_TIMER_INV", fTimerInv},
	{CounterMultiTimer, "PERF_COUNTER_MULTI_TIMER", fMultiTimer},
	{MultiTimer100ns, "PERF_100NSEC_MULTI_TIMER", fMultiTimer},
	{CounterMultiTimerInv, "PERF_COUNTER_MULTI_TIMER_INV", fMultiTimerInv},
	{MultiTimer100nsInv, "PERF_100NSEC_MULTI_TIMER_INV", fMultiTimerInv},
	{PrecisionSystemTimer, "PERF_PRECISION_SYSTEM_TIMER", fPrecision},
	{Precision100nsTimer, "PERF_PRECISION_100NS_TIMER", fPrecision},
	{PrecisionObjectTimer, "PERF_PRECISION_OBJECT_TIMER", fPrecision},
	{RawFraction, "PERF_RAW_FRACTION", fRawFraction},
	{LargeRawFraction, "PERF_LARGE_RAW_FRACTION", fRawFraction},
	{SampleFraction, "PERF_SAMPLE_FRACTION", fSampleFraction},
	{AverageTimer, "PERF_AVERAGE_TIMER", fAverageTimer},
	{AverageBulk, "PERF_AVERAGE_BULK", fAverageBulk},
	{ElapsedTime, "PERF_ELAPSED_TIME", fElapsed},
	{CounterDelta, "PERF_COUNTER_DELTA", fDelta},
	{CounterLargeDelta, "PERF_COUNTER_LARGE_DELTA", fDelta},
	{CounterRawcount, "PERF_COUNTER_RAWCOUNT", fRaw},
	{CounterLargeRawcount, "PERF_COUNTER_LARGE_RAWCOUNT", fRaw},
	{CounterRawcountHex, "PERF_COUNTER_RAWCOUNT_HEX", fRaw},
	{CounterLargeRawcountHex, "PERF_COUNTER_LARGE_RAWCOUNT_HEX", fRaw},
	{SampleBase, "PERF_SAMPLE_BASE", fNone},
	{AverageBase, "PERF_AVERAGE_BASE", fNone},
	{RawBase, "PERF_RAW_BASE", fNone},
	{LargeRawBase, "PERF_LARGE_RAW_BASE", fNone},
	{CounterMultiBase, "PERF_COUNTER_MULTI_BASE", fNone},
	{CounterText, "PERF_COUNTER_TEXT", fNone},
	{CounterNodata, "PERF_COUNTER_NODATA", fNone},
	{CounterHistogramType, "PERF_COUNTER_HISTOGRAM_TYPE", fNone},
}

// precisionTimestampName is the winperf.h alias of PERF_LARGE_RAW_BASE.
const precisionTimestampName = "PERF_PRECISION_TIMESTAMP"

// Types returns every distinct winperf.h counter type (39 values; the 40th
// name, PERF_PRECISION_TIMESTAMP, is the same value as LargeRawBase), in the
// order of the specification's table.
func Types() []CounterType {
	ts := make([]CounterType, len(names))
	for i, n := range names {
		ts[i] = n.t
	}
	return ts
}

// The type table is a perfect hash of the 39 known values into 64 slots:
// slot = (t * hashMul) >> 26, with no two known types in one slot, so that a
// lookup is one multiply, one load and one compare, whatever the type.
// hashMul is the first odd multiplier from 0x9E3779B1 up without a
// collision; TestTypeTablePerfectHash searches it again and checks it, so
// that start-up does not have to (the search took 58 ms).
const hashMul uint32 = 0x9E5AB9BB

var table [64]typeInfo

func slot(t CounterType, mul uint32) uint32 { return (uint32(t) * mul) >> 26 }

func init() {
	for i := range table {
		// An empty slot must not match any value that hashes to it:
		// its formula stays fUnknown, so a match still reports UnknownType.
		table[i].typ = ^CounterType(0)
	}
	for _, n := range names {
		info := &table[slot(n.t, hashMul)]
		info.typ = n.t
		info.name = n.n
		info.formula = n.f
		info.base, info.hasBase = baseOf(n.t, n.f)
		info.comp = paramsFor(n.t, n.f)
	}
}

// baseOf derives the base counter a type needs from its formula and bits.
func baseOf(t CounterType, f formula) (CounterType, bool) {
	switch f {
	case fMultiTimer, fMultiTimerInv:
		return CounterMultiBase, true
	case fPrecision:
		return PrecisionTimestamp, true
	case fRawFraction:
		if t&sizeMask == sizeLarge {
			return LargeRawBase, true
		}
		return RawBase, true
	case fSampleFraction:
		return SampleBase, true
	case fAverageTimer, fAverageBulk:
		return AverageBase, true
	}
	return 0, false
}

// info returns the descriptor of t, or nil when t is not a winperf.h type.
func (t CounterType) info() *typeInfo {
	in := &table[slot(t, hashMul)]
	if in.typ != t || in.formula == fUnknown {
		return nil
	}
	return in
}

// Known reports whether t is one of the winperf.h counter types.
func (t CounterType) Known() bool { return t.info() != nil }

// String returns the Windows name of the type (PERF_COUNTER_COUNTER, …), or
// its value in hexadecimal (0x…) when it is not a winperf.h type. The value
// shared by PERF_LARGE_RAW_BASE and PERF_PRECISION_TIMESTAMP prints as
// PERF_LARGE_RAW_BASE.
func (t CounterType) String() string {
	if in := t.info(); in != nil {
		return in.name
	}
	return string(appendHex32(nil, uint32(t)))
}

func appendHex32(dst []byte, v uint32) []byte {
	dst = append(dst, "0x"...)
	const digits = "0123456789ABCDEF"
	for shift := 28; shift >= 0; shift -= 4 {
		dst = append(dst, digits[(v>>uint(shift))&0xF])
	}
	return dst
}

// ErrUnknownType is returned by ParseCounterType for a name or number that
// is not a winperf.h counter type.
var ErrUnknownType = errors.New("unknown counter type")

// ParseCounterType reads a counter type from its Windows name
// (PERF_COUNTER_COUNTER, case-insensitive, the PERF_ prefix optional), a
// hexadecimal number (0x10410400) or a decimal one (272696320). A value that
// is not a winperf.h type is an error wrapping ErrUnknownType.
func ParseCounterType(s string) (CounterType, error) {
	s = strings.TrimSpace(s)
	var v uint64
	var err error
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		v, err = strconv.ParseUint(s[2:], 16, 32)
	case allDigits(s):
		// A name without its PERF_ prefix may start with a digit
		// (100NSEC_TIMER), so only an all-digit text is a number.
		v, err = strconv.ParseUint(s, 10, 32)
	default:
		name := strings.ToUpper(s)
		if !strings.HasPrefix(name, "PERF_") {
			name = "PERF_" + name
		}
		if name == precisionTimestampName {
			return PrecisionTimestamp, nil
		}
		for _, n := range names {
			if n.n == name {
				return n.t, nil
			}
		}
		return 0, &TypeError{Text: s}
	}
	if err != nil || !CounterType(v).Known() {
		return 0, &TypeError{Text: s}
	}
	return CounterType(v), nil
}

// allDigits reports whether s is a non-empty run of decimal digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// TypeError reports a counter type that could not be parsed or is unknown.
type TypeError struct {
	Text string // the text that was parsed
}

func (e *TypeError) Error() string {
	return "engine: " + strconv.Quote(e.Text) + " is not a winperf.h counter type (want a PERF_* name, 0x… or a decimal number)"
}

// Unwrap returns ErrUnknownType.
func (e *TypeError) Unwrap() error { return ErrUnknownType }

// RawSize is the size in bytes of the type's raw value by its size bits: 4
// (PERF_SIZE_DWORD), 8 (PERF_SIZE_LARGE), or 0 (PERF_SIZE_ZERO and
// PERF_SIZE_VARIABLE_LEN). Decoders must read a value with the definition's
// own CounterSize, which real data sometimes sets differently.
func (t CounterType) RawSize() int {
	switch t & sizeMask {
	case sizeDword:
		return 4
	case sizeLarge:
		return 8
	}
	return 0
}

// TimeBase returns the time base selected by the type's bits 20–21.
// The undefined value 3 is reported as ObjectTimer | 1 (3).
func (t CounterType) TimeBase() TimeBase { return TimeBase((t & timerMask) >> 20) }

// Suffix returns the display suffix of the type (bits 28–30).
func (t CounterType) Suffix() Suffix { return Suffix((t & displayMask) >> 28) }

// IsPercent reports whether the type displays as a percentage: the types
// that the Cap100 option clamps.
func (t CounterType) IsPercent() bool { return t.Suffix() == Percent && t.Displayable() }

// IsHex reports whether the type's value is displayed in hexadecimal
// (PERF_COUNTER_RAWCOUNT_HEX and PERF_COUNTER_LARGE_RAWCOUNT_HEX).
func (t CounterType) IsHex() bool {
	return t == CounterRawcountHex || t == CounterLargeRawcountHex
}

// IsBase reports whether t is a base type (PERF_SAMPLE_BASE,
// PERF_AVERAGE_BASE, PERF_RAW_BASE, PERF_LARGE_RAW_BASE =
// PERF_PRECISION_TIMESTAMP, PERF_COUNTER_MULTI_BASE): a counter that is not
// displayed but feeds the counter before it.
func (t CounterType) IsBase() bool {
	return t.Known() && t&typeMask == typeCounter && t&subtypeMask == counterBase
}

// Base returns the base counter type that t needs, and whether it needs one.
// Fraction, average and precision types need the definition that follows
// them; the four multi timers need a count (PERF_COUNTER_MULTI_BASE, or the
// DWORD that follows their value).
func (t CounterType) Base() (CounterType, bool) {
	if in := t.info(); in != nil {
		return in.base, in.hasBase
	}
	return 0, false
}

// Samples returns how many raw samples a value of this type needs: 2 for
// types computed from a difference, 1 for types computed from the newer
// sample alone, and 0 for types that are not displayed.
func (t CounterType) Samples() int {
	if in := t.info(); in != nil {
		return int(in.comp.samples)
	}
	return 0
}

// Displayable reports whether values of this type are shown (false for base,
// text, no-data and histogram types and for unknown values). PERF_AVERAGE_BULK
// carries the NOSHOW bit but is displayed by perfmon, so it is displayable.
func (t CounterType) Displayable() bool {
	in := t.info()
	return in != nil && in.formula != fNone
}

// DeltaCounter reports the PERF_DELTA_COUNTER bit.
func (t CounterType) DeltaCounter() bool { return t&deltaCounter != 0 }

// DeltaBase reports the PERF_DELTA_BASE bit.
func (t CounterType) DeltaBase() bool { return t&deltaBase != 0 }

// Inverse reports the PERF_INVERSE_COUNTER bit.
func (t CounterType) Inverse() bool { return t&inverseBit != 0 }

// Multi reports the PERF_MULTI_COUNTER bit.
func (t CounterType) Multi() bool { return t&multiBit != 0 }
