package engine

import (
	"math"
	"math/bits"
	"testing"
)

// The plain loops below are the yardstick of ComputeBatch's speed (issue
// 14: within 2× of them on one-type slices, within 3× on a mix). Each is
// what a programmer would write for the job at hand: one case per type,
// branches for the statuses in their priority order, the options checked
// per value. They compute the same bits and statuses as ComputeBatch
// (TestPlainLoopsMatchComputeBatch), so that the comparison is fair.

// plainScale applies Scale and Times1000 the plain way.
func plainScale(v float64, s int32, opts Options) float64 {
	if opts&Scale != 0 {
		s = min(max(s, -10), 10)
		if s >= 0 {
			v *= pow10[s]
		} else {
			v /= pow10[-s]
		}
	}
	if opts&Times1000 != 0 {
		v *= 1000
	}
	return v
}

// plainDiff is b − a, with Wrap32 read as the options say, and whether it
// is negative.
func plainDiff(a, b uint64, canWrap bool, opts Options) (uint64, bool) {
	if a >= b {
		return a - b, false
	}
	if w := a + 1<<32 - b; canWrap && opts&Wrap32 != 0 && w < 1<<31 {
		return w, false
	}
	return 0, true
}

// plainRate is a plain loop over PERF_COUNTER_COUNTER-like (rate) inputs.
func plainRate(in []Input, opts Options, out []Result) {
	for i := range in {
		c := &in[i]
		var r Result
		dn, negN := plainDiff(c.New.FirstValue, c.Old.FirstValue, c.Type&sizeMask == sizeDword, opts)
		switch {
		case c.New.CStatus > 1 || c.HasOld && c.Old.CStatus > 1:
			r.Status = InvalidData
		case !c.HasOld:
			r.Status = NewData
		case c.New.SecondValue <= c.Old.SecondValue || c.TimeBase <= 0:
			r.Status = NegativeDenominator
		case negN:
			r.Status = NegativeValue
		default:
			v := float64(dn) / (float64(c.New.SecondValue-c.Old.SecondValue) / float64(c.TimeBase))
			r.Value = plainScale(v, c.Scale, opts)
		}
		out[i] = r
	}
}

// plainTimerInv is a plain loop over PERF_100NSEC_TIMER_INV-like inputs.
func plainTimerInv(in []Input, opts Options, out []Result) {
	for i := range in {
		c := &in[i]
		var r Result
		dn, negN := plainDiff(c.New.FirstValue, c.Old.FirstValue, c.Type&sizeMask == sizeDword, opts)
		switch {
		case c.New.CStatus > 1 || c.HasOld && c.Old.CStatus > 1:
			r.Status = InvalidData
		case !c.HasOld:
			r.Status = NewData
		case c.New.SecondValue <= c.Old.SecondValue:
			r.Status = NegativeDenominator
		case negN:
			r.Status = NegativeValue
		default:
			v := 100 * (1 - float64(dn)/float64(c.New.SecondValue-c.Old.SecondValue))
			if v < 0 {
				r.Status = NegativeValue
				break
			}
			if opts&Cap100 != 0 && v > 100 {
				v = 100
			}
			r.Value = plainScale(v, c.Scale, opts)
		}
		out[i] = r
	}
}

// plainMixed is a plain loop over inputs of any type: a switch on the type,
// one case per formula.
func plainMixed(in []Input, opts Options, out []Result) {
	for i := range in {
		out[i] = plainOne(&in[i], opts)
	}
}

