package engine

import (
	"math"
	"strconv"
)

// Digits of the value text. PDH writes a value as C's %.<digits>g with
// Microsoft's C runtime, whose exponent always has at least three digits.
const (
	// DefaultDigits is what current Windows writes (Windows 10 and 11,
	// 2021 onwards): %.20g, e.g. 44.997307068154057674.
	DefaultDigits = 20
	// LegacyDigits is what Windows wrote before about 2020: %.17g, e.g.
	// 44.997307068154058.
	LegacyDigits = 17
	// MaxDigits is the largest number of significant digits AppendFloat
	// prints.
	MaxDigits = 20
	// ShortestDigits asks AppendFloat for the shortest text that reads
	// back as the same float64 (what JSON outputs use).
	ShortestDigits = -1
)

// AppendValue appends the text of a computed value to dst as PDH writes
// it in its CSV and TSV logs: AppendFloat with the given digits, or, for
// the HEX types (PERF_COUNTER_RAWCOUNT_HEX and
// PERF_COUNTER_LARGE_RAWCOUNT_HEX), 0x followed by upper-case hexadecimal
// digits of the integer value. A result that is not Valid appends a single
// space, as PDH's CSV does for a cell without a value. It allocates
// nothing when dst has room.
func AppendValue(dst []byte, t CounterType, r Result, digits int) []byte {
	if r.Status != Valid {
		return append(dst, ' ')
	}
	if t.IsHex() {
		return AppendHex(dst, r.Value)
	}
	return AppendFloat(dst, r.Value, digits)
}

// AppendFloat appends v as Microsoft's C runtime prints it with
// printf("%.<digits>g"): the exact decimal value of the double correctly
// rounded (ties to even) to digits significant digits, trailing zeros
// removed, in fixed notation when the decimal exponent X satisfies
// −4 ≤ X < digits and in exponent notation otherwise, the exponent written
// with at least three digits:
//
//	AppendFloat(nil, 6.55e-5, 20)  // 6.5500000000000006459e-005
//	AppendFloat(nil, 6.55e-5, 17)  // 6.5500000000000006e-005
//	AppendFloat(nil, 1<<63, 17)    // 9.2233720368547758e+018
//	AppendFloat(nil, 100, 20)      // 100
//
// digits is clamped to 1..MaxDigits, except ShortestDigits, which prints
// the fewest digits that read back as v, in fixed notation from 0.0001 up
// to 10^17 and in exponent notation otherwise (6.55e-005). NaN
// and ±Inf, which no computation returns, print as Go's strconv does. It
// allocates nothing when dst has room.
//
// At 17 and 20 digits it takes about 25 ns per value on real data, 2 to 4
// times less than strconv.AppendFloat's %g (which it uses where its own
// error bound cannot decide a rounding: formatdigits.go).
func AppendFloat(dst []byte, v float64, digits int) []byte {
	start := len(dst)
	switch {
	case digits != ShortestDigits:
		prec := min(max(digits, 1), MaxDigits)
		if n := len(dst); cap(dst)-n >= 64 {
			// In place, in dst's room: no copy (in WebAssembly a copy
			// is a call).
			if k := formatG((*[64]byte)(dst[n:n+64]), v, prec); k > 0 {
				return dst[:n+k]
			}
		} else {
			var out [64]byte
			if k := formatG(&out, v, prec); k > 0 {
				return append(dst, out[:k]...)
			}
		}
		dst = strconv.AppendFloat(dst, v, 'g', prec, 64)
	case v == 0 || math.Abs(v) >= 1e-4 && math.Abs(v) < 1e17:
		return strconv.AppendFloat(dst, v, 'f', -1, 64)
	default:
		dst = strconv.AppendFloat(dst, v, 'e', -1, 64)
	}
	return widenExponent(dst, start)
}

// widenExponent pads a two-digit exponent at the end of dst[start:] to
// three digits, as Microsoft's C runtime writes it (e-05 becomes e-005);
// strconv writes two or three.
func widenExponent(dst []byte, start int) []byte {
	n := len(dst)
	if n-start < 4 || dst[n-4] != 'e' {
		return dst
	}
	return append(dst[:n-2], '0', dst[n-2], dst[n-1])
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
