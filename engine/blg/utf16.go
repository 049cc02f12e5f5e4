package blg

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// utf16Len returns the length in bytes of the NUL-terminated UTF-16LE string
// at the start of b, without the NUL, and whether a NUL was found. An odd
// trailing byte never belongs to the string.
func utf16Len(b []byte) (n int, terminated bool) {
	for n+1 < len(b) {
		if b[n] == 0 && b[n+1] == 0 {
			return n, true
		}
		n += 2
	}
	return n, false
}

// appendUTF16 appends the UTF-8 form of the UTF-16LE string b (an even
// number of bytes, no NUL) to dst. Unpaired surrogates become U+FFFD, as
// Go's unicode/utf16 decodes them.
func appendUTF16(dst, b []byte) []byte {
	for i := 0; i+1 < len(b); i += 2 {
		r := rune(binary.LittleEndian.Uint16(b[i:]))
		if utf16.IsSurrogate(r) {
			if r < 0xDC00 && i+3 < len(b) {
				r2 := rune(binary.LittleEndian.Uint16(b[i+2:]))
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					dst = utf8.AppendRune(dst, d)
					i += 2
					continue
				}
			}
			r = utf8.RuneError
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// utf16String decodes the NUL-terminated UTF-16LE string at the start of b
// (or all of b when it holds no NUL) into a Go string.
func utf16String(b []byte) string {
	n, _ := utf16Len(b)
	if n == 0 {
		return ""
	}
	return string(appendUTF16(make([]byte, 0, n/2+n/4), b[:n]))
}
