package blg

// Clock turns the local FILETIMEs of a log's samples, in order, into UTC
// FILETIMEs. It is not safe for concurrent use: it remembers the previous
// instant to settle ambiguous local times.
type Clock struct {
	tz    *TimeZone // nil: a fixed bias
	bias  int64     // the fixed bias, minutes (UTC = local + bias)
	prev  int64
	begun bool
}

// NewClock returns a clock in a log's time zone (the log header's, with its
// daylight rules).
func NewClock(tz *TimeZone) *Clock { return &Clock{tz: tz} }

// FixedClock returns a clock whose bias never changes: UTC = local +
// biasMinutes.
func FixedClock(biasMinutes int32) *Clock { return &Clock{bias: int64(biasMinutes)} }

// UTC converts a local FILETIME. Where the zone's rules give it two
// readings (the hour repeated when daylight time ends) it returns the
// earliest that is not before the previous call's result; where they give
// none (the hour skipped when daylight time starts) it uses the standard
// bias.
func (c *Clock) UTC(local int64) int64 {
	if c.tz == nil {
		return local + c.bias*ticksPerMinute
	}
	std := int64(c.tz.Bias) + int64(c.tz.StandardBias)
	dst := int64(c.tz.Bias) + int64(c.tz.DaylightBias)
	// A reading is consistent when the bias in force at its instant is
	// the bias it was made with.
	var cands [2]int64
	n := 0
	for _, b := range [2]int64{dst, std} {
		u := local + b*ticksPerMinute
		if got, _ := c.tz.BiasAt(u); int64(got) == b {
			cands[n] = u
			n++
		}
		if dst == std {
			break
		}
	}
	var u int64
	switch {
	case n == 0:
		u = local + std*ticksPerMinute
	case n == 1:
		u = cands[0]
	default:
		lo, hi := min(cands[0], cands[1]), max(cands[0], cands[1])
		u = lo
		if c.begun && lo < c.prev {
			u = hi
		}
	}
	c.prev, c.begun = u, true
	return u
}

// Bias converts local as UTC does and returns the bias that it applied, in
// minutes (UTC = local + bias).
func (c *Clock) Bias(local int64) int32 {
	return int32((c.UTC(local) - local) / ticksPerMinute)
}
