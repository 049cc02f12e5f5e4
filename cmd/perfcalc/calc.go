package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
)

const calcUsage = `Usage:
  perfcalc calc --type TYPE [--old N,D[,M]] --new N,D[,M] [--timebase F] [--options LIST] [--digits 17|20] [--json]
  perfcalc calc --batch < requests.jsonl > results.jsonl

Computes one counter value from raw samples, like PDH's PdhFormatFromRawValue.
A sample is FirstValue,SecondValue[,MultiCount] (PDH_RAW_COUNTER): N and its
time stamp D, or N and its base B for fraction, average and precision types.
--old may be left out for 1-sample types (a 2-sample type then answers NewData).
Numbers are decimal (up to 2^64-1; negative ones are read as int64 bit
patterns, as PDH's LONGLONG) or hexadecimal with 0x.

` + optionsHelp + `calc knows no counter definition: give its DefaultScale as scale=S.

Output: the value and the status name. The value prints with 20 significant
digits by default, as current Windows prints it and as every other command
does (C's %.20g with a three-digit exponent: 100/3 is 33.333333333333328596),
or with --digits 17 as Windows printed it before about 2020
(33.333333333333329); 0x... for the HEX types. --json prints {"type": ..., "value": ..., "status": ...},
the value being the shortest number that reads back as the same double.

--batch reads JSON lines {"type": "PERF_...", "old": [N, D, M], "new": [N, D, M],
"timebase": F, "scale": S, "options": ["cap100", "1000", "wrap32"]} ("old",
"scale", "timebase" and "options" optional; a present "scale" turns scaling on)
and writes one JSON result per line, in order; a bad line gets
{"line": L, "error": "..."} and the run goes on, ending with exit status 1.

Flags:
`

func init() {
	register(command{"calc", "compute one value from raw samples (PdhFormatFromRawValue), or a batch of JSON lines", runCalc})
}

func runCalc(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("calc", flag.ContinueOnError)
	typ := fs.String("type", "", "counter type: a Windows name (PERF_COUNTER_COUNTER) or a number")
	old := fs.String("old", "", "older sample: FirstValue,SecondValue[,MultiCount]")
	newer := fs.String("new", "", "newer sample: FirstValue,SecondValue[,MultiCount]")
	timebase := fs.String("timebase", "", "frequency F of the time base, ticks per second (default 10000000 for 100 ns types)")
	options := fs.String("options", "", "comma-separated options: cap100, scale=S, 1000, wrap32 (see Options)")
	asJSON := fs.Bool("json", false, "print a JSON object")
	batch := fs.Bool("batch", false, "read JSON-lines requests from standard input")
	digits := addDigitsFlag(fs, engine.DefaultDigits)
	pos, status, ok := parseCommandArgs(fs, calcUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	if len(pos) > 0 {
		return failCommand(stderr, "calc", &usageError{"unexpected argument " + pos[0] + " (see perfcalc calc -h)"})
	}
	if *batch {
		if *typ != "" || *old != "" || *newer != "" || *timebase != "" || *options != "" {
			fmt.Fprintln(stderr, "perfcalc calc: --batch takes its requests from standard input, not from flags")
			return exitUsage
		}
		return calcBatch(stdin, stdout, stderr)
	}

	req := calcRequest{}
	var err error
	if *typ == "" {
		fmt.Fprintln(stderr, "perfcalc calc: --type is required")
		return exitUsage
	}
	if req.typ, err = engine.ParseCounterType(*typ); err != nil {
		fmt.Fprintf(stderr, "perfcalc calc: --type: %v\n", err)
		return exitUsage
	}
	if *newer == "" {
		fmt.Fprintln(stderr, "perfcalc calc: --new is required")
		return exitUsage
	}
	if req.new, err = parseSample(*newer); err != nil {
		fmt.Fprintf(stderr, "perfcalc calc: --new: %v\n", err)
		return exitUsage
	}
	if *old != "" {
		req.hasOld = true
		if req.old, err = parseSample(*old); err != nil {
			fmt.Fprintf(stderr, "perfcalc calc: --old: %v\n", err)
			return exitUsage
		}
	}
	if *timebase != "" {
		req.hasTimeBase = true
		if req.timeBase, err = strconv.ParseInt(*timebase, 0, 64); err != nil {
			fmt.Fprintf(stderr, "perfcalc calc: --timebase: %q is not a whole number of ticks per second\n", *timebase)
			return exitUsage
		}
	}
	if err := req.addOptions(*options); err != nil {
		fmt.Fprintf(stderr, "perfcalc calc: --options: %v\n", err)
		return exitUsage
	}
	r, err := req.compute()
	if err != nil {
		fmt.Fprintf(stderr, "perfcalc calc: %v\n", err)
		return exitUsage
	}
	var out []byte
	if *asJSON {
		out = appendResultJSON(nil, req.typ, r)
	} else {
		out = appendValueText(nil, req.typ, r, int(*digits))
		out = append(out, ' ')
		out = append(out, r.Status.String()...)
	}
	out = append(out, '\n')
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "perfcalc calc: %v\n", err)
		return exitError
	}
	return exitOK
}

