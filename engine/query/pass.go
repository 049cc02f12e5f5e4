package query

import (
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
)

// run computes every selected counter between the captures older (nil: a
// first sample) and newer, both V1 or both V2 (q.nw.v2), in one pass over
// the newer capture's objects: each is paired with its object in the older
// capture (V1: the object of the same title index, the k-th with the k-th;
// V2: the block at the same position), checked to define the same counters,
// selected, and its instances are paired by full name.
func (q *Query) run(dst []Value, older, newer []byte) ([]Value, error) {
	nw, old := &q.nw, &q.old
	if err := nw.open(q, newer); err != nil {
		return dst, err
	}
	hasOld := older != nil
	if hasOld {
		if err := old.open(q, older); err != nil {
			return dst, err
		}
	}
	// sel says whether the current object is selected. One that is not is
	// read all the same, its values included, without computing them: a
	// capture is as valid (or malformed) whatever the selection.
	var object, machine string
	sel := true
	if nw.v2 {
		if hasOld && len(old.blocks) != len(nw.blocks) {
			return dst, &MismatchError{What: "number of blocks",
				Older: strconv.Itoa(len(old.blocks)), Newer: strconv.Itoa(len(nw.blocks))}
		}
		reg := q.cfg.RegInfo
		if q.setName == "" || q.setReg != reg {
			q.setName, q.setReg = q.cfg.CounterSet, reg
			if q.setName == "" {
				q.setName = perflibv2.GUID(reg.Header.CounterSetGUID).String()
			}
		}
		object = q.setName
		sel = q.selectObject("", object)
		// Index both captures to pair each value in O(log n).
		if err := nw.idx.Reset(newer, reg, q.cfg.IDs); err != nil {
			return dst, err
		}
		if hasOld {
			if err := old.idx.Reset(older, reg, q.cfg.IDs); err != nil {
				return dst, err
			}
		}
	} else {
		machine = nw.machineStr
		if hasOld {
			if !strings.EqualFold(machine, old.machineStr) {
				return dst, &MismatchError{What: "machine", Older: old.machineStr, Newer: machine}
			}
			if err := q.pairObjects(); err != nil {
				return dst, err
			}
		}
	}

	var in, prev engine.Input
	for oi := range nw.len() {
		oo := -1 // the older object
		if hasOld {
			oo = oi
			if !nw.v2 {
				oo = q.partner[oi]
			}
		}
		named, err := nw.counters(q, oi)
		if err != nil {
			return dst, err
		}
		if !named {
			q.unnamed++
			continue
		}
		if !nw.v2 {
			object = q.v1Name(nw.objs[oi].ObjectNameTitleIndex)
		}
		if oo >= 0 {
			if _, err := old.counters(q, oo); err != nil {
				return dst, err
			}
			if !nw.sameCounters(old, oi, oo) {
				if nw.v2 {
					return dst, &MismatchError{What: "block", Older: blockText(&old.blocks[oo]), Newer: blockText(&nw.blocks[oi])}
				}
				return dst, &MismatchError{What: "counters of object", Older: object, Newer: object}
			}
			if nw.v2 {
				// V2 values pair by counter id: the older block (which may
				// be a PERF_ERROR_RETURN) is read with the newer's ids.
				old.ids = append(old.ids[:0], nw.ids...)
			}
		}
		if !nw.v2 {
			if nw.objs[oi].NumInstances < perfdata.NoInstances {
				continue // metadata only: no values
			}
			sel = q.selectObject(machine, object)
		}

		nc := nw.numCounters()
		q.cnames = grow(q.cnames, nc)
		q.skip = grow(q.skip, nc)
		for k := range nc {
			q.cnames[k], q.skip[k] = nw.counterName(q, k)
		}
		if sel && len(q.cfg.Paths) > 0 {
			q.selectCounters(nc, q.cnames)
		}
		if err := nw.instances(q, oi); err != nil {
			return dst, err
		}
		hasInst := nw.hasInstances(oi)
		byID, oldRead := false, false
		if q.cfg.Identity == identity.PID {
			if byID, err = q.identify(nw, oi, object, hasInst); err != nil {
				return dst, err
			}
			if byID && oo >= 0 {
				if err := old.instances(q, oo); err != nil {
					return dst, err
				}
				oldRead = true
				if ok, err := q.identify(old, oo, object, hasInst); err != nil || !ok {
					return dst, err
				}
				q.countBreaks()
				q.recall(old, object)
				q.apart(old, object, nil)
			}
			if byID {
				q.recall(nw, object)
				q.apart(nw, object, nil)
			}
		}
		insts := nw.insts
		ni := len(insts)
		// Pair the instances by full name.
		q.keys = q.keys[:0]
		q.newKeys = q.appendKeys(q.newKeys[:0], insts)
		if oo >= 0 {
			if !oldRead {
				if err := old.instances(q, oo); err != nil {
					return dst, err
				}
			}
			q.oldKeys = q.appendKeys(q.oldKeys[:0], old.insts)
			q.matchInstances()
			if byID {
				q.unpairReused()
				q.apart(nw, object, q.pair[:ni])
			}
		} else {
			q.pair = grow(q.pair, ni)
			for i := range q.pair {
				q.pair[i] = -1
			}
		}
		if byID {
			q.remember(nw)
		}
		if sel && len(q.cfg.Paths) > 0 {
			q.selectInstances(insts, hasInst) // after unpairReused's numbers
		}

		for i := range ni {
			j := q.pair[i]
			n := &insts[i]
			for k := range nc {
				if q.skip[k] {
					continue
				}
				keep := sel && q.selected(k, nc, i, ni)
				ok, err := nw.fill(&in, oi, i, k)
				if err != nil {
					return dst, err
				}
				if !ok {
					continue
				}
				in.HasOld = false
				if j >= 0 {
					ok, err := old.fill(&prev, oo, j, k)
					if err != nil {
						return dst, err
					}
					if ok {
						in.Old, in.HasOld = prev.New, true
					}
				}
				if !keep {
					continue
				}
				r := engine.Compute(&in, q.cfg.Options)
				typ, scale, detail := nw.definition(k)
				p := counterpath.Path{Machine: machine, Object: object, HasInstance: hasInst,
					Parent: n.parent, Instance: n.name, Index: n.occurrence, Counter: q.cnames[k]}
				dst = append(dst, Value{
					Path: q.appendPath(&p), Parts: p, Type: typ, Scale: scale,
					DetailLevel: detail, Value: r.Value, Status: r.Status, HasOld: in.HasOld, Raw: in.New,
				})
			}
		}
	}
	q.reused, q.nextReused = q.nextReused, q.reused[:0]
	return dst, nil
}

