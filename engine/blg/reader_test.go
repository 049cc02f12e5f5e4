package blg

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
)

func open(t testing.TB, b []byte) *Reader {
	t.Helper()
	r, err := NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	return r
}

// checkFormatError fails unless err is a blg FormatError for the record,
// field and sentinel given, whose text names an offset.
func checkFormatError(t *testing.T, err error, record, field string, sentinel error) *engine.FormatError {
	t.Helper()
	var fe *engine.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("have error %v, want a *engine.FormatError", err)
	}
	if fe.Format != "blg" || fe.Record != record || fe.Field != field || !errors.Is(err, sentinel) || !strings.Contains(err.Error(), " at 0x") {
		t.Fatalf("have %q (record %q, field %q), want record %q, field %q, %v", err, fe.Record, fe.Field, record, field, sentinel)
	}
	return fe
}

func TestHandMadeLog(t *testing.T) {
	r := open(t, testLog(5, 4096, 1<<20))
	cs := r.Counters()
	if len(cs) != 2 {
		t.Fatalf("have %d counters, want 2", len(cs))
	}
	for i, want := range []string{`\\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length`, `\\HOST\Processor(*)\% Processor Time`} {
		if cs[i].Path != want {
			t.Errorf("counter %d: have path %q, want %q", i, cs[i].Path, want)
		}
	}
	if !cs[1].Wildcard() || cs[0].Wildcard() {
		t.Errorf("have Wildcard %v %v, want false true", cs[0].Wildcard(), cs[1].Wildcard())
	}
	if have, want := string(cs[1].AppendPath(nil, []byte("_Total"))), `\\HOST\Processor(_Total)\% Processor Time`; have != want {
		t.Errorf("have instance path %q, want %q", have, want)
	}
	if e := cs[0].Engine(); e != (engine.Counter{Type: engine.Counter100nsQueuelenType, Scale: 2, TimeBase: 10_000_000}) {
		t.Errorf("have Engine() %+v", e)
	}
	n := 0
	for r.Next() {
		s := r.Sample()
		ts := int64(130057734178440000 + n*10_000_000)
		if s.Index != n || s.TimeStamp != ts || len(s.Values) != 4 || len(s.Blocks) != 0 {
			t.Fatalf("sample %d: have index %d, time %d, %d values, %d blocks", n, s.Index, s.TimeStamp, len(s.Values), len(s.Blocks))
		}
		for i, want := range []Value{
			{0, nil, engine.RawCounter{TimeStamp: ts, FirstValue: uint64(1000 * n), SecondValue: uint64(ts) + 288000000000, MultiCount: 1}},
			{1, []byte("0"), engine.RawCounter{TimeStamp: ts, FirstValue: uint64(100 * n), SecondValue: uint64(ts)}},
			{1, []byte("1"), engine.RawCounter{TimeStamp: ts, FirstValue: uint64(200 * n), SecondValue: uint64(ts)}},
			{1, []byte("_Total"), engine.RawCounter{TimeStamp: ts, FirstValue: uint64(150 * n), SecondValue: uint64(ts)}},
		} {
			v := s.Values[i]
			if v.Counter != want.Counter || !bytes.Equal(v.Instance, want.Instance) || (v.Instance == nil) != (want.Instance == nil) || v.Raw != want.Raw {
				t.Errorf("sample %d value %d: have %+v, want %+v", n, i, v, want)
			}
		}
		n++
	}
	if r.Err() != nil || n != 5 {
		t.Fatalf("have %d samples and error %v, want 5 and none", n, r.Err())
	}
	if r.Interval() != 10_000_000 {
		t.Errorf("have interval %d, want 10000000", r.Interval())
	}
	if r.Machine() != `\\HOST` || r.NameTable() != nil || r.Trailer() != nil {
		t.Errorf("have machine %q, name table %d bytes, trailer %v", r.Machine(), len(r.NameTable()), r.Trailer())
	}
	h := r.Header()
	if h.LoggerName != "logger" || h.LogFileName != `C:\perflogs\test.blg` || !reflect.DeepEqual(h.TimeZone, pacific) || h.BufferSize != 4096 {
		t.Errorf("have header %+v", *h)
	}
}

