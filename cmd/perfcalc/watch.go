package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfcalc/perfcalc/collect"
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/logtext"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/termtext"
)

var watchUsage = `Usage:
  perfcalc watch [PATH ...] [-c PATH ...] [-cf FILE] [-si INTERVAL] [-sc N] [-f ` + formatNames(forWatch, formatCSV, "|") + `] [-o FILE]
                 [--source registry|v2|pdh] [--log] [--digits 20|17] [--options LIST] [--save DIR] [--identity pdh|pid]
  perfcalc watch -q [OBJECT] | -qx [OBJECT]  [--source registry|v2|pdh]

Samples this machine's live counters, as Windows' typeperf does, and
computes them with perfcalc's engine (Windows only). Counter paths come as
arguments, with -c (repeatable) and from -cf (one per line), in that order;
wildcards are expanded at the first sample, in the order of the paths.

Output (typeperf's): an empty line, the header "(PDH-CSV 4.0)" and the paths,
then one row per sample: the local time (MM/DD/YYYY HH:MM:SS.mmm) and the
values with six decimals (%f), " " where a value is not ready. Every field is
quoted, lines end with CR LF; -f tsv separates with tabs ("(PDH-TSV 4.0)").
--log writes the text of relog and logman logs instead: the header with the
time zone, "(PDH-CSV 4.0) (UTC+01:00)(-60)", and values with 20 significant
digits (--digits 17 as Windows before about 2020). -f json writes one JSON
object per row: {"time":"2026-01-02T03:04:05.678","values":{"PATH":1.5,...}}
(null where a value is not ready). -f bin (typeperf's -f BIN; the default for
-o FILE.blg) writes a perfmon binary log of the raw values, which perfcalc
relog reads back to the values --log prints (but the first row's rates): one
counter-list entry per column, each sample flushed in 16 KiB buffers of its
own, so that a log cut short (a power loss) reads up to its last whole
buffer; the registry and pdh sources only (v2 gives no time bases). The
first row comes one interval after the
start, with every rate computed (a first sample is taken at once and not
printed). An instance that appears later is not added; one that goes away
prints " ".

-si is the interval, [[hh:]mm:]ss (default 1 second; 250ms-style durations
too); -sc stops after that many rows (default: until Ctrl-C, which ends the
run cleanly with every row written). -o writes the rows to a file as they
come, instead of standard output (-o -: standard output, as no -o). --save
DIR keeps every raw capture there, so that any value can be computed again
with perfcalc values or calc (an -o, -cf or --names-file there under a name
the captures take, counter-009.multisz, v1-000001.bin, ..., is refused).

` + extensionHelp(forWatch, formatCSV) + `-q lists the counters of OBJECT (every object when none) as \Object(*)\Counter;
-qx lists them with their instances.

Sources: registry (V1, RegQueryValueEx on HKEY_PERFORMANCE_DATA, the
default), v2 (PerfLib V2 counter sets), pdh (PDH's raw values).

Options (comma-separated): cap100, scale, 1000, wrap32. The default is no
cap and no scaling.

` + identityHelp + `(watch: the registry source; its columns are the processes of the first
sample, and a sample's breaks are noted on standard error. The v2
source's Process V2 names its instances name:pid already; the pdh source
pairs by name, as PDH does.)

` + namesHelp + `
Flags:
`

func init() {
	register(command{"watch", "sample live counters like typeperf (Windows); -q/-qx list them", runWatch})
}

// openCollector opens the live collector; tests replace it with one over
// recorded captures.
var openCollector = collect.Open

// watchContext is the context of a run, done at Ctrl-C; tests replace it.
var watchContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// intervalFlag is -si: [[hh:]mm:]ss, or a Go duration such as 500ms.
type intervalFlag time.Duration

func (f *intervalFlag) String() string { return time.Duration(*f).String() }

func (f *intervalFlag) Set(v string) error {
	if d, err := time.ParseDuration(v); err == nil && strings.ContainsAny(v, "hmsuµn") {
		if d <= 0 {
			return errors.New("the interval must be positive")
		}
		*f = intervalFlag(d)
		return nil
	}
	parts := strings.Split(v, ":")
	if len(parts) > 3 {
		return errors.New("want [[hh:]mm:]ss")
	}
	var secs int64
	for _, p := range parts {
		n, err := strconv.ParseUint(p, 10, 31)
		if err != nil {
			return errors.New("want [[hh:]mm:]ss")
		}
		secs = secs*60 + int64(n) // at most about 2^31·3601: no overflow
	}
	if secs <= 0 {
		return errors.New("the interval must be positive")
	}
	if secs > maxIntervalSecs {
		return errors.New("the interval must be at most " + maxInterval.String() + " (2562047:47:16)")
	}
	*f = intervalFlag(time.Duration(secs) * time.Second)
	return nil
}

