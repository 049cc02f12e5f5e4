package logtext

import (
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine"
)

// AppendJSONString appends s as a JSON string: double quotes and
// backslashes escaped with a backslash, the other control characters
// (below U+0020) as \u00XX, invalid UTF-8 bytes as \ufffd; everything else,
// U+2028 and U+2029 included, as it is.
func AppendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '"' || b == '\\':
				dst = append(dst, '\\', b)
			case b < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			default:
				dst = append(dst, b)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return append(dst, '"')
}

// AppendJSONValue appends a value of a JSON row: the shortest decimal that
// reads back as the same float64 (engine.ShortestDigits; exponents have
// three digits, as in CSV) when valid, null when not.
func AppendJSONValue(dst []byte, v float64, valid bool) []byte {
	if !valid {
		return append(dst, "null"...)
	}
	return engine.AppendFloat(dst, v, engine.ShortestDigits)
}

// JSONRowEnd ends a JSON row that Times.AppendJSONRow began.
const JSONRowEnd = "}}\n"
