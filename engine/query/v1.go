package query

import (
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
)

// v1State is the scratch of V1 queries, reused from one Run to the next.
type v1State struct {
	newObjs, oldObjs []perfdata.Object
	partner          []int  // per newer object: its older object
	used             []bool // per older object: paired
	byTitle          map[uint32]int
	next             []int // per older object: the next older object of the same title index, or -1
	defs, odefs      []perfdata.CounterDef
	cnames           []string
	newCBs, oldCBs   []perfdata.CounterBlock
	newNames         []instName
	oldNames         []instName
	nmNew, nmOld     v1Namer
	machine, omach   []byte
	machineStr       string // machine as a string, kept from run to run
	omachStr         string // omach as a string, likewise
}

// v1Name returns the name of a V1 title index: its text in Config.Names, or
// "#<index>".
func (q *Query) v1Name(index uint32) string {
	if s, ok := q.names[index]; ok {
		return s
	}
	if q.names == nil {
		q.names = make(map[uint32]string)
	}
	var s string
	if t, ok := q.lookupTable(index); ok {
		q.nameBuf = t.AppendUTF8(q.nameBuf[:0])
		s = string(q.nameBuf)
	} else {
		s = "#" + strconv.FormatUint(uint64(index), 10)
	}
	q.names[index] = s
	return s
}

func (q *Query) lookupTable(index uint32) (nametable.Text, bool) {
	if q.cfg.Names == nil {
		return nil, false
	}
	t, ok := q.cfg.Names.Lookup(index)
	return t, ok
}

func (q *Query) runV1(dst []Value, older, newer []byte) ([]Value, error) {
	n0 := len(dst)
	dst, err := q.v1Pass(dst, older, newer)
	if err != nil {
		return dst[:n0], err
	}
	return dst, nil
}