// calcRequest is one computation asked for on the command line or in a
// batch line.
type calcRequest struct {
	typ         engine.CounterType
	hasOld      bool
	old, new    engine.RawCounter
	hasTimeBase bool
	timeBase    int64
	scale       int32
	opts        engine.Options
}

// addOptions adds the options of --options, or of one element of a batch
// line's "options" (engine.ParseOptions). calc knows no counter definition:
// the scale comes with the option, scale=S.
func (r *calcRequest) addOptions(text string) error {
	o, err := engine.ParseOptions(text)
	if err != nil {
		return err
	}
	if o.Options&engine.Scale != 0 && !o.HasScale {
		return errors.New(`"scale": give the counter's DefaultScale, scale=S (-10..10)`)
	}
	r.opts |= o.Options
	if o.HasScale {
		r.scale = o.Scale
	}
	return nil
}

// compute checks the time base and computes the value.
func (r *calcRequest) compute() (engine.Result, error) {
	f := r.timeBase
	if !r.hasTimeBase {
		switch {
		case r.typ.TimeBase() == engine.Timer100NS:
			f = engine.Frequency100NS
		case usesTimeBase(r.typ):
			return engine.Result{}, fmt.Errorf("%v divides by the frequency of its time base: give it with --timebase (\"timebase\" in a batch)", r.typ)
		}
	}
	in := engine.Input{
		Counter: engine.Counter{Type: r.typ, Scale: r.scale, TimeBase: f},
		HasOld:  r.hasOld,
		Old:     r.old,
		New:     r.new,
	}
	return engine.Compute(&in, r.opts), nil
}

// usesTimeBase reports whether the formula of t divides by its time base's
// frequency F: it is the one input whose absence turns a valid computation
// into NegativeDenominator.
func usesTimeBase(t engine.CounterType) bool {
	in := engine.Input{
		Counter: engine.Counter{Type: t, TimeBase: 1},
		HasOld:  true,
		Old:     engine.RawCounter{FirstValue: 1, SecondValue: 1},
		New:     engine.RawCounter{FirstValue: 2, SecondValue: 4, MultiCount: 1},
	}
	with := engine.Compute(&in, 0).Status
	in.TimeBase = 0
	return with != engine.NegativeDenominator && engine.Compute(&in, 0).Status == engine.NegativeDenominator
}

