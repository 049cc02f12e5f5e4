package host

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// Kind is the kind of a decode result (the header's kind field).
type Kind uint32

// The kinds of decode results.
const (
	KindV1    Kind = 1 // a V1 PERF_DATA_BLOCK
	KindV2    Kind = 2 // a PerfLib V2 PerfQueryCounterData result
	KindNames Kind = 3 // a name table
	KindBlg   Kind = 4 // a .blg log
	KindQuery Kind = 5 // a query between two captures
)

// Record is one decoded counter value (ABI.md, "Record"): its PDH path, its
// value computed with the call's options and its raw sample. Aux and
// Column depend on the kind:
//
//   - V1: Aux is the CounterNameTitleIndex, Column the object's index;
//   - V2: Aux is the CounterId, Column the block's index;
//   - name table: Aux (and Value) is the index, Path the text;
//   - blg: Aux is the sample's index in the log, Column the column's index.
type Record struct {
	Path     string
	Value    float64
	Status   engine.Status
	Type     engine.CounterType
	Raw      engine.RawCounter // TimeStamp is Time
	TimeBase int64
	Time     int64 // a FILETIME: V1 PerfTime100nSec, V2 PerfTime100NSec, blg the sample's local time
	Scale    int32
	Aux      uint32
	Column   uint32
}

// Decoded is the result of a decode: its records, in the order of ABI.md,
// and what the header says of the input.
type Decoded struct {
	Kind    Kind
	Records []Record
	// Columns are the V1 objects, V2 blocks, name-table indexes or blg
	// columns; Rows are 1 (V1, V2), the pairs read (name table) or the
	// samples (blg).
	Columns, Rows uint32
	// Info is the V1 machine name, the V2 counterset's GUID or the blg time
	// zone's name.
	Info string
	// Bias is the blg log's time-zone bias in minutes (UTC = local + bias).
	Bias int32
	// Damage is, for a .blg log damaged after the records returned, why
	// (an *Error whose Code is 0): the records before it are valid.
	Damage error
}

// V2Counterset is what decoding PerfLib V2 data needs besides the data:
// the counterset's registration (PERF_COUNTERSET_REG_INFO and its
// PERF_COUNTER_REG_INFO array, required), optionally its counter name strings
// (a PERF_STRING_BUFFER_HEADER block; nil names counters "#<id>"), and the
// CounterId of each block position (perflibv2.Selector.IDs), which
// PERF_SINGLE_COUNTER and PERF_MULTIPLE_INSTANCES blocks need.
type V2Counterset struct {
	RegInfo []byte
	Strings []byte
	IDs     []uint32
}

// QueryConfig is query.Config with its parts as the bytes they are parsed
// from: the module parses them.
type QueryConfig struct {
	// Names is the V1 "Counter <lang>" name table; nil names "#<index>".
	Names []byte
	// Paths select counters (wildcards allowed); none selects every counter.
	Paths []counterpath.Path
	// Options are the engine's options.
	Options engine.Options
	// V2 captures: the counterset's registration (non-nil means V2), its
	// name strings and block ids (see V2Counterset), and the object name of
	// paths ("" uses the counterset's GUID).
	RegInfo    []byte
	Strings    []byte
	IDs        []uint32
	CounterSet string
}

// Decode results (ABI.md, "Decode results").
const (
	magic      = 0x31524350
	headerSize = 80
	recordSize = 80
	flagDamage = 1
	flagMore   = 2
	querySize  = 64
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
//   - An input larger than the module's 8 MiB input buffer, or a result
//     larger than its 4 MiB output buffer, gets a larger buffer (in_reserve,
//     out_reserve; up to 1 GiB each, within Config.WithMemoryLimitPages):
//     a large result costs two decodes, its first page and the rest. The
//     instance keeps the larger buffers for its next calls.
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
	ids := idBytes(cs.IDs)
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
	pats, every, err := selection(sel)
	if err != nil {
		return nil, err
	}
	return e.decode(fnDecodeBlg, [][]byte{log, pats}, func(s []uint64, at []region, first uint32) {
		s[0], s[1], s[2], s[3] = at[0].off, at[0].len, at[1].off, at[1].len
		s[4], s[5], s[6], s[7] = uint64(sel.Begin), uint64(sel.End), every, uint64(first)
	}, nil)
}

