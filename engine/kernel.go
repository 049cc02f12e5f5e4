package engine

import (
	"math"
	"math/bits"
)

// The kernels: ComputeBatch's fast path, one loop per formula over a run of
// inputs of one type.
//
// compute (compute.go) is the reference: one straight-line shape for every
// type, its formula chosen by masks in the type's table entry. It pays for
// that generality on every value: every mask, four divisions, the options.
// A kernel knows its formula, so it does only that formula's work, in the
// same arithmetic order, for the inputs that are plainly valid: good
// CStatus, both samples where two are needed, counters and time stamps that
// moved forward, non-zero denominators. Any other input (a first sample, a
// reset, a 32-bit wrap, a zero time delta, a bad status, a negative inverse
// timer) goes to compute, which decides its status and value; so a kernel
// never has to know the status rules, only when an input is not plainly
// valid. TestKernelsMatchCompute and the properties check that both paths
// give the same bits.

// batchOptions are a batch's Options, prepared once per batch.
type batchOptions struct {
	opts  Options
	scale bool    // Scale
	limit float64 // 100 with Cap100, +Inf without: a percentage is min(v, limit)
	times float64 // 1000 with Times1000, else 1
}

func prepareOptions(opts Options) batchOptions {
	o := batchOptions{opts: opts, scale: opts&Scale != 0, limit: math.Inf(1), times: 1}
	if opts&Cap100 != 0 {
		o.limit = 100
	}
	if opts&Times1000 != 0 {
		o.times = 1000
	}
	return o
}

// finish applies Scale and Times1000 to a Valid value, as compute does
// (multiplying by 1 is exact, so Times1000 needs no branch).
func (o batchOptions) finish(v float64, s int32) float64 {
	if o.scale {
		v = scaleBy(v, s)
	}
	return v * o.times
}

// scaleBy multiplies v by 10^s, or divides it by 10^−s for a negative s,
// with s clamped to −10..10.
func scaleBy(v float64, s int32) float64 {
	s = min(max(s, -10), 10)
	if s < 0 {
		return v / pow10[-s&15]
	}
	return v * pow10[s&15]
}

// A kernel computes a run of inputs of one known type into out, from the
// start, and returns how many it computed: len(in), or the index of the
// first input that is not plainly valid, which runKernel hands to compute.
// Kernels call nothing that is not inlined, so that their loops keep
// everything in registers. runKernel (kernel_native.go) picks them.

// formulaOf returns the formula of t, fUnknown when t is not a known type.
func formulaOf(t CounterType) formula {
	info := &table[slot(t, hashMul)]
	if info.typ != t {
		return fUnknown
	}
	return info.formula
}

// deltas returns a 2-sample input's x = ΔN and y = ΔD (or ΔB), and a
// non-zero bad when the input is not plainly valid: a CStatus other than
// 0 and 1, no older sample, a counter or time stamp that did not move
// forward.
func deltas(c *Input) (x, y, bad uint64) {
	x, bx := bits.Sub64(c.New.FirstValue, c.Old.FirstValue, 0)
	_, forward := bits.Sub64(c.Old.SecondValue, c.New.SecondValue, 0) // 1 when D1 > D0
	bad = uint64((c.New.CStatus|c.Old.CStatus)>>1) | bx | (forward ^ 1) | (1 &^ b2u(c.HasOld))
	return x, c.New.SecondValue - c.Old.SecondValue, bad
}

// badF is 1 when the frequency cannot divide.
func badF(f int64) uint64 { return b2u(f <= 0) }

// kernelRaw: N1.
func kernelRaw(in []Input, o batchOptions, out []Result) int {
	out = out[:len(in)]
	for i := range in {
		c := &in[i]
		if c.New.CStatus>>1 != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(float64(c.New.FirstValue), c.Scale)}
	}
	return len(in)
}

// kernelDelta: ΔN, once ΔD > 0.
func kernelDelta(in []Input, o batchOptions, out []Result) int {
	out = out[:len(in)]
	for i := range in {
		c := &in[i]
		x, _, bad := deltas(c)
		if bad != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(float64(x), c.Scale)}
	}
	return len(in)
}

// kernelRate: ΔN / (ΔD / F).
func kernelRate(in []Input, o batchOptions, out []Result) int {
	out = out[:len(in)]
	for i := range in {
		c := &in[i]
		x, y, bad := deltas(c)
		if bad|badF(c.TimeBase) != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(float64(x)/(float64(y)/float64(c.TimeBase)), c.Scale)}
	}
	return len(in)
}