// parseSample reads FirstValue,SecondValue[,MultiCount].
func parseSample(s string) (engine.RawCounter, error) {
	parts := strings.Split(s, ",")
	if len(parts) < 2 || len(parts) > 3 {
		return engine.RawCounter{}, fmt.Errorf("%q: want FirstValue,SecondValue[,MultiCount]", s)
	}
	var raw engine.RawCounter
	var err error
	if raw.FirstValue, err = parseRaw(parts[0]); err != nil {
		return raw, fmt.Errorf("FirstValue %v", err)
	}
	if raw.SecondValue, err = parseRaw(parts[1]); err != nil {
		return raw, fmt.Errorf("SecondValue %v", err)
	}
	if len(parts) == 3 {
		m, err := strconv.ParseUint(strings.TrimSpace(parts[2]), 0, 32)
		if err != nil {
			return raw, fmt.Errorf("MultiCount %q is not a number from 0 to 4294967295", parts[2])
		}
		raw.MultiCount = uint32(m)
	}
	return raw, nil
}

// parseRaw reads a raw value exactly: 0 … 2^64−1 in decimal or 0x
// hexadecimal, or a negative int64 read as its bit pattern.
func parseRaw(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "-") {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number from -9223372036854775808 to 18446744073709551615", s)
		}
		return uint64(v), nil
	}
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number from -9223372036854775808 to 18446744073709551615", s)
	}
	return v, nil
}

// appendValueText appends the value as PDH prints it with digits
// significant digits, or its number for a status other than Valid (always
// 0).
func appendValueText(dst []byte, t engine.CounterType, r engine.Result, digits int) []byte {
	if r.Status != engine.Valid {
		return engine.AppendFloat(dst, r.Value, digits)
	}
	return engine.AppendValue(dst, t, r, digits)
}

// appendResultJSON appends {"type": ..., "value": ..., "status": ...}. The
// value is the shortest decimal that reads back as the same float64.
func appendResultJSON(dst []byte, t engine.CounterType, r engine.Result) []byte {
	dst = append(dst, `{"type":`...)
	dst = strconv.AppendQuote(dst, t.String())
	dst = append(dst, `,"value":`...)
	dst = engine.AppendFloat(dst, r.Value, engine.ShortestDigits)
	if t.IsHex() && r.Status == engine.Valid {
		dst = append(dst, `,"text":`...)
		dst = strconv.AppendQuote(dst, string(engine.AppendValue(nil, t, r, engine.ShortestDigits)))
	}
	dst = append(dst, `,"status":`...)
	dst = strconv.AppendQuote(dst, r.Status.String())
	return append(dst, '}')
}

// batchRequest is one line of calc --batch.
type batchRequest struct {
	Type     json.RawMessage `json:"type"`
	Old      []json.Number   `json:"old"`
	New      []json.Number   `json:"new"`
	TimeBase *json.Number    `json:"timebase"`
	Scale    *json.Number    `json:"scale"`
	Options  []string        `json:"options"`
}

// maxBatchLine bounds one request line.
const maxBatchLine = 1 << 20

func calcBatch(stdin io.Reader, stdout, stderr io.Writer) int {
	in := bufio.NewReaderSize(stdin, 64<<10)
	out := bufio.NewWriterSize(stdout, 64<<10)
	status := exitOK
	var buf []byte
	for line := 1; ; line++ {
		text, tooLong, err := readLine(in, maxBatchLine)
		if err == io.EOF && len(text) == 0 && !tooLong {
			break
		}
		if err != nil && err != io.EOF {
			fmt.Fprintf(stderr, "perfcalc calc: reading standard input: %v\n", err)
			out.Flush()
			return exitError
		}
		buf = buf[:0]
		switch {
		case tooLong:
			buf = appendLineError(buf, line, fmt.Sprintf("line longer than %d bytes", maxBatchLine))
			status = exitError
		case len(bytes.TrimSpace(text)) == 0:
			if err == io.EOF {
				return finishBatch(out, stderr, status)
			}
			continue // a blank line is not a request; line numbers still count it
		default:
			req, err := parseBatchLine(text)
			var r engine.Result
			if err == nil {
				r, err = req.compute()
			}
			if err != nil {
				buf = appendLineError(buf, line, err.Error())
				status = exitError
			} else {
				buf = appendResultJSON(buf, req.typ, r)
			}
		}
		buf = append(buf, '\n')
		if _, err := out.Write(buf); err != nil {
			fmt.Fprintf(stderr, "perfcalc calc: %v\n", err)
			return exitError
		}
		if err == io.EOF {
			break
		}
	}
	return finishBatch(out, stderr, status)
}

