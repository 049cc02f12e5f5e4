package engine

import (
	"math"
	"math/bits"
	"unsafe"
)

// RawCounter is one raw sample of a counter. It mirrors PDH's
// PDH_RAW_COUNTER, so that .blg raw records, V1 blobs and V2 blobs all map
// onto it:
//
//   - FirstValue is the counter's own raw value N;
//   - SecondValue is its time stamp D for rate, queue-length, timer and
//     elapsed types, or its base B for fraction, average and precision types;
//   - MultiCount is the item count B of the four multi timers.
//
// Raw values are unsigned: a V1 blob stores DWORDs and ULONGLONGs, and values
// up to 2^64−1 survive exactly. (PDH declares FirstValue and SecondValue as
// LONGLONG; the bit patterns are the same.)
type RawCounter struct {
	CStatus     uint32 // PDH_CSTATUS_* of the source; 0 (VALID_DATA) and 1 (NEW_DATA) are good, anything else gives InvalidData
	TimeStamp   int64  // FILETIME of the sample (100 ns since 1601 UTC); informational, not used by the formulas
	FirstValue  uint64 // N
	SecondValue uint64 // D or B
	MultiCount  uint32 // B of the multi timers
}

// PDH raw-counter statuses (PDH_CSTATUS_*) that decoders put into
// RawCounter.CStatus.
const (
	CStatusValidData   uint32 = 0x00000000 // PDH_CSTATUS_VALID_DATA
	CStatusNewData     uint32 = 0x00000001 // PDH_CSTATUS_NEW_DATA
	CStatusNoMachine   uint32 = 0x800007D0 // PDH_CSTATUS_NO_MACHINE
	CStatusInvalidData uint32 = 0xC0000BBA // PDH_CSTATUS_INVALID_DATA: also used when a counter's base is missing
)

// Counter is what the engine needs to know of a counter apart from its
// samples: its type, its default scale, and the frequency F of its time base.
type Counter struct {
	Type CounterType
	// Scale is the counter's DefaultScale, a power of ten, applied only
	// with the Scale option. It is clamped to −10..10 ([MS-PCQ]'s range).
	Scale int32
	// TimeBase is F, the frequency of the counter's time stamps in ticks per
	// second: PerfFreq for PERF_TIMER_TICK, 10,000,000 (Frequency100NS) for
	// PERF_TIMER_100NS, the object's PerfFreq for PERF_OBJECT_TIMER, or the
	// time base a .blg log stores with the counter. Only the rate, average
	// timer and elapsed time formulas divide by it.
	TimeBase int64
}

// Input is one computation: a counter, its older sample (when HasOld), and
// its newer one. The zero HasOld means "first sample": a 2-sample type then
// answers NewData.
type Input struct {
	Counter
	HasOld bool
	Old    RawCounter
	New    RawCounter
}

// Result is a computed value with its status. Value is 0 unless Status is
// Valid, and is never NaN or ±Inf.
type Result struct {
	Value  float64
	Status Status
}

// Options change a computed value the way PDH's format flags do. They are
// applied after the formula in this order: Cap100, Scale, Times1000. The
// zero Options is relog's output: no cap, no scaling.
type Options uint32

const (
	// Cap100 clamps percentage types to at most 100 (PDH's default;
	// PDH_FMT_NOCAP100 turns it off, and relog passes NOCAP100).
	Cap100 Options = 1 << iota
	// Scale multiplies the value by 10^Counter.Scale (PDH's default;
	// PDH_FMT_NOSCALE turns it off). A negative scale divides by 10^−Scale,
	// so that the result is correctly rounded.
	Scale
	// Times1000 multiplies the value by 1000 (PDH_FMT_1000).
	Times1000
	// Wrap32 reads a backwards step of a 4-byte counter (size bits
	// PERF_SIZE_DWORD) or of a 4-byte base (PERF_SAMPLE_BASE,
	// PERF_AVERAGE_BASE) as a 32-bit wrap, ΔN = N1 + 2^32 − N0, when that
	// delta is below 2^31; otherwise the value is NegativeValue. perfcalc's
	// own option, off by default.
	Wrap32
)

