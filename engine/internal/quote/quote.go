// Package quote writes a string as a double-quoted Go string literal for
// error messages, without strconv.Quote: that one decides which runes are
// printable with Unicode tables that would add about 20 KB to the
// WebAssembly module.
//
// ASCII comes out exactly as strconv.Quote writes it. Other valid UTF-8 is
// kept as it is (counter and instance names in any language stay
// readable), except the runes that are invisible or reorder text (C1
// controls, zero-width and bidirectional marks, line and paragraph
// separators, the byte-order mark), which are escaped as \uXXXX so that a
// hostile name cannot disguise a message. Invalid UTF-8 bytes are written as
// \xNN. strconv.Unquote gives back the original string in every case.
package quote

import "unicode/utf8"

const hex = "0123456789abcdef"

// Quote returns s as a double-quoted Go string literal.
func Quote(s string) string { return quoteString(s, true) }

// Path returns s as AppendPath writes it.
func Path(s string) string { return quoteString(s, false) }

func quoteString(s string, escapeBackslash bool) string {
	return string(appendQuoted(make([]byte, 0, len(s)+2), s, escapeBackslash))
}

// Append appends s as a double-quoted Go string literal to dst.
func Append(dst []byte, s string) []byte { return appendQuoted(dst, s, true) }

// AppendPath appends s in double quotes as Append writes it, except that
// every backslash stays as it is: for counter paths and file names, whose
// backslashes are separators that a reader should see as given
// ("\\HOST\Processor(*)\% Processor Time", not doubled). It is not a Go
// literal: a double quote inside still comes out as \".
func AppendPath(dst []byte, s string) []byte { return appendQuoted(dst, s, false) }

// appendQuoted is Append, with backslashes escaped or not.
func appendQuoted(dst []byte, s string, escapeBackslash bool) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			esc := byte(0) // the letter of a backslash escape
			switch {
			case c == '"' || c == '\\' && escapeBackslash:
				esc = c
			case c >= ' ' && c != 0x7f:
				dst = append(dst, c)
				continue
			case c >= '\a' && c <= '\r': // \a \b \t \n \v \f \r
				esc = "abtnvfr"[c-'\a']
			}
			if esc != 0 {
				dst = append(dst, '\\', esc)
			} else {
				dst = append(dst, '\\', 'x', hex[c>>4], hex[c&15])
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, '\\', 'x', hex[c>>4], hex[c&15])
		} else if hidden(r) {
			dst = append(dst, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return append(dst, '"')
}

// hidden reports whether r is a control, format or separator rune that
// shows as nothing or changes how the text around it is laid out.
func hidden(r rune) bool {
	switch {
	case r <= 0x9f: // C1 controls (ASCII is handled by the caller)
		return true
	case r == 0xa0 || r == 0xad: // no-break space, soft hyphen
		return true
	case r == 0x061c: // Arabic letter mark
		return true
	case r >= 0x200b && r <= 0x200f: // zero-width space, joiners, LRM, RLM
		return true
	case r >= 0x2028 && r <= 0x202e: // line and paragraph separators, bidi embeddings
		return true
	case r >= 0x2060 && r <= 0x206f: // word joiner, invisible operators, bidi isolates
		return true
	case r == 0xfeff: // byte-order mark
		return true
	}
	return false
}

// AppendVisible appends s for a terminal or a plain-text listing, without
// quotes: control characters (\t \n \r … as Go writes them, the others
// as \xNN: ESC is \x1b, DEL \x7f), the runes hidden reports (\u0085,
// \u202e …) but the no-break space (which shows as a space), and invalid
// UTF-8 bytes (\xNN) are escaped as Append escapes them; everything else,
// backslashes and double quotes included, stays as it is. A hostile name
// then can neither send a terminal escape sequence, ring, return to the
// start of a line and overwrite it, nor forge a line or reorder the text
// around it. Not a Go literal: a name holding the text \x1b prints the
// same as one holding ESC. (A loop of its own rather than a mode of
// appendQuoted's, and at the file's end: the WebAssembly module links
// appendQuoted, and a mode cost it 1.7 KB.)
func AppendVisible(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= ' ' && c < 0x7f {
			dst = append(dst, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			if c >= '\a' && c <= '\r' { // \a \b \t \n \v \f \r
				dst = append(dst, '\\', "abtnvfr"[c-'\a'])
			} else {
				dst = append(dst, '\\', 'x', hex[c>>4], hex[c&15])
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, '\\', 'x', hex[c>>4], hex[c&15])
		case hidden(r) && r != 0xa0:
			dst = append(dst, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
		default:
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}
