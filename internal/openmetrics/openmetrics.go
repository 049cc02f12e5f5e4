// Package openmetrics writes perfcalc's counter samples (a longform.Table)
// as OpenMetrics text with time stamps, the input of Prometheus' backfill
// (promtool tsdb create-blocks-from openmetrics FILE DIR).
//
// # Mapping
//
// Every counter becomes one gauge family, named by FamilyName
// (windows_<object>_<counter> with a unit suffix), with a "# TYPE … gauge"
// line, a "# UNIT" line where the name ends in a unit, and a "# HELP" line
// naming the counter and its type. Every column of relog's output (a
// counter of one instance on one machine) becomes one metric of its family
// with the labels machine (without the leading \\) and, for objects with
// instances, instance (PDH's parent/name#n). Two counters whose names map
// to the same family name are told apart by a number _2, _3, … in order of
// appearance, put before the unit suffix where the name has a unit
// (windows_disk_busy_2_percent: a family with a UNIT must end in it).
// Every column is kept: a column whose family and labels repeat an earlier
// column's (a path the log holds twice, counter names that differ only in
// case, which are one family) gets one more label, duplicate="2" for the
// second such column, "3" for the third, and so on in column order.
//
// A sample is the PDH value (relog's: not capped, not scaled), as
// engine.AppendFloat writes it with engine.ShortestDigits (the shortest
// text that reads back as the same double, exponents with three digits:
// 1.5e-005, which Prometheus reads), followed by the UTC time stamp in
// seconds with milliseconds. A cell without a valid value (relog's " ")
// is left out: no NaN is ever written. Within a metric, time stamps
// increase strictly as OpenMetrics requires; a sample whose millisecond is
// not after the previous one of its metric (a log whose clock went back)
// is left out and counted in Stats.Dropped (perfcalc's commands say so on
// standard error). The text ends with "# EOF".
//
// # Order and memory
//
// OpenMetrics wants all samples of a family together, and each metric's
// samples together in time order, while a log holds them sample by
// sample. Write therefore transposes: it keeps the values of a window of
// samples (Options.Budget bytes, 8 bytes a value) and, when a window is
// full, writes it to a temporary file column by column; at the end it
// writes family by family, metric by metric, reading each metric's stretch
// of every window back. A log whose values fit in the budget never
// touches a file. Memory is about the budget and three windows' times whatever the log's length;
// the temporary file holds 8 bytes per cell and sample, and is removed.
//
// # Security
//
// The rows come from perfcalc's decoders, which check the untrusted log.
// Names and label values are escaped as OpenMetrics requires; allocations
// are bounded by the budget and the number of columns.
package openmetrics

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/internal/longform"
)

// DefaultBudget is the memory Write keeps samples in before it spills them
// to a temporary file.
const DefaultBudget = 8 << 20

// Options tune Write. The zero Options are the defaults.
type Options struct {
	// Budget is the number of bytes of values held in memory; 0 means
	// DefaultBudget.
	Budget int
	// TempDir is where the temporary file goes; "" means os.TempDir().
	TempDir string
	// Spill, when not nil, takes the windows that do not stay in memory
	// in place of a temporary file (TempDir is then unused): tests and
	// fuzz targets give a buffer in memory, so that no input costs a file.
	Spill SpillFile
}

// SpillFile is where Write spills the windows of samples beyond its
// budget: written at increasing offsets, then read back.
type SpillFile interface {
	io.ReaderAt
	io.WriterAt
}

// MemorySpill is a SpillFile in memory (for tests and fuzz targets, where
// a temporary file per input would cost more than the work).
type MemorySpill struct{ b []byte }

// WriteAt writes p at off, growing the buffer as needed.
func (m *MemorySpill) WriteAt(p []byte, off int64) (int, error) {
	if end := int(off) + len(p); end > len(m.b) {
		m.b = append(m.b, make([]byte, end-len(m.b))...)
	}
	return copy(m.b[off:], p), nil
}

// Len returns the bytes written (the end of the furthest write).
func (m *MemorySpill) Len() int { return len(m.b) }

// ReadAt reads len(p) bytes at off; io.ErrUnexpectedEOF beyond what was written.
func (m *MemorySpill) ReadAt(p []byte, off int64) (int, error) {
	if int(off)+len(p) > len(m.b) {
		return 0, io.ErrUnexpectedEOF
	}
	return copy(p, m.b[off:]), nil
}

// Stats counts what Write wrote.
type Stats struct {
	Families int   // metric families written
	Metrics  int   // metrics (label sets) written
	Samples  int64 // sample lines written
	Invalid  int64 // cells present without a valid value, left out
	Dropped  int64 // valid values left out because their time stamp did not increase
	Spilled  int64 // bytes written to the temporary file (0 when it was not needed)
}

// family is a metric family and the columns that are its metrics.
type family struct {
	name, unit, help string
	key              string // lower-case object\counter: what the family stands for
	cols             []int
}

