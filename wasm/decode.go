package main

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// out is the writer of the decode exports (one at a time: the module is
// single-threaded).
var out writer

// decodeV1 decodes the V1 PERF_DATA_BLOCK at inOff (n bytes) of the input
// buffer: one record per counter of every instance of every object, base
// counters excepted (they are the SecondValue or MultiCount of the counter
// before them), with its raw values as perfdata's Object.Fill pairs them and
// its value as a first sample (engine.Compute without an older sample, with
// options: 1-sample types are Valid, 2-sample types NewData). Objects and
// counters are named through the name table at namesOff (namesLen bytes, a
// "Counter 009" REG_MULTI_SZ; 0 bytes names them "#<index>"). Records from
// the one numbered first are written to the output buffer; see ABI.md.
//
//go:wasmexport decode_v1
func decodeV1(inOff, n, namesOff, namesLen, options, first uint32) (rc int32) {
	defer recovered(&rc)
	clearError()
	if options&^OptionsMask != 0 {
		setError("perfcalc: decode_v1: reserved bits set in options")
		return ErrArgument
	}
	data, ok := region(inBuf[:], inOff, n)
	if !ok {
		return boundsError("decode_v1 input", inOff, n, len(inBuf))
	}
	names, code := nameTable(namesOff, namesLen)
	if code != 0 {
		return code
	}
	blk, err := perfdata.Parse(data)
	if err != nil {
		return fail(errorCode(err), err)
	}
	w := &out
	w.start(outBuf[:], KindV1, first, 0)
	machine := blk.SystemName()
	w.setInfo(machine)
	w.rows = 1
	var (
		nm   perfdata.Namer
		path []byte
		tmp  []byte
		in   engine.Input
	)
	objs := blk.Objects()
	for {
		obj, err := objs.Next()
		if err == perfdata.ErrDone {
			break
		}
		if err != nil {
			return fail(errorCode(err), err)
		}
		w.columns++
		tmp = appendTitle(tmp[:0], names, obj.ObjectNameTitleIndex)
		objName := string(tmp)
		instNames, err := nm.Names(&blk, &obj)
		if err != nil {
			return fail(errorCode(err), err)
		}
		insts := obj.Instances()
		for i := 0; ; i++ {
			inst, err := insts.Next()
			if err == perfdata.ErrDone {
				break
			}
			if err != nil {
				return fail(errorCode(err), err)
			}
			p := counterpath.Path{Machine: strings.TrimPrefix(machine, `\\`), Object: objName, HasInstance: inst.Defined}
			if inst.Defined && i < len(instNames) {
				p.Parent, p.Instance, p.Index = instNames[i].Parent, instNames[i].Name, instNames[i].Occurrence
			}
			defs := obj.Counters()
			for {
				def, err := defs.Next()
				if err == perfdata.ErrDone {
					break
				}
				if err != nil {
					return fail(errorCode(err), err)
				}
				if def.CounterType.IsBase() {
					continue
				}
				in = engine.Input{}
				if err := obj.Fill(&in, &def, inst.CounterBlock); err != nil {
					return fail(errorCode(err), err)
				}
				tmp = appendTitle(tmp[:0], names, def.CounterNameTitleIndex)
				p.Counter = string(tmp)
				path = p.AppendTo(path[:0])
				r := engine.Compute(&in, engine.Options(options))
				rec := record{
					Value: r.Value, Status: r.Status, Type: in.Type, Raw: in.New,
					TimeBase: in.TimeBase, Time: in.New.TimeStamp, Scale: in.Scale,
					Aux: def.CounterNameTitleIndex, Column: uint32(obj.Index),
				}
				if err := w.add(&rec, path, -1); err != nil {
					return fail(ErrLimit, err)
				}
			}
		}
	}
	return w.finish()
}

// nameTable parses the optional name table of decode_v1.
func nameTable(off, n uint32) (*nametable.Table, int32) {
	if n == 0 {
		return nil, 0
	}
	b, ok := region(inBuf[:], off, n)
	if !ok {
		return nil, boundsError("name table", off, n, len(inBuf))
	}
	t, err := nametable.Parse(b)
	if err != nil {
		return nil, fail(errorCode(err), err)
	}
	return t, 0
}