func plainOne(c *Input, opts Options) Result {
	const (
		none = iota
		raw
		delta
		rate
		queuelen
		timer
		timerInv
		multiTimer
		multiTimerInv
		rawFraction
		averageTimer
		averageBulk
		elapsed
	)
	var kind int
	switch c.Type {
	case CounterCounter, CounterBulkCount, SampleCounter:
		kind = rate
	case CounterQueuelenType, CounterLargeQueuelenType, Counter100nsQueuelenType, CounterObjTimeQueuelenType:
		kind = queuelen
	case CounterTimer, Timer100ns, ObjTimeTimer, PrecisionSystemTimer, Precision100nsTimer, PrecisionObjectTimer, SampleFraction:
		kind = timer
	case CounterTimerInv, Timer100nsInv:
		kind = timerInv
	case CounterMultiTimer, MultiTimer100ns:
		kind = multiTimer
	case CounterMultiTimerInv, MultiTimer100nsInv:
		kind = multiTimerInv
	case RawFraction, LargeRawFraction:
		kind = rawFraction
	case AverageTimer:
		kind = averageTimer
	case AverageBulk:
		kind = averageBulk
	case ElapsedTime:
		kind = elapsed
	case CounterDelta, CounterLargeDelta:
		kind = delta
	case CounterRawcount, CounterLargeRawcount, CounterRawcountHex, CounterLargeRawcountHex:
		kind = raw
	case SampleBase, AverageBase, RawBase, LargeRawBase, CounterMultiBase, CounterText, CounterNodata, CounterHistogramType:
		return Result{Status: NotDisplayable}
	default:
		return Result{Status: UnknownType}
	}
	twoSample := kind != raw && kind != rawFraction && kind != elapsed
	if c.New.CStatus > 1 || twoSample && c.HasOld && c.Old.CStatus > 1 {
		return Result{Status: InvalidData}
	}
	if twoSample && !c.HasOld {
		return Result{Status: NewData}
	}
	n1, n0, d1, d0, f := c.New.FirstValue, c.Old.FirstValue, c.New.SecondValue, c.Old.SecondValue, c.TimeBase
	var v float64
	var negDen, negVal bool
	switch kind {
	case raw:
		v = float64(n1)
	case rawFraction:
		negDen = d1 == 0
		v = float64(n1) / float64(d1) * 100
	case elapsed:
		negDen, negVal = f <= 0, n1 > d1
		v = float64(d1-n1) / float64(f)
	default:
		dn, negN := plainDiff(n1, n0, c.Type&sizeMask == sizeDword, opts)
		baseWraps := kind == averageTimer || kind == averageBulk || c.Type == SampleFraction
		dd, negD := plainDiff(d1, d0, baseWraps, opts)
		negDen, negVal = negD || dd == 0, negN
		x, y := float64(dn), float64(dd)
		switch kind {
		case delta:
			v = x
		case rate:
			negDen = negDen || f <= 0
			v = x / (y / float64(f))
		case queuelen, averageBulk:
			v = x / y
		case timer:
			v = x / y * 100
		case timerInv:
			v = 100 * (1 - x/y)
		case multiTimer, multiTimerInv:
			mc := c.New.MultiCount
			negDen = negDen || mc == 0
			q := x / y / float64(mc)
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
			v = x / float64(f) / y
		}
	}
	switch {
	case negDen:
		return Result{Status: NegativeDenominator}
	case negVal || v < 0:
		return Result{Status: NegativeValue}
	}
	if opts&Cap100 != 0 && c.Type.Suffix() == Percent && v > 100 {
		v = 100
	}
	return Result{Value: plainScale(v, c.Scale, opts)}
}

// perturb makes every seventh input one that is not Valid, of each kind in
// turn, so that the statuses are compared too.
func perturb(ins []Input) []Input {
	for i := 0; i < len(ins); i += 7 {
		c := &ins[i]
		switch i / 7 % 7 {
		case 0:
			c.HasOld = false
		case 1:
			c.Old.FirstValue, c.New.FirstValue = c.New.FirstValue, c.Old.FirstValue
		case 2:
			c.New.SecondValue = c.Old.SecondValue
		case 3:
			c.New.CStatus = CStatusInvalidData
		case 4:
			c.Old.CStatus = CStatusNoMachine
		case 5:
			c.TimeBase = 0
		case 6:
			c.Old.FirstValue = c.New.FirstValue + 1<<32 - 5 // a 32-bit wrap
		}
	}
	return ins
}

func TestPlainLoopsMatchComputeBatch(t *testing.T) {
	mixed := perturb(mixedInputs(4000, 7))
	mixed[3].Type = 0x12345678
	rates, invs := perturb(typedInputs(CounterCounter, 1000, 7)), perturb(typedInputs(Timer100nsInv, 1000, 7))
	for _, opts := range []Options{0, Cap100 | Scale, Cap100 | Scale | Times1000 | Wrap32} {
		for _, tc := range []struct {
			name  string
			in    []Input
			plain func([]Input, Options, []Result)
		}{
			{"rate", rates, plainRate},
			{"inverse timer", invs, plainTimerInv},
			{"mixed", mixed, plainMixed},
		} {
			have, want := make([]Result, len(tc.in)), make([]Result, len(tc.in))
			tc.plain(tc.in, opts, have)
			ComputeBatch(tc.in, opts, want)
			for i := range have {
				if have[i].Status != want[i].Status || math.Float64bits(have[i].Value) != math.Float64bits(want[i].Value) {
					t.Fatalf("%s, options %b, input %d %+v: plain loop %v, ComputeBatch %v", tc.name, opts, i, tc.in[i], have[i], want[i])
				}
			}
		}
	}
}
