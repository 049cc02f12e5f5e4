package longform

import "github.com/perfcalc/perfcalc/engine/blg"

// FILETIME units.
const (
	ticksPerMinute = 60 * 10_000_000
	// unixEpoch is 1970-01-01T00:00:00Z as a FILETIME (100 ns ticks since
	// 1601-01-01).
	unixEpoch = 116_444_736_000_000_000
)

// Clock turns the local FILETIMEs of a log's samples, in order, into UTC
// FILETIMEs: blg.Clock, which the WebAssembly module links too (the Python
// package's tables get the same instants as the Parquet output).
type Clock = blg.Clock

// NewClock returns a clock in a log's time zone (blg.NewClock).
func NewClock(tz *blg.TimeZone) *Clock { return blg.NewClock(tz) }

// FixedClock returns a clock whose bias never changes (blg.FixedClock).
func FixedClock(biasMinutes int32) *Clock { return blg.FixedClock(biasMinutes) }

// UnixMicros converts a FILETIME (UTC or local) to microseconds since
// 1970-01-01 in the same clock, rounding down.
func UnixMicros(ft int64) int64 {
	d := ft - unixEpoch
	q := d / 10
	if d%10 < 0 {
		q--
	}
	return q
}