// appendTitle appends the name of a title index, or "#<index>" when the
// table lacks it.
func appendTitle(dst []byte, t *nametable.Table, index uint32) []byte {
	if t != nil {
		if text, ok := t.Lookup(index); ok {
			return text.AppendUTF8(dst)
		}
	}
	return strconv.AppendUint(append(dst, '#'), uint64(index), 10)
}

// decodeV2 decodes a PerfLib V2 PerfQueryCounterData result at dataOff
// (dataLen bytes) with the counterset's registration at regOff (regLen bytes,
// PERF_COUNTERSET_REG_INFO and its PERF_COUNTER_REG_INFO array), optionally
// its counter name strings at strOff (strLen bytes, a
// PERF_STRING_BUFFER_HEADER block; 0 names counters "#<id>") and optionally
// idsCount u32 counter ids at idsOff: the CounterId of each block position,
// which PERF_SINGLE_COUNTER and PERF_MULTIPLE_INSTANCES blocks need (see
// perflibv2.Selector.IDs). One record per value, base counters excepted,
// with perflibv2.Fill's raw values and its value as a first sample.
//
//go:wasmexport decode_v2
func decodeV2(dataOff, dataLen, regOff, regLen, strOff, strLen, idsOff, idsCount, options, first uint32) (rc int32) {
	defer recovered(&rc)
	clearError()
	if options&^OptionsMask != 0 {
		setError("perfcalc: decode_v2: reserved bits set in options")
		return ErrArgument
	}
	data, ok := region(inBuf[:], dataOff, dataLen)
	if !ok {
		return boundsError("decode_v2 data", dataOff, dataLen, len(inBuf))
	}
	regBytes, ok := region(inBuf[:], regOff, regLen)
	if !ok {
		return boundsError("decode_v2 registration", regOff, regLen, len(inBuf))
	}
	strBytes, ok := region(inBuf[:], strOff, strLen)
	if !ok {
		return boundsError("decode_v2 strings", strOff, strLen, len(inBuf))
	}
	ids, code := counterIDs(idsOff, idsCount)
	if code != 0 {
		return code
	}
	reg, err := perflibv2.ParseRegInfo(regBytes)
	if err != nil {
		return fail(errorCode(err), err)
	}
	var strs *perflibv2.StringBuffer
	if strLen > 0 {
		s, err := perflibv2.ParseStrings(strBytes)
		if err != nil {
			return fail(errorCode(err), err)
		}
		strs = &s
	}

	// The index pairs each value in O(log n); a malformed block is reported
	// by the walk below, after the values before it, as before.
	var x perflibv2.Index
	_ = x.Reset(data, &reg, ids)
	var p perflibv2.Parser
	dh, err := p.Start(data)
	if err != nil {
		return fail(errorCode(err), err)
	}
	set := reg.Header.CounterSetGUID.String()
	w := &out
	w.start(outBuf[:], KindV2, first, 0)
	w.setInfo(set)
	w.rows = 1
	var (
		blk  perflibv2.Block
		row  perflibv2.Row
		val  perflibv2.Value
		in   engine.Input
		path []byte
		tmp  []byte
	)
	emit := func(blockIndex, rowIndex int, id uint32, p *counterpath.Path) int32 {
		if c, ok := x.Lookup(id); ok && c.Type.IsBase() {
			return 0
		}
		in = engine.Input{}
		found, err := x.Fill(&in, blockIndex, rowIndex, id)
		if err != nil {
			return fail(errorCode(err), err)
		}
		if !found {
			return 0 // a counter the registration does not know: skipped (ABI.md)
		}
		tmp = tmp[:0]
		if strs != nil {
			if t, ok := strs.Lookup(id); ok {
				tmp = t.AppendUTF8(tmp)
			}
		}
		if len(tmp) == 0 {
			tmp = strconv.AppendUint(append(tmp, '#'), uint64(id), 10)
		}
		p.Counter = string(tmp)
		path = p.AppendTo(path[:0])
		r := engine.Compute(&in, engine.Options(options))
		rec := record{
			Value: r.Value, Status: r.Status, Type: in.Type, Raw: in.New,
			TimeBase: in.TimeBase, Time: dh.PerfTime100NSec, Scale: in.Scale, Aux: id, Column: uint32(blockIndex),
		}
		if err := w.add(&rec, path, -1); err != nil {
			return fail(ErrLimit, err)
		}
		return 0
	}
	for {
		ok, err := p.Next(&blk)
		if err != nil {
			return fail(errorCode(err), err)
		}
		if !ok {
			break
		}
		w.columns++
		if blk.Type == perflibv2.ErrorReturn {
			// No values; with the consumer's ids it still names a counter,
			// which Fill reports invalid.
			if blk.Index < len(ids) {
				p := counterpath.Path{Object: set}
				if code := emit(blk.Index, 0, ids[blk.Index], &p); code != 0 {
					return code
				}
			}
			continue
		}
		rows := blk.Rows()
		for rows.Next(&row) {
			p := counterpath.Path{Object: set, HasInstance: row.HasInstance}
			if row.HasInstance {
				p.Instance = row.Name.String()
			}
			vals := row.Values()
			for vals.Next(&val) {
				var id uint32
				switch {
				case blk.HasCounterIDs():
					id, _ = blk.CounterID(val.Index)
				case blk.Index < len(ids):
					id = ids[blk.Index]
				default:
					b := errBuf[:0]
					b = append(b, "perfcalc: decode_v2: block "...)
					b = strconv.AppendInt(b, int64(blk.Index), 10)
					b = append(b, " does not name its counter (PERF_SINGLE_COUNTER or PERF_MULTIPLE_INSTANCES): give the counter ids"...)
					errLen = uint32(len(b))
					lastDetail = uint32(blk.Index)
					return ErrAbsent
				}
				if code := emit(blk.Index, row.Index, id, &p); code != 0 {
					return code
				}
			}
		}
	}
	return w.finish()
}

