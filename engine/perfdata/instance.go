package perfdata

import (
	"encoding/binary"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// maxNameLength is the longest NameLength accepted: a UTF-16 name of
// counterpath.MaxInstanceName characters and its NUL.
const maxNameLength = 2 * (counterpath.MaxInstanceName + 1)

// Instance is a decoded PERF_INSTANCE_DEFINITION with its counter block. It
// aliases the caller's bytes and is valid while the input is.
//
// For a PERF_NO_INSTANCES object the single counter block comes as an
// Instance with Defined false, no name, no parent and UniqueID NoUniqueID.
type Instance struct {
	Index   int  // position among the object's instances, from 0
	Offset  int  // byte offset of the PERF_INSTANCE_DEFINITION (of the counter block when !Defined)
	Defined bool // a PERF_INSTANCE_DEFINITION precedes the counter block

	ByteLength             uint32 // PERF_INSTANCE_DEFINITION.ByteLength: offset of the counter block
	ParentObjectTitleIndex uint32 // PERF_INSTANCE_DEFINITION.ParentObjectTitleIndex: 0 = no parent
	ParentObjectInstance   uint32 // PERF_INSTANCE_DEFINITION.ParentObjectInstance: 0-based position in the parent object
	UniqueID               int32  // PERF_INSTANCE_DEFINITION.UniqueID: NoUniqueID when names are used
	NameOffset             uint32 // PERF_INSTANCE_DEFINITION.NameOffset: from the start of the definition
	NameLength             uint32 // PERF_INSTANCE_DEFINITION.NameLength: bytes including the NUL, 0 = unnamed

	CodePage     uint32       // the object's CodePage: how the name is encoded
	CounterBlock CounterBlock // the instance's raw values

	name   []byte // NameLength bytes
	objOff uint64 // offset of the object, for errors about its code page
	obj    int
}

// NameBytes returns the raw name: NameLength bytes, UTF-16LE when CodePage
// is 0, else in the code page, including the terminating NUL. It aliases
// the input.
func (in *Instance) NameBytes() []byte { return in.name }

// InstanceCursor walks an object's instances in order, in the style of
// bufio.Scanner (see ObjectCursor). It is a value, safe to copy.
type InstanceCursor struct {
	data     []byte
	off, end uint64
	objOff   uint64
	obj      int
	codePage uint32
	i, n     int
	single   bool
	err      error
	cur      Instance
}

// Next decodes the next instance and its counter block, which Instance
// then returns. It returns false after the last one, and at the first
// malformed one, which Err then reports; after that it returns false.
func (c *InstanceCursor) Next() bool {
	if c.err != nil || c.i >= c.n {
		return false
	}
	in := &c.cur
	var err error
	if c.single {
		*in = Instance{Offset: int(c.off), UniqueID: NoUniqueID, CodePage: c.codePage, objOff: c.objOff, obj: c.obj}
		in.CounterBlock, err = checkCounterBlock(c.data, c.off, c.end, 0)
	} else {
		*in, err = decodeInstance(c.data, c.off, c.end, c.i)
		in.CodePage, in.objOff, in.obj = c.codePage, c.objOff, c.obj
		if err == nil && (c.codePage == CodePageUTF16 || c.codePage == CodePageUTF16LE) && in.NameLength%2 != 0 {
			err = errAt("PERF_INSTANCE_DEFINITION", c.i, c.off+20, "NameLength", u64(uint64(in.NameLength))+" is odd (CodePage "+u64(uint64(c.codePage))+": the name is UTF-16LE)", engine.ErrMalformed)
		}
	}
	if err != nil {
		c.err = err
		return false
	}
	c.i++
	c.off = uint64(in.CounterBlock.Offset) + uint64(in.CounterBlock.ByteLength)
	return true
}

// Instance returns the current instance, held by the cursor: it is valid
// until the next call to Next (copy *Instance to keep it).
func (c *InstanceCursor) Instance() *Instance { return &c.cur }

// Err returns the *engine.FormatError that stopped Next, or nil after the
// last instance.
func (c *InstanceCursor) Err() error { return c.err }

// decodeInstance checks and decodes the instance at p and its counter
// block; both must end by end.
func decodeInstance(data []byte, p, end uint64, index int) (Instance, error) {
	const rec = "PERF_INSTANCE_DEFINITION"
	end = min(end, uint64(len(data)))
	if p > end || end-p < InstanceDefSize {
		return Instance{}, errAt(rec, index, p, "", needBytes(InstanceDefSize, end-min(p, end))+" in the object", engine.ErrMalformed)
	}
	h := data[p : p+InstanceDefSize]
	le := binary.LittleEndian
	in := Instance{
		Index:                  index,
		Offset:                 int(p),
		Defined:                true,
		ByteLength:             le.Uint32(h[0:]),
		ParentObjectTitleIndex: le.Uint32(h[4:]),
		ParentObjectInstance:   le.Uint32(h[8:]),
		UniqueID:               int32(le.Uint32(h[12:])),
		NameOffset:             le.Uint32(h[16:]),
		NameLength:             le.Uint32(h[20:]),
	}
	bl := uint64(in.ByteLength)
	switch {
	case bl < InstanceDefSize:
		return Instance{}, errAt(rec, index, p, "ByteLength", u64(bl)+" is below the 24-byte definition", engine.ErrMalformed)
	case bl > end-p:
		return Instance{}, errAt(rec, index, p, "ByteLength", u64(bl)+" exceeds the "+u64(end-p)+" bytes left in the object", engine.ErrMalformed)
	}
	if nl := uint64(in.NameLength); nl > 0 {
		no := uint64(in.NameOffset)
		switch {
		case nl > maxNameLength:
			return Instance{}, errAt(rec, index, p+20, "NameLength", "exceeds 2050 bytes: a name longer than PDH_MAX_INSTANCE_NAME (1024 characters)", engine.ErrUnsupported)
		case no < InstanceDefSize:
			return Instance{}, errAt(rec, index, p+16, "NameOffset", u64(no)+" points into the 24-byte definition", engine.ErrMalformed)
		case no > bl || bl-no < nl:
			return Instance{}, errAt(rec, index, p+16, "NameOffset", u64(no)+" + NameLength "+u64(nl)+" exceeds ByteLength "+u64(bl), engine.ErrMalformed)
		}
		in.name = data[p+no : p+no+nl : p+no+nl]
	}
	cb, err := checkCounterBlock(data, p+bl, end, index)
	if err != nil {
		return Instance{}, err
	}
	in.CounterBlock = cb
	return in, nil
}
