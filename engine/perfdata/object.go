package perfdata

import (
	"encoding/binary"

	"github.com/perfcalc/perfcalc/engine"
)

// Object is a decoded PERF_OBJECT_TYPE with a view of its counter
// definitions and instances. It aliases the caller's bytes and is valid while
// the input is. Its counter definitions were all checked when it was decoded;
// its instances are checked as Instances walks them.
type Object struct {
	Index  int // position among the block's objects, from 0
	Offset int // byte offset of the PERF_OBJECT_TYPE in the blob

	TotalByteLength      uint32 // PERF_OBJECT_TYPE.TotalByteLength: offset of the next object
	DefinitionLength     uint32 // PERF_OBJECT_TYPE.DefinitionLength: offset of the first instance (or of the single counter block)
	HeaderLength         uint32 // PERF_OBJECT_TYPE.HeaderLength: offset of the first counter definition
	ObjectNameTitleIndex uint32 // PERF_OBJECT_TYPE.ObjectNameTitleIndex
	ObjectHelpTitleIndex uint32 // PERF_OBJECT_TYPE.ObjectHelpTitleIndex
	DetailLevel          uint32 // PERF_OBJECT_TYPE.DetailLevel (PERF_DETAIL_*)
	NumCounters          uint32 // PERF_OBJECT_TYPE.NumCounters
	DefaultCounter       int32  // PERF_OBJECT_TYPE.DefaultCounter: 0-based, −1 = none
	NumInstances         int32  // PERF_OBJECT_TYPE.NumInstances: a count, or NoInstances, MetadataMultipleInstances, MetadataNoInstances
	CodePage             uint32 // PERF_OBJECT_TYPE.CodePage: 0 = UTF-16LE instance names
	PerfTime             int64  // PERF_OBJECT_TYPE.PerfTime: the object's own time stamp (PERF_OBJECT_TIMER)
	PerfFreq             int64  // PERF_OBJECT_TYPE.PerfFreq: the object's own frequency

	blk     blockTimes
	data    []byte      // the whole blob
	uniform bool        // every counter definition is 40 bytes long
	times   [4]timeBase // D and F of each time base, indexed by CounterType bits 20–21
}

// timeBase is a time stamp D and its frequency F.
type timeBase struct {
	d uint64
	f int64
}

// decodeObject decodes and checks the object at off, and checks its counter
// definitions; work is linear in the object's size.
func decodeObject(data []byte, off uint64, index int, blk blockTimes) (Object, error) {
	const rec = "PERF_OBJECT_TYPE"
	size := uint64(len(data))
	if off > size || size-off < ObjectTypeSize {
		return Object{}, errAt(rec, index, off, "", needBytes(ObjectTypeSize, size-min(off, size)), engine.ErrTruncated)
	}
	h := data[off : off+ObjectTypeSize]
	le := binary.LittleEndian
	o := Object{
		Index:                index,
		Offset:               int(off),
		TotalByteLength:      le.Uint32(h[0:]),
		DefinitionLength:     le.Uint32(h[4:]),
		HeaderLength:         le.Uint32(h[8:]),
		ObjectNameTitleIndex: le.Uint32(h[12:]),
		ObjectHelpTitleIndex: le.Uint32(h[20:]),
		DetailLevel:          le.Uint32(h[28:]),
		NumCounters:          le.Uint32(h[32:]),
		DefaultCounter:       int32(le.Uint32(h[36:])),
		NumInstances:         int32(le.Uint32(h[40:])),
		CodePage:             le.Uint32(h[44:]),
		PerfTime:             int64(le.Uint64(h[48:])),
		PerfFreq:             int64(le.Uint64(h[56:])),
		blk:                  blk,
		data:                 data,
	}
	o.times = [4]timeBase{
		engine.TimerTick:   {uint64(blk.perfTime), blk.perfFreq},
		engine.Timer100NS:  {uint64(blk.perfTime100nSec), engine.Frequency100NS},
		engine.ObjectTimer: {uint64(o.PerfTime), o.PerfFreq},
	}
	total, defLen, hdrLen := uint64(o.TotalByteLength), uint64(o.DefinitionLength), uint64(o.HeaderLength)
	switch {
	case total < ObjectTypeSize:
		return Object{}, errAt(rec, index, off, "TotalByteLength", u64(total)+" is below the 64-byte header", engine.ErrMalformed)
	case total > size-off:
		return Object{}, errAt(rec, index, off, "TotalByteLength", u64(total)+" exceeds the "+u64(size-off)+" bytes left in the PERF_DATA_BLOCK", engine.ErrMalformed)
	case defLen > total:
		return Object{}, errAt(rec, index, off, "DefinitionLength", u64(defLen)+" exceeds TotalByteLength "+u64(total), engine.ErrMalformed)
	case hdrLen < ObjectTypeSize:
		return Object{}, errAt(rec, index, off, "HeaderLength", u64(hdrLen)+" is below the 64-byte header", engine.ErrMalformed)
	case hdrLen > defLen:
		return Object{}, errAt(rec, index, off, "HeaderLength", u64(hdrLen)+" exceeds DefinitionLength "+u64(defLen), engine.ErrMalformed)
	}
	if n, max := uint64(o.NumCounters), (defLen-hdrLen)/CounterDefSize; n > max {
		return Object{}, errAt(rec, index, off, "NumCounters", u64(n)+" exceeds the "+u64(max)+" definitions that DefinitionLength "+u64(defLen)+" could hold", engine.ErrMalformed)
	}
	// Check every counter definition once, so that later reads need no
	// walk: linear in NumCounters, itself bounded by DefinitionLength / 40.
	o.uniform = true
	p, defEnd := off+hdrLen, off+defLen
	for i := 0; i < int(o.NumCounters); i++ {
		bl, err := checkCounterDef(data, p, defEnd, i)
		if err != nil {
			return Object{}, err
		}
		if bl != CounterDefSize {
			o.uniform = false
		}
		p += bl
	}
	switch n := o.NumInstances; {
	case n == NoInstances:
		if _, err := checkCounterBlock(data, off+defLen, off+total, 0); err != nil {
			return Object{}, err
		}
	case n > 0:
		// Each instance takes at least a 24-byte definition and a 4-byte
		// counter block.
		if max := (total - defLen) / (InstanceDefSize + CounterBlockSize); uint64(n) > max {
			return Object{}, errAt(rec, index, off, "NumInstances", i64(int64(n))+" exceeds the "+u64(max)+" instances that the "+u64(total-defLen)+" bytes after DefinitionLength could hold", engine.ErrMalformed)
		}
	case n == 0, n == MetadataMultipleInstances, n == MetadataNoInstances:
	default:
		return Object{}, errAt(rec, index, off+40, "NumInstances", i64(int64(n))+" is neither a count nor -1, -2 or -3", engine.ErrMalformed)
	}
	return o, nil
}