// hasInstances reports whether object o has instances (a V1 object that is
// not PERF_NO_INSTANCES, a V2 block with instance rows).
func (c *capture) hasInstances(o int) bool {
	if c.v2 {
		return c.blocks[o].HasInstances()
	}
	return c.objs[o].NumInstances != perfdata.NoInstances
}

// appendKeys appends the keys of insts to dst.
func (q *Query) appendKeys(dst []span, insts []instName) []span {
	for i := range insts {
		n := &insts[i]
		dst = append(dst, q.appendKey(n.parent, n.name, n.occurrence, i))
	}
	return dst
}

// pairObjects pairs each newer V1 object with the older object of the same
// title index (the k-th of an index with the k-th), and reports the objects
// that only one capture has.
func (q *Query) pairObjects() error {
	nw, old := q.nw.objs, q.old.objs
	q.partner = grow(q.partner, len(nw))
	q.used = grow(q.used, len(old))
	clear(q.used)
	// byTitle: the first unpaired older object of each title index; next
	// chains the later ones, so that pairing takes linear time.
	if q.byTitle == nil {
		q.byTitle = make(map[uint32]int)
	} else {
		clear(q.byTitle)
	}
	q.next = grow(q.next, len(old))
	for j := len(old) - 1; j >= 0; j-- {
		t := old[j].ObjectNameTitleIndex
		q.next[j] = -1
		if k, ok := q.byTitle[t]; ok {
			q.next[j] = k
		}
		q.byTitle[t] = j
	}
	for i := range nw {
		t := nw[i].ObjectNameTitleIndex
		j, ok := q.byTitle[t]
		if !ok || j < 0 {
			return &MismatchError{What: "object", Newer: q.v1Name(t)}
		}
		q.partner[i], q.used[j] = j, true
		q.byTitle[t] = q.next[j]
	}
	for j, u := range q.used {
		if !u {
			return &MismatchError{What: "object", Older: q.v1Name(old[j].ObjectNameTitleIndex)}
		}
	}
	return nil
}
