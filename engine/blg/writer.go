package blg

import (
	"errors"
	"io"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// WriterConfig describes the log a Writer writes: its header and its
// counter list. The zero values of the header's fields are written as they
// are, but for BufferSize (0: 64 KiB) and PointerSize (0: 8).
type WriterConfig struct {
	// Header gives the fields of TRACE_LOGFILE_HEADER: BufferSize,
	// Version, ProviderVersion, NumberOfProcessors, TimerResolution,
	// MaximumFileSize, LogFileMode, StartBuffers, PointerSize (4 or 8: the
	// width of the system and event headers), EventsLost, CPUSpeedMHz,
	// TimeZone, BootTime, PerfFreq, StartTime, ReservedFlags, BuffersLost,
	// LoggerName and LogFileName. EndTime and BuffersWritten are the
	// writer's (see Writer.Close); Offset and HeaderType are ignored.
	Header LogHeader
	// LogGUID is the GUID every PDH event of the log carries
	// (Reader.LogGUID of a log being rewritten).
	LogGUID [16]byte
	// Counters is the counter list: Flags, UserData, Type, TimeBase,
	// DefaultScale, Machine, Object, Instance, Parent, InstanceIndex and
	// Counter of each entry (Index, Offset and Path are ignored).
	Counters []CounterInfo
	// ListTime is the time stamp of the counter list's event (a local
	// FILETIME, as PDH writes its events' time stamps); 0 writes the
	// header's StartTime in the header's time zone.
	ListTime int64
}

// Writer writes a perfmon binary log (.blg) in the layout of the PDH
// raw-counter logs that Windows 8 and later write (the layout Reader
// reads; doc/FORMATS.md §5): 64 KiB buffers, the first holding the log
// header alone, then the counter list and one sample record per sample,
// each an event of PDH's provider, split over several events where it does
// not fit in one. Raw values are written as they are given: reading the
// log back yields them unchanged.
//
// A Writer holds one buffer and the record being encoded, never the log:
// it writes each buffer to its io.Writer, in one Write call, once it is
// full (and the last one at Close), so a log cut short at any byte (a full
// disk, a killed process) reads up to its last whole buffer, and never
// decodes to other values than those written. The first error of the
// io.Writer stops the Writer: every later call returns it.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	w        io.Writer
	cfg      WriterConfig
	bufSize  int
	ptr      int
	buf      []byte // the buffer being filled
	used     int
	index    int   // index of buf among the log's buffers
	lastTime int64 // local time stamp of the last event in buf
	rec      []byte
	clock    *Clock
	err      error
	closed   bool
	samples  int
}

// ErrWriterClosed is the error of a Writer used after Close.
var ErrWriterClosed error = writerClosed{}

// writerClosed is ErrWriterClosed's type: a value that needs no code at
// init, so that a program that writes no log (the WebAssembly module)
// links nothing of the Writer.
type writerClosed struct{}

func (writerClosed) Error() string { return "blg: writer closed" }

// NewWriter starts a log on w: it checks the configuration, writes the
// first buffer (the log header) and encodes the counter list into the
// second buffer. A counter list of more than MaxRecordSize bytes is
// refused.
func NewWriter(w io.Writer, cfg WriterConfig) (*Writer, error) {
	bs := int(cfg.Header.BufferSize)
	if bs == 0 {
		bs = 64 << 10
	}
	if bs < MinBufferSize || bs > MaxBufferSize || bs%1024 != 0 {
		return nil, writeError("BufferSize ", int64(bs), " is not a 1 KiB multiple in 1 KiB..1 MiB")
	}
	ptr := int(cfg.Header.PointerSize)
	if ptr == 0 {
		ptr = 8
	}
	if ptr != 4 && ptr != 8 {
		return nil, writeError("PointerSize ", int64(ptr), " is neither 4 nor 8")
	}
	cfg.Header.BufferSize, cfg.Header.PointerSize = uint32(bs), uint32(ptr)
	wr := &Writer{w: w, cfg: cfg, bufSize: bs, ptr: ptr, buf: make([]byte, bs)}
	wr.clock = NewClock(&wr.cfg.Header.TimeZone)
	hdr, err := wr.logHeaderEvent()
	if err != nil {
		return nil, err
	}
	if len(hdr) > bs-BufferHeaderSize {
		return nil, errors.New("blg: the log header (logger and file names) does not fit in a buffer")
	}
	wr.start()
	wr.put(hdr, 0)
	if err := wr.flush(0); err != nil {
		return nil, err
	}
	list, err := appendCounterList(nil, cfg.Counters, cfg.Header.MajorVersion() < 6)
	if err != nil {
		return nil, err
	}
	ts := cfg.ListTime
	if ts == 0 {
		ts = wr.cfg.Header.TimeZone.ToLocal(cfg.Header.StartTime)
	}
	if err := wr.record(EventCounterList, ts, list); err != nil {
		return nil, err
	}
	return wr, nil
}