// computeParams is a type's formula as data: masks that select the inputs
// and constants that shape the result, so that every type runs the same
// straight-line code. Masks are all ones (true) or zero (false).
type computeParams struct {
	samples  uint8   // samples needed: 0, 1 or 2
	flags    uint64  // status bits that hold whatever the input (notDisplayable)
	xDelta   uint64  // x = N1 − N0
	xElapsed uint64  // x = D1 − N1
	yUse     uint64  // the formula divides by y taken from SecondValue
	yCheck   uint64  // y = ΔD is checked (> 0) although the formula does not divide by it
	yDelta   uint64  // y = D1 − D0 (or B1 − B0); else y = D1 (or B1)
	fOnX     uint64  // x is divided by F
	fOnY     uint64  // y is divided by F
	mUse     uint64  // the fraction is divided by MultiCount
	wrapX    uint64  // with Wrap32, ΔN may wrap at 2^32
	wrapY    uint64  // with Wrap32, ΔB may wrap at 2^32
	percent  uint64  // Cap100 applies
	a, c     float64 // v = (a − q) * c: (1, 100) inverse, (−0, −100) percent, (−0, −1) plain
	needsOld uint64  // 2-sample type
}

// Status bits, in priority order: the lowest set bit names the status.
const (
	bitUnknown = 1 << iota
	bitNotDisplayable
	bitInvalidData
	bitNewData
	bitNegativeDenominator
	bitNegativeValue
	bitValid
)

var statusOfBit = [8]Status{UnknownType, NotDisplayable, InvalidData, NewData, NegativeDenominator, NegativeValue, Valid, Valid}

// paramsFor derives a type's computeParams from its formula and bits.
func paramsFor(t CounterType, f formula) computeParams {
	const all = ^uint64(0)
	p := computeParams{a: math.Copysign(0, -1), c: -1}
	m := func(b bool) uint64 {
		if b {
			return all
		}
		return 0
	}
	p.percent = m(t.Suffix() == Percent)
	switch f {
	case fNone:
		p.flags = bitNotDisplayable
		p.percent = 0
		return p
	case fRaw:
		p.samples = 1
	case fDelta:
		// The formula is ΔN alone, but the samples must have advanced:
		// ΔD ≤ 0 is NegativeDenominator, as for every 2-sample type whose
		// second value is a time stamp (doc/COUNTER-TYPES.md, Status).
		p.samples, p.xDelta, p.yCheck, p.yDelta = 2, all, all, all
	case fRate:
		p.samples, p.xDelta, p.yUse, p.yDelta, p.fOnY = 2, all, all, all, all
	case fQueuelen:
		p.samples, p.xDelta, p.yUse, p.yDelta = 2, all, all, all
	case fTimer, fPrecision, fSampleFraction:
		p.samples, p.xDelta, p.yUse, p.yDelta, p.c = 2, all, all, all, -100
	case fTimerInv:
		p.samples, p.xDelta, p.yUse, p.yDelta, p.a, p.c = 2, all, all, all, 1, 100
	case fMultiTimer:
		// The perfcalc decision on the multi timers (doc/COUNTER-TYPES.md): the
		// timer fraction ΔN / ΔD is taken in the counter's own time base and
		// averaged over B1 items, so plain and inverse lie in [0, 100]
		// whenever 0 ≤ ΔN ≤ B1·ΔD. This follows the NT Resource Kit table
		// and the Platform SDK's 100 ns variants; other Microsoft documents
		// disagree with each other. compute clamps the fraction to 1
		// when 0 ≤ ΔN ≤ B1·ΔD holds in integers, so that rounding above
		// 2^53 cannot push a value out of [0, 100].
		p.samples, p.xDelta, p.yUse, p.yDelta, p.mUse, p.c = 2, all, all, all, all, -100
	case fMultiTimerInv:
		p.samples, p.xDelta, p.yUse, p.yDelta, p.mUse, p.a, p.c = 2, all, all, all, all, 1, 100
	case fRawFraction:
		p.samples, p.yUse, p.c = 1, all, -100
	case fAverageTimer:
		p.samples, p.xDelta, p.yUse, p.yDelta, p.fOnX = 2, all, all, all, all
	case fAverageBulk:
		p.samples, p.xDelta, p.yUse, p.yDelta = 2, all, all, all
	case fElapsed:
		p.samples, p.xElapsed, p.fOnX = 1, all, all
	}
	p.needsOld = m(p.samples == 2)
	// Wrap32: a 4-byte counter's ΔN, and the 4-byte bases' ΔB.
	p.wrapX = m(p.xDelta != 0 && t&sizeMask == sizeDword)
	p.wrapY = m(f == fSampleFraction || f == fAverageTimer || f == fAverageBulk)
	return p
}

