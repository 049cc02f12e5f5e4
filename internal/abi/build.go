package abi

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// Summary is what a decode result's header says besides its records.
type Summary struct {
	_    [0]func() // not comparable: no equality function in the module (first: a trailing zero-size field would pad)
	Kind uint32    // Kind…
	// Info is the header's info string: the V1 machine, the V2
	// counterset's GUID, a log's time zone.
	Info string
	// Keys is the number of paths that records share (a log's columns,
	// each written once per page); 0 when every record has its own path.
	Keys          int
	Columns, Rows uint32
	Bias          int32
	// Local is the header's local time (query), or the events that a
	// log's first reading skipped (blg, stats, columns: HdrLocal).
	Local int64
	// Damage is why a log ends early (FlagDamaged): the records before it
	// are valid.
	Damage error
	// Breaks is, when a method returns, the identity breaks that a log's
	// reading or a query met in IdentityPID mode
	// (relog.Converter.IdentityBreaks, query.Query.IdentityBreaks; the
	// module's identity_breaks); 0 otherwise.
	Breaks int64
}

// Builder builds the result of one decode export into a Writer: one method
// per input kind, the same code in the module (into its output buffer) and
// in host.Native (into a growing buffer). Its Summary holds the header's
// fields when a method returns. Errors are the decoders' own (see CodeOf)
// or an *Error; a Builder serves one call.
type Builder struct {
	W *Writer
	Summary
	n   int    // records so far
	str []byte // a record's path formatted from its parts
}

// begin starts the result.
func (b *Builder) begin(kind uint32, info string, keys int) {
	b.Kind, b.Info, b.Keys = kind, info, keys
	b.W.Begin(&b.Summary)
}

// count counts a record of the result: ErrTooMany past MaxRecords,
// ErrStopped once the Writer's Pause abandoned the result.
func (b *Builder) count() error {
	if b.W.stopped {
		return ErrStopped
	}
	if b.n >= MaxRecords {
		return ErrTooMany
	}
	b.n++
	return nil
}

// record writes a record with its path and, for a counter, the path's
// parts p (nil for a name), up to MaxRecords. A nil path is p's canonical
// form (counterpath.Path.AppendTo).
func (b *Builder) record(r *Record, path []byte, p *counterpath.Path, key int) error {
	if err := b.count(); err != nil {
		return err
	}
	if path == nil && p != nil {
		b.str = p.AppendTo(b.str[:0])
		path = b.str
	}
	b.W.Record(r, path, p, key)
	return nil
}

// V1 decodes the V1 PERF_DATA_BLOCK data (decode_v1): one record per
// counter of every instance of every object, base counters excepted (they
// are the SecondValue or MultiCount of the counter before them), with its
// raw values as perfdata's Object.Fill pairs them and its value as a first
// sample (engine.Compute without an older sample: 1-sample types are
// Valid, 2-sample types NewData). Objects and counters are named through
// the "Counter 009" name table names (empty: "#<index>").
func (b *Builder) V1(data, names []byte, opts engine.Options) error {
	t, err := nameTable(names)
	if err != nil {
		return err
	}
	blk, err := perfdata.Parse(data)
	if err != nil {
		return err
	}
	machine := blk.SystemName()
	b.begin(KindV1, machine, 0)
	b.Rows = 1
	var (
		nm  perfdata.Namer
		tmp []byte
		in  engine.Input
	)
	objs := blk.Objects()
	for objs.Next() {
		obj := objs.Object()
		b.Columns++
		tmp = t.AppendName(tmp[:0], obj.ObjectNameTitleIndex)
		objName := string(tmp)
		instNames, err := nm.Names(&blk, obj)
		if err != nil {
			return err
		}
		insts := obj.Instances()
		for i := 0; insts.Next(); i++ {
			inst := insts.Instance()
			p := counterpath.Path{Machine: strings.TrimPrefix(machine, `\\`), Object: objName, HasInstance: inst.Defined}
			if inst.Defined && i < len(instNames) {
				p.Parent, p.Instance, p.Index = instNames[i].Parent, instNames[i].Name, instNames[i].Occurrence
			}
			defs := obj.Counters()
			for defs.Next() {
				def := defs.Counter()
				if def.CounterType.IsBase() {
					continue
				}
				in = engine.Input{}
				if err := obj.Fill(&in, def, inst.CounterBlock); err != nil {
					return err
				}
				tmp = t.AppendName(tmp[:0], def.CounterNameTitleIndex)
				p.Counter = string(tmp)
				r := engine.Compute(&in, opts)
				rec := Record{
					Value: r.Value, Status: r.Status, Type: in.Type, Raw: in.New,
					TimeBase: in.TimeBase, Time: in.New.TimeStamp, Scale: in.Scale,
					Aux: def.CounterNameTitleIndex, Column: uint32(obj.Index),
				}
				if err := b.record(&rec, nil, &p, -1); err != nil {
					return err
				}
			}
			if err := defs.Err(); err != nil {
				return err
			}
		}
		if err := insts.Err(); err != nil {
			return err
		}
	}
	return objs.Err()
}

