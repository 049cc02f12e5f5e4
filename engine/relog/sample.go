package relog

import (
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// defRef is a displayable counter definition of a whole object and its
// counter index in the entry (−1 when the second pass does not know it).
type defRef struct {
	_   [0]func() // not comparable: no equality function in the WebAssembly module
	def perfdata.CounterDef
	ci  int32
}

// visit walks the raw values and the whole objects of a sample. In the
// first pass (first true) it records every counter and instance it meets;
// in the second it computes the cells of the current row.
//
// A raw-record sample laid out as the previous one (the same counters and
// instance names in the same order: nearly every sample of a log) takes
// the planned path (rowPlan): the first pass has nothing new to meet in
// it, and the second knows each value's column without looking its
// instance up, and computes the row with one engine.ComputeBatch.
//
// In the second pass, with out set (a row of Write's batch), a planned
// sample goes into out instead of the row's cells (computePlanned), and
// visit reports direct.
func (c *Converter) visit(s *blg.Sample, first bool, out *batchRow) (direct bool, err error) {
	c.scratch.g++
	id := c.id
	byID := id != nil && id.raw
	if planRows && len(s.Blocks) == 0 && !byID && c.plan.matches(s, first) {
		if !first {
			c.computePlanned(s, out)
		}
		return out != nil, nil
	}
	if !first {
		clear(c.row.Cells)
	}
	c.plan.start(s, first, len(s.Blocks) == 0 && !byID)
	if byID {
		id.collect(s.Values, first)
	}
	for i := range s.Values {
		v := &s.Values[i]
		col := int32(-1)
		if v.Counter >= 0 && v.Counter < len(c.entries) && !c.entries[v.Counter].whole {
			e := &c.entries[v.Counter]
			ii := int32(0)
			switch {
			case byID && id.entryGroup[v.Counter] >= 0:
				name, _ := id.rawName(v.Counter, v.Instance)
				ii = c.instance(e, name, first, false)
			case e.info.Wildcard():
				ii = c.instance(e, v.Instance, first, true)
			}
			switch {
			case ii < 0:
			case first:
				c.addPair(e, 0, ii)
			default:
				in := engine.Input{Counter: e.info.Engine(), New: v.Raw}
				col = c.fill(e, 0, ii, &in)
			}
		}
		c.plan.add(v, col) // col: the column v filled, or −1
	}
	for i := range s.Blocks {
		b := &s.Blocks[i]
		if b.Counter < 0 || b.Counter >= len(c.entries) || !c.entries[b.Counter].whole {
			continue
		}
		if err := c.visitBlock(&c.entries[b.Counter], b.Data, first); err != nil {
			c.plan.forget()
			return false, err
		}
	}
	return false, nil
}

// planRows enables the planned path (the tests compare without it).
var planRows = true

// visitBlock walks the PERF_DATA_BLOCK of a whole-object entry: every
// displayable counter (base counters and the types without a value are not
// columns) of every instance.
func (c *Converter) visitBlock(e *entry, data []byte, first bool) error {
	blk, err := perfdata.Parse(data)
	if err != nil {
		return err
	}
	obj, ok, err := c.object(&blk, e)
	if err != nil || !ok {
		return err
	}
	names, err := c.scratch.namer.Names(&blk, &obj)
	if err != nil {
		return err
	}
	defs := c.scratch.defs[:0]
	cur := obj.Counters()
	for cur.Next() {
		def := cur.Counter()
		if !def.CounterType.Displayable() {
			continue
		}
		defs = append(defs, defRef{def: *def, ci: c.counter(e, def, first)})
	}
	if err := cur.Err(); err != nil {
		return err
	}
	c.scratch.defs = defs
	var gr *idGroup // identity.PID: the group of the object, paired by ID
	kind := identity.None
	id := c.id
	if id != nil {
		byID, err := c.wholeIDs(e, &obj, defs)
		if err != nil {
			return err
		}
		if byID {
			kind = identity.KindOf(e.info.Object)
			gr = id.wholeGroup(kind, e)
			for k := range min(len(names), len(id.ids)) {
				id.name = names[k].AppendTo(id.name[:0])
				gr.set(string(id.name), id.ids[k], names[k].Parent, names[k].Name)
			}
			id.nameSample(gr)
		}
	}
	insts := obj.Instances()
	for k := 0; insts.Next(); k++ {
		inst := insts.Instance()
		name := c.scratch.name[:0]
		switch {
		case obj.NumInstances == perfdata.NoInstances:
			name = append(name, noInstance...)
		case gr != nil && k < len(names) && k < len(id.ids):
			id.name = names[k].AppendTo(id.name[:0])
			n, _ := gr.idOf(string(id.name))
			name = append(name, n...)
		case k < len(names):
			name = names[k].AppendTo(name)
		}
		c.scratch.name = name
		ii := c.instance(e, name, first, false)
		if ii < 0 {
			continue
		}
		for j := range defs {
			d := &defs[j]
			if d.ci < 0 {
				continue
			}
			if first {
				c.addPair(e, d.ci, ii)
				continue
			}
			var in engine.Input
			if err := obj.Fill(&in, &d.def, inst.CounterBlock); err != nil {
				// A value outside its block: this cell has no value, the
				// rest of the sample does.
				in.New.CStatus = engine.CStatusInvalidData
			}
			c.fill(e, d.ci, ii, &in)
		}
	}
	if gr != nil {
		id.endBlock(gr, first)
	}
	return insts.Err()
}

// object returns the object of a whole-object block that entry e logs: the
// first whose name (through the log's name table) is the entry's object,
// or else the block's first object.
func (c *Converter) object(blk *perfdata.Block, e *entry) (perfdata.Object, bool, error) {
	var firstObj perfdata.Object
	found := false
	cur := blk.Objects()
	for cur.Next() {
		obj := cur.Object()
		if c.names != nil {
			if t, ok := c.names.Lookup(obj.ObjectNameTitleIndex); ok && t.EqualFold(e.info.Object) {
				return *obj, true, nil
			}
		}
		if !found {
			firstObj, found = *obj, true
		}
	}
	if err := cur.Err(); err != nil {
		return perfdata.Object{}, false, err
	}
	return firstObj, found, nil
}

// counter returns the index of a whole object's counter definition in the
// entry's counters: by its name in the log's name table (its title index
// in decimal when the table lacks it). The first pass adds counters it has
// not met; the second returns −1 for them.
func (c *Converter) counter(e *entry, def *perfdata.CounterDef, first bool) int32 {
	if ci, ok := e.byTitle[def.CounterNameTitleIndex]; ok {
		return ci
	}
	if !first {
		return -1
	}
	name := c.scratch.name[:0]
	t, ok := wintype.Text(nil), false
	if c.names != nil {
		t, ok = c.names.Lookup(def.CounterNameTitleIndex)
	}
	if ok {
		name = t.AppendUTF8(name)
	} else {
		name = strconv.AppendUint(name, uint64(def.CounterNameTitleIndex), 10)
	}
	c.scratch.name = name
	ci, ok := e.byCounter[string(name)]
	if !ok {
		ci = int32(len(e.counters))
		e.counters = append(e.counters, string(name))
		e.types = append(e.types, def.CounterType)
		e.byCounter[string(name)] = ci
	}
	e.byTitle[def.CounterNameTitleIndex] = ci
	return ci
}

// instance returns the index of an instance name in the entry's instances,
// adding it in the first pass (−1 in the second for a name not met). With
// number set, a name met a second time in the same sample becomes name#1,
// then name#2, …, as PDH numbers duplicate instance names.
func (c *Converter) instance(e *entry, name []byte, first, number bool) int32 {
	ii, ok := e.byInst[string(name)]
	if ok && number && e.instGen[ii] == c.scratch.g {
		// Numbered names are built in a buffer of ours: name may alias
		// the reader's.
		name = append(c.scratch.name[:0], name...)
		base := len(name)
		for n := 1; ok && e.instGen[ii] == c.scratch.g; n++ {
			name = append(name[:base], '#')
			name = strconv.AppendInt(name, int64(n), 10)
			ii, ok = e.byInst[string(name)]
		}
		c.scratch.name = name
	}
	if !ok {
		if !first {
			return -1
		}
		ii = int32(len(e.insts))
		e.insts = append(e.insts, string(name))
		e.instGen = append(e.instGen, 0)
		e.byInst[string(name)] = ii
	}
	e.instGen[ii] = c.scratch.g
	return ii
}

// fill sets, in the second pass, the cell of counter ci of instance ii of
// entry e: in holds the counter and its new raw value. The value is
// computed against the previous row's raw value when the column had one.
// A column met twice in a sample keeps the first value. It returns the
// column it filled, or −1.
func (c *Converter) fill(e *entry, ci, ii int32, in *engine.Input) int32 {
	if int(ci) >= len(e.counters) || int(ii) >= len(e.insts) {
		return -1 // met only now: the input changed between the readings
	}
	col := e.grid[int(ci)*len(e.insts)+int(ii)]
	if col < 0 || c.scratch.gen[col] == c.scratch.g {
		return -1
	}
	c.scratch.gen[col] = c.scratch.g
	in.HasOld = c.kept > 0 && c.last[col] == int32(c.kept-1)
	if in.HasOld {
		in.Old = c.prev[col]
	}
	var r engine.Result
	if !c.rawOnly {
		r = engine.Compute(in, 0)
	}
	c.row.Cells[col] = Cell{Present: true, Counter: in.Counter, Raw: in.New, Result: r}
	c.prev[col] = in.New
	c.last[col] = int32(c.kept)
	return col
}
