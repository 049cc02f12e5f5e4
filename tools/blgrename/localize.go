package blgrename

import (
	"strings"

	"github.com/perfcalc/perfcalc/engine/translate"
)

// Localizer renames English names into one language of a translation
// table (CounterLang.xml's entries): objects by their translation,
// counters by their object's (the counter list) or by the one translation
// every object gives the counter (the name table, which does not say
// which object a counter belongs to), as a machine of that language would
// name them.
//
// Where the table gives two English names one translation (French "Taille
// virtuelle (octets)" is both "Virtual Bytes" and "Virtual Bytes Peak"), a
// real machine has two names: the Localizer keeps such names in English
// (Dropped counts them) rather than make a log no Windows writes.
type Localizer struct {
	Objects  map[string]string // English object → local
	Counters map[string]string // English object \x00 English counter → local
	Global   map[string]string // English counter → local
	Dropped  int
}

// NewLocalizer returns the Localizer of language lang ("deDE") of es.
func NewLocalizer(es []translate.Entry, lang string) *Localizer {
	l := &Localizer{Objects: map[string]string{}, Counters: map[string]string{}, Global: map[string]string{}}
	for _, e := range es {
		if e.Lang != lang {
			continue
		}
		switch e.Kind {
		case translate.Object:
			l.Objects[e.English] = e.Local
		case translate.Counter:
			l.Counters[e.Object+"\x00"+e.English] = e.Local
			if g, ok := l.Global[e.English]; !ok {
				l.Global[e.English] = e.Local
			} else if g != e.Local {
				l.Global[e.English] = ""
			}
		}
	}
	// A local name of two English names, in any scope: kept in English.
	english := map[string]map[string]bool{}
	for _, m := range []map[string]string{l.Objects, l.Counters, l.Global} {
		for k, v := range m {
			if english[v] == nil {
				english[v] = map[string]bool{}
			}
			english[v][k[strings.IndexByte(k, 0)+1:]] = true
		}
	}
	for _, m := range []map[string]string{l.Objects, l.Counters, l.Global} {
		for k, v := range m {
			if v == "" || len(english[v]) > 1 {
				delete(m, k)
				l.Dropped++
			}
		}
	}
	return l
}

// Names returns the renaming of Rewrite that localizes a log.
func (l *Localizer) Names() Names {
	return Names{
		Object: func(o string) string {
			if v, ok := l.Objects[o]; ok {
				return v
			}
			return o
		},
		Counter: func(o, c string) string {
			if v, ok := l.Counters[o+"\x00"+c]; ok {
				return v
			}
			return c
		},
		Table: func(s string) string {
			if v, ok := l.Objects[s]; ok {
				return v
			}
			if v, ok := l.Global[s]; ok {
				return v
			}
			return s
		},
	}
}
