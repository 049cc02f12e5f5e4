package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/logtext"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/engine/termtext"
)

// relogFormats lists relog's formats for its usage.
var relogFormats = formatNames(forRelog, formatCSV, "|")

var relogUsage = `Usage:
  perfcalc relog IN.blg [IN.blg ...] [-c PATH ...] [-cf FILE] [-f ` + relogFormats + `] [-o OUT] [-b START] [-e END] [-t N] [--digits 20|17] [--max-columns N] [--redact] [--redact-map FILE] [--redact-instances OBJECT --salt SECRET] [--identity pdh|pid]
  perfcalc relog IN.blg [IN.blg ...] -q [-c PATH ...] [-cf FILE] [-b START] [-e END] [-t N] [-o OUT]

Converts a perfmon binary log (.blg) as Windows' "relog IN.blg -f csv" does:
the header "(PDH-CSV 4.0) (<time zone>)(<bias>)" and the counter paths, then
one row per sample with the logging machine's local time and the values
(as current Windows writes them: 20 significant digits, exponents with three
digits, 6.5500000000000006459e-005; --digits 17 writes them as Windows did
before about 2020; a single space where there is no value yet or the data is
bad, an empty field where the instance is absent). Values are neither capped
at 100 nor scaled. Vista-era logs of whole objects give one column per
counter of every instance.

Several logs (up to 32) are merged, as relog merges its inputs: the union of
their counters (the first log's, then those new in each next log), their
samples in time order (samples of equal time stamps are one row; where two
logs have the same counter, the first log's value), each counter's values
computed along its samples across the logs. A counter of one log is the
same as another log's whose path is equal, else equal but for case, and
each joins at most one counter of each log (Svc in one log, Svc and svc in
another: two columns, Svc of both logs and svc). Times are the first log's
local time: a log of another time zone is moved to it.

-q lists the counters (one path per line, the CSV header's columns, their
control characters escaped: \x1b, \u202e …), then the time of the first and
last sample and the number of samples.

-f bin (the default where -o names a .blg file) writes a perfmon binary log
again, as Windows' relog does by default: the counters, samples and logs that
-c, -cf, -b, -e, -t and merging keep, their raw values as they were read, so
that "perfcalc relog OUT.blg -f csv" prints what "-f csv" prints with the same
options. One raw-counter log keeps its header and counter-list entries (with
no option, its bytes but for thread ids and flush times); Vista-era logs and
merges get one entry per column. Example:
  perfcalc relog IN.blg -c '\\*\Processor(*)\*' -b '02/19/2013 18:55:00' -o cpu.blg

--redact replaces the machine names by MACHINE-1, MACHINE-2, ... (in order
of first appearance) in every format, -q and the .blg of -f bin (whose header
then leaves out the log's file name); values are untouched. --redact-map FILE
lists the pseudonyms, one "MACHINE-<n><tab><name>" line each, to undo it: read
first when it exists, so that a machine keeps its pseudonym from log to log
(a map that gives a pseudonym to two machines, or a machine two pseudonyms,
is refused).
--redact-instances OBJECT (repeatable) also replaces the instance and parent
names of that object (Process, LogicalDisk, ...) by "h" and 16 hex digits of
SHA-256 of --salt SECRET and the name: the same secret gives the same names.
Example, a log to send on:
  perfcalc relog IN.blg --redact --redact-map machines.tsv --redact-instances Process --salt "$SECRET" -o shared.blg

-f json writes one JSON object per line and row:
  {"time":"2013-02-19T18:50:17.844","values":{"\\\\HOST\\Processor(0)\\% Processor Time":12.5,...}}
with null where there is no value and no member where the instance is absent;
numbers are the shortest text that reads back as the same double. A path
the log holds twice has the key "<path> (duplicate 2)" from its second
column on.

-f parquet writes the long table: one row per sample and counter instance
(UTC and local time, machine, object, instance, parent, instance index,
counter, path, counter type, value or null, status, raw values), as
internal/longform documents it; -f openmetrics writes one gauge family per
counter with time stamps, for promtool tsdb create-blocks-from openmetrics
(internal/openmetrics documents the names). Neither depends on --digits.
OpenMetrics wants each metric's time stamps to increase: a sample whose
time stamp (UTC, in milliseconds) is not after the previous one of its
metric is left out, and a note on standard error says how many were; the
exit status stays 0 (the text holds every sample OpenMetrics can hold, and
-f csv or parquet keeps them all). Columns that would be the same metric
(a path logged twice, counter names that differ only in case) are told
apart by a label duplicate="2", "3", ...

-b and -e take the log's local time as relog prints it (02/19/2013 18:50:17.844,
the seconds and milliseconds optional, AM/PM accepted) or as ISO 8601
(2013-02-19T18:50:17[.844]); both ends are included. -t N keeps the first
sample and every Nth after it; values are computed between kept samples.
-c keeps the counters that match a path with wildcards, case-insensitively
(\\*\Processor(*)\% Processor Time); repeat it for several. -cf FILE reads
such paths from a file, one per line (blank lines and lines starting with #
ignored), as relog's -cf does.

IN.blg "-" reads the log from standard input (copied first to an unnamed
temporary file, up to 64 GiB: the log is read twice; bytes whose first
buffer is not a log's are refused before any copy).

-o writes to a file through a temporary file that replaces it at the end
(unnamed until then on Linux, so that nothing is left behind even by kill
-9; removed on Ctrl-C or SIGTERM elsewhere): the file is complete or left as
it was. -o /dev/null, /dev/stdout or a named pipe is written to directly.
An -o that is an input (by any name or link: a log, -cf, --names-file,
--redact-map) is refused, and so is a --redact-map that is an input or -o's
file (which it would replace, leaving the real machine names there).

--max-columns N (default 1000000) refuses, with exit status 1 and before
memory runs out, logs of more than N columns (counters of distinct
instances; for several logs, their columns together): memory is the
largest record plus about 0.75 KB a column for CSV, TSV and JSON, 1.2 KB
for OpenMetrics, 1.6 KB for Parquet, kept from the first reading to the
end. 0 sets no limit.

A damaged log is converted up to the damage; the command then reports the
damage and exits with status 1: on standard output the rows before the
damage are written; -o FILE is left as it was, and --keep-partial keeps
those rows in FILE.partial. A log that changes between the two readings
(a circular log being written) fails likewise, naming what changed.

` + identityHelp + `
` + extensionHelp(forRelog, formatCSV) + "\n" + namesHelp + `
Flags:
`