// Compute returns the value of one counter from its samples, as PDH's
// PdhCalculateCounterFromRawValue / PdhFormatFromRawValue with
// PDH_FMT_DOUBLE would, with the formulas and the arithmetic order of the
// specification. It never returns NaN or ±Inf and never panics.
//
// A plainly valid input runs through its formula's kernel (kernel.go), any
// other through the reference code below, which decides its status; both
// give the same bits.
func Compute(in *Input, opts Options) Result {
	if !kernels {
		return compute(in, opts) // what runKernel does without the kernels
	}
	var r [1]Result
	// A slice of one over the caller's input, read only: no copy.
	runKernel(formulaOf(in.Type), unsafe.Slice(in, 1), prepareOptions(opts), r[:])
	return r[0]
}

// ComputeBatch computes in[i] into out[i] for every i below the shorter of
// the two lengths, and returns how many it computed, with the same results
// as Compute. It allocates nothing. Types may be mixed freely; runs of
// inputs of one type (a column of a log, one counter over the instances of
// an object) go fastest, through a loop specialised to their formula.
func ComputeBatch(in []Input, opts Options, out []Result) int {
	n := min(len(in), len(out))
	in, out = in[:n], out[:n]
	o := prepareOptions(opts)
	for len(in) > 0 {
		t := in[0].Type
		run := 1
		for run < len(in) && in[run].Type == t {
			run++
		}
		runKernel(formulaOf(t), in[:run], o, out[:run])
		in, out = in[run:], out[run:]
	}
	return n
}

// b2u is 1 for true and 0 for false; the compiler turns it into a move, not a branch.
func b2u(b bool) uint64 {
	var u uint64
	if b {
		u = 1
	}
	return u
}

// b2m turns a 0/1 bit into a mask of all zeros / all ones.
func b2m(b uint64) uint64 { return -b }

// isZero returns 1 when x is 0, else 0, without a branch (a compare and
// a SETcc).
func isZero(x uint64) uint64 { return b2u(x == 0) }

// nonZero returns 1 when x is not 0, else 0, without a branch.
func nonZero(x uint64) uint64 { return b2u(x != 0) }

// sel returns a where mask is all ones, b where it is zero. (The XOR form
// is one instruction shorter than a&mask | b&^mask on amd64.)
func sel(mask, a, b uint64) uint64 { return b ^ (a^b)&mask }

// fsel is sel on the bits of two floats.
func fsel(mask uint64, a, b float64) float64 {
	return math.Float64frombits(sel(mask, math.Float64bits(a), math.Float64bits(b)))
}

// pow10 holds 10^0 … 10^10, exact in float64, padded to 16 entries so that
// an index masked with 15 needs no bounds check.
var pow10 = [16]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1, 1, 1, 1, 1}

