package main

import (
	"bytes"
	"flag"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/logtext"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/engine/termtext"
)

const statsUsage = `Usage:
  perfcalc stats IN.blg [IN.blg ...] [-c PATH ...] [-cf FILE] [-b TIME] [-e TIME] [--valid] [--percentiles] [--json] [-o OUT] [--max-columns N] [--identity pdh|pid]

Summarises every counter of a perfmon binary log (.blg), like PDH's
PdhComputeCounterStatistics: the number of valid values, the number of
samples skipped (no value yet, bad data, absent instance), the minimum, the
maximum and the mean. The mean of a rate, timer or average is computed from
the first and the last good sample (the counter's average over the whole
log); that of an instantaneous counter is the mean of its values. Values are
neither capped nor scaled; the columns are those of perfcalc relog, and
several logs are merged as perfcalc relog merges them (a counter that two
logs have is one series). -c and -cf select counters, -b and -e a time
range (the log's local time), as in perfcalc relog: the statistics are
those of the samples relog -b -e keeps.

The table has one line per counter (its path's control characters escaped:
\x1b, \u202e …); a missing value prints as "-", a mean without a value as its
status in parentheses. --json prints an array of
{"counter", "count", "skipped", "min", "max", "mean", "meanStatus"} objects
(min, max and mean null when there is none).

Two flags add figures that are not PDH's (the default output stays
PDH's). --valid adds the number of invalid samples (a bad status, or the
instance absent: one bad sample makes two pairs of a rate skipped) and the
mean of the valid values (their arithmetic mean, which stands when PDH's
mean of the first and the last sample does not, for example NegativeValue
when one of them is bad); the table then labels the means "PDH mean" and
"Valid mean", and --json adds "invalid" and "validMean". --percentiles
adds the 90th, 95th and 99th percentiles of the valid values (the nearest
rank: each one of the values; numpy's method="inverted_cdf"): columns
P90, P95, P99, and "p90", "p95", "p99" in --json. Exact percentiles need
every value: with --percentiles each valid value is kept until the end
(8 bytes).

IN.blg "-" reads the log from standard input. -o writes as perfcalc relog
-o does (complete or left as it was; /dev/null and pipes directly). A
damaged log is summarised up to the damage, and the command exits with
status 1 (-o FILE is then left as it was; --keep-partial writes
FILE.partial).

--max-columns N (default 1000000) refuses logs of more than N columns
(counters of distinct instances), exit status 1, before memory runs out:
each column holds about 1 KB until the end, and each value 40 bytes. 0
sets no limit.

` + identityHelp + `
` + namesHelp + `
Flags:
`

func init() {
	register(command{"stats", "count, min, max and mean of every counter of a .blg log", runStats})
}

func runStats(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	var counters counterFlags
	counters.register(fs, "keep the counters matching this path")
	asJSON := fs.Bool("json", false, "print a JSON array")
	out := fs.String("o", "", "write to this file (complete or left as it was) instead of standard output")
	keepPartial := fs.Bool("keep-partial", false, "when the log is damaged, keep the statistics of the samples before the damage in -o FILE.partial")
	valid := fs.Bool("valid", false, "add the invalid samples and the mean of the valid values (not PDH's)")
	percentiles := fs.Bool("percentiles", false, "add the 90th, 95th and 99th percentiles of the valid values (keeps every value)")
	var begin, end timeFlag
	fs.Var(&begin, "b", "first time to keep, local time of the log (MM/DD/YYYY HH:MM:SS[.mmm] or ISO 8601), as relog -b")
	fs.Var(&end, "e", "last time to keep, local time of the log, as relog -e")
	maxColumns := addMaxColumnsFlag(fs)
	identity := addIdentityFlag(fs)
	var names namesFlags
	names.register(fs)
	pos, status, ok := parseCommandArgs(fs, statsUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) == 0 || len(pos) > relog.MaxInputs {
		return failCommand(stderr, "stats", &usageError{"give one to 32 input logs (perfcalc stats IN.blg [IN.blg ...] [flags]; see perfcalc stats -h)"})
	}
	if err := names.check(); err != nil {
		return failCommand(stderr, "stats", err)
	}
	if err := checkLogOutputs(*out, *keepPartial, stdin, append(logInputs(pos, counters.cf), names.inputs()...)...); err != nil {
		return failCommand(stderr, "stats", err)
	}
	in := &stdinOnce{r: stdin}
	paths, err := counters.paths(in)
	if err != nil {
		return failCommand(stderr, "stats", err)
	}
	statsOpts := relog.Options{Counters: paths, Begin: begin.ft, End: end.endFT(), MaxColumns: *maxColumns, Identity: *identity}
	nm, err := names.build(logTables(pos), in)
	if err != nil {
		return failCommand(stderr, "stats", err)
	}
	if nm != nil {
		statsOpts.Rename = nm.rename
		defer nm.finish(stderr, "stats", names.report)
	}
	c, closeIn, skipped, err := openLogsCounting(pos, statsOpts, in)
	if err != nil {
		return failCommand(stderr, "stats", err)
	}
	defer closeIn()
	defer noteSkipped(stderr, "stats", pos, skipped)
	var (
		st      []engine.Statistics
		pc      []relog.Percentiles
		convErr error
	)
	if *percentiles {
		st, pc, convErr = c.StatisticsPercentiles()
	} else {
		st, convErr = c.Statistics()
	}
	noteIdentity(stderr, "stats", "", *identity, c.IdentityNotes(), c.IdentityBreaks())
	var text []byte
	if *asJSON {
		text = appendStatsJSON(nil, c.Columns(), st, *valid, pc)
	} else {
		text = appendStatsTable(nil, c.Columns(), st, *valid, pc)
	}
	write := func(w io.Writer) error {
		if _, err := w.Write(text); err != nil {
			return err
		}
		return convErr
	}
	note, err := writeOutput(*out, stdout, *keepPartial, write)
	if convErr != nil {
		convErr = logError(pos, convErr)
	}
	return finishOutput(stderr, "stats", convErr, note, err)
}

