package translate

import (
	"strings"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/internal/fold"
	"github.com/perfcalc/perfcalc/engine/nametable"
)

// Kind says what a name is: an object, a counter of an object, or a
// name-table name (an object or a counter of any object).
type Kind uint8

// The kinds of names.
const (
	Object  Kind = 'o'
	Counter Kind = 'c'
	Any     Kind = 'n'
)

// String returns "object", "counter" or "name".
func (k Kind) String() string {
	switch k {
	case Object:
		return "object"
	case Counter:
		return "counter"
	case Any:
		return "name"
	}
	return "kind ?" // not string(rune(k)): it links runtime.intstring into the module
}

// Entry is one translation: the English name of a localized one.
type Entry struct {
	_    [0]func() // not comparable: no equality function in the module
	Kind Kind
	// Lang is the language of Local as its source names it ("deDE" in
	// CounterLang.xml, "007" for a "Counter 007" table); informative only.
	Lang string
	// Object is, for a Counter, the English name of its object; empty
	// otherwise.
	Object string
	// English and Local are the name in English and in Lang.
	English, Local string
}

// Status says how a name was translated.
type Status uint8

// The statuses of a translated name.
const (
	// Unknown: no source knows the name; it is kept as it is.
	Unknown Status = iota
	// English: the name is already an English name; kept.
	English
	// Translated: the name was translated.
	Translated
	// Ambiguous: the source that knows the name maps it to two English
	// names; it is kept as it is.
	Ambiguous
)

// String returns "unknown", "english", "translated" or "ambiguous".
func (s Status) String() string {
	switch s {
	case English:
		return "english"
	case Translated:
		return "translated"
	case Ambiguous:
		return "ambiguous"
	}
	return "unknown"
}

// Name is one name's translation.
type Name struct {
	_      [0]func() // not comparable: no equality function in the module
	Text   string    // the English name, or the name as given
	Status Status
	Source int // the rank of the source that translated it (Table.Source), or −1
}

// Ambiguity is a localized name that one source maps to two English names.
type Ambiguity struct {
	_              [0]func() // not comparable: no equality function in the module
	Kind           Kind
	Source         int
	Lang           string
	Object         string // the English object of a counter
	Local          string
	English, Other string // the first two English names met
}

// target is what a localized name translates to.
type target struct {
	_         [0]func() // not comparable: no equality function in the module
	english   string
	source    int
	ambiguous bool
}

// Builder collects translations from sources. The zero value is ready to
// use.
type Builder struct {
	sources []string
	english map[string]bool // scope keys of English names
	// targets maps the keys of localized names (appendKey) to their
	// translations: tag 'O' an object (fold(local object)), 'C' a counter
	// of an object (fold(English object) \x00 fold(local counter)), 'N' a
	// name-table name or a counter of any object (fold(local name)). One
	// map, not three: the module's size.
	targets map[string]*target
	amb     []Ambiguity
	key     []byte
}

// Source registers a source by the name reports give it (a file name, "the
// log's name table", …) and returns its rank: sources added first win.
func (b *Builder) Source(name string) int {
	b.sources = append(b.sources, name)
	return len(b.sources) - 1
}

//go:noinline
func (b *Builder) init() {
	if b.english == nil {
		b.english = map[string]bool{}
		b.targets = map[string]*target{}
	}
}

// Add adds one translation from source src (a rank that Source returned).
// Entries with an empty English or Local name are ignored.
func (b *Builder) Add(src int, e Entry) {
	if e.English == "" || e.Local == "" {
		return
	}
	b.init()
	// The English name is English in its scopes: an object's ('o'), a
	// counter's in its object ('c') and in any object ('n'); a name-table
	// name is both an object's and a counter's.
	if e.Kind != Counter {
		b.markEnglish('o', "", e.English)
	} else {
		b.markEnglish('c', e.Object, e.English)
	}
	if e.Kind != Object {
		b.markEnglish('n', "", e.English)
	}
	if e.Kind == Counter {
		b.put('C', e.Object, src, e, true)
	} else {
		b.put('O', "", src, e, true)
	}
	if e.Kind != Object {
		// The fallback for a counter whose object is not known: its
		// ambiguities (one localized name, two objects' English
		// counters) are marked, not reported.
		b.put('N', "", src, e, false)
	}
}

