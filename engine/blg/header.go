package blg

import (
	"encoding/binary"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/internal/text"
)

// Layout of the log's first event: a 32-byte system trace header
// (SYSTEM_TRACE_HEADER) followed by a TRACE_LOGFILE_HEADER.
const (
	systemHeaderSize = 32
	// traceHeaderSystem32 and traceHeaderSystem64 are the HeaderType byte of
	// a system trace header whose pointers are 4 or 8 bytes wide.
	traceHeaderSystem32 = 1
	traceHeaderSystem64 = 2
	// logFileHeaderFixed32/64: the fixed part of TRACE_LOGFILE_HEADER for
	// 4- and 8-byte pointers (LoggerName and LogFileName follow it).
	logFileHeaderFixed32 = 0x110
	logFileHeaderFixed64 = 0x118
)

// LogHeader is the log's header: ETW's TRACE_LOGFILE_HEADER (Microsoft's
// public layout) carried by the first event of the first buffer, after a
// 32-byte system trace header. Times are FILETIMEs (100 ns since 1601, UTC).
type LogHeader struct {
	_ [0]func() // not comparable: no equality function in the module

	Offset     int64 // file offset of the system trace header (0x48)
	HeaderType uint8 // system trace header type: 1 (32-bit pointers) or 2 (64-bit)

	BufferSize         uint32 // equals every buffer's BufferSize
	Version            uint32 // Windows version of the logging machine: MajorVersion in the low byte, then MinorVersion, SubVersion, SubMinorVersion
	ProviderVersion    uint32 // build number (6000 Vista, 9200 Windows 8, …)
	NumberOfProcessors uint32
	EndTime            int64 // when the log was closed
	TimerResolution    uint32
	MaximumFileSize    uint32
	LogFileMode        uint32
	BuffersWritten     uint32
	StartBuffers       uint32
	PointerSize        uint32 // 4 or 8; agrees with HeaderType
	EventsLost         uint32
	CPUSpeedMHz        uint32
	TimeZone           TimeZone
	BootTime           int64
	PerfFreq           int64 // QueryPerformanceFrequency of the logging machine
	StartTime          int64 // when the log was opened
	ReservedFlags      uint32
	BuffersLost        uint32
	LoggerName         string // follows the fixed part, NUL-terminated UTF-16LE
	LogFileName        string // the log's path on the logging machine
}

// MajorVersion returns the Windows major version of the logging machine.
func (h *LogHeader) MajorVersion() uint8 { return uint8(h.Version) }

// MinorVersion returns the Windows minor version of the logging machine.
func (h *LogHeader) MinorVersion() uint8 { return uint8(h.Version >> 8) }

// parseLogHeader decodes the system trace header and TRACE_LOGFILE_HEADER
// in ev, the log's first event (its bytes up to the end of the buffer's
// used area), found at file offset off. It returns the header and the
// event's size as its Size field gives it.
func parseLogHeader(ev []byte, off int64) (LogHeader, int, error) {
	const rec = "SYSTEM_TRACE_HEADER"
	if len(ev) < systemHeaderSize {
		return LogHeader{}, 0, errf(rec, -1, off, "", engine.ErrTruncated, "needs %d bytes, have %d", systemHeaderSize, int64(len(ev)))
	}
	h := LogHeader{Offset: off, HeaderType: ev[2]}
	if (ev[3]&0xC0) != 0xC0 || (h.HeaderType != traceHeaderSystem32 && h.HeaderType != traceHeaderSystem64) {
		return h, 0, errf(rec, -1, off, "Marker", engine.ErrMalformed, "%x is not a system trace header (xx xx 01 C0 or xx xx 02 C0); not a .blg log?", int64(binary.LittleEndian.Uint32(ev)))
	}
	size := int(binary.LittleEndian.Uint16(ev[4:]))
	fixed := logFileHeaderFixed32
	if h.HeaderType == traceHeaderSystem64 {
		fixed = logFileHeaderFixed64
	}
	if size < systemHeaderSize+fixed {
		return h, 0, errf(rec, -1, off+4, "Size", engine.ErrMalformed, "%u is too small for a TRACE_LOGFILE_HEADER (%d)", int64(size), int64(systemHeaderSize+fixed))
	}
	if size > len(ev) {
		return h, 0, newError(rec, -1, off+4, "Size", exceeds(uint64(size), "the buffer's used bytes", uint64(len(ev))), engine.ErrMalformed)
	}
	b := ev[systemHeaderSize:size]
	boff := off + systemHeaderSize
	le := binary.LittleEndian
	h.BufferSize = le.Uint32(b[0:])
	h.Version = le.Uint32(b[4:])
	h.ProviderVersion = le.Uint32(b[8:])
	h.NumberOfProcessors = le.Uint32(b[12:])
	h.EndTime = int64(le.Uint64(b[16:]))
	h.TimerResolution = le.Uint32(b[24:])
	h.MaximumFileSize = le.Uint32(b[28:])
	h.LogFileMode = le.Uint32(b[32:])
	h.BuffersWritten = le.Uint32(b[36:])
	h.StartBuffers = le.Uint32(b[40:])
	h.PointerSize = le.Uint32(b[44:])
	h.EventsLost = le.Uint32(b[48:])
	h.CPUSpeedMHz = le.Uint32(b[52:])
	ptr := 4
	if h.HeaderType == traceHeaderSystem64 {
		ptr = 8
	}
	if h.PointerSize != uint32(ptr) {
		return h, 0, errf("TRACE_LOGFILE_HEADER", -1, boff+44, "PointerSize", engine.ErrMalformed, "%u disagrees with the system trace header type %u", int64(h.PointerSize), int64(h.HeaderType))
	}
	tz := 56 + 2*ptr
	h.TimeZone = parseTimeZone(b[tz : tz+timeZoneSize])
	t := (tz + timeZoneSize + 7) &^ 7
	h.BootTime = int64(le.Uint64(b[t:]))
	h.PerfFreq = int64(le.Uint64(b[t+8:]))
	h.StartTime = int64(le.Uint64(b[t+16:]))
	h.ReservedFlags = le.Uint32(b[t+24:])
	h.BuffersLost = le.Uint32(b[t+28:])
	rest := b[fixed:]
	n, _ := text.UTF16Len(rest)
	h.LoggerName = utf16String(rest)
	if n+2 <= len(rest) {
		h.LogFileName = utf16String(rest[n+2:])
	}
	return h, size, nil
}
