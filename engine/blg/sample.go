package blg

import (
	"encoding/binary"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/internal/text"
)

// Sample record layout (event type 0x22). Every record and sub-record
// starts with an 8-byte header: 'B' 'L', a version byte (3), a kind byte,
// and a u32 Size that includes the header.
const (
	recordHeaderSize = 8
	recordVersion    = 3

	kindSample      = 0 // BL 03 00: a sample, the container of one sub-record per counter-list entry
	kindRawCounter  = 1 // BL 03 01: one PDH_RAW_COUNTER
	kindMulti       = 2 // BL 03 02: the raw values of every instance of a wildcard counter
	kindWholeObject = 5 // BL 03 05: a complete PERF_DATA_BLOCK for one object (Vista)

	rawCounterSize = 40 // PDH_RAW_COUNTER as logged
	multiHeader    = 24 // u32 Size, u32 ItemCount, u32 CStatus, u32 pad, FILETIME TimeStamp
	multiItemSize  = 24 // u32 NameOffset, u32 MultiCount, i64 FirstValue, i64 SecondValue
	perfDataBlock  = 88 // sizeof(PERF_DATA_BLOCK)
)

// Sample is one sample record: every counter's raw values at one time.
// The slices alias the reader's buffers and are valid until the next call
// to Next (or to Decode on the same Sample).
type Sample struct {
	Index     int    // 0-based position among the log's samples
	Offset    int64  // file offset of the record's first event
	TimeStamp int64  // the event's FILETIME as PDH wrote it (observed: the logging machine's local time)
	Record    []byte // the whole record, reassembled: "BL" 03 00 …

	// Values holds the raw values of the raw-counter sub-records (BL 03 01
	// and BL 03 02), in counter-list order and, within a multi-instance
	// record, in the record's instance order.
	Values []Value
	// Blocks holds the whole-object sub-records (BL 03 05) of Vista-era
	// logs: one PERF_DATA_BLOCK per object, for the perfdata decoder.
	Blocks []Block
	// Repeat reports that Values hold the same counters and instance names
	// (Value.Counter and Value.Instance, the same bytes), in the same
	// order, as they did for the sample decoded into this Sample before
	// it (the previous one that Next yielded): only the raw data changed.
	// Nearly every sample of a raw-record log repeats the one before it;
	// a sample with whole-object sub-records never does.
	Repeat bool

	names []byte // UTF-8 instance names of Values
	spans []nameSpan

	// The layout of the sample last decoded, for the next one (repeat.go):
	// its record's header, every sub-record's header and, for each multi-
	// instance sub-record, its size and count, its items' name offsets and
	// its name bytes, one after the other; valid when layoutN > 0 (the
	// counter list's length then).
	layout  []byte
	layoutN int
}

type nameSpan struct {
	value      int
	start, end int
}

// Value is one raw value of a sample: the counter it belongs to, the
// instance for an item of a multi-instance record, and the raw data as the
// engine takes it (CStatus kept as logged: a bad status gives that value
// InvalidData when computed).
type Value struct {
	Counter  int    // index into the counter list
	Instance []byte // UTF-8 instance name of a multi-instance item (an unpaired surrogate written U+FFFD and its 4 hex digits, U+FFFD itself U+FFFD fffd); nil for a single counter
	Raw      engine.RawCounter
}

// Block is a whole-object sub-record: the counter-list entry it belongs to
// and a view of its PERF_DATA_BLOCK (signature "PERF", TotalByteLength
// bytes).
type Block struct {
	Counter int
	Data    []byte
}

// Decode decodes a sample record (the data of event type 0x22,
// reassembled) of a log whose counter list has numCounters entries, into s,
// reusing s's slices. Offsets in errors are relative to the record.
// s.Record and s.Blocks alias record; the instance names live in s.
// A record laid out as the one s decoded before it (Repeat) is decoded by
// its raw data alone: the caller must leave s's Values, but for their Raw,
// as that decode left them.
func (s *Sample) Decode(record []byte, numCounters int) error {
	return s.decode(record, numCounters, &locator{})
}

