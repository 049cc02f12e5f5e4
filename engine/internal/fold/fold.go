// Package fold maps names to one case, so that names equal under PDH's
// case-insensitive comparison have the same bytes and can key a map.
package fold

import (
	"unicode"
	"unicode/utf8"
)

// Append appends s with every letter mapped to one case: the lower case of
// its upper case (Unicode's simple case mappings), so that "K", "k" and
// the Kelvin sign fold alike. ASCII takes a fast path.
func Append(dst []byte, s string) []byte {
	for _, r := range s {
		if r < utf8.RuneSelf {
			dst = append(dst, byte(Rune(r)))
			continue
		}
		dst = utf8.AppendRune(dst, Rune(r))
	}
	return dst
}

// Rune maps one rune as Append does (nametable compares UTF-16 names rune
// by rune with it).
func Rune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(unicode.ToUpper(r))
}
