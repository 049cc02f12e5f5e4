package relog

import (
	"errors"
	"io"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/internal/filetime"
	"github.com/perfcalc/perfcalc/engine/internal/quote"
	"github.com/perfcalc/perfcalc/engine/logtext"
)

// Format is an output format of a Converter: the text formats of Write,
// and Bin, the .blg log that WriteBin writes. The module's ABI numbers its
// formats so (internal/abi's Format… constants are written from these by
// tools/abigen: make generate).
type Format uint8

// The output formats.
const (
	// CSV is relog's -f csv: a header line "(PDH-CSV 4.0) (<zone>)(<bias>)"
	// followed by the column paths, then one line per row with the time
	// stamp and the values; every field is quoted, lines end with CR LF.
	CSV Format = iota
	// TSV is relog's -f tsv: CSV with tabs between the fields and
	// "(PDH-TSV 4.0)" in the header.
	TSV
	// JSON is one JSON object per row and per line (JSON Lines):
	// {"time":"2013-02-19T18:50:17.844","values":{"<path>":<value>,…}}.
	// "time" is the row's local time stamp in ISO 8601 without a zone;
	// every column present in the sample has a member, whose value is the
	// number (the shortest decimal that reads back as the same float64,
	// engine.ShortestDigits: exponents have three digits, as in CSV) or
	// null when it has no valid value; columns absent from the sample
	// have no member. Every column has a key of its own: where the log
	// holds a path twice, the second column's key is "<path> (duplicate
	// 2)", the third's "(duplicate 3)", and so on (jsonKeys; the
	// WebAssembly module writes the same keys).
	JSON
	// Bin is a perfmon .blg log of the selection's raw values (relog's -f
	// bin), which WriteBin writes: Write refuses it.
	Bin
)

// flushSize is about how much text Write gathers before writing it.
const flushSize = 48 << 10

