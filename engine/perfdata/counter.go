package perfdata

import (
	"encoding/binary"
	"math"

	"github.com/perfcalc/perfcalc/engine"
)

// CounterDef is a decoded PERF_COUNTER_DEFINITION.
type CounterDef struct {
	Index  int // position among the object's counter definitions, from 0
	Offset int // byte offset of the definition in the blob

	ByteLength            uint32             // PERF_COUNTER_DEFINITION.ByteLength: offset of the next definition
	CounterNameTitleIndex uint32             // PERF_COUNTER_DEFINITION.CounterNameTitleIndex
	CounterHelpTitleIndex uint32             // PERF_COUNTER_DEFINITION.CounterHelpTitleIndex
	DefaultScale          int32              // PERF_COUNTER_DEFINITION.DefaultScale: a power of ten
	DetailLevel           uint32             // PERF_COUNTER_DEFINITION.DetailLevel (PERF_DETAIL_*)
	CounterType           engine.CounterType // PERF_COUNTER_DEFINITION.CounterType
	CounterSize           uint32             // PERF_COUNTER_DEFINITION.CounterSize: bytes of the raw value (4 or 8)
	CounterOffset         uint32             // PERF_COUNTER_DEFINITION.CounterOffset: from the start of the PERF_COUNTER_BLOCK
}

// checkCounterDef checks the bounds of the definition at p (which must end
// by end) and returns its ByteLength.
func checkCounterDef(data []byte, p, end uint64, index int) (uint64, error) {
	const rec = "PERF_COUNTER_DEFINITION"
	end = min(end, uint64(len(data))) // only a hand-made Object could claim more
	if p > end || end-p < CounterDefSize {
		return 0, errAt(rec, index, p, "", needBytes(CounterDefSize, end-min(p, end))+" before DefinitionLength", engine.ErrMalformed)
	}
	bl := uint64(binary.LittleEndian.Uint32(data[p:]))
	switch {
	case bl < CounterDefSize:
		return 0, errAt(rec, index, p, "ByteLength", u64(bl)+" is below the 40-byte definition", engine.ErrMalformed)
	case bl > end-p:
		return 0, errAt(rec, index, p, "ByteLength", u64(bl)+" exceeds the "+u64(end-p)+" bytes left before DefinitionLength", engine.ErrMalformed)
	}
	return bl, nil
}

// decodeCounterDef checks and decodes the definition at p.
func decodeCounterDef(data []byte, p, end uint64, index int) (CounterDef, error) {
	if _, err := checkCounterDef(data, p, end, index); err != nil {
		return CounterDef{}, err
	}
	h := data[p : p+CounterDefSize]
	le := binary.LittleEndian
	return CounterDef{
		Index:                 index,
		Offset:                int(p),
		ByteLength:            le.Uint32(h[0:]),
		CounterNameTitleIndex: le.Uint32(h[4:]),
		CounterHelpTitleIndex: le.Uint32(h[12:]),
		DefaultScale:          int32(le.Uint32(h[20:])),
		DetailLevel:           le.Uint32(h[24:]),
		CounterType:           engine.CounterType(le.Uint32(h[28:])),
		CounterSize:           le.Uint32(h[32:]),
		CounterOffset:         le.Uint32(h[36:]),
	}, nil
}

// CounterCursor walks an object's counter definitions in order, in the
// style of bufio.Scanner (see ObjectCursor). It is a value, safe to copy.
type CounterCursor struct {
	data     []byte
	off, end uint64
	i, n     int
	err      error
	cur      CounterDef
}

// Next decodes the next counter definition, which Counter then returns. It
// returns false after the last one, and at the first malformed one, which
// Err then reports; after that it returns false.
func (c *CounterCursor) Next() bool {
	if c.err != nil || c.i >= c.n {
		return false
	}
	var err error
	if c.cur, err = decodeCounterDef(c.data, c.off, c.end, c.i); err != nil {
		c.err = err
		return false
	}
	c.i++
	c.off += uint64(c.cur.ByteLength)
	return true
}

// Counter returns the current counter definition, held by the cursor: it
// is valid until the next call to Next (copy *CounterDef to keep it).
func (c *CounterCursor) Counter() *CounterDef { return &c.cur }

// Err returns the *engine.FormatError that stopped Next, or nil after the
// last definition.
func (c *CounterCursor) Err() error { return c.err }

// CounterBlock is a view of a PERF_COUNTER_BLOCK: the raw values of one
// instance (or of a PERF_NO_INSTANCES object). It aliases the caller's bytes
// and is valid while the input is.
type CounterBlock struct {
	Offset     int    // byte offset of the counter block in the blob
	ByteLength uint32 // PERF_COUNTER_BLOCK.ByteLength: the block, including this field

	b []byte // the ByteLength bytes of the block
}