// statNumber appends v as the shortest decimal that reads back as v.
func statNumber(dst []byte, v float64) []byte {
	return engine.AppendFloat(dst, v, engine.ShortestDigits)
}

// appendStatsTable appends an aligned table: counter (escaped: termtext.AppendVisible), count, skipped, min,
// max, mean; with valid, the invalid samples after skipped and the mean of
// the valid values after the mean; with pc (one per column), the
// percentiles.
func appendStatsTable(dst []byte, cols []relog.Column, st []engine.Statistics, valid bool, pc []relog.Percentiles) []byte {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 8, 2, ' ', tabwriter.AlignRight)
	switch {
	case valid:
		io.WriteString(tw, "Count\tSkipped\tInvalid\tMin\tMax\tPDH mean\tValid mean")
	default:
		io.WriteString(tw, "Count\tSkipped\tMin\tMax\tMean")
	}
	if pc != nil {
		io.WriteString(tw, "\tP90\tP95\tP99")
	}
	io.WriteString(tw, "\t  Counter\n")
	var line []byte
	for i, s := range st {
		line = strconv.AppendInt(line[:0], int64(s.Count), 10)
		line = append(line, '\t')
		line = strconv.AppendInt(line, int64(s.Skipped), 10)
		line = append(line, '\t')
		if valid {
			line = strconv.AppendInt(line, int64(s.Invalid), 10)
			line = append(line, '\t')
		}
		if s.Count > 0 {
			line = statNumber(line, s.Min)
			line = append(line, '\t')
			line = statNumber(line, s.Max)
		} else {
			line = append(line, "-\t-"...)
		}
		line = append(line, '\t')
		if s.MeanStatus == engine.Valid {
			line = statNumber(line, s.Mean)
		} else {
			line = append(line, '(')
			line = append(line, s.MeanStatus.String()...)
			line = append(line, ')')
		}
		if valid {
			line = statOrDash(append(line, '\t'), s.ValidMean, s.Count > 0)
		}
		if pc != nil {
			for _, v := range [...]float64{pc[i].P90, pc[i].P95, pc[i].P99} {
				line = statOrDash(append(line, '\t'), v, s.Count > 0)
			}
		}
		line = append(line, "\t  "...)
		line = termtext.AppendVisible(line, cols[i].Path)
		line = append(line, '\n')
		tw.Write(line)
	}
	tw.Flush()
	return append(dst, buf.Bytes()...)
}

// statOrDash appends v, or "-" unless ok.
func statOrDash(dst []byte, v float64, ok bool) []byte {
	if !ok {
		return append(dst, '-')
	}
	return statNumber(dst, v)
}

// appendStatsJSON appends a JSON array with one object per counter; with
// valid, each has "invalid" and "validMean"; with pc (one per column),
// "p90", "p95" and "p99".
func appendStatsJSON(dst []byte, cols []relog.Column, st []engine.Statistics, valid bool, pc []relog.Percentiles) []byte {
	dst = append(dst, '[')
	for i, s := range st {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, "\n  {\"counter\":"...)
		dst = logtext.AppendJSONString(dst, cols[i].Path)
		dst = append(dst, `,"type":`...)
		dst = logtext.AppendJSONString(dst, cols[i].Type.String())
		dst = append(dst, `,"count":`...)
		dst = strconv.AppendInt(dst, int64(s.Count), 10)
		dst = append(dst, `,"skipped":`...)
		dst = strconv.AppendInt(dst, int64(s.Skipped), 10)
		for _, f := range []struct {
			name string
			v    float64
			ok   bool
		}{{"min", s.Min, s.Count > 0}, {"max", s.Max, s.Count > 0}, {"mean", s.Mean, s.MeanStatus == engine.Valid}} {
			dst = append(dst, `,"`...)
			dst = append(dst, f.name...)
			dst = append(dst, `":`...)
			if f.ok {
				dst = statNumber(dst, f.v)
			} else {
				dst = append(dst, "null"...)
			}
		}
		dst = append(dst, `,"meanStatus":`...)
		dst = logtext.AppendJSONString(dst, s.MeanStatus.String())
		if valid {
			dst = append(dst, `,"invalid":`...)
			dst = strconv.AppendInt(dst, int64(s.Invalid), 10)
			dst = jsonStat(append(dst, `,"validMean":`...), s.ValidMean, s.Count > 0)
		}
		if pc != nil {
			dst = jsonStat(append(dst, `,"p90":`...), pc[i].P90, s.Count > 0)
			dst = jsonStat(append(dst, `,"p95":`...), pc[i].P95, s.Count > 0)
			dst = jsonStat(append(dst, `,"p99":`...), pc[i].P99, s.Count > 0)
		}
		dst = append(dst, '}')
	}
	if len(st) > 0 {
		dst = append(dst, '\n')
	}
	return append(dst, "]\n"...)
}

// jsonStat appends v, or null unless ok.
func jsonStat(dst []byte, v float64, ok bool) []byte {
	if !ok {
		return append(dst, "null"...)
	}
	return statNumber(dst, v)
}