// nameTable parses an optional name table (nil for none).
func nameTable(b []byte) (*nametable.Table, error) {
	if len(b) == 0 {
		return nil, nil
	}
	return nametable.Parse(b)
}

// V2 is what decoding PerfLib V2 data needs besides the data.
type V2 struct {
	// RegInfo is the counterset's registration (PERF_COUNTERSET_REG_INFO and
	// its PERF_COUNTER_REG_INFO array), required.
	RegInfo []byte
	// Strings are its counter name strings (a PERF_STRING_BUFFER_HEADER
	// block); empty names counters "#<id>".
	Strings []byte
	// IDs are the CounterId of each block position (perflibv2.Selector.IDs),
	// which PERF_SINGLE_COUNTER and PERF_MULTIPLE_INSTANCES blocks need.
	IDs []uint32
}

// V2 decodes the PerfLib V2 PerfQueryCounterData result data of the
// counterset cs (decode_v2): one record per value, base counters excepted,
// values the registration does not know skipped, with perflibv2.Fill's raw
// values and its value as a first sample. A block that names no counter
// while cs has no id for it is an *Error with CodeAbsent and the block's
// index as Detail.
func (b *Builder) V2(data []byte, cs *V2, opts engine.Options) error {
	reg, err := perflibv2.ParseRegInfo(cs.RegInfo)
	if err != nil {
		return err
	}
	var strs *perflibv2.StringBuffer
	if len(cs.Strings) > 0 {
		s, err := perflibv2.ParseStrings(cs.Strings)
		if err != nil {
			return err
		}
		strs = &s
	}
	ids := cs.IDs
	// The index pairs each value in O(log n); a malformed block is reported
	// by the walk below, after the values before it.
	var x perflibv2.Index
	_ = x.Reset(data, &reg, ids)
	var p perflibv2.Parser
	dh, err := p.Start(data)
	if err != nil {
		return err
	}
	set := reg.Header.CounterSetGUID.String()
	b.begin(KindV2, set, 0)
	b.Rows = 1
	var (
		in  engine.Input
		tmp []byte
	)
	emit := func(blockIndex, rowIndex int, id uint32, p *counterpath.Path) error {
		if c, ok := x.Lookup(id); ok && c.Type.IsBase() {
			return nil
		}
		in = engine.Input{}
		found, err := x.Fill(&in, blockIndex, rowIndex, id)
		if err != nil {
			return err
		}
		if !found {
			return nil // a counter the registration does not know: skipped
		}
		tmp = strs.AppendName(tmp[:0], id)
		p.Counter = string(tmp)
		r := engine.Compute(&in, opts)
		rec := Record{
			Value: r.Value, Status: r.Status, Type: in.Type, Raw: in.New,
			TimeBase: in.TimeBase, Time: dh.PerfTime100NSec, Scale: in.Scale, Aux: id, Column: uint32(blockIndex),
		}
		return b.record(&rec, nil, p, -1)
	}
	for p.Next() {
		blk := p.Block()
		b.Columns++
		if blk.Type == perflibv2.ErrorReturn {
			// No values; with the consumer's ids it still names a counter,
			// which Fill reports invalid.
			if blk.Index < len(ids) {
				p := counterpath.Path{Object: set}
				if err := emit(blk.Index, 0, ids[blk.Index], &p); err != nil {
					return err
				}
			}
			continue
		}
		rows := blk.Rows()
		for rows.Next() {
			row := rows.Row()
			p := counterpath.Path{Object: set, HasInstance: row.HasInstance}
			if row.HasInstance {
				p.Instance = row.Name.String()
			}
			vals := row.Values()
			for vals.Next() {
				val := vals.Value()
				var id uint32
				switch {
				case blk.HasCounterIDs():
					id, _ = blk.CounterID(val.Index)
				case blk.Index < len(ids):
					id = ids[blk.Index]
				default:
					return &Error{Code: CodeAbsent, Detail: uint32(blk.Index), Text: "perfcalc: decode_v2: block " +
						strconv.Itoa(blk.Index) + " does not name its counter (PERF_SINGLE_COUNTER or PERF_MULTIPLE_INSTANCES): give the counter ids"}
				}
				if err := emit(blk.Index, row.Index, id, &p); err != nil {
					return err
				}
			}
		}
	}
	return p.Err()
}

