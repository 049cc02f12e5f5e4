package counterpath

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// ListError is a counter file's line that is not a counter path: the
// 1-based line number and Parse's error.
type ListError struct {
	Line int
	Err  error
}

func (e *ListError) Error() string { return "line " + strconv.Itoa(e.Line) + ": " + e.Err.Error() }

func (e *ListError) Unwrap() error { return e.Err }

// ParseList reads a counter file as relog's and typeperf's -cf read it:
// one counter path per line (Parse's syntax, wildcards allowed). Lines
// end with LF or CR LF; white space around a path is trimmed; blank lines
// and lines whose first non-blank character is "#" are ignored. The text
// is UTF-8, or UTF-16 when it starts with a byte-order mark (Notepad's
// "Unicode" files); a UTF-8 byte-order mark is skipped. The first line
// that is not a path is a *ListError.
func ParseList(text []byte) ([]Path, error) {
	s, err := listText(text)
	if err != nil {
		return nil, &ListError{Line: 1, Err: err}
	}
	var paths []Path
	for line := 1; len(s) > 0; line++ {
		var l string
		l, s = cutLine(s)
		l = trimBlank(l)
		if l == "" || l[0] == '#' {
			continue
		}
		p, err := Parse(l)
		if err != nil {
			return nil, &ListError{Line: line, Err: err}
		}
		paths = append(paths, p)
	}
	return paths, nil
}

var (
	errOddUTF16 = errors.New("counterpath: a UTF-16 counter file with an odd number of bytes")
	errEncoding = errors.New("counterpath: a counter file that is neither UTF-8 nor UTF-16 with a byte-order mark")
)

// listText returns a counter file's text as UTF-8.
func listText(b []byte) (string, error) {
	switch {
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		return string(b[3:]), nil
	case len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF):
		if len(b)%2 != 0 {
			return "", errOddUTF16
		}
		little := b[0] == 0xFF
		u := make([]uint16, 0, len(b)/2-1)
		for i := 2; i+1 < len(b); i += 2 {
			if little {
				u = append(u, uint16(b[i])|uint16(b[i+1])<<8)
			} else {
				u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
			}
		}
		return string(utf16.Decode(u)), nil
	}
	if !utf8.Valid(b) {
		return "", errEncoding
	}
	return string(b), nil
}

// cutLine returns the first line of s without its LF or CR LF, and the rest.
func cutLine(s string) (line, rest string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			line, rest = s[:i], s[i+1:]
			if len(line) > 0 && line[len(line)-1] == '\r' {
				line = line[:len(line)-1]
			}
			return line, rest
		}
	}
	return s, ""
}

// trimBlank trims ASCII spaces and tabs (and a stray CR) at both ends.
func trimBlank(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[0] == '\r') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}
