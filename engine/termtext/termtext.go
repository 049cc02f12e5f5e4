// Package termtext writes names for the listings people read in a
// terminal: analyze's text summary, the tables of stats, values and show,
// paths, relog -q, watch -q. A name there is escaped as Go's strconv
// escapes it (ESC as \x1b, CR as \r, DEL as \x7f, U+202E as \u202e), so
// that it can neither send escape sequences to the terminal nor forge a
// line; a name without such characters prints unchanged. The data formats
// (CSV, TSV, JSON: package logtext) quote names as their formats do
// instead.
//
// It imports only the standard library (without fmt and os) and perfcalc's
// engine; the main WebAssembly module does not link it (its size test
// holds it byte for byte), the analyze module through Report.AppendText.
//
// # Security
//
// Names come from untrusted logs, captures and threshold files. Every
// control character (C0, DEL, C1), every rune that is invisible or
// reorders text (zero-width and bidirectional marks, line and paragraph
// separators, the byte-order mark, the soft hyphen) and every invalid
// UTF-8 byte is escaped; the no-break space, which shows as a space, is
// kept. Backslashes are kept too (counter paths hold them), so the escaped
// text is not a Go literal: a name holding the text \x1b prints the same
// as one holding ESC.
package termtext

import "github.com/perfcalc/perfcalc/engine/internal/quote"

// AppendVisible appends name (a counter path, a machine, an analysis or
// threshold name) escaped for a terminal listing (the package's overview
// says how) to dst.
func AppendVisible(dst []byte, name string) []byte { return quote.AppendVisible(dst, name) }

// Visible returns name as AppendVisible appends it (name itself when it
// needs no escape).
func Visible(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < ' ' || c >= 0x7f {
			return string(AppendVisible(nil, name))
		}
	}
	return name
}
