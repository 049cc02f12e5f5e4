package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/termtext"
)

const pathsUsage = `Usage:
  perfcalc paths BLOB [-c PATTERN ...] [-cf FILE] [--names TABLE]
  perfcalc paths BLOB --reginfo FILE [--strings FILE] [--counterset NAME] [--ids LIST] [-c PATTERN ...] [-cf FILE]

Lists the counter paths of a capture, one per line (control characters
escaped: \x1b, \u202e …), like typeperf -q; with
-c, expands the patterns (wildcards in the instance, its parent and index,
and the counter) like PdhExpandWildCardPath; -cf FILE reads patterns from
a file, one per line (blank lines and # comments ignored). Base counters,
which only feed the counter before them, are not listed. Without --names,
objects and counters are named by their index (\\HOST\#238(0)\#6).

Any file may be "-", standard input (one of them at most). A capture over
256 MiB, a name table or registration over 64 MiB is refused from its size,
unread.

` + namesHelp + `
Flags:
`

func init() {
	register(command{"paths", "list a capture's counter paths, or expand wildcard paths (typeperf -q)", runPaths})
}

func runPaths(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("paths", flag.ContinueOnError)
	var src sourceFlags
	src.register(fs)
	var counters counterFlags
	counters.register(fs, "expand this path")
	var names namesFlags
	names.register(fs)
	pos, status, ok := parseCommandArgs(fs, pathsUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	if err := names.check(); err != nil {
		return failCommand(stderr, "paths", err)
	}
	if len(pos) != 1 {
		return failCommand(stderr, "paths", &usageError{"want one capture (see perfcalc paths -h)"})
	}
	in := &stdinOnce{r: stdin}
	patterns, err := counters.paths(in)
	if err != nil {
		return failCommand(stderr, "paths", err)
	}
	data, kind, err := readCapture(pos[0], "BLOB", in)
	if err != nil {
		return failCommand(stderr, "paths", err)
	}
	cfg, err := src.config(kind, true, in)
	if err != nil {
		return failCommand(stderr, "paths", err)
	}
	cfg.Paths = patterns
	nm, err := names.build(captureTables(src.names), in)
	if err != nil {
		return failCommand(stderr, "paths", err)
	}
	if nm != nil {
		cfg.Paths = nil // -c matches the English names
	}
	// One capture is a first sample: every path, no value needed.
	q := query.New(cfg)
	vals, err := q.Run(nil, nil, data)
	if err != nil {
		return failCommand(stderr, "paths", fmt.Errorf("%s: %w", pos[0], err))
	}
	if nm != nil {
		vals = nm.values(vals, patterns)
		defer nm.finish(stderr, "paths", names.report)
	}
	if n := q.Unnamed(); n > 0 {
		fmt.Fprintf(stderr, "perfcalc paths: note: %d V2 blocks do not name their counter and are left out; give their CounterIds with --ids\n", n)
	}
	if len(patterns) > 0 && len(vals) == 0 {
		return failCommand(stderr, "paths", noMatch(pos[0], patterns, kind, src.names != ""))
	}
	w := bufio.NewWriter(stdout)
	var line []byte
	for i := range vals {
		line = termtext.AppendVisible(line[:0], string(vals[i].Path))
		w.Write(append(line, '\n'))
	}
	if err := w.Flush(); err != nil {
		return failCommand(stderr, "paths", err)
	}
	return exitOK
}