func init() {
	register(command{"relog", "convert a .blg log to relog's CSV, TSV or JSON, or filter it into a .blg (-f bin); -q lists its counters", runRelog})
}

// timeFlag is a -b or -e flag: a local time read by relog.ParseTime.
type timeFlag struct {
	ft  int64
	set bool // given, even as FILETIME 0 (01/01/1601 00:00)
}

// endFT is -e as relog.Options.End takes it: 0 when not given, and −1 for
// FILETIME 0, which is an end too (before every sample), where 0 would
// mean none.
func (t *timeFlag) endFT() int64 {
	if t.set && t.ft == 0 {
		return -1
	}
	return t.ft
}

func (t *timeFlag) String() string {
	if t.ft == 0 {
		return ""
	}
	return string(logtext.AppendTime(nil, t.ft))
}

func (t *timeFlag) Set(v string) error {
	ft, err := relog.ParseTime(v)
	if err != nil {
		return fmt.Errorf("%q is not a time like 02/19/2013 18:50:17.844 or 2013-02-19T18:50:17", v)
	}
	t.ft, t.set = ft, true
	return nil
}

func runRelog(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("relog", flag.ContinueOnError)
	var counters counterFlags
	var begin, end timeFlag
	counters.register(fs, "keep the counters matching this path")
	format := addFormatFlag(fs, forRelog, formatCSV)
	out := fs.String("o", "", "write to this file (complete or left as it was) instead of standard output")
	keepPartial := fs.Bool("keep-partial", false, "when the output to -o FILE fails half-way (a damaged log), keep what was written in FILE.partial")
	fs.Var(&begin, "b", "first time to keep, local time of the log (MM/DD/YYYY HH:MM:SS[.mmm] or ISO 8601)")
	fs.Var(&end, "e", "last time to keep, local time of the log")
	every := fs.Int("t", 1, "keep every Nth sample")
	query := fs.Bool("q", false, "list the counters, the time range and the number of samples")
	digits := addDigitsFlag(fs, engine.DefaultDigits)
	maxColumns := addMaxColumnsFlag(fs)
	identity := addIdentityFlag(fs)
	var names namesFlags
	names.register(fs)
	redact := addRedactFlags(fs)
	pos, status, ok := parseCommandArgs(fs, relogUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) == 0 || len(pos) > relog.MaxInputs {
		return failCommand(stderr, "relog", &usageError{"give one to 32 input logs (perfcalc relog IN.blg [IN.blg ...] [flags]; see perfcalc relog -h)"})
	}
	if err := names.check(); err != nil {
		return failCommand(stderr, "relog", err)
	}
	formatOut := *out
	if *query {
		formatOut = "" // -q lists the counters in its own text
	}
	f, err := format.format(formatOut)
	if err != nil {
		return failCommand(stderr, "relog", err)
	}
	if *every < 1 {
		return failCommand(stderr, "relog", &usageError{fmt.Sprintf("-t: %d is not a positive number of samples", *every)})
	}
	if begin.ft != 0 && end.set && end.endFT() < begin.ft {
		return failCommand(stderr, "relog", &usageError{"-e is before -b"})
	}
	inputs := append(logInputs(pos, counters.cf), names.inputs()...)
	if err := checkLogOutputs(*out, *keepPartial, stdin, inputs...); err != nil {
		return failCommand(stderr, "relog", err)
	}
	if err := redact.checkFiles(*out, *keepPartial, stdin, stdout, inputs); err != nil {
		return failCommand(stderr, "relog", err)
	}
	red, err := redact.redactor()
	if err != nil {
		return failCommand(stderr, "relog", err)
	}
	in := &stdinOnce{r: stdin}
	paths, err := counters.paths(in)
	if err != nil {
		return failCommand(stderr, "relog", err)
	}
	opts := relog.Options{Counters: paths, Begin: begin.ft, End: end.endFT(), Every: *every, Digits: int(*digits), MaxColumns: *maxColumns, Identity: *identity}
	nm, err := names.build(logTables(pos), in)
	if err != nil {
		return failCommand(stderr, "relog", err)
	}
	if nm != nil {
		opts.Rename = nm.rename
		defer nm.finish(stderr, "relog", names.report)
	}
	logs, err := openLogSet(pos, opts, in)
	if err != nil {
		return failCommand(stderr, "relog", err)
	}
	c := logs.c
	defer logs.closeAll()
	if red != nil && (f != formatBin || *query) {
		red.renameColumns(c.Columns())
	}
	defer noteSkipped(stderr, "relog", pos, logs.skipped)
	var convErr error // a damage in the log: what came before it is written
	var dropped int64
	write := func(w io.Writer) error {
		if *query {
			if err := writeQuery(w, c); err != nil {
				return err
			}
			convErr = c.ScanErr()
			return convErr
		}
		var err error
		if f == formatBin {
			var damage error
			damage, err = writeBin(w, logs, opts, red)
			if damage != nil {
				convErr = damage
			}
		} else {
			dropped, err = writeLog(w, c, f)
		}
		if err != nil && err == c.Err() {
			convErr = err
		}
		return err
	}
	note, err := writeOutput(*out, stdout, *keepPartial, write)
	if err == nil && convErr == nil && red != nil && *redact.mapFile != "" {
		err = red.writeMap(*redact.mapFile)
	}
	if dropped > 0 {
		fmt.Fprintf(stderr, "perfcalc relog: note: %s\n", droppedNote(dropped))
	}
	if !*query {
		noteIdentity(stderr, "relog", "", *identity, c.IdentityNotes(), c.IdentityBreaks())
	}
	if convErr != nil {
		convErr = logError(pos, convErr)
	}
	return finishOutput(stderr, "relog", convErr, note, err)
}

