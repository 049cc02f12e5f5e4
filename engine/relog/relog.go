package relog

import (
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
)

// Options select what a Converter reads from a log. The zero Options keep
// every counter and every sample.
type Options struct {
	// Counters keeps the columns whose path matches one of these patterns
	// (counterpath.Path.Matches on the column's parts, Column.Parts:
	// case-insensitive, with wildcards; a pattern without a machine, or
	// with the machine "*", matches every machine); all columns when empty.
	Counters []counterpath.Path
	// Begin and End keep the samples whose local time stamp (Row.Time)
	// lies in [Begin, End]; 0 leaves that end open. They are local
	// FILETIMEs, as ParseTime returns them.
	Begin, End int64
	// Every keeps one sample in Every, the first of the samples that Begin
	// and End keep, then every Every-th after it (relog's -t). Values are
	// computed between the kept samples. 0 and 1 keep every sample.
	Every int
	// Digits is the number of significant digits of the values in CSV and
	// TSV (engine.AppendFloat): 20 as current Windows writes them, 17 as
	// Windows wrote them before about 2020. 0 means engine.DefaultDigits.
	// JSON always writes the shortest text that reads back exactly.
	Digits int
	// MaxColumns is the most columns New and Merge accept (columns are
	// counter instances: each costs memory for as long as the Converter
	// lives, whatever the size of the records); for Merge, the columns of
	// all its logs together, each log's counted apart (each log holds its
	// own). Over it, the first reading stops as soon as it has met
	// MaxColumns+1 columns, and New and Merge return a *ColumnsError. 0
	// means no limit.
	MaxColumns int
	// PartFrom and PartTo make the second reading (Next, Write,
	// ReadRows) yield only the rows of one part of the log: the kept
	// samples whose records begin at file offsets PartFrom to PartTo − 1
	// (PartTo 0: to the log's end; a record's offset is its first
	// event's, Sample.Offset). 0 and 0 yield every row. The first reading is
	// the whole log's: the columns, Samples, the header, the time zone
	// are those of the whole log, a row's index and values are what the
	// whole log's reading gives it (the part's reading begins at the last
	// kept sample before it, for the values of two-sample counters), and
	// Write writes the CSV and TSV header only for the part that begins
	// at buffer 0. The rows of the parts, one after the other, are the
	// log's rows: several WebAssembly instances read a log so, one part
	// each (any offsets divide a log: hosts take equal byte ranges). A
	// damage met in a part ends it, as it ends the whole log's rows: the
	// parts after the first damaged one add nothing.
	PartFrom, PartTo int64
	// Identity is how instances are paired across samples: by name as PDH
	// pairs them (identity.PDH, the zero value), or Process and Thread
	// instances by process and thread ID (identity.PID; see identity.Mode).
	Identity identity.Mode
	// Rename, when not nil, renames every column's object and counter
	// (package translate's Table: localized names to English): Column.Path
	// and Column.Parts hold the names it returns, and Counters match them.
	// Machines and instances keep their names. (The module sets it from
	// its names_load sources: wasm/ABI.md.)
	Rename func(object, counter string) (string, string)

	part bool // a log of Merge: New opens it, Merge reads it
}

// Column is one column of the output: a counter of one instance.
type Column struct {
	_ [0]func() // not comparable: no equality function in the module
	// Path is the counter path as relog prints it in the CSV header,
	// \\MACHINE\Object(instance)\Counter.
	Path string
	// Parts are the parts of Path, as the log names them: the machine
	// without its leading \\, the object, the instance (a log's full
	// instance name split at its first "/" and its final "#n" as
	// counterpath.SplitInstance does) and the counter. Path is formatted
	// from them, so Parts hold what the log names even where Path would not
	// read back (counterpath.Parse) as they are; HasInstance is false for an
	// object without instances, and Index lies in 0 … 2^31 − 1.
	Parts counterpath.Path
	// Entry is the index of the log's counter-list entry (blg.CounterInfo)
	// that the column comes from.
	Entry int
	// Input is, for a Converter over several logs (Merge), the index of the
	// first log that has the column, whose counter list Entry indexes; 0
	// for a single log.
	Input int
	// Type is the counter's type.
	Type engine.CounterType
}

