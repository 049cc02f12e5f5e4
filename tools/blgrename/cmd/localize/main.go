// Command localize writes a .blg log with its object and counter names in
// one language of PAL's CounterLang.xml (blgrename.Localizer), for the
// translation tests of the JS and Python packages:
//
//	go run ./tools/blgrename/cmd/localize -counterlang CounterLang.xml -lang deDE IN.blg OUT.blg
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/perfcalc/perfcalc/internal/counterlang"
	"github.com/perfcalc/perfcalc/tools/blgrename"
)

func main() {
	cl := flag.String("counterlang", "", "PAL's CounterLang.xml")
	lang := flag.String("lang", "deDE", "the locale, as CounterLang names it")
	flag.Parse()
	if *cl == "" || flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: localize -counterlang CounterLang.xml [-lang deDE] IN.blg OUT.blg")
		os.Exit(2)
	}
	if err := run(*cl, *lang, flag.Arg(0), flag.Arg(1)); err != nil {
		fmt.Fprintln(os.Stderr, "localize:", err)
		os.Exit(1)
	}
}

func run(cl, lang, in, out string) error {
	f, err := os.Open(cl)
	if err != nil {
		return err
	}
	defer f.Close()
	es, err := counterlang.Read(f)
	if err != nil {
		return err
	}
	log, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	local, err := blgrename.Rewrite(log, blgrename.NewLocalizer(es, lang).Names())
	if err != nil {
		return err
	}
	return os.WriteFile(out, local, 0o644)
}
