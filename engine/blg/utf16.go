package blg

import "github.com/perfcalc/perfcalc/engine/internal/text"

// utf16String decodes the NUL-terminated UTF-16LE string at the start of b
// (or all of b when it holds no NUL) into a Go string.
func utf16String(b []byte) string {
	n, _ := text.UTF16Len(b)
	if n == 0 {
		return ""
	}
	return string(text.AppendUTF16(make([]byte, 0, n/2+n/4), b[:n]))
}