// Cell is one column's value in one row.
type Cell struct {
	_ [0]func() // not comparable: no equality function in the module
	// Present says whether the sample holds a raw value for the column; a
	// column whose instance is not in the sample has no value at all (an
	// empty field in CSV).
	Present bool
	// Counter is the counter's type, scale and time base, and Raw its raw
	// value in this sample.
	Counter engine.Counter
	Raw     engine.RawCounter
	// Result is the computed value (engine.Compute with options 0, relog's:
	// not capped, not scaled) between the previous row and this one; a
	// column that was absent from the previous row gets NewData for a
	// 2-sample type.
	Result engine.Result
}

// Row is one kept sample.
type Row struct {
	// Index is the sample's 0-based position in the log (for several logs,
	// the row's position among the merged rows, kept or not).
	Index int
	// Time is the sample's time stamp: the logging machine's local time as
	// a FILETIME (see the package documentation).
	Time int64
	// Cells holds one cell per column, in Converter.Columns order.
	Cells []Cell
}

// Converter turns a .blg log into relog's rows. New reads the log once to
// find the columns, the time range and the number of samples; Next then
// reads it a second time, yielding the rows. A Converter is not safe for
// concurrent use.
type Converter struct {
	src  io.ReaderAt
	size int64
	opts Options

	header   blg.LogHeader
	infos    []blg.CounterInfo
	names    *nametable.Table
	entries  []entry
	columns  []Column
	zoneName string
	bias     int32
	samples  int
	begin    int64
	end      int64
	scanErr  error
	met      int   // the first pass: columns met that the filters keep (MaxColumns)
	skipped  int64 // the first pass: events its readers skipped (SkippedEvents)
	over     bool  // the first pass met more than MaxColumns columns

	// The second pass.
	r       *blg.Reader
	started bool
	err     error
	row     Row
	kept    int // rows yielded so far
	seen    int // samples within [Begin, End] so far

	// Options.PartFrom: where the part's second reading begins, the last
	// kept sample before the part (the first reading met it): its record's
	// offset (−1: none), index, and seen and kept before it.
	carryOff              int64
	carryIndex, carrySeen int
	carryKept             int
	last                  []int32             // per column: the row that last had it, or −1
	prev                  []engine.RawCounter // per column: its raw value in that row
	scratch               scratch
	plan                  rowPlan          // the layout of the last sample, for the next (visit)
	counters              []engine.Counter // per column of a raw-record entry: its counter (blg.CounterInfo.Engine)
	// rawOnly leaves the rows' Results zero: Statistics reads the raw
	// values alone (engine.StatisticsFold computes its series itself).
	rawOnly bool

	// merge is set for a Converter over several logs (Merge).
	merge merging
	// id is set in identity.PID mode (identity.go).
	id *pairing
}

// merging is what Next and Statistics need of a merge, behind an interface
// so that a program that never merges links none of its code or types
// (the WebAssembly module's size budget).
type merging interface {
	next(c *Converter) bool // Next
	covers(col int) bool    // see Converter.covers
	rewind()                // see Converter.rewind
}

// entry is what a Converter knows of one counter-list entry: its counters
// and instances (in order of first appearance) and which pairs of them
// became columns.
type entry struct {
	info  *blg.CounterInfo
	whole bool

	counters  []string             // counter names
	types     []engine.CounterType // whole objects: the counters' types
	byCounter map[string]int32     // counter name → index in counters
	byTitle   map[uint32]int32     // whole objects: CounterNameTitleIndex → index in counters
	insts     []string             // full instance names (noInstance for none)
	byInst    map[string]int32     // instance name → index in insts
	instGen   []uint32             // per instance: the generation of the sample that last had it

	// During the first pass: the (counter, instance) pairs met, and
	// whether their path matches the filters (for an entry of one counter
	// of one instance, single: 0 not met, 1 met but filtered out, 2 kept;
	// no map per entry, for logs of very many entries). Afterwards:
	// grid[c*len(insts)+i] is the column of counter c and instance i, or
	// −1.
	pairs  map[[2]int32]bool
	single uint8
	grid   []int32
}