// kernelQuotient: ΔN / ΔD (queue lengths), ΔN / ΔB (average bulk).
func kernelQuotient(in []Input, o batchOptions, out []Result) int {
	out = out[:len(in)]
	for i := range in {
		c := &in[i]
		x, y, bad := deltas(c)
		if bad != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(float64(x)/float64(y), c.Scale)}
	}
	return len(in)
}

// kernelPercent: (ΔN / ΔD) * 100 (timers), (ΔN / ΔB) * 100 (precision
// timers, sample fractions).
func kernelPercent(in []Input, o batchOptions, out []Result) int {
	out = out[:len(in)]
	for i := range in {
		c := &in[i]
		x, y, bad := deltas(c)
		if bad != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(min(float64(x)/float64(y)*100, o.limit), c.Scale)}
	}
	return len(in)
}

// kernelInverse: 100 * (1 − ΔN / ΔD); a negative value (ΔN > ΔD) is
// compute's to report.
func kernelInverse(in []Input, o batchOptions, out []Result) int {
	out = out[:len(in)]
	for i := range in {
		c := &in[i]
		x, y, bad := deltas(c)
		v := (1 - float64(x)/float64(y)) * 100
		if bad|math.Float64bits(v)>>63 != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(min(v, o.limit), c.Scale)}
	}
	return len(in)
}

// multiFraction is a multi timer's (ΔN / ΔD) / B1, clamped to 1 when the
// exact fraction is at most 1 (see paramsFor).
func multiFraction(x, y uint64, mc uint32) float64 {
	q := float64(x) / float64(y) / float64(mc)
	if hi, lo := bits.Mul64(uint64(mc), y); hi != 0 || lo >= x {
		q = min(q, 1)
	}
	return q
}

// kernelMulti: ((ΔN / ΔD) / B1) * 100.
func kernelMulti(in []Input, o batchOptions, out []Result) int {
	out = out[:len(in)]
	for i := range in {
		c := &in[i]
		x, y, bad := deltas(c)
		mc := c.New.MultiCount
		if bad|isZero(uint64(mc)) != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(min(multiFraction(x, y, mc)*100, o.limit), c.Scale)}
	}
	return len(in)
}

// kernelMultiInverse: 100 * (1 − (ΔN / ΔD) / B1).
func kernelMultiInverse(in []Input, o batchOptions, out []Result) int {
	out = out[:len(in)]
	for i := range in {
		c := &in[i]
		x, y, bad := deltas(c)
		mc := c.New.MultiCount
		v := (1 - multiFraction(x, y, mc)) * 100
		if bad|isZero(uint64(mc))|math.Float64bits(v)>>63 != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(min(v, o.limit), c.Scale)}
	}
	return len(in)
}

// kernelRawFraction: (N1 / B1) * 100.
func kernelRawFraction(in []Input, o batchOptions, out []Result) int {
	out = out[:len(in)]
	for i := range in {
		c := &in[i]
		n1, b1 := c.New.FirstValue, c.New.SecondValue
		if uint64(c.New.CStatus>>1)|isZero(b1) != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(min(float64(n1)/float64(b1)*100, o.limit), c.Scale)}
	}
	return len(in)
}

// kernelAverageTimer: (ΔN / F) / ΔB.
func kernelAverageTimer(in []Input, o batchOptions, out []Result) int {
	out = out[:len(in)]
	for i := range in {
		c := &in[i]
		x, y, bad := deltas(c)
		if bad|badF(c.TimeBase) != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(float64(x)/float64(c.TimeBase)/float64(y), c.Scale)}
	}
	return len(in)
}

// kernelElapsed: (D1 − N1) / F.
func kernelElapsed(in []Input, o batchOptions, out []Result) int {
	out = out[:len(in)]
	for i := range in {
		c := &in[i]
		x, bx := bits.Sub64(c.New.SecondValue, c.New.FirstValue, 0)
		if uint64(c.New.CStatus>>1)|bx|badF(c.TimeBase) != 0 {
			return i
		}
		out[i] = Result{Value: o.finish(float64(x)/float64(c.TimeBase), c.Scale)}
	}
	return len(in)
}
