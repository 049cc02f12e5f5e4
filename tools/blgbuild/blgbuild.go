// Package blgbuild writes small perfmon binary logs (.blg) with the layouts
// that engine/blg documents: a WMI buffer header per buffer, a 32-bit
// system header with TRACE_LOGFILE_HEADER in the first buffer, then PDH
// events (counter list, samples, name-table chunks), split into parts where
// asked. It serves tests, fuzz seeds and the hostile inputs of
// tools/hostile; it is not a faithful perfmon writer (one time zone,
// fixed header fields). engine/blg's Writer is: it writes the layout of
// Windows' raw-counter logs exactly (and rewrites a real one to its bytes
// but for when and by what it was written). blgbuild keeps what the Writer
// refuses to write: whole-object records, name-table chunks, parts of any
// size, records before the counter list and other odd or hostile logs.
package blgbuild

import (
	"encoding/binary"
	"unicode/utf16"
)

// Layout constants, as engine/blg reads them.
const (
	bufHeader    = 0x48  // WMI_BUFFER_HEADER
	eventHeader  = 48    // EVENT_TRACE_HEADER
	partHeader   = 24    // log GUID, part index, part count
	sysHeader    = 32    // SYSTEM_TRACE_HEADER
	logFileFixed = 0x110 // TRACE_LOGFILE_HEADER with 4-byte pointers
	// MaxEventData is the most data one event can carry (its Size is 16 bits).
	MaxEventData = 0xFFF8 - eventHeader - partHeader
)

// Event types of PDH's records.
const (
	EventCounterList = 0x20
	EventSample      = 0x22
	EventNameTable   = 0x24
)

var le = binary.LittleEndian

// pdhProvider is the provider GUID of PDH's log events.
var pdhProvider = [16]byte{0xb3, 0x3b, 0x3f, 0x93, 0x3e, 0x94, 0x0d, 0x49, 0x9c, 0xed, 0x3c, 0xbb, 0x14, 0xc1, 0x44, 0x79}

// Log is a .blg being written. The zero value is not usable: call New.
type Log struct {
	bufSize int
	bufs    [][]byte
	cur     []byte
}

// New starts a log of bufSize-byte buffers (a multiple of 1024; real logs
// use 64 KiB) whose header holds the UTC start time start (a FILETIME) and
// the Pacific time zone (PacificTimeZone).
func New(bufSize int, start int64) *Log { return NewTZ(bufSize, start, PacificTimeZone()) }

// NewTZ is New with the time zone of the header given as the 172 bytes of
// its TIME_ZONE_INFORMATION.
func NewTZ(bufSize int, start int64, tz []byte) *Log {
	l := &Log{bufSize: bufSize, cur: make([]byte, bufHeader, bufSize)}
	ev := make([]byte, sysHeader+logFileFixed)
	copy(ev, []byte{2, 0, 1, 0xC0})
	h := ev[sysHeader:]
	le.PutUint32(h[0:], uint32(bufSize))
	le.PutUint32(h[4:], 0x04010006) // Windows 6.0
	le.PutUint32(h[8:], 6000)
	le.PutUint32(h[12:], 1)
	le.PutUint64(h[16:], uint64(start+36000000000)) // EndTime
	le.PutUint32(h[44:], 4)                         // PointerSize
	copy(h[64:64+timeZoneSize], tz)
	le.PutUint64(h[248:], 3579545) // PerfFreq
	le.PutUint64(h[256:], uint64(start))
	ev = append(ev, UTF16Z("logger")...)
	ev = append(ev, UTF16Z(`C:\perflogs\test.blg`)...)
	le.PutUint16(ev[4:], uint16(len(ev)))
	l.put(ev)
	return l
}

// timeZoneSize is the size of a TIME_ZONE_INFORMATION.
const timeZoneSize = 172

// PacificTimeZone returns the TIME_ZONE_INFORMATION of US Pacific time
// with its 2007 rules (the zone of the real Tx log): bias 480 minutes,
// standard time from the first Sunday of November at 02:00, daylight time
// (bias −60) from the second Sunday of March at 02:00.
func PacificTimeZone() []byte {
	tz := make([]byte, timeZoneSize)
	le.PutUint32(tz[0:], 480)
	copy(tz[4:68], UTF16Z("@tzres.dll,-212"))
	le.PutUint16(tz[68+2:], 11) // StandardDate: November, first Sunday, 02:00
	le.PutUint16(tz[68+6:], 1)
	le.PutUint16(tz[68+8:], 2)
	copy(tz[88:152], UTF16Z("@tzres.dll,-211"))
	le.PutUint16(tz[152+2:], 3) // DaylightDate: March, second Sunday, 02:00
	le.PutUint16(tz[152+6:], 2)
	le.PutUint16(tz[152+8:], 2)
	le.PutUint32(tz[168:], 0xFFFFFFC4) // DaylightBias −60
	return tz
}

// UTF16Z returns s as NUL-terminated UTF-16LE.
func UTF16Z(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = le.AppendUint16(b, u)
	}
	return append(b, 0, 0)
}

