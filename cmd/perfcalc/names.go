package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/termtext"
	"github.com/perfcalc/perfcalc/engine/translate"
	"github.com/perfcalc/perfcalc/internal/counterlang"
)

// namesHelp is the paragraph the help texts of the commands that print
// paths give --names-lang (doc/COMMANDS.md §7.1).
const namesHelp = `--names-lang en translates localized object and counter names to English
(\Prozessor(_Total)\Prozessorzeit (%) to \Processor(_Total)\% Processor Time)
from the name table a log or capture embeds and the --names-file files
(repeatable: PAL's CounterLang.xml, perfcalc's compact form, or name tables,
English "Counter 009" with "Counter 007", …); -c then matches the English
names. Names no source knows are kept and listed on standard error;
--names-report also lists every translation and its source.
`

// namesFlags are --names-lang, --names-file and --names-report.
type namesFlags struct {
	lang   string
	files  []string
	report bool
}

// register adds the flags to fs.
func (n *namesFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&n.lang, "names-lang", "", "translate object and counter names to this language (en: English)")
	fs.Func("names-file", "a translation source for --names-lang: CounterLang.xml, perfcalc-names compact form, or a name table (\"Counter 009\", \"Counter 007\", …); repeatable", func(v string) error {
		if v == "" {
			return fmt.Errorf("empty file name")
		}
		n.files = append(n.files, v)
		return nil
	})
	fs.BoolVar(&n.report, "names-report", false, "with --names-lang: list every translation and its source on standard error")
}

// check refuses the flags' mistakes.
func (n *namesFlags) check() error {
	switch {
	case n.lang == "" && (len(n.files) > 0 || n.report):
		return &usageError{"--names-file and --names-report need --names-lang en"}
	case n.lang != "" && !strings.EqualFold(n.lang, "en"):
		return &usageError{"--names-lang " + n.lang + ": only en (English) is a target language"}
	}
	return nil
}

// inputs lists the files the flags read, for checkNotInput.
func (n *namesFlags) inputs() []namedInput {
	ins := make([]namedInput, len(n.files))
	for i, f := range n.files {
		ins[i] = namedInput{f, "--names-file"}
	}
	return ins
}

// namesLimit bounds a --names-file: CounterLang.xml is 1.6 MB.
var namesLimit = inputLimit{64 << 20, "a --names-file"}

// namer translates the names of one run (translate.Namer, which the
// module uses too) and keeps the notes on the sources left out.
type namer struct {
	*translate.Namer
	mu  sync.Mutex // around Rename: translate.Namer is not safe for concurrent use
	tab *translate.Table
	// notes say which sources were left out, and why.
	notes []string
}

// embeddedTable is a name table a log or capture holds, and what holds it.
type embeddedTable struct {
	data []byte
	from string
}

// logTables returns the name tables the logs embed (Vista-era logs):
// standard input ("-") is not read for it.
func logTables(logs []string) []embeddedTable {
	var out []embeddedTable
	for _, name := range logs {
		if name == stdinName {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			continue // opening the log reports it
		}
		fi, err := f.Stat()
		if err == nil && fi.Mode().IsRegular() {
			if r, err := blg.NewReader(f, fi.Size()); err == nil {
				if t := r.NameTable(); t != nil {
					out = append(out, embeddedTable{t, "the name table of " + name})
				}
			}
		}
		f.Close()
	}
	return out
}

// nameSources are the --names-file files, read once.
type nameSources struct {
	tables []embeddedTable     // name tables
	others []embeddedTable     // CounterLang.xml and compact forms
	xml    [][]translate.Entry // per others[i]: CounterLang's entries, nil for a compact form
}

// load reads the --names-file files; nil without --names-lang.
func (n *namesFlags) load(stdin *stdinOnce) (*nameSources, error) {
	if n.lang == "" {
		return nil, nil
	}
	s := &nameSources{}
	for _, name := range n.files {
		data, err := readInput(name, "--names-file", stdin, namesLimit)
		if err != nil {
			return nil, fmt.Errorf("--names-file: %w", err)
		}
		switch {
		case nametable.IsTable(data):
			s.tables = append(s.tables, embeddedTable{data, name})
		case counterlang.IsCounterLang(data):
			es, err := counterlang.Read(bytes.NewReader(data))
			if err != nil {
				return nil, fmt.Errorf("--names-file %s: %w", name, err)
			}
			s.others = append(s.others, embeddedTable{nil, name})
			s.xml = append(s.xml, es)
		case bytes.HasPrefix(data, []byte(translate.CompactHeader)):
			s.others = append(s.others, embeddedTable{data, name})
			s.xml = append(s.xml, nil)
		default:
			return nil, &usageError{"--names-file " + name + ": neither CounterLang.xml, the compact form (" + strconv.Quote(translate.CompactHeader) + ") nor a name table (UTF-16LE \"Counter 0xx\")"}
		}
	}
	return s, nil
}

// captureTables returns the name table given with --names (a capture's
// own naming table, which ranks first), unless it is standard input.
func captureTables(name string) []embeddedTable {
	if name == "" || name == stdinName {
		return nil
	}
	data, err := readInput(name, "--names", &stdinOnce{}, tableLimit)
	if err != nil || !nametable.IsTable(data) {
		return nil // --names reports it
	}
	return []embeddedTable{{data, "--names " + name}}
}

