package blg

import (
	"github.com/perfcalc/perfcalc/engine"
)

// Sizes and limits of the ETW container.
const (
	// BufferHeaderSize is the size of the WMI buffer header that starts
	// every buffer of the log (0x48 bytes).
	BufferHeaderSize = 0x48
	// MinBufferSize and MaxBufferSize bound the buffer size a log may
	// declare. ETW counts buffer sizes in KiB; every real log seen uses
	// 64 KiB buffers.
	MinBufferSize = 1 << 10
	MaxBufferSize = 1 << 20
)

// BufferHeader mirrors the fields of ETW's WMI buffer header (0x48 bytes)
// that a saved log file keeps meaningful. Offsets are from the start of the
// buffer; the names are those of the public WMI_BUFFER_HEADER description.
type BufferHeader struct {
	BufferSize     uint32 // +0x00: size of the buffer, header included (0x10000 in every real log)
	SavedOffset    uint32 // +0x04: not reliable in saved logs (0, the fill, or a sequence number)
	CurrentOffset  uint32 // +0x08: not reliable in saved logs
	TimeStamp      int64  // +0x10: FILETIME (UTC) when the buffer was flushed; 0 in some logs
	SequenceNumber int64  // +0x18
	Offset         uint32 // +0x30: bytes of the buffer in use, header included; events fill [0x48, Offset)
	BufferFlag     uint16 // +0x34
	BufferType     uint16 // +0x36
}

// IsLog reports whether data begins as a perfmon .blg log does: a WMI
// buffer header whose BufferSize and Offset are valid (ParseBufferHeader),
// then a system trace header (xx xx 01 C0 or xx xx 02 C0). It is how
// perfcalc tells a log from a capture or a name table by its first bytes
// (74 are enough); the Reader checks the rest.
func IsLog(data []byte) bool {
	if _, err := ParseBufferHeader(data, 0); err != nil || len(data) < BufferHeaderSize+4 {
		return false
	}
	ev := data[BufferHeaderSize:]
	return ev[3]&0xC0 == 0xC0 && (ev[2] == traceHeaderSystem32 || ev[2] == traceHeaderSystem64)
}

// ParseBufferHeader decodes the WMI buffer header at the start of b, a buffer
// found at byte offset off of the log (for error messages), and checks it:
// BufferSize must lie in MinBufferSize..MaxBufferSize and be a multiple of
// 1024, and Offset must lie in BufferHeaderSize..BufferSize. It does not
// need the rest of the buffer.
func ParseBufferHeader(b []byte, off int64) (BufferHeader, error) {
	const rec = "WMI_BUFFER_HEADER"
	if len(b) < BufferHeaderSize {
		return BufferHeader{}, errf(rec, -1, off, "", engine.ErrTruncated, "needs %d bytes, have %d", BufferHeaderSize, int64(len(b)))
	}
	h := BufferHeader{
		BufferSize:     le.Uint32(b[0x00:]),
		SavedOffset:    le.Uint32(b[0x04:]),
		CurrentOffset:  le.Uint32(b[0x08:]),
		TimeStamp:      int64(le.Uint64(b[0x10:])),
		SequenceNumber: int64(le.Uint64(b[0x18:])),
		Offset:         le.Uint32(b[0x30:]),
		BufferFlag:     le.Uint16(b[0x34:]),
		BufferType:     le.Uint16(b[0x36:]),
	}
	if h.BufferSize < MinBufferSize || h.BufferSize > MaxBufferSize || h.BufferSize%1024 != 0 {
		return h, errf(rec, -1, off, "BufferSize", engine.ErrMalformed, "%u is not a buffer size (1 KiB multiple in 1 KiB..1 MiB); not a .blg log?", int64(h.BufferSize))
	}
	if h.Offset < BufferHeaderSize || h.Offset > h.BufferSize {
		return h, errf(rec, -1, off+0x30, "Offset", engine.ErrMalformed, "%x outside %x..%x", int64(h.Offset), int64(BufferHeaderSize), int64(h.BufferSize))
	}
	return h, nil
}