// logInputs lists the files relog and stats read: the logs, then -cf's
// file.
func logInputs(logs []string, cf string) []namedInput {
	ins := make([]namedInput, 0, len(logs)+1)
	for _, name := range logs {
		ins = append(ins, namedInput{name, "IN.blg"})
	}
	return append(ins, namedInput{cf, "-cf"})
}

// openLogs opens .blg files ("-": standard input, see openRandom) and reads
// them once for their columns: one log through relog.New, several through
// relog.Merge. The logs' names are those given. It refuses a selection
// that keeps nothing: -c or -cf patterns that match no counter, -b and -e
// outside the logs' time range.
func openLogs(names []string, opts relog.Options, stdin *stdinOnce) (*relog.Converter, func(), error) {
	c, closeAll, _, err := openLogsCounting(names, opts, stdin)
	return c, closeAll, err
}

// openLogsCounting is openLogs, which also returns the number of events
// that the logs' first reading skipped (relog.Converter.SkippedEvents: a
// damaged event header may have taken a sample with it).
func openLogsCounting(names []string, opts relog.Options, stdin *stdinOnce) (*relog.Converter, func(), int64, error) {
	o, err := openLogSet(names, opts, stdin)
	if err != nil {
		return nil, nil, 0, err
	}
	return o.c, o.closeAll, o.skipped, nil
}