// maxInterval is the longest -si in whole seconds that a time.Duration
// holds (about 292 years).
const (
	maxIntervalSecs = int64(math.MaxInt64 / time.Second)
	maxInterval     = time.Duration(maxIntervalSecs) * time.Second
)

func runWatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	var counters counterFlags
	counters.register(fs, "a counter path to sample")
	interval := intervalFlag(time.Second)
	fs.Var(&interval, "si", "sample interval, [[hh:]mm:]ss")
	count := fs.Int("sc", 0, "number of samples (rows) to write; 0 = until Ctrl-C")
	format := addFormatFlag(fs, forWatch, formatCSV)
	out := fs.String("o", "", "write the rows to this file instead of standard output")
	source := fs.String("source", "registry", "where the raw data comes from: registry, v2 or pdh")
	logText := fs.Bool("log", false, "relog's and logman's text (zone in the header, --digits significant digits) instead of typeperf's")
	digits := addDigitsFlag(fs, engine.DefaultDigits)
	options := fs.String("options", "", "comma-separated: cap100, scale, 1000, wrap32")
	save := fs.String("save", "", "keep every raw capture in this folder")
	pairing := addIdentityFlag(fs)
	list := fs.Bool("q", false, "list the counters of an object (or of every object)")
	listX := fs.Bool("qx", false, "list the counters with their instances")
	fs.Bool("y", false, "answer yes to every question (typeperf's -y; perfcalc asks none)")
	var names namesFlags
	names.register(fs)
	pos, status, ok := parseCommandArgs(fs, watchUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	if err := names.check(); err != nil {
		return failCommand(stderr, "watch", err)
	}
	fail := func(status int, format string, a ...any) int {
		fmt.Fprintf(stderr, "perfcalc watch: "+format+"\n", a...)
		return status
	}
	kind, err := collect.ParseKind(*source)
	if err != nil {
		return fail(exitUsage, "--source: %q is not registry, v2 or pdh", *source)
	}
	opts, err := parseQueryOptions(*options)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	f, err := format.format(*out)
	if err != nil {
		return failCommand(stderr, "watch", err)
	}
	if *count < 0 {
		return fail(exitUsage, "-sc: %d is not a number of samples", *count)
	}
	if f == formatBin && kind == collect.V2 {
		return fail(exitUsage, "-f bin: --source v2 does not give the counters' time bases that a log needs; use --source registry or pdh")
	}
	if *list || *listX {
		if len(pos) > 1 || len(counters.c) > 0 || counters.cf != "" {
			return fail(exitUsage, "-q and -qx take at most one object name")
		}
		object := ""
		if len(pos) == 1 {
			object = pos[0]
		}
		return watchList(kind, object, *listX, stdout, stderr)
	}
	var args0 pathList // the arguments come first, then -c, then -cf
	for _, a := range pos {
		if err := args0.Set(a); err != nil {
			return fail(exitUsage, "%v", err)
		}
	}
	if err := checkNotInput(*out, stdin, append(names.inputs(), namedInput{counters.cf, "-cf"})...); err != nil {
		return failCommand(stderr, "watch", err)
	}
	files := []namedOutput{{*out, "-o"}, {counters.cf, "-cf"}}
	for _, n := range names.files {
		files = append(files, namedOutput{n, "--names-file"})
	}
	if err := checkNotSaved(*save, files...); err != nil {
		return failCommand(stderr, "watch", err)
	}
	in := &stdinOnce{r: stdin}
	listed, err := counters.paths(in)
	if err != nil {
		return failCommand(stderr, "watch", err)
	}
	var machine []embeddedTable
	if names.lang != "" {
		machine = machineTables() // PdhAddEnglishCounter's tables
	}
	nm, err := names.build(machine, in)
	if err != nil {
		return failCommand(stderr, "watch", err)
	}
	paths := append(args0, listed...)
	if len(paths) == 0 {
		return fail(exitUsage, "give the counters to sample: PATH arguments, -c or -cf (see perfcalc watch -h)")
	}

	if *pairing == identity.PID && kind == collect.PDH {
		fmt.Fprintln(stderr, "perfcalc watch: note: the pdh source pairs instances by name, as PDH does: --identity pid needs --source registry")
	}
	col, err := openCollector(kind, collect.Config{Paths: paths, Options: opts, SaveDir: *save, Identity: *pairing})
	if errors.Is(err, collect.ErrNeedsWindows) {
		return needsWindows(stderr)
	}
	if err != nil {
		return fail(exitError, "%v", err)
	}
	defer col.Close()

	var w io.Writer = stdout
	var file *os.File
	toStdout := *out == "" || *out == stdinName // -o - is standard output, as relog's
	if !toStdout {
		if file, err = os.Create(*out); err != nil {
			return fail(exitError, "%v", err)
		}
		w = file
	}
	tw := &watchWriter{w: bufio.NewWriter(w), paths: paths, format: f, log: *logText, digits: int(*digits)}
	var noted []string // the identity notes written
	if nm != nil {
		tw.paths = nm.patterns(paths) // the columns are matched in English
	}
	if f == formatBin {
		tw.bin = &binWatch{out: logOutput(w)}
		if !toStdout {
			tw.bin.name = *out
		}
	}
	ctx, stop := watchContext()
	defer stop()
	runErr := col.Run(ctx, time.Duration(interval), *count, func(s *collect.Sample) error {
		for _, e := range s.Errors {
			fmt.Fprintf(stderr, "perfcalc watch: sample %d: %v\n", s.Index, e)
		}
		for _, n := range s.IdentityNotes {
			if !slices.Contains(noted, n) {
				noted = append(noted, n)
				fmt.Fprintf(stderr, "perfcalc watch: note: %s\n", n)
			}
		}
		if s.IdentityBreaks > 0 {
			fmt.Fprintf(stderr, "perfcalc watch: note: sample %d: %s\n", s.Index, breaksNote(int64(s.IdentityBreaks)))
		}
		if nm != nil {
			s.Values = nm.values(s.Values, nil)
		}
		return tw.row(s)
	})
	if runErr == nil && !tw.started {
		runErr = errors.New("no counter matches " + paths.String())
	}
	werr := errors.Join(tw.w.Flush(), tw.closeBin())
	nm.finish(stderr, "watch", names.report)
	if file != nil {
		werr = errors.Join(werr, file.Close())
	}
	// typeperf's closing lines go to the console, unless JSON rows are
	// written there.
	console := !toStdout || f != formatJSON && f != formatBin
	if console {
		io.WriteString(stdout, "Exiting, please wait...\r\n")
	}
	if err := errors.Join(runErr, werr); err != nil {
		return fail(exitError, "%v", err)
	}
	if console {
		io.WriteString(stdout, "The command completed successfully.\r\n")
	}
	return exitOK
}

