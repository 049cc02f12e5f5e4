package query

import (
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/internal/fold"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
)

// v2State is the scratch of V2 queries, reused from one Run to the next.
type v2State struct {
	newBlocks, oldBlocks []perflibv2.Block
	newIdx, oldIdx       perflibv2.Index // pair the values of newer and older
	ids                  []uint32
	cnames               []string
	rows                 []v2Row
	orows                []v2Row
	names                map[uint32]string // counter names by id
	counts               map[string]int
	setName              string
	setReg               *perflibv2.RegInfo
	buf                  []byte
}

// v2Row is the PDH name of one row of a block.
type v2Row struct {
	parent, name string
	occurrence   int
}

// maxIntern bounds the strings kept between runs; past it the cache starts
// again.
const maxIntern = 1 << 16

// internBytes returns b as a string, allocating only the first time a
// given text is seen.
func (q *Query) internBytes(b []byte) string {
	if v, ok := q.intern[string(b)]; ok {
		return v
	}
	if q.intern == nil || len(q.intern) >= maxIntern {
		q.intern = make(map[string]string)
	}
	v := string(b)
	q.intern[v] = v
	return v
}

// v2Name returns the name of a V2 counter: its string in Config.Strings,
// or "#<CounterId>".
func (q *Query) v2Name(id uint32) string {
	s := &q.v2
	if n, ok := s.names[id]; ok {
		return n
	}
	if s.names == nil {
		s.names = make(map[uint32]string)
	}
	var n string
	var t perflibv2.Text
	ok := false
	if q.cfg.Strings != nil {
		t, ok = q.cfg.Strings.Lookup(id)
	}
	if ok && t.Len() > 0 {
		q.nameBuf = t.AppendUTF8(q.nameBuf[:0])
		n = string(q.nameBuf)
	} else {
		n = "#" + strconv.FormatUint(uint64(id), 10)
	}
	s.names[id] = n
	return n
}

func (q *Query) runV2(dst []Value, older, newer []byte) ([]Value, error) {
	n0 := len(dst)
	dst, err := q.v2Pass(dst, older, newer)
	if err != nil {
		return dst[:n0], err
	}
	return dst, nil
}

// appendBlocksV2 appends the blocks of a PerfQueryCounterData result.
func appendBlocksV2(dst []perflibv2.Block, data []byte) ([]perflibv2.Block, error) {
	var p perflibv2.Parser
	if _, err := p.Start(data); err != nil {
		return dst, err
	}
	for {
		var b perflibv2.Block
		ok, err := p.Next(&b)
		if err != nil {
			return dst, err
		}
		if !ok {
			return dst, nil
		}
		dst = append(dst, b)
	}
}

