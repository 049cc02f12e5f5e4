package counterlang

import (
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/translate"
)

// TablesCompact appends to dst, as lines of the compact form ("n"
// lines, lang in their lang field), the translations that a pair of name
// tables of one machine gives (en the English "Counter 009", local a table
// in another language): Build of the compact form and Build of the two
// tables translate every name alike. The pairs are translate.Builder.AddTables' (the
// texts of one index); an English name that no pair gives (its index not in local) is written as a
// line whose local name is the English one, so that it is English there
// too (translate.Builder.AddEnglish). Lines that would repeat one already written are left
// out, and so are names the compact form cannot hold (a control
// character, longer than its limit); skipped counts those. The header line
// is not written.
func TablesCompact(dst []byte, en, local *nametable.Table, lang string) (out []byte, lines, skipped int) {
	seen := map[string]bool{}
	paired := map[string]bool{} // English names a line marks as English
	var eb []byte
	add := func(english, loc string) {
		if english == "" || loc == "" {
			return
		}
		paired[english] = true
		if !fieldOK(english) || !fieldOK(loc) {
			skipped++
			return
		}
		e := translate.Entry{Kind: translate.Any, Lang: lang, English: english, Local: loc}
		n := len(dst)
		dst = translate.AppendCompact(dst, e)
		if seen[string(dst[n:])] {
			dst = dst[:n]
			return
		}
		seen[string(dst[n:])] = true
		lines++
	}
	translate.TablePairs(en, local, add)
	for i := 0; i < en.Len(); i++ {
		idx, et := en.Pair(i)
		if idx == 1 {
			continue // as AddEnglish
		}
		eb = et.AppendUTF8(eb[:0])
		if !paired[string(eb)] {
			add(string(eb), string(eb))
		}
	}
	return dst, lines, skipped
}

// fieldOK reports whether the compact form holds s as a field: valid
// UTF-8 without control characters, at most counterpath.MaxLength bytes
// (translate.ParseCompact's rule; s is not empty).
func fieldOK(s string) bool {
	return len(s) <= counterpath.MaxLength && utf8.ValidString(s) && !bad(s)
}
