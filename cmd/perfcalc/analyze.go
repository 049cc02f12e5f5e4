package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/analysis/htmlreport"
	"github.com/perfcalc/perfcalc/analysis/palxml"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/engine/termtext"
)

// exitAlerts is analyze's exit status with --fail-on when an alert of that
// condition (or worse) was raised.
const exitAlerts = 3

const analyzeUsage = `Usage:
  perfcalc analyze LOG... [--thresholds FILE.xml]... [--set NAME=VALUE]... [--interval auto|SECONDS] [--pal-compat] [-f html|json|text] [-o OUT] [--fail-on warning|critical] [--identity pdh|pid]

Answers what was wrong with a machine: runs threshold analyses over its
perfmon log (.blg), cut into time slices, and reports statistics and
alerts, as PAL (Performance Analysis of Logs) does, on any operating
system.

Without --thresholds, perfcalc's own default analyses run (processor,
memory, disk, network, process handles and threads …; the table of
doc/DEFAULT-ANALYSES.md gives their thresholds and references).
--thresholds FILE.xml runs one of PAL's threshold files instead (repeat
it for several; the files they inherit are read relative to each file's
folder, a name differing only in case found as on Windows; threshold files
are regular files of at most 16 MiB, each read once). --set
NAME=VALUE sets one of their questions (--set PhysicalMemory=32); a
question that has no default (an options question) must be set. What a
file holds that perfcalc cannot evaluate (hand-written alert loops,
VBScript) is listed on standard error and in the report, with the reason.

--interval is the time slices' length in seconds, or auto (the default:
the log's duration ÷ 30). --pal-compat reproduces PAL's numbers, its
defects included (doc/ANALYSIS.md lists every difference).

Each LOG is a .blg file, a folder (its *.blg files) or a glob pattern
(logs/*.blg, quoted), as for perfcalc convert; "-" reads one log from
standard input. Logs of one machine (the machine their counters name) are
merged as perfcalc relog merges them (up to 32); logs of several machines
get one analysis each: the report has a section per machine and a fleet
summary (which machines had critical alerts, when). Among several logs, one
that cannot be read is named on standard error and left out; the others
are reported and the exit status is 1.

-f html writes one self-contained HTML file (inline charts and styles, no
script, opens offline and prints): the parameters, the alerts in time
order, then per category and analysis its description, charts with the
warning and critical bands, statistics and alerts by slice. -f json writes
the same content as JSON (doc/ANALYSIS.md §6 documents it): a top-level
"alerts" array of objects with machine, analysis, category, condition,
priority, threshold, path, slice, start, end, min, avg, max and trend; for
logs of several machines {"alerts":[...], "machines":[REPORT, ...]} (every
machine's alerts in time order, then each machine's report). -f text writes a
summary for the terminal (names' control characters escaped: \x1b, \u202e
…). Without -f, -o's extension picks the format (.html or .htm: html,
.json: json, .txt: text); standard output gets text.

-o writes to a file through a temporary file that replaces it at the end:
the file is complete or left as it was. An -o that is an input (a log, a
threshold file or a file it inherits, a names file) is refused.

A damaged log is analyzed up to the damage: the report covers the samples
before it, and the command names the damage and exits with status 1.

The values of the counters analyzed (8 bytes each: exact percentiles need
them all) stay in memory up to 8 MiB; beyond, they go to a temporary file
in the temporary folder ($TMPDIR), which never outlives the command.

The exit status is 0; 1 when a log or threshold file cannot be read (or
is damaged); 2 for a bad command line; 3 with --fail-on warning|critical when an alert of
that condition or worse was raised (the report is written all the same).

` + identityHelp + `(analyze: the thresholds of \Process(*) apply to each process, name:pid.)

` + namesHelp + `
Flags:
`

func init() {
	register(command{"analyze", "run threshold analyses (perfcalc's or PAL's) over .blg logs: alerts, statistics, an HTML report", runAnalyze})
}

// stringList is a repeatable flag of strings.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, " ") }

func (l *stringList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// setFlag is --set NAME=VALUE, repeatable: the values of threshold files'
// questions, by name; the names in order, as given.
type setFlag struct {
	values map[string]string
	args   []string
}

func (s *setFlag) String() string { return strings.Join(s.args, " ") }

func (s *setFlag) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return errors.New("want NAME=VALUE (PhysicalMemory=32)")
	}
	if s.values == nil {
		s.values = map[string]string{}
	}
	s.values[name] = value
	s.args = append(s.args, v)
	return nil
}

