package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/perfcalc/perfcalc/collect"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/translate"
	"github.com/perfcalc/perfcalc/internal/counterlang"
)

var namesUsage = `Usage:
  perfcalc names --compact CounterLang.xml [--lang LIST] [-o OUT]
  perfcalc names --compact TABLE|LOG.blg --compact TABLE... [-o OUT]
  perfcalc names --save DIR

Writes PAL's CounterLang.xml (the names of 146 objects and 2,259 counters in
17 locales) in perfcalc's compact form (doc/FORMATS.md §3.4): the
translation table that --names-lang reads as it reads CounterLang.xml,
in a form that needs no XML parser (package engine/translate). --lang keeps the listed locales (comma-separated, as
CounterLang names them: deDE,frFR,esES); all by default.

--compact given name tables of one machine (the English "Counter 009",
told by its contents, and one or more in other languages: the files --save
writes, or a registry export's REG_MULTI_SZ bytes) writes their pairs (the
texts of one index) as the compact form's n lines: the JS and Python
packages and the WebAssembly module, which read only the compact form,
then translate as --names-file given the tables does. A Vista-era .blg
log given to --compact stands for the name table it embeds (its machine's
language), to pair with an English table.

--save (Windows) writes this machine's name tables into DIR: the English
"Counter 009" (counter-009.multisz) and the table of the system's language
(counter-local.multisz, "Counter 007" on a German Windows), as the registry
gives them; --names-file reads both (the English one is told by its
contents), on any OS, to translate this machine's logs and captures.

Flags:
`

func init() {
	register(command{"names", "translation tables of object and counter names (--names-lang's compact form)", runNames})
}