func (q *Query) v1Pass(dst []Value, older, newer []byte) ([]Value, error) {
	s := &q.v1
	nb, err := perfdata.Parse(newer)
	if err != nil {
		return dst, err
	}
	hasOld := older != nil
	var ob perfdata.Block
	s.machine = nb.AppendSystemName(s.machine[:0])
	if string(s.machine) != s.machineStr {
		s.machineStr = string(s.machine)
	}
	machine := s.machineStr
	if hasOld {
		if ob, err = perfdata.Parse(older); err != nil {
			return dst, err
		}
		s.omach = ob.AppendSystemName(s.omach[:0])
		if string(s.omach) != s.omachStr {
			s.omachStr = string(s.omach)
		}
		if !strings.EqualFold(machine, s.omachStr) {
			return dst, &MismatchError{What: "machine", Older: s.omachStr, Newer: machine}
		}
	}

	if s.newObjs, err = appendObjects(s.newObjs[:0], &nb); err != nil {
		return dst, err
	}
	s.nmNew.reset(s.newObjs)
	if hasOld {
		if s.oldObjs, err = appendObjects(s.oldObjs[:0], &ob); err != nil {
			return dst, err
		}
		if err := q.pairObjects(); err != nil {
			return dst, err
		}
		s.nmOld.reset(s.oldObjs)
	}

	var in engine.Input
	var prev engine.Input
	for oi := range s.newObjs {
		o := &s.newObjs[oi]
		var oo *perfdata.Object
		if hasOld {
			oo = &s.oldObjs[s.partner[oi]]
		}
		objName := q.v1Name(o.ObjectNameTitleIndex)
		if s.defs, err = appendDefs(s.defs[:0], o); err != nil {
			return dst, err
		}
		if oo != nil {
			if s.odefs, err = appendDefs(s.odefs[:0], oo); err != nil {
				return dst, err
			}
			if !sameDefs(s.defs, s.odefs) {
				return dst, &MismatchError{What: "counters of object", Older: objName, Newer: objName}
			}
		}
		if !q.selectObject(machine, objName) {
			continue
		}
		if o.NumInstances < perfdata.NoInstances {
			continue // metadata only: no values
		}
		nc := len(s.defs)
		s.cnames = grow(s.cnames, nc)
		for c := range s.defs {
			s.cnames[c] = ""
			if !s.defs[c].CounterType.IsBase() {
				s.cnames[c] = q.v1Name(s.defs[c].CounterNameTitleIndex)
			}
		}
		if len(q.cfg.Paths) > 0 {
			q.selectCounters(nc, func(c int) string { return s.cnames[c] })
		}

		s.newNames, s.newCBs, err = s.nmNew.names(q, o, s.newNames[:0], s.newCBs[:0])
		if err != nil {
			return dst, err
		}
		names := s.newNames
		ni := len(names)
		hasInst := o.NumInstances != perfdata.NoInstances
		if len(q.cfg.Paths) > 0 {
			q.selectInstances(ni, hasInst, func(i int) (string, string, int) {
				return names[i].parent, names[i].name, names[i].occurrence
			})
		}

		// Pair the instances by full name.
		q.keys = q.keys[:0]
		q.newKeys = q.newKeys[:0]
		for i := range ni {
			q.newKeys = append(q.newKeys, q.appendKey(names[i].parent, names[i].name, names[i].occurrence, i))
		}
		if oo != nil {
			s.oldNames, s.oldCBs, err = s.nmOld.names(q, oo, s.oldNames[:0], s.oldCBs[:0])
			if err != nil {
				return dst, err
			}
			q.oldKeys = q.oldKeys[:0]
			for i, n := range s.oldNames {
				q.oldKeys = append(q.oldKeys, q.appendKey(n.parent, n.name, n.occurrence, i))
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
			for c := range s.defs {
				d := &s.defs[c]
				if d.CounterType.IsBase() || !q.selected(c, nc, i, ni) {
					continue
				}
				if err := o.Fill(&in, d, s.newCBs[i]); err != nil {
					return dst, err
				}
				in.HasOld = j >= 0
				if in.HasOld {
					if err := oo.Fill(&prev, &s.odefs[c], s.oldCBs[j]); err != nil {
						return dst, err
					}
					in.Old = prev.New
				}
				r := engine.Compute(&in, q.cfg.Options)
				p := counterpath.Path{Machine: machine, Object: objName, HasInstance: hasInst,
					Parent: names[i].parent, Instance: names[i].name, Index: names[i].occurrence,
					Counter: s.cnames[c]}
				dst = append(dst, Value{
					Path: q.appendPath(&p), Type: d.CounterType, Scale: d.DefaultScale,
					DetailLevel: d.DetailLevel, Value: r.Value, Status: r.Status, HasOld: in.HasOld,
				})
			}
		}
	}
	return dst, nil
}

// pairObjects pairs each newer object with the older object of the same
// title index (the k-th of an index with the k-th), and reports the objects
// that only one capture has.
func (q *Query) pairObjects() error {
	s := &q.v1
	s.partner = grow(s.partner, len(s.newObjs))
	s.used = grow(s.used, len(s.oldObjs))
	clear(s.used)
	// byTitle: the first unpaired older object of each title index; next
	// chains the later ones, so that pairing takes linear time.
	if s.byTitle == nil {
		s.byTitle = make(map[uint32]int)
	} else {
		clear(s.byTitle)
	}
	s.next = grow(s.next, len(s.oldObjs))
	for j := len(s.oldObjs) - 1; j >= 0; j-- {
		t := s.oldObjs[j].ObjectNameTitleIndex
		s.next[j] = -1
		if k, ok := s.byTitle[t]; ok {
			s.next[j] = k
		}
		s.byTitle[t] = j
	}
	for i := range s.newObjs {
		t := s.newObjs[i].ObjectNameTitleIndex
		j, ok := s.byTitle[t]
		if !ok || j < 0 {
			return &MismatchError{What: "object", Newer: q.v1Name(t)}
		}
		s.partner[i], s.used[j] = j, true
		s.byTitle[t] = s.next[j]
	}
	for j, u := range s.used {
		if !u {
			return &MismatchError{What: "object", Older: q.v1Name(s.oldObjs[j].ObjectNameTitleIndex)}
		}
	}
	return nil
}

// appendObjects appends the objects of blk to dst.
func appendObjects(dst []perfdata.Object, blk *perfdata.Block) ([]perfdata.Object, error) {
	c := blk.Objects()
	for {
		o, err := c.Next()
		if err == perfdata.ErrDone {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
		dst = append(dst, o)
	}
}

// appendDefs appends the counter definitions of o to dst.
func appendDefs(dst []perfdata.CounterDef, o *perfdata.Object) ([]perfdata.CounterDef, error) {
	c := o.Counters()
	for {
		d, err := c.Next()
		if err == perfdata.ErrDone {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
		dst = append(dst, d)
	}
}

// appendBlocks appends the counter blocks of o's instances to dst.
func appendBlocks(dst []perfdata.CounterBlock, o *perfdata.Object) ([]perfdata.CounterBlock, error) {
	c := o.Instances()
	for {
		in, err := c.Next()
		if err == perfdata.ErrDone {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
		dst = append(dst, in.CounterBlock)
	}
}

// sameDefs reports whether two objects define the same counters: the same
// number, and each with the same name index and type.
func sameDefs(a, b []perfdata.CounterDef) bool {
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