// WriteSample writes one sample: its time stamp (the logging machine's
// local time, as Sample.TimeStamp) and its raw values, grouped by
// counter-list entry in list order (Value.Counter never decreasing), as
// Sample.Values holds them. Each entry's values become its sub-record:
//
//   - one value without an instance name (Value.Instance nil: a single
//     counter) is a PDH_RAW_COUNTER sub-record;
//   - values that name their instances (UTF-8 as Reader decodes them, an
//     unpaired surrogate as U+FFFD and its four hex digits; the entries
//     whose Instance is "*" have these) are a multi-instance sub-record,
//     whose CStatus and FILETIME they must share;
//   - no value is a multi-instance sub-record without items: none for a
//     wildcard entry, and for a single counter its absence from this
//     sample (what perfcalc's relog prints as an empty field).
//
// So a sample that Reader yields is written as it was read, and reads back
// to the same values. Whole-object entries cannot be written.
func (w *Writer) WriteSample(ts int64, values []Value) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return ErrWriterClosed
	}
	rec, err := w.appendSample(w.rec[:0], values)
	w.rec = rec
	if err != nil {
		return err
	}
	if err := w.record(EventSample, ts, rec); err != nil {
		return err
	}
	w.samples++
	return nil
}

// Flush writes the buffer being filled, if it holds an event, and starts
// the next: the samples written so far are then in whole buffers of the
// output, which a reader reads whatever happens to the rest (a live log,
// perfcalc watch -f bin, flushes after each sample). Each flush costs a
// buffer of the output.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return ErrWriterClosed
	}
	if w.used == BufferHeaderSize {
		return nil
	}
	return w.flush(0)
}

// Samples returns the number of samples written.
func (w *Writer) Samples() int { return w.samples }

// Close writes the last buffer. When the io.Writer is also an
// io.WriterAt (a file, whose offset 0 is the log's first byte), it then
// sets the header's EndTime (end, a UTC FILETIME; 0 leaves it 0) and
// BuffersWritten, as Windows does when it closes a log; otherwise (a
// stream) they stay 0, as in a real-time log or one still being written,
// which Reader reads alike. An *os.File can be a pipe, whose WriteAt fails
// ("illegal seek"), or stand after other bytes: the caller then passes
// an io.Writer without WriteAt, or one whose WriteAt is at the log's
// offset (as perfcalc relog and watch do). Close does not close the
// io.Writer.
func (w *Writer) Close(end int64) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return ErrWriterClosed
	}
	w.closed = true
	if w.used > BufferHeaderSize || w.index < 2 { // not after a Flush
		if err := w.flush(-1); err != nil {
			return err
		}
	}
	at, ok := w.w.(io.WriterAt)
	if !ok {
		return nil
	}
	var b [8]byte
	off := int64(BufferHeaderSize + systemHeaderSize)
	putU64(b[:], uint64(end))
	if _, err := at.WriteAt(b[:8], off+16); err != nil {
		w.err = err
		return err
	}
	putU32(b[:], uint32(w.index))
	if _, err := at.WriteAt(b[:4], off+36); err != nil {
		w.err = err
		return err
	}
	return nil
}

// start begins buffer w.index.
func (w *Writer) start() {
	w.used = BufferHeaderSize
	clear(w.buf[:BufferHeaderSize])
}

