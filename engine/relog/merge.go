package relog

import (
	"errors"
	"io"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/internal/filetime"
	"github.com/perfcalc/perfcalc/engine/internal/fold"
)

// Input is one log of Merge: the log's bytes through R, Size bytes long,
// and the name its errors carry (the file name as the user gave it).
type Input struct {
	R    io.ReaderAt
	Size int64
	Name string
}

// InputError is an error of one of Merge's inputs: its 0-based position,
// its name, and the error (a *engine.FormatError for a damaged log).
type InputError struct {
	Index int
	Name  string
	Err   error
}

func (e *InputError) Error() string {
	name := e.Name
	if name == "" {
		name = "input " + strconv.Itoa(e.Index+1)
	}
	return name + ": " + e.Err.Error()
}

func (e *InputError) Unwrap() error { return e.Err }

// MaxInputs is the number of logs Merge takes at most: PDH binds at most 32
// logs into one data source (PdhBindInputDataSource).
const MaxInputs = 32

// Merge returns a Converter over several logs, merged as Windows' relog
// merges the logs given to it ("relog a.blg b.blg -f csv"): the rows of
// every log in one sequence, ordered by time. It reads each log once, as
// New does, and the Converter's Next, Write and Statistics read them a
// second time, together, holding one sample of each log: memory is bounded
// by the logs' number and their largest samples, not by their length.
//
// Microsoft documents that relog takes several input logs, and PDH that it
// binds up to 32 binary logs into one data source, but neither says how
// their samples combine; Merge does the following.
//
//   - Columns: the union of the logs' columns, those of the first log in
//     its order, then each later log's columns that no earlier log has.
//     A later log's column joins a column of the earlier logs whose path
//     is the same, else one whose path is the same under PDH's
//     case-insensitive comparison (the first spelling is kept), each
//     taken in order and at most once per log: two columns of one log are
//     never merged, even when their paths are equal or differ only in
//     case (Svc in one log, Svc and svc in another: svc is a column of its
//     own), so that no value is dropped or written under another column.
//     Column.Input names the first log that has the column.
//   - Rows: the samples of every log in time-stamp order; samples of
//     several logs with the same time stamp (to the 100 ns tick) form one
//     row, as when a log is merged with itself or with a copy of part of
//     it. A row has a value only in the columns of the logs that have a
//     sample at its time; where two of them have the same column, the first
//     log's value is kept. The samples of one log keep their own order.
//   - Values: a column's value is computed between its raw value in this
//     row and in the previous row of a log that has the column (the same
//     counter logged by two logs forms one series: a log split in two by
//     time gives, merged, the values of the whole log), with NewData where
//     that row lacked it, as within one log.
//   - Time: row times are the first log's local time, and the CSV header
//     names the first log's zone. A log written in a zone with other rules
//     has its time stamps converted (to UTC through its own zone, then to
//     the first log's local time), so that one clock orders every row.
//   - Options: Begin, End and Every select among the merged rows (Every
//     keeps every Every-th row of the output), and Counters filters every
//     log's columns.
//   - Damage: a log found damaged contributes its samples before the
//     damage; the others go on, and Err (ScanErr in the first reading)
//     reports the first damage as an *InputError.
//
// Header returns the first log's header. Merge returns an error (an
// *InputError for a log that cannot be opened) when a log is not a .blg
// log, or when inputs is empty or longer than MaxInputs.
func Merge(inputs []Input, opts Options) (*Converter, error) {
	switch {
	case opts.Every < 0:
		return nil, errors.New("relog: Every must not be negative")
	case len(inputs) == 0:
		return nil, errors.New("relog: no input log")
	case len(inputs) > MaxInputs:
		return nil, errors.New("relog: more than " + strconv.Itoa(MaxInputs) + " input logs")
	}
	m := &merger{
		names: make([]string, len(inputs)),
		parts: make([]*Converter, len(inputs)),
		rds:   make([]*blg.Reader, len(inputs)),
		heads: make([]*blg.Sample, len(inputs)),
		zoned: make([]bool, len(inputs)),
	}
	partOpts := Options{Counters: opts.Counters, MaxColumns: opts.MaxColumns, Identity: opts.Identity, part: true}
	for k, in := range inputs {
		p, err := New(in.R, in.Size, partOpts)
		if err != nil {
			return nil, &InputError{Index: k, Name: in.Name, Err: err}
		}
		m.names[k] = in.Name
		m.parts[k], m.rds[k], p.r = p, p.r, nil
		m.zoned[k] = k > 0 && !sameRules(&p.header.TimeZone, &m.parts[0].header.TimeZone)
	}
	first := m.parts[0]
	c := &Converter{
		opts:     opts,
		header:   first.header,
		zoneName: first.zoneName,
		bias:     first.bias,
		merge:    m,
	}
	m.scan(c)
	if opts.MaxColumns > 0 && m.columnsMet() > opts.MaxColumns {
		return nil, &ColumnsError{Max: opts.MaxColumns}
	}
	m.layout(c) // no more merged columns than the logs have together
	return c, nil
}

