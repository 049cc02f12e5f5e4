package wintype

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine/internal/fold"
	"github.com/perfcalc/perfcalc/engine/internal/text"
)

// Text is a view of a UTF-16LE string as Windows stores names (a name
// table's entry, a V2 instance name, a counter name of a V2 string buffer):
// code units without the terminating NUL. It aliases the decoder's input
// and is valid while that is. The decoders hand out Texts of even length;
// an odd trailing byte is ignored.
type Text []byte

// Len returns the number of UTF-16 code units.
func (t Text) Len() int { return len(t) / 2 }

// Unit returns the i-th UTF-16 code unit; i must be below Len.
func (t Text) Unit(i int) uint16 { return binary.LittleEndian.Uint16(t[2*i:]) }

// AppendUTF16 appends the code units to dst and returns the extended slice.
func (t Text) AppendUTF16(dst []uint16) []uint16 {
	for i := 0; i+1 < len(t); i += 2 {
		dst = append(dst, binary.LittleEndian.Uint16(t[i:]))
	}
	return dst
}

// AppendUTF8 appends the text as UTF-8 to dst and returns the extended
// slice. An unpaired surrogate becomes U+FFFD. It allocates only when dst
// lacks capacity.
func (t Text) AppendUTF8(dst []byte) []byte {
	return text.AppendUTF16(dst, t)
}

// AppendName appends the text as UTF-8 as AppendUTF8 does, but keeps every
// code unit, as instance names need: an unpaired surrogate is written as
// U+FFFD and its four hex digits, and U+FFFD itself as U+FFFD FFFD
// (doc/FORMATS.md §3.3), so two names that differ only there stay apart.
func (t Text) AppendName(dst []byte) []byte { return text.AppendUTF16Name(dst, t) }

// String returns the text as a UTF-8 Go string (it allocates).
func (t Text) String() string { return string(t.AppendUTF8(make([]byte, 0, len(t)/2))) }

// Equal reports whether the text equals s exactly.
func (t Text) Equal(s string) bool { return t.compare(s, false) == 0 }

// EqualFold reports whether the text equals s case-insensitively as PDH
// compares names: by Unicode simple case mapping, each rune folded to the
// lower case of its upper case ("Pages/sec" matches "PAGES/SEC", the Kelvin
// sign matches K, "ß" does not match "SS"); unpaired surrogates compare as
// U+FFFD.
func (t Text) EqualFold(s string) bool { return t.compare(s, true) == 0 }

// CompareFold compares the text with s as EqualFold does, rune by rune
// after folding, and returns −1, 0 or +1: the order in which a name table
// sorts its names for case-insensitive lookup. It allocates nothing.
func (t Text) CompareFold(s string) int { return t.compare(s, true) }

// compare compares the text with s rune by rune (after folding when fold
// is set) and returns −1, 0 or +1. Invalid UTF-8 in s decodes as U+FFFD.
func (t Text) compare(s string, foldCase bool) int {
	i, j := 0, 0
	n := len(t) / 2
	for i < n && j < len(s) {
		var a, b rune
		if u, c := t[2*i], s[j]; t[2*i+1] == 0 && u < utf8.RuneSelf && c < utf8.RuneSelf {
			// ASCII on both sides: the common case, without decoding.
			a, b = rune(u), rune(c)
			i++
			j++
		} else {
			a, i = text.DecodeUTF16(t, i)
			var w int
			b, w = utf8.DecodeRuneInString(s[j:])
			j += w
		}
		if foldCase {
			a, b = fold.Rune(a), fold.Rune(b)
		}
		if a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	switch {
	case i < n:
		return 1
	case j < len(s):
		return -1
	}
	return 0
}
