package blg

import (
	"encoding/binary"
	"unicode/utf16"

	"github.com/perfcalc/perfcalc/engine/wintype"
)

// This file builds small .blg logs by hand, following the layouts this
// package decodes, for tests, examples and fuzz seeds.

var testLogGUID = [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}

type logBuilder struct {
	bufSize int
	bufs    [][]byte
	cur     []byte
	guid    [16]byte
}

func u16s(s string) []byte {
	var b []byte
	for _, r := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, r)
	}
	return append(b, 0, 0)
}

func putSystemTime(b []byte, st wintype.SystemTime) {
	for i, v := range []uint16{st.Year, st.Month, st.DayOfWeek, st.Day, st.Hour, st.Minute, st.Second, st.Milliseconds} {
		binary.LittleEndian.PutUint16(b[2*i:], v)
	}
}

// pacific is the zone of Tx_BasicPerfCounters.blg: Pacific, 2007+ rules.
var pacific = TimeZone{
	Bias:         480,
	StandardName: "@tzres.dll,-212",
	StandardDate: wintype.SystemTime{Month: 11, Day: 1, Hour: 2},
	DaylightName: "@tzres.dll,-211",
	DaylightDate: wintype.SystemTime{Month: 3, Day: 2, Hour: 2},
	DaylightBias: -60,
}

func encodeTimeZone(tz TimeZone) []byte {
	b := make([]byte, timeZoneSize)
	binary.LittleEndian.PutUint32(b[0:], uint32(tz.Bias))
	copy(b[4:68], u16s(tz.StandardName))
	putSystemTime(b[68:], tz.StandardDate)
	binary.LittleEndian.PutUint32(b[84:], uint32(tz.StandardBias))
	copy(b[88:152], u16s(tz.DaylightName))
	putSystemTime(b[152:], tz.DaylightDate)
	binary.LittleEndian.PutUint32(b[168:], uint32(tz.DaylightBias))
	return b
}

// newLog starts a log of bufSize-byte buffers whose first buffer holds a
// 32-bit system header and TRACE_LOGFILE_HEADER with the zone tz.
func newLog(bufSize int, tz TimeZone) *logBuilder {
	l := &logBuilder{bufSize: bufSize, guid: testLogGUID}
	l.cur = make([]byte, BufferHeaderSize, bufSize)
	ev := make([]byte, systemHeaderSize+logFileHeaderFixed32)
	copy(ev, []byte{2, 0, traceHeaderSystem32, 0xC0})
	h := ev[systemHeaderSize:]
	le := binary.LittleEndian
	le.PutUint32(h[0:], uint32(bufSize))
	le.PutUint32(h[4:], 0x04010006) // 6.0
	le.PutUint32(h[8:], 6000)
	le.PutUint32(h[12:], 1)
	le.PutUint64(h[16:], 0x01c7deac63f393c6) // EndTime
	le.PutUint32(h[44:], 4)                  // PointerSize
	copy(h[64:], encodeTimeZone(tz))
	le.PutUint64(h[240+8:], 3579545)             // PerfFreq
	le.PutUint64(h[240+16:], 0x01c7deaafdbd712c) // StartTime
	ev = append(ev, u16s("logger")...)
	ev = append(ev, u16s(`C:\perflogs\test.blg`)...)
	le.PutUint16(ev[4:], uint16(len(ev)))
	l.put(ev)
	return l
}

// put appends one event (its Size already set) to the current buffer,
// starting a new buffer when it does not fit.
func (l *logBuilder) put(ev []byte) {
	n := (len(ev) + 7) &^ 7
	if len(l.cur)+n > l.bufSize {
		l.flush()
	}
	l.cur = append(l.cur, ev...)
	for len(l.cur)%8 != 0 {
		l.cur = append(l.cur, 0xEE) // padding is not zeroed in real logs
	}
}