// multi reports whether the entry can have several counters or instances:
// a whole object or a wildcard instance.
func (e *entry) multi() bool { return e.whole || e.info.Wildcard() }

// scratch holds buffers reused from sample to sample.
type scratch struct {
	name  []byte
	gen   []uint32 // per column: the generation of the sample that filled it
	g     uint32   // the generation of the current sample
	defs  []defRef
	namer perfdata.Namer
}

// New reads the log held by r (size bytes) once, to find its columns, the
// range and number of the samples that opts keep, and the time zone of its
// header. It returns an error when the log cannot be opened (not a .blg
// log, a damaged header or counter list). A damage found later in the log
// does not stop New: the columns are those of the samples before it, and
// Err reports the damage once Next has reached it.
func New(r io.ReaderAt, size int64, opts Options) (*Converter, error) {
	if opts.Every < 0 {
		return nil, errors.New("relog: Every must not be negative")
	}
	br, err := blg.NewReader(r, size)
	if err != nil {
		return nil, err
	}
	if fast { // the module leaves it out (size budget): same output, slower
		opts.Counters = counterpath.Compact(opts.Counters) // a run of stars costs one
	}
	c := &Converter{src: r, size: size, opts: opts, header: *br.Header(), carryOff: -1}
	c.infos = br.Counters()
	c.entries = newEntries(c.infos)
	needNames := false
	for i := range c.entries {
		needNames = needNames || c.entries[i].whole
	}
	if needNames {
		if nt := br.NameTable(); nt != nil {
			if t, err := nametable.Parse(nt); err == nil {
				c.names = t
			}
		}
	}
	c.zoneName, c.bias = zoneAt(&c.header.TimeZone, c.header.StartTime)
	c.setupIdentity()
	if opts.part {
		// A log of Merge, which reads it: the reader is kept for that.
		c.r = br
		return c, nil
	}
	c.r = br // Next rewinds it for the second reading
	c.scan(br)
	// A sequential first reading counts every kept column once (met, over);
	// a split one's parts count theirs apart (keptColumns counts them all).
	if c.opts.MaxColumns > 0 && (c.over || fast && c.keptColumns() > c.opts.MaxColumns) {
		return nil, &ColumnsError{Max: c.opts.MaxColumns}
	}
	c.layout()
	return c, nil
}

// newEntries returns the entries of a counter list as the first pass
// starts them: nothing met yet but a single counter's own instance.
func newEntries(infos []blg.CounterInfo) []entry {
	entries := make([]entry, len(infos))
	for i := range infos {
		e := &entries[i]
		e.info = &infos[i]
		e.whole = isWhole(e.info)
		// Maps only where they serve: memory stays proportional to the
		// counter list for logs of hundreds of thousands of entries.
		if e.multi() {
			e.byInst = map[string]int32{}
			e.pairs = map[[2]int32]bool{}
		}
		if e.whole {
			e.byCounter = map[string]int32{}
			e.byTitle = map[uint32]int32{}
		} else {
			e.counters = []string{e.info.Counter}
			if !e.info.Wildcard() {
				// A single counter: its one instance is the entry's own.
				e.insts = []string{""}
				e.instGen = []uint32{0}
			}
		}
	}
	return entries
}

// isWhole reports whether a counter-list entry logs whole objects: its
// sub-records are PERF_DATA_BLOCKs.
func isWhole(ci *blg.CounterInfo) bool { return ci.Flags&0x10 != 0 || ci.Counter == "*" }

// zoneAt returns the time zone's name and total bias in force at the UTC
// FILETIME utc: the daylight name and bias when daylight time applies,
// else the standard ones.
func zoneAt(tz *blg.TimeZone, utc int64) (string, int32) {
	if utc <= 0 {
		return tz.StandardDisplayName(), tz.Bias + tz.StandardBias
	}
	bias, daylight := tz.BiasAt(utc)
	if daylight {
		return tz.DaylightDisplayName(), bias
	}
	return tz.StandardDisplayName(), bias
}

// keep reports whether the sample at local time t is kept, counting the
// samples within [Begin, End] in *seen.
func (o *Options) keep(t int64, seen *int) bool {
	if o.Begin != 0 && t < o.Begin || o.End != 0 && t > o.End {
		return false
	}
	n := *seen
	*seen = n + 1
	return o.Every <= 1 || n%o.Every == 0
}