// needsWindows says what to do instead of a live run.
func needsWindows(stderr io.Writer) int {
	fmt.Fprintln(stderr, "perfcalc watch: live collection needs Windows; here, convert a .blg log with perfcalc relog, or compute two recorded captures with perfcalc values")
	return exitUsage
}

// watchList prints -q (\Object(*)\Counter) or -qx (every instance) from
// one sample of the object (of every object when object is "").
func watchList(kind collect.Kind, object string, instances bool, stdout, stderr io.Writer) int {
	var paths []counterpath.Path
	if object != "" {
		paths = []counterpath.Path{
			{Object: object, HasInstance: true, Instance: "*", Counter: "*"},
			{Object: object, Counter: "*"},
		}
		if kind == collect.PDH {
			paths = paths[:1]
		}
	}
	col, err := openCollector(kind, collect.Config{Paths: paths})
	if errors.Is(err, collect.ErrNeedsWindows) {
		return needsWindows(stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "perfcalc watch: %v\n", err)
		return exitError
	}
	defer col.Close()
	var s collect.Sample
	if err := col.Collect(&s); err != nil {
		fmt.Fprintf(stderr, "perfcalc watch: %v\n", err)
		return exitError
	}
	w := bufio.NewWriter(stdout)
	seen := map[string]bool{}
	for i := range s.Values {
		p := s.Values[i].Parts
		p.Machine = ""
		if !instances && p.HasInstance {
			p.Parent, p.Instance, p.Index = "", "*", 0
		}
		line := p.String()
		if !seen[line] {
			seen[line] = true
			w.WriteString(termtext.Visible(line))
			w.WriteString("\r\n")
		}
	}
	if err := w.Flush(); err != nil {
		return exitError
	}
	return exitOK
}

