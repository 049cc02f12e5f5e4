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
func (b *Builder) AddCompact(src int, data []byte) error {
	return ParseCompact(data, func(e Entry) error {
		b.Add(src, e)
		return nil
	})
}

func lineError(line, off int, field, msg string, err error) error {
	return &engine.FormatError{Format: "translate", Record: "line", Index: line, Offset: int64(off), Field: field, Detail: msg, Err: err}
}

// parseLine reads one entry's line; it returns the name of the field at
// fault and what is wrong, or "".
func parseLine(text []byte) (Entry, string, string) {
	var f [5][]byte
	n := 0
	for start := 0; ; {
		i := bytes.IndexByte(text[start:], '\t')
		if n == len(f) {
			return Entry{}, "", "has more than 5 fields"
		}
		if i < 0 {
			f[n] = text[start:]
			n++
			break
		}
		f[n] = text[start : start+i]
		n++
		start += i + 1
	}
	if len(f[0]) != 1 {
		return Entry{}, "kind", "is not o, c or n"
	}
	e := Entry{Kind: Kind(f[0][0])}
	want := 4
	switch e.Kind {
	case Object, Any:
	case Counter:
		want = 5
	default:
		return Entry{}, "kind", "is not o, c or n"
	}
	if n != want {
		return Entry{}, "", "has " + strconv.Itoa(n) + " fields; a " + e.Kind.String() + " line has " + strconv.Itoa(want)
	}
	names := [...]string{"lang", "object", "English", "local"}
	fields := f[1:n]
	if e.Kind != Counter {
		names = [...]string{"lang", "English", "local", ""}
	}
	for i, v := range fields {
		if msg := checkField(v); msg != "" {
			return Entry{}, names[i], msg
		}
	}
	e.Lang = string(fields[0])
	if e.Kind == Counter {
		e.Object, fields = string(fields[1]), fields[1:]
	}
	e.English, e.Local = string(fields[1]), string(fields[2])
	return e, "", ""
}

func checkField(v []byte) string {
	switch {
	case len(v) == 0:
		return "is empty"
	case len(v) > counterpath.MaxLength:
		return "is longer than " + strconv.Itoa(counterpath.MaxLength) + " bytes"
	case !utf8.Valid(v):
		return "is not valid UTF-8"
	}
	for _, c := range v {
		if c < 0x20 || c == 0x7F {
			return "holds a control character"
		}
	}
	return ""
}
