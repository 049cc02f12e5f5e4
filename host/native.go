package host

import (
	"bytes"
	"errors"
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

// Native has the methods of Engine, computed in the caller's process by
// perfcalc's packages instead of the module: the reference that the
// Engine's tests compare with, and the way back from the sandbox in one
// line (both satisfy the same method set). Its zero value is ready to use,
// and it is safe for concurrent use.
//
// Its results are the Engine's, bit for bit; its errors are the native
// packages' own (a *engine.FormatError, a *query.MismatchError, …) whose
// texts the Engine's *Error values carry. Refusals that only the module
// makes (more than 2,097,152 records, a V2 result with too many values for
// its size, a V2 block without its counter id) are *Error values with the
// module's code and text.
type Native struct{}

// maxRecords is the module's cap on the records of one decode.
const maxRecords = 1 << 21

var errTooMany = &Error{Code: CodeLimit, Text: "perfcalc: the input holds more than 2097152 records"}

// Compute returns engine.Compute(in, opts).
func (Native) Compute(in *engine.Input, opts engine.Options) (engine.Result, error) {
	return engine.Compute(in, opts), nil
}

// ComputeBatch returns engine.ComputeBatch(in, opts, out).
func (Native) ComputeBatch(in []engine.Input, opts engine.Options, out []engine.Result) (int, error) {
	return engine.ComputeBatch(in, opts, out), nil
}

// appendTitle appends the name of a title index, or "#<index>".
func appendTitle(dst []byte, t *nametable.Table, index uint32) []byte {
	if t != nil {
		if text, ok := t.Lookup(index); ok {
			return text.AppendUTF8(dst)
		}
	}
	return strconv.AppendUint(append(dst, '#'), uint64(index), 10)
}

func optionalTable(b []byte) (*nametable.Table, error) {
	if len(b) == 0 {
		return nil, nil
	}
	return nametable.Parse(b)
}

// DecodeV1 is Engine.DecodeV1 with package perfdata.
func (Native) DecodeV1(data, names []byte, opts engine.Options) (*Decoded, error) {
	opts &= optionsMask
	t, err := optionalTable(names)
	if err != nil {
		return nil, err
	}
	blk, err := perfdata.Parse(data)
	if err != nil {
		return nil, err
	}
	machine := blk.SystemName()
	d := &Decoded{Kind: KindV1, Info: machine, Rows: 1}
	var (
		nm    perfdata.Namer
		tmp   []byte
		in    engine.Input
		total int
	)
	objs := blk.Objects()
	for {
		obj, err := objs.Next()
		if err == perfdata.ErrDone {
			break
		}
		if err != nil {
			return nil, err
		}
		d.Columns++
		objName := string(appendTitle(tmp[:0], t, obj.ObjectNameTitleIndex))
		instNames, err := nm.Names(&blk, &obj)
		if err != nil {
			return nil, err
		}
		insts := obj.Instances()
		for i := 0; ; i++ {
			inst, err := insts.Next()
			if err == perfdata.ErrDone {
				break
			}
			if err != nil {
				return nil, err
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
					return nil, err
				}
				if def.CounterType.IsBase() {
					continue
				}
				in = engine.Input{}
				if err := obj.Fill(&in, &def, inst.CounterBlock); err != nil {
					return nil, err
				}
				p.Counter = string(appendTitle(tmp[:0], t, def.CounterNameTitleIndex))
				if total++; total > maxRecords {
					return nil, errTooMany
				}
				r := engine.Compute(&in, opts)
				d.Records = append(d.Records, Record{
					Path: p.String(), Value: r.Value, Status: r.Status, Type: in.Type, Raw: in.New,
					TimeBase: in.TimeBase, Time: in.New.TimeStamp, Scale: in.Scale,
					Aux: def.CounterNameTitleIndex, Column: uint32(obj.Index),
				})
			}
		}
	}
	return d, nil
}

// DecodeV2 is Engine.DecodeV2 with package perflibv2.
func (Native) DecodeV2(data []byte, cs V2Counterset, opts engine.Options) (*Decoded, error) {
	opts &= optionsMask
	ids := cs.IDs
	reg, err := perflibv2.ParseRegInfo(cs.RegInfo)
	if err != nil {
		return nil, err
	}
	var strs *perflibv2.StringBuffer
	if len(cs.Strings) > 0 {
		s, err := perflibv2.ParseStrings(cs.Strings)
		if err != nil {
			return nil, err
		}
		strs = &s
	}
	var x perflibv2.Index
	_ = x.Reset(data, &reg, ids) // a malformed block is reported by the walk below, after the values before it
	var p perflibv2.Parser
	dh, err := p.Start(data)
	if err != nil {
		return nil, err
	}
	set := reg.Header.CounterSetGUID.String()
	d := &Decoded{Kind: KindV2, Info: set, Rows: 1}
	var (
		blk perflibv2.Block
		row perflibv2.Row
		val perflibv2.Value
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
			return nil
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
		if len(d.Records) >= maxRecords {
			return errTooMany
		}
		r := engine.Compute(&in, opts)
		raw := in.New
		raw.TimeStamp = dh.PerfTime100NSec
		d.Records = append(d.Records, Record{
			Path: p.String(), Value: r.Value, Status: r.Status, Type: in.Type, Raw: raw,
			TimeBase: in.TimeBase, Time: dh.PerfTime100NSec, Scale: in.Scale, Aux: id, Column: uint32(blockIndex),
		})
		return nil
	}
	for {
		ok, err := p.Next(&blk)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		d.Columns++
		if blk.Type == perflibv2.ErrorReturn {
			if blk.Index < len(ids) {
				p := counterpath.Path{Object: set}
				if err := emit(blk.Index, 0, ids[blk.Index], &p); err != nil {
					return nil, err
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
					return nil, &Error{Code: CodeAbsent, Detail: uint32(blk.Index), Text: "perfcalc: decode_v2: block " +
						strconv.Itoa(blk.Index) + " does not name its counter (PERF_SINGLE_COUNTER or PERF_MULTIPLE_INSTANCES): give the counter ids"}
				}
				if err := emit(blk.Index, row.Index, id, &p); err != nil {
					return nil, err
				}
			}
		}
	}
	return d, nil
}