// checkCounterBlock checks and returns the counter block at p, which must
// end by end.
func checkCounterBlock(data []byte, p, end uint64, index int) (CounterBlock, error) {
	const rec = "PERF_COUNTER_BLOCK"
	end = min(end, uint64(len(data)))
	if p > end || end-p < CounterBlockSize {
		return CounterBlock{}, errAt(rec, index, p, "", needBytes(CounterBlockSize, end-min(p, end))+" in the object", engine.ErrMalformed)
	}
	bl := uint64(binary.LittleEndian.Uint32(data[p:]))
	switch {
	case bl < CounterBlockSize:
		return CounterBlock{}, errAt(rec, index, p, "ByteLength", u64(bl)+" is below the 4-byte header", engine.ErrMalformed)
	case bl > end-p:
		return CounterBlock{}, errAt(rec, index, p, "ByteLength", u64(bl)+" exceeds the "+u64(end-p)+" bytes left in the object", engine.ErrMalformed)
	}
	return CounterBlock{Offset: int(p), ByteLength: uint32(bl), b: data[p : p+bl : p+bl]}, nil
}

// Bytes returns the counter block's ByteLength bytes. It aliases the input.
func (cb CounterBlock) Bytes() []byte { return cb.b }

// Value returns the raw value of the counter def in this block: CounterSize
// bytes (4 or 8, little-endian, read byte-wise so that unaligned values are
// fine) at CounterOffset. A size other than 4 or 8 is reported
// (engine.ErrUnsupported), not guessed; a value outside the block is
// malformed.
func (cb CounterBlock) Value(def *CounterDef) (uint64, error) {
	if v, ok := readValue(cb.b, uint64(def.CounterOffset), uint64(def.CounterSize)); ok {
		return v, nil
	}
	return 0, cb.defError(def)
}

// readValue reads size (4 or 8) bytes at off, when they lie in b. It
// is small enough to be inlined, and branch-free for mixed sizes: it reads
// 8 bytes and masks them to size when the block has room.
func readValue(b []byte, off, size uint64) (uint64, bool) {
	n := uint64(len(b))
	if (size-4)&^4 != 0 || off+size > n { // size is neither 4 nor 8, or past the end
		return 0, false
	}
	if off+8 <= n {
		return binary.LittleEndian.Uint64(b[off:]) & (uint64(1)<<(size*8) - 1), true
	}
	return uint64(binary.LittleEndian.Uint32(b[off:])), true // size 4 at the very end
}

func (cb CounterBlock) defError(def *CounterDef) error {
	return cb.valueError(def.Index, def.Offset, uint64(def.CounterOffset), uint64(def.CounterSize))
}

// valueError says why value failed for counter index (whose definition is
// at defOff).
func (cb CounterBlock) valueError(index, defOff int, off, size uint64) error {
	if size != 4 && size != 8 {
		return errAt("PERF_COUNTER_DEFINITION", index, uint64(defOff)+32, "CounterSize", u64(size)+" is neither 4 nor 8", engine.ErrUnsupported)
	}
	return errAt("PERF_COUNTER_BLOCK", -1, uint64(cb.Offset), "ByteLength", u64(uint64(len(cb.b)))+" cannot hold the "+u64(size)+"-byte value of counter "+i64(int64(index))+" at CounterOffset "+u64(off), engine.ErrMalformed)
}

