package properties

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/perfcalc/perfcalc/engine/translate"
	"github.com/perfcalc/perfcalc/internal/counterlang"
)

// namePair is one generated translation: an object (Counter false) or a
// counter of object Object.
type namePair struct {
	Counter        bool
	Object         string
	English, Local string
}

// nameGen draws names from a small alphabet, so that collisions (two
// English names with one translation, a translation that is another English
// name) happen often.
func nameGen(prefix string) gopter.Gen {
	return gen.IntRange(0, 11).Map(func(i int) string { return prefix + string(rune('a'+i)) })
}

func pairGen() gopter.Gen {
	return gopter.CombineGens(gen.Bool(), nameGen("O"), nameGen("E"), nameGen("L")).Map(func(v []interface{}) namePair {
		return namePair{Counter: v[0].(bool), Object: v[1].(string), English: v[2].(string), Local: v[3].(string)}
	})
}

// TestPropertyTranslateRoundTrip: English → local → English for every
// pair whose local name one English name has (in its scope), and every
// other pair is reported as ambiguous, never guessed.
func TestPropertyTranslateRoundTrip(t *testing.T) {
	props := gopter.NewProperties(parameters())
	props.Property("unambiguous pairs round-trip; ambiguous ones are reported", prop.ForAll(
		func(pairs []namePair) bool {
			var b translate.Builder
			src := b.Source("gen")
			englishOf := map[string]map[string]bool{} // scope\x00local → English names
			for _, p := range pairs {
				e := translate.Entry{Kind: translate.Object, Lang: "xx", English: p.English, Local: p.Local}
				scope := ""
				if p.Counter {
					e.Kind, e.Object, scope = translate.Counter, p.Object, p.Object
				}
				b.Add(src, e)
				k := scope + "\x00" + p.Local
				if englishOf[k] == nil {
					englishOf[k] = map[string]bool{}
				}
				englishOf[k][p.English] = true
			}
			tab := b.Table()
			amb := map[string]bool{}
			for _, a := range tab.Ambiguities() {
				amb[a.Object+"\x00"+a.Local] = true
			}
			for _, p := range pairs {
				scope := ""
				var n translate.Name
				if p.Counter {
					scope = p.Object
					n = tab.Counter(p.Object, p.Local)
				} else {
					n = tab.Object(p.Local)
				}
				k := scope + "\x00" + p.Local
				switch {
				case n.Status == translate.English:
					// Locals are "L…", English names "E…": never English.
					return false
				case len(englishOf[k]) == 1:
					if n.Status != translate.Translated || n.Text != p.English || amb[k] {
						return false
					}
				default:
					if n.Status != translate.Ambiguous || n.Text != p.Local || !amb[k] {
						return false
					}
				}
				// English names stay as they are.
				if p.Counter && tab.Counter(p.Object, p.English).Status != translate.English ||
					!p.Counter && tab.Object(p.English).Status != translate.English {
					return false
				}
			}
			return true
		}, gen.SliceOf(pairGen())))
	props.TestingRun(t)
}

// TestCounterLangRoundTrip: every name of PAL's CounterLang.xml, in every
// locale, translates back to its English name, except the ambiguous ones,
// which are reported (their figures are logged: doc/FORMATS.md §3.4).
func TestCounterLangRoundTrip(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "pal", "CounterLang.xml")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("PAL's CounterLang.xml is not at %s (the shared folder): %v", path, err)
	}
	defer f.Close()
	entries, err := counterlang.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	byLang := map[string][]translate.Entry{}
	for _, e := range entries {
		byLang[e.Lang] = append(byLang[e.Lang], e)
	}
	langs := make([]string, 0, len(byLang))
	for l := range byLang {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, lang := range langs {
		var b translate.Builder
		src := b.Source("CounterLang " + lang)
		for _, e := range byLang[lang] {
			b.Add(src, e)
		}
		tab := b.Table()
		amb := map[string]bool{}
		for _, a := range tab.Ambiguities() {
			amb[string(a.Kind)+a.Object+"\x00"+strings.ToLower(a.Local)] = true
		}
		translated, english, ambiguous := 0, 0, 0
		for _, e := range byLang[lang] {
			var n translate.Name
			if e.Kind == translate.Object {
				n = tab.Object(e.Local)
			} else {
				n = tab.Counter(e.Object, e.Local)
			}
			switch n.Status {
			case translate.Translated:
				translated++
				if !strings.EqualFold(n.Text, e.English) {
					t.Errorf("%s %s %q: have %q, want %q", lang, e.Kind, e.Local, n.Text, e.English)
				}
			case translate.English:
				// The localized name is the English one (kept: it round-
				// trips), or another English name of the same scope (kept,
				// as PDH would name that one).
				if strings.EqualFold(e.Local, e.English) {
					translated++
					break
				}
				english++
			case translate.Ambiguous:
				ambiguous++
				if !amb[string(e.Kind)+e.Object+"\x00"+strings.ToLower(e.Local)] {
					t.Errorf("%s %s %q: ambiguous but not reported", lang, e.Kind, e.Local)
				}
			default:
				t.Errorf("%s %s %q: %v", lang, e.Kind, e.Local, n.Status)
			}
		}
		for _, a := range tab.Ambiguities() {
			t.Logf("  %s ambiguous: %s %q: %q", lang, a.Object, a.Local, a.English)
		}
		t.Logf("%s: %d names, %d translated back, %d ambiguous (%d pairs reported), %d another English name", lang, len(byLang[lang]), translated, ambiguous, len(tab.Ambiguities()), english)
		if translated < len(byLang[lang])*9/10 {
			t.Errorf("%s: only %d of %d names translated back", lang, translated, len(byLang[lang]))
		}
	}
}