// scan is the first pass: it meets every counter and instance of the kept
// samples. With two or more CPUs, a large log and no Every, it reads the
// log in parts (blg.Reader.Split), one goroutine each, and then takes in
// what each part met, in order, as if it had read them one after the
// other.
func (c *Converter) scan(br *blg.Reader) {
	if fast && c.opts.Every <= 1 && cpus() >= 2 && !sequentialScan && !c.parted() && c.id == nil {
		if parts := br.Split(min(cpus(), 4)); len(parts) > 1 {
			c.scanParts(parts)
			return
		}
	}
	c.scanPart(br)
	c.skipped = br.Skipped()
}

// sequentialScan makes scan read the log in one piece whatever the CPUs
// (the tests compare both ways).
var sequentialScan = false

// scanPart reads the samples of one part of the log.
func (c *Converter) scanPart(br *blg.Reader) {
	seen := 0
	from := c.opts.PartFrom
	for br.Next() {
		s := br.Sample()
		if !c.opts.keep(s.TimeStamp, &seen) {
			continue
		}
		if s.Offset < from {
			// Options.PartFrom: the last kept sample before the part so far.
			c.carryOff, c.carryIndex, c.carrySeen, c.carryKept = s.Offset, s.Index, seen-1, c.samples
		}
		if _, err := c.visit(s, true, nil); err != nil {
			c.scanErr = err
			return
		}
		if c.over {
			return // New refuses the log: no need to read on
		}
		if c.samples == 0 {
			c.begin = s.TimeStamp
		}
		c.end = s.TimeStamp
		c.samples++
	}
	c.scanErr = br.Err()
}

// addPair records, during the first pass, that entry e has counter ci of
// instance ii.
func (c *Converter) addPair(e *entry, ci, ii int32) {
	var keep bool
	if e.pairs == nil {
		if e.single != 0 {
			return
		}
		e.single = 1
		if keep = c.match(e, 0, 0); keep {
			e.single = 2
		}
	} else {
		k := [2]int32{ci, ii}
		if _, ok := e.pairs[k]; ok {
			return
		}
		keep = c.match(e, ci, ii)
		e.pairs[k] = keep
	}
	if keep {
		c.count() // one call: the module holds one copy
	}
}

// count counts a column met by the first pass, against Options.MaxColumns.
func (c *Converter) count() {
	if c.opts.MaxColumns > 0 {
		c.met++
		c.over = c.over || c.met > c.opts.MaxColumns
	}
}

// keptColumns returns the number of columns the first pass met that the filters
// keep: the number of columns layout makes.
func (c *Converter) keptColumns() int {
	n := 0
	for i := range c.entries {
		e := &c.entries[i]
		if e.pairs == nil {
			if e.single == 2 {
				n++
			}
			continue
		}
		for _, keep := range e.pairs {
			if keep {
				n++
			}
		}
	}
	return n
}

// ColumnsError is the error of New and Merge for logs with more columns
// than Options.MaxColumns.
type ColumnsError struct {
	Max int // Options.MaxColumns
}

func (e *ColumnsError) Error() string {
	return "relog: more than " + strconv.Itoa(e.Max) + " columns (counter instances)"
}

// match reports whether the column of counter ci and instance ii of entry e
// passes the Counters filter.
func (c *Converter) match(e *entry, ci, ii int32) bool {
	if len(c.opts.Counters) == 0 {
		return true
	}
	p := c.parts(e, ci, ii)
	for _, pat := range c.opts.Counters {
		if pat.Machine == "*" {
			pat.Machine = "" // any machine
		}
		if pat.Matches(p) {
			return true
		}
	}
	return false
}