// columnsMet returns the number of columns the logs' first readings have
// met so far, all logs together (Options.MaxColumns: each log holds its
// own columns, besides the merged ones).
func (m *merger) columnsMet() int {
	n := 0
	for _, p := range m.parts {
		n += p.met
	}
	return n
}

// merger is the state of a Converter over several logs: one single-log
// Converter (part) per log, which decodes its samples into cells (their
// values are computed again here, across the logs), and the reader and
// current sample of each.
type merger struct {
	names []string // the inputs' names, for errors
	parts []*Converter
	rds   []*blg.Reader
	heads []*blg.Sample // per part: its next sample, nil when it has no more
	zoned []bool        // per part: its time stamps need converting to the first log's clock
	err   error         // the first damage met in this reading
	group []int         // the parts whose heads form the current row
	rows  int           // rows met so far in this reading, kept or not

	colOf   [][]int32           // colOf[k][j]: the merged column of part k's column j
	covered []bool              // per column: a log that has it has a sample in the current row
	had     []bool              // per column: present in the last row that covered it
	prev    []engine.RawCounter // per column: its raw value in that row
}

// sameRules reports whether two zones give every instant the same local
// time.
func sameRules(a, b *blg.TimeZone) bool {
	return a.Bias == b.Bias && a.StandardBias == b.StandardBias && a.DaylightBias == b.DaylightBias &&
		a.StandardDate == b.StandardDate && a.DaylightDate == b.DaylightDate
}

// time returns the time stamp of part k's head in the first log's clock.
func (m *merger) time(k int) int64 {
	t := m.heads[k].TimeStamp
	if !m.zoned[k] {
		return t
	}
	return m.parts[0].header.TimeZone.ToLocal(toUTC(&m.parts[k].header.TimeZone, t))
}

// toUTC converts a local FILETIME of the zone tz to UTC. A local time that
// the change to daylight time skips, or that the change back repeats, is
// read in standard time.
func toUTC(tz *blg.TimeZone, local int64) int64 {
	std := local + int64(tz.Bias+tz.StandardBias)*filetime.TicksPerMinute
	bias, _ := tz.BiasAt(std)
	utc := local + int64(bias)*filetime.TicksPerMinute
	if again, _ := tz.BiasAt(utc); again != bias {
		return std
	}
	return utc
}

// advance moves part k to its next sample, recording its damage.
func (m *merger) advance(k int) {
	if m.rds[k].Next() {
		m.heads[k] = m.rds[k].Sample()
		return
	}
	m.heads[k] = nil
	if err := m.rds[k].Err(); err != nil {
		m.fail(k, err)
	}
}

// fail stops part k after a damage; the first damage is the one reported.
func (m *merger) fail(k int, err error) {
	m.heads[k] = nil
	if m.err == nil {
		m.err = &InputError{Index: k, Name: m.names[k], Err: err}
	}
}

// start positions every part's reader on its first sample: the readers of
// openLog for the first reading, the same rewound for the second.
func (m *merger) start(reopen bool) {
	m.err, m.rows = nil, 0
	for k := range m.parts {
		if id := m.parts[k].id; id != nil && reopen {
			id.reset()
		}
		if reopen {
			if err := m.rds[k].Rewind(); err != nil {
				m.fail(k, err)
				continue
			}
		}
		m.advance(k)
	}
}

// nextGroup gathers in m.group the parts whose next sample has the earliest
// time stamp, and returns that time; false when every part is done.
func (m *merger) nextGroup() (int64, bool) {
	m.group = m.group[:0]
	var t int64
	for k := range m.parts {
		if m.heads[k] == nil {
			continue
		}
		tk := m.time(k)
		switch {
		case len(m.group) == 0 || tk < t:
			m.group = append(m.group[:0], k)
			t = tk
		case tk == t:
			m.group = append(m.group, k)
		}
	}
	return t, len(m.group) > 0
}

// scan is the first reading of a merge: every part meets the counters and
// instances of its samples in the kept rows.
func (m *merger) scan(c *Converter) {
	m.start(false)
	seen := 0
	for {
		t, ok := m.nextGroup()
		if !ok {
			break
		}
		if c.opts.keep(t, &seen) {
			for _, k := range m.group {
				if _, err := m.parts[k].visit(m.heads[k], true, nil); err != nil {
					m.fail(k, err)
				}
				if m.parts[k].over {
					return // Merge refuses the logs: no need to read on
				}
			}
			if c.opts.MaxColumns > 0 && m.columnsMet() > c.opts.MaxColumns {
				return // each log holds its columns: their sum counts
			}
			if c.samples == 0 {
				c.begin = t
			}
			c.end = t
			c.samples++
		}
		for _, k := range m.group {
			if m.heads[k] != nil {
				m.advance(k)
			}
		}
	}
	c.scanErr = m.err
	for _, r := range m.rds {
		c.skipped += r.Skipped()
	}
}

