package relog

import (
	"errors"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine/internal/filetime"
	"github.com/perfcalc/perfcalc/engine/internal/quote"

	"github.com/perfcalc/perfcalc/engine"
)

// Format is an output format of Write.
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
	// 2)", the third's "(duplicate 3)", and so on (not in the WebAssembly
	// module, whose JSON repeats the path: jsonKeys).
	JSON
)

// ParseFormat returns the format named "csv", "tsv" or "json".
func ParseFormat(name string) (Format, error) {
	switch name {
	case "csv", "CSV":
		return CSV, nil
	case "tsv", "TSV":
		return TSV, nil
	case "json", "JSON":
		return JSON, nil
	}
	return 0, errors.New("relog: unknown format " + quote.Quote(name) + " (want csv, tsv or json)")
}

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
		return errors.New("relog: unknown format")
	}
	t := c.newText(f)
	buf := make([]byte, 0, flushSize+4096)
	if f != JSON {
		buf = c.AppendHeader(buf, f)
		for i := range c.columns {
			buf = append(buf, t.sep)
			buf = append(buf, t.key(i)...)
		}
		buf = append(buf, '\r', '\n')
	}
	if fast && cpus() >= 2 && !sequentialWrite {
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
	var day dayCache
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

// sequentialWrite makes Write run on one goroutine whatever the CPUs (the
// tests compare both ways).
var sequentialWrite = false

// text is what Write needs to print rows in one format.
type text struct {
	f      Format
	sep    byte
	digits int
	keyBuf []byte // the quoted paths (with a colon in JSON): key i is keyBuf[keyEnd[i-1]:keyEnd[i]]
	keyEnd []int
}

func (c *Converter) newText(f Format) *text {
	t := &text{f: f, sep: ',', digits: c.opts.Digits, keyEnd: make([]int, len(c.columns))}
	if t.digits == 0 {
		t.digits = engine.DefaultDigits
	}
	if f == TSV {
		t.sep = '\t'
	}
	var keys []string // JSON: the keys of the columns (jsonKeys)
	if f == JSON {
		keys = jsonKeys(c.columns)
	}
	for i := range c.columns {
		if f == JSON {
			key := c.columns[i].Path
			if keys != nil {
				key = keys[i]
			}
			t.keyBuf = appendJSONString(t.keyBuf, key)
			t.keyBuf = append(t.keyBuf, ':')
		} else {
			t.keyBuf = appendQuoted(t.keyBuf, c.columns[i].Path)
		}
		t.keyEnd[i] = len(t.keyBuf)
	}
	return t
}

func (t *text) key(i int) []byte {
	if i == 0 {
		return t.keyBuf[:t.keyEnd[0]]
	}
	return t.keyBuf[t.keyEnd[i-1]:t.keyEnd[i]]
}

// appendRow appends a row as a line of text: its time (its date through the
// caller's day, one per goroutine) and its cells (per column, whether the
// sample has it and its result). In CSV and TSV a value prints
// as C's %.<digits>g with a three-digit exponent (engine.AppendFloat), the
// HEX types too (relog writes the double PDH computes); a value without a
// valid status prints as a single space, a column absent from the sample
// as nothing.
func (t *text) appendRow(buf []byte, day *dayCache, time int64, present []bool, res []engine.Result) []byte {
	if t.f == JSON {
		buf = append(buf, `{"time":"`...)
		buf = day.appendTime(buf, time, true)
		buf = append(buf, `","values":{`...)
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
			if r := &res[i]; r.Status != engine.Valid {
				buf = append(buf, "null"...)
			} else {
				buf = engine.AppendFloat(buf, r.Value, engine.ShortestDigits)
			}
		}
		return append(buf, "}}\n"...)
	}
	buf = append(buf, '"')
	buf = day.appendTime(buf, time, false)
	buf = append(buf, '"')
	res = res[:len(present)]
	for i, ok := range present {
		buf = append(buf, t.sep, '"')
		switch r := &res[i]; {
		case !ok:
		case r.Status != engine.Valid:
			buf = append(buf, ' ')
		default:
			buf = engine.AppendFloat(buf, r.Value, t.digits)
		}
		buf = append(buf, '"')
	}
	return append(buf, '\r', '\n')
}

// AppendHeader appends the first field of relog's CSV (or TSV) header,
// quoted: "(PDH-CSV 4.0) (Pacific Standard Time)(480)".
func (c *Converter) AppendHeader(dst []byte, f Format) []byte {
	dst = append(dst, `"(PDH-`...)
	if f == TSV {
		dst = append(dst, "TSV"...)
	} else {
		dst = append(dst, "CSV"...)
	}
	dst = append(dst, ` 4.0) (`...)
	dst = appendEscaped(dst, c.zoneName)
	dst = append(dst, ")("...)
	dst = strconv.AppendInt(dst, int64(c.bias), 10)
	return append(dst, `)"`...)
}

// appendQuoted appends s in double quotes, doubling the quotes within it
// (RFC 4180).
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s)
	return append(dst, '"')
}

// appendEscaped appends s with its double quotes doubled.
func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, s[i])
	}
	return dst
}

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '"' || b == '\\':
				dst = append(dst, '\\', b)
			case b < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			default:
				dst = append(dst, b)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, "\\ufffd"...)
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return append(dst, '"')
}

// AppendTime appends a local FILETIME as relog prints it:
// MM/DD/YYYY HH:MM:SS.mmm (the milliseconds truncated, as Windows'
// FileTimeToSystemTime does).
func AppendTime(dst []byte, ft int64) []byte {
	c := filetime.Split(ft)
	dst = appendFixed(dst, c.Month, 2)
	dst = append(dst, '/')
	dst = appendFixed(dst, c.Day, 2)
	dst = append(dst, '/')
	dst = appendFixed(dst, c.Year, 4)
	dst = append(dst, ' ')
	return appendClock(dst, c)
}

// AppendISOTime appends a local FILETIME as YYYY-MM-DDTHH:MM:SS.mmm.
func AppendISOTime(dst []byte, ft int64) []byte {
	c := filetime.Split(ft)
	dst = appendFixed(dst, c.Year, 4)
	dst = append(dst, '-')
	dst = appendFixed(dst, c.Month, 2)
	dst = append(dst, '-')
	dst = appendFixed(dst, c.Day, 2)
	dst = append(dst, 'T')
	return appendClock(dst, c)
}

func appendClock(dst []byte, c filetime.Civil) []byte {
	dst = appendFixed(dst, c.Hour, 2)
	dst = append(dst, ':')
	dst = appendFixed(dst, c.Minute, 2)
	dst = append(dst, ':')
	dst = appendFixed(dst, c.Second, 2)
	dst = append(dst, '.')
	return appendFixed(dst, c.Ticks/10_000, 3)
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
	if p.digitsUpTo(4) == 4 && !p.done() && p.peek() == '-' {
		p.pos = 0
		y = p.num(4, 4)
		p.expect('-')
		mo = p.num(2, 2)
		p.expect('-')
		d = p.num(2, 2)
		if !p.done() && (p.peek() == 'T' || p.peek() == ' ') {
			p.pos++
		}
	} else {
		p.pos = 0
		mo = p.num(1, 2)
		p.expect('/')
		d = p.num(1, 2)
		p.expect('/')
		y = p.num(4, 4)
		if !p.done() {
			p.expect(' ')
			for !p.done() && p.peek() == ' ' {
				p.pos++
			}
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