// Names decodes the name table ("Counter <lang>" or "Help <lang>",
// UTF-16LE REG_MULTI_SZ; decode_names): one record per distinct index, in
// increasing index order, whose path is the text and whose Aux and Value
// are the index. An empty table has no record.
func (b *Builder) Names(table []byte) error {
	t, err := nameTable(table)
	if err != nil {
		return err
	}
	b.begin(KindNames, "", 0)
	if t == nil {
		return nil
	}
	b.Columns, b.Rows = uint32(t.Len()), uint32(t.Pairs())
	var text []byte
	for i := 0; i < t.Len(); i++ {
		index, s := t.Pair(i)
		text = s.AppendUTF8(text[:0])
		rec := Record{Value: float64(index), Aux: index}
		if err := b.record(&rec, text, nil, -1); err != nil {
			return err
		}
	}
	return nil
}

// OpenLog opens the .blg log with the selection opts (decode_blg,
// relog_text, relog_stats), refusing an Every above MaxEvery.
func OpenLog(log []byte, opts relog.Options) (*relog.Converter, error) {
	if opts.Every < 0 || opts.Every > MaxEvery {
		return nil, ErrEvery
	}
	return relog.New(bytes.NewReader(log), int64(len(log)), opts)
}

// openLog opens the .blg log with the selection opts and begins a result
// of kind about its columns (shared: each column's path is written once
// per page): the header's columns, rows (the kept samples), time zone and
// bias.
func (b *Builder) openLog(log []byte, opts relog.Options, kind uint32, shared bool) (*relog.Converter, error) {
	c, err := OpenLog(log, opts)
	if err != nil {
		return nil, err
	}
	cols := c.Columns()
	zone, bias := c.TimeZone()
	keys := 0
	if shared {
		keys = len(cols)
	}
	b.begin(kind, zone, keys)
	rows, _, _ := c.Samples()
	b.Columns, b.Rows, b.Bias, b.Local = uint32(len(cols)), uint32(rows), bias, c.SkippedEvents()
	return c, nil
}

// Blg converts the .blg log as relog does (decode_blg; options 0: neither
// capped nor scaled): one record per column present in each kept sample,
// in row order and, within a row, in column order. The record's path is the
// column's (key: its index), Aux the sample's index in the log, Time its
// local FILETIME, Bias the zone's bias in force then (blg.Clock: the
// instants of the Parquet output). A log damaged after its start gives the
// records before the damage and Summary.Damage.
func (b *Builder) Blg(log []byte, opts relog.Options) error {
	c, err := b.openLog(log, opts, KindBlg, true)
	if err != nil {
		return err
	}
	cols := c.Columns()
	var path []byte
	clock := blg.NewClock(&c.Header().TimeZone)
	for c.Next() {
		row := c.Row()
		bias := clock.Bias(row.Time)
		for j := range row.Cells {
			cell := &row.Cells[j]
			if !cell.Present {
				continue
			}
			rec := Record{
				Value: cell.Result.Value, Status: cell.Result.Status, Type: cell.Counter.Type,
				Raw: cell.Raw, TimeBase: cell.Counter.TimeBase, Time: row.Time,
				Scale: cell.Counter.Scale, Aux: uint32(row.Index), Column: uint32(j), Bias: bias,
			}
			path = append(path[:0], cols[j].Path...)
			if err := b.record(&rec, path, &cols[j].Parts, j); err != nil {
				return err
			}
		}
	}
	b.Damage, b.Breaks = c.Err(), c.IdentityBreaks()
	return nil
}

// Stats computes the statistics of every column of the .blg log
// (relog_stats), as relog.Converter.Statistics and perfcalc stats do: one
// statistics record per column, in column order. A log damaged after its
// start gives the statistics of the rows before the damage and
// Summary.Damage.
func (b *Builder) Stats(log []byte, opts relog.Options) error {
	return b.stats(log, opts, false)
}