// layout lays out every part's columns and their union, the columns of c.
// A log's column joins a column of earlier logs with the same path, else
// one with the same path under PDH's case-insensitive comparison, else
// becomes a column of its own; each merged column takes at most one
// column of each log, so that no column of a log takes the values of
// another of the same log.
func (m *merger) layout(c *Converter) {
	// The merged columns by path and by folded path, in order; a cursor
	// per key skips the columns that the current log has taken.
	type list struct {
		cols []int32
		next int // the first of cols the current log may still take
		log  int // the log next belongs to
	}
	byPath, byKey := map[string]*list{}, map[string]*list{}
	var takenBy []int // per merged column: 1 + the last log that took it
	take := func(l *list, k int) int32 {
		if l == nil {
			return -1
		}
		if l.log != k {
			l.next, l.log = 0, k
		}
		for ; l.next < len(l.cols); l.next++ {
			if u := l.cols[l.next]; takenBy[u] != k+1 {
				l.next++
				takenBy[u] = k + 1
				return u
			}
		}
		return -1
	}
	add := func(m map[string]*list, key string, u int32) {
		l := m[key]
		if l == nil {
			l = &list{log: -1}
			m[key] = l
		}
		l.cols = append(l.cols, u)
	}
	var key []byte
	m.colOf = make([][]int32, len(m.parts))
	for k, p := range m.parts {
		p.layout()
		colOf := make([]int32, len(p.columns))
		for j := range p.columns {
			colOf[j] = take(byPath[p.columns[j].Path], k)
		}
		for j := range p.columns {
			if colOf[j] < 0 {
				key = fold.Append(key[:0], p.columns[j].Path)
				colOf[j] = take(byKey[string(key)], k)
			}
		}
		first := len(c.columns)
		for j := range p.columns {
			if colOf[j] >= 0 {
				continue
			}
			// A column of this log only so far (two columns of one log
			// are never merged, even of one path: a counter logged alone
			// and through a wildcard).
			col := &p.columns[j]
			u := int32(len(c.columns))
			c.columns = append(c.columns, Column{Path: col.Path, Parts: col.Parts, Entry: col.Entry, Input: k, Type: col.Type})
			takenBy = append(takenBy, k+1)
			colOf[j] = u
		}
		for u := first; u < len(c.columns); u++ {
			path := c.columns[u].Path
			add(byPath, path, int32(u))
			key = fold.Append(key[:0], path)
			add(byKey, string(key), int32(u))
		}
		m.colOf[k] = colOf
	}
	c.row.Cells = make([]Cell, len(c.columns))
	m.covered = make([]bool, len(c.columns))
	m.had = make([]bool, len(c.columns))
	m.prev = make([]engine.RawCounter, len(c.columns))
}

// next is c.Next for a merge: the next kept row of the merged logs.
func (m *merger) next(c *Converter) bool {
	if !c.started {
		c.started = true
		m.start(true)
	}
	for {
		t, ok := m.nextGroup()
		if !ok {
			c.err = m.err
			return false
		}
		index := m.rows
		m.rows++
		kept := c.opts.keep(t, &c.seen)
		if kept {
			m.row(c, t, index)
		}
		for _, k := range m.group {
			if m.heads[k] != nil {
				m.advance(k)
			}
		}
		if kept {
			c.kept++
			return true
		}
	}
}

// row builds c's current row from the samples of the parts in m.group,
// and computes its values.
func (m *merger) row(c *Converter, t int64, index int) {
	c.row.Index, c.row.Time = index, t
	clear(c.row.Cells)
	clear(m.covered)
	for _, k := range m.group {
		p := m.parts[k]
		clear(p.row.Cells)
		if _, err := p.visit(m.heads[k], false, nil); err != nil {
			m.fail(k, err)
			continue
		}
		for j := range p.row.Cells {
			u := m.colOf[k][j]
			m.covered[u] = true
			if p.row.Cells[j].Present && !c.row.Cells[u].Present {
				c.row.Cells[u] = p.row.Cells[j]
			}
		}
	}
	for u := range c.row.Cells {
		if !m.covered[u] {
			continue
		}
		cell := &c.row.Cells[u]
		if !cell.Present {
			m.had[u] = false
			continue
		}
		if !c.rawOnly {
			in := engine.Input{Counter: cell.Counter, New: cell.Raw, HasOld: m.had[u], Old: m.prev[u]}
			cell.Result = engine.Compute(&in, 0)
		} else {
			cell.Result = engine.Result{}
		}
		m.had[u], m.prev[u] = true, cell.Raw
	}
}

// covers reports whether a log that has column i has a sample in the
// current row.
func (m *merger) covers(i int) bool { return m.covered[i] }

// rewind forgets the last reading's rows (Converter.rewind).
func (m *merger) rewind() { clear(m.had) }

// covers reports whether the current row could have had column i: always
// for one log; for a merge, whether a log that has the column has a sample
// in the row.
func (c *Converter) covers(i int) bool { return c.merge == nil || c.merge.covers(i) }