func (l *logBuilder) flush() {
	b := make([]byte, l.bufSize)
	for i := range b {
		b[i] = 0xFF
	}
	copy(b, l.cur)
	binary.LittleEndian.PutUint32(b[0:], uint32(l.bufSize))
	binary.LittleEndian.PutUint32(b[0x30:], uint32(len(l.cur)))
	for i := 0x04; i < BufferHeaderSize; i++ {
		if i < 0x30 || i >= 0x38 {
			b[i] = 0
		}
	}
	binary.LittleEndian.PutUint64(b[0x18:], uint64(len(l.bufs)))
	l.bufs = append(l.bufs, b)
	l.cur = make([]byte, BufferHeaderSize, l.bufSize)
}

// pdhEvent returns one PDH event: a full trace header, the part header and
// data.
func (l *logBuilder) pdhEvent(typ uint8, ts int64, part, count uint32, data []byte) []byte {
	ev := make([]byte, eventHeaderSize+partHeaderSize, eventHeaderSize+partHeaderSize+len(data))
	le := binary.LittleEndian
	le.PutUint16(ev[0:], uint16(eventHeaderSize+partHeaderSize+len(data)))
	ev[2], ev[3], ev[4] = traceHeaderFull32, 0xC0, typ
	le.PutUint16(ev[6:], 0x3C)
	le.PutUint64(ev[16:], uint64(ts))
	copy(ev[24:], providerGUID[:])
	copy(ev[48:], l.guid[:])
	le.PutUint32(ev[64:], part)
	le.PutUint32(ev[68:], count)
	return append(ev, data...)
}

// record appends a record, split into parts of at most maxPart bytes.
func (l *logBuilder) record(typ uint8, ts int64, data []byte, maxPart int) {
	count := (len(data) + maxPart - 1) / maxPart
	if count == 0 {
		count = 1
	}
	for i := 0; i < count; i++ {
		end := min((i+1)*maxPart, len(data))
		l.put(l.pdhEvent(typ, ts, uint32(i+1), uint32(count), data[i*maxPart:end]))
	}
}

func (l *logBuilder) bytes() []byte {
	if len(l.cur) > BufferHeaderSize || len(l.bufs) == 0 {
		l.flush()
	}
	var out []byte
	for _, b := range l.bufs {
		out = append(out, b...)
	}
	return out
}

type entrySpec struct {
	flags                                      uint32
	typ                                        uint32
	timeBase                                   int64
	scale                                      int32
	machine, object, instance, parent, counter string
	index                                      uint32
}

func encodeCounterList(entries ...entrySpec) []byte {
	b := []byte{0xFF, 0x06, 0, 0, 8, 0, 2, 0}
	le := binary.LittleEndian
	for _, e := range entries {
		var strs []byte
		off := func(s string, optional bool) uint32 {
			if optional && s == "" {
				return noString
			}
			o := uint32(len(strs))
			strs = append(strs, u16s(s)...)
			return o
		}
		h := make([]byte, counterEntryHeaderSize)
		le.PutUint32(h[4:], e.flags)
		le.PutUint32(h[12:], e.typ)
		le.PutUint64(h[16:], uint64(e.timeBase))
		le.PutUint32(h[24:], uint32(e.scale))
		le.PutUint32(h[28:], off(e.machine, false))
		le.PutUint32(h[32:], off(e.object, false))
		le.PutUint32(h[36:], off(e.instance, true))
		le.PutUint32(h[40:], off(e.parent, true))
		le.PutUint32(h[44:], e.index)
		le.PutUint32(h[48:], off(e.counter, false))
		for len(strs)%8 != 4 {
			strs = append(strs, 0)
		}
		le.PutUint32(h[0:], uint32(len(h)+len(strs)))
		b = append(b, h...)
		b = append(b, strs...)
	}
	return b
}

