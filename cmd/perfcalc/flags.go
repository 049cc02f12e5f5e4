package main

import (
	"errors"
	"flag"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"

	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// pathList is a repeatable -c flag of counter paths (wildcards allowed).
type pathList []counterpath.Path

func (l *pathList) String() string {
	s := make([]string, len(*l))
	for i, p := range *l {
		s[i] = p.String()
	}
	return strings.Join(s, " ")
}

func (l *pathList) Set(v string) error {
	p, err := counterpath.Parse(v)
	if err != nil {
		return err
	}
	*l = append(*l, p)
	return nil
}

// digitsFlag is --digits: how many significant digits values have in
// PDH's text (CSV, TSV), 20 as current Windows writes them or 17 as
// Windows wrote them before about 2020.
type digitsFlag int

// addDigitsFlag registers --digits on fs with the given default.
func addDigitsFlag(fs *flag.FlagSet, def int) *digitsFlag {
	d := digitsFlag(def)
	fs.Var(&d, "digits", "significant digits of the values: 20 (current Windows) or 17 (Windows before about 2020)")
	return &d
}

func (d *digitsFlag) String() string { return strconv.Itoa(int(*d)) }

func (d *digitsFlag) Set(v string) error {
	switch n, _ := strconv.Atoi(v); n {
	case engine.DefaultDigits, engine.LegacyDigits:
		*d = digitsFlag(n)
		return nil
	}
	return errors.New("want 20 (current Windows) or 17 (Windows before about 2020)")
}

// parseArgs parses flags placed before, between or after the positional
// arguments (perfcalc relog IN.blg -f csv), and returns the positional
// ones. After "--" every argument is positional.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