// TestSplitRecords: records split into many small parts spanning buffers
// read exactly as unsplit ones.
func TestSplitRecords(t *testing.T) {
	whole := readAll(t, open(t, testLog(20, 65536, 1<<20)))
	for _, tc := range []struct{ bufSize, maxPart int }{{1024, 100}, {1024, 1}, {2048, 700}, {4096, 8}} {
		split := readAll(t, open(t, testLog(20, tc.bufSize, tc.maxPart)))
		if len(split) != len(whole) {
			t.Fatalf("%+v: have %d samples, want %d", tc, len(split), len(whole))
		}
		for i := range whole {
			if !bytes.Equal(split[i].Record, whole[i].Record) || len(split[i].Values) != len(whole[i].Values) {
				t.Fatalf("%+v: sample %d differs", tc, i)
			}
			for j := range whole[i].Values {
				a, b := split[i].Values[j], whole[i].Values[j]
				if a.Raw != b.Raw || !bytes.Equal(a.Instance, b.Instance) {
					t.Fatalf("%+v: sample %d value %d: have %+v, want %+v", tc, i, j, a, b)
				}
			}
		}
	}
}

// TestSplitErrors: split records whose parts are missing, out of order or
// mixed up are refused with a clear error, after the samples before them.
func TestSplitErrors(t *testing.T) {
	good := encodeSample(encodeRaw(0, 1, 2, 3, 1), encodeMulti(0, 1, itemSpec{"a", 1, 2, 0}))
	type part struct {
		typ        uint8
		index, cnt uint32
		otherGUID  bool
	}
	for _, tc := range []struct {
		name   string
		parts  []part
		record string
		field  string
		err    error
	}{
		{"missing middle part", []part{{EventSample, 1, 3, false}, {EventSample, 3, 3, false}}, "split record", "PartIndex", engine.ErrMalformed},
		{"second part first", []part{{EventSample, 2, 2, false}}, "split record", "PartIndex", engine.ErrMalformed},
		{"count changes", []part{{EventSample, 1, 3, false}, {EventSample, 2, 2, false}}, "split record", "PartIndex", engine.ErrMalformed},
		{"type changes", []part{{EventSample, 1, 2, false}, {EventTrailer, 2, 2, false}}, "split record", "PartIndex", engine.ErrMalformed},
		{"new record before the end", []part{{EventSample, 1, 2, false}, {EventSample, 1, 1, false}}, "split record", "PartIndex", engine.ErrMalformed},
		{"log ends", []part{{EventSample, 1, 2, false}}, "split record", "PartCount", engine.ErrTruncated},
		{"index beyond count", []part{{EventSample, 3, 2, false}}, "PDH event", "PartIndex", engine.ErrMalformed},
		{"zero count", []part{{EventSample, 0, 0, false}}, "PDH event", "PartIndex", engine.ErrMalformed},
		{"other log", []part{{EventSample, 1, 1, true}}, "PDH event", "LogGUID", engine.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLog(4096, pacific)
			l.record(EventCounterList, 0, encodeCounterList(testEntries...), 1<<20)
			l.record(EventSample, 0, good, 1<<20)
			for _, p := range tc.parts {
				if p.otherGUID {
					l.guid[0] ^= 0xFF
				}
				l.put(l.pdhEvent(p.typ, 0, p.index, p.cnt, good[:16]))
				l.guid = testLogGUID
			}
			r := open(t, l.bytes())
			if !r.Next() {
				t.Fatalf("have no first sample: %v", r.Err())
			}
			if r.Next() {
				t.Fatal("have a second sample, want an error")
			}
			checkFormatError(t, r.Err(), tc.record, tc.field, tc.err)
			t.Log(r.Err())
		})
	}
}