func (q *Query) v2Pass(dst []Value, older, newer []byte) ([]Value, error) {
	s := &q.v2
	reg := q.cfg.RegInfo
	var err error
	q.unnamed = 0
	if s.newBlocks, err = appendBlocksV2(s.newBlocks[:0], newer); err != nil {
		return dst, err
	}
	hasOld := older != nil
	if hasOld {
		if s.oldBlocks, err = appendBlocksV2(s.oldBlocks[:0], older); err != nil {
			return dst, err
		}
		if len(s.oldBlocks) != len(s.newBlocks) {
			return dst, &MismatchError{What: "number of blocks",
				Older: strconv.Itoa(len(s.oldBlocks)), Newer: strconv.Itoa(len(s.newBlocks))}
		}
	}
	if s.setName == "" || s.setReg != reg {
		s.setName, s.setReg = q.cfg.CounterSet, reg
		if s.setName == "" {
			s.setName = perflibv2.GUID(reg.Header.CounterSetGUID).String()
		}
	}
	object := s.setName
	if !q.selectObject("", object) {
		return dst, nil
	}
	// Index both captures (checked above) to pair each value in O(log n).
	if err = s.newIdx.Reset(newer, reg, q.cfg.IDs); err != nil {
		return dst, err
	}
	if hasOld {
		if err = s.oldIdx.Reset(older, reg, q.cfg.IDs); err != nil {
			return dst, err
		}
	}

	var in, prev engine.Input
	for bi := range s.newBlocks {
		b := &s.newBlocks[bi]
		var ob *perflibv2.Block
		if hasOld {
			ob = &s.oldBlocks[bi]
		}
		// The counters of the block.
		s.ids = s.ids[:0]
		switch {
		case b.HasCounterIDs():
			for k := range b.NumCounters() {
				id, _ := b.CounterID(k)
				s.ids = append(s.ids, id)
			}
		case b.Index < len(q.cfg.IDs) && q.cfg.IDs[b.Index] != perflibv2.NoCounter:
			s.ids = append(s.ids, q.cfg.IDs[b.Index])
		default:
			q.unnamed++
			continue
		}
		if ob != nil && !sameBlock(b, ob, s.ids) {
			return dst, &MismatchError{What: "block", Older: blockText(ob), Newer: blockText(b)}
		}
		nc := len(s.ids)
		s.cnames = grow(s.cnames, nc)
		for k, id := range s.ids {
			s.cnames[k] = ""
			if ci, ok := s.newIdx.Lookup(id); ok && !ci.Type.IsBase() {
				s.cnames[k] = q.v2Name(id)
			}
		}
		if len(q.cfg.Paths) > 0 {
			q.selectCounters(nc, func(c int) string { return s.cnames[c] })
		}

		hasInst := b.HasInstances()
		s.rows = q.v2Rows(s.rows[:0], b)
		ni := len(s.rows)
		if b.Type == perflibv2.ErrorReturn {
			ni = 1
			s.rows = append(s.rows[:0], v2Row{})
		}
		if len(q.cfg.Paths) > 0 {
			q.selectInstances(ni, hasInst, func(i int) (string, string, int) {
				return s.rows[i].parent, s.rows[i].name, s.rows[i].occurrence
			})
		}
		q.keys = q.keys[:0]
		q.newKeys = q.newKeys[:0]
		for i := range ni {
			r := &s.rows[i]
			q.newKeys = append(q.newKeys, q.appendKey(r.parent, r.name, r.occurrence, i))
		}
		if ob != nil {
			s.orows = q.v2Rows(s.orows[:0], ob)
			if ob.Type == perflibv2.ErrorReturn {
				s.orows = append(s.orows[:0], v2Row{})
			}
			q.oldKeys = q.oldKeys[:0]
			for i := range s.orows {
				r := &s.orows[i]
				q.oldKeys = append(q.oldKeys, q.appendKey(r.parent, r.name, r.occurrence, i))
			}
			q.matchInstances()
		} else {
			q.pair = grow(q.pair, ni)
			for i := range q.pair {
				q.pair[i] = -1
			}
		}

		for i := range ni {
			j := q.pair[i]
			r := &s.rows[i]
			for k, id := range s.ids {
				if s.cnames[k] == "" || !q.selected(k, nc, i, ni) {
					continue
				}
				ok, err := s.newIdx.Fill(&in, b.Index, i, id)
				if err != nil {
					return dst, err
				}
				if !ok {
					continue
				}
				in.HasOld = false
				if j >= 0 {
					ok, err := s.oldIdx.Fill(&prev, ob.Index, j, id)
					if err != nil {
						return dst, err
					}
					if ok {
						in.Old, in.HasOld = prev.New, true
					}
				}
				ci, _ := s.newIdx.Lookup(id)
				res := engine.Compute(&in, q.cfg.Options)
				p := counterpath.Path{Object: object, HasInstance: hasInst,
					Parent: r.parent, Instance: r.name, Index: r.occurrence, Counter: s.cnames[k]}
				dst = append(dst, Value{
					Path: q.appendPath(&p), Type: ci.Type, Scale: ci.DefaultScale,
					DetailLevel: ci.DetailLevel, Value: res.Value, Status: res.Status, HasOld: in.HasOld,
				})
			}
		}
	}
	return dst, nil
}

// v2Rows appends the PDH names of the rows of b: the instance name split at
// its first "/" into parent and name, and the occurrence of duplicate names
// (compared case-insensitively) in order.
func (q *Query) v2Rows(dst []v2Row, b *perflibv2.Block) []v2Row {
	s := &q.v2
	if s.counts == nil {
		s.counts = make(map[string]int)
	} else {
		clear(s.counts)
	}
	rs := b.Rows()
	var row perflibv2.Row
	for rs.Next(&row) {
		s.buf = row.Name.AppendUTF8(s.buf[:0])
		full := q.internBytes(s.buf)
		r := v2Row{name: full}
		if k := strings.IndexByte(full, '/'); k >= 0 {
			r.parent, r.name = full[:k], full[k+1:]
		}
		s.buf = fold.Append(s.buf[:0], full)
		key := q.internBytes(s.buf)
		r.occurrence = s.counts[key]
		s.counts[key] = r.occurrence + 1
		dst = append(dst, r)
	}
	return dst
}

// sameBlock reports whether the older block ob holds the same counters as b
// (whose counter ids are ids). A PERF_ERROR_RETURN block pairs with any
// block: providers fail now and then.
func sameBlock(b, ob *perflibv2.Block, ids []uint32) bool {
	if b.Type == perflibv2.ErrorReturn || ob.Type == perflibv2.ErrorReturn {
		return true // a failure in either sample: its values are InvalidData
	}
	if b.Type != ob.Type || b.Index != ob.Index || b.HasCounterIDs() != ob.HasCounterIDs() {
		return false
	}
	if !b.HasCounterIDs() {
		return true
	}
	if ob.NumCounters() != len(ids) {
		return false
	}
	for k, id := range ids {
		if oid, _ := ob.CounterID(k); oid != id {
			return false
		}
	}
	return true
}

// blockText describes a block for a MismatchError: "2 PERF_COUNTERSET".
func blockText(b *perflibv2.Block) string {
	return strconv.Itoa(b.Index) + " " + b.Type.String()
}