// decodeNames decodes the name table at inOff (n bytes; a "Counter <lang>"
// or "Help <lang>" REG_MULTI_SZ, UTF-16LE): one record per distinct index,
// in increasing index order, whose path is the text (UTF-8) and whose aux
// field and value are the index.
//
//go:wasmexport decode_names
func decodeNames(inOff, n, first uint32) (rc int32) {
	defer recovered(&rc)
	clearError()
	t, code := nameTable(inOff, n)
	if code != 0 {
		return code
	}
	w := &out
	w.start(outBuf[:], KindNames, first, 0)
	if t == nil {
		return w.finish()
	}
	w.columns, w.rows = uint32(t.Len()), uint32(t.Pairs())
	var text []byte
	for i := 0; i < t.Len(); i++ {
		index, s := t.Pair(i)
		text = s.AppendUTF8(text[:0])
		rec := record{Value: float64(index), Aux: index}
		if err := w.add(&rec, text, -1); err != nil {
			return fail(ErrLimit, err)
		}
	}
	return w.finish()
}

// counterIDs reads count u32 counter ids at off of the input buffer.
func counterIDs(off, count uint32) ([]uint32, int32) {
	if int(count) > len(inBuf)/4 {
		return nil, boundsError("counter ids", off, count, len(inBuf))
	}
	b, ok := region(inBuf[:], off, count*4)
	if !ok {
		return nil, boundsError("counter ids", off, count*4, len(inBuf))
	}
	if count == 0 {
		return nil, 0
	}
	ids := make([]uint32, count)
	for i := range ids {
		ids[i] = get32(b, 4*i)
	}
	return ids, 0
}