// lineSize is the text gathered before a write to w.
const lineSize = 64 << 10

// noValue marks a cell without a value in the windows. The engine never
// computes a NaN (engine.Result), so no value is mistaken for one.
var noValue = math.Float64bits(math.NaN())

// Write writes t to w as OpenMetrics text and returns what it wrote. A
// failure of w or of the temporary file is returned at once; an error of
// the source rows (a damaged log) is returned after the samples before it
// have been written and the text has been ended with "# EOF", so that the
// output holds them.
func Write(w io.Writer, t *longform.Table, opts Options) (Stats, error) {
	var st Stats
	budget := opts.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	fams, prefixes := layout(t.Series)
	ncol := len(t.Series)
	// A window holds win samples: their times, then the values column by
	// column (vals[c*win+k]).
	win := max(1, budget/8/max(ncol, 1))
	times := make([]int64, 0, win)
	vals := make([]uint64, ncol*win)
	sp := spill{dir: opts.TempDir, f: opts.Spill}
	defer sp.close()
	rowErr := func() error {
		for t.Rows.Next() {
			if len(times) == win {
				if err := sp.write(times, vals, ncol); err != nil {
					return err
				}
				times = times[:0]
			}
			row := t.Rows.Sample()
			k := len(times)
			ms := floorDiv(longform.UnixMicros(t.Clock.UTC(row.Time)), 1000)
			times = append(times, ms)
			for c := 0; c < ncol; c++ {
				v := noValue
				if c < len(row.Cells) {
					cell := &row.Cells[c]
					if cell.Present {
						if cell.Status == engine.Valid {
							v = math.Float64bits(cell.Value)
						} else {
							st.Invalid++
						}
					}
				}
				vals[c*win+k] = v
			}
		}
		return nil
	}()
	if rowErr != nil {
		return st, rowErr // the temporary file failed
	}
	st.Spilled = sp.size

	out := make([]byte, 0, 4096) // grows to lineSize with the text: a small log needs no more
	flush := func(force bool) error {
		if len(out) >= lineSize || force && len(out) > 0 {
			_, err := w.Write(out)
			out = out[:0]
			return err
		}
		return nil
	}
	var tbuf []int64
	var vbuf []uint64
	for _, f := range fams {
		wrote := false
		for _, c := range f.cols {
			last := int64(math.MinInt64)
			n := int64(0)
			emit := func(ts []int64, vs []uint64) error {
				for k, bits := range vs {
					if bits == noValue {
						continue
					}
					if ts[k] <= last {
						st.Dropped++
						continue
					}
					last = ts[k]
					if !wrote {
						out = appendHeader(out, &f)
						wrote = true
						st.Families++
					}
					if n == 0 {
						st.Metrics++
					}
					n++
					out = append(out, prefixes[c]...)
					out = engine.AppendFloat(out, math.Float64frombits(bits), engine.ShortestDigits)
					out = append(out, ' ')
					out = appendSeconds(out, ts[k])
					out = append(out, '\n')
					if err := flush(false); err != nil {
						return err
					}
				}
				return nil
			}
			for _, ch := range sp.chunks {
				var err error
				tbuf, vbuf, err = sp.read(ch, c, tbuf, vbuf)
				if err != nil {
					return st, err
				}
				if err := emit(tbuf, vbuf); err != nil {
					return st, err
				}
			}
			if err := emit(times, vals[c*win:c*win+len(times)]); err != nil {
				return st, err
			}
			st.Samples += n
		}
	}
	out = append(out, "# EOF\n"...)
	if err := flush(true); err != nil {
		return st, err
	}
	return st, t.Rows.Err()
}

