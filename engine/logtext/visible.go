package logtext

import "github.com/perfcalc/perfcalc/engine/internal/quote"

// AppendVisible appends a name (a counter path, a machine, an analysis or
// threshold name) for a listing people read in a terminal: control
// characters (ESC as \x1b, CR as \r, DEL as \x7f …), C1 controls and the
// runes that are invisible or reorder text (\u0085, \u200b, \u202e, \ufeff
// …) and invalid UTF-8 bytes are escaped, as Go's strconv writes them;
// the rest, backslashes and quotes included, stays as it is, so that a
// name without them prints unchanged. A name from an untrusted log or
// threshold file then cannot send escape sequences to the terminal,
// overwrite or forge a line, or disguise itself. Every plain-text listing
// of perfcalc (analyze -f text, stats, relog -q, values' and show's
// tables, watch -q) writes names through it; CSV, TSV and JSON quote them
// as their formats do instead.
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
