package query

import (
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/internal/fold"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
)

// capture is one capture of a Run as the pass (pass.go) reads it, V1 or V2
// alike: a list of objects (V1 objects, V2 blocks), each with counters and
// instances, and the raw values of a counter of an instance. Its buffers
// are kept from one Run to the next.
type capture struct {
	v2   bool
	data []byte

	// V1: the block, its objects, the current object's counter definitions
	// and its instances' counter blocks.
	blk        perfdata.Block
	objs       []perfdata.Object
	nm         perfdata.Namer
	defs       []perfdata.CounterDef
	cbs        []perfdata.CounterBlock
	machine    []byte
	machineStr string // machine as a string, kept from run to run

	// V2: the blocks, their index, the current block's counter ids.
	blocks []perflibv2.Block
	idx    perflibv2.Index
	ids    []uint32

	// The current object's instances.
	insts []instName
	// pid mode: the current object's instances' PDH names and IDs, when
	// it is paired by ID.
	pdh  []instName
	pids []identity.Key
	// apart marks the instances that Query.apart numbered.
	apart []bool
}

// instName is the PDH name of an instance, `parent/name#occurrence`.
type instName struct {
	_            [0]func() // not comparable: no equality function in the WebAssembly module
	parent, name string
	occurrence   int
}

// open parses data as the V1 block or the V2 result the capture is, and
// lists its objects.
func (c *capture) open(q *Query, data []byte) error {
	c.data = data
	if c.v2 {
		var p perflibv2.Parser
		if _, err := p.Start(data); err != nil {
			return err
		}
		c.blocks = c.blocks[:0]
		for p.Next() {
			c.blocks = append(c.blocks, *p.Block())
		}
		return p.Err()
	}
	var err error
	if c.blk, err = perfdata.Parse(data); err != nil {
		return err
	}
	c.machine = c.blk.AppendSystemName(c.machine[:0])
	if string(c.machine) != c.machineStr {
		c.machineStr = string(c.machine)
	}
	c.objs = c.objs[:0]
	objs := c.blk.Objects()
	for objs.Next() {
		o := objs.Object()
		c.objs = append(c.objs, *o)
	}
	return objs.Err()
}

// len returns the number of objects.
func (c *capture) len() int {
	if c.v2 {
		return len(c.blocks)
	}
	return len(c.objs)
}

// counters lists the counters of object o (c.defs, or c.ids: false when a
// V2 block names no counter and Config.IDs has none for it).
func (c *capture) counters(q *Query, o int) (bool, error) {
	if !c.v2 {
		var err error
		c.defs, err = appendDefs(c.defs[:0], &c.objs[o])
		return true, err
	}
	b := &c.blocks[o]
	c.ids = c.ids[:0]
	switch {
	case b.HasCounterIDs():
		for k := range b.NumCounters() {
			id, _ := b.CounterID(k)
			c.ids = append(c.ids, id)
		}
	case b.Index < len(q.cfg.IDs) && q.cfg.IDs[b.Index] != perflibv2.NoCounter:
		c.ids = append(c.ids, q.cfg.IDs[b.Index])
	default:
		return false, nil
	}
	return true, nil
}

// numCounters returns the number of counters that counters listed.
func (c *capture) numCounters() int {
	if c.v2 {
		return len(c.ids)
	}
	return len(c.defs)
}

// appendDefs appends the counter definitions of o to dst.
func appendDefs(dst []perfdata.CounterDef, o *perfdata.Object) ([]perfdata.CounterDef, error) {
	defs := o.Counters()
	for defs.Next() {
		d := defs.Counter()
		dst = append(dst, *d)
	}
	if err := defs.Err(); err != nil {
		return dst, err
	}
	return dst, nil
}

// sameCounters reports whether the counters that counters listed for
// object o of c and object oo of old are the same: V1, the same number of
// definitions with the same name index and type; V2, see sameBlock.
func (c *capture) sameCounters(old *capture, o, oo int) bool {
	if c.v2 {
		return sameBlock(&c.blocks[o], &old.blocks[oo], c.ids)
	}
	a, b := c.defs, old.defs
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].CounterNameTitleIndex != b[i].CounterNameTitleIndex || a[i].CounterType != b[i].CounterType {
			return false
		}
	}
	return true
}

