package engine

import (
	"math"
	"strconv"
)

// AppendValue appends the text of a computed value to dst, as relog prints
// it: C's %.17g (which strconv's 'g' format with precision 17 matches), or,
// for the HEX types (PERF_COUNTER_RAWCOUNT_HEX and
// PERF_COUNTER_LARGE_RAWCOUNT_HEX), 0x followed by upper-case hexadecimal
// digits of the integer value. A result that is not Valid appends a single
// space, as relog's CSV does for a cell without a value. It allocates
// nothing when dst has room.
func AppendValue(dst []byte, t CounterType, r Result) []byte {
	if r.Status != Valid {
		return append(dst, ' ')
	}
	if t.IsHex() {
		return AppendHex(dst, r.Value)
	}
	return strconv.AppendFloat(dst, r.Value, 'g', 17, 64)
}

// AppendFloat appends v as C's %.17g would print it.
func AppendFloat(dst []byte, v float64) []byte {
	return strconv.AppendFloat(dst, v, 'g', 17, 64)
}

// AppendHex appends the integer value of v (a raw count, so a whole number
// from 0 to 2^64) as 0x and upper-case hexadecimal digits. Values the raw
// count cannot take are clamped to that range.
func AppendHex(dst []byte, v float64) []byte {
	var u uint64
	switch {
	case !(v > 0): // also NaN
		u = 0
	case v >= 1<<64:
		u = math.MaxUint64
	default:
		u = uint64(v)
	}
	dst = append(dst, "0x"...)
	var buf [16]byte
	i := len(buf)
	for {
		i--
		buf[i] = "0123456789ABCDEF"[u&0xF]
		u >>= 4
		if u == 0 {
			break
		}
	}
	return append(dst, buf[i:]...)
}