// StatsPercentiles is Stats with, after each statistics record, the
// column's percentiles record (relog_stats with StatsPercentiles), as
// relog.Converter.StatisticsPercentiles and perfcalc stats --percentiles
// compute them.
func (b *Builder) StatsPercentiles(log []byte, opts relog.Options) error {
	return b.stats(log, opts, true)
}

// stats is Stats, with the percentiles records when percentiles.
func (b *Builder) stats(log []byte, opts relog.Options, percentiles bool) error {
	c, err := b.openLog(log, opts, KindStats, false)
	if err != nil {
		return err
	}
	cols := c.Columns()
	var (
		st     []engine.Statistics
		pc     []relog.Percentiles
		damage error
	)
	if percentiles {
		st, pc, damage = c.StatisticsPercentiles()
	} else {
		st, damage = c.Statistics()
	}
	b.Breaks = c.IdentityBreaks()
	for i := range st {
		if err := b.count(); err != nil {
			return err
		}
		s := Statistic{Statistics: st[i], Type: cols[i].Type, Column: uint32(i)}
		b.W.Statistic(&s, []byte(cols[i].Path), &cols[i].Parts)
		if pc != nil {
			if err := b.count(); err != nil {
				return err
			}
			b.W.Percentiles(&pc[i], uint32(i), []byte(cols[i].Path), &cols[i].Parts)
		}
	}
	b.Damage = damage
	return nil
}

// LogColumns lists the columns of the .blg log with the selection opts
// (relog_columns), as relog -q does, from the first reading of the log
// alone (no value is computed): one record per column, in column order,
// with its path, type, index (Column) and counter-list entry (Aux), and the
// local time stamps of the first and the last kept samples (Raw's
// FirstValue and SecondValue). A log damaged after its start gives the
// columns of the samples before the damage and Summary.Damage.
func (b *Builder) LogColumns(log []byte, opts relog.Options) error {
	c, err := b.openLog(log, opts, KindColumns, false)
	if err != nil {
		return err
	}
	_, begin, end := c.Samples()
	cols := c.Columns()
	for i := range cols {
		rec := Record{Type: cols[i].Type, Column: uint32(i), Aux: uint32(cols[i].Entry), Raw: engine.RawCounter{FirstValue: uint64(begin), SecondValue: uint64(end)}}
		if err := b.record(&rec, []byte(cols[i].Path), &cols[i].Parts, -1); err != nil {
			return err
		}
	}
	b.Damage = c.ScanErr()
	return nil
}

// textDigits checks the format argument of relog_text and query_text (a
// format up to last, else bad; digits in bits 8 to 15) and returns its
// digits, engine.DefaultDigits for 0.
func textDigits(format, last uint32, bad error) (int, error) {
	if format&FormatMask > last {
		return 0, bad
	}
	digits := int(format >> DigitsShift)
	if digits > MaxDigits {
		return 0, ErrDigits
	}
	if digits == 0 {
		digits = engine.DefaultDigits
	}
	return digits, nil
}

// RelogText writes relog's text of the .blg log with the selection opts
// in format (Format…, with the digits in its bits 8 to 15; relog_text),
// or with FormatBin the selection as a .blg log (relog.WriteBin):
// digits other than 0 replace opts.Digits. It returns the damage of a log
// damaged after its start (the rows before it are written) apart from the
// errors that refuse the log, and the events that the log's first reading
// skipped (relog.Converter.SkippedEvents: a damaged event header may have
// taken a sample with it), and the identity breaks of IdentityPID mode
// (relog.Converter.IdentityBreaks).
func RelogText(w io.Writer, log []byte, opts relog.Options, format uint32) (skipped, breaks int64, damage, err error) {
	if opts.Every < 0 || opts.Every > MaxEvery {
		return 0, 0, nil, ErrEvery
	}
	digits, err := textDigits(format, FormatBin, ErrFormat)
	if err != nil {
		return 0, 0, nil, err
	}
	if opts.Digits < 0 || opts.Digits > MaxDigits {
		return 0, 0, nil, ErrDigits
	}
	if format>>DigitsShift > 0 || opts.Digits == 0 {
		opts.Digits = digits
	}
	f := relog.Format(format & FormatMask)
	if f == relog.Bin {
		opts.PartFrom, opts.PartTo = 0, 0 // the whole selection: a log is not written in parts
	}
	c, err := OpenLog(log, opts)
	if err != nil {
		return 0, 0, nil, err
	}
	// The breaks are counted as the samples are written: read them after.
	if f == relog.Bin {
		damage, err := writeBin(w, log, c, opts)
		return c.SkippedEvents(), c.IdentityBreaks(), damage, err
	}
	damage = c.Write(w, f)
	return c.SkippedEvents(), c.IdentityBreaks(), damage, nil
}