// counterName returns the name of counter k ("" for one that has no value
// of its own: a base counter, a V2 counter the registration lacks) and
// whether it is such a counter.
func (c *capture) counterName(q *Query, k int) (string, bool) {
	if c.v2 {
		if ci, ok := c.idx.Lookup(c.ids[k]); ok && !ci.Type.IsBase() {
			return q.v2Name(c.ids[k]), false
		}
		return "", true
	}
	d := &c.defs[k]
	if d.CounterType.IsBase() {
		return "", true
	}
	return q.v1Name(d.CounterNameTitleIndex), false
}

// instances names the instances of object o (c.insts) and, for V1, lists
// their counter blocks.
func (c *capture) instances(q *Query, o int) error {
	c.insts = c.insts[:0]
	if c.v2 {
		b := &c.blocks[o]
		if b.Type == perflibv2.ErrorReturn {
			// One row without a name, whose values are InvalidData.
			c.insts = append(c.insts, instName{})
			return nil
		}
		c.insts = q.v2Rows(c.insts, b)
		return nil
	}
	obj := &c.objs[o]
	names, err := c.nm.Names(&c.blk, obj)
	if err != nil {
		return err
	}
	for _, n := range names {
		c.insts = append(c.insts, instName{parent: n.Parent, name: n.Name, occurrence: n.Occurrence})
	}
	c.cbs = c.cbs[:0]
	insts := obj.Instances()
	for insts.Next() {
		in := insts.Instance()
		c.cbs = append(c.cbs, in.CounterBlock)
	}
	return insts.Err()
}

// fill reads counter k of instance i of object o into in (its counter and
// in.New); false when the V2 result holds no value for it.
func (c *capture) fill(in *engine.Input, o, i, k int) (bool, error) {
	if c.v2 {
		return c.idx.Fill(in, c.blocks[o].Index, i, c.ids[k])
	}
	return true, c.objs[o].Fill(in, &c.defs[k], c.cbs[i])
}

// definition returns counter k's type, DefaultScale and DetailLevel.
func (c *capture) definition(k int) (engine.CounterType, int32, uint32) {
	if c.v2 {
		ci, _ := c.idx.Lookup(c.ids[k])
		return ci.Type, ci.DefaultScale, ci.DetailLevel
	}
	d := &c.defs[k]
	return d.CounterType, d.DefaultScale, d.DetailLevel
}

// v1Name returns the name of a V1 title index: its text in Config.Names, or
// "#<index>".
func (q *Query) v1Name(index uint32) string { return q.cachedName(&q.names, index, false) }

// v2Name returns the name of a V2 counter: its string in Config.Strings,
// or "#<CounterId>".
func (q *Query) v2Name(id uint32) string { return q.cachedName(&q.v2names, id, true) }

// cachedName returns the name of a V1 title index or (v2) a V2 counter id, kept
// in *m from run to run.
func (q *Query) cachedName(m *map[uint32]string, index uint32, v2 bool) string {
	if s, ok := (*m)[index]; ok {
		return s
	}
	if *m == nil {
		*m = make(map[uint32]string)
	}
	if v2 {
		q.nameBuf = q.cfg.Strings.AppendName(q.nameBuf[:0], index)
	} else {
		q.nameBuf = q.cfg.Names.AppendName(q.nameBuf[:0], index)
	}
	s := string(q.nameBuf)
	(*m)[index] = s
	return s
}

// v2Rows appends the PDH names of the rows of b: the instance name split at
// its first "/" into parent and name, and the occurrence of duplicate names
// (compared case-insensitively) in order.
func (q *Query) v2Rows(dst []instName, b *perflibv2.Block) []instName {
	if q.counts == nil {
		q.counts = make(map[string]int)
	} else {
		clear(q.counts)
	}
	rs := b.Rows()
	for rs.Next() {
		row := rs.Row()
		q.nameBuf = row.Name.AppendName(q.nameBuf[:0]) // every code unit kept
		full := q.intern.String(q.nameBuf)
		r := instName{name: full}
		if k := strings.IndexByte(full, '/'); k >= 0 {
			r.parent, r.name = full[:k], full[k+1:]
		}
		q.nameBuf = fold.Append(q.nameBuf[:0], full)
		key := q.intern.String(q.nameBuf)
		r.occurrence = q.counts[key]
		q.counts[key] = r.occurrence + 1
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
