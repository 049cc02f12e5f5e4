package psexpr

import (
	"strings"
	"unicode/utf8"
)

// ParseNumber reads a PowerShell number literal: decimal digits with an
// optional fraction and exponent, and an optional size suffix KB, MB, GB,
// TB or PB (powers of 1024, any case). It reads numbers of up to 15
// significant digits with a decimal exponent within ±22, which it
// converts exactly rounded (all of PAL's); it refuses others rather than
// round them twice. (Not strconv.ParseFloat: its tables add 54 KB to the
// WebAssembly module.)
func ParseNumber(s string) (float64, bool) {
	mult := 1.0
	if len(s) > 2 {
		switch strings.ToLower(s[len(s)-2:]) {
		case "kb":
			mult = 1 << 10
		case "mb":
			mult = 1 << 20
		case "gb":
			mult = 1 << 30
		case "tb":
			mult = 1 << 40
		case "pb":
			mult = 1 << 50
		}
		if mult != 1 {
			s = s[:len(s)-2]
		}
	}
	var mant uint64
	digits, exp, i := 0, 0, 0
	sawDigit, sawDot := false, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			sawDigit = true
			if mant == 0 && c == '0' {
				if sawDot {
					exp--
				}
				continue
			}
			digits++
			if digits > 15 {
				return 0, false
			}
			mant = mant*10 + uint64(c-'0')
			if sawDot {
				exp--
			}
		case c == '.' && !sawDot:
			sawDot = true
		case c == 'e' || c == 'E':
			goto exponent
		default:
			return 0, false
		}
	}
	goto done
exponent:
	{
		if !sawDigit {
			return 0, false
		}
		i++
		neg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-'
			i++
		}
		if i == len(s) || len(s)-i > 3 {
			return 0, false
		}
		e := 0
		for ; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return 0, false
			}
			e = e*10 + int(s[i]-'0')
		}
		if neg {
			e = -e
		}
		exp += e
	}
done:
	if !sawDigit {
		return 0, false
	}
	if mant == 0 {
		return 0, true
	}
	// mant < 10^15 < 2^53 and 10^|exp| ≤ 10^22 are exact: one rounding.
	if exp < -22 || exp > 22 {
		return 0, false
	}
	f := float64(mant)
	if exp < 0 {
		f /= pow10[-exp]
	} else {
		f *= pow10[exp]
	}
	return f * mult, true
}

var pow10 = [23]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// Quote returns s in double quotes for an error message or a reason, with
// quotes (\"), control characters (\n, \r, \t, \xhh) and invalid UTF-8
// (\xhh) escaped. Backslashes are kept as written: the names quoted are
// counter paths and PowerShell code, full of them, and a reader compares
// them with the threshold file (\System\Processor Queue Length, not
// \\System\\Processor Queue Length). (Not strconv.Quote: its Unicode
// tables add 20 KB to the WebAssembly module.)
func Quote(s string) string {
	const hex = "0123456789abcdef"
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"':
			b = append(b, '\\', '"')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r == utf8.RuneError && n == 1, r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff:
			for k := 0; k < n; k++ {
				b = append(b, '\\', 'x', hex[s[i+k]>>4], hex[s[i+k]&15])
			}
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(append(b, '"'))
}
