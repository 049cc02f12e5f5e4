package perfdata

import (
	"strconv"

	"github.com/perfcalc/perfcalc/engine/internal/fold"
	"github.com/perfcalc/perfcalc/engine/internal/text"
)

// InstanceName is the name PDH gives an instance in a counter path,
// `parent/name#occurrence`, split into its parts.
type InstanceName struct {
	_ [0]func() // not comparable: no equality function in the module
	// Parent is the name of the parent instance (without its own #n), or ""
	// when the instance has no parent or the parent cannot be resolved.
	Parent string
	// Name is the instance's own name.
	Name string
	// Occurrence is the 0-based rank of this instance among the instances
	// of the object with the same full name (parent/name, compared
	// case-insensitively), in order of appearance. 0 is never written.
	Occurrence int
	// ParentMissing is true when ParentObjectTitleIndex is not 0 but the
	// parent object is not in the blob, is not multi-instance, or has no
	// instance ParentObjectInstance. The name is then written without a
	// parent.
	ParentMissing bool
}

// AppendTo appends the full instance name, `parent/name#n` (the parent part
// only when there is a parent, the #n part only when n > 0), to dst.
func (n InstanceName) AppendTo(dst []byte) []byte {
	if n.Parent != "" {
		dst = append(dst, n.Parent...)
		dst = append(dst, '/')
	}
	dst = append(dst, n.Name...)
	if n.Occurrence > 0 {
		dst = append(dst, '#')
		dst = strconv.AppendInt(dst, int64(n.Occurrence), 10)
	}
	return dst
}

// String returns the full instance name (see AppendTo).
func (n InstanceName) String() string { return string(n.AppendTo(nil)) }

// Namer computes PDH instance names. Its zero value is ready to use; reuse
// one Namer for the objects of a block so that its maps and slices are
// reused and parent objects are decoded once. Names are interned: a Namer
// that names the same instances again (a stream of captures) allocates
// nothing.
//
// The Namer remembers the parent objects of the last block it resolved
// parents in, recognised by the blob's address, length and 88-byte header
// (whose time stamps change with every sample). Call Reset after rewriting
// a buffer in place with a blob whose header is byte-for-byte the same.
type Namer struct {
	names   []InstanceName
	counts  map[string]int
	key     []byte
	buf     []byte
	intern  text.Interner
	block   []byte              // the blob the caches below describe
	header  [DataBlockSize]byte // and a copy of its header, to notice a reused buffer
	objects map[uint32]Object   // first object of each title index
	parents map[int][]string    // instance names of a parent object, by offset
	walkErr error
}

// Reset forgets the remembered parent objects.
func (nm *Namer) Reset() {
	nm.block, nm.objects, nm.parents, nm.walkErr = nil, nil, nil, nil
}

// Names returns the PDH names of obj's instances, in order, computed in
// time linear in the object's size (and, once per block, the size of the
// parent objects). The slice is valid until the next call on the Namer.
//
// Parents are resolved through ParentObjectTitleIndex (the first object of
// blk with that ObjectNameTitleIndex) and ParentObjectInstance (the 0-based
// instance of that object); when that fails the name has no parent and
// ParentMissing is set. Duplicates are found case-insensitively (simple
// Unicode case folding) on the full name parent/name. A PERF_NO_INSTANCES
// object has one instance named "". Errors are those of decoding obj's
// instances, the parent objects or the names' code pages.
func (nm *Namer) Names(blk *Block, obj *Object) ([]InstanceName, error) {
	nm.names = nm.names[:0]
	if nm.counts == nil {
		nm.counts = make(map[string]int)
	} else {
		clear(nm.counts)
	}
	c := obj.Instances()
	for c.Next() {
		in := c.Instance()
		var err error
		nm.buf, err = appendPDHName(nm.buf[:0], in)
		if err != nil {
			return nil, err
		}
		n := InstanceName{Name: nm.intern.String(nm.buf)}
		if in.ParentObjectTitleIndex != 0 {
			parent, ok, err := nm.parent(blk, in.ParentObjectTitleIndex, in.ParentObjectInstance)
			if err != nil {
				return nil, err
			}
			n.Parent, n.ParentMissing = parent, !ok
		}
		nm.key = fold.Append(nm.key[:0], n.Parent)
		if n.Parent != "" {
			nm.key = append(nm.key, '/')
		}
		nm.key = fold.Append(nm.key, n.Name)
		key := nm.intern.String(nm.key)
		n.Occurrence = nm.counts[key]
		nm.counts[key] = n.Occurrence + 1
		nm.names = append(nm.names, n)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return nm.names, nil
}

// parent returns the name of instance inst of the first object with title
// index title.
func (nm *Namer) parent(blk *Block, title, inst uint32) (string, bool, error) {
	d := blk.Bytes()
	if len(nm.block) != len(d) || len(d) < DataBlockSize || &nm.block[0] != &d[0] || string(nm.header[:]) != string(d[:DataBlockSize]) {
		nm.block = d
		copy(nm.header[:], d)
		if nm.objects == nil {
			nm.objects, nm.parents = make(map[uint32]Object), make(map[int][]string)
		}
		clear(nm.objects)
		clear(nm.parents)
		nm.walkErr = nil
		c := blk.Objects()
		for c.Next() {
			o := c.Object()
			if _, dup := nm.objects[o.ObjectNameTitleIndex]; !dup {
				nm.objects[o.ObjectNameTitleIndex] = *o
			}
		}
		nm.walkErr = c.Err()
	}
	po, ok := nm.objects[title]
	if !ok {
		return "", false, nm.walkErr
	}
	names, ok := nm.parents[po.Offset]
	if !ok {
		if po.NumInstances > 0 {
			// Grown by append, not sized by the untrusted NumInstances.
			c := po.Instances()
			buf := nm.buf[:0]
			for c.Next() {
				var err error
				if buf, err = appendPDHName(buf[:0], c.Instance()); err != nil {
					return "", false, err
				}
				names = append(names, nm.intern.String(buf))
			}
			if err := c.Err(); err != nil {
				return "", false, err
			}
		}
		nm.parents[po.Offset] = names
	}
	if uint64(inst) >= uint64(len(names)) {
		return "", false, nil
	}
	return names[inst], true, nil
}

// appendPDHName appends the name PDH uses for the instance: its own name,
// or, for an unnamed instance (NameLength 0) with a UniqueID other than
// PERF_NO_UNIQUE_ID, that id in decimal.
func appendPDHName(dst []byte, in *Instance) ([]byte, error) {
	if in.NameLength == 0 && in.Defined && in.UniqueID != NoUniqueID {
		return strconv.AppendInt(dst, int64(in.UniqueID), 10), nil
	}
	return in.AppendName(dst)
}