// DecodeNames is Engine.DecodeNames with package nametable.
func (Native) DecodeNames(table []byte) (*Decoded, error) {
	t, err := optionalTable(table)
	if err != nil {
		return nil, err
	}
	d := &Decoded{Kind: KindNames}
	if t == nil {
		return d, nil
	}
	d.Columns, d.Rows = uint32(t.Len()), uint32(t.Pairs())
	var text []byte
	for i := 0; i < t.Len(); i++ {
		index, s := t.Pair(i)
		text = s.AppendUTF8(text[:0])
		d.Records = append(d.Records, Record{Path: string(text), Value: float64(index), Aux: index})
	}
	return d, nil
}

// DecodeBlg is Engine.DecodeBlg with package relog.
func (Native) DecodeBlg(log []byte, sel relog.Options) (*Decoded, error) {
	if sel.Every < 0 || sel.Every > 1<<30 {
		return nil, &Error{Op: "relog", Code: CodeArgument, Text: "perfcalc: every is above 2^30"}
	}
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), sel)
	if err != nil {
		return nil, err
	}
	cols := c.Columns()
	name, bias := c.TimeZone()
	rows, _, _ := c.Samples()
	d := &Decoded{Kind: KindBlg, Info: name, Bias: bias, Columns: uint32(len(cols)), Rows: uint32(rows)}
	for c.Next() {
		row := c.Row()
		for j := range row.Cells {
			cell := &row.Cells[j]
			if !cell.Present {
				continue
			}
			if len(d.Records) >= maxRecords {
				return nil, errTooMany
			}
			raw := cell.Raw
			raw.TimeStamp = row.Time
			d.Records = append(d.Records, Record{
				Path: cols[j].Path, Value: cell.Result.Value, Status: cell.Result.Status, Type: cell.Counter.Type,
				Raw: raw, TimeBase: cell.Counter.TimeBase, Time: row.Time,
				Scale: cell.Counter.Scale, Aux: uint32(row.Index), Column: uint32(j),
			})
		}
	}
	d.Damage = c.Err()
	return d, nil
}

// RelogText is Engine.RelogText with relog.Converter.Write (without the
// module's 4 MiB limit).
func (Native) RelogText(log []byte, sel relog.Options, format relog.Format) ([]byte, error) {
	if sel.Every < 0 || sel.Every > 1<<30 {
		return nil, &Error{Op: "relog", Code: CodeArgument, Text: "perfcalc: every is above 2^30"}
	}
	if format > relog.JSON {
		return nil, &Error{Op: "relog_text", Code: CodeArgument, Text: "perfcalc: relog_text: format is 0 (CSV), 1 (TSV) or 2 (JSON)"}
	}
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), sel)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = c.Write(&b, format)
	return b.Bytes(), err
}

// Query is Engine.Query with package query; the paths are copied out of the
// Query's buffer.
func (Native) Query(dst []query.Value, cfg *QueryConfig, older, newer []byte) ([]query.Value, error) {
	qc := query.Config{Options: cfg.Options & optionsMask, Paths: cfg.Paths, IDs: cfg.IDs, CounterSet: cfg.CounterSet}
	var err error
	if qc.Names, err = optionalTable(cfg.Names); err != nil {
		return dst, err
	}
	if len(cfg.RegInfo) > 0 {
		reg, err := perflibv2.ParseRegInfo(cfg.RegInfo)
		if err != nil {
			return dst, err
		}
		qc.RegInfo = &reg
	}
	if len(cfg.Strings) > 0 {
		s, err := perflibv2.ParseStrings(cfg.Strings)
		if err != nil {
			return dst, err
		}
		qc.Strings = &s
	}
	if len(older) == 0 {
		older = nil
	}
	vals, err := query.New(qc).Run(nil, older, newer)
	if err != nil {
		return dst, err
	}
	if len(vals) > maxRecords {
		return dst, errTooMany
	}
	for _, v := range vals {
		v.Path = append([]byte(nil), v.Path...)
		dst = append(dst, v)
	}
	return dst, nil
}

// ErrorCode returns the module's error code for an error of Native or
// Engine: an *Error's Code, or the code the module gives the native
// packages' errors (CodeTruncated, CodeMalformed, CodeUnsupported, else
// CodeInput); 0 for nil and for errors that are not about the input (a
// *FaultError, ErrClosed, New's errors).
func ErrorCode(err error) Code {
	var (
		e  *Error
		fe *FaultError
	)
	switch {
	case err == nil:
		return 0
	case errors.As(err, &e):
		return e.Code
	case errors.As(err, &fe), errors.Is(err, ErrClosed), errors.Is(err, ErrABIVersion), errors.Is(err, ErrModule):
		return 0
	case errors.Is(err, engine.ErrTruncated):
		return CodeTruncated
	case errors.Is(err, engine.ErrMalformed):
		return CodeMalformed
	case errors.Is(err, engine.ErrUnsupported):
		return CodeUnsupported
	}
	return CodeInput
}