func blHeader(kind byte, size int) []byte {
	b := []byte{'B', 'L', recordVersion, kind, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(b[4:], uint32(size))
	return b
}

func encodeSample(subs ...[]byte) []byte {
	n := recordHeaderSize
	for _, s := range subs {
		n += len(s)
	}
	b := blHeader(kindSample, n)
	for _, s := range subs {
		b = append(b, s...)
	}
	return b
}

func encodeRaw(status uint32, ts int64, first, second uint64, multi uint32) []byte {
	b := blHeader(kindRawCounter, recordHeaderSize+rawCounterSize)
	body := make([]byte, rawCounterSize)
	le := binary.LittleEndian
	le.PutUint32(body[0:], status)
	le.PutUint64(body[4:], uint64(ts))
	le.PutUint64(body[16:], first)
	le.PutUint64(body[24:], second)
	le.PutUint32(body[32:], multi)
	return append(b, body...)
}

type itemSpec struct {
	name          string
	first, second uint64
	multi         uint32
}

func encodeMulti(status uint32, ts int64, items ...itemSpec) []byte {
	le := binary.LittleEndian
	body := make([]byte, multiHeader+len(items)*multiItemSize)
	le.PutUint32(body[4:], uint32(len(items)))
	le.PutUint32(body[8:], status)
	le.PutUint64(body[16:], uint64(ts))
	var names []byte
	for i, it := range items {
		q := body[multiHeader+i*multiItemSize:]
		le.PutUint32(q[0:], uint32(len(body)+len(names)))
		le.PutUint32(q[4:], it.multi)
		le.PutUint64(q[8:], it.first)
		le.PutUint64(q[16:], it.second)
		names = append(names, u16s(it.name)...)
	}
	body = append(body, names...)
	for len(body)%8 != 0 {
		body = append(body, 0)
	}
	le.PutUint32(body[0:], uint32(len(body)))
	return append(blHeader(kindMulti, recordHeaderSize+len(body)), body...)
}

// encodeBlock returns a minimal PERF_DATA_BLOCK of n bytes (n ≥ 88) with
// the given fill after its header.
func encodeBlock(n int, fill byte) []byte {
	b := make([]byte, n)
	copy(b, "P\x00E\x00R\x00F\x00")
	binary.LittleEndian.PutUint32(b[8:], 1)
	binary.LittleEndian.PutUint32(b[20:], uint32(n))
	binary.LittleEndian.PutUint32(b[24:], perfDataBlock)
	for i := perfDataBlock; i < n; i++ {
		b[i] = fill
	}
	return b
}

func encodeWhole(block []byte) []byte {
	return append(blHeader(kindWholeObject, recordHeaderSize+len(block)), block...)
}

// Two counters: a single one and a wildcard (multi-instance) one.
var testEntries = []entrySpec{
	{typ: 0x00550500, timeBase: 10_000_000, scale: 2, machine: `\\HOST`, object: "PhysicalDisk", instance: "0 C:", counter: "Avg. Disk Queue Length"},
	{flags: 1, typ: 0x21510500, timeBase: 10_000_000, machine: `\\HOST`, object: "Processor", instance: "*", counter: "% Processor Time"},
}

// testLog returns a log of n samples over testEntries, with records split
// into parts of at most maxPart bytes, in bufSize-byte buffers.
func testLog(n, bufSize, maxPart int) []byte {
	l := newLog(bufSize, pacific)
	l.record(EventCounterList, 1000, encodeCounterList(testEntries...), maxPart)
	for i := 0; i < n; i++ {
		ts := int64(130057734178440000 + i*10_000_000)
		l.record(EventSample, ts, encodeSample(
			encodeRaw(0, ts, uint64(1000*i), uint64(ts)+288000000000, 1),
			encodeMulti(0, ts,
				itemSpec{"0", uint64(100 * i), uint64(ts), 0},
				itemSpec{"1", uint64(200 * i), uint64(ts), 0},
				itemSpec{"_Total", uint64(150 * i), uint64(ts), 0}),
		), maxPart)
	}
	return l.bytes()
}
