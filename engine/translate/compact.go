package translate

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// CompactHeader is the first line of the compact form.
const CompactHeader = "perfcalc-names 1"

// The compact form (doc/FORMATS.md §3.4) is UTF-8 text, one translation per
// line, fields separated by one tab, lines ended by "\n" ("\r\n" read
// too), after the header line CompactHeader:
//
//	o <lang> <English object> <local object>
//	c <lang> <English object> <English counter> <local counter>
//	n <lang> <English name> <local name>
//
// Empty lines and lines that begin with "#" are skipped. Every field is
// non-empty, valid UTF-8 without control characters, at most
// counterpath.MaxLength bytes.

// AppendCompact appends e as a line of the compact form. It writes what
// ParseCompact reads back only for an entry that ParseCompact could have
// returned (names without tabs, control characters or line ends).
func AppendCompact(dst []byte, e Entry) []byte {
	dst = append(dst, byte(e.Kind), '\t')
	dst = append(dst, e.Lang...)
	dst = append(dst, '\t')
	if e.Kind == Counter {
		dst = append(dst, e.Object...)
		dst = append(dst, '\t')
	}
	dst = append(dst, e.English...)
	dst = append(dst, '\t')
	dst = append(dst, e.Local...)
	return append(dst, '\n')
}

// ParseCompact reads the compact form and calls fn with every entry, in
// order (fn's error stops it and is returned). A malformed line is an
// *engine.FormatError naming its line number and byte offset.
func ParseCompact(data []byte, fn func(Entry) error) error {
	line := 0
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end < 0 {
			end = len(data)
		} else {
			end += off
			next = end + 1
		}
		text := data[off:end]
		if len(text) > 0 && text[len(text)-1] == '\r' {
			text = text[:len(text)-1]
		}
		line++
		if line == 1 {
			if string(text) != CompactHeader {
				return lineError(line, off, "", `is not the header "`+CompactHeader+`"`, engine.ErrMalformed)
			}
		} else if len(text) > 0 && text[0] != '#' {
			e, field, msg := parseLine(text)
			if msg != "" {
				return lineError(line, off, field, msg, engine.ErrMalformed)
			}
			if err := fn(e); err != nil {
				return err
			}
		}
		off = next
	}
	if line == 0 {
		return lineError(1, 0, "", `empty: no header "`+CompactHeader+`"`, engine.ErrTruncated)
	}
	return nil
}

// AddCompact adds every entry of the compact form data from source src.
//
//go:noinline
func (b *Builder) AddCompact(src int, data []byte) error {
	return ParseCompact(data, func(e Entry) error {
		b.Add(src, e)
		return nil
	})
}

//go:noinline
func lineError(line, off int, field, msg string, err error) error {
	return &engine.FormatError{Format: "translate", Record: "line", Index: line, Offset: int64(off), Field: field, Detail: msg, Err: err}
}

// fieldNames name the fields after the kind, for errors: of o and n
// lines, and of c lines.
var fieldNames = [2][4]string{{"lang", "English", "local"}, {"lang", "object", "English", "local"}}

// parseLine reads one entry's line; it returns the name of the field at
// fault and what is wrong, or "".
func parseLine(text []byte) (Entry, string, string) {
	var f [5]string
	n := 0
	for {
		if n == len(f) {
			return Entry{}, "", "has more than 5 fields"
		}
		i := bytes.IndexByte(text, '\t')
		if i < 0 {
			f[n] = string(text)
			n++
			break
		}
		f[n] = string(text[:i])
		n++
		text = text[i+1:]
	}
	e := Entry{Kind: Counter}
	want, names := 5, fieldNames[1]
	switch f[0] {
	case "c":
	case "o", "n":
		e.Kind, want, names = Kind(f[0][0]), 4, fieldNames[0]
	default:
		return Entry{}, "kind", "is not o, c or n"
	}
	if n != want {
		return Entry{}, "", "has " + itoa(n) + " fields; a " + e.Kind.String() + " line has " + itoa(want)
	}
	for i := 1; i < n; i++ {
		if msg := checkField(f[i]); msg != "" {
			return Entry{}, names[i-1], msg
		}
	}
	e.Lang, e.English, e.Local = f[1], f[n-2], f[n-1]
	if e.Kind == Counter {
		e.Object = f[2]
	}
	return e, "", ""
}

// itoa is strconv.Itoa, not inlined (each inlined call costs the module
// hundreds of bytes).
//
//go:noinline
func itoa(n int) string { return strconv.Itoa(n) }

func checkField(v string) string {
	switch {
	case len(v) == 0:
		return "is empty"
	case len(v) > counterpath.MaxLength:
		return "is longer than " + itoa(counterpath.MaxLength) + " bytes"
	case !utf8.ValidString(v):
		return "is not valid UTF-8"
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c == 0x7F {
			return "holds a control character"
		}
	}
	return ""
}