func (s *Sample) decode(b []byte, numCounters int, loc *locator) error {
	const rec = "sample record"
	s.Record = b
	if repeats && s.repeat(b, numCounters) {
		s.Repeat = true
		return nil
	}
	s.Repeat, s.layoutN = false, 0
	if repeats {
		s.layout = append(s.layout[:0], b[:min(len(b), recordHeaderSize)]...)
	}
	s.Values = s.Values[:0]
	s.Blocks = s.Blocks[:0]
	s.names = s.names[:0]
	s.spans = s.spans[:0]
	size, err := recordHeader(b, kindSample, rec, s.Index, 0, loc)
	if err != nil {
		return err
	}
	n := 0
	for p := recordHeaderSize; p < size; n++ {
		if n >= numCounters {
			return errf(rec, s.Index, loc.at(p), "", engine.ErrMalformed, "more sub-records than the %d entries of the counter list", int64(numCounters))
		}
		sub := b[p:size]
		if len(sub) < recordHeaderSize {
			return errf(rec, s.Index, loc.at(p), "", engine.ErrTruncated, "sub-record header needs %d bytes, have %d", recordHeaderSize, int64(len(sub)))
		}
		kind := sub[3]
		subSize, err := recordHeader(sub, -1, "sub-record", n, p, loc)
		if err != nil {
			return err
		}
		body := sub[recordHeaderSize:subSize]
		bodyOff := p + recordHeaderSize
		if repeats {
			s.layout = append(s.layout, sub[:recordHeaderSize]...)
		}
		switch kind {
		case kindRawCounter:
			err = s.rawCounter(body, n, bodyOff, loc)
		case kindMulti:
			err = s.multi(body, n, bodyOff, loc)
		case kindWholeObject:
			err = s.wholeObject(body, n, bodyOff, loc)
		default:
			err = errf("sub-record", n, loc.at(p+3), "Kind", engine.ErrUnsupported, "BL 03 %x is not a known sub-record (01, 02, 05)", int64(kind))
		}
		if err != nil {
			return err
		}
		p += subSize
	}
	if n != numCounters {
		return errf(rec, s.Index, loc.at(0), "Size", engine.ErrMalformed, "holds %d sub-records for %d counter-list entries", int64(n), int64(numCounters))
	}
	if s.names == nil && len(s.spans) > 0 {
		// Every name is empty: an empty name is still a name (nil is a
		// single counter's), so the names need an array.
		s.names = make([]byte, 0, 64)
	}
	for _, sp := range s.spans {
		s.Values[sp.value].Instance = s.names[sp.start:sp.end:sp.end]
	}
	if repeats && len(s.Blocks) == 0 {
		s.layoutN = numCounters
	}
	return nil
}

// recordHeader checks the 8-byte "BL" header at the start of b (a record
// or sub-record at record offset p) and returns its Size. kind is the kind
// byte required, or −1 for any.
func recordHeader(b []byte, kind int, rec string, index, p int, loc *locator) (int, error) {
	if len(b) < recordHeaderSize {
		return 0, errf(rec, index, loc.at(p), "", engine.ErrTruncated, "needs %d bytes, have %d", recordHeaderSize, int64(len(b)))
	}
	if b[0] != 'B' || b[1] != 'L' || b[2] != recordVersion || (kind >= 0 && int(b[3]) != kind) {
		want := "xx"
		if kind >= 0 {
			want = "0" + strconv.Itoa(kind)
		}
		return 0, newError(rec, index, loc.at(p), "Signature", "is "+hexa(uint64(binary.BigEndian.Uint32(b)))+", want 0x424c03"+want+" (\"BL\" 03 "+want+")", engine.ErrMalformed)
	}
	size := le.Uint32(b[4:])
	if size < recordHeaderSize || uint64(size) > uint64(len(b)) {
		return 0, errf(rec, index, loc.at(p+4), "Size", engine.ErrMalformed, "%u outside %d..%d", int64(size), recordHeaderSize, int64(len(b)))
	}
	return int(size), nil
}

// rawCounter decodes a PDH_RAW_COUNTER as logged: CStatus u32 @0, FILETIME
// TimeStamp @4, pad @12, FirstValue @16, SecondValue @24, MultiCount @32.
func (s *Sample) rawCounter(b []byte, n, p int, loc *locator) error {
	if len(b) < rawCounterSize {
		return errf("PDH_RAW_COUNTER", n, loc.at(p), "", engine.ErrTruncated, "needs %d bytes, have %d", rawCounterSize, int64(len(b)))
	}
	raw := s.addValue(n)
	raw.CStatus = le.Uint32(b[0:])
	raw.TimeStamp = int64(le.Uint64(b[4:]))
	raw.FirstValue = le.Uint64(b[16:])
	raw.SecondValue = le.Uint64(b[24:])
	raw.MultiCount = le.Uint32(b[32:])
	return nil
}

// addValue appends a Value of counter n to s.Values and returns its raw
// data to fill in place (building the 72-byte Value and copying it in
// took a quarter of the decoding).
func (s *Sample) addValue(n int) *engine.RawCounter {
	if len(s.Values) == cap(s.Values) {
		s.Values = append(s.Values, Value{})
	} else {
		s.Values = s.Values[:len(s.Values)+1]
	}
	v := &s.Values[len(s.Values)-1]
	v.Counter, v.Instance = n, nil
	return &v.Raw
}