// writeBin writes the selection opts of the .blg log, opened as c, as a
// .blg log (relog.WriteBin): the damage of the log after the samples
// written (the output is then a whole log of them), or the error that
// stopped it.
func writeBin(w io.Writer, log []byte, c *relog.Converter, opts relog.Options) (damage, err error) {
	in := relog.BinSource{
		Inputs: []relog.Input{{R: bytes.NewReader(log), Size: int64(len(log))}},
		C:      c,
		Open:   func(o relog.Options) (*relog.Converter, error) { return OpenLog(log, o) },
	}
	damage, err = relog.WriteBin(w, in, opts, nil)
	if damage != nil {
		return damage, nil
	}
	return nil, err
}

// Query is what a query between two captures needs besides them: query.Config
// with its parts as the bytes they are parsed from.
type Query struct {
	// Names is the V1 "Counter <lang>" name table; empty names "#<index>".
	Names []byte
	// RegInfo, Strings and IDs are those of V2 captures (see V2): a
	// RegInfo means V2 captures.
	RegInfo, Strings []byte
	IDs              []uint32
	// CounterSet is the object name of V2 paths ("" uses the GUID).
	CounterSet string
	// Paths select counters (wildcards allowed); none selects every one.
	Paths   []counterpath.Path
	Options engine.Options
	// Identity is how instances are paired (query.Config.Identity).
	Identity identity.Mode
	// Breaks is set by the query: its identity breaks with identity.PID
	// (query.Query.IdentityBreaks).
	Breaks int
}

// run computes every selected counter between the captures older (nil: a
// first sample) and newer with package query.
func (q *Query) run(older, newer []byte) ([]query.Value, error) {
	cfg := query.Config{Options: q.Options, Paths: q.Paths, IDs: q.IDs, CounterSet: q.CounterSet, Identity: q.Identity}
	var err error
	if cfg.Names, err = nameTable(q.Names); err != nil {
		return nil, err
	}
	if len(q.RegInfo) > 0 {
		reg, err := perflibv2.ParseRegInfo(q.RegInfo)
		if err != nil {
			return nil, err
		}
		cfg.RegInfo = &reg
	}
	if len(q.Strings) > 0 {
		s, err := perflibv2.ParseStrings(q.Strings)
		if err != nil {
			return nil, err
		}
		cfg.Strings = &s
	}
	if len(older) == 0 {
		older = nil
	}
	qq := query.New(cfg)
	vals, err := qq.Run(nil, older, newer)
	q.Breaks = qq.IdentityBreaks()
	return vals, err
}

// Query computes every selected counter between the captures older (nil: a
// first sample) and newer with package query (query): one record per value
// with its path, value, status, type, scale and the newer capture's raw
// values (Time: their time stamp); Aux is the counter's DetailLevel, Column
// 1 when the instance was in the older capture. The header's Local is the
// newer capture's local time (its SystemTime; 0 when that is not a valid
// time) and Bias the zone's bias found between it and the capture's UTC
// time stamp (query.Stamp; 0 when there is none within 14 hours).
func (b *Builder) Query(older, newer []byte, q *Query) error {
	vals, err := q.run(older, newer)
	if err != nil {
		return err
	}
	st := query.CaptureStamp(newer)
	b.begin(KindQuery, "", 0)
	b.Rows, b.Bias, b.Local, b.Breaks = 1, st.Bias, st.Local, int64(q.Breaks)
	for i := range vals {
		v := &vals[i]
		rec := Record{Value: v.Value, Status: v.Status, Type: v.Type, Raw: v.Raw, Time: v.Raw.TimeStamp, Scale: v.Scale, Aux: v.DetailLevel}
		if v.HasOld {
			rec.Column = 1
		}
		if err := b.record(&rec, v.Path, &v.Parts, -1); err != nil {
			return err
		}
	}
	b.Columns = uint32(len(vals))
	return nil
}

// QueryText writes relog's text of every selected counter between the
// captures older and newer (query_text), what perfcalc values -f csv or
// -f tsv writes: format is FormatCSV or FormatTSV with the digits in its
// bits 8 to 15 (0: DefaultDigits).
func QueryText(w io.Writer, older, newer []byte, q *Query, format uint32) error {
	digits, err := textDigits(format, FormatTSV, ErrQueryFormat)
	if err != nil {
		return err
	}
	vals, err := q.run(older, newer)
	if err != nil {
		return err
	}
	return query.WriteCSV(w, vals, query.CaptureStamp(newer), format&FormatMask == FormatTSV, digits)
}

