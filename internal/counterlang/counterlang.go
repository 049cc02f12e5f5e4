// Package counterlang reads PAL's CounterLang.xml, the table of
// performance-object and counter names in 17 locales, into the entries of
// package translate's compact form. It uses encoding/xml, which the
// engine and the module cannot afford: the command links it, the module
// takes the compact form it writes. TablesCompact writes a machine's
// pair of name tables in the compact form too (perfcalc names --compact
// of tables), here rather than in package translate so that the module,
// which links translate, does not grow.
//
// CounterLang.xml is <CounterLang> holding <CounterObject> elements whose
// attributes are the object's name per locale (enUS="Processor"
// deDE="Prozessor" …), each holding <CounterName> elements whose
// attributes are a counter's name per locale.
//
// # Security
//
// The file is untrusted input: the decoder (encoding/xml) is bounded by the
// caller's limit on the file's size; an element or attribute out of place
// is an error naming its line.
package counterlang

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/perfcalc/perfcalc/engine/translate"
)

// English is the locale of English names.
const English = "enUS"

// IsCounterLang reports whether data begins as CounterLang.xml does: an
// XML declaration or the <CounterLang> element (after a BOM and spaces).
func IsCounterLang(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	data = bytes.TrimLeft(data, " \t\r\n")
	return bytes.HasPrefix(data, []byte("<?xml")) || bytes.HasPrefix(data, []byte("<CounterLang"))
}

// Read reads CounterLang.xml and returns its translations: for every
// object and every locale but enUS, an Object entry, and for every counter
// a Counter entry scoped by its object's English name; a locale whose
// every name is the English one is left out. Entries are in the file's order, locales
// sorted within an element.
func Read(r io.Reader) ([]translate.Entry, error) {
	d := xml.NewDecoder(r)
	var out []translate.Entry
	var object map[string]string // the current object's names
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("CounterLang: %w", err)
		}
		line, _ := d.InputPos()
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case depth == 1 && t.Name.Local == "CounterLang":
			case depth == 2 && t.Name.Local == "CounterObject":
				object = attrs(t)
				if object[English] == "" {
					return nil, fmt.Errorf("CounterLang: line %d: CounterObject without %s", line, English)
				}
				out = appendEntries(out, translate.Object, "", object)
			case depth == 3 && t.Name.Local == "CounterName" && object != nil:
				names := attrs(t)
				if names[English] == "" {
					return nil, fmt.Errorf("CounterLang: line %d: CounterName without %s", line, English)
				}
				out = appendEntries(out, translate.Counter, object[English], names)
			default:
				return nil, fmt.Errorf("CounterLang: line %d: unexpected element <%s>", line, t.Name.Local)
			}
		case xml.EndElement:
			depth--
			if depth == 1 {
				object = nil
			}
		}
	}
	// A locale whose every name is the English one (jaJP, koKR, ruRU and
	// zhCN in PAL's file) translates nothing: left out. Other locales keep
	// their names equal to the English ones: in a table of that locale
	// alone (perfcalc names --compact --lang), they say those names are
	// known, not unknown.
	differs := map[string]bool{}
	for _, e := range out {
		if e.Local != e.English {
			differs[e.Lang] = true
		}
	}
	kept := out[:0]
	for _, e := range out {
		if differs[e.Lang] {
			kept = append(kept, e)
		}
	}
	if len(kept) == 0 {
		return nil, errors.New("CounterLang: no translations")
	}
	return kept, nil
}

func attrs(t xml.StartElement) map[string]string {
	m := make(map[string]string, len(t.Attr))
	for _, a := range t.Attr {
		m[a.Name.Local] = strings.TrimSpace(a.Value)
	}
	return m
}

func appendEntries(out []translate.Entry, kind translate.Kind, object string, names map[string]string) []translate.Entry {
	langs := make([]string, 0, len(names))
	for l := range names {
		if l != English {
			langs = append(langs, l)
		}
	}
	sort.Strings(langs)
	en := names[English]
	for _, l := range langs {
		if v := names[l]; v != "" {
			out = append(out, translate.Entry{Kind: kind, Lang: l, Object: object, English: en, Local: v})
		}
	}
	return out
}

// Compact returns entries in the compact form (translate.ParseCompact),
// leaving out those whose fields the form cannot hold (a tab or another
// control character), which it counts.
func Compact(entries []translate.Entry) ([]byte, int) {
	b := append([]byte(translate.CompactHeader), '\n')
	skipped := 0
	for _, e := range entries {
		if bad(e.Lang) || bad(e.Object) || bad(e.English) || bad(e.Local) {
			skipped++
			continue
		}
		b = translate.AppendCompact(b, e)
	}
	return b, skipped
}

func bad(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7F {
			return true
		}
	}
	return false
}
