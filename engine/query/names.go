package query

import (
	"strconv"

	"github.com/perfcalc/perfcalc/engine/internal/fold"
	"github.com/perfcalc/perfcalc/engine/perfdata"
)

// instName is the PDH name of an instance, `parent/name#occurrence`.
type instName struct {
	parent, name string
	occurrence   int
}

// v1Namer names the instances of a V1 block as perfdata.Namer does, with
// strings interned in the Query so that a steady stream of captures
// allocates nothing: an instance's own name (or its UniqueID in decimal
// when it has no name), its parent's own name found through
// ParentObjectTitleIndex (the first object of the block with that index)
// and ParentObjectInstance, and the occurrence of its full name among the
// object's instances, compared case-insensitively.
type v1Namer struct {
	objs    []perfdata.Object // the block's objects
	first   map[uint32]int    // the first object of each title index
	parents [][]string        // per object: its instances' own names, once computed
	loaded  []bool
	counts  map[string]int
	buf     []byte
}

// reset starts naming the instances of a block whose objects are objs.
func (n *v1Namer) reset(objs []perfdata.Object) {
	n.objs = objs
	n.parents = grow(n.parents, len(objs))
	n.loaded = grow(n.loaded, len(objs))
	clear(n.loaded)
	if n.first == nil {
		n.first = make(map[uint32]int)
	} else {
		clear(n.first)
	}
	for i := len(objs) - 1; i >= 0; i-- {
		n.first[objs[i].ObjectNameTitleIndex] = i
	}
}

// ownName appends the name PDH uses for the instance: its own name or,
// for an unnamed instance with a UniqueID, that id in decimal.
func ownName(dst []byte, in *perfdata.Instance) ([]byte, error) {
	if in.NameLength == 0 && in.Defined && in.UniqueID != perfdata.NoUniqueID {
		return strconv.AppendInt(dst, int64(in.UniqueID), 10), nil
	}
	return in.AppendName(dst)
}

// parent returns the own name of instance inst of the first object with
// title index title, or false.
func (n *v1Namer) parent(q *Query, title, inst uint32) (string, bool, error) {
	if i, ok := n.first[title]; ok {
		o := &n.objs[i]
		if !n.loaded[i] {
			n.loaded[i] = true
			names := n.parents[i][:0]
			if o.NumInstances > 0 {
				c := o.Instances()
				for {
					in, err := c.Next()
					if err == perfdata.ErrDone {
						break
					}
					if err != nil {
						return "", false, err
					}
					if n.buf, err = ownName(n.buf[:0], &in); err != nil {
						return "", false, err
					}
					names = append(names, q.internBytes(n.buf))
				}
			}
			n.parents[i] = names
		}
		if uint64(inst) >= uint64(len(n.parents[i])) {
			return "", false, nil
		}
		return n.parents[i][inst], true, nil
	}
	return "", false, nil
}

// names appends the PDH names of o's instances to dst, and their counter
// blocks to cbs.
func (n *v1Namer) names(q *Query, o *perfdata.Object, dst []instName, cbs []perfdata.CounterBlock) ([]instName, []perfdata.CounterBlock, error) {
	if n.counts == nil {
		n.counts = make(map[string]int)
	} else {
		clear(n.counts)
	}
	c := o.Instances()
	for {
		in, err := c.Next()
		if err == perfdata.ErrDone {
			return dst, cbs, nil
		}
		if err != nil {
			return dst, cbs, err
		}
		if n.buf, err = ownName(n.buf[:0], &in); err != nil {
			return dst, cbs, err
		}
		nm := instName{name: q.internBytes(n.buf)}
		if in.ParentObjectTitleIndex != 0 {
			if nm.parent, _, err = n.parent(q, in.ParentObjectTitleIndex, in.ParentObjectInstance); err != nil {
				return dst, cbs, err
			}
		}
		n.buf = fold.Append(n.buf[:0], nm.parent)
		if nm.parent != "" {
			n.buf = append(n.buf, '/')
		}
		n.buf = fold.Append(n.buf, nm.name)
		key := q.internBytes(n.buf)
		nm.occurrence = n.counts[key]
		n.counts[key] = nm.occurrence + 1
		dst = append(dst, nm)
		cbs = append(cbs, in.CounterBlock)
	}
}