// layout groups the series into families, in order of first appearance,
// and returns with them each column's line prefix (name and labels).
func layout(series []longform.Series) ([]family, []string) {
	var fams []family
	byName := map[string]int{}
	byKey := map[string]int{}
	seen := map[string]bool{}
	prefixes := make([]string, len(series))
	for c := range series {
		s := &series[c]
		key := strings.ToLower(s.Object) + "\\" + strings.ToLower(s.Counter)
		fi, ok := byKey[key]
		if !ok {
			name, unit := FamilyName(s.Object, s.Counter, s.Type)
			// The number goes before the unit suffix: a family with a
			// UNIT must end in it.
			base, tail := name, ""
			if unit != "" {
				base, tail = name[:len(name)-len(unit)-1], name[len(name)-len(unit)-1:]
			}
			for n := 2; ; n++ {
				if _, taken := byName[name]; !taken {
					break
				}
				name = base + "_" + strconv.Itoa(n) + tail
			}
			fi = len(fams)
			fams = append(fams, family{name: name, unit: unit, key: key, help: `\` + s.Object + `\` + s.Counter + " (" + s.TypeName + ")"})
			byName[name], byKey[key] = fi, fi
		}
		b := append([]byte(fams[fi].name), `{machine=`...)
		b = appendLabelValue(b, s.Machine)
		if s.HasInstance {
			b = append(b, `,instance=`...)
			b = appendLabelValue(b, s.FullInstance())
		}
		labels := len(b)
		b = append(b, "} "...)
		for n := 2; seen[string(b)]; n++ {
			// The same metric again: told apart by a label.
			b = append(b[:labels], `,duplicate="`...)
			b = strconv.AppendInt(b, int64(n), 10)
			b = append(b, `"} `...)
		}
		prefix := string(b) // one copy for both: memory per column
		seen[prefix] = true
		prefixes[c] = prefix
		fams[fi].cols = append(fams[fi].cols, c)
	}
	return fams, prefixes
}

// appendHeader appends a family's TYPE, UNIT and HELP lines.
func appendHeader(dst []byte, f *family) []byte {
	dst = append(dst, "# TYPE "...)
	dst = append(dst, f.name...)
	dst = append(dst, " gauge\n"...)
	if f.unit != "" {
		dst = append(dst, "# UNIT "...)
		dst = append(dst, f.name...)
		dst = append(dst, ' ')
		dst = append(dst, f.unit...)
		dst = append(dst, '\n')
	}
	dst = append(dst, "# HELP "...)
	dst = append(dst, f.name...)
	dst = append(dst, ' ')
	dst = appendEscaped(dst, f.help, true)
	return append(dst, '\n')
}

// appendSeconds appends a time in milliseconds since 1970 as seconds with
// three decimals.
func appendSeconds(dst []byte, ms int64) []byte {
	if ms < 0 {
		dst = append(dst, '-')
		ms = -ms
	}
	dst = strconv.AppendInt(dst, ms/1000, 10)
	f := ms % 1000
	return append(dst, '.', byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

// spill is the temporary file of the windows that did not stay in memory.
type spill struct {
	dir    string
	f      SpillFile // Options.Spill, or file
	file   *os.File  // the temporary file Write created
	size   int64
	chunks []chunk
	buf    []byte // writes
	rbuf   []byte // reads
}

// spillBuffer is the size of the writes to the temporary file.
const spillBuffer = 64 << 10

// chunk is one window in the temporary file: n times at off, then the
// values of every column, n each.
type chunk struct {
	off int64
	n   int
}

// write appends a full window to the temporary file, creating it first.
func (s *spill) write(times []int64, vals []uint64, ncol int) error {
	if s.f == nil {
		f, err := os.CreateTemp(s.dir, "perfcalc-openmetrics-*.tmp")
		if err != nil {
			return err
		}
		s.f, s.file = f, f
	}
	n, win := len(times), len(vals)/max(ncol, 1)
	// Through a small buffer: the window itself is the budget.
	off := s.size
	put := func(v uint64, last bool) error {
		s.buf = binary.LittleEndian.AppendUint64(s.buf, v)
		if len(s.buf) >= spillBuffer || last {
			if _, err := s.f.WriteAt(s.buf, off); err != nil {
				return err
			}
			off += int64(len(s.buf))
			s.buf = s.buf[:0]
		}
		return nil
	}
	s.buf = s.buf[:0]
	for k, t := range times {
		if err := put(uint64(t), ncol == 0 && k == n-1); err != nil {
			return err
		}
	}
	for c := 0; c < ncol; c++ {
		for k, v := range vals[c*win : c*win+n] {
			if err := put(v, c == ncol-1 && k == n-1); err != nil {
				return err
			}
		}
	}
	s.chunks = append(s.chunks, chunk{s.size, n})
	s.size = off
	return nil
}

// read returns the times of a window and the values of column c in it.
func (s *spill) read(ch chunk, c int, times []int64, vals []uint64) ([]int64, []uint64, error) {
	need := 8 * ch.n
	if cap(s.rbuf) < need {
		s.rbuf = make([]byte, need)
	}
	b := s.rbuf[:need]
	get := func(off int64) error {
		if _, err := s.f.ReadAt(b, off); err != nil {
			return errors.New("openmetrics: reading the temporary file: " + err.Error())
		}
		return nil
	}
	if err := get(ch.off); err != nil {
		return times, vals, err
	}
	times = times[:0]
	for k := 0; k < ch.n; k++ {
		times = append(times, int64(binary.LittleEndian.Uint64(b[8*k:])))
	}
	if err := get(ch.off + int64(need)*(1+int64(c))); err != nil {
		return times, vals, err
	}
	vals = vals[:0]
	for k := 0; k < ch.n; k++ {
		vals = append(vals, binary.LittleEndian.Uint64(b[8*k:]))
	}
	return times, vals, nil
}

// close removes the temporary file Write created.
func (s *spill) close() {
	if s.file != nil {
		name := s.file.Name()
		s.file.Close()
		os.Remove(name)
	}
}
