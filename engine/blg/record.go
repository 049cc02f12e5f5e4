package blg

import (
	"github.com/perfcalc/perfcalc/engine"
)

// MaxRecordSize caps the size of one reassembled record (the sum of its
// parts) and of the name table. Real records are below 32 KiB; a larger
// claim is refused with ErrUnsupported before anything that size is held.
const MaxRecordSize = 64 << 20

// MaxRecordParts caps the number of events one record may be split over
// (real split records have 3 parts of about 8 KB each).
const MaxRecordParts = 1 << 16

// partSpan maps the start of one part's data in a reassembled record to its
// file offset.
type partSpan struct {
	rec  int
	file int64
}

// locator converts offsets inside a record to file offsets for error
// messages. The zero locator reports offsets relative to the record.
type locator struct {
	base  int64 // used when parts is empty
	parts []partSpan
}

// at returns the file offset of the record's byte off. It serves error
// messages only, so it stays out of line (inlined at its many call sites it
// made the WebAssembly module larger).
//
//go:noinline
func (l *locator) at(off int) int64 {
	if len(l.parts) == 0 {
		return l.base + int64(off)
	}
	p := l.parts[0]
	for _, q := range l.parts[1:] {
		if q.rec > off {
			break
		}
		p = q
	}
	return p.file + int64(off-p.rec)
}

// assembler reassembles records that PDH split over several consecutive
// events. Parts must come in order 1..count, with the same count, event
// type and log GUID; the record grows only as parts arrive, so it can never
// claim more than the parts present.
type assembler struct {
	buf    []byte
	loc    locator
	active bool
	typ    uint8
	count  uint32
	next   uint32
	off    int64 // file offset of the first part's event
	ts     int64
}

// record is one complete record: its data and where it came from.
type record struct {
	typ       uint8
	off       int64 // file offset of its first event
	timeStamp int64
	data      []byte // aliases the buffer (one part) or the assembler (several)
	loc       *locator
}

// add takes one PDH event; room is the number of bytes of the log after it
// (0 when unknown). It returns true with the record in *r when the event
// completes a record; r.data stays valid until the next call to add
// or until the buffer the event came from is reused.
func (a *assembler) add(ev *event, r *record, room int64) (bool, error) {
	dataOff := ev.off + eventHeaderSize + partHeaderSize
	if a.active {
		if ev.partIndex != a.next || ev.partCount != a.count || ev.typ != a.typ {
			return false, errf("split record", -1, ev.off, "PartIndex", engine.ErrMalformed, "record at %x (event type %x) expects part %u of %u, found part %u of %u of event type %x: a part is missing", int64(a.off), int64(a.typ), int64(a.next), int64(a.count), int64(ev.partIndex), int64(ev.partCount), int64(ev.typ))
		}
		if a.next > MaxRecordParts {
			return false, errf("split record", -1, a.off, "PartCount", engine.ErrUnsupported, "more than %d parts", MaxRecordParts)
		}
		if len(a.buf)+len(ev.data) > MaxRecordSize {
			return false, errf("split record", -1, a.off, "", engine.ErrUnsupported, "parts exceed the record size limit %d", MaxRecordSize)
		}
		a.loc.parts = append(a.loc.parts, partSpan{rec: len(a.buf), file: dataOff})
		a.buf = append(a.buf, ev.data...)
		a.next++
		if ev.partIndex < a.count {
			return false, nil
		}
		a.active = false
		*r = record{typ: a.typ, off: a.off, timeStamp: a.ts, data: a.buf, loc: &a.loc}
		return true, nil
	}
	if ev.partIndex != 1 {
		return false, errf("split record", -1, ev.off, "PartIndex", engine.ErrMalformed, "part %u of %u without the parts before it", int64(ev.partIndex), int64(ev.partCount))
	}
	if ev.partCount == 1 {
		a.loc.parts = a.loc.parts[:0]
		a.loc.base = dataOff
		*r = record{typ: ev.typ, off: ev.off, timeStamp: ev.timeStamp, data: ev.data, loc: &a.loc}
		return true, nil
	}
	a.active, a.typ, a.count, a.next, a.off, a.ts = true, ev.typ, ev.partCount, 2, ev.off, ev.timeStamp
	// Size the buffer once for the parts to come, as large as the first
	// (no copy of a growing record), but never beyond what the log's
	// remaining bytes could hold (room, 0 when unknown) nor MaxRecordSize.
	if want := min(uint64(len(ev.data))*uint64(ev.partCount), uint64(room), MaxRecordSize); want > uint64(cap(a.buf)) {
		a.buf = make([]byte, 0, want)
	}
	a.buf = append(a.buf[:0], ev.data...)
	a.loc.parts = append(a.loc.parts[:0], partSpan{rec: 0, file: dataOff})
	return false, nil
}

// maxKeptBuffer is the largest reassembly buffer an assembler keeps from
// one record to the next: a larger one (a counter list of many entries)
// is let go once its record has been used.
const maxKeptBuffer = 1 << 20

// trim lets go of a large reassembly buffer between records.
func (a *assembler) trim() {
	if !a.active && cap(a.buf) > maxKeptBuffer {
		a.buf = nil
	}
}

// pending reports an unfinished split record at the end of the log.
func (a *assembler) pending(end int64) error {
	if !a.active {
		return nil
	}
	return errf("split record", -1, a.off, "PartCount", engine.ErrTruncated, "log ends at %x after part %u of %u: a part is missing", int64(end), int64(a.next-1), int64(a.count))
}
