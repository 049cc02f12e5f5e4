package properties

import (
	"math"
	"math/bits"

	"github.com/perfcalc/perfcalc/engine"
)

// model computes a counter value the plain way, one case per type, straight
// from doc/COUNTER-TYPES.md: the reference that the table-driven engine must
// match bit for bit. It is slow and obvious on purpose.
func model(in engine.Input, opts engine.Options) engine.Result {
	const (
		rate = iota + 1
		queuelen
		timer
		timerInv
		multiTimer
		multiTimerInv
		precision
		rawFraction
		sampleFraction
		averageTimer
		averageBulk
		elapsed
		delta
		raw
		none
	)
	kinds := map[uint32]int{
		0x10410400: rate, 0x10410500: rate, 0x00410400: rate,
		0x00450400: queuelen, 0x00450500: queuelen, 0x00550500: queuelen, 0x00650500: queuelen,
		0x20410500: timer, 0x20510500: timer, 0x20610500: timer,
		0x21410500: timerInv, 0x21510500: timerInv,
		0x22410500: multiTimer, 0x22510500: multiTimer,
		0x23410500: multiTimerInv, 0x23510500: multiTimerInv,
		0x20470500: precision, 0x20570500: precision, 0x20670500: precision,
		0x20020400: rawFraction, 0x20020500: rawFraction,
		0x20C20400: sampleFraction,
		0x30020400: averageTimer,
		0x40020500: averageBulk,
		0x30240500: elapsed,
		0x00400400: delta, 0x00400500: delta,
		0x00010000: raw, 0x00010100: raw, 0x00000000: raw, 0x00000100: raw,
		0x40030401: none, 0x40030402: none, 0x40030403: none, 0x40030500: none, 0x42030500: none,
		0x00000B00: none, 0x40000200: none, 0x80000000: none,
	}
	typ := uint32(in.Type)
	kind, ok := kinds[typ]
	bad := func(s engine.Status) engine.Result { return engine.Result{Status: s} }
	switch {
	case !ok:
		return bad(engine.UnknownType)
	case kind == none:
		return bad(engine.NotDisplayable)
	}
	twoSample := kind != rawFraction && kind != elapsed && kind != raw
	good := func(c uint32) bool { return c == 0 || c == 1 }
	if !good(in.New.CStatus) || twoSample && in.HasOld && !good(in.Old.CStatus) {
		return bad(engine.InvalidData)
	}
	if twoSample && !in.HasOld {
		return bad(engine.NewData)
	}
	wrap32 := opts&engine.Wrap32 != 0
	// diff returns a − b and whether it is negative, reading a backwards
	// step of a 4-byte value as a wrap when allowed: a step back of more
	// than 2^31 and at most 2^32 is a forward step of 2^32 − step < 2^31.
	diff := func(a, b uint64, canWrap bool) (uint64, bool) {
		if a >= b {
			return a - b, false
		}
		if step := b - a; canWrap && wrap32 && step > 1<<31 && step <= 1<<32 {
			return 1<<32 - step, false
		}
		return 0, true
	}
	dword := typ&0x300 == 0
	n1, n0 := in.New.FirstValue, in.Old.FirstValue
	d1, d0 := in.New.SecondValue, in.Old.SecondValue
	f := in.TimeBase
	F := float64(f)
	mc := in.New.MultiCount
	var negDen, negVal bool
	var v float64
	switch kind {
	case raw:
		v = float64(n1)
	case delta:
		// ΔN alone, but the samples must have advanced (ΔD > 0).
		dn, neg := diff(n1, n0, dword)
		negVal, negDen = neg, d1 <= d0
		v = float64(dn)
	case elapsed:
		x, neg := diff(d1, n1, false)
		negVal, negDen = neg, f <= 0
		v = float64(x) / F
	case rawFraction:
		negDen = d1 == 0
		v = float64(n1) / float64(d1) * 100
	default:
		dn, negN := diff(n1, n0, dword)
		baseWraps := kind == sampleFraction || kind == averageTimer || kind == averageBulk
		dd, negD := diff(d1, d0, baseWraps)
		negVal = negN
		negDen = negD || dd == 0
		x, y := float64(dn), float64(dd)
		switch kind {
		case rate:
			negDen = negDen || f <= 0
			v = x / (y / F)
		case queuelen, averageBulk:
			v = x / y
		case timer, precision, sampleFraction:
			v = x / y * 100
		case timerInv:
			v = 100 * (1 - x/y)
		case multiTimer, multiTimerInv:
			negDen = negDen || mc == 0
			q := x / y / float64(mc)
			// The engine's documented clamp: the exact fraction is at
			// most 1 when ΔN ≤ B1·ΔD.
			if hi, lo := bits.Mul64(uint64(mc), dd); (hi > 0 || dn <= lo) && q > 1 {
				q = 1
			}
			if kind == multiTimer {
				v = q * 100
			} else {
				v = 100 * (1 - q)
			}
		case averageTimer:
			negDen = negDen || f <= 0
			v = x / F / y
		}
	}
	switch {
	case negDen:
		return bad(engine.NegativeDenominator)
	case negVal || v < 0:
		return bad(engine.NegativeValue)
	}
	if opts&engine.Cap100 != 0 && typ&0x70000000 == 0x20000000 && v > 100 {
		v = 100
	}
	if opts&engine.Scale != 0 {
		s := min(max(in.Scale, -10), 10)
		if s >= 0 {
			v *= math.Pow10(int(s))
		} else {
			v /= math.Pow10(int(-s))
		}
	}
	if opts&engine.Times1000 != 0 {
		v *= 1000
	}
	return engine.Result{Value: v, Status: engine.Valid}
}