// put appends one event (its Size set) to the buffer, its padding zeroed.
func (w *Writer) put(ev []byte, ts int64) {
	copy(w.buf[w.used:], ev)
	n := (len(ev) + 7) &^ 7
	clear(w.buf[w.used+len(ev) : w.used+n])
	w.used += n
	w.lastTime = ts
}

// flush writes the buffer being filled and starts the next. next is the
// size of the event that did not fit, or −1 when the log ends.
func (w *Writer) flush(next int) error {
	for i := w.used; i < len(w.buf); i++ {
		w.buf[i] = 0xFF
	}
	// The fields through an array: one bounds check, not one per field
	// (each costs the WebAssembly module tens of bytes).
	b := (*[BufferHeaderSize]byte)(w.buf)
	putU32(b[0x00:], uint32(w.bufSize))
	putU32(b[0x04:], uint32(w.used)) // SavedOffset
	putU32(b[0x30:], uint32(w.used)) // Offset
	if w.index > 0 {
		cur := w.used + w.bufSize // the log's end
		if next >= 0 {
			cur = w.used + next
		}
		putU32(b[0x08:], uint32(cur)) // CurrentOffset, as Windows leaves it
		putU64(b[0x10:], uint64(w.clock.UTC(w.lastTime)))
		putU64(b[0x18:], uint64(w.index)) // SequenceNumber
		putU32(b[0x2C:], 3)               // State, as in Windows 8 logs
		flag := uint16(0x20)
		if next < 0 {
			flag = 0x21
		}
		putU16(b[0x34:], flag) // BufferFlag
	} else {
		putU16(b[0x34:], 1) // the header's buffer: BufferFlag 1,
		putU16(b[0x36:], 4) // BufferType 4
	}
	if _, err := w.w.Write(w.buf); err != nil {
		w.err = err
		return err
	}
	w.index++
	w.start()
	return nil
}

// maxPart is the most data one event carries for buffers of bufSize bytes:
// what fits in an empty buffer, and in the event's 16-bit Size.
func maxPart(bufSize int) int {
	return min(bufSize-BufferHeaderSize, 0xFFF8) - eventHeaderSize - partHeaderSize
}

// record writes a PDH record of event type typ, split into parts where it
// does not fit in one event.
func (w *Writer) record(typ uint8, ts int64, data []byte) error {
	if w.err != nil {
		return w.err
	}
	if len(data) > MaxRecordSize {
		return writeError("a record of ", int64(len(data)), " bytes exceeds MaxRecordSize")
	}
	mp := maxPart(w.bufSize) &^ 7
	count := max(1, (len(data)+mp-1)/mp)
	if count > MaxRecordParts {
		return writeError("a record of ", int64(len(data)), " bytes needs more than MaxRecordParts events")
	}
	for i := range count {
		part := data[i*mp : min((i+1)*mp, len(data))]
		size := eventHeaderSize + partHeaderSize + len(part)
		if w.used+((size+7)&^7) > w.bufSize {
			if err := w.flush((size + 7) &^ 7); err != nil {
				return err
			}
		}
		ev := (*[eventHeaderSize + partHeaderSize]byte)(w.buf[w.used:])
		clear(ev[:])
		putU16(ev[0:], uint16(size))
		ev[2] = traceHeaderFull64
		if w.ptr == 4 {
			ev[2] = traceHeaderFull32
		}
		ev[3], ev[4] = 0xC0, typ
		putU16(ev[6:], 0x3C) // Version, as PDH writes it
		putU64(ev[16:], uint64(ts))
		copy(ev[24:40], providerGUID[:])
		copy(ev[48:64], w.cfg.LogGUID[:])
		putU32(ev[64:], uint32(i+1))
		putU32(ev[68:], uint32(count))
		body := w.buf[w.used+len(ev):]
		copy(body, part)
		n := (size + 7) &^ 7
		clear(body[len(part) : n-len(ev)])
		w.used += n
		w.lastTime = ts
	}
	return nil
}