// watchWriter writes the rows of a run; the columns are fixed by the
// first row.
type watchWriter struct {
	w       *bufio.Writer
	paths   pathList
	format  outputFormat // csv, tsv, json or bin
	bin     *binWatch    // bin: the log
	log     bool
	digits  int
	started bool
	columns []string       // the column paths
	index   map[string]int // path → column
	cells   []*query.Value // per column: this row's value
	times   logtext.Times
	buf     []byte
}

// row writes one sample, the header first.
func (tw *watchWriter) row(s *collect.Sample) error {
	if !tw.started {
		tw.layout(s.Values)
		if len(tw.columns) == 0 {
			return nil // nothing matched yet
		}
		tw.started = true
		tw.header(s.Time)
	}
	if tw.bin != nil {
		return tw.binRow(s)
	}
	clear(tw.cells)
	// A path that the sample holds twice (a V2 counter set that repeats
	// a counter) shows its last value.
	for i := range s.Values {
		if c, ok := tw.index[string(s.Values[i].Path)]; ok {
			tw.cells[c] = &s.Values[i]
		}
	}
	_, off := s.Time.Zone()
	local := filetimeOf(s.Time) + int64(off)*10_000_000 // the time on the wall clock
	b := tw.buf[:0]
	if tw.format == formatJSON {
		b = tw.times.AppendJSONRow(b, local)
		for c, v := range tw.cells {
			if c > 0 {
				b = append(b, ',')
			}
			x, ok := value(v)
			b = append(logtext.AppendJSONString(b, tw.columns[c]), ':')
			b = logtext.AppendJSONValue(b, x, ok)
		}
		b = append(b, logtext.JSONRowEnd...)
	} else {
		sep := tw.dialect().Sep()
		b = tw.times.AppendField(b, local)
		for _, v := range tw.cells {
			if x, ok := value(v); tw.log {
				b = logtext.AppendValue(b, sep, x, ok, tw.digits)
			} else {
				b = logtext.AppendFixedValue(b, sep, x, ok)
			}
		}
		b = logtext.EndRow(b)
	}
	tw.buf = b
	if _, err := tw.w.Write(b); err != nil {
		return err
	}
	// Each row reaches the output as it is sampled.
	return tw.w.Flush()
}

// value returns a cell's value and whether it is valid (a cell that the
// sample lacks is not).
func value(v *query.Value) (float64, bool) {
	if v == nil || v.Status != engine.Valid {
		return 0, false
	}
	return v.Value, true
}

// dialect is the text dialect of the CSV and TSV formats.
func (tw *watchWriter) dialect() logtext.Dialect {
	if tw.format == formatTSV {
		return logtext.TSV
	}
	return logtext.CSV
}

// layout fixes the columns: for each path in order, the values it
// matches, in the sample's order, each once.
func (tw *watchWriter) layout(vals []query.Value) {
	tw.index = map[string]int{}
	for _, p := range tw.paths {
		for i := range vals {
			path := string(vals[i].Path)
			if _, dup := tw.index[path]; dup {
				continue
			}
			if !p.Matches(vals[i].Parts) {
				continue
			}
			tw.index[path] = len(tw.columns)
			tw.columns = append(tw.columns, path)
		}
	}
	tw.cells = make([]*query.Value, len(tw.columns))
}

// header writes typeperf's empty line and header, "(PDH-CSV 4.0)", or
// relog's with the time zone, once.
func (tw *watchWriter) header(t time.Time) {
	if tw.format == formatJSON || tw.format == formatBin {
		return
	}
	d := tw.dialect()
	var z logtext.Zone
	b := []byte("\r\n") // typeperf starts with an empty line
	if tw.log {
		_, off := t.Zone()
		b, z = b[:0], logtext.OffsetZone(int32(-off/60))
	}
	b = logtext.AppendTitleField(b, d, z)
	for _, c := range tw.columns {
		b = logtext.AppendField(b, d.Sep(), c)
	}
	tw.w.Write(logtext.EndRow(b))
}