// build reads the sources and returns the namer, or nil without
// --names-lang. embedded are the tables the inputs hold, which rank first.
func (n *namesFlags) build(embedded []embeddedTable, stdin *stdinOnce) (*namer, error) {
	s, err := n.load(stdin)
	if s == nil || err != nil {
		return nil, err
	}
	return s.namer(embedded)
}

// namer builds the translation table of the sources (translate.Build):
// the name-table pairs first (each localized table with the first English
// one, embedded tables before files), then CounterLang.xml and compact
// forms in the order given.
func (s *nameSources) namer(embedded []embeddedTable) (*namer, error) {
	var srcs []translate.Source
	for _, e := range embedded {
		srcs = append(srcs, translate.Source{Name: e.from, Data: e.data, Embedded: true})
	}
	for _, e := range s.tables {
		srcs = append(srcs, translate.Source{Name: e.from, Data: e.data})
	}
	for i, o := range s.others {
		srcs = append(srcs, translate.Source{Name: o.from, Data: o.data, Entries: s.xml[i]})
	}
	tab, notes, err := translate.Build(srcs)
	if err != nil {
		var se *translate.SourceError
		if errors.As(err, &se) && !se.Table {
			return nil, fmt.Errorf("--names-file %s: %w", se.Source, se.Err)
		}
		return nil, err
	}
	if tab.Sources() == 0 {
		msg := "--names-lang: no translation source: give --names-file (CounterLang.xml, a compact form, or name tables)"
		if len(notes) > 0 {
			msg += "; " + notes[0]
		}
		return nil, &usageError{msg}
	}
	return &namer{Namer: translate.NewNamer(tab), tab: tab, notes: notes}, nil
}

// rename translates an object and a counter (relog.Options.Rename).
func (nm *namer) rename(object, counter string) (string, string) {
	nm.mu.Lock()
	defer nm.mu.Unlock()
	return nm.Rename(object, counter)
}

// values translates the paths of a capture's values in place and keeps
// those that match paths (all when paths is empty).
func (nm *namer) values(vals []query.Value, paths []counterpath.Path) []query.Value {
	out := vals[:0]
	for _, v := range vals {
		v.Parts.Object, v.Parts.Counter = nm.rename(v.Parts.Object, v.Parts.Counter)
		v.Path = v.Parts.AppendTo(nil)
		if matchAny(paths, v.Parts) {
			out = append(out, v)
		}
	}
	return out
}

// matchAny reports whether p matches one of the patterns (every path when
// there are none).
func matchAny(pats []counterpath.Path, p counterpath.Path) bool {
	if len(pats) == 0 {
		return true
	}
	for _, pat := range pats {
		if pat.Matches(p) {
			return true
		}
	}
	return false
}

// unknown returns the names met that were not translated, sorted
// (translate.Namer.Unknown).
func (nm *namer) unknown() []string {
	if nm == nil {
		return nil
	}
	return nm.Unknown()
}

// finish writes to stderr the names not translated and, with
// --names-report, every translation and its source.
func (nm *namer) finish(stderr io.Writer, cmd string, report bool) {
	if nm == nil {
		return
	}
	for _, n := range nm.notes {
		fmt.Fprintf(stderr, "perfcalc %s: note: %s\n", cmd, n)
	}
	if report {
		var lines []string
		counts := map[translate.Status]int{}
		seen := map[string]bool{}
		for _, s := range nm.Met() {
			k := string(rune(s.Kind)) + "\x00" + s.Object + "\x00" + s.Local
			if seen[k] {
				continue // met more than once
			}
			seen[k] = true
			counts[s.Name.Status]++
			if s.Name.Status != translate.Translated {
				continue
			}
			t := s.Kind.String() + " " + strconv.Quote(s.Local) + " -> " + strconv.Quote(s.Name.Text)
			if s.Kind == translate.Counter {
				t += " (of " + strconv.Quote(s.Object) + ")"
			}
			lines = append(lines, t+" from "+nm.tab.Source(s.Name.Source))
		}
		sort.Strings(lines)
		for _, l := range lines {
			fmt.Fprintf(stderr, "perfcalc %s: names: %s\n", cmd, l)
		}
		fmt.Fprintf(stderr, "perfcalc %s: names: %d translated, %d already English, %d unknown, %d ambiguous\n", cmd,
			counts[translate.Translated], counts[translate.English], counts[translate.Unknown], counts[translate.Ambiguous])
	}
	if u := nm.unknown(); len(u) > 0 {
		fmt.Fprintf(stderr, "perfcalc %s: note: %d names not translated (kept as they are): %s\n", cmd, len(u), termtext.Visible(strings.Join(u, "; ")))
	}
}

// show translates the object and counter names of show's description.
func (nm *namer) show(c *showCapture) {
	for i := range c.Objects {
		o := &c.Objects[i]
		if o.Name == "" {
			continue
		}
		obj := o.Name
		for j := range o.Counters {
			if o.Counters[j].Name != "" {
				_, o.Counters[j].Name = nm.rename(obj, o.Counters[j].Name)
			}
		}
		o.Name, _ = nm.rename(obj, "*")
	}
}

// patterns returns the patterns with their objects and counters
// translated (those without a wildcard), for matching translated values.
func (nm *namer) patterns(pats []counterpath.Path) pathList {
	out := make(pathList, len(pats))
	for i, p := range pats {
		q := p
		if !strings.Contains(p.Object, "*") {
			q.Object = nm.tab.Object(p.Object).Text
		}
		if !strings.Contains(p.Counter, "*") {
			q.Counter = nm.tab.Counter(q.Object, p.Counter).Text
		}
		out[i] = q
	}
	return out
}
