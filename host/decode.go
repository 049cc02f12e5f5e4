package host

import (
	"math"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// DecodeV1 decodes the V1 PERF_DATA_BLOCK data, naming objects and
// counters through the "Counter 009" name table names (nil: "#<index>"):
// one Record per counter of every instance of every object, base counters
// excepted, with its raw sample as perfdata's Object.Fill reads it and its
// value computed as a first sample with opts (2-sample types are NewData).
// Errors are an *Error (the text of perfdata's *engine.FormatError), a
// *FaultError or ErrClosed.
//
// # Notes
//
//   - An input larger than the module's 8 MiB input buffer gets a larger
//     buffer (in_reserve; up to 1 GiB, within Config.WithMemoryLimitPages),
//     which the instance keeps for its next calls. A result larger than its
//     4 MiB output buffer comes in pages, each resumed where the one before
//     ended (decode_next): the input is decoded once.
//   - Measured on two shared cores, a synthetic 1 MB blob of 107,520
//     records: about 0.57 s against 0.04 s with Native (14 times).
func (e *Engine) DecodeV1(data, names []byte, opts engine.Options) (*Decoded, error) {
	return e.decode(fnDecodeV1, [][]byte{data, names}, func(s []uint64, at []region, first uint32) {
		s[0], s[1], s[2], s[3], s[4], s[5] = at[0].off, at[0].len, at[1].off, at[1].len, uint64(opts&optionsMask), uint64(first)
	}, nil)
}

// DecodeV2 decodes the PerfLib V2 PerfQueryCounterData result data of the
// counterset cs: one Record per value, base counters excepted, with
// perflibv2.Fill's raw values and its value computed as a first sample.
func (e *Engine) DecodeV2(data []byte, cs V2Counterset, opts engine.Options) (*Decoded, error) {
	ids := abi.AppendU32s(nil, cs.IDs)
	return e.decode(fnDecodeV2, [][]byte{data, cs.RegInfo, cs.Strings, ids}, func(s []uint64, at []region, first uint32) {
		s[0], s[1], s[2], s[3], s[4], s[5] = at[0].off, at[0].len, at[1].off, at[1].len, at[2].off, at[2].len
		s[6], s[7], s[8], s[9] = at[3].off, at[3].len/4, uint64(opts&optionsMask), uint64(first)
	}, nil)
}

// DecodeNames decodes a name table ("Counter <lang>" or "Help <lang>",
// UTF-16LE REG_MULTI_SZ): one Record per distinct index, in increasing
// order, whose Path is the text and whose Aux and Value are the index.
func (e *Engine) DecodeNames(table []byte) (*Decoded, error) {
	return e.decode(fnDecodeNames, [][]byte{table}, func(s []uint64, at []region, first uint32) {
		s[0], s[1], s[2] = at[0].off, at[0].len, uint64(first)
	}, nil)
}

// DecodeBlg converts the .blg log as package relog does (options 0: values
// neither capped nor scaled), selecting columns and samples with sel: one
// Record per column present in each kept sample, row by row. A log damaged
// after its start gives the records before the damage and Decoded.Damage.
func (e *Engine) DecodeBlg(log []byte, sel relog.Options) (*Decoded, error) {
	return e.decodeLog(fnDecodeBlg, log, sel, 0)
}

// decodeLog calls decode_blg or relog_stats (f) on the log with the
// selection sel; flags are relog_stats' (0 for decode_blg).
func (e *Engine) decodeLog(f int, log []byte, sel relog.Options, flags uint32) (*Decoded, error) {
	pats, every, err := selection(sel)
	if err != nil {
		return nil, err
	}
	return e.decodePart(f, [][]byte{log, pats}, func(s []uint64, at []region, first uint32) {
		logArgs(s, at, sel, every, uint64(first|flags))
	}, nil, scopeOf(f, sel))
}

// scope is what an instance's log exports read besides their arguments:
// the part of the log (log_part) and, when log, the most columns
// (max_columns) and the pairing of instances (identity).
type scope struct {
	part       [2]int64
	maxColumns uint32
	identity   identity.Mode
	log        bool
}

// noScope is the scope of the calls that read no log: the whole log, and
// max_columns and identity left as they are.
var noScope = scope{}

// scopeOf returns the scope of the log export f with the selection sel:
// the part of the log (relog.Options.PartFrom, PartTo) for decode_blg and
// relog_text, none for the others (which read the whole log); sel's
// MaxColumns and Identity for every log export.
func scopeOf(f int, sel relog.Options) scope {
	s := scope{maxColumns: moduleMaxColumns(sel.MaxColumns), identity: identity.PDH, log: true}
	if sel.Identity == identity.PID {
		s.identity = identity.PID
	}
	if f == fnDecodeBlg || f == fnRelogText {
		s.part = [2]int64{sel.PartFrom, sel.PartTo}
	}
	return s
}

// moduleMaxColumns returns max_columns' argument for
// relog.Options.MaxColumns n as the host reads it: 0 the module's default
// (abi.DefaultMaxColumns, 1,000,000, as perfcalc's --max-columns), a
// negative n (or one beyond a u32) no limit (0).
func moduleMaxColumns(n int) uint32 {
	switch {
	case n == 0:
		return abi.DefaultMaxColumns
	case n < 0 || uint64(n) > math.MaxUint32:
		return 0
	}
	return uint32(n)
}

// nativeOptions returns sel with MaxColumns as relog reads it (0: no
// limit) for the host's reading of it (moduleMaxColumns): Native then
// refuses the logs the module refuses.
func nativeOptions(sel relog.Options) relog.Options {
	sel.MaxColumns = int(moduleMaxColumns(sel.MaxColumns))
	return sel
}

// setScope sets the instance's log part and, for a log export, its most
// columns and its pairing (setPart, setMaxColumns, setIdentity).
func (inst *instance) setScope(e *Engine, s scope) error {
	if s.log {
		if err := inst.setMaxColumns(e, s.maxColumns); err != nil {
			return err
		}
		if err := inst.setIdentity(e, s.identity); err != nil {
			return err
		}
	}
	return inst.setPart(e, s.part)
}

// setMaxColumns makes the instance's log exports refuse a log of more
// than n columns (max_columns; 0: no limit), when that is not the limit
// they have already: an *Error with CodeUnsupported for a module without
// max_columns (it keeps abi.DefaultMaxColumns).
func (inst *instance) setMaxColumns(e *Engine, n uint32) error {
	if n == inst.maxColumns {
		return nil
	}
	if inst.fn[fnMaxColumns] == nil {
		return &Error{Op: "max_columns", Code: CodeUnsupported, Text: "perfcalc host: this perfcalc.wasm lacks max_columns (it is older than this package): its limit of columns stays 1,000,000"}
	}
	clear(inst.stack[:])
	inst.stack[0] = uint64(n)
	if err := e.call(inst, fnMaxColumns); err != nil {
		return err
	}
	inst.maxColumns = n
	return nil
}

// setIdentity sets the instance's pairing of instances (the identity
// export), when not the one set already: an *Error with CodeUnsupported
// for a module without it, where identity.PID is asked.
func (inst *instance) setIdentity(e *Engine, id identity.Mode) error {
	if id == inst.identity {
		return nil
	}
	if inst.fn[fnIdentity] == nil {
		return &Error{Op: "identity", Code: CodeUnsupported, Text: "perfcalc host: this perfcalc.wasm lacks identity (it pairs instances by name only)"}
	}
	clear(inst.stack[:])
	inst.stack[0] = uint64(abi.IdentityNumber(id))
	if err := e.call(inst, fnIdentity); err != nil {
		return err
	}
	if rc := int32(uint32(inst.stack[0])); rc != 0 {
		return inst.guestError(e, "identity", rc)
	}
	inst.identity = id
	return nil
}

// setPart makes the instance's decode_blg and relog_text read part of a log
// (log_part), when it is not the part they read already: an *Error with
// CodeUnsupported for a module without log_part, or with CodeArgument for
// a part that no log in the module's memory can have.
func (inst *instance) setPart(e *Engine, part [2]int64) error {
	if part == inst.part {
		return nil
	}
	if part[0] < 0 || part[1] < 0 || part[0] > abi.MaxReserve || part[1] > abi.MaxReserve {
		return &Error{Op: "log_part", Code: CodeArgument, Text: "perfcalc host: a part's bounds lie outside 0 to 1 GiB"}
	}
	clear(inst.stack[:])
	inst.stack[0], inst.stack[1] = uint64(part[0]), uint64(part[1])
	if err := e.call(inst, fnLogPart); err != nil {
		return err
	}
	inst.part = part
	return nil
}

// logArgs sets the parameters of decode_blg, relog_stats and relog_text:
// the log and the patterns placed at at, the selection, and last (first, or
// relog_text's format).
func logArgs(s []uint64, at []region, sel relog.Options, every, last uint64) {
	s[0], s[1], s[2], s[3] = at[0].off, at[0].len, at[1].off, at[1].len
	s[4], s[5], s[6], s[7] = uint64(sel.Begin), uint64(sel.End), every, last
}

// Query computes every selected counter between the captures older (nil: a
// first sample) and newer, as query.New(cfg).Run(dst, older, newer) does with
// cfg's parts parsed, and appends the values to dst. Paths are owned by the
// values (not views).
func (e *Engine) Query(dst []query.Value, cfg *QueryConfig, older, newer []byte) ([]query.Value, error) {
	parts, fill := queryParts(cfg, older, newer)
	opts := uint64(cfg.Options & optionsMask)
	d, err := e.decode(fnQuery, parts, func(s []uint64, at []region, first uint32) {
		s[0], s[1], s[2] = at[len(at)-1].off, opts, uint64(first)
	}, fill)
	if err != nil {
		return dst, err
	}
	return appendValues(dst, d), nil
}

// queryParts returns the input of query and query_text: the regions, in
// the order of the descriptor's fields, then the descriptor, and the fill
// that writes the descriptor once they are placed.
func queryParts(cfg *QueryConfig, older, newer []byte) ([][]byte, func([]byte, []region)) {
	fields := [...]int{abi.QueryOlder, abi.QueryNewer, abi.QueryNames, abi.QueryRegInfo, abi.QueryStrings, abi.QueryIDs, abi.QuerySet, abi.QueryPaths}
	parts := [][]byte{older, newer, cfg.Names, cfg.RegInfo, cfg.Strings, abi.AppendU32s(nil, cfg.IDs), []byte(cfg.CounterSet),
		abi.AppendPatterns(nil, cfg.Paths), make([]byte, abi.QuerySize)}
	return parts, func(desc []byte, at []region) {
		for i, f := range fields {
			abi.PutRegion(desc, f, uint32(at[i].off), uint32(at[i].len))
		}
	}
}

// QueryText returns relog's CSV (tsv: TSV) of every selected counter
// between the captures older (nil: a first sample) and newer, with digits
// significant digits (0: engine.DefaultDigits, 20; 17 as Windows before
// 2020): what perfcalc values -f csv writes (query.WriteCSV). A module
// without the export (older than this package) gives an *Error with
// CodeUnsupported. A text longer than the module's output buffer comes in
// pages, as RelogText's does.
func (e *Engine) QueryText(cfg *QueryConfig, older, newer []byte, tsv bool, digits int) ([]byte, error) {
	f, err := queryTextFormat(tsv, digits)
	if err != nil {
		return nil, err
	}
	opts := uint64(cfg.Options & optionsMask)
	parts, fill := queryParts(cfg, older, newer)
	text, err := e.text(fnQueryText, parts, fill, func(s []uint64, at []region) {
		s[0], s[1], s[2] = at[len(at)-1].off, opts, f
	})
	if err != nil {
		return nil, err
	}
	return text, nil
}

// queryTextFormat returns query_text's format argument: CSV or TSV with
// digits, which are 0 to abi.MaxDigits.
func queryTextFormat(tsv bool, digits int) (uint64, error) {
	if digits < 0 || digits > abi.MaxDigits {
		return 0, &Error{Op: "query_text", Code: CodeArgument, Text: abi.ErrDigits.Error()}
	}
	f := uint64(abi.FormatCSV) | uint64(digits)<<abi.DigitsShift
	if tsv {
		f |= abi.FormatTSV
	}
	return f, nil
}

// RelogStats computes the statistics of every column of the .blg log, with
// the selection sel, as relog.Converter.Statistics and perfcalc stats do:
// Decoded.Statistics holds one per column, in column order (Records is
// empty). A log damaged after its start gives the statistics of the rows
// before the damage and Decoded.Damage. A module without the export (older
// than this package) gives an *Error with CodeUnsupported.
func (e *Engine) RelogStats(log []byte, sel relog.Options) (*Decoded, error) {
	return e.decodeLog(fnRelogStats, log, sel, 0)
}

// RelogStatsPercentiles is RelogStats with each Statistic's Percentiles
// (relog_stats with abi.StatsPercentiles), as
// relog.Converter.StatisticsPercentiles and perfcalc stats --percentiles
// compute them: the 90th, 95th and 99th percentiles of the column's Valid
// values (nearest rank; 0 when Count is 0). Every Valid value is kept
// until the end, 8 bytes each, in the module's memory. A module that
// ignores the flag (older than it) gives an *Error with CodeUnsupported.
func (e *Engine) RelogStatsPercentiles(log []byte, sel relog.Options) (*Decoded, error) {
	d, err := e.decodeLog(fnRelogStats, log, sel, abi.StatsPercentiles)
	if err != nil {
		return nil, err
	}
	for i := range d.Statistics {
		if d.Statistics[i].Percentiles == nil {
			return nil, &Error{Op: "relog_stats", Code: CodeUnsupported, Text: "perfcalc host: this perfcalc.wasm computes no percentiles (it is older than this package)"}
		}
	}
	return d, nil
}

// RelogText returns relog's text of the .blg log in format (relog.CSV, TSV or
// JSON), as relog.Converter.Write writes it, with the selection sel and
// sel.Digits (0: engine.DefaultDigits, 20; 17 as Windows before 2020). A
// log damaged after its start gives the text of the rows before the damage
// and an *Error (Code 0) with the damage's text, as Write does.
//
// # Notes
//
//   - A text longer than the module's output buffer (4 MiB) comes in
//     pages, each resumed where the one before it ended (decode_next):
//     the log is converted once, whatever the text's length.
//   - Digits other than the default need a module that reads them (bits
//     8 to 15 of relog_text's format, ABI.md); an older module refuses
//     them with CodeArgument.
func (e *Engine) RelogText(log []byte, sel relog.Options, format relog.Format) ([]byte, error) {
	pats, every, err := selection(sel)
	if err != nil {
		return nil, err
	}
	if sel.Digits < 0 || sel.Digits > abi.MaxDigits {
		return nil, &Error{Op: "relog_text", Code: CodeArgument, Text: abi.ErrDigits.Error()}
	}
	f := uint64(format) | uint64(sel.Digits)<<abi.DigitsShift
	return e.textPart(fnRelogText, [][]byte{log, pats}, nil, func(s []uint64, at []region) {
		logArgs(s, at, sel, every, f)
	}, scopeOf(fnRelogText, sel))
}

// letGo ends the module's continuation (decode_next(0)) of a paged call
// that failed with a cursor open (*err and *cursor set); a trap has
// discarded the instance already.
func (e *Engine) letGo(inst *instance, cursor *uint32, err *error) {
	if *err != nil && *cursor != 0 && inst.fn[fnDecodeNext] != nil {
		clear(inst.stack[:])
		_ = e.call(inst, fnDecodeNext)
	}
}

// text places parts and calls the text export f (relog_text, query_text),
// whose parameters args sets, then decode_next for every further page, and
// returns the text. A text longer than the output buffer comes in pages
// (CodeSpace, a full buffer, the cursor in last_detail), each resumed where
// the one before it ended: the module produces the text once, in any
// buffer, and no size is guessed. After a text, an error text the export
// left (a log damaged after the rows written) is an *Error (Code 0)
// returned with the text.
func (e *Engine) text(f int, parts [][]byte, fill func([]byte, []region), args func(s []uint64, at []region)) (text []byte, err error) {
	return e.textPart(f, parts, fill, args, noScope)
}

// textPart is text, the instance's log_part and max_columns set to sc
// first.
func (e *Engine) textPart(f int, parts [][]byte, fill func([]byte, []region), args func(s []uint64, at []region), sc scope) (text []byte, err error) {
	op := exports[f]
	inst, err := e.get()
	if err != nil {
		return nil, err
	}
	defer e.put(inst)
	if err := inst.setScope(e, sc); err != nil {
		return nil, err
	}
	at, err := inst.place(e, parts, fill)
	if err != nil {
		return nil, err
	}
	clear(inst.stack[:])
	args(inst.stack[:], at)
	cursor := uint32(0)
	defer e.letGo(inst, &cursor, &err)
	for {
		if err := e.call(inst, f); err != nil {
			return nil, err
		}
		rc := int32(uint32(inst.stack[0]))
		n := uint32(rc)
		if Code(rc) == CodeSpace {
			// A page: the whole output buffer, and the cursor.
			if cursor = inst.lastDetail(e); cursor == 0 {
				return nil, inst.violation(op, "a page of text without a cursor")
			}
			n = inst.outCap
		} else if rc < 0 {
			err := inst.guestError(e, op, rc)
			if f == fnAnalyze {
				err = inst.missingFile(err)
			}
			return nil, err
		}
		if n > inst.outCap {
			return nil, inst.violation(op, "the text is longer than the output buffer")
		}
		b, ok := inst.mem.Read(inst.out, n)
		if !ok {
			return nil, inst.violation(op, "the output buffer lies outside memory")
		}
		text = append(text, b...)
		if Code(rc) != CodeSpace {
			cursor = 0 // the last page: the continuation has ended
			break
		}
		clear(inst.stack[:])
		inst.stack[0] = uint64(cursor)
		f = fnDecodeNext
	}
	if msg := inst.errorText(e); msg != "" {
		return text, &Error{Op: op, Text: msg}
	}
	return text, nil
}

// reserve calls in_reserve or out_reserve (f) for n bytes and reads the
// buffer's new place. Under a memory limit (Config.WithMemoryLimitPages) a
// buffer the limit cannot hold is refused here, before the module would trap
// allocating it.
func (inst *instance) reserve(e *Engine, f int, n uint32) error {
	op := exports[f]
	if lim := uint64(e.cfg.memoryPages) * 65536; lim > 0 && uint64(inst.mem.Size())+uint64(n) > lim {
		return &Error{Op: op, Code: CodeLimit, Detail: n, Text: "perfcalc host: " + op + ": " + strconv.FormatUint(uint64(n), 10) +
			" bytes do not fit the memory limit of " + strconv.FormatUint(lim, 10) + " bytes"}
	}
	inst.stack[0] = uint64(n)
	if err := e.call(inst, f); err != nil {
		return err
	}
	ptr := uint32(inst.stack[0])
	if ptr == 0 {
		return &Error{Op: op, Code: CodeLimit, Detail: n, Text: inst.errorText(e)}
	}
	capFn := fnInCap
	if f == fnOutReserve {
		capFn = fnOutCap
	}
	if err := e.call(inst, capFn); err != nil {
		return err
	}
	size := uint32(inst.stack[0])
	if size < n || uint64(ptr)+uint64(size) > uint64(inst.mem.Size()) {
		return inst.violation(op, "the reserved buffer is smaller than asked or lies outside memory")
	}
	if f == fnInReserve {
		inst.in, inst.inCap = ptr, size
	} else {
		inst.out, inst.outCap = ptr, size
	}
	return nil
}

// selection turns relog.Options into the patterns and every of the ABI
// (sel.Identity goes to the identity export: scopeOf).
func selection(sel relog.Options) ([]byte, uint64, error) {
	if sel.Every < 0 || sel.Every > abi.MaxEvery {
		return nil, 0, &Error{Op: "relog", Code: CodeArgument, Text: abi.ErrEvery.Error()}
	}
	if !identity.Valid(sel.Identity) {
		return nil, 0, &Error{Op: "relog", Code: CodeArgument, Text: "perfcalc host: unknown Identity " + sel.Identity.String()}
	}
	return abi.AppendPatterns(nil, sel.Counters), uint64(sel.Every), nil
}

// region is a part's place in the input buffer (offset, length), as the
// uint64 parameters of an export.
type region struct{ off, len uint64 }

// place copies parts into the input buffer, 8-aligned, and returns where.
// Empty parts are absent (0, 0). The last part may be filled by fill after
// the others are placed (the query descriptor).
func (inst *instance) place(e *Engine, parts [][]byte, fill func(last []byte, at []region)) ([]region, error) {
	at := make([]region, len(parts))
	total := uint64(0)
	for i, p := range parts {
		if len(p) == 0 {
			continue
		}
		at[i] = region{total, uint64(len(p))}
		total = (total + uint64(len(p)) + 7) &^ 7
	}
	if total > uint64(inst.inCap) {
		if total > abi.MaxReserve {
			return nil, &Error{Op: "input", Code: CodeLimit, Text: "perfcalc host: the input (" + strconv.FormatUint(total, 10) +
				" bytes) is larger than the module's largest input buffer (" + strconv.FormatUint(abi.MaxReserve, 10) + " bytes)"}
		}
		if err := inst.reserve(e, fnInReserve, uint32(total)); err != nil {
			return nil, err
		}
	}
	buf, ok := inst.mem.Read(inst.in, inst.inCap)
	if !ok {
		return nil, inst.violation("input", "the input buffer lies outside memory")
	}
	for i, p := range parts {
		copy(buf[at[i].off:], p)
	}
	if fill != nil {
		last := at[len(at)-1]
		fill(buf[last.off:last.off+last.len], at)
	}
	return at, nil
}

// decode places parts, calls the export f (args sets its parameters; first
// is the reserved 0), then decode_next for every further page, and collects
// the records. A page resumes where the one before it ended: the module
// decodes the input once, whatever the pages. When the output buffer cannot
// hold the next record (a page without records), it is made to hold it.
func (e *Engine) decode(f int, parts [][]byte, args func(s []uint64, at []region, first uint32), fill func([]byte, []region)) (d *Decoded, err error) {
	return e.decodePart(f, parts, args, fill, noScope)
}

// decodePart is decode, the instance's log_part (and max_columns) set to
// sc first.
func (e *Engine) decodePart(f int, parts [][]byte, args func(s []uint64, at []region, first uint32), fill func([]byte, []region), sc scope) (d *Decoded, err error) {
	inst, err := e.get()
	if err != nil {
		return nil, err
	}
	defer e.put(inst)
	if err := inst.setScope(e, sc); err != nil {
		return nil, err
	}
	at, err := inst.place(e, parts, fill)
	if err != nil {
		return nil, err
	}
	op := exports[f]
	var rd reader
	clear(inst.stack[:])
	args(inst.stack[:], at, 0)
	cursor := uint32(0)
	defer e.letGo(inst, &cursor, &err)
	for {
		if err := e.call(inst, f); err != nil {
			return nil, err
		}
		rc := int32(uint32(inst.stack[0]))
		if rc < 0 && Code(rc) != CodeSpace {
			return nil, inst.guestError(e, op, rc)
		}
		// The decode may have grown memory: read the output anew.
		out, ok := inst.mem.Read(inst.out, inst.outCap)
		if !ok {
			return nil, inst.violation(op, "the output buffer lies outside memory")
		}
		h, bad := rd.page(out)
		if bad != "" {
			return nil, inst.violation(op, bad)
		}
		if h.Flags&abi.FlagMore == 0 {
			if h.Flags&abi.FlagDamaged != 0 {
				rd.d.Damage = &Error{Op: op, Text: inst.errorText(e)}
			}
			if inst.identity != identity.PDH && inst.fn[fnIdentityBreaks] != nil {
				clear(inst.stack[:])
				if err := e.call(inst, fnIdentityBreaks); err != nil {
					return nil, err
				}
				rd.d.Breaks = int64(inst.stack[0])
			}
			return &rd.d, nil
		}
		if Code(rc) != CodeSpace || h.Cursor == 0 {
			return nil, inst.violation(op, "more records announced without CodeSpace and a cursor")
		}
		cursor = h.Cursor
		if h.Count == 0 {
			// The output buffer cannot hold the next record.
			if h.Needed <= inst.outCap || h.Needed > abi.MaxReserve {
				return nil, &Error{Op: op, Code: CodeSpace, Detail: h.Needed,
					Text: "perfcalc host: " + op + ": a record does not fit the module's output buffer"}
			}
			if err := inst.reserve(e, fnOutReserve, h.Needed); err != nil {
				return nil, err
			}
		}
		clear(inst.stack[:])
		inst.stack[0] = uint64(cursor)
		f = fnDecodeNext
	}
}