// multi decodes a multi-instance sub-record: a 24-byte header (u32 Size of
// this body, u32 ItemCount, u32 CStatus, u32 pad, FILETIME TimeStamp), then
// ItemCount 24-byte items (u32 NameOffset, u32 MultiCount, u64 FirstValue,
// u64 SecondValue), then the NUL-terminated UTF-16LE names; NameOffset is
// from the start of the body.
func (s *Sample) multi(b []byte, n, p int, loc *locator) error {
	const rec = "multi-instance record"
	if len(b) < multiHeader {
		return errf(rec, n, loc.at(p), "", engine.ErrTruncated, "needs %d bytes, have %d", multiHeader, int64(len(b)))
	}
	size := le.Uint32(b[0:])
	if size < multiHeader || uint64(size) > uint64(len(b)) {
		return errf(rec, n, loc.at(p), "Size", engine.ErrMalformed, "%u outside %d..%d", int64(size), multiHeader, int64(len(b)))
	}
	b = b[:size]
	count := le.Uint32(b[4:])
	if uint64(count) > uint64((len(b)-multiHeader)/multiItemSize) {
		return errf(rec, n, loc.at(p+4), "ItemCount", engine.ErrMalformed, "%u items do not fit in %d bytes", int64(count), int64(len(b)))
	}
	status := le.Uint32(b[8:])
	ts := int64(le.Uint64(b[16:]))
	namesStart := uint64(multiHeader + int(count)*multiItemSize)
	if repeats {
		s.layout = append(s.layout, b[:8]...)
		for i := 0; i < int(count); i++ {
			q := multiHeader + i*multiItemSize
			s.layout = append(s.layout, b[q:q+4]...)
		}
		s.layout = append(s.layout, b[namesStart:]...)
	}
	nameBytes := uint64(0)
	for i := 0; i < int(count); i++ {
		q := multiHeader + i*multiItemSize
		it := b[q : q+multiItemSize]
		no := le.Uint32(it[0:])
		if uint64(no) < namesStart || uint64(no) >= uint64(len(b)) {
			return errf(rec, n, loc.at(p+q), "NameOffset", engine.ErrMalformed, "%x of item %d outside the names at %x..%x", int64(no), int64(i), int64(namesStart), int64(len(b)))
		}
		ln, ok := text.UTF16Len(b[no:])
		if !ok {
			return errf(rec, n, loc.at(p+int(no)), "NameOffset", engine.ErrMalformed, "name of item %d has no NUL before the end of the record", int64(i))
		}
		if ln > 2*counterpath.MaxInstanceName {
			return newError(rec, n, loc.at(p+int(no)), "NameOffset", "name longer than PDH_MAX_INSTANCE_NAME (1024 characters)", engine.ErrUnsupported)
		}
		// The names lie after the items, one each: together they fit in
		// the bytes after the items. Items that share or overlap names
		// would make a small record decode into a huge one.
		if nameBytes += uint64(ln) + 2; nameBytes > uint64(len(b))-namesStart {
			return newError(rec, n, loc.at(p+q), "NameOffset", "items whose names overlap: more name bytes than the record holds", engine.ErrMalformed)
		}
		start := len(s.names)
		s.names = text.AppendUTF16Name(s.names, b[no:no+uint32(ln)])
		s.spans = append(s.spans, nameSpan{value: len(s.Values), start: start, end: len(s.names)})
		raw := s.addValue(n)
		raw.CStatus = status
		raw.TimeStamp = ts
		raw.FirstValue = le.Uint64(it[8:])
		raw.SecondValue = le.Uint64(it[16:])
		raw.MultiCount = le.Uint32(it[4:])
	}
	return nil
}

// wholeObject checks and keeps a view of a whole-object sub-record's
// PERF_DATA_BLOCK: at least 88 bytes, signature "PERF" in UTF-16LE, and a
// TotalByteLength that fits. The block is not decoded here.
func (s *Sample) wholeObject(b []byte, n, p int, loc *locator) error {
	const rec = "PERF_DATA_BLOCK"
	if len(b) < perfDataBlock {
		return errf(rec, n, loc.at(p), "", engine.ErrTruncated, "needs %d bytes, have %d", perfDataBlock, int64(len(b)))
	}
	if string(b[:8]) != "P\x00E\x00R\x00F\x00" {
		return newError(rec, n, loc.at(p), "Signature", "is not \"PERF\"", engine.ErrMalformed)
	}
	total := le.Uint32(b[20:])
	if total < perfDataBlock || uint64(total) > uint64(len(b)) {
		return errf(rec, n, loc.at(p+20), "TotalByteLength", engine.ErrMalformed, "%u outside %d..%d", int64(total), perfDataBlock, int64(len(b)))
	}
	s.Blocks = append(s.Blocks, Block{Counter: n, Data: b[:total:total]})
	return nil
}
