package perflibv2

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// Instance is one PERF_INSTANCE_HEADER record and its name, decoded in
// place by InstanceParser.Next. Name aliases the input.
type Instance struct {
	Index      int          // position in the array
	Offset     int          // byte offset of the record in the input
	Size       uint32       // Size: header, name and padding
	InstanceID uint32       // InstanceId
	Name       wintype.Text // the NUL-terminated UTF-16LE name after the header, without its NUL
}

// InstanceParser walks an array of PERF_INSTANCE_HEADER records, as
// PerfEnumerateCounterSetInstances returns (its pcbReturned bytes): records
// follow each other, each advanced by its own Size, up to the end of the
// input, in the style of bufio.Scanner: Next advances, Instance returns
// the current record, Err the error that stopped the walk. It is a value,
// safe to copy, and allocates nothing.
type InstanceParser struct {
	buf []byte
	off int
	i   int
	err error
	cur Instance
}

// Start makes the parser walk b from its first record.
func (p *InstanceParser) Start(b []byte) { *p = InstanceParser{buf: b} }

// Next decodes the next record, which Instance then returns, and reports
// whether there was one: it returns false at the end of the input, and at
// the first malformed record, which Err then reports; after that it
// returns false. Size must be at least 8, a multiple of 8 and within the
// input; a Size above 8 must hold a NUL-terminated name. Duplicate (name,
// id) pairs are allowed: Windows does not enforce uniqueness.
func (p *InstanceParser) Next() bool {
	if p.err != nil || p.off >= len(p.buf) {
		return false
	}
	size, err := checkInstanceHeader(p.buf, p.off, p.i, "")
	if err != nil {
		p.err = err
		return false
	}
	inst := &p.cur
	*inst = Instance{Index: p.i, Offset: p.off, Size: uint32(size), InstanceID: le32(p.buf, p.off+4)}
	inst.Name, _ = cstring(p.buf[p.off+InstanceHeaderSize : p.off+size])
	p.off += size
	p.i++
	return true
}

// Instance returns the current record, held by the parser: it is valid
// until the next call to Next or Start (copy *Instance to keep it).
func (p *InstanceParser) Instance() *Instance { return &p.cur }

// Err returns the *engine.FormatError that stopped Next, or nil at the end
// of the input.
func (p *InstanceParser) Err() error { return p.err }

// checkInstanceHeader checks the PERF_INSTANCE_HEADER at off (within b)
// and returns its Size. parent names the enclosing record for the
// error's detail, if any.
func checkInstanceHeader(b []byte, off, idx int, parent string) (int, error) {
	const rec = "PERF_INSTANCE_HEADER"
	if len(b)-off < InstanceHeaderSize {
		return 0, fail(rec, idx, off, "", "needs 8 bytes, "+bytesLeft(len(b)-off, parent), engine.ErrTruncated)
	}
	size := le32(b, off)
	switch {
	case size < InstanceHeaderSize:
		return 0, fail(rec, idx, off, "Size", u(size)+" below 8", engine.ErrMalformed)
	case size%8 != 0:
		return 0, fail(rec, idx, off, "Size", u(size)+" not a multiple of 8 (misaligned)", engine.ErrMalformed)
	case uint64(size) > uint64(len(b)-off):
		return 0, fail(rec, idx, off, "Size", u(size)+" exceeds the "+bytesLeft(len(b)-off, parent), engine.ErrMalformed)
	}
	if size > InstanceHeaderSize {
		name, ok := cstring(b[off+InstanceHeaderSize : off+int(size)])
		if !ok {
			return 0, fail(rec, idx, off+InstanceHeaderSize, "Name", "has no NUL within Size "+u(size), engine.ErrMalformed)
		}
		if name.Len() > counterpath.MaxInstanceName {
			return 0, fail(rec, idx, off+InstanceHeaderSize, "Name", "longer than PDH_MAX_INSTANCE_NAME (1024 characters)", engine.ErrUnsupported)
		}
	}
	return int(size), nil
}

// bytesLeft says how many bytes are left, and in which record, for an
// error's detail (it is called on error paths only: it allocates).
func bytesLeft(n int, parent string) string {
	s := itoa(n) + " bytes left"
	if parent != "" {
		s += " in " + parent
	}
	return s
}