// appendKey appends the key of a name in a scope: a tag byte (0: none),
// the folded object and a NUL when object is not empty, then the folded
// name.
func appendKey(k []byte, tag byte, object, name string) []byte {
	if tag != 0 {
		k = append(k, tag, 0)
	}
	if object != "" {
		k = fold.Append(k, object)
		k = append(k, 0)
	}
	return fold.Append(k, name)
}

// markEnglish marks name as English in a scope (appendKey's tag and
// object).
//
//go:noinline
func (b *Builder) markEnglish(tag byte, object, name string) {
	b.key = appendKey(b.key[:0], tag, object, name)
	b.english[string(b.key)] = true
}

// put adds e's translation of its local name in a scope (appendKey's tag
// and object) to the targets;
// where the same source gave the key another English name, the key
// becomes ambiguous, and report lists it.
func (b *Builder) put(tag byte, object string, src int, e Entry, report bool) {
	m := b.targets
	b.key = appendKey(b.key[:0], tag, object, e.Local)
	t, ok := m[string(b.key)]
	if !ok {
		m[string(b.key)] = &target{english: e.English, source: src}
		return
	}
	if src < t.source {
		*t = target{english: e.English, source: src} // the source of lower rank wins
		return
	}
	if src > t.source || t.english == e.English || t.ambiguous {
		return
	}
	if strings.EqualFold(t.english, e.English) {
		return
	}
	t.ambiguous = true
	if !report {
		return
	}
	b.amb = append(b.amb, Ambiguity{Kind: e.Kind, Source: src, Lang: e.Lang, Object: e.Object, Local: e.Local, English: t.english, Other: e.English})
}

// AddTables adds the pairs of two name tables of one machine: en is the
// English "Counter 009" table, local a "Counter <lang>" table (lang names
// it, e.g. "007"); the texts of one index are one name. Indexes that only
// one table has are skipped. It returns the number of pairs added.
func (b *Builder) AddTables(src int, en, local *nametable.Table, lang string) int {
	n := 0
	TablePairs(en, local, func(english, loc string) {
		b.Add(src, Entry{Kind: Any, Lang: lang, English: english, Local: loc})
		n++
	})
	return n
}

// TablePairs calls pair with the English and local texts of every index
// that both name tables have, in local's order; index 1's number ("1" →
// "<Base Index>") is not a name and is skipped.
func TablePairs(en, local *nametable.Table, pair func(english, local string)) {
	var eb, lb []byte
	for i := 0; i < local.Len(); i++ {
		idx, lt := local.Pair(i)
		et, ok := en.Lookup(idx)
		if !ok {
			continue
		}
		eb, lb = et.AppendUTF8(eb[:0]), lt.AppendUTF8(lb[:0])
		if idx == 1 && len(lb) > 0 && lb[0] >= '0' && lb[0] <= '9' {
			continue
		}
		pair(string(eb), string(lb))
	}
}

// AddEnglish marks every name of an English name table as English (kept
// as it is, not listed as unknown), as source src. It returns the number
// of names.
func (b *Builder) AddEnglish(src int, en *nametable.Table) int {
	b.init()
	var eb []byte
	n := 0
	for i := 0; i < en.Len(); i++ {
		idx, t := en.Pair(i)
		if idx == 1 {
			continue
		}
		eb = t.AppendUTF8(eb[:0])
		b.markEnglish('o', "", string(eb))
		b.markEnglish('n', "", string(eb))
		n++
	}
	return n
}