// TestEventsSkipped: events of other providers, other system events and
// unknown PDH event types are skipped.
func TestEventsSkipped(t *testing.T) {
	l := newLog(4096, pacific)
	l.record(EventCounterList, 0, encodeCounterList(testEntries...), 1<<20)
	other := l.pdhEvent(EventSample, 0, 1, 1, []byte("not ours"))
	other[24] ^= 0xFF // another provider
	l.put(other)
	sys := make([]byte, 40)
	copy(sys, []byte{2, 0, traceHeaderSystem64, 0xC0, 40, 0})
	l.put(sys)
	l.record(0x30, 0, []byte("unknown PDH event type"), 1<<20)
	l.record(EventSample, 7, encodeSample(encodeRaw(0, 7, 1, 2, 1), encodeMulti(0, 7)), 1<<20)
	r := open(t, l.bytes())
	n := 0
	for r.Next() {
		if s := r.Sample(); s.TimeStamp != 7 || len(s.Values) != 1 {
			t.Errorf("have sample %+v", s)
		}
		n++
	}
	if n != 1 || r.Err() != nil {
		t.Fatalf("have %d samples, error %v; want 1, none", n, r.Err())
	}
}

func TestCounterListPlacement(t *testing.T) {
	sample := encodeSample(encodeRaw(0, 7, 1, 2, 1), encodeMulti(0, 7))
	t.Run("no samples", func(t *testing.T) {
		l := newLog(4096, pacific)
		l.record(EventCounterList, 0, encodeCounterList(testEntries...), 1<<20)
		r := open(t, l.bytes())
		if r.Next() || r.Err() != nil || len(r.Counters()) != 2 {
			t.Fatalf("have Next true or error %v or %d counters; want an empty log with 2 counters", r.Err(), len(r.Counters()))
		}
	})
	t.Run("empty log", func(t *testing.T) {
		r := open(t, newLog(4096, pacific).bytes())
		if r.Next() || r.Err() != nil || len(r.Counters()) != 0 {
			t.Fatalf("have Next true or error %v or %d counters; want an empty log", r.Err(), len(r.Counters()))
		}
	})
	t.Run("sample first", func(t *testing.T) {
		l := newLog(4096, pacific)
		l.record(EventSample, 0, sample, 1<<20)
		l.record(EventCounterList, 0, encodeCounterList(testEntries...), 1<<20)
		b := l.bytes()
		_, err := NewReader(bytes.NewReader(b), int64(len(b)))
		checkFormatError(t, err, "sample record", "", engine.ErrMalformed)
	})
	t.Run("second list", func(t *testing.T) {
		l := newLog(4096, pacific)
		l.record(EventCounterList, 0, encodeCounterList(testEntries...), 1<<20)
		l.record(EventSample, 0, sample, 1<<20)
		l.record(EventCounterList, 0, encodeCounterList(testEntries...), 1<<20)
		r := open(t, l.bytes())
		if !r.Next() || r.Next() {
			t.Fatal("want one sample, then an error")
		}
		checkFormatError(t, r.Err(), "counter list", "", engine.ErrUnsupported)
	})
	t.Run("damaged list", func(t *testing.T) {
		l := newLog(4096, pacific)
		list := encodeCounterList(testEntries...)
		list[11] = 0x7F // the first entry's Size
		l.record(EventCounterList, 0, list, 1<<20)
		b := l.bytes()
		_, err := NewReader(bytes.NewReader(b), int64(len(b)))
		fe := checkFormatError(t, err, "counter list entry", "Size", engine.ErrMalformed)
		if want := int64(bytes.Index(b, list) + 8); fe.Offset != want {
			t.Errorf("have offset %#x, want %#x (the entry in the file)", fe.Offset, want)
		}
	})
}

