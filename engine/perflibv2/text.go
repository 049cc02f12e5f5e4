package perflibv2

import (
	"encoding/binary"

	"github.com/perfcalc/perfcalc/engine/internal/text"
)

// Text is a view of a UTF-16LE string in the input (an instance name, a
// counter name of a string buffer), without its terminating NUL. It aliases
// the caller's bytes and is valid while they are. Its length is even.
type Text []byte

// Len returns the number of UTF-16 code units.
func (t Text) Len() int { return len(t) / 2 }

// AppendUTF16 appends the code units to dst and returns the extended slice.
func (t Text) AppendUTF16(dst []uint16) []uint16 {
	for i := 0; i+1 < len(t); i += 2 {
		dst = append(dst, binary.LittleEndian.Uint16(t[i:]))
	}
	return dst
}

// AppendUTF8 appends the text as UTF-8 to dst and returns the extended
// slice; unpaired surrogates become U+FFFD. It allocates only when dst
// lacks capacity.
func (t Text) AppendUTF8(dst []byte) []byte { return text.AppendUTF16(dst, t) }

// String returns the text as a UTF-8 Go string (it allocates).
func (t Text) String() string { return string(t.AppendUTF8(make([]byte, 0, len(t)/2))) }

// cstring returns the NUL-terminated UTF-16LE string that starts at b[0]
// (within b), and whether its NUL was found.
func cstring(b []byte) (Text, bool) {
	for i := 0; i+1 < len(b); i += 2 {
		if b[i] == 0 && b[i+1] == 0 {
			return Text(b[:i:i]), true
		}
	}
	return nil, false
}