// IsEnglish reports whether a name table is an English ("Counter 009")
// one: index 238 is "Processor" and index 6 "% Processor Time", as on
// every Windows since NT.
func IsEnglish(t *nametable.Table) bool {
	p, ok1 := t.Lookup(238)
	c, ok2 := t.Lookup(6)
	return ok1 && ok2 && p.EqualFold("Processor") && c.EqualFold("% Processor Time")
}

// Table returns the translations added so far. The Table shares the
// Builder's maps: translations added afterwards change it too (the module
// adds each source of names_load so, and uses the Table only between
// them); a Table whose Builder is not used again does not change.
func (b *Builder) Table() *Table {
	b.init()
	return &Table{sources: b.sources, english: b.english, targets: b.targets, amb: b.amb}
}

// Table translates localized names to English. It is immutable and safe
// for concurrent use.
type Table struct {
	sources []string
	english map[string]bool
	targets map[string]*target
	amb     []Ambiguity
}

// Source returns the name of the source of rank i ("" when out of range).
func (t *Table) Source(i int) string {
	if i < 0 || i >= len(t.sources) {
		return ""
	}
	return t.sources[i]
}

// Sources returns the number of sources.
func (t *Table) Sources() int { return len(t.sources) }

// Ambiguities returns the localized names a source maps to two English
// names, in the order met; they are never translated.
func (t *Table) Ambiguities() []Ambiguity { return t.amb }

// Len returns the number of localized object, counter and name-table
// names the table translates (ambiguous ones included).
func (t *Table) Len() int { return len(t.targets) }

// find returns the target of name in a scope (appendKey's tag and
// object), or nil.
//
//go:noinline
func (t *Table) find(tag byte, object, name string) *target {
	var buf [128]byte
	return t.targets[string(appendKey(buf[:0], tag, object, name))]
}

// isEnglish reports whether name is English in a scope (appendKey's tag
// and object).
//
//go:noinline
func (t *Table) isEnglish(tag byte, object, name string) bool {
	var buf [128]byte
	return t.english[string(appendKey(buf[:0], tag, object, name))]
}

// Object translates an object name.
func (t *Table) Object(name string) Name {
	if t.isEnglish('o', "", name) {
		return Name{Text: name, Status: English, Source: -1}
	}
	return pick(name, t.find('O', "", name), t.find('N', "", name))
}

// Counter translates the name of a counter of the object whose English
// name is object (as Object returned it).
func (t *Table) Counter(object, name string) Name {
	if t.isEnglish('c', object, name) || t.isEnglish('n', "", name) {
		return Name{Text: name, Status: English, Source: -1}
	}
	return pick(name, t.find('C', object, name), t.find('N', "", name))
}

// pick returns the translation of the source of lower rank, the scoped one
// (a) where both have the same rank.
//
//go:noinline
func pick(name string, a, b *target) Name {
	if a == nil || b != nil && b.source < a.source {
		a = b
	}
	switch {
	case a == nil:
		return Name{Text: name, Status: Unknown, Source: -1}
	case a.ambiguous:
		return Name{Text: name, Status: Ambiguous, Source: a.source}
	}
	return Name{Text: a.english, Status: Translated, Source: a.source}
}

// Path translates the object and the counter of a counter path
// (\\machine\object(instance)\counter), keeping every other byte of it.
// A path that counterpath.Parse refuses is returned unchanged with an
// error.
func (t *Table) Path(path string) (string, Name, Name, error) {
	p, err := counterpath.Parse(path)
	if err != nil {
		return path, Name{Text: "", Source: -1}, Name{Text: "", Source: -1}, err
	}
	start := 0
	if strings.HasPrefix(path, `\\`) {
		start = 2 + len(p.Machine)
	}
	start++ // the \ before the object
	obj := t.Object(p.Object)
	ctr := t.Counter(obj.Text, p.Counter)
	if obj.Text == p.Object && ctr.Text == p.Counter {
		return path, obj, ctr, nil
	}
	mid := path[start+len(p.Object) : len(path)-len(p.Counter)]
	return path[:start] + obj.Text + mid + ctr.Text, obj, ctr, nil
}