// TestAssemblerLimits: a record may not grow past MaxRecordSize nor be
// split over more than MaxRecordParts events.
func TestAssemblerLimits(t *testing.T) {
	ev := func(i, n uint32, data []byte) *event {
		return &event{typ: EventSample, pdh: true, partIndex: i, partCount: n, data: data}
	}
	var rec record
	t.Run("parts", func(t *testing.T) {
		var a assembler
		if _, err := a.add(ev(1, 0xFFFFFFFF, nil), &rec, 0); err != nil {
			t.Fatal(err)
		}
		a.next = MaxRecordParts + 1
		_, err := a.add(ev(MaxRecordParts+1, 0xFFFFFFFF, nil), &rec, 0)
		checkFormatError(t, err, "split record", "PartCount", engine.ErrUnsupported)
	})
	t.Run("size", func(t *testing.T) {
		var a assembler
		if _, err := a.add(ev(1, 3, make([]byte, MaxRecordSize-10)), &rec, 0); err != nil {
			t.Fatal(err)
		}
		_, err := a.add(ev(2, 3, make([]byte, 11)), &rec, 0)
		checkFormatError(t, err, "split record", "", engine.ErrUnsupported)
	})
}

func TestDecodeErrors(t *testing.T) {
	raw := encodeRaw(0, 1, 2, 3, 1)
	multi := encodeMulti(0, 1, itemSpec{"a", 1, 2, 0}, itemSpec{"bb", 3, 4, 0})
	with := func(b []byte, f func(b []byte)) []byte {
		b = bytes.Clone(b)
		f(b)
		return b
	}
	put32 := func(b []byte, off int, v uint32) {
		b[off], b[off+1], b[off+2], b[off+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	for _, tc := range []struct {
		name     string
		record   []byte
		counters int
		rec      string
		field    string
		err      error
		offset   int64
	}{
		{"short", []byte("BL\x03"), 2, "sample record", "", engine.ErrTruncated, 0},
		{"signature", with(encodeSample(raw, multi), func(b []byte) { b[0] = 'X' }), 2, "sample record", "Signature", engine.ErrMalformed, 0},
		{"size", with(encodeSample(raw, multi), func(b []byte) { put32(b, 4, 1<<30) }), 2, "sample record", "Size", engine.ErrMalformed, 4},
		{"too many", encodeSample(raw, multi), 1, "sample record", "", engine.ErrMalformed, 56},
		{"too few", encodeSample(raw), 2, "sample record", "Size", engine.ErrMalformed, 0},
		{"unknown kind", encodeSample(with(raw, func(b []byte) { b[3] = 9 }), multi), 2, "sub-record", "Kind", engine.ErrUnsupported, 11},
		{"sub size", encodeSample(with(raw, func(b []byte) { put32(b, 4, 7) }), multi), 2, "sub-record", "Size", engine.ErrMalformed, 12},
		{"raw short", encodeSample(blHeader(kindRawCounter, 16), make([]byte, 8)), 1, "PDH_RAW_COUNTER", "", engine.ErrTruncated, 16},
		{"multi short", encodeSample(blHeader(kindMulti, 16), make([]byte, 8)), 1, "multi-instance record", "", engine.ErrTruncated, 16},
		{"multi size", encodeSample(with(multi, func(b []byte) { put32(b, 8, 1<<20) })), 1, "multi-instance record", "Size", engine.ErrMalformed, 16},
		{"item count", encodeSample(with(multi, func(b []byte) { put32(b, 12, 0xFFFFFFFF) })), 1, "multi-instance record", "ItemCount", engine.ErrMalformed, 20},
		{"name offset", encodeSample(with(multi, func(b []byte) { put32(b, 8+24, 4) })), 1, "multi-instance record", "NameOffset", engine.ErrMalformed, 40},
		{"name unterminated", encodeSample(with(multi, func(b []byte) {
			for i := 8 + 72; i < len(b); i++ {
				b[i] = 'x'
			}
		})), 1, "multi-instance record", "NameOffset", engine.ErrMalformed, 88},
		{"block short", encodeSample(encodeWhole(encodeBlock(88, 0)[:80])), 1, "PERF_DATA_BLOCK", "", engine.ErrTruncated, 16},
		{"block signature", encodeSample(encodeWhole(with(encodeBlock(96, 0), func(b []byte) { b[0] = 'Q' }))), 1, "PERF_DATA_BLOCK", "Signature", engine.ErrMalformed, 16},
		{"block length", encodeSample(encodeWhole(with(encodeBlock(96, 0), func(b []byte) { put32(b, 20, 97) }))), 1, "PERF_DATA_BLOCK", "TotalByteLength", engine.ErrMalformed, 36},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s Sample
			err := s.Decode(tc.record, tc.counters)
			fe := checkFormatError(t, err, tc.rec, tc.field, tc.err)
			if fe.Offset != tc.offset {
				t.Errorf("have offset %#x, want %#x (%v)", fe.Offset, tc.offset, err)
			}
		})
	}
}

