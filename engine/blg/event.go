package blg

import (
	"github.com/perfcalc/perfcalc/engine"
)

// Event layout: ETW's 48-byte EVENT_TRACE_HEADER ("full" header), then, for
// PDH's events, a 24-byte part header, then the part's data.
const (
	eventHeaderSize = 48
	partHeaderSize  = 24 // log GUID, part index, part count
	// traceHeaderFull32/64: the HeaderType byte of a full trace header
	// written by a 32- or 64-bit process (same 48-byte layout).
	traceHeaderFull32 = 0x0A
	traceHeaderFull64 = 0x14
)

// Event types (EVENT_TRACE_HEADER.Class.Type) of PDH's log events.
const (
	EventCounterList = 0x20 // the counter list
	EventSample      = 0x22 // one sample record
	EventTrailer     = 0x23 // a summary written when the log is closed (Vista logs)
	EventNameTable   = 0x24 // a chunk of the logging machine's counter name table (Vista logs)
)

// providerGUID is the provider GUID of PDH's log events,
// {933F3BB3-943E-490D-9CED-3CBB14C14479}, in its on-disk byte order.
// Events of other providers are skipped.
var providerGUID = [16]byte{0xb3, 0x3b, 0x3f, 0x93, 0x3e, 0x94, 0x0d, 0x49, 0x9c, 0xed, 0x3c, 0xbb, 0x14, 0xc1, 0x44, 0x79}

// providerGUID0 and providerGUID1 are providerGUID's two halves, as le
// reads them.
const (
	providerGUID0 = 0x490d943e933f3bb3
	providerGUID1 = 0x7944c114bb3ced9c
)

// event is one decoded event: the fields of its EVENT_TRACE_HEADER that the
// reader uses and, for PDH events, its part header and data.
type event struct {
	off       int64 // file offset
	size      int   // EVENT_TRACE_HEADER.Size
	typ       uint8 // Class.Type
	timeStamp int64 // FILETIME as PDH wrote it (observed: the logging machine's local time)
	pdh       bool  // provider is PDH; the fields below are set
	logGUID   [16]byte
	partIndex uint32 // 1-based
	partCount uint32
	data      []byte // the part's data; aliases the buffer
}

// parseEvent decodes the event at the start of b (the rest of the buffer's
// used area), found at file offset off. It returns the number of bytes the
// event occupies, its Size rounded up to 8.
func parseEvent(b []byte, off int64, ev *event) (int, error) {
	const rec = "EVENT_TRACE_HEADER"
	if len(b) < 4 {
		return 0, errf(rec, -1, off, "", engine.ErrTruncated, "needs 4 bytes, have %d", int64(len(b)))
	}
	ht := b[2]
	if b[3]&0x80 == 0 {
		return 0, errf(rec, -1, off, "MarkerFlags", engine.ErrMalformed, "%x lacks the trace-header flag 0x80", int64(b[3]))
	}
	switch ht {
	case traceHeaderSystem32, traceHeaderSystem64:
		// Another system event: skip it by its Size (at +4).
		if len(b) < systemHeaderSize {
			return 0, errf("SYSTEM_TRACE_HEADER", -1, off, "", engine.ErrTruncated, "needs %d bytes, have %d", systemHeaderSize, int64(len(b)))
		}
		size := int(le.Uint16(b[4:]))
		if size < systemHeaderSize || size > len(b) {
			return 0, errf("SYSTEM_TRACE_HEADER", -1, off+4, "Size", engine.ErrMalformed, "%u outside %d..%d", int64(size), systemHeaderSize, int64(len(b)))
		}
		*ev = event{off: off, size: size}
		return (size + 7) &^ 7, nil
	case traceHeaderFull32, traceHeaderFull64:
	default:
		return 0, errf(rec, -1, off+2, "HeaderType", engine.ErrUnsupported, "%x is not a full trace header (0xa or 0x14)", int64(ht))
	}
	if len(b) < eventHeaderSize {
		return 0, errf(rec, -1, off, "", engine.ErrTruncated, "needs %d bytes, have %d", eventHeaderSize, int64(len(b)))
	}
	size := int(le.Uint16(b[0:]))
	if size < eventHeaderSize || size > len(b) {
		return 0, errf(rec, -1, off, "Size", engine.ErrMalformed, "%u outside %d..%d (the buffer's used bytes left)", int64(size), eventHeaderSize, int64(len(b)))
	}
	*ev = event{
		off:       off,
		size:      size,
		typ:       b[4],
		timeStamp: int64(le.Uint64(b[16:])),
	}
	if le.Uint64(b[24:]) != providerGUID0 || le.Uint64(b[32:]) != providerGUID1 { // providerGUID, as two loads
		return (size + 7) &^ 7, nil
	}
	if size < eventHeaderSize+partHeaderSize {
		return 0, errf(rec, -1, off, "Size", engine.ErrMalformed, "%u is too small for a PDH event (%d)", int64(size), int64(eventHeaderSize+partHeaderSize))
	}
	ev.pdh = true
	ev.logGUID = [16]byte(b[48:64])
	ev.partIndex = le.Uint32(b[64:])
	ev.partCount = le.Uint32(b[68:])
	ev.data = b[eventHeaderSize+partHeaderSize : size]
	if ev.partCount == 0 || ev.partIndex == 0 || ev.partIndex > ev.partCount {
		return 0, errf("PDH event", -1, off+64, "PartIndex", engine.ErrMalformed, "part %u of %u (parts are numbered 1..count)", int64(ev.partIndex), int64(ev.partCount))
	}
	return (size + 7) &^ 7, nil
}