func finishBatch(out *bufio.Writer, stderr io.Writer, status int) int {
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "perfcalc calc: %v\n", err)
		return exitError
	}
	return status
}

// readLine reads one line without its end; a line longer than max is
// consumed and reported as tooLong.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	var acc []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(acc)+len(chunk) > max {
			tooLong = true
		} else {
			acc = append(acc, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			acc = acc[:0]
		}
		return bytes.TrimRight(acc, "\r\n"), tooLong, err
	}
}

func appendLineError(dst []byte, line int, msg string) []byte {
	dst = append(dst, `{"line":`...)
	dst = strconv.AppendInt(dst, int64(line), 10)
	dst = append(dst, `,"error":`...)
	dst = strconv.AppendQuote(dst, msg)
	return append(dst, '}')
}

// parseBatchLine reads one JSON request, keeping every integer exact.
func parseBatchLine(text []byte) (calcRequest, error) {
	var br batchRequest
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&br); err != nil {
		return calcRequest{}, fmt.Errorf("not a request object: %v", err)
	}
	if dec.More() {
		return calcRequest{}, errors.New("more than one JSON value on the line")
	}
	var req calcRequest
	var err error
	switch t := bytes.TrimSpace(br.Type); {
	case len(t) == 0 || string(t) == "null":
		return req, errors.New(`"type" is required`)
	case t[0] == '"':
		var name string
		if err := json.Unmarshal(t, &name); err != nil {
			return req, fmt.Errorf(`"type": %v`, err)
		}
		req.typ, err = engine.ParseCounterType(name)
	default:
		req.typ, err = engine.ParseCounterType(string(t))
	}
	if err != nil {
		return req, fmt.Errorf(`"type": %v`, err)
	}
	if br.New == nil {
		return req, errors.New(`"new" is required`)
	}
	if req.new, err = sampleFromJSON(br.New); err != nil {
		return req, fmt.Errorf(`"new": %v`, err)
	}
	if br.Old != nil {
		req.hasOld = true
		if req.old, err = sampleFromJSON(br.Old); err != nil {
			return req, fmt.Errorf(`"old": %v`, err)
		}
	}
	if br.TimeBase != nil {
		req.hasTimeBase = true
		if req.timeBase, err = strconv.ParseInt(string(*br.TimeBase), 10, 64); err != nil {
			return req, fmt.Errorf(`"timebase": %q is not a whole number from -2^63 to 2^63-1`, string(*br.TimeBase))
		}
	}
	for _, o := range br.Options {
		if strings.HasPrefix(o, "scale") {
			return req, fmt.Errorf(`"options": %q: give the scale as "scale": S`, o)
		}
		if err := req.addOptions(o); err != nil {
			return req, fmt.Errorf(`"options": %v`, err)
		}
	}
	if br.Scale != nil {
		if err := req.addOptions("scale=" + string(*br.Scale)); err != nil {
			return req, fmt.Errorf(`"scale": %v`, err)
		}
	}
	return req, nil
}

// sampleFromJSON reads [FirstValue, SecondValue] or [FirstValue,
// SecondValue, MultiCount] from exact JSON numbers.
func sampleFromJSON(ns []json.Number) (engine.RawCounter, error) {
	if len(ns) < 2 || len(ns) > 3 {
		return engine.RawCounter{}, fmt.Errorf("want [FirstValue, SecondValue] or [FirstValue, SecondValue, MultiCount], have %d numbers", len(ns))
	}
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = string(n)
	}
	return parseSample(strings.Join(s, ","))
}