// Query computes every selected counter between the captures older (nil: a
// first sample) and newer, as query.New(cfg).Run(dst, older, newer) does with
// cfg's parts parsed, and appends the values to dst. Paths are owned by the
// values (not views).
func (e *Engine) Query(dst []query.Value, cfg *QueryConfig, older, newer []byte) ([]query.Value, error) {
	var pats []byte
	for i, p := range cfg.Paths {
		if i > 0 {
			pats = append(pats, '\n')
		}
		pats = p.AppendTo(pats)
	}
	ids := idBytes(cfg.IDs)
	parts := [][]byte{older, newer, cfg.Names, cfg.RegInfo, cfg.Strings, ids, []byte(cfg.CounterSet), pats, make([]byte, querySize)}
	opts := uint64(cfg.Options & optionsMask)
	d, err := e.decode(fnQuery, parts, func(s []uint64, at []region, first uint32) {
		s[0], s[1], s[2] = at[8].off, opts, uint64(first)
	}, func(desc []byte, at []region) {
		for i := range 8 {
			binary.LittleEndian.PutUint32(desc[8*i:], uint32(at[i].off))
			binary.LittleEndian.PutUint32(desc[8*i+4:], uint32(at[i].len))
		}
	})
	if err != nil {
		return dst, err
	}
	for i := range d.Records {
		r := &d.Records[i]
		dst = append(dst, query.Value{
			Path: []byte(r.Path), Type: r.Type, Scale: r.Scale, DetailLevel: r.Aux,
			Value: r.Value, Status: r.Status, HasOld: r.Column == 1,
		})
	}
	return dst, nil
}

// RelogText returns relog's text of the .blg log in format (relog.CSV, TSV or
// JSON), as relog.Converter.Write writes it, with the selection sel. A log
// damaged after its start gives the text of the rows before the damage and
// an *Error (Code 0) with the damage's text, as Write does.
//
// # Notes
//
//   - The text must fit the module's output buffer (4 MiB); a longer one
//     is an *Error with CodeSpace whose Detail is its length.
func (e *Engine) RelogText(log []byte, sel relog.Options, format relog.Format) ([]byte, error) {
	pats, every, err := selection(sel)
	if err != nil {
		return nil, err
	}
	inst, err := e.get()
	if err != nil {
		return nil, err
	}
	defer e.put(inst)
	at, err := inst.place(e, [][]byte{log, pats}, nil)
	if err != nil {
		return nil, err
	}
	relogText := func() (int32, error) {
		s := inst.stack[:]
		s[0], s[1], s[2], s[3] = at[0].off, at[0].len, at[1].off, at[1].len
		s[4], s[5], s[6], s[7] = uint64(sel.Begin), uint64(sel.End), every, uint64(format)
		err := e.call(inst, fnRelogText)
		return int32(uint32(s[0])), err
	}
	rc, err := relogText()
	if err == nil && Code(rc) == CodeSpace {
		// Longer than the output buffer: last_detail is its length.
		if err := inst.reserve(e, fnOutReserve, inst.lastDetail(e)); err != nil {
			return nil, err
		}
		rc, err = relogText()
	}
	if err != nil {
		return nil, err
	}
	if rc < 0 {
		return nil, inst.guestError(e, "relog_text", rc)
	}
	if uint32(rc) > inst.outCap {
		return nil, inst.violation("relog_text", "the text is longer than the output buffer")
	}
	b, ok := inst.mem.Read(inst.out, uint32(rc))
	if !ok {
		return nil, inst.violation("relog_text", "the output buffer lies outside memory")
	}
	text := append([]byte(nil), b...)
	if msg := inst.errorText(e); msg != "" {
		return text, &Error{Op: "relog_text", Text: msg}
	}
	return text, nil
}

// maxReserve is the largest buffer in_reserve and out_reserve grant (ABI.md).
const maxReserve = 1 << 30