// compute is the reference computation: one straight-line shape for every
// type, the formula and the status rules as data (computeParams). The
// kernels hand it every input that is not plainly valid, and the tests
// check the kernels against it. The only data-dependent branches are the
// ones the Go compiler emits for uint64 → float64 conversions of values at
// or above 2^63.
func compute(in *Input, opts Options) Result {
	info := &table[slot(in.Type, hashMul)]
	p := &info.comp
	var flags uint64 = p.flags
	// A type that is not in the table (the slot holds another type, or
	// nothing) is UnknownType.
	unknown := nonZero(uint64(info.typ^in.Type)) | isZero(uint64(info.formula))
	flags |= unknown * bitUnknown

	hasOld := b2u(in.HasOld)
	needsOld := p.needsOld & 1
	// CStatus 0 and 1 are good; any other value makes the data invalid.
	badNew := nonZero(uint64(in.New.CStatus >> 1))
	badOld := nonZero(uint64(in.Old.CStatus>>1)) & hasOld & needsOld
	flags |= (badNew | badOld) * bitInvalidData
	flags |= (needsOld &^ hasOld) * bitNewData

	n1, n0 := in.New.FirstValue, in.Old.FirstValue
	d1, d0 := in.New.SecondValue, in.Old.SecondValue
	wrap := b2m(uint64(opts>>3) & 1) // Wrap32

	// x: ΔN, N1, or D1 − N1 (elapsed time).
	xa := sel(p.xElapsed, d1, n1)
	xb := n0&p.xDelta | n1&p.xElapsed
	x, bx := bits.Sub64(xa, xb, 0)
	wx := xa + 1<<32 - xb
	canWrapX := b2m(bx) & p.wrapX & wrap & b2m(isZero(wx>>31))
	x = sel(canWrapX, wx, x)
	bx &^= canWrapX & 1

	// y: ΔD, ΔB, or B1.
	yOn := p.yUse | p.yCheck
	ya := d1 & yOn
	yb := d0 & p.yDelta
	y, by := bits.Sub64(ya, yb, 0)
	wy := ya + 1<<32 - yb
	canWrapY := b2m(by) & p.wrapY & wrap & b2m(isZero(wy>>31))
	y = sel(canWrapY, wy, y)
	by &^= canWrapY & 1

	f := in.TimeBase
	fUsed := (p.fOnX | p.fOnY) & 1
	fBad := (uint64(f)>>63 | isZero(uint64(f))) & fUsed
	mc := uint64(in.New.MultiCount)
	mBad := isZero(mc) & p.mUse & 1
	yBad := (by | isZero(y)) & yOn & 1
	flags |= (fBad | mBad | yBad) * bitNegativeDenominator

	// The formula, in the specification's arithmetic order, as one shape
	// for every type: q = (ΔN / nb) / (da / db), where
	//
	//	rate                   nb = 1   da = ΔD   db = F   ΔN / (ΔD / F)
	//	average timer          nb = F   da = ΔB   db = 1   (ΔN / F) / ΔB
	//	elapsed time           nb = F   da = 1    db = 1   (D1 − N1) / F
	//	multi timers           nb = ΔD  da = B1   db = 1   (ΔN / ΔD) / B1
	//	other fractions        nb = 1   da = y    db = 1   ΔN / ΔD, N1 / B1, …
	//	raw values and deltas  nb = 1   da = 1    db = 1   N1 or ΔN
	//
	// Dividing by 1 is exact, so each type gets exactly its formula. The
	// two inner divisions are independent of each other, so the chain of
	// dependent divisions is two long, not three.
	ff, fy := float64(f), float64(y)
	nb := fsel(p.fOnX, ff, fsel(p.mUse, fy, 1))
	da := fsel(p.mUse, float64(mc), fsel(p.yUse, fy, 1))
	db := fsel(p.fOnY, ff, 1)
	q := (float64(x) / nb) / (da / db)
	// Multi timers: when 0 ≤ ΔN ≤ B1·ΔD in integers the exact fraction is
	// at most 1, but above 2^53 the conversions of ΔN and ΔD to float64
	// can round it past 1 (ΔN up, ΔD down), giving 100.00000000000001 or
	// a negative inverse. Clamp to 1 then: it only moves the result
	// towards the exact value, and changes nothing below 2^53.
	hi, lo := bits.Mul64(mc, y)
	_, over := bits.Sub64(lo, x, 0) // B1·ΔD < ΔN when hi is 0 and lo < ΔN
	within := p.mUse & b2m(1^(isZero(hi)&over))
	// Not min(q, 1) (the same for every q: 1 is neither NaN nor −0),
	// which Go's wasm backend makes a call to runtime.fmin64.
	if within != 0 && q > 1 {
		q = 1
	}
	v := (p.a - q) * p.c

	negative := bx | math.Float64bits(v)>>63
	flags |= negative * bitNegativeValue

	// Options: Cap100, then Scale, then Times1000.
	capMask := p.percent & b2m(uint64(opts)&1)
	if capMask != 0 && v > 100 { // not min (see q above)
		v = 100
	}
	// The scale is clamped to −10..10 with masks, not min and max: the
	// compiler turns those into branches, which mispredict when the
	// counters of a batch have different scales.
	s := int64(in.Scale)
	above := s - 10
	s -= above &^ (above >> 63) // s > 10 → 10
	below := s + 10
	s -= below & (below >> 63) // s < −10 → −10
	neg := uint64(s >> 63)     // all ones for a negative scale
	pow := pow10[uint64((s^int64(neg))-int64(neg))&15]
	scaleOn := b2m(uint64(opts>>1) & 1)
	up := fsel(scaleOn&^neg, pow, 1)
	v = fsel(scaleOn&neg, v/pow, v*up) // both at once: one multiplication or division deep
	v *= fsel(b2m(uint64(opts>>2)&1), 1000, 1)

	flags |= bitValid
	st := statusOfBit[bits.TrailingZeros64(flags)&7]
	valid := b2m(isZero(uint64(st)))
	return Result{Value: math.Float64frombits(math.Float64bits(v) & valid), Status: st}
}
