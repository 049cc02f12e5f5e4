package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/logtext"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/termtext"
	"github.com/perfcalc/perfcalc/internal/longform"
)

var valuesUsage = `Usage:
  perfcalc values OLDER NEWER [-c PATH ...] [-cf FILE] [--names TABLE] [-f ` + formatNames(forValues, formatTable, "|") + `] [-o OUT] [--options LIST] [--digits 20|17] [--identity pdh|pid]
  perfcalc values OLDER NEWER --reginfo FILE [--strings FILE] [--counterset NAME] [--ids LIST] ...

Computes every counter (or each counter that a -c path selects) between two
captures of the same machine, as perfmon and relog show them. A capture is a
V1 HKEY_PERFORMANCE_DATA blob or a V2 PerfQueryCounterData result (which needs
the counterset's registration, --reginfo); the format is recognised from the
bytes. Instances are paired by name: one that appeared has no value yet
(NewData), one that disappeared is left out.

Without --names, objects and counters are named by their index (#238), and
-c paths may use that form. -c takes PDH paths with wildcards, for example
\Processor(*)\% Processor Time or \Process(svchost#*)\*; repeat it. -cf FILE
reads such paths from a file, one per line (blank lines and # comments
ignored).

Formats:
  table  aligned columns: path, value, unit, and the status of values that
         are not valid (the default)
  csv    relog's PDH-CSV: a header "(PDH-CSV 4.0) (UTC+hh:mm)(bias)" and the
         paths, then one row with the newer capture's local time and the
         values as current Windows writes them (20 significant digits,
         three-digit exponents; --digits 17 as before about 2020; " " where
         there is no valid value)
  tsv    the same with tabs ("(PDH-TSV 4.0)")
  json   one object per line: path, value, status, type, suffix, scale
  parquet
         relog's long table (perfcalc relog -h): one row per counter
         instance at the newer capture's time (UTC and local), its path's
         parts, type, value (null unless the status is Valid), status and
         the newer capture's raw values
  openmetrics
         one gauge family per counter, one sample per counter instance
         with the newer capture's UTC time stamp, as relog writes them
         (values without a valid status are left out)

-o writes to a file, through a temporary file renamed at the end: the file
is complete, or left as it was when anything fails (/dev/null and pipes
are written directly).

` + extensionHelp(forValues, formatTable) + optionsHelp + `values takes each counter's DefaultScale from the captures: write scale.

Any file may be "-", standard input (one of them at most). A capture over
256 MiB, a name table or registration over 64 MiB is refused from its size,
unread. -o writes as perfcalc relog -o does: complete or left as it was.

` + identityHelp + `(values pairs the instances of the two captures so.)

` + namesHelp + `
Flags:
`

func init() {
	register(command{"values", "compute every counter between two captures (V1 blobs or V2 results)", runValues})
}

