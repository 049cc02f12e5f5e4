package perfdata

import (
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/internal/text"
)

// Code pages of PERF_OBJECT_TYPE.CodePage that perfcalc decodes. Any other
// value is reported with engine.ErrUnsupported, never guessed.
const (
	CodePageUTF16   = 0     // instance names are UTF-16LE (the usual case)
	CodePageUTF16LE = 1200  // Windows' identifier of UTF-16LE, read like 0
	CodePage1252    = 1252  // Windows-1252 (Western European)
	CodePageLatin1  = 28591 // ISO 8859-1
	CodePageASCII   = 20127 // US-ASCII; bytes above 0x7F become U+FFFD
	CodePageUTF8    = 65001 // UTF-8; invalid sequences become U+FFFD
)

// SupportedCodePage reports whether names in code page cp can be decoded.
func SupportedCodePage(cp uint32) bool {
	switch cp {
	case CodePageUTF16, CodePageUTF16LE, CodePage1252, CodePageLatin1, CodePageASCII, CodePageUTF8:
		return true
	}
	return false
}

// cp1252 maps the bytes 0x80–0x9F of Windows-1252. The five bytes that the
// code page leaves undefined map to the C1 control of the same value, as
// Windows' MultiByteToWideChar does.
var cp1252 = [32]rune{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}

// AppendName appends the instance's name, decoded to UTF-8, to dst and
// returns the extended buffer. The name ends at its first NUL. A UTF-16
// name keeps every code unit (text.AppendUTF16Name: an unpaired surrogate
// is written U+FFFD and its four hexadecimal digits, U+FFFD itself
// U+FFFD fffd); invalid UTF-8 becomes U+FFFD. A code page that
// SupportedCodePage refuses is a *engine.FormatError wrapping
// engine.ErrUnsupported that names it. AppendName allocates nothing when
// dst has room.
func (in *Instance) AppendName(dst []byte) ([]byte, error) {
	return appendName(dst, in.name, in.CodePage, in.obj, in.objOff)
}

// Name returns the instance's name as a string (see AppendName).
func (in *Instance) Name() (string, error) {
	var buf [128]byte
	b, err := in.AppendName(buf[:0])
	return string(b), err
}

func appendName(dst, raw []byte, cp uint32, obj int, objOff uint64) ([]byte, error) {
	switch cp {
	case CodePageUTF16, CodePageUTF16LE:
		return appendUTF16(dst, raw, true), nil
	case CodePage1252, CodePageLatin1, CodePageASCII:
		for _, c := range raw {
			switch {
			case c == 0:
				return dst, nil
			case c < 0x80:
				dst = append(dst, c)
			case cp == CodePageASCII:
				dst = utf8.AppendRune(dst, utf8.RuneError)
			case cp == CodePage1252 && c < 0xA0:
				dst = utf8.AppendRune(dst, cp1252[c-0x80])
			default:
				dst = utf8.AppendRune(dst, rune(c))
			}
		}
		return dst, nil
	case CodePageUTF8:
		for len(raw) > 0 && raw[0] != 0 {
			r, n := utf8.DecodeRune(raw)
			if r == utf8.RuneError && n <= 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, raw[:n]...)
			}
			raw = raw[n:]
		}
		return dst, nil
	}
	return dst, errAt("PERF_OBJECT_TYPE", obj, objOff+44, "CodePage", u64(uint64(cp))+" is not supported (supported: 0, 1200, 1252, 20127, 28591, 65001)", engine.ErrUnsupported)
}

// appendUTF16 appends the UTF-16LE text in raw, up to its first NUL, as
// UTF-8: with every code unit kept for a name (text.AppendUTF16Name), else
// with unpaired surrogates as U+FFFD.
func appendUTF16(dst, raw []byte, name bool) []byte {
	n, _ := text.UTF16Len(raw)
	return text.AppendUTF16Units(dst, raw[:n], name)
}
