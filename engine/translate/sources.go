package translate

import (
	"github.com/perfcalc/perfcalc/engine/internal/heapsort"
	"github.com/perfcalc/perfcalc/engine/nametable"
)

// Source is one translation source as perfcalc --names-lang reads them
// (doc/COMMANDS.md §7.1): a name table ("Counter 009", "Counter 007", …),
// the compact form, or entries read elsewhere (CounterLang.xml, which the
// engine does not parse).
type Source struct {
	// Name names the source in notes, errors and ambiguities (a file
	// name, "the name table of de.blg").
	Name string
	// Data is a name table (nametable.IsTable) or the compact form; nil
	// when Entries holds the source.
	Data []byte
	// Entries are the source's entries when Data is nil.
	Entries []Entry
	// Embedded marks a name table that the input holds (a Vista-era
	// log's): a damaged one is left out with a note, not an error.
	Embedded bool
}

// SourceError is the error of a source that Build could not read.
type SourceError struct {
	_      [0]func() // not comparable: no equality function in the module
	Source string    // the Source's Name
	Table  bool      // the source is a name table
	Err    error
}

// Error returns "<source>: <error>".
func (e *SourceError) Error() string { return e.Source + ": " + e.Err.Error() }

// Unwrap returns the source's error.
func (e *SourceError) Unwrap() error { return e.Err }

// Build builds the table of sources as perfcalc --names-lang does: the
// name-table pairs first (each table in another language than English
// with the first English one, the tables the input holds before those
// given), then the compact forms and entries in the order given. It
// returns notes on the sources left out: a damaged table the input holds,
// tables in another language without an English one. A table with no
// source at all has Sources() == 0.
func Build(srcs []Source) (*Table, []string, error) {
	type table struct {
		_    [0]func()
		t    *nametable.Table
		from string
	}
	var english, local []table
	var notes []string
	for _, s := range srcs {
		if s.Data == nil || !nametable.IsTable(s.Data) {
			continue
		}
		t, err := nametable.Parse(s.Data)
		if err != nil && s.Embedded {
			// A damaged table in the input: relog leaves it too.
			notes = append(notes, s.Name+" is not used: "+err.Error())
			continue
		}
		if err != nil {
			return nil, nil, &SourceError{Source: s.Name, Table: true, Err: err}
		}
		if IsEnglish(t) {
			english = append(english, table{t: t, from: s.Name})
		} else {
			local = append(local, table{t: t, from: s.Name})
		}
	}
	var b Builder
	for _, e := range english {
		// Its names are English: kept, and not listed as unknown.
		b.AddEnglish(b.Source(e.from), e.t)
	}
	if len(local) > 0 && len(english) == 0 {
		for _, l := range local {
			notes = append(notes, l.from+" is a name table in another language than English and is not used: give the same machine's English \"Counter 009\" table with --names-file")
		}
	} else {
		for _, l := range local {
			b.AddTables(b.Source(l.from+" with "+english[0].from), english[0].t, l.t, "")
		}
	}
	for _, s := range srcs {
		if s.Data != nil && nametable.IsTable(s.Data) {
			continue
		}
		src := b.Source(s.Name)
		if s.Data == nil {
			for _, e := range s.Entries {
				b.Add(src, e)
			}
			continue
		}
		if err := b.AddCompact(src, s.Data); err != nil {
			return nil, nil, &SourceError{Source: s.Name, Err: err}
		}
	}
	return b.Table(), notes, nil
}

// Namer translates the names of one run (relog.Options.Rename) and
// remembers the names it met, for the list of those not translated. It is
// not safe for concurrent use (the module has one thread, and a Mutex
// would cost it 6 KB): a caller that renames from several goroutines locks
// around Rename.
type Namer struct {
	tab *Table
	met []Met
}

// Met is a name a Namer met and its translation.
type Met struct {
	_      [0]func() // not comparable: no equality function in the module
	Kind   Kind
	Object string // a counter's object, as translated
	Local  string // the name as met
	Name   Name
}

// NewNamer returns a Namer over t.
func NewNamer(t *Table) *Namer { return &Namer{tab: t} }

// Rename translates an object and a counter of it ("*": the object alone)
// and records both.
func (n *Namer) Rename(object, counter string) (string, string) {
	o := n.tab.Object(object)
	n.note(Object, "", object, o)
	if counter == "*" {
		return o.Text, counter
	}
	c := n.tab.Counter(o.Text, counter)
	n.note(Counter, o.Text, counter, c)
	return o.Text, c.Text
}

// note records a name unless it is the last one recorded (the columns of
// one counter's instances come one after the other).
//
//go:noinline
func (n *Namer) note(kind Kind, object, local string, t Name) {
	for i := len(n.met) - 1; i >= 0 && i >= len(n.met)-2; i-- {
		if m := &n.met[i]; m.Kind == kind && m.Local == local && m.Object == object {
			return
		}
	}
	n.met = append(n.met, Met{Kind: kind, Object: object, Local: local, Name: t})
}

// Met returns the names met so far, in the order met; a name may be
// there more than once.
func (n *Namer) Met() []Met { return n.met }

// Unknown returns the names met that were not translated, sorted (byte
// order), each once: "object Foo", "counter Bar (of Processor)", with "
// (ambiguous in SOURCE)" where a source maps the name to two English
// names. This is the list perfcalc --names-lang prints on standard error.
func (n *Namer) Unknown() []string {
	var out []string
	for _, s := range n.met {
		if s.Name.Status != Unknown && s.Name.Status != Ambiguous {
			continue
		}
		t := s.Kind.String() + " " + s.Local
		if s.Kind == Counter {
			t += " (of " + s.Object + ")"
		}
		if s.Name.Status == Ambiguous {
			t += " (ambiguous in " + n.tab.Source(s.Name.Source) + ")"
		}
		out = append(out, t)
	}
	heapsort.Sort(len(out), func(i, j int) bool { return out[i] < out[j] }, func(i, j int) { out[i], out[j] = out[j], out[i] })
	k := 0
	for i, t := range out {
		if i == 0 || t != out[k-1] {
			out[k] = t
			k++
		}
	}
	return out[:k]
}