// ParsePatterns reads counter path patterns, UTF-8, one per line; ASCII
// white space around a pattern (a CR before the LF too) and empty lines are
// ignored. A pattern that does not parse is counterpath's error (about the
// pattern as read). Each run of more than two "*" is cut to two before the
// pattern is parsed: the pattern matches what it matched, and what
// counterpath.Compact makes of it (as the command does) is the same, but a
// pattern of 2,000 stars costs what one star costs. (A machine or an
// object, compared as written, would lose stars too: none has a run of
// three. counterpath.Compact itself, or a cut of the parsed parent,
// instance and counter alone, cost the module 1 to 2.4 KB more.)
func ParsePatterns(text []byte) ([]counterpath.Path, error) {
	var ps []counterpath.Path
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		line = trimASCIISpace(line)
		if len(line) == 0 {
			continue
		}
		// Each run of more than two "*" cut to two: a pattern that
		// counterpath.Match walks star by star matches the same names.
		var cut [2048]byte
		if len(line) <= len(cut) { // a longer pattern does not parse
			n, run := 0, 0
			for _, c := range line {
				run++
				if c != '*' {
					run = 0
				}
				if run <= 2 {
					cut[n] = c
					n++
				}
			}
			line = cut[:n]
		}
		p, err := counterpath.Parse(string(line))
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// AppendPatterns appends ps as ParsePatterns reads them: one per line.
func AppendPatterns(dst []byte, ps []counterpath.Path) []byte {
	for i := range ps {
		if i > 0 {
			dst = append(dst, '\n')
		}
		dst = ps[i].AppendTo(dst)
	}
	return dst
}

// trimASCIISpace returns b without leading and trailing ASCII white space.
// (bytes.TrimSpace also knows Unicode's, with tables the module can do
// without.)
func trimASCIISpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// Question values: analyze's NAME=VALUE lines (perfcalc analyze --set).

// ParseValues reads question variables' values, UTF-8, one NAME=VALUE per
// line (perfcalc analyze --set NAME=VALUE): ASCII white space around a
// line (a CR before the LF too) and empty lines are ignored; the name ends
// at the first '='. A line without '=' or with an empty name is an error;
// a later value of a name replaces an earlier one.
func ParseValues(text []byte) (map[string]string, error) {
	var m map[string]string
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		line = trimASCIISpace(line)
		if len(line) == 0 {
			continue
		}
		eq := bytes.IndexByte(line, '=')
		if eq <= 0 {
			return nil, &Error{Code: CodeArgument, Text: "perfcalc: analyze: " + quoteLine(line) + " is not NAME=VALUE"}
		}
		if m == nil {
			m = map[string]string{}
		}
		m[string(line[:eq])] = string(line[eq+1:])
	}
	return m, nil
}

// quoteLine returns line between quotes, cut to 64 bytes.
func quoteLine(line []byte) string {
	if len(line) > 64 {
		return `"` + string(line[:64]) + `…"`
	}
	return `"` + string(line) + `"`
}

// AppendValues appends values as ParseValues reads them, one NAME=VALUE
// per line, names in increasing order (a map's order is random). A name
// that is empty, holds '=' or begins with white space, a value that ends
// with white space, or a line break in either would not read back: it is
// an error.
func AppendValues(dst []byte, values map[string]string) ([]byte, error) {
	names := make([]string, 0, len(values))
	for k := range values {
		names = append(names, k)
	}
	SortNames(names)
	for i, k := range names {
		v := values[k]
		if k == "" || strings.IndexByte(k, '=') >= 0 || strings.IndexByte(k+v, '\n') >= 0 ||
			len(trimASCIISpace([]byte(k+"=x"))) != len(k)+2 || len(trimASCIISpace([]byte("x="+v))) != len(v)+2 {
			return dst, &Error{Code: CodeArgument, Text: "perfcalc: analyze: " + quoteLine([]byte(k+"="+v)) + " is not NAME=VALUE on one line"}
		}
		if i > 0 {
			dst = append(dst, '\n')
		}
		dst = append(append(append(dst, k...), '='), v...)
	}
	return dst, nil
}

// SortNames sorts a few names in place: an insertion sort (package slices'
// sort would be one more copy of pdqsort in the module).
func SortNames(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