// patterns reads counter path patterns, UTF-8, one per line; white space
// (ASCII, so a CR before the LF too) around a pattern and empty lines are
// ignored.
func patterns(off, n uint32) ([]counterpath.Path, int32) {
	pats, ok := region(inBuf[:], off, n)
	if !ok {
		return nil, boundsError("counter patterns", off, n, len(inBuf))
	}
	var ps []counterpath.Path
	for len(pats) > 0 {
		line := pats
		if i := bytes.IndexByte(pats, '\n'); i >= 0 {
			line, pats = pats[:i], pats[i+1:]
		} else {
			pats = nil
		}
		line = trimASCIISpace(line)
		if len(line) == 0 {
			continue
		}
		p, err := counterpath.Parse(string(line))
		if err != nil {
			return nil, fail(ErrInput, err)
		}
		ps = append(ps, p)
	}
	return ps, 0
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

// relogOptions reads the options of decode_blg and relog_text: counter path
// patterns (UTF-8, one per line) at patOff (patLen bytes), the local time
// range [begin, end] (FILETIMEs, 0 = open) and every.
func relogOptions(patOff, patLen uint32, begin, end int64, every uint32) (relog.Options, int32) {
	opts := relog.Options{Begin: begin, End: end, Every: int(every)}
	if every > 1<<30 {
		setError("perfcalc: every is above 2^30")
		return opts, ErrArgument
	}
	var code int32
	opts.Counters, code = patterns(patOff, patLen)
	return opts, code
}

// decodeBlg converts the .blg log at inOff (n bytes) as relog does (package
// relog, options 0: neither capped nor scaled): one record per column
// present in each kept sample, in row order and, within a row, in column
// order. The record's path is the column's (written once per page), aux is
// the sample's index in the log, time its local FILETIME. Patterns, begin,
// end and every select columns and rows as relog's -c, -b, -e and -t do.
// A log damaged after its start gives the records before the damage,
// FlagDamaged and the damage's text (err_ptr, err_len).
//
//go:wasmexport decode_blg
func decodeBlg(inOff, n, patOff, patLen uint32, begin, end int64, every, first uint32) (rc int32) {
	defer recovered(&rc)
	clearError()
	c, code := openLog(inOff, n, patOff, patLen, begin, end, every)
	if code != 0 {
		return code
	}
	cols := c.Columns()
	w := &out
	w.start(outBuf[:], KindBlg, first, len(cols))
	name, bias := c.TimeZone()
	w.setInfo(name)
	w.bias = bias
	rows, _, _ := c.Samples()
	w.columns, w.rows = uint32(len(cols)), uint32(rows)
	var path []byte
	for c.Next() {
		row := c.Row()
		for j := range row.Cells {
			cell := &row.Cells[j]
			if !cell.Present {
				continue
			}
			rec := record{
				Value: cell.Result.Value, Status: cell.Result.Status, Type: cell.Counter.Type,
				Raw: cell.Raw, TimeBase: cell.Counter.TimeBase, Time: row.Time,
				Scale: cell.Counter.Scale, Aux: uint32(row.Index), Column: uint32(j),
			}
			path = append(path[:0], cols[j].Path...)
			if err := w.add(&rec, path, j); err != nil {
				return fail(ErrLimit, err)
			}
		}
	}
	if err := c.Err(); err != nil {
		setError(err.Error())
		w.flags |= FlagDamaged
	}
	return w.finish()
}

// openLog opens the .blg log of decode_blg and relog_text.
func openLog(inOff, n, patOff, patLen uint32, begin, end int64, every uint32) (*relog.Converter, int32) {
	data, ok := region(inBuf[:], inOff, n)
	if !ok {
		return nil, boundsError("log", inOff, n, len(inBuf))
	}
	opts, code := relogOptions(patOff, patLen, begin, end, every)
	if code != 0 {
		return nil, code
	}
	c, err := relog.New(bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		return nil, fail(errorCode(err), err)
	}
	return c, 0
}

// textWriter writes into the output buffer what fits, and counts the rest.
type textWriter struct {
	buf   []byte
	n     int // bytes written
	total int // bytes offered
}

func (t *textWriter) Write(p []byte) (int, error) {
	t.n += copy(t.buf[t.n:], p)
	t.total += len(p)
	return len(p), nil
}

// relogText writes relog's text for the .blg log at inOff (n bytes) into the
// output buffer: format 0 is CSV, 1 TSV, 2 JSON lines (relog.Format), with
// the selection of decode_blg. It returns the bytes written, or ErrSpace
// when the text is longer than the buffer (last_detail is its length).
// After a non-negative result, err_len > 0 means the log is damaged after
// the rows written, and err_ptr holds why.
//
//go:wasmexport relog_text
func relogText(inOff, n, patOff, patLen uint32, begin, end int64, every, format uint32) (rc int32) {
	defer recovered(&rc)
	clearError()
	if format > uint32(relog.JSON) {
		setError("perfcalc: relog_text: format is 0 (CSV), 1 (TSV) or 2 (JSON)")
		return ErrArgument
	}
	c, code := openLog(inOff, n, patOff, patLen, begin, end, every)
	if code != 0 {
		return code
	}
	tw := textWriter{buf: outBuf[:]}
	err := c.Write(&tw, relog.Format(format))
	if tw.total > len(tw.buf) {
		lastDetail = uint32(min(tw.total, 1<<32-1))
		setError("perfcalc: relog_text: the text does not fit the output buffer")
		return ErrSpace
	}
	if err != nil {
		setError(err.Error())
	}
	return int32(tw.n)
}

// Query descriptor: eight (offset u32, length u32) pairs in the input buffer,
// each naming a region of the input buffer (length 0: absent).
const (
	QueryDescSize = 64

	qdOlder   = 0  // the older capture (optional)
	qdNewer   = 8  // the newer capture
	qdNames   = 16 // the "Counter 009" name table of V1 captures (optional)
	qdRegInfo = 24 // the V2 counterset registration (present: V2 captures)
	qdStrings = 32 // the V2 counter name strings (optional)
	qdIDs     = 40 // the V2 block counter ids, u32 each (optional; length in bytes)
	qdSet     = 48 // the V2 object name of paths, UTF-8 (optional)
	qdPaths   = 56 // counter path patterns, UTF-8, one per line (optional)
)

// runQuery computes every selected counter between two captures with package
// query: two V1 PERF_DATA_BLOCKs, or two PerfLib V2 PerfQueryCounterData
// results with the counterset's registration. Its inputs are named by the
// QueryDescSize-byte descriptor at descOff of the input buffer (see the qd*
// constants and ABI.md). Without an older capture, 2-sample types answer
// NewData. Records carry the path, value, status, type and scale; aux is the
// counter's DetailLevel and column is 1 when the instance was found in the
// older capture, 0 otherwise. Raw values are not reported.
//
//go:wasmexport query
func runQuery(descOff, options, first uint32) (rc int32) {
	defer recovered(&rc)
	clearError()
	if options&^OptionsMask != 0 {
		setError("perfcalc: query: reserved bits set in options")
		return ErrArgument
	}
	desc, ok := region(inBuf[:], descOff, QueryDescSize)
	if !ok {
		return boundsError("query descriptor", descOff, QueryDescSize, len(inBuf))
	}
	part := func(at int, what string) ([]byte, int32) {
		off, n := get32(desc, at), get32(desc, at+4)
		b, ok := region(inBuf[:], off, n)
		if !ok {
			return nil, boundsError(what, off, n, len(inBuf))
		}
		return b, 0
	}
	older, code := part(qdOlder, "query older capture")
	if code != 0 {
		return code
	}
	if len(older) == 0 {
		older = nil
	}
	newer, code := part(qdNewer, "query newer capture")
	if code != 0 {
		return code
	}
	cfg := query.Config{Options: engine.Options(options)}
	if cfg.Names, code = nameTable(get32(desc, qdNames), get32(desc, qdNames+4)); code != 0 {
		return code
	}
	regBytes, code := part(qdRegInfo, "query registration")
	if code != 0 {
		return code
	}
	if len(regBytes) > 0 {
		reg, err := perflibv2.ParseRegInfo(regBytes)
		if err != nil {
			return fail(errorCode(err), err)
		}
		cfg.RegInfo = &reg
	}
	strBytes, code := part(qdStrings, "query strings")
	if code != 0 {
		return code
	}
	if len(strBytes) > 0 {
		s, err := perflibv2.ParseStrings(strBytes)
		if err != nil {
			return fail(errorCode(err), err)
		}
		cfg.Strings = &s
	}
	if n := get32(desc, qdIDs+4); n%4 != 0 {
		setError("perfcalc: query: the counter ids' length is not a multiple of 4")
		return ErrArgument
	}
	if cfg.IDs, code = counterIDs(get32(desc, qdIDs), get32(desc, qdIDs+4)/4); code != 0 {
		return code
	}
	set, code := part(qdSet, "query counterset name")
	if code != 0 {
		return code
	}
	cfg.CounterSet = string(set)
	if cfg.Paths, code = patterns(get32(desc, qdPaths), get32(desc, qdPaths+4)); code != 0 {
		return code
	}
	vals, err := query.New(cfg).Run(nil, older, newer)
	if err != nil {
		code := errorCode(err)
		if is(err, query.ErrMismatch) || is(err, query.ErrNotV1) {
			code = ErrInput
		}
		return fail(code, err)
	}
	w := &out
	w.start(outBuf[:], KindQuery, first, 0)
	w.rows = 1
	for i := range vals {
		v := &vals[i]
		rec := record{Value: v.Value, Status: v.Status, Type: v.Type, Scale: v.Scale, Aux: v.DetailLevel}
		if v.HasOld {
			rec.Column = 1
		}
		if err := w.add(&rec, v.Path, -1); err != nil {
			return fail(ErrLimit, err)
		}
	}
	w.columns = uint32(len(vals))
	return w.finish()
}