// appendPath appends the path of counter ci of instance ii of entry e:
// the entry's own (blg.CounterInfo.AppendPath), with the instance of a
// wildcard entry or a whole object, and for a whole object its counter in
// place of the entry's "*" (\\machine\object(instance)\counter, the
// instance part only for objects with instances).
func (c *Converter) appendPath(dst []byte, e *entry, ci, ii int32) []byte {
	info := e.info
	renamed := c.opts.Rename != nil
	if renamed {
		// The entry's path with the renamed object and counter.
		r := blg.CounterInfo{Machine: info.Machine, Object: info.Object, Instance: info.Instance, Parent: info.Parent, InstanceIndex: info.InstanceIndex, Counter: info.Counter}
		if e.whole {
			r.Counter = e.counters[ci]
		}
		r.Object, r.Counter = c.opts.Rename(r.Object, r.Counter)
		info = &r
	}
	if !e.multi() {
		return info.AppendPath(dst, nil)
	}
	inst := e.insts[ii]
	if !e.whole {
		return info.AppendPath(dst, []byte(inst))
	}
	entry := blg.CounterInfo{Machine: info.Machine, Object: info.Object, Counter: info.Counter}
	if !renamed {
		entry.Counter = e.counters[ci]
	}
	if inst == noInstance {
		return entry.AppendPath(dst, nil)
	}
	return entry.AppendPath(dst, []byte(inst))
}

// parts returns the parts of the path of counter ci of instance ii of
// entry e, its object and counter renamed by Options.Rename.
func (c *Converter) parts(e *entry, ci, ii int32) counterpath.Path {
	p := e.parts(ci, ii)
	if c.opts.Rename != nil {
		p.Object, p.Counter = c.opts.Rename(p.Object, p.Counter)
	}
	return p
}

// parts returns the parts of the path of counter ci of instance ii of the
// entry (Column.Parts).
func (e *entry) parts(ci, ii int32) (p counterpath.Path) {
	info := e.info
	p.Machine, p.Object, p.Counter = strings.TrimPrefix(info.Machine, `\\`), info.Object, info.Counter
	if !e.multi() {
		// An index of 2^31 or more (which PDH never writes) is held at
		// 2^31 − 1: the hosts' parts and the long table hold it in 32 bits.
		p.HasInstance, p.Parent, p.Instance, p.Index = info.Instance != "", info.Parent, info.Instance, int(min(info.InstanceIndex, 1<<31-1))
		return p
	}
	if e.whole {
		p.Counter = e.counters[ci]
	}
	if inst := e.insts[ii]; inst != noInstance {
		p.HasInstance = true
		p.Parent, p.Instance, p.Index = counterpath.SplitInstance(inst)
	}
	return p
}

// noInstance names the single instance of a PERF_NO_INSTANCES object. It
// cannot be a real instance name, which never contains a NUL.
const noInstance = "\x00"

// layout orders the columns after the first pass: entries in counter-list
// order; within an entry, counters in order of first appearance, and
// within a counter, instances in order of first appearance.
func (c *Converter) layout() {
	if fast && c.columns == nil {
		// As many as there will be: no spare capacity per column.
		c.columns = make([]Column, 0, c.keptColumns())
	}
	for ei := range c.entries {
		e := &c.entries[ei]
		e.grid = make([]int32, len(e.counters)*len(e.insts))
		for ci := range e.counters {
			for ii := range e.insts {
				col := int32(-1)
				if e.pairs[[2]int32{int32(ci), int32(ii)}] || e.single == 2 {
					col = int32(len(c.columns))
					c.scratch.name = c.appendPath(c.scratch.name[:0], e, int32(ci), int32(ii))
					c.columns = append(c.columns, Column{
						Path:  string(c.scratch.name),
						Parts: c.parts(e, int32(ci), int32(ii)),
						Entry: ei,
						Type:  c.counterType(e, int32(ci)),
					})
				}
				e.grid[ci*len(e.insts)+ii] = col
			}
		}
		e.pairs = nil
	}
	c.row.Cells = make([]Cell, len(c.columns))
	c.prev = make([]engine.RawCounter, len(c.columns))
	c.counters = make([]engine.Counter, len(c.columns))
	for i := range c.columns {
		if e := &c.entries[c.columns[i].Entry]; !e.whole {
			c.counters[i] = e.info.Engine()
		}
	}
	c.last = make([]int32, len(c.columns))
	c.scratch.gen = make([]uint32, len(c.columns))
}

// counterType returns the type of counter ci of entry e (for whole objects,
// as the first pass last saw it).
func (c *Converter) counterType(e *entry, ci int32) engine.CounterType {
	if !e.whole {
		return e.info.Type
	}
	return e.types[ci]
}