// reserve calls in_reserve or out_reserve (f) for n bytes and reads the
// buffer's new place. Under a memory limit (Config.WithMemoryLimitPages) a
// buffer the limit cannot hold is refused here, before the module would trap
// allocating it.
func (inst *instance) reserve(e *Engine, f int, n uint32) error {
	op := exports[f].name
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

// selection turns relog.Options into the patterns and every of the ABI.
func selection(sel relog.Options) ([]byte, uint64, error) {
	if sel.Every < 0 || sel.Every > 1<<30 {
		return nil, 0, &Error{Op: "relog", Code: CodeArgument, Text: "perfcalc: every is above 2^30"}
	}
	var pats []byte
	for i, p := range sel.Counters {
		if i > 0 {
			pats = append(pats, '\n')
		}
		pats = p.AppendTo(pats)
	}
	return pats, uint64(sel.Every), nil
}

func idBytes(ids []uint32) []byte {
	if len(ids) == 0 {
		return nil
	}
	b := make([]byte, 4*len(ids))
	for i, id := range ids {
		binary.LittleEndian.PutUint32(b[4*i:], id)
	}
	return b
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
		if total > maxReserve {
			return nil, &Error{Op: "input", Code: CodeLimit, Text: "perfcalc host: the input (" + strconv.FormatUint(total, 10) +
				" bytes) is larger than the module's largest input buffer (" + strconv.FormatUint(maxReserve, 10) + " bytes)"}
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

// decode places parts, then calls the export f page by page (args sets its
// parameters for the page starting at first) and collects the records.
func (e *Engine) decode(f int, parts [][]byte, args func(s []uint64, at []region, first uint32), fill func([]byte, []region)) (*Decoded, error) {
	inst, err := e.get()
	if err != nil {
		return nil, err
	}
	defer e.put(inst)
	at, err := inst.place(e, parts, fill)
	if err != nil {
		return nil, err
	}
	op := exports[f].name
	d := &Decoded{}
	le := binary.LittleEndian
	var pageTotal uint32
	for first := uint32(0); ; {
		clear(inst.stack[:])
		args(inst.stack[:], at, first)
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
		h := out[:headerSize]
		kind, flags := le.Uint32(h[8:]), le.Uint32(h[12:])
		total, pFirst, count := le.Uint32(h[16:]), le.Uint32(h[20:]), le.Uint32(h[24:])
		recSize, recOff := le.Uint32(h[28:]), le.Uint32(h[32:])
		strOff, strLen := le.Uint32(h[36:]), le.Uint32(h[40:])
		if le.Uint32(h[0:]) != magic || le.Uint32(h[4:]) != ABIVersion || recSize != recordSize || recOff != headerSize ||
			pFirst != first || uint64(count)*recordSize > uint64(strOff)-headerSize || strOff < headerSize ||
			uint64(strOff)+uint64(strLen) > uint64(len(out)) {
			return nil, inst.violation(op, "the result header is inconsistent")
		}
		strs := out[strOff : strOff+strLen]
		if first == 0 {
			d.Kind = Kind(kind)
			d.Columns, d.Rows = le.Uint32(h[48:]), le.Uint32(h[52:])
			d.Bias = int32(le.Uint32(h[56:]))
			infoOff, infoLen := le.Uint32(h[60:]), le.Uint32(h[64:])
			if uint64(infoOff)+uint64(infoLen) > uint64(len(strs)) {
				return nil, inst.violation(op, "the result's info lies outside its strings")
			}
			d.Info = string(strs[infoOff : infoOff+infoLen])
			if flags&flagDamage != 0 {
				d.Damage = &Error{Op: op, Text: inst.errorText(e)}
			}
			d.Records = make([]Record, 0, min(total, 1<<16)) // the module's total is not trusted for more
		}
		if uint64(first)+uint64(count) > uint64(total) || (first > 0 && total != pageTotal) {
			return nil, inst.violation(op, "the result's pages do not add up")
		}
		pageTotal = total
		var lastOff, lastLen uint32
		var lastPath string
		for i := range count {
			r := out[headerSize+i*recordSize : headerSize+(i+1)*recordSize]
			po, pl := le.Uint32(r[0:]), le.Uint32(r[4:])
			if uint64(po)+uint64(pl) > uint64(len(strs)) {
				return nil, inst.violation(op, "a record's path lies outside the strings")
			}
			if i == 0 || po != lastOff || pl != lastLen {
				lastOff, lastLen, lastPath = po, pl, string(strs[po:po+pl])
			}
			d.Records = append(d.Records, Record{
				Path:   lastPath,
				Value:  math.Float64frombits(le.Uint64(r[8:])),
				Status: engine.Status(le.Uint32(r[16:])),
				Type:   engine.CounterType(le.Uint32(r[20:])),
				Raw: engine.RawCounter{
					FirstValue: le.Uint64(r[24:]), SecondValue: le.Uint64(r[32:]),
					MultiCount: le.Uint32(r[40:]), CStatus: le.Uint32(r[44:]),
					TimeStamp: int64(le.Uint64(r[56:])),
				},
				TimeBase: int64(le.Uint64(r[48:])),
				Time:     int64(le.Uint64(r[56:])),
				Scale:    int32(le.Uint32(r[64:])),
				Aux:      le.Uint32(r[68:]),
				Column:   le.Uint32(r[72:]),
			})
		}
		if flags&flagMore == 0 {
			return d, nil
		}
		// A larger output buffer takes the rest in one page: a result costs
		// two decodes, not one per page.
		needed := le.Uint32(h[44:])
		if needed > inst.outCap && needed <= maxReserve {
			if err := inst.reserve(e, fnOutReserve, needed); err != nil {
				return nil, err
			}
		} else if count == 0 {
			return nil, &Error{Op: op, Code: CodeSpace, Detail: needed,
				Text: "perfcalc host: " + op + ": a record does not fit the module's output buffer"}
		}
		first += count
	}
}

// String returns the kind's name ("v1", "v2", "names", "blg", "query").
func (k Kind) String() string {
	switch k {
	case KindV1:
		return "v1"
	case KindV2:
		return "v2"
	case KindNames:
		return "names"
	case KindBlg:
		return "blg"
	case KindQuery:
		return "query"
	}
	return "kind " + strconv.FormatUint(uint64(k), 10)
}