// openedLogs is what openLogSet opened: the Converter over the logs, the
// function that closes them, the events the first reading skipped, the
// logs themselves, and open, which makes another Converter over them.
type openedLogs struct {
	c        *relog.Converter
	closeAll func()
	skipped  int64
	inputs   []relog.Input
	open     func(relog.Options) (*relog.Converter, error)
}

// openLogSet is openLogsCounting, which it serves.
func openLogSet(names []string, opts relog.Options, stdin *stdinOnce) (*openedLogs, error) {
	closers := make([]func(), 0, len(names))
	closeAll := func() {
		for _, c := range closers {
			c()
		}
	}
	inputs := make([]relog.Input, len(names))
	var stable []*stableLog // the files, checked between the readings
	for i, name := range names {
		in, size, closeIn, err := openRandom(name, "IN.blg", stdin)
		if err != nil {
			closeAll()
			return nil, notALog(err)
		}
		closers = append(closers, closeIn)
		if f, ok := in.(*os.File); ok { // a file, not a spoolFile
			s := newStableLog(f)
			stable = append(stable, s)
			in = s
		}
		inputs[i] = relog.Input{R: in, Size: size, Name: name}
	}
	open := func(opts relog.Options) (*relog.Converter, error) {
		if len(inputs) == 1 {
			c, err := relog.New(inputs[0].R, inputs[0].Size, opts)
			if err != nil {
				return nil, &relog.InputError{Name: names[0], Err: err}
			}
			return c, nil
		}
		return relog.Merge(inputs, opts)
	}
	c, err := open(opts)
	var skipped int64
	if c != nil {
		skipped = c.SkippedEvents()
	}
	if err == nil {
		err = checkSelection(c, names, opts, open)
	}
	for _, s := range stable {
		s.verify()
	}
	if betweenReadings != nil {
		betweenReadings()
	}
	if err != nil {
		closeAll()
		return nil, notALog(columnsError(err, names))
	}
	return &openedLogs{c: c, closeAll: closeAll, skipped: skipped, inputs: inputs, open: open}, nil
}