// logHeaderEvent encodes the log's first event: the system trace header
// and TRACE_LOGFILE_HEADER with the logger's and the file's names.
func (w *Writer) logHeaderEvent() ([]byte, error) {
	h := &w.cfg.Header
	fixed, typ := logFileHeaderFixed64, byte(traceHeaderSystem64)
	if w.ptr == 4 {
		fixed, typ = logFileHeaderFixed32, traceHeaderSystem32
	}
	ev := make([]byte, systemHeaderSize+fixed, systemHeaderSize+fixed+2*(len(h.LoggerName)+len(h.LogFileName))+4)
	ev[2], ev[3] = typ, 0xC0
	putU64(ev[16:], uint64(h.StartTime)) // the system header's time stamp
	putU32(ev[24:], 1)                   // KernelTime, as Windows 8 writes it
	b := (*[logFileHeaderFixed32]byte)(ev[systemHeaderSize:])
	putU32(b[0:], h.BufferSize)
	putU32(b[4:], h.Version)
	putU32(b[8:], h.ProviderVersion)
	putU32(b[12:], h.NumberOfProcessors)
	putU32(b[24:], h.TimerResolution)
	putU32(b[28:], h.MaximumFileSize)
	putU32(b[32:], h.LogFileMode)
	putU32(b[40:], h.StartBuffers)
	putU32(b[44:], h.PointerSize)
	putU32(b[48:], h.EventsLost)
	putU32(b[52:], h.CPUSpeedMHz)
	tz := 56 + 2*w.ptr
	if err := putTimeZone((*[timeZoneSize]byte)(b[tz:]), &h.TimeZone); err != nil {
		return nil, err
	}
	t := (tz + timeZoneSize + 7) &^ 7
	tail := (*[32]byte)(ev[systemHeaderSize+t:])
	putU64(tail[0:], uint64(h.BootTime))
	putU64(tail[8:], uint64(h.PerfFreq))
	putU64(tail[16:], uint64(h.StartTime))
	putU32(tail[24:], h.ReservedFlags)
	putU32(tail[28:], h.BuffersLost)
	ev = appendUTF16Z(ev, h.LoggerName, false)
	ev = appendUTF16Z(ev, h.LogFileName, false)
	if w.cfg.Header.MajorVersion() < 6 {
		// Windows 5.2 (the PowerShell log) counts the event's size in
		// whole DWORDs.
		for len(ev)%4 != 0 {
			ev = append(ev, 0)
		}
	}
	if len(ev) > 0xFFFF {
		return nil, errors.New("blg: the logger and file names are too long for the log header")
	}
	putU16(ev[4:], uint16(len(ev)))
	return ev, nil
}

// encodeTimeZone writes a TIME_ZONE_INFORMATION (172 bytes) into b.
func putTimeZone(b *[timeZoneSize]byte, tz *TimeZone) error {
	putU32(b[0:], uint32(tz.Bias))
	for _, s := range [2]struct {
		name string
		at   int
	}{{tz.StandardName, 4}, {tz.DaylightName, 88}} {
		u := appendUTF16Z(nil, s.name, false)
		if len(u)-2 > 64 { // 32 units fill the field without a NUL

			return errors.New("blg: time-zone name " + s.name + " exceeds 32 characters")
		}
		copy(b[s.at:s.at+64], u)
	}
	writeSystemTime(b[68:], &tz.StandardDate)
	putU32(b[84:], uint32(tz.StandardBias))
	writeSystemTime(b[152:], &tz.DaylightDate)
	putU32(b[168:], uint32(tz.DaylightBias))
	return nil
}