func (l *Log) put(ev []byte) {
	if len(l.cur)+(len(ev)+7)&^7 > l.bufSize {
		l.flush()
	}
	l.cur = append(l.cur, ev...)
	for len(l.cur)%8 != 0 {
		l.cur = append(l.cur, 0)
	}
}

func (l *Log) flush() {
	b := make([]byte, l.bufSize)
	for i := len(l.cur); i < len(b); i++ {
		b[i] = 0xFF
	}
	copy(b, l.cur)
	le.PutUint32(b[0:], uint32(l.bufSize))
	le.PutUint64(b[0x18:], uint64(len(l.bufs)))
	le.PutUint32(b[0x30:], uint32(len(l.cur)))
	l.bufs = append(l.bufs, b)
	l.cur = make([]byte, bufHeader, l.bufSize)
}

// Record appends a PDH record of event type typ with time stamp ts, split
// into parts of at most maxPart bytes (at most MaxEventData, and what fits
// in a buffer).
func (l *Log) Record(typ byte, ts int64, data []byte, maxPart int) {
	maxPart = min(maxPart, MaxEventData, l.bufSize-bufHeader-eventHeader-partHeader)
	count := max(1, (len(data)+maxPart-1)/maxPart)
	for i := range count {
		part := data[i*maxPart : min((i+1)*maxPart, len(data))]
		ev := make([]byte, eventHeader+partHeader, eventHeader+partHeader+len(part))
		le.PutUint16(ev[0:], uint16(eventHeader+partHeader+len(part)))
		ev[2], ev[3], ev[4] = 0x0A, 0xC0, typ
		le.PutUint16(ev[6:], 0x3C)
		le.PutUint64(ev[16:], uint64(ts))
		copy(ev[24:], pdhProvider[:])
		copy(ev[48:], "perfcalc-blgbld1")
		le.PutUint32(ev[64:], uint32(i+1))
		le.PutUint32(ev[68:], uint32(count))
		l.put(append(ev, part...))
	}
}

// Bytes ends the log and returns it, its header's BuffersWritten set to
// the number of buffers, as Windows writes it when it closes a log.
func (l *Log) Bytes() []byte {
	if len(l.cur) > bufHeader || len(l.bufs) == 0 {
		l.flush()
	}
	le.PutUint32(l.bufs[0][bufHeader+sysHeader+36:], uint32(len(l.bufs)))
	out := make([]byte, 0, len(l.bufs)*l.bufSize)
	for _, b := range l.bufs {
		out = append(out, b...)
	}
	return out
}

// Counter is one counter-list entry.
type Counter struct {
	Flags                              uint32 // 0 one counter, 1 wildcard instance, 0x10 whole object
	Type                               uint32 // winperf.h counter type
	TimeBase                           int64
	Scale                              int32  // the default scale
	Machine, Object, Instance, Counter string // Instance "" for none
	Parent                             string // "" for none
	Index                              uint32 // the instance index (#n)
}

// AppendCounterList appends the counter-list record of the entries to dst
// (start with nil, or with CounterListHeader to add entries to a list in
// steps).
func AppendCounterList(dst []byte, cs ...Counter) []byte {
	if len(dst) == 0 {
		dst = append(dst, CounterListHeader...)
	}
	for _, c := range cs {
		var strs []byte
		str := func(s string, optional bool) uint32 {
			if optional && s == "" {
				return 0xFFFFFFFF
			}
			o := uint32(len(strs))
			strs = append(strs, UTF16Z(s)...)
			return o
		}
		h := make([]byte, 52)
		le.PutUint32(h[4:], c.Flags)
		le.PutUint32(h[12:], c.Type)
		le.PutUint64(h[16:], uint64(c.TimeBase))
		le.PutUint32(h[24:], uint32(c.Scale))
		le.PutUint32(h[28:], str(c.Machine, false))
		le.PutUint32(h[32:], str(c.Object, false))
		le.PutUint32(h[36:], str(c.Instance, true))
		le.PutUint32(h[40:], str(c.Parent, true))
		le.PutUint32(h[44:], c.Index)
		le.PutUint32(h[48:], str(c.Counter, false))
		for len(strs)%8 != 4 {
			strs = append(strs, 0)
		}
		le.PutUint32(h[0:], uint32(len(h)+len(strs)))
		dst = append(append(dst, h...), strs...)
	}
	return dst
}

// CounterListHeader is the 8 bytes a counter-list record starts with.
var CounterListHeader = []byte{0xFF, 0x06, 0, 0, 8, 0, 2, 0}

// RawSample returns a sample record with one PDH_RAW_COUNTER sub-record per
// value (status 0, time stamp ts, FirstValue v, SecondValue ts).
func RawSample(ts int64, values ...uint64) []byte {
	b := []byte{'B', 'L', 3, 0, 0, 0, 0, 0}
	for _, v := range values {
		sub := make([]byte, 48)
		copy(sub, []byte{'B', 'L', 3, 1})
		le.PutUint32(sub[4:], 48)
		le.PutUint64(sub[12:], uint64(ts))
		le.PutUint64(sub[24:], v)
		le.PutUint64(sub[32:], uint64(ts))
		le.PutUint32(sub[40:], 1)
		b = append(b, sub...)
	}
	le.PutUint32(b[4:], uint32(len(b)))
	return b
}