// sliceIntervalFlag is --interval: auto (0) or a positive number of seconds.
type sliceIntervalFlag int64

func (f *sliceIntervalFlag) String() string {
	if *f == 0 {
		return "auto"
	}
	return strconv.FormatInt(int64(*f), 10)
}

func (f *sliceIntervalFlag) Set(v string) error {
	if strings.EqualFold(v, "auto") {
		*f = 0
		return nil
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(v, "s"), 10, 64)
	if err != nil || n < 1 || n > 100*365*86400 {
		return errors.New("want auto or a positive number of seconds")
	}
	*f = sliceIntervalFlag(n)
	return nil
}

// analyzeFormat is analyze's output format.
type analyzeFormat string

// analyze's formats.
const (
	analyzeText analyzeFormat = "text"
	analyzeJSON analyzeFormat = "json"
	analyzeHTML analyzeFormat = "html"
)

// pickAnalyzeFormat returns the format -f names, or without -f the one
// -o's extension names: text for standard output, a file that is not
// regular and a name without extension.
func pickAnalyzeFormat(f, out string) (analyzeFormat, error) {
	switch strings.ToLower(f) {
	case "text", "json", "html":
		return analyzeFormat(strings.ToLower(f)), nil
	case "":
	default:
		return "", &usageError{"-f: " + strconv.Quote(f) + " is not html, json or text"}
	}
	ext := strings.ToLower(filepath.Ext(out))
	if out == "" || out == stdinName || ext == "" || !regularOrAbsent(out) {
		return analyzeText, nil
	}
	switch ext {
	case ".html", ".htm":
		return analyzeHTML, nil
	case ".json":
		return analyzeJSON, nil
	case ".txt":
		return analyzeText, nil
	}
	return "", &usageError{"-o " + out + ": the extension " + ext + " names no format that perfcalc analyze writes (.html, .htm, .json or .txt); give -f"}
}