// Write writes the converter's header and every row to w in the format f,
// in pieces of some tens of KiB. It returns the first error of w, or else the
// converter's Err (the rows before a damage in the log have been written
// by then). It starts the second reading of the log: call it once, instead
// of Next.
//
// With two or more CPUs (runtime.GOMAXPROCS), the work runs in a pipeline:
// one goroutine reads the log and gathers the rows into batches of about
// 1,000 values (a row laid out as the one before it as raw values only),
// goroutines, one per CPU (at most four), compute and print batches, and
// Write writes the texts in order. The output is byte for byte the same as
// on one CPU; a few batches are in flight, so memory stays bounded (12 MB
// of peak RSS converting a 420 MB log to CSV).
func (c *Converter) Write(w io.Writer, f Format) error {
	if f > JSON {
		return errors.New("relog: Write writes CSV, TSV or JSON")
	}
	t := c.newText(f)
	buf := make([]byte, 0, 4096) // grows to flushSize with the rows: a small log needs no 52 KB
	if f != JSON && c.opts.PartFrom == 0 {
		buf = c.AppendHeader(buf, f)
		for i := range c.columns {
			buf = logtext.AppendField(buf, t.sep, c.columns[i].Path)
		}
		buf = logtext.EndRow(buf)
	}
	if fast && c.pipelined() {
		if len(buf) > 0 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		if err := c.pipeline(t, w); err != nil {
			return err
		}
		return c.Err()
	}
	var day logtext.Times
	present, res := make([]bool, len(c.columns)), make([]engine.Result, len(c.columns))
	for c.Next() {
		for i := range c.row.Cells {
			present[i], res[i] = c.row.Cells[i].Present, c.row.Cells[i].Result
		}
		buf = t.appendRow(buf, &day, c.row.Time, present, res)
		if len(buf) >= flushSize {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	if len(buf) > 0 {
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return c.Err()
}

// pipelined reports whether Write and ReadRows run the second reading as a
// pipeline (fast.go's batches, where fast is set): with two or more CPUs,
// up to pipelineColumns columns, and not for a part (Options.PartFrom:
// the part's reading begins with a row it does not yield).
func (c *Converter) pipelined() bool {
	return cpus() >= 2 && !sequentialWrite && len(c.columns) <= pipelineColumns && !c.parted()
}

// pipelineColumns is the most columns Write runs pipeline for: its
// batches and formatters hold about 870 bytes a column (2 CPUs; more with
// more), which a log of very many columns (instances that come and go)
// does not pay for; the sequential writer holds nothing more than Next's
// row and writes the same bytes.
const pipelineColumns = 1 << 15

// sequentialWrite makes Write and ReadRows run on one goroutine whatever
// the CPUs (the tests compare both ways).
var sequentialWrite = false

// text is what Write needs to print rows in one format.
type text struct {
	json   bool
	sep    byte
	digits int
	keyBuf []byte // JSON: the paths as JSON strings, each with a colon: key i is keyBuf[keyEnd[i-1]:keyEnd[i]]
	keyEnd []int
}

func (c *Converter) newText(f Format) *text {
	t := &text{json: f == JSON, sep: dialect(f).Sep(), digits: c.opts.Digits}
	if t.digits == 0 {
		t.digits = engine.DefaultDigits
	}
	if t.json {
		keys := jsonKeys(c.columns)
		t.keyEnd = make([]int, len(c.columns))
		for i := range c.columns {
			t.keyBuf = logtext.AppendJSONString(t.keyBuf, keys[i])
			t.keyBuf = append(t.keyBuf, ':')
			t.keyEnd[i] = len(t.keyBuf)
		}
	}
	return t
}

// jsonKeys returns the JSON key of every column: its path, except that a
// path that repeats (a log may list a counter twice) is written
// "<path> (duplicate 2)", "(duplicate 3)", … from its second column on,
// skipping keys that are other columns' paths (the keys made of two
// different paths differ, and those of one path have increasing
// numbers), so that a JSON parser keeps every column's value.
func jsonKeys(cols []Column) []string {
	keys := make([]string, len(cols))
	// taken: 1 for a path that no column has taken yet; n ≥ 2 for a path
	// taken, n the next number to try.
	taken := make(map[string]int, len(cols))
	for i := range cols {
		taken[cols[i].Path] = 1
	}
	for i := range cols {
		path := cols[i].Path
		key := path
		n := taken[path]
		if n == 1 {
			n = 2
		} else {
			for {
				key = path + " (duplicate " + strconv.Itoa(n) + ")"
				n++
				if taken[key] == 0 {
					break
				}
			}
		}
		taken[path] = n
		keys[i] = key
	}
	return keys
}

func (t *text) key(i int) []byte {
	if i == 0 {
		return t.keyBuf[:t.keyEnd[0]]
	}
	return t.keyBuf[t.keyEnd[i-1]:t.keyEnd[i]]
}

// appendRow appends a row as a line of text: its time (its date through the
// caller's Times, one per goroutine) and its cells (per column, whether the
// sample has it and its result). In CSV and TSV a value prints
// as C's %.<digits>g with a three-digit exponent (engine.AppendFloat), the
// HEX types too (relog writes the double PDH computes); a value without a
// valid status prints as a single space, a column absent from the sample
// as nothing (logtext.AppendValue, logtext.AppendAbsent).
func (t *text) appendRow(buf []byte, day *logtext.Times, time int64, present []bool, res []engine.Result) []byte {
	res = res[:len(present)]
	if t.json {
		buf = day.AppendJSONRow(buf, time)
		n := 0
		for i, ok := range present {
			if !ok {
				continue
			}
			if n > 0 {
				buf = append(buf, ',')
			}
			n++
			buf = append(buf, t.key(i)...)
			buf = logtext.AppendJSONValue(buf, res[i].Value, res[i].Status == engine.Valid)
		}
		return append(buf, logtext.JSONRowEnd...)
	}
	buf = day.AppendField(buf, time)
	for i, ok := range present {
		if ok {
			buf = logtext.AppendValue(buf, t.sep, res[i].Value, res[i].Status == engine.Valid, t.digits)
		} else {
			buf = logtext.AppendAbsent(buf, t.sep)
		}
	}
	return logtext.EndRow(buf)
}

// dialect returns the text dialect of a CSV or TSV format.
func dialect(f Format) logtext.Dialect {
	if f == TSV {
		return logtext.TSV
	}
	return logtext.CSV
}

// AppendHeader appends the first field of relog's CSV (or TSV) header,
// quoted: "(PDH-CSV 4.0) (Pacific Standard Time)(480)".
func (c *Converter) AppendHeader(dst []byte, f Format) []byte {
	return logtext.AppendTitleField(dst, dialect(f), logtext.Zone{Name: c.zoneName, Bias: c.bias, Known: true})
}

// ErrTime is wrapped by the errors of ParseTime.
var ErrTime = errors.New("relog: bad time")

// ParseTime reads a local time as -b and -e take it and returns it as a
// FILETIME (100 ns units since 1601, with no zone applied: it compares with
// Row.Time). It accepts relog's printed form MM/DD/YYYY HH:MM:SS.mmm and
// relog's own -b form M/D/YYYY H:MM:SS[ AM| PM] (the milliseconds and the
// seconds optional; one or two digits for month, day and hour), ISO 8601
// YYYY-MM-DD[T| ]HH:MM[:SS[.fff]] (up to 7 fraction digits), and either
// date alone, which means midnight.
func ParseTime(s string) (int64, error) {
	p := timeParser{s: s}
	var y, mo, d int
	iso := p.digitsUpTo(4) == 4 && !p.done() && p.peek() == '-'
	p.pos = 0
	// The date's fields in their order, each with its digits (at least,
	// at most) and the separator after it.
	fields, lo, hi, sep := [3]*int{&mo, &d, &y}, [3]int{1, 1, 4}, [3]int{2, 2, 4}, "//"
	if iso {
		fields, lo, hi, sep = [3]*int{&y, &mo, &d}, [3]int{4, 2, 2}, [3]int{4, 2, 2}, "--"
	}
	for i, f := range fields {
		if i > 0 {
			p.expect(sep[i-1])
		}
		*f = p.num(lo[i], hi[i])
	}
	switch {
	case p.done():
	case iso && (p.peek() == 'T' || p.peek() == ' '):
		p.pos++
	case !iso:
		p.expect(' ')
		for !p.done() && p.peek() == ' ' {
			p.pos++
		}
	}
	var h, mi, sec, frac int
	if !p.done() {
		h = p.num(1, 2)
		p.expect(':')
		mi = p.num(2, 2)
		if !p.done() && p.peek() == ':' {
			p.pos++
			sec = p.num(2, 2)
			if !p.done() && p.peek() == '.' {
				p.pos++
				start := p.pos
				frac = p.num(1, 7)
				for n := p.pos - start; n < 7; n++ {
					frac *= 10
				}
			}
		}
		if rest := p.s[min(p.pos, len(p.s)):]; p.err == nil && rest != "" {
			switch rest {
			case " AM", " am", "AM", "am":
				if h == 12 {
					h = 0
				} else if h > 12 {
					p.fail()
				}
			case " PM", " pm", "PM", "pm":
				if h < 12 {
					h += 12
				} else if h > 12 {
					p.fail()
				}
			default:
				p.fail()
			}
			p.pos = len(p.s)
		}
	}
	if p.err != nil || !p.done() || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59 {
		return 0, errors.Join(ErrTime, errors.New("relog: "+quote.Quote(s)+" is not a time like 02/19/2013 18:50:17.844 or 2013-02-19T18:50:17"))
	}
	if int64(d) > filetime.DaysInMonth(int64(y), int64(mo)) {
		return 0, errors.Join(ErrTime, errors.New("relog: "+quote.Quote(s)+" is not a date"))
	}
	return filetime.Join(int64(y), int64(mo), int64(d), int64(h), int64(mi), int64(sec)) + int64(frac), nil
}

// timeParser reads the fields of ParseTime.
type timeParser struct {
	s   string
	pos int
	err error
}

func (p *timeParser) done() bool { return p.pos >= len(p.s) }
func (p *timeParser) peek() byte { return p.s[p.pos] }
func (p *timeParser) fail()      { p.err = ErrTime }

// digitsUpTo counts the digits at the current position, up to max.
func (p *timeParser) digitsUpTo(max int) int {
	n := 0
	for p.pos+n < len(p.s) && n < max && p.s[p.pos+n] >= '0' && p.s[p.pos+n] <= '9' {
		n++
	}
	p.pos += n
	return n
}

// num reads a number of lo to hi digits.
func (p *timeParser) num(lo, hi int) int {
	start := p.pos
	n := p.digitsUpTo(hi)
	if n < lo {
		p.fail()
		return 0
	}
	v, _ := strconv.Atoi(p.s[start : start+n])
	return v
}

func (p *timeParser) expect(b byte) {
	if p.done() || p.s[p.pos] != b {
		p.fail()
		return
	}
	p.pos++
}