// Fill sets in.Counter and in.New for the counter def of o, read from the
// counter block cb of one instance, as doc/COUNTER-TYPES.md's notation says:
//
//   - in.Type = CounterType, in.Scale = DefaultScale;
//   - in.TimeBase = F of the type's time base: the block's PerfFreq
//     (PERF_TIMER_TICK), 10,000,000 (PERF_TIMER_100NS), or the object's
//     PerfFreq (PERF_OBJECT_TIMER);
//   - in.New.FirstValue = N, the counter's raw value;
//   - in.New.SecondValue = B, the value of the next definition, for the
//     fraction, average and precision types (those whose CounterType.Base is
//     not PERF_COUNTER_MULTI_BASE); otherwise D, the time stamp of the time
//     base: the block's PerfTime, its PerfTime100nSec, or the object's
//     PerfTime (so an elapsed time gets N = start, D = object PerfTime,
//     F = object PerfFreq);
//   - in.New.MultiCount = B for the four multi timers: the value of the next
//     definition when it is a PERF_COUNTER_MULTI_BASE, otherwise the DWORD
//     that immediately follows the counter's value in the block (a
//     MULTI_BASE value above 2^32−1 saturates);
//   - in.New.TimeStamp = the block's PerfTime100nSec, in.New.CStatus = 0.
//
// A needed base that is missing (no next definition, a next definition
// that is not a base type, or no DWORD after a multi timer's value) sets
// in.New.CStatus to engine.CStatusInvalidData (and, for the fraction types,
// SecondValue to 0), which the engine reports as InvalidData. Like PDH,
// which takes the next definition, the fraction, average and precision
// types accept any base type there other than PERF_COUNTER_MULTI_BASE (all
// real data pairs each type with its own base). Fill leaves in.HasOld and in.Old
// alone; it allocates nothing and takes constant time.
//
// Fill returns a *engine.FormatError when a value lies outside the block or
// has a CounterSize other than 4 or 8 (a PERF_SIZE_ZERO type with
// CounterSize 0, such as PERF_COUNTER_NODATA, reads as 0 instead).
func (o *Object) Fill(in *engine.Input, def *CounterDef, cb CounterBlock) error {
	t := def.CounterType
	tb := o.times[t.TimeBase()&3] // the undefined time base 3 has D = F = 0
	var n uint64
	if def.CounterSize != 0 || t&sizeBits != sizeZero { // PERF_SIZE_ZERO with CounterSize 0: nothing to read
		var ok bool
		if n, ok = readValue(cb.b, uint64(def.CounterOffset), uint64(def.CounterSize)); !ok {
			return cb.defError(def)
		}
	}
	in.Counter = engine.Counter{Type: t, Scale: def.DefaultScale, TimeBase: tb.f}
	in.New = engine.RawCounter{TimeStamp: o.blk.perfTime100nSec, FirstValue: n, SecondValue: tb.d}
	// Only multi timers and the fraction and precision subtypes can need a
	// base; skip the type lookup for the others.
	if t&multiBit == 0 && (t&typeBits != typeCounter || (t&subtypeBits != subtypeFraction && t&subtypeBits != subtypePrecision)) {
		return nil
	}
	base, needs := t.Base()
	if !needs {
		return nil
	}
	nt, nsize, noff, ok := o.peekNext(def)
	if base == engine.CounterMultiBase {
		if ok && nt == engine.CounterMultiBase {
			b, ok := readValue(cb.b, uint64(noff), uint64(nsize))
			if !ok {
				return cb.valueError(def.Index+1, def.Offset+int(def.ByteLength), uint64(noff), uint64(nsize))
			}
			in.New.MultiCount = uint32(min(b, math.MaxUint32))
			return nil
		}
		off := uint64(def.CounterOffset) + uint64(def.CounterSize)
		if off > uint64(len(cb.b)) || uint64(len(cb.b))-off < 4 {
			in.New.CStatus = engine.CStatusInvalidData
			return nil
		}
		in.New.MultiCount = binary.LittleEndian.Uint32(cb.b[off:])
		return nil
	}
	if !ok || !nt.IsBase() || nt == engine.CounterMultiBase {
		in.New.SecondValue = 0
		in.New.CStatus = engine.CStatusInvalidData
		return nil
	}
	b, ok := readValue(cb.b, uint64(noff), uint64(nsize))
	if !ok {
		return cb.valueError(def.Index+1, def.Offset+int(def.ByteLength), uint64(noff), uint64(nsize))
	}
	in.New.SecondValue = b
	return nil
}

// Bit fields of a counter type that Fill tests (winperf.h).
const (
	sizeBits          = 0x00000300
	sizeZero          = 0x00000200
	typeBits          = 0x00000C00
	typeCounter       = 0x00000400
	subtypeBits       = 0x000F0000
	subtypeFraction   = 0x00020000
	subtypePrecision  = 0x00070000
	multiBit          = 0x02000000
	counterTypeOffset = 28
)

// peekNext reads the type, size and offset of the definition after def,
// if o has one.
func (o *Object) peekNext(def *CounterDef) (t engine.CounterType, size, off uint32, ok bool) {
	if def.Index+1 >= int(o.NumCounters) || def.Index < 0 {
		return 0, 0, 0, false
	}
	p := uint64(def.Offset) + uint64(def.ByteLength)
	end := uint64(o.Offset) + uint64(o.DefinitionLength)
	if uint64(def.Offset) < uint64(o.Offset) || end > uint64(len(o.data)) || p > end || end-p < CounterDefSize {
		return 0, 0, 0, false
	}
	h := o.data[p+counterTypeOffset : p+CounterDefSize]
	le := binary.LittleEndian
	return engine.CounterType(le.Uint32(h)), le.Uint32(h[4:]), le.Uint32(h[8:]), true
}
