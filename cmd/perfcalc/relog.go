package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/relog"
)

const relogUsage = `Usage:
  perfcalc relog IN.blg [-c PATH ...] [-f csv|tsv|json] [-o OUT] [-b START] [-e END] [-t N] [--digits 20|17]
  perfcalc relog IN.blg -q [-c PATH ...] [-b START] [-e END] [-t N] [-o OUT]

Converts a perfmon binary log (.blg) as Windows' "relog IN.blg -f csv" does:
the header "(PDH-CSV 4.0) (<time zone>)(<bias>)" and the counter paths, then
one row per sample with the logging machine's local time and the values
(as current Windows writes them: 20 significant digits, exponents with three
digits, 6.5500000000000006459e-005; --digits 17 writes them as Windows did
before about 2020; a single space where there is no value yet or the data is
bad, an empty field where the instance is absent). Values are neither capped at 100
nor scaled. Vista-era logs of whole objects give one column per counter of
every instance.

-q lists the counters (one path per line, the CSV header's columns), then
the time of the first and last sample and the number of samples.

-f json writes one JSON object per line and row:
  {"time":"2013-02-19T18:50:17.844","values":{"\\\\HOST\\Processor(0)\\% Processor Time":12.5,...}}
with null where there is no value and no member where the instance is absent;
numbers are the shortest text that reads back as the same double.

-b and -e take the log's local time as relog prints it (02/19/2013 18:50:17.844,
the seconds and milliseconds optional, AM/PM accepted) or as ISO 8601
(2013-02-19T18:50:17[.844]); both ends are included. -t N keeps the first
sample and every Nth after it; values are computed between kept samples.
-c keeps the counters that match a path with wildcards, case-insensitively
(\\*\Processor(*)\% Processor Time); repeat it for several.

-o writes to a file, through a temporary file renamed at the end: the file is
complete or absent. A damaged log is converted up to the damage; the command
then reports the damage and exits with status 1.

Flags:
`

func init() {
	register(command{"relog", "convert a .blg log to relog's CSV, TSV or JSON; -q lists its counters", runRelog})
}

// timeFlag is a -b or -e flag: a local time read by relog.ParseTime.
type timeFlag struct{ ft int64 }

func (t *timeFlag) String() string {
	if t.ft == 0 {
		return ""
	}
	return string(relog.AppendTime(nil, t.ft))
}

func (t *timeFlag) Set(v string) error {
	ft, err := relog.ParseTime(v)
	if err != nil {
		return fmt.Errorf("%q is not a time like 02/19/2013 18:50:17.844 or 2013-02-19T18:50:17", v)
	}
	t.ft = ft
	return nil
}

func runRelog(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("relog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		io.WriteString(stderr, relogUsage)
		fs.PrintDefaults()
	}
	var counters pathList
	var begin, end timeFlag
	fs.Var(&counters, "c", "keep the counters matching this path (wildcards allowed); repeatable")
	format := fs.String("f", "csv", "output format: csv, tsv or json")
	out := fs.String("o", "", "write to this file (complete or absent) instead of standard output")
	fs.Var(&begin, "b", "first time to keep, local time of the log (MM/DD/YYYY HH:MM:SS[.mmm] or ISO 8601)")
	fs.Var(&end, "e", "last time to keep, local time of the log")
	every := fs.Int("t", 1, "keep every Nth sample")
	query := fs.Bool("q", false, "list the counters, the time range and the number of samples")
	digits := addDigitsFlag(fs, engine.DefaultDigits)
	pos, err := parseArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "perfcalc relog: give one input log (perfcalc relog IN.blg [flags])")
		return exitUsage
	}
	f, err := relog.ParseFormat(*format)
	if err != nil {
		fmt.Fprintf(stderr, "perfcalc relog: -f: %q is not csv, tsv or json\n", *format)
		return exitUsage
	}
	if *every < 1 {
		fmt.Fprintf(stderr, "perfcalc relog: -t: %d is not a positive number of samples\n", *every)
		return exitUsage
	}
	if begin.ft != 0 && end.ft != 0 && end.ft < begin.ft {
		fmt.Fprintln(stderr, "perfcalc relog: -e is before -b")
		return exitUsage
	}
	opts := relog.Options{Counters: counters, Begin: begin.ft, End: end.ft, Every: *every, Digits: int(*digits)}
	c, closeIn, err := openLog(pos[0], opts)
	if err != nil {
		fmt.Fprintf(stderr, "perfcalc relog: %v\n", err)
		return exitError
	}
	defer closeIn()
	var convErr error
	write := func(w io.Writer) error {
		if *query {
			return writeQuery(w, c)
		}
		err := c.Write(w, f)
		if err != nil && err == c.Err() {
			// A damage in the log: what came before it is written.
			convErr = err
			return nil
		}
		return err
	}
	if *out != "" {
		err = writeFileAtomic(*out, write)
	} else {
		err = write(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "perfcalc relog: %v\n", err)
		return exitError
	}
	if convErr == nil && *query {
		convErr = c.ScanErr()
	}
	if convErr != nil {
		fmt.Fprintf(stderr, "perfcalc relog: %s: %v\n", pos[0], convErr)
		return exitError
	}
	return exitOK
}

// openLog opens a .blg file and reads it once for its columns.
func openLog(name string, opts relog.Options) (*relog.Converter, func(), error) {
	file, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	fi, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		file.Close()
		return nil, nil, fmt.Errorf("%s: not a regular file", name)
	}
	c, err := relog.New(file, fi.Size(), opts)
	if err != nil {
		file.Close()
		return nil, nil, fmt.Errorf("%s: not a readable .blg log: %v", name, err)
	}
	if len(c.Columns()) == 0 && len(opts.Counters) > 0 && c.ScanErr() == nil {
		file.Close()
		return nil, nil, fmt.Errorf("%s: no counter of the log matches -c", name)
	}
	return c, func() { file.Close() }, nil
}

// writeQuery writes what -q reports: the counter paths, then the time range
// and the number of samples, as relog -q lists them.
func writeQuery(w io.Writer, c *relog.Converter) error {
	var b []byte
	for _, col := range c.Columns() {
		b = append(b, col.Path...)
		b = append(b, '\n')
	}
	n, begin, end := c.Samples()
	b = append(b, "\nTime Begin: "...)
	if n > 0 {
		b = relog.AppendTime(b, begin)
	}
	b = append(b, "\nTime End:   "...)
	if n > 0 {
		b = relog.AppendTime(b, end)
	}
	b = append(b, "\nSamples:    "...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, '\n')
	_, err := w.Write(b)
	return err
}