func runValues(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("values", flag.ContinueOnError)
	var src sourceFlags
	src.register(fs)
	var counters counterFlags
	counters.register(fs, "select the counters matching this path")
	format := addFormatFlag(fs, forValues, formatTable)
	out := fs.String("o", "", "write to this file (complete or left as it was) instead of standard output")
	options := fs.String("options", "", "comma-separated: cap100, scale, 1000, wrap32")
	digits := addDigitsFlag(fs, engine.DefaultDigits)
	identity := addIdentityFlag(fs)
	var names namesFlags
	names.register(fs)
	pos, status, ok := parseCommandArgs(fs, valuesUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	if err := names.check(); err != nil {
		return failCommand(stderr, "values", err)
	}
	if len(pos) != 2 {
		return failCommand(stderr, "values", &usageError{"want two captures, OLDER and NEWER (see perfcalc values -h)"})
	}
	f, err := format.format(*out)
	if err != nil {
		return failCommand(stderr, "values", err)
	}
	opts, err := parseQueryOptions(*options)
	if err != nil {
		return failCommand(stderr, "values", err)
	}
	if err := checkNotInput(*out, stdin, append([]namedInput{{pos[0], "OLDER"}, {pos[1], "NEWER"},
		{src.names, "--names"}, {src.reginfo, "--reginfo"}, {src.strs, "--strings"},
		{counters.cf, "-cf"}}, names.inputs()...)...); err != nil {
		return failCommand(stderr, "values", err)
	}
	in := &stdinOnce{r: stdin}
	paths, err := counters.paths(in)
	if err != nil {
		return failCommand(stderr, "values", err)
	}

	older, kOld, err := readCapture(pos[0], "OLDER", in)
	if err != nil {
		return failCommand(stderr, "values", err)
	}
	newer, kNew, err := readCapture(pos[1], "NEWER", in)
	if err != nil {
		return failCommand(stderr, "values", err)
	}
	if kOld != kNew {
		return failCommand(stderr, "values", fmt.Errorf("%s is %v but %s is %v", pos[0], kOld, pos[1], kNew))
	}
	cfg, err := src.config(kNew, true, in)
	if err != nil {
		return failCommand(stderr, "values", err)
	}
	cfg.Paths, cfg.Options = counterpath.Compact(paths), opts // a run of stars costs one
	cfg.Identity = *identity
	nm, err := names.build(captureTables(src.names), in)
	if err != nil {
		return failCommand(stderr, "values", err)
	}
	if nm != nil {
		cfg.Paths = nil // -c matches the English names
	}
	q := query.New(cfg)
	vals, err := q.Run(nil, older, newer)
	if err != nil {
		return failCommand(stderr, "values", captureError(q, pos, older, newer, err))
	}
	noteIdentity(stderr, "values", "", *identity, q.IdentityNotes(), int64(q.IdentityBreaks()))
	if nm != nil {
		vals = nm.values(vals, paths)
		defer nm.finish(stderr, "values", names.report)
	}
	if n := q.Unnamed(); n > 0 {
		fmt.Fprintf(stderr, "perfcalc values: note: %d V2 blocks do not name their counter and are left out; give their CounterIds with --ids\n", n)
	}
	if len(paths) > 0 && len(vals) == 0 {
		return failCommand(stderr, "values", noMatch(pos[1], paths, kNew, src.names != ""))
	}
	if note := orderNote(vals, pos, older, newer, kNew); note != "" {
		fmt.Fprintf(stderr, "perfcalc values: note: %s\n", note)
	}

	stamp := query.CaptureStamp(newer)
	var long *longform.Table
	if f.long() {
		if long, err = valuesTable(vals, stamp); err != nil {
			return failCommand(stderr, "values", fmt.Errorf("%s: %w", pos[1], err))
		}
		if !stamp.HasBias {
			fmt.Fprintf(stderr, "perfcalc values: note: %s has no UTC time stamp within 14 hours of its local time: the local time is written as UTC\n", pos[1])
		}
	}
	write := func(dst io.Writer) error {
		if long != nil {
			_, err := writeTable(dst, long, f)
			return err
		}
		w := bufio.NewWriterSize(dst, 64<<10)
		switch f {
		case formatTable:
			writeValuesTable(w, vals)
		case formatCSV, formatTSV:
			query.WriteCSV(w, vals, stamp, f == formatTSV, int(*digits))
		case formatJSON:
			var buf []byte
			for i := range vals {
				buf = appendValueJSON(buf[:0], &vals[i])
				w.Write(buf)
			}
		}
		return w.Flush()
	}
	note, err := writeOutput(*out, stdout, false, write)
	return finishOutput(stderr, "values", nil, note, err)
}

// parseQueryOptions reads --options of values and watch
// (engine.ParseOptions); the scale is each counter's DefaultScale, from the
// data: scale=S is refused.
func parseQueryOptions(s string) (engine.Options, error) {
	o, err := engine.ParseOptions(s)
	if err != nil {
		return 0, &usageError{"--options: " + err.Error()}
	}
	if o.HasScale {
		return 0, &usageError{"--options: scale=" + strconv.Itoa(int(o.Scale)) + ": each counter's DefaultScale comes from the data: write scale"}
	}
	return o.Options, nil
}

// appendTableValue appends a value for people: the shortest decimal that
// reads back as the same float64, without an exponent from 0.0001 to 10^17
// (engine.ShortestDigits; 0x… for the HEX types).
func appendTableValue(dst []byte, v *query.Value) []byte {
	return engine.AppendValue(dst, v.Type, engine.Result{Value: v.Value, Status: engine.Valid}, engine.ShortestDigits)
}

// writeValuesTable writes path (escaped: termtext.AppendVisible), value,
// unit and (for values that are not valid) the status, in aligned columns.
func writeValuesTable(w io.Writer, vals []query.Value) {
	pathW, valW, unitW := len("COUNTER"), len("VALUE"), len("UNIT")
	texts := make([]string, len(vals))
	paths := make([]string, len(vals))
	for i := range vals {
		v := &vals[i]
		paths[i] = termtext.Visible(string(v.Path))
		if v.Status == engine.Valid {
			texts[i] = string(appendTableValue(nil, v))
		} else {
			texts[i] = "-"
		}
		pathW = max(pathW, utf8.RuneCountInString(paths[i]))
		valW = max(valW, len(texts[i]))
		unitW = max(unitW, len(v.Suffix().String()))
	}
	var b []byte
	row := func(path, val, unit, status string) {
		b = append(b[:0], path...)
		b = appendSpaces(b, pathW-utf8.RuneCountInString(path)+2)
		b = appendSpaces(b, valW-len(val))
		b = append(b, val...)
		b = append(b, ' ', ' ')
		b = append(b, unit...)
		if status != "" {
			b = appendSpaces(b, unitW-len(unit)+2)
			b = append(b, status...)
		}
		for len(b) > 0 && b[len(b)-1] == ' ' {
			b = b[:len(b)-1]
		}
		b = append(b, '\n')
		w.Write(b)
	}
	row("COUNTER", "VALUE", "UNIT", "STATUS")
	for i := range vals {
		v := &vals[i]
		status := ""
		if v.Status != engine.Valid {
			status = v.Status.String()
		}
		row(paths[i], texts[i], v.Suffix().String(), status)
	}
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// unixFrom1601 is the number of seconds from 1601-01-01 to 1970-01-01.
const unixFrom1601 = 11_644_473_600

// filetimeOf converts a time read as UTC to a FILETIME (100 ns units since
// 1601-01-01); fileTime's inverse.
func filetimeOf(t time.Time) int64 {
	return (t.Unix()+unixFrom1601)*10_000_000 + int64(t.Nanosecond()/100)
}

// fileTime converts a FILETIME (100 ns units since 1601-01-01 UTC) to a
// time.Time in UTC.
func fileTime(ft int64) time.Time {
	return time.Unix(ft/10_000_000-unixFrom1601, ft%10_000_000*100).UTC()
}

// appendValueJSON appends one value as a JSON line:
// {"path":…,"value":…,"status":…,"type":…,"suffix":…,"scale":…}; the value
// is the shortest decimal that reads back as the same float64 (0 when the
// status is not Valid), and HEX types add "text":"0x…".
func appendValueJSON(dst []byte, v *query.Value) []byte {
	dst = append(dst, `{"path":`...)
	dst = logtext.AppendJSONString(dst, string(v.Path))
	dst = append(dst, `,"value":`...)
	dst = engine.AppendFloat(dst, v.Value, engine.ShortestDigits)
	if v.Type.IsHex() && v.Status == engine.Valid {
		dst = append(dst, `,"text":`...)
		dst = logtext.AppendJSONString(dst, string(engine.AppendValue(nil, v.Type, engine.Result{Value: v.Value, Status: v.Status}, engine.ShortestDigits)))
	}
	dst = append(dst, `,"status":`...)
	dst = logtext.AppendJSONString(dst, v.Status.String())
	dst = append(dst, `,"type":`...)
	dst = logtext.AppendJSONString(dst, v.Type.String())
	dst = append(dst, `,"suffix":`...)
	dst = logtext.AppendJSONString(dst, v.Suffix().String())
	dst = append(dst, `,"scale":`...)
	dst = strconv.AppendInt(dst, int64(v.Scale), 10)
	return append(dst, "}\n"...)
}