func TestDecodeWholeObject(t *testing.T) {
	b1, b2 := encodeBlock(96, 0xAB), encodeBlock(120, 0xCD)
	padded := append(encodeWhole(b2), 0, 0, 0, 0, 0, 0, 0, 0)
	padded[4] += 8 // the sub-record is 8 bytes longer than its block
	var s Sample
	if err := s.Decode(encodeSample(encodeWhole(b1), padded), 2); err != nil {
		t.Fatal(err)
	}
	if len(s.Blocks) != 2 || len(s.Values) != 0 || !bytes.Equal(s.Blocks[0].Data, b1) || !bytes.Equal(s.Blocks[1].Data, b2) || s.Blocks[1].Counter != 1 {
		t.Fatalf("have %d blocks, %d values: %+v", len(s.Blocks), len(s.Values), s.Blocks)
	}
}

func TestParseCounterListErrors(t *testing.T) {
	list := encodeCounterList(testEntries...)
	with := func(f func(b []byte)) []byte {
		b := bytes.Clone(list)
		f(b)
		return b
	}
	for _, tc := range []struct {
		name   string
		list   []byte
		rec    string
		field  string
		err    error
		offset int64
	}{
		{"short", list[:6], "counter list", "", engine.ErrTruncated, 0},
		{"header length", with(func(b []byte) { b[5] = 0xF0 }), "counter list", "HeaderLength", engine.ErrMalformed, 4},
		{"entry short", list[:8+40], "counter list entry", "", engine.ErrTruncated, 8},
		{"entry size", with(func(b []byte) { b[8] = 4 }), "counter list entry", "Size", engine.ErrMalformed, 8},
		{"machine offset", with(func(b []byte) { b[8+28] = 0xF0 }), "counter list entry", "MachineOffset", engine.ErrMalformed, 8 + 28},
		{"counter offset", with(func(b []byte) { b[8+48+3] = 0x80 }), "counter list entry", "CounterOffset", engine.ErrMalformed, 8 + 48},
		{"unterminated", list[:len(list)-8], "counter list entry", "Size", engine.ErrMalformed, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCounterList(tc.list)
			fe := checkFormatError(t, err, tc.rec, tc.field, tc.err)
			if tc.offset >= 0 && fe.Offset != tc.offset {
				t.Errorf("have offset %#x, want %#x (%v)", fe.Offset, tc.offset, err)
			}
		})
	}
	t.Run("string without NUL", func(t *testing.T) {
		b := encodeCounterList(entrySpec{machine: "m", object: "o", counter: "c"})
		// Fill the strings' NULs and padding with 'x': no string ends.
		for i := 8 + counterEntryHeaderSize; i < len(b); i++ {
			b[i] = 'x'
		}
		_, err := ParseCounterList(b)
		checkFormatError(t, err, "counter list entry", "MachineOffset", engine.ErrMalformed)
	})
	t.Run("paths", func(t *testing.T) {
		cs, err := ParseCounterList(encodeCounterList(
			entrySpec{machine: `\\M`, object: "Thread", instance: "0", parent: "svchost", index: 2, counter: "Context Switches/sec"},
			entrySpec{object: "Memory", counter: "Available Bytes"},
		))
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []string{`\\M\Thread(svchost/0#2)\Context Switches/sec`, `\Memory\Available Bytes`} {
			if cs[i].Path != want || cs[i].Index != i {
				t.Errorf("entry %d: have path %q index %d, want %q %d", i, cs[i].Path, cs[i].Index, want, i)
			}
		}
	})
}
