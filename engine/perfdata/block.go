package perfdata

import (
	"encoding/binary"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// Sizes of the fixed parts of the V1 records (winperf.h; identical on 32-
// and 64-bit Windows, see doc/FORMATS.md §1.1).
const (
	DataBlockSize    = 88 // sizeof(PERF_DATA_BLOCK)
	ObjectTypeSize   = 64 // sizeof(PERF_OBJECT_TYPE)
	CounterDefSize   = 40 // sizeof(PERF_COUNTER_DEFINITION)
	InstanceDefSize  = 24 // sizeof(PERF_INSTANCE_DEFINITION)
	CounterBlockSize = 4  // sizeof(PERF_COUNTER_BLOCK)
)

// Values of PERF_OBJECT_TYPE.NumInstances that are not counts (winperf.h).
const (
	NoInstances               = -1 // PERF_NO_INSTANCES: one unnamed instance, a single PERF_COUNTER_BLOCK follows
	MetadataMultipleInstances = -2 // PERF_METADATA_MULTIPLE_INSTANCES: metadata only, nothing follows
	MetadataNoInstances       = -3 // PERF_METADATA_NO_INSTANCES: metadata only, nothing follows
)

// NoUniqueID is PERF_NO_UNIQUE_ID, the UniqueID of instances known by name.
const NoUniqueID = -1

// Block is a decoded PERF_DATA_BLOCK: the header fields, and a view of the
// blob from which its objects are read. It aliases the caller's bytes and is
// valid while the input is (the caller must not modify it meanwhile).
type Block struct {
	LittleEndian     uint32             // PERF_DATA_BLOCK.LittleEndian (always 1: other values are rejected)
	Version          uint32             // PERF_DATA_BLOCK.Version (PERF_DATA_VERSION = 1)
	Revision         uint32             // PERF_DATA_BLOCK.Revision (PERF_DATA_REVISION = 1)
	TotalByteLength  uint32             // PERF_DATA_BLOCK.TotalByteLength: the whole blob
	HeaderLength     uint32             // PERF_DATA_BLOCK.HeaderLength: offset of the first PERF_OBJECT_TYPE
	NumObjectTypes   uint32             // PERF_DATA_BLOCK.NumObjectTypes
	DefaultObject    int32              // PERF_DATA_BLOCK.DefaultObject
	SystemTime       wintype.SystemTime // PERF_DATA_BLOCK.SystemTime (documented as UTC, local time in real data)
	PerfTime         int64              // PERF_DATA_BLOCK.PerfTime: QueryPerformanceCounter ticks
	PerfFreq         int64              // PERF_DATA_BLOCK.PerfFreq: ticks per second
	PerfTime100nSec  int64              // PERF_DATA_BLOCK.PerfTime100nSec: 100 ns units since 1601 (UTC)
	SystemNameLength uint32             // PERF_DATA_BLOCK.SystemNameLength: bytes, including the NUL
	SystemNameOffset uint32             // PERF_DATA_BLOCK.SystemNameOffset: from the start of the block

	data []byte // the blob, cut to TotalByteLength
}

// IsV1 reports whether data begins with the signature of a V1
// PERF_DATA_BLOCK, "PERF" in UTF-16LE: how perfcalc recognises a V1 capture
// (Parse checks the rest).
func IsV1(data []byte) bool {
	return len(data) >= 8 && string(data[:8]) == "P\x00E\x00R\x00F\x00"
}

// Parse decodes the PERF_DATA_BLOCK at the start of data and checks every
// field of the header against the input. Bytes after TotalByteLength are
// ignored. The objects are decoded as Objects walks them.
func Parse(data []byte) (Block, error) {
	var b Block
	if len(data) < DataBlockSize {
		return b, errAt("PERF_DATA_BLOCK", -1, 0, "", needBytes(DataBlockSize, uint64(len(data))), engine.ErrTruncated)
	}
	if !IsV1(data) {
		return b, errAt("PERF_DATA_BLOCK", -1, 0, "Signature", "is not \"PERF\" in UTF-16LE", engine.ErrMalformed)
	}
	le := binary.LittleEndian
	b.LittleEndian = le.Uint32(data[8:])
	b.Version = le.Uint32(data[12:])
	b.Revision = le.Uint32(data[16:])
	b.TotalByteLength = le.Uint32(data[20:])
	b.HeaderLength = le.Uint32(data[24:])
	b.NumObjectTypes = le.Uint32(data[28:])
	b.DefaultObject = int32(le.Uint32(data[32:]))
	b.SystemTime = wintype.ParseSystemTime(data[36:52])
	b.PerfTime = int64(le.Uint64(data[56:]))
	b.PerfFreq = int64(le.Uint64(data[64:]))
	b.PerfTime100nSec = int64(le.Uint64(data[72:]))
	b.SystemNameLength = le.Uint32(data[80:])
	b.SystemNameOffset = le.Uint32(data[84:])

	if b.LittleEndian != 1 {
		return Block{}, errAt("PERF_DATA_BLOCK", -1, 8, "LittleEndian", u64(uint64(b.LittleEndian))+" is not 1 (big-endian data is not supported)", engine.ErrUnsupported)
	}
	total := uint64(b.TotalByteLength)
	switch {
	case total < DataBlockSize:
		return Block{}, errAt("PERF_DATA_BLOCK", -1, 20, "TotalByteLength", u64(total)+" is below the 88-byte header", engine.ErrMalformed)
	case total > uint64(len(data)):
		return Block{}, errAt("PERF_DATA_BLOCK", -1, 20, "TotalByteLength", u64(total)+" exceeds the input's "+u64(uint64(len(data)))+" bytes", engine.ErrTruncated)
	}
	hl := uint64(b.HeaderLength)
	switch {
	case hl < DataBlockSize:
		return Block{}, errAt("PERF_DATA_BLOCK", -1, 24, "HeaderLength", u64(hl)+" is below the 88-byte header", engine.ErrMalformed)
	case hl > total:
		return Block{}, errAt("PERF_DATA_BLOCK", -1, 24, "HeaderLength", u64(hl)+" exceeds TotalByteLength "+u64(total), engine.ErrMalformed)
	}
	if n, max := uint64(b.NumObjectTypes), (total-hl)/ObjectTypeSize; n > max {
		return Block{}, errAt("PERF_DATA_BLOCK", -1, 28, "NumObjectTypes", u64(n)+" exceeds the "+u64(max)+" objects that TotalByteLength "+u64(total)+" could hold", engine.ErrMalformed)
	}
	if nl := uint64(b.SystemNameLength); nl > 0 {
		no := uint64(b.SystemNameOffset)
		switch {
		case nl%2 != 0:
			return Block{}, errAt("PERF_DATA_BLOCK", -1, 80, "SystemNameLength", u64(nl)+" is odd (the name is UTF-16LE)", engine.ErrMalformed)
		case no+nl > total:
			return Block{}, errAt("PERF_DATA_BLOCK", -1, 84, "SystemNameOffset", u64(no)+" + SystemNameLength "+u64(nl)+" exceeds TotalByteLength "+u64(total), engine.ErrMalformed)
		}
	}
	b.data = data[:total:total]
	return b, nil
}

// Bytes returns the blob, cut to TotalByteLength. It aliases the input.
func (b *Block) Bytes() []byte { return b.data }

// SystemNameBytes returns the raw UTF-16LE system name (SystemNameLength
// bytes, including the NUL). It aliases the input.
func (b *Block) SystemNameBytes() []byte {
	if b.SystemNameLength == 0 || b.data == nil {
		return nil
	}
	o := int(b.SystemNameOffset)
	return b.data[o : o+int(b.SystemNameLength)]
}

// AppendSystemName appends the system name, decoded to UTF-8, to dst.
func (b *Block) AppendSystemName(dst []byte) []byte {
	return appendUTF16(dst, b.SystemNameBytes(), false)
}

// SystemName returns the system name (the computer's name) as a string.
func (b *Block) SystemName() string { return string(b.AppendSystemName(nil)) }

// Objects returns a cursor over the block's NumObjectTypes objects.
func (b *Block) Objects() ObjectCursor {
	return ObjectCursor{blk: b.times(), data: b.data, off: uint64(b.HeaderLength), n: int(b.NumObjectTypes)}
}

// blockTimes is the block's time base, copied into each object for Fill.
type blockTimes struct {
	perfTime, perfFreq, perfTime100nSec int64
}

func (b *Block) times() blockTimes {
	return blockTimes{b.PerfTime, b.PerfFreq, b.PerfTime100nSec}
}

// ObjectCursor walks the objects of a Block in order, in the style of
// bufio.Scanner: Next advances, Object returns the current object, Err the
// error that stopped the walk. It is a value, safe to copy; a copy walks
// independently.
type ObjectCursor struct {
	blk  blockTimes
	data []byte
	off  uint64
	i, n int
	err  error
	cur  Object
}

// Next decodes the next PERF_OBJECT_TYPE and its counter definitions, which
// Object then returns. It returns false after the last object, and at the
// first malformed one, which Err then reports; after that it returns false.
func (c *ObjectCursor) Next() bool {
	if c.err != nil || c.i >= c.n {
		return false
	}
	var err error
	if c.cur, err = decodeObject(c.data, c.off, c.i, c.blk); err != nil {
		c.err = err
		return false
	}
	c.i++
	c.off += uint64(c.cur.TotalByteLength)
	return true
}

// Object returns the current object, held by the cursor: it is valid until
// the next call to Next (copy *Object to keep it).
func (c *ObjectCursor) Object() *Object { return &c.cur }

// Err returns the *engine.FormatError that stopped Next, or nil after the
// last object.
func (c *ObjectCursor) Err() error { return c.err }

// errAt builds the decoders' error.
//
//go:noinline
func errAt(record string, index int, off uint64, field, detail string, err error) error {
	return &engine.FormatError{Format: "perfdata", Record: record, Index: index, Offset: int64(off), Field: field, Detail: detail, Err: err}
}

//go:noinline
func u64(v uint64) string { return strconv.FormatUint(v, 10) }
func i64(v int64) string  { return strconv.FormatInt(v, 10) }

func needBytes(need, have uint64) string {
	return "needs " + u64(need) + " bytes, " + u64(have) + " remain"
}