// appendCounterList encodes the counter-list record: the 8-byte list
// header, then one entry per counter, its strings after its 52 fixed
// bytes (machine, object, instance, parent, counter), padded to 8 bytes.
func appendCounterList(dst []byte, cs []CounterInfo, legacy bool) ([]byte, error) {
	dst = append(dst, 0xFF, 0x06, 0, 0, counterListHeaderSize, 0, 2, 0)
	for i := range cs {
		c := &cs[i]
		start := len(dst)
		var h [counterEntryHeaderSize]byte
		dst = append(dst, h[:]...)
		putU32(h[4:], c.Flags)
		putU32(h[8:], c.UserData)
		putU32(h[12:], uint32(c.Type))
		putU64(h[16:], uint64(c.TimeBase))
		putU32(h[24:], uint32(c.DefaultScale))
		putU32(h[44:], c.InstanceIndex)
		strs := start + counterEntryHeaderSize
		for _, s := range [5]struct {
			v        string
			at       int
			optional bool
		}{{c.Machine, 28, false}, {c.Object, 32, false}, {c.Instance, 36, true}, {c.Parent, 40, true}, {c.Counter, 48, false}} {
			at := (*[4]byte)(h[s.at:])
			if s.optional && s.v == "" {
				putU32(at[:], noString)
				continue
			}
			putU32(at[:], uint32(len(dst)-strs))
			dst = appendUTF16Z(dst, s.v, s.optional)
		}
		// Entries are padded to 8 bytes; the PDH of Windows 5.2 (the
		// PowerShell log) pads an aligned entry by 8 bytes more.
		for pad := 0; (len(dst)-start)%8 != 0 || pad == 0 && legacy; pad++ {
			dst = append(dst, 0)
		}
		if len(dst)-start > 1<<20 || len(dst) > MaxRecordSize {
			return nil, writeError("counter list entry ", int64(i), " is too long")
		}
		putU32(h[:], uint32(len(dst)-start))
		copy(dst[start:], h[:])
	}
	return dst, nil
}

// appendSample encodes a sample record ("BL" 03 00) of values.
func (w *Writer) appendSample(dst []byte, values []Value) ([]byte, error) {
	dst = append(dst, 'B', 'L', recordVersion, kindSample, 0, 0, 0, 0)
	v := 0
	for n := range w.cfg.Counters {
		c := &w.cfg.Counters[n]
		end := v
		for end < len(values) && values[end].Counter == n {
			end++
		}
		if end < len(values) && values[end].Counter < n {
			return dst, errors.New("blg: values out of counter-list order at value " + itoa(int64(end)))
		}
		vals := values[v:end]
		v = end
		if c.Flags&0x10 != 0 || c.Counter == "*" {
			return dst, writeError("counter list entry ", int64(n), " is a whole object, which cannot be written")
		}
		if len(vals) == 1 && vals[0].Instance == nil {
			dst = appendRawCounter(dst, &vals[0].Raw)
			continue
		}
		var err error
		if dst, err = w.appendMulti(dst, vals, n); err != nil {
			return dst, err
		}
	}
	if v < len(values) {
		return dst, writeError("value ", int64(v), " names counter "+itoa(int64(values[v].Counter))+", beyond the counter list")
	}
	if len(dst) > MaxRecordSize {
		return dst, writeError("a sample of ", int64(len(dst)), " bytes exceeds MaxRecordSize")
	}
	putU32(dst[4:], uint32(len(dst)))
	return dst, nil
}

// appendRawCounter encodes a PDH_RAW_COUNTER sub-record ("BL" 03 01).
func appendRawCounter(dst []byte, r *engine.RawCounter) []byte {
	var a [recordHeaderSize + rawCounterSize]byte
	a[0], a[1], a[2], a[3] = 'B', 'L', recordVersion, kindRawCounter
	putU32(a[4:], recordHeaderSize+rawCounterSize)
	b := a[recordHeaderSize:]
	putU32(b[0:], r.CStatus)
	putU64(b[4:], uint64(r.TimeStamp))
	putU64(b[16:], r.FirstValue)
	putU64(b[24:], r.SecondValue)
	putU32(b[32:], r.MultiCount)
	return append(dst, a[:]...)
}

