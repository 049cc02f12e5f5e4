package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"github.com/perfcalc/perfcalc/engine/query"
)

const pathsUsage = `Usage:
  perfcalc paths BLOB [-c PATTERN ...] [--names TABLE]
  perfcalc paths BLOB --reginfo FILE [--strings FILE] [--counterset NAME] [--ids LIST] [-c PATTERN ...]

Lists the counter paths of a capture, one per line, like typeperf -q; with
-c, expands the patterns (wildcards in the instance, its parent and index,
and the counter) like PdhExpandWildCardPath. Base counters, which only feed
the counter before them, are not listed. Without --names, objects and
counters are named by their index (\\HOST\#238(0)\#6).

Flags:
`

func init() {
	register(command{"paths", "list a capture's counter paths, or expand wildcard paths (typeperf -q)", runPaths})
}

func runPaths(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("paths", flag.ContinueOnError)
	var src sourceFlags
	src.register(fs)
	var patterns pathList
	fs.Var(&patterns, "c", "expand this path (wildcards allowed); repeatable")
	pos, status, ok := parseCaptureArgs(fs, pathsUsage, args, stderr)
	if !ok {
		return status
	}
	if len(pos) != 1 {
		return failCapture(stderr, "paths", &captureUsageError{"want one capture (see perfcalc paths -h)"})
	}
	data, kind, err := readCapture(pos[0])
	if err != nil {
		return failCapture(stderr, "paths", err)
	}
	cfg, err := src.config(kind, true)
	if err != nil {
		return failCapture(stderr, "paths", err)
	}
	cfg.Paths = patterns
	// One capture is a first sample: every path, no value needed.
	q := query.New(cfg)
	vals, err := q.Run(nil, nil, data)
	if err != nil {
		return failCapture(stderr, "paths", err)
	}
	if n := q.Unnamed(); n > 0 {
		fmt.Fprintf(stderr, "perfcalc paths: note: %d V2 blocks do not name their counter and are left out; give their CounterIds with --ids\n", n)
	}
	if len(patterns) > 0 && len(vals) == 0 {
		return failCapture(stderr, "paths", fmt.Errorf("no counter of %s matches %v", pos[0], patterns.String()))
	}
	w := bufio.NewWriter(stdout)
	for i := range vals {
		w.Write(vals[i].Path)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return failCapture(stderr, "paths", err)
	}
	return exitOK
}
