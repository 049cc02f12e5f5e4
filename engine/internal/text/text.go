// Package text holds the text primitives that perfcalc's decoders share:
// UTF-16LE as Windows stores names, the "#<index>" name of an index that a
// table lacks, and interning of names decoded again and again. One copy
// each, so that every decoder reads names alike (and the WebAssembly module
// carries one copy). Case folding is package fold's.
package text

import (
	"encoding/binary"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// UTF16Len returns the length in bytes of the NUL-terminated UTF-16LE
// string at the start of b, without the NUL, and whether a NUL was found.
// An odd trailing byte never belongs to the string.
func UTF16Len(b []byte) (n int, terminated bool) {
	for n+1 < len(b) {
		if b[n] == 0 && b[n+1] == 0 {
			return n, true
		}
		n += 2
	}
	return n, false
}

// DecodeUTF16 decodes the rune at code unit i of the UTF-16LE text b and
// returns it with the index of the next code unit; i must be below
// len(b)/2. An unpaired surrogate decodes as U+FFFD, as Go's unicode/utf16
// decodes it.
func DecodeUTF16(b []byte, i int) (rune, int) {
	u := rune(binary.LittleEndian.Uint16(b[2*i:]))
	if utf16.IsSurrogate(u) {
		if u < 0xDC00 && 2*i+3 < len(b) {
			if r := utf16.DecodeRune(u, rune(binary.LittleEndian.Uint16(b[2*i+2:]))); r != utf8.RuneError {
				return r, i + 2
			}
		}
		return utf8.RuneError, i + 1
	}
	return u, i + 1
}

// AppendUTF16 appends the UTF-8 form of the UTF-16LE text b (len(b)/2 code
// units; NULs included, an odd trailing byte ignored) to dst. Unpaired
// surrogates become U+FFFD.
func AppendUTF16(dst, b []byte) []byte { return AppendUTF16Units(dst, b, false) }

// AppendUTF16Name appends the UTF-8 form of the UTF-16LE name b, as
// AppendUTF16 does, but keeps every code unit: an unpaired surrogate is
// written as U+FFFD followed by its four lower-case hexadecimal digits
// (0xD800 → "\uFFFDd800"), and U+FFFD itself as "\uFFFDfffd", so that
// names that differ in their code units differ as strings, in valid
// UTF-8 (Windows allows any 16-bit units in instance names).
func AppendUTF16Name(dst, b []byte) []byte { return AppendUTF16Units(dst, b, true) }

// AppendUTF16Units is AppendUTF16Name when keep is set, else AppendUTF16.
// (One body for both, not inlined: the WebAssembly module carries one
// copy.)
//
//go:noinline
func AppendUTF16Units(dst, b []byte, keep bool) []byte {
	for i, n := 0, len(b)/2; i < n; {
		r, next := DecodeUTF16(b, i)
		dst = utf8.AppendRune(dst, r)
		if keep && r == utf8.RuneError {
			// Four digits: the units written are 0xD800 and above.
			dst = strconv.AppendUint(dst, uint64(binary.LittleEndian.Uint16(b[2*i:])), 16)
		}
		i = next
	}
	return dst
}

// AppendIndexName appends "#<index>", the name PDH gives an object or
// counter whose index (a V1 title index, a V2 counter id) has no name.
func AppendIndexName(dst []byte, index uint32) []byte {
	return strconv.AppendUint(append(dst, '#'), uint64(index), 10)
}

// maxIntern bounds the strings an Interner keeps; past it, it starts again.
const maxIntern = 1 << 16

// Interner returns a string for bytes, allocating only the first time a
// text is seen: decoders that name the same instances in capture after
// capture allocate nothing in the steady state. Its zero value is ready to
// use; it keeps at most 65,536 strings.
type Interner struct{ m map[string]string }

// String returns b as a string. (Not inlined: its map operations would
// cost the WebAssembly module about 1 KB at each call site.)
//
//go:noinline
func (in *Interner) String(b []byte) string {
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	if in.m == nil || len(in.m) >= maxIntern {
		in.m = make(map[string]string)
	}
	s := string(b)
	in.m[s] = s
	return s
}