func runNames(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("names", flag.ContinueOnError)
	var compact []string
	fs.Func("compact", "CounterLang.xml, or name tables (English \"Counter 009\" and others), to write in the compact form; repeatable for tables", func(v string) error {
		compact = append(compact, v)
		return nil
	})
	langs := fs.String("lang", "", "the locales of CounterLang.xml to keep, comma-separated (deDE,frFR); all by default")
	out := fs.String("o", "", "write to this file (complete or left as it was) instead of standard output")
	save := fs.String("save", "", "write this machine's name tables (English and the system's language) into this folder (Windows)")
	pos, status, ok := parseCommandArgs(fs, namesUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) > 0 || (len(compact) == 0) == (*save == "") {
		return failCommand(stderr, "names", &usageError{"give --compact CounterLang.xml, --compact TABLE --compact TABLE, or --save DIR (see perfcalc names -h)"})
	}
	if *save != "" {
		return saveNames(*save, stdout, stderr)
	}
	var inputs []namedInput
	for _, c := range compact {
		inputs = append(inputs, namedInput{c, "--compact"})
	}
	if err := checkNotInput(*out, stdin, inputs...); err != nil {
		return failCommand(stderr, "names", err)
	}
	in := &stdinOnce{r: stdin}
	var datas [][]byte
	for _, c := range compact {
		data, err := logTable(c)
		if data == nil && err == nil {
			data, err = readInput(c, "--compact", in, namesLimit)
		}
		if err != nil {
			return failCommand(stderr, "names", err)
		}
		datas = append(datas, data)
	}
	var b []byte
	var skipped int
	if nametable.IsTable(datas[0]) {
		if *langs != "" {
			return failCommand(stderr, "names", &usageError{"--lang chooses CounterLang.xml's locales; name tables have one language each"})
		}
		var err error
		if b, skipped, err = tablesCompact(compact, datas, stderr); err != nil {
			return failCommand(stderr, "names", err)
		}
	} else {
		if len(compact) > 1 {
			return failCommand(stderr, "names", &usageError{"--compact: give CounterLang.xml alone, or name tables only"})
		}
		data := datas[0]
		if !counterlang.IsCounterLang(data) {
			return failCommand(stderr, "names", fmt.Errorf("%s: not CounterLang.xml (no <CounterLang> element at its start), nor a name table (UTF-16LE \"Counter 0xx\")", compact[0]))
		}
		es, err := counterlang.Read(bytes.NewReader(data))
		if err != nil {
			return failCommand(stderr, "names", fmt.Errorf("%s: %w", compact[0], err))
		}
		if *langs != "" {
			keep := map[string]bool{}
			for _, l := range strings.Split(*langs, ",") {
				keep[strings.TrimSpace(l)] = true
			}
			kept := es[:0]
			met := map[string]bool{}
			for _, e := range es {
				met[e.Lang] = true
				if keep[e.Lang] {
					kept = append(kept, e)
				}
			}
			for l := range keep {
				if !met[l] {
					return failCommand(stderr, "names", &usageError{"--lang: " + compact[0] + " has no translations in " + l})
				}
			}
			es = kept
		}
		b, skipped = counterlang.Compact(es)
	}
	if skipped > 0 {
		fmt.Fprintf(stderr, "perfcalc names: note: %d names with control characters left out\n", skipped)
	}
	note, err := writeOutput(*out, stdout, false, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
	return finishOutput(stderr, "names", nil, note, err)
}

// logTable returns the name table that the .blg log name embeds, or nil
// when name is not a .blg log (standard input is not looked at); a log
// without one is an error.
func logTable(name string) ([]byte, error) {
	if name == "" || name == stdinName {
		return nil, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil // reading it reports it
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, nil
	}
	r, err := blg.NewReader(f, fi.Size())
	if err != nil {
		return nil, nil
	}
	if t := r.NameTable(); t != nil {
		return t, nil
	}
	return nil, fmt.Errorf("%s: not CounterLang.xml nor a name table: a log without an embedded name table (Vista-era .blg logs of Windows embed one; give the machine's tables: perfcalc names --save)", name)
}

// tableLang matches the language in a table's file name as names --save
// and a registry export name it: counter-007.multisz, "Counter 007".
var tableLang = regexp.MustCompile(`(?i)counter[ _-]?([0-9a-f]{3}|local)`)

// tablesCompact writes name tables of one machine in the compact form
// (counterlang.TablesCompact): the English table, told by its contents,
// with each of the others. The lang field is the language that a file's
// name gives (007 of counter-007.multisz), else "local".
func tablesCompact(names []string, datas [][]byte, stderr io.Writer) ([]byte, int, error) {
	var en *nametable.Table
	var locals []*nametable.Table
	var langs []string
	for i, data := range datas {
		if !nametable.IsTable(data) {
			return nil, 0, &usageError{"--compact " + names[i] + ": not a name table (UTF-16LE \"Counter 0xx\"); give CounterLang.xml alone, or name tables only"}
		}
		t, err := nametable.Parse(data)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", names[i], err)
		}
		if en == nil && translate.IsEnglish(t) {
			en = t
			continue
		}
		lang := "local"
		if m := tableLang.FindStringSubmatch(filepath.Base(names[i])); m != nil {
			lang = m[1]
		}
		locals = append(locals, t)
		langs = append(langs, lang)
	}
	if en == nil {
		return nil, 0, &usageError{"--compact: no English name table (\"Counter 009\", index 238 Processor): give the same machine's counter-009.multisz"}
	}
	if len(locals) == 0 {
		return nil, 0, &usageError{"--compact: only the English name table: give the same machine's table in its language too (counter-local.multisz)"}
	}
	b := append([]byte(translate.CompactHeader), '\n')
	skipped := 0
	for i, l := range locals {
		var lines, sk int
		b, lines, sk = counterlang.TablesCompact(b, en, l, langs[i])
		skipped += sk
		if lines == 0 {
			fmt.Fprintf(stderr, "perfcalc names: note: %s gives no translation\n", names[i])
		}
	}
	return b, skipped, nil
}

// openNamesRegistry opens the machine's registry for names --save and
// watch --names-lang; tests replace it.
var openNamesRegistry = collect.OpenRegistry

// saveNames is names --save DIR.
func saveNames(dir string, stdout, stderr io.Writer) int {
	src, err := openNamesRegistry()
	if errors.Is(err, collect.ErrNeedsWindows) {
		fmt.Fprintln(stderr, "perfcalc names: --save reads this machine's name tables, on Windows; here, give the files a Windows machine saved with --names-file")
		return exitUsage
	}
	if err != nil {
		return failCommand(stderr, "names", err)
	}
	defer src.Close()
	files, localErr, err := collect.SaveNameTables(src, dir)
	if err != nil {
		return failCommand(stderr, "names", err)
	}
	if localErr != nil {
		fmt.Fprintf(stderr, "perfcalc names: note: %v\n", localErr)
	}
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return exitOK
}

// machineTables returns this machine's name tables (English and the
// system's language) for --names-lang of watch: none off Windows, or when
// the registry does not give them.
func machineTables() []embeddedTable {
	src, err := openNamesRegistry()
	if err != nil {
		return nil
	}
	defer src.Close()
	var out []embeddedTable
	if b, err := src.NameTable(true); err == nil {
		out = append(out, embeddedTable{b, "this machine's table of its language"})
	}
	if b, err := src.NameTable(false); err == nil {
		out = append(out, embeddedTable{b, "this machine's Counter 009"})
	}
	return out
}