// notALog words the error of a log that cannot be read (a
// *relog.InputError) for people: "NAME: not a readable .blg log: …".
func notALog(err error) error {
	var ie *relog.InputError
	if errors.As(err, &ie) {
		err = &fileError{ie.Name, fmt.Errorf("not a readable .blg log: %w", ie.Err)}
	}
	return err
}

// checkSelection returns an error when the selection of opts keeps nothing
// of logs that have samples: no column matches -c, or no sample lies
// between -b and -e (the error then gives the logs' time range, read again
// without -b and -e by open).
func checkSelection(c *relog.Converter, names []string, opts relog.Options, open func(relog.Options) (*relog.Converter, error)) error {
	if c.ScanErr() != nil {
		return nil // the damage is reported after what could be read
	}
	logs := names[0]
	if len(names) > 1 {
		logs = "the logs"
	}
	if len(c.Columns()) == 0 && len(opts.Counters) > 0 {
		pats := pathList(opts.Counters)
		return fmt.Errorf("no counter of %s matches %s (perfcalc relog %s -q lists them)", logs, pats.String(), strings.Join(names, " "))
	}
	if n, _, _ := c.Samples(); n > 0 || opts.Begin == 0 && opts.End == 0 {
		return nil
	}
	all, err := open(relog.Options{Counters: opts.Counters, MaxColumns: opts.MaxColumns})
	if err != nil {
		return err
	}
	n, first, last := all.Samples()
	if n == 0 {
		return nil // nothing to select from: the header alone is right
	}
	var b []byte
	b = append(b, "nothing selected: "...)
	switch {
	case opts.Begin > last:
		b = append(b, "-b "...)
		b = logtext.AppendTime(b, opts.Begin)
		b = append(b, " is after the last sample"...)
	case opts.End != 0 && opts.End < first:
		b = append(b, "-e "...)
		b = logtext.AppendTime(b, max(opts.End, 0)) // −1: FILETIME 0 (endFT)
		b = append(b, " is before the first sample"...)
	default:
		b = append(b, "no sample lies between -b and -e"...)
	}
	b = append(b, " ("...)
	b = append(b, logs...)
	b = append(b, " runs from "...)
	b = logtext.AppendTime(b, first)
	b = append(b, " to "...)
	b = logtext.AppendTime(b, last)
	b = append(b, ')')
	return errors.New(string(b))
}

// noteSkipped says on standard error that the first reading of the logs
// skipped n events (see openLogsCounting), when it did.
func noteSkipped(stderr io.Writer, cmd string, logs []string, n int64) {
	if n == 0 {
		return
	}
	what := logs[0]
	if len(logs) > 1 {
		what = "the logs"
	}
	events := " events were"
	if n == 1 {
		events = " event was"
	}
	fmt.Fprintf(stderr, "perfcalc %s: note: %s: %d%s skipped (not PDH's, or of an unknown type: a damaged event header?); a sample may be missing\n", cmd, what, n, events)
}

// logError names the log of a damage: a merge's errors name their log
// already.
func logError(names []string, err error) error {
	var ie *relog.InputError
	if len(names) > 1 || errors.As(err, &ie) {
		return err
	}
	return fmt.Errorf("%s: %w", names[0], err)
}

// writeQuery writes what -q reports: the counter paths (their control
// characters escaped: termtext.AppendVisible), then the time range and the
// number of samples, as relog -q lists them.
func writeQuery(w io.Writer, c *relog.Converter) error {
	var b []byte
	for _, col := range c.Columns() {
		b = termtext.AppendVisible(b, col.Path)
		b = append(b, '\n')
	}
	n, begin, end := c.Samples()
	b = append(b, "\nTime Begin: "...)
	if n > 0 {
		b = logtext.AppendTime(b, begin)
	}
	b = append(b, "\nTime End:   "...)
	if n > 0 {
		b = logtext.AppendTime(b, end)
	}
	b = append(b, "\nSamples:    "...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, '\n')
	_, err := w.Write(b)
	return err
}
