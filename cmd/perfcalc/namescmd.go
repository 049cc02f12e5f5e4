package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/perfcalc/perfcalc/collect"
	"github.com/perfcalc/perfcalc/internal/counterlang"
)

var namesUsage = `Usage:
  perfcalc names --compact CounterLang.xml [--lang LIST] [-o OUT]
  perfcalc names --save DIR

Writes PAL's CounterLang.xml (the names of 146 objects and 2,259 counters in
17 locales) in perfcalc's compact form (doc/FORMATS.md §3.4): the
translation table that --names-lang reads as it reads CounterLang.xml,
in a form that needs no XML parser (package engine/translate). --lang keeps the listed locales (comma-separated, as
CounterLang names them: deDE,frFR,esES); all by default.

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
	compact := fs.String("compact", "", "CounterLang.xml to write in the compact form")
	langs := fs.String("lang", "", "the locales to keep, comma-separated (deDE,frFR); all by default")
	out := fs.String("o", "", "write to this file (complete or left as it was) instead of standard output")
	save := fs.String("save", "", "write this machine's name tables (English and the system's language) into this folder (Windows)")
	pos, status, ok := parseCommandArgs(fs, namesUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) > 0 || (*compact == "") == (*save == "") {
		return failCommand(stderr, "names", &usageError{"give --compact CounterLang.xml or --save DIR (see perfcalc names -h)"})
	}
	if *save != "" {
		return saveNames(*save, stdout, stderr)
	}
	if err := checkNotInput(*out, stdin, namedInput{*compact, "--compact"}); err != nil {
		return failCommand(stderr, "names", err)
	}
	data, err := readInput(*compact, "--compact", &stdinOnce{r: stdin}, namesLimit)
	if err != nil {
		return failCommand(stderr, "names", err)
	}
	if !counterlang.IsCounterLang(data) {
		return failCommand(stderr, "names", fmt.Errorf("%s: not CounterLang.xml (no <CounterLang> element at its start)", *compact))
	}
	es, err := counterlang.Read(bytes.NewReader(data))
	if err != nil {
		return failCommand(stderr, "names", fmt.Errorf("%s: %w", *compact, err))
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
				return failCommand(stderr, "names", &usageError{"--lang: " + *compact + " has no translations in " + l})
			}
		}
		es = kept
	}
	b, skipped := counterlang.Compact(es)
	if skipped > 0 {
		fmt.Fprintf(stderr, "perfcalc names: note: %d names with control characters left out\n", skipped)
	}
	note, err := writeOutput(*out, stdout, false, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
	return finishOutput(stderr, "names", nil, note, err)
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