func runAnalyze(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	var thresholds stringList
	var set setFlag
	var interval sliceIntervalFlag
	fs.Var(&thresholds, "thresholds", "a PAL threshold file (.xml) to run instead of perfcalc's default analyses; repeatable")
	fs.Var(&set, "set", "NAME=VALUE: the value of a threshold file's question; repeatable")
	fs.Var(&interval, "interval", "the time slices' length: auto (the log's duration ÷ 30) or seconds")
	palCompat := fs.Bool("pal-compat", false, "reproduce PAL's numbers, its defects included")
	format := fs.String("f", "", "output format: html, json or text (default: by -o's extension, else text)")
	out := fs.String("o", "", "write to this file (complete or left as it was) instead of standard output")
	failOn := fs.String("fail-on", "", "exit with status 3 when an alert of this condition or worse is raised: warning or critical")
	maxColumns := addMaxColumnsFlag(fs)
	identity := addIdentityFlag(fs)
	var names namesFlags
	names.register(fs)
	pos, status, ok := parseCommandArgs(fs, analyzeUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	fail := func(err error) int { return failCommand(stderr, "analyze", err) }
	if err := names.check(); err != nil {
		return fail(err)
	}
	var failCond analysis.Condition
	switch strings.ToLower(*failOn) {
	case "":
	case "warning":
		failCond = analysis.Warning
	case "critical":
		failCond = analysis.Critical
	default:
		return fail(&usageError{"--fail-on: " + strconv.Quote(*failOn) + " is not warning or critical (see perfcalc analyze -h)"})
	}
	if len(pos) == 0 {
		return fail(&usageError{"give the logs to analyze (perfcalc analyze LOG... [flags]; see perfcalc analyze -h)"})
	}
	f, err := pickAnalyzeFormat(*format, *out)
	if err != nil {
		return fail(err)
	}
	logs, err := expandLogs(pos, func(name, kind string) {
		fmt.Fprintf(stderr, "perfcalc analyze: note: %s is %s, not a regular file: skipped (give it by name to read it as a stream)\n", name, kind)
	})
	if err != nil {
		return fail(err)
	}
	inputs := make([]namedInput, 0, len(logs)+len(thresholds))
	for _, l := range logs {
		inputs = append(inputs, namedInput{l, "LOG"})
	}
	for _, t := range thresholds {
		inputs = append(inputs, namedInput{t, "--thresholds"})
	}
	inputs = append(inputs, names.inputs()...)
	if err := checkNotInput(*out, stdin, inputs...); err != nil {
		return fail(err)
	}
	var read thresholdFiles
	analyses, err := loadAnalyses(thresholds, set.values, read.reader())
	if err != nil {
		return fail(err)
	}
	// The files the threshold files inherit are inputs too.
	if err := checkNotInput(*out, stdin, read.inputs()...); err != nil {
		return fail(err)
	}
	for _, u := range analyses.Unsupported {
		noteUnsupported(stderr, u)
	}
	in := &stdinOnce{r: stdin}
	srcs, err := names.load(in)
	if err != nil {
		return fail(err)
	}
	groups, failed, err := machineGroups(logs, *maxColumns, in)
	if err != nil {
		return fail(err)
	}
	for _, err := range failed {
		failCommand(stderr, "analyze", err)
	}
	if len(groups) == 0 {
		return fail(errors.New("no log could be read"))
	}
	// The text summary prints no chart: none is kept (40 bytes a point per
	// series).
	opts := analysis.Options{Interval: int64(interval), PALCompat: *palCompat, NoCharts: f == analyzeText}
	var reports []*analysis.Report
	noted := map[analysis.Unsupported]bool{}
	for _, u := range analyses.Unsupported {
		noted[u] = true
	}
	var damaged []error // logs analyzed up to a damage
	for _, g := range groups {
		var rename func(string, string) (string, string)
		if srcs != nil {
			nm, err := srcs.namer(logTables(g))
			if err != nil {
				return fail(err)
			}
			rename = nm.rename
			defer nm.finish(stderr, "analyze", names.report)
		}
		r, err := analyzeLogs(g, analyses, opts, relog.Options{MaxColumns: *maxColumns, Identity: *identity, Rename: rename}, in, stderr)
		if r == nil {
			return fail(err)
		}
		if err != nil {
			damaged = append(damaged, err)
		}
		for _, u := range r.Unsupported { // what Run could not compute, once
			if !noted[u] {
				noted[u] = true
				noteUnsupported(stderr, u)
			}
		}
		reports = append(reports, r)
	}
	params := htmlreport.Params{Thresholds: thresholds, Interval: interval.String(), Set: set.args, Version: currentVersion().Version}
	for _, g := range groups {
		params.Logs = append(params.Logs, g...)
	}
	for _, err := range failed {
		params.NotRead = append(params.NotRead, err.Error())
	}
	note, err := writeOutput(*out, stdout, false, func(w io.Writer) error {
		return writeAnalysis(w, f, reports, params)
	})
	if st := finishOutput(stderr, "analyze", nil, note, err); st != exitOK {
		return st
	}
	for _, err := range damaged {
		failCommand(stderr, "analyze", err)
		fmt.Fprintf(stderr, "perfcalc analyze: note: the report covers the samples before the damage\n")
	}
	if len(failed) > 0 || len(damaged) > 0 {
		return exitError // the report leaves those logs, or their ends, out
	}
	if failCond != analysis.OK {
		for _, r := range reports {
			for i := range r.Alerts {
				if r.Alerts[i].Condition >= failCond {
					return exitAlerts
				}
			}
		}
	}
	return exitOK
}

// noteUnsupported says on standard error what could not be evaluated (its
// names escaped: termtext.AppendVisible).
func noteUnsupported(stderr io.Writer, u analysis.Unsupported) {
	fmt.Fprintf(stderr, "perfcalc analyze: note: not evaluated: %s: %s: %s\n", termtext.Visible(u.Analysis), termtext.Visible(u.What), termtext.Visible(u.Reason))
}

// loadAnalyses returns the analyses to run: perfcalc's defaults without
// threshold files, else the files read by palxml.LoadFiles through read
// (which reads the files they inherit relative to their folder) and
// joined. Each file gets
// the --set values of its own questions; a --set variable that no file
// asks is a usage error, as is an options question without a default that
// a threshold needs and is not set (palxml.ErrNoValue).
func loadAnalyses(files []string, values map[string]string, read func(string) (palxml.File, error)) (*analysis.Set, error) {
	if len(files) == 0 {
		if len(values) > 0 {
			return nil, &usageError{"--set " + strings.Join(sortedKeys(values), ", ") + ": no such question (perfcalc's default analyses ask none; --set is for threshold files' questions)"}
		}
		return analysis.Defaults(), nil
	}
	sets := make([]*analysis.Set, 0, len(files))
	asked := map[string]bool{}
	for _, name := range files {
		// the values of this file's questions: those Load does not refuse
		// as asked by no question
		own := map[string]string{}
		for k, v := range values {
			if _, err := palxml.LoadFiles(name, read, map[string]string{k: v}); !isNoQuestion(err) {
				own[k] = v
				asked[k] = true
			}
		}
		s, err := palxml.LoadFiles(name, read, own)
		switch {
		case errors.As(err, new(*palxml.MissingValueError)) || badValue(err, own):
			return nil, &usageError{err.Error()}
		case err != nil:
			return nil, err
		}
		sets = append(sets, s)
	}
	set := sets[0]
	if len(sets) > 1 {
		set = analysis.Join(sets...)
	}
	var unknown []string
	for _, k := range sortedKeys(values) {
		if !asked[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		var names []string
		for _, q := range set.Questions {
			names = append(names, q.Var)
		}
		which := "the threshold files ask none"
		if len(names) > 0 {
			which = "the threshold files ask " + strings.Join(names, ", ")
		}
		return nil, &usageError{"--set " + strings.Join(unknown, ", ") + ": no such question (" + which + ")"}
	}
	return set, nil
}

// isNoQuestion reports whether err is palxml's refusal of a value for no
// question of the file.
func isNoQuestion(err error) bool {
	return errors.As(err, new(*palxml.NoQuestionError))
}

// badValue reports whether err is palxml's refusal of a value given with
// --set (one of values) that does not fit its question's type (not a
// threshold file's own default that does not fit).
func badValue(err error, values map[string]string) bool {
	var ve *palxml.ValueError
	if !errors.As(err, &ve) {
		return false
	}
	for k := range values {
		if strings.EqualFold(k, ve.Question) {
			return true
		}
	}
	return false
}

// sortedKeys returns a map's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// expandLogs turns analyze's LOG arguments into log names as perfcalc
// convert reads them (expandInputs): a file as given, a folder's *.blg
// files, a glob pattern's files; files of folders and patterns that are
// not regular files are passed to skip. A file given twice is analyzed
// once. An argument that names nothing is an error.
func expandLogs(args []string, skip func(name, kind string)) ([]string, error) {
	for _, a := range args {
		if a == stdinName {
			if len(args) > 1 {
				return nil, &usageError{"standard input (-) can only be analyzed alone"}
			}
			return args, nil
		}
	}
	jobs := expandInputs(args, "", "", skip)
	var logs []string
	for _, j := range jobs {
		if j.err != nil && j.out == "" {
			return nil, &fileError{j.in, j.err}
		}
		logs = append(logs, j.in) // an error of its output's name does not apply
	}
	return logs, nil
}

// machineGroups groups the logs by the machine their counters name
// (analysis.MachineGroups, the module's grouping too: the first column's
// machine, case-insensitively), in the order of the logs: one log is its
// own group; several are each read once for their columns, and a log that
// cannot be read is left out, its error in failed (the others are
// analyzed).
func machineGroups(logs []string, maxColumns int, in *stdinOnce) (groups [][]string, failed []error, err error) {
	idx, failed, err := analysis.MachineGroups(len(logs), func(i int) (string, error) {
		c, closeIn, err := openLogs([]string{logs[i]}, relog.Options{MaxColumns: maxColumns}, in)
		if err != nil {
			return "", err
		}
		defer closeIn()
		return analysis.LogMachine(c), nil
	})
	if ge, ok := err.(*analysis.GroupsError); ok {
		return nil, nil, &usageError{fmt.Sprintf("%d logs of one machine (%s …): perfcalc merges at most %d", ge.Count, logs[ge.First], relog.MaxInputs)}
	}
	for _, g := range idx {
		names := make([]string, len(g))
		for k, i := range g {
			names[k] = logs[i]
		}
		groups = append(groups, names)
	}
	return groups, failed, err
}

// analyzeLogs runs the analyses over the logs of one machine, merged. A
// log damaged after some samples gives the report of those samples and
// the damage.
func analyzeLogs(logs []string, set *analysis.Set, opts analysis.Options, ropts relog.Options, in *stdinOnce, stderr io.Writer) (*analysis.Report, error) {
	c, closeIn, skipped, err := openLogsCounting(logs, ropts, in)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	noteSkipped(stderr, "analyze", logs, skipped)
	sp := &valuesSpill{}
	defer sp.close()
	opts.Spill, opts.Budget = sp, analyzeBudget
	r, err := analysis.Run(c, set, opts)
	if err != nil {
		err = logError(logs, err)
	}
	what := ""
	if len(logs) > 1 {
		what = strings.Join(logs, ", ")
	}
	noteIdentity(stderr, "analyze", what, ropts.Identity, c.IdentityNotes(), c.IdentityBreaks())
	if r != nil && ropts.Identity == identity.PID {
		r.Identity, r.IdentityBreaks = "pid", c.IdentityBreaks()
	}
	return r, err
}

// analyzeBudget is the bytes of values analyze keeps in memory per
// analysis (analysis.Options.Budget); those beyond go to a temporary file.
var analyzeBudget = analysis.DefaultBudget

// valuesSpilled counts the bytes written to analyze's temporary files (for
// tests).
var valuesSpilled atomic.Int64

// valuesSpill is analyze's temporary file of the values beyond the budget
// (analysis.Options.Spill), in os.TempDir(): created at the first write,
// so that a log whose values fit in the budget touches no file, by
// createUnnamed, so that it never outlives the command (unnamed, or
// removed at once, on SIGINT or SIGTERM, or by close).
type valuesSpill struct {
	f    *os.File
	done func()
}

// WriteAt writes p at off, creating the file first.
func (s *valuesSpill) WriteAt(p []byte, off int64) (int, error) {
	if s.f == nil {
		f, done, err := createUnnamed(os.TempDir())
		if err != nil {
			return 0, fmt.Errorf("a temporary file in %s: %w", os.TempDir(), err)
		}
		s.f, s.done = f, done
	}
	n, err := s.f.WriteAt(p, off)
	valuesSpilled.Add(int64(n))
	return n, err
}

// ReadAt reads len(p) bytes at off.
func (s *valuesSpill) ReadAt(p []byte, off int64) (int, error) {
	if s.f == nil {
		return 0, io.ErrUnexpectedEOF
	}
	return s.f.ReadAt(p, off)
}

// close closes and removes the file.
func (s *valuesSpill) close() {
	if s.f != nil {
		s.f.Close()
		s.done()
		s.f = nil
	}
}

// writeAnalysis writes the reports in the format f.
func writeAnalysis(w io.Writer, f analyzeFormat, reports []*analysis.Report, p htmlreport.Params) error {
	switch f {
	case analyzeHTML:
		return htmlreport.Write(w, reports, p)
	case analyzeJSON:
		// In pieces as it goes: a wide log's charts are tens of MB of JSON.
		var err error
		if len(reports) == 1 {
			err = reports[0].WriteJSON(w)
		} else {
			err = analysis.WriteFleetJSON(w, reports)
		}
		if err == nil {
			_, err = io.WriteString(w, "\n")
		}
		return err
	}
	var b []byte
	for i, r := range reports {
		if i > 0 {
			b = append(b, '\n')
		}
		b = r.AppendText(b)
	}
	if len(reports) > 1 {
		b = appendFleetText(b, reports)
	}
	_, err := w.Write(b)
	return err
}

// appendFleetText appends the fleet summary of the text format: per
// machine its critical and warning alerts, and the slices of the
// critical ones.
func appendFleetText(b []byte, reports []*analysis.Report) []byte {
	b = append(b, "\nFleet: "...)
	b = strconv.AppendInt(b, int64(len(reports)), 10)
	b = append(b, " machines\n"...)
	for _, r := range reports {
		var crit, warn int
		var when []string
		last := -1
		for i := range r.Alerts {
			a := &r.Alerts[i]
			switch a.Condition {
			case analysis.Critical:
				crit++
				if a.Slice != last {
					last = a.Slice
					when = append(when, utcText(a.Start, r.Bias))
				}
			case analysis.Warning:
				warn++
			}
		}
		name := r.Machine
		if name == "" {
			name = "(local machine)"
		}
		b = fmt.Appendf(b, "  %-20s %5d critical %5d warning", name, crit, warn)
		if len(when) > 0 {
			const most = 5
			more := ""
			if len(when) > most {
				more = fmt.Sprintf(" (+%d more)", len(when)-most)
				when = when[:most]
			}
			b = append(b, "  critical at "...)
			b = append(b, strings.Join(when, ", ")...)
			b = append(b, more...)
		}
		b = append(b, '\n')
	}
	return b
}

// utcText writes a local FILETIME of a log of bias minutes as ISO 8601
// UTC.
func utcText(ft int64, bias int32) string {
	const fileTimeUnix = 116_444_736_000_000_000
	u := ft + int64(bias)*600_000_000 - fileTimeUnix
	return time.Unix(0, 0).Add(time.Duration(u) * 100).UTC().Format("2006-01-02T15:04:05Z")
}
