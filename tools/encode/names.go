package encode

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// NameTablePair is one index/text pair of a name table.
type NameTablePair struct {
	Index uint32 // the title index, written in decimal
	Text  string // the name or help text: not empty, valid UTF-8, without NUL
}

// NameTable describes a "Counter <lang>" or "Help <lang>" REG_MULTI_SZ
// value (doc/FORMATS.md §3.1): its pairs, written in the given order (Windows
// writes them in increasing index order, and repeated indexes are allowed).
type NameTable struct {
	Pairs []NameTablePair
	// OmitFinalNUL leaves out the final extra NUL, as some producers do;
	// nametable.Parse tolerates it. A table without pairs is still written
	// as its single NUL.
	OmitFinalNUL bool
}

// EncodeNameTable returns the REG_MULTI_SZ bytes that t describes (see
// AppendNameTable).
func EncodeNameTable(t *NameTable) ([]byte, error) { return AppendNameTable(nil, t) }

// AppendNameTable appends the UTF-16LE REG_MULTI_SZ "index\0text\0…\0\0"
// that t describes to dst. A text that is empty (an empty string would end
// the list), holds a NUL or is not valid UTF-8 cannot be encoded: the
// error names the pair, and dst is returned as it was.
func AppendNameTable(dst []byte, t *NameTable) ([]byte, error) {
	start := len(dst)
	var num [10]byte
	for i, p := range t.Pairs {
		if err := ntCheckText(p.Text); err != "" {
			return dst[:start], errors.New("encode: name table pair " + strconv.Itoa(i) + " (index " + strconv.FormatUint(uint64(p.Index), 10) + "): text " + err)
		}
		for _, c := range strconv.AppendUint(num[:0], uint64(p.Index), 10) {
			dst = append(dst, c, 0)
		}
		dst = append(dst, 0, 0)
		dst = ntAppendUTF16(dst, p.Text)
		dst = append(dst, 0, 0)
	}
	if !t.OmitFinalNUL || len(t.Pairs) == 0 {
		dst = append(dst, 0, 0)
	}
	return dst, nil
}

// ntCheckText returns why s cannot be a name table text, or "".
func ntCheckText(s string) string {
	switch {
	case s == "":
		return "is empty"
	case !utf8.ValidString(s):
		return "is not valid UTF-8"
	}
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return "holds a NUL"
		}
	}
	return ""
}

// ntAppendUTF16 appends s as UTF-16LE, without a NUL.
func ntAppendUTF16(dst []byte, s string) []byte {
	for _, r := range s {
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			dst = append(dst, byte(r1), byte(r1>>8), byte(r2), byte(r2>>8))
			continue
		}
		dst = append(dst, byte(r), byte(r>>8))
	}
	return dst
}
