package main

import (
	"flag"
	"strings"

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