// Columns returns the columns, in output order. The caller must not modify
// them, but for their Path and Parts, which it may rename (Path formatted
// from Parts, counterpath.Path.AppendTo) before Next, Write, ReadRows or
// Statistics: every output then names the columns so, with the same
// values (perfcalc relog --redact).
func (c *Converter) Columns() []Column { return c.columns }

// Header returns the log's header.
func (c *Converter) Header() *blg.LogHeader { return &c.header }

// TimeZone returns the name and the bias (in minutes, UTC = local + bias)
// that relog prints in its CSV header: those of the logging machine's zone
// in force when the log started, "Pacific Standard Time" and 480 for a
// winter log written in California.
func (c *Converter) TimeZone() (name string, bias int32) { return c.zoneName, c.bias }

// Samples returns the number of rows Next will yield (barring a change of
// the input between the two readings), and the local time stamps of the
// first and the last.
func (c *Converter) Samples() (n int, begin, end int64) { return c.samples, c.begin, c.end }

// SkippedEvents returns the number of events that the first reading of the
// log (of the logs, for Merge) skipped (blg.Reader.Skipped: a damaged
// event header is the likely cause, and a sample may be lost with it). The
// WebAssembly module counts none: 0.
func (c *Converter) SkippedEvents() int64 { return c.skipped }

// ScanErr returns the damage that the first reading met, or nil: the rows
// then end before it, and Err will report it again after the last row.
func (c *Converter) ScanErr() error { return c.scanErr }

// Next advances to the next kept sample, which Row then returns. It returns
// false after the last one or at the first error, which Err reports.
func (c *Converter) Next() bool {
	ok, _ := c.next(nil)
	return ok
}

// next is Next. With out set (a row of Write's batch), a raw-record sample
// laid out as the previous one goes straight into out, and the row's cells
// are left as they were: next then reports direct.
func (c *Converter) next(out *batchRow) (ok, direct bool) {
	if c.err != nil {
		return false, false
	}
	if c.merge != nil {
		return c.merge.next(c), false
	}
	if !c.started {
		c.started = true
		if err := c.startSecond(); err != nil {
			c.err = err
			return false, false
		}
		for i := range c.last {
			c.last[i] = -1
		}
		if c.id != nil {
			c.id.reset()
		}
	}
	for c.r.Next() {
		s := c.r.Sample()
		if !c.opts.keep(s.TimeStamp, &c.seen) {
			continue
		}
		if c.parted() && s.Offset < c.opts.PartFrom {
			// The last kept sample before the part: its raw values are
			// the older sample of the part's first row.
			if _, err := c.visit(s, false, nil); err != nil {
				c.err = err
				return false, false
			}
			c.kept++
			continue
		}
		c.row.Index, c.row.Time = s.Index, s.TimeStamp
		direct, err := c.visit(s, false, out)
		if err != nil {
			c.err = err
			return false, false
		}
		c.kept++
		return true, direct
	}
	c.err = c.r.Err()
	return false, false
}

// parted reports whether the second reading reads a part of the log
// (Options.PartFrom, PartTo).
func (c *Converter) parted() bool { return c.opts.PartFrom > 0 || c.opts.PartTo > 0 }

// startSecond starts the second reading: at the first sample, or for a part at
// the last kept sample before it, up to the part's end.
func (c *Converter) startSecond() error {
	if !c.parted() {
		return c.r.Rewind()
	}
	if c.carryOff >= 0 {
		c.seen, c.kept = c.carrySeen, c.carryKept
	}
	return c.r.SeekSample(c.carryOff, c.carryIndex, c.opts.PartTo)
}

// Row returns the current row. It and its cells are valid until the next
// call to Next.
func (c *Converter) Row() *Row { return &c.row }

// Err returns the error that stopped Next, or nil at the log's clean end.
func (c *Converter) Err() error { return c.err }

// appendDigits appends v in decimal with at least width digits.
func appendDigits(dst []byte, v int64, width int) []byte {
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	}
	var b [20]byte
	s := strconv.AppendInt(b[:0], v, 10)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}