// end is the offset just past the object.
func (o *Object) end() uint64 { return uint64(o.Offset) + uint64(o.TotalByteLength) }

// Bytes returns the object's TotalByteLength bytes. It aliases the input.
func (o *Object) Bytes() []byte {
	if o.data == nil {
		return nil
	}
	return o.data[o.Offset:o.end()]
}

// Counters returns a cursor over the object's NumCounters counter
// definitions.
func (o *Object) Counters() CounterCursor {
	return CounterCursor{data: o.data, off: uint64(o.Offset) + uint64(o.HeaderLength), end: uint64(o.Offset) + uint64(o.DefinitionLength), n: int(o.NumCounters)}
}

// Counter returns the counter definition i (0-based). It takes constant
// time when every definition is 40 bytes long (all real data), and walks
// the definitions otherwise; to visit them all, use Counters.
func (o *Object) Counter(i int) (CounterDef, error) {
	if i < 0 || i >= int(o.NumCounters) || o.data == nil {
		return CounterDef{}, errAt("PERF_OBJECT_TYPE", o.Index, uint64(o.Offset)+32, "NumCounters", u64(uint64(o.NumCounters))+" has no counter "+i64(int64(i)), engine.ErrMalformed)
	}
	start, end := uint64(o.Offset)+uint64(o.HeaderLength), uint64(o.Offset)+uint64(o.DefinitionLength)
	if o.uniform {
		return decodeCounterDef(o.data, start+uint64(i)*CounterDefSize, end, i)
	}
	c := CounterCursor{data: o.data, off: start, end: end, n: int(o.NumCounters)}
	for c.Next() {
		if d := c.Counter(); d.Index == i {
			return *d, nil
		}
	}
	return CounterDef{}, c.Err()
}

// Instances returns a cursor over the object's instances: NumInstances of
// them when it is positive; for a PERF_NO_INSTANCES object (NumInstances
// −1), one pseudo-instance without a definition (Instance.Defined false)
// that holds the single counter block; none for 0, −2 and −3.
func (o *Object) Instances() InstanceCursor {
	c := InstanceCursor{data: o.data, off: uint64(o.Offset) + uint64(o.DefinitionLength), end: o.end(), codePage: o.CodePage, obj: o.Index, objOff: uint64(o.Offset)}
	switch n := o.NumInstances; {
	case n == NoInstances:
		c.n, c.single = 1, true
	case n > 0:
		c.n = int(n)
	}
	return c
}

// SingleCounterBlock returns the counter block of a PERF_NO_INSTANCES
// object (NumInstances −1).
func (o *Object) SingleCounterBlock() (CounterBlock, error) {
	if o.NumInstances != NoInstances || o.data == nil {
		return CounterBlock{}, errAt("PERF_OBJECT_TYPE", o.Index, uint64(o.Offset)+40, "NumInstances", i64(int64(o.NumInstances))+" is not -1 (PERF_NO_INSTANCES)", engine.ErrMalformed)
	}
	return checkCounterBlock(o.data, uint64(o.Offset)+uint64(o.DefinitionLength), o.end(), 0)
}