// appendMulti encodes a multi-instance sub-record ("BL" 03 02) of vals,
// which share their CStatus and time stamp.
func (w *Writer) appendMulti(dst []byte, vals []Value, n int) ([]byte, error) {
	p := len(dst)
	items := multiHeader + len(vals)*multiItemSize
	dst = append(dst, make([]byte, recordHeaderSize+items)...)
	b := dst[p:]
	b[0], b[1], b[2], b[3] = 'B', 'L', recordVersion, kindMulti
	body := p + recordHeaderSize
	mh := (*[multiHeader]byte)(dst[body:])
	if len(vals) > 0 {
		putU32(mh[8:], vals[0].Raw.CStatus)
		putU64(mh[16:], uint64(vals[0].Raw.TimeStamp))
	}
	putU32(mh[4:], uint32(len(vals)))
	room := 0
	for i := range vals {
		r := &vals[i].Raw
		if vals[i].Instance == nil {
			return dst, writeError("", int64(len(vals)), " values for counter list entry "+itoa(int64(n))+", one without an instance name")
		}
		if r.CStatus != vals[0].Raw.CStatus || r.TimeStamp != vals[0].Raw.TimeStamp {
			return dst, writeError("the instances of counter list entry ", int64(n), " differ in CStatus or time stamp, which a multi-instance record shares")
		}
		it := (*[multiItemSize]byte)(dst[body+multiHeader+i*multiItemSize:])
		putU32(it[0:], uint32(len(dst)-body))
		putU32(it[4:], r.MultiCount)
		putU64(it[8:], r.FirstValue)
		putU64(it[16:], r.SecondValue)
		at := len(dst)
		dst = appendUTF16Z(dst, string(vals[i].Instance), true)
		room += (len(dst) - at + 7) &^ 7
	}
	// PDH sizes the names' room as if each name were padded to 8 bytes,
	// and packs them: the room left is zeroed.
	for len(dst)-body < items+room {
		dst = append(dst, 0)
	}
	putU32(dst[body:], uint32(len(dst)-body))
	putU32(dst[p+4:], uint32(len(dst)-p))
	return dst, nil
}

// appendUTF16Z appends s as NUL-terminated UTF-16LE. With units set, s is
// a name as AppendUTF16Name decodes it: U+FFFD followed by four lower-case
// hexadecimal digits is that code unit.
func appendUTF16Z(dst []byte, s string, units bool) []byte {
	next := 0 // the byte after a U+FFFD's hex digits
	for i, r := range s {
		if i < next {
			continue
		}
		if units && r == 0xFFFD && len(s)-i >= 3+4 && s[i:i+3] == "\uFFFD" {
			if u, ok := hex4(s[i+3 : i+7]); ok {
				dst = append(dst, byte(u), byte(u>>8))
				next = i + 7
				continue
			}
		}
		if r >= 0x10000 {
			r -= 0x10000
			hi, lo := 0xD800+(r>>10), 0xDC00+(r&0x3FF)
			dst = append(dst, byte(hi), byte(hi>>8), byte(lo), byte(lo>>8))
			continue
		}
		dst = append(dst, byte(r), byte(r>>8))
	}
	return append(dst, 0, 0)
}

// hex4 decodes four lower-case hexadecimal digits.
func hex4(s string) (uint16, bool) {
	var u uint16
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			u = u<<4 | uint16(c-'0')
		case 'a' <= c && c <= 'f':
			u = u<<4 | uint16(c-'a'+10)
		default:
			return 0, false
		}
	}
	return u, true
}

// writeSystemTime writes a SYSTEMTIME (16 bytes).
func writeSystemTime(b []byte, st *wintype.SystemTime) {
	for i, v := range [8]uint16{st.Year, st.Month, st.DayOfWeek, st.Day, st.Hour, st.Minute, st.Second, st.Milliseconds} {
		putU16(b[2*i:], v)
	}
}

// putU16, putU32 and putU64 store little-endian integers (le: one store
// each in the module).
// writeError is a Writer's error: "blg: ", what, n and rest. (One
// function for them all: each concatenation costs the WebAssembly module
// hundreds of bytes.)
//
//go:noinline
func writeError(what string, n int64, rest string) error {
	return errors.New("blg: " + what + itoa(n) + rest)
}

func putU16(b []byte, v uint16) { le.PutUint16(b, v) }
func putU32(b []byte, v uint32) { le.PutUint32(b, v) }
func putU64(b []byte, v uint64) { le.PutUint64(b, v) }

// ConfigOf returns the configuration that rewrites the log r reads: its
// header, its log GUID and its counter list (Close's end time is the
// header's EndTime).
func ConfigOf(r *Reader) WriterConfig {
	return WriterConfig{Header: r.header, LogGUID: r.guid, Counters: r.counters}
}
