package abi

import (
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// Writer lays a decode result out in a buffer, as the decode exports
// return it: the header, the records of one page, and the string area with
// their paths. Records grow up from the header; strings grow down from the
// end of the buffer and are moved to follow the records by Finish.
//
// When a record does not fit the page, a Writer with a Pause hook ends the
// page there and calls it: the module returns the page to its host and,
// when the host asks for the next one (decode_next), NextPage starts it
// with that record, so that the result continues where the page ended.
// Without Pause the records that do not fit are dropped (Finish reports
// more). A Writer made by NewGrowing grows its buffer instead, so that a
// page holds every record.
type Writer struct {
	out     []byte
	grow    bool
	full    bool // a record did not fit (no Pause, or Pause abandoned the result)
	paused  bool // this page ended at a record that did not fit (Pause)
	stopped bool // Pause returned false: the result is abandoned
	kind    uint32
	first   uint32 // the index of the page's first record
	count   uint32 // the records in the page
	next    uint32 // the bytes of a page holding only the record that did not fit

	// Pause, when set, is called when a record does not fit the page: it
	// returns the page (Finish) and, to continue, calls NextPage and
	// returns true; false abandons the result (the Builder then returns
	// ErrStopped).
	Pause func() bool
	// Cursor is the header's cursor of a page that Pause ends.
	Cursor uint32

	recEnd int // end of the records written
	strLow int // start of the strings written (they end at len(out))

	keyDist []uint32 // per shared-string key: its distance from the end of out in this page, +1; 0 = not written

	info    string
	infoLen uint32
	infoEnd uint32 // distance from the end of out of the info string's start
}

// Reset prepares w to write a result into out (at least 2·HeaderSize
// bytes).
func (w *Writer) Reset(out []byte) {
	*w = Writer{out: out, recEnd: HeaderSize, strLow: len(out)}
}

// NewGrowing returns a Writer of a result in one page, in a buffer that
// grows as the records need (host.Native's). Bytes returns the result. The
// module's buffers are fixed: there (GOARCH wasm) the growing code is left
// out and such a Writer pages as any other.
func NewGrowing() *Writer {
	w := &Writer{}
	w.Reset(make([]byte, 64<<10))
	w.grow = true
	return w
}

// Bytes returns the result that Finish wrote.
func (w *Writer) Bytes() []byte { return w.out[:w.recEnd+len(w.out)-w.strLow] }

// Begin starts the result that s describes: its kind, shared keys and
// info string (Builder calls it once, before the first record).
func (w *Writer) Begin(s *Summary) {
	w.kind = s.Kind
	if s.Keys > 0 {
		w.keyDist = make([]uint32, s.Keys)
	}
	w.info = s.Info
	w.putInfo()
}

// putInfo writes the info string into the page's strings.
func (w *Writer) putInfo() {
	info := w.info
	if !w.room(len(info)) {
		return // cannot happen with the module's buffers; leave it empty
	}
	w.strLow -= copy(w.out[w.strLow-len(info):], info)
	w.infoLen = uint32(len(info))
	w.infoEnd = uint32(len(w.out) - w.strLow)
}

// NextPage starts the page after the one that Pause ended, in out (at
// least 2·HeaderSize bytes): its first record is the one that did not fit.
func (w *Writer) NextPage(out []byte) {
	w.first += w.count
	w.count, w.paused = 0, false
	w.out, w.recEnd, w.strLow = out, HeaderSize, len(out)
	clear(w.keyDist)
	w.putInfo()
}

// Record appends a record with its path and, for a counter, the path's
// parts p (nil for a name: no parts); key ≥ 0 names a path that many
// records share (below Summary.Keys), written once per page, −1 a path of
// its own.
func (w *Writer) Record(r *Record, path []byte, p *counterpath.Path, key int) {
	if b, dist := w.slot(path, p, key); b != nil {
		putRecord(b, r, dist, uint32(len(path)))
	}
}

// Statistic appends a statistics record with its path and the path's parts.
func (w *Writer) Statistic(s *Statistic, path []byte, p *counterpath.Path) {
	if b, dist := w.slot(path, p, -1); b != nil {
		putStatistic(b, s, dist, uint32(len(path)))
	}
}

// Percentiles appends the percentiles record of the column column with its
// path and the path's parts.
func (w *Writer) Percentiles(pc *relog.Percentiles, column uint32, path []byte, p *counterpath.Path) {
	if b, dist := w.slot(path, p, -1); b != nil {
		putPercentiles(b, pc, column, dist, uint32(len(path)))
	}
}

// slot writes a record's path and, for a counter, the path's parts, when
// the record fits the page (after Pause has given a new page if need be),
// and returns the record's bytes and the path's distance from the end of
// the buffer; nil when it does not fit.
func (w *Writer) slot(path []byte, p *counterpath.Path, key int) ([]byte, uint32) {
	var dist uint32
	size := len(path) + partsLen(p) // the path, then its parts
	for !w.full {
		dist = 0
		strNeed := size
		if key >= 0 && w.keyDist[key] != 0 {
			dist, strNeed = w.keyDist[key]-1, 0
		}
		if w.room(RecordSize + strNeed) {
			if dist == 0 {
				w.strLow -= size
				w.putPath(w.out[w.strLow:], path, p)
				dist = uint32(len(w.out) - w.strLow)
				if key >= 0 {
					w.keyDist[key] = dist + 1
				}
			}
			b := w.out[w.recEnd : w.recEnd+RecordSize]
			w.recEnd += RecordSize
			w.count++
			return b, dist
		}
		w.next = uint32(min(HeaderSize+RecordSize+len(w.info)+size, MaxReserve))
		w.full = w.Pause == nil
		if !w.full {
			w.paused = true
			w.full = !w.Pause()
			w.stopped = w.full
		}
	}
	return nil, 0
}

// putPath writes path and, for a counter, its parts (ABI.md, Path parts:
// the lengths and the index, then the parts' bytes) at the start of b.
func (w *Writer) putPath(b []byte, path []byte, p *counterpath.Path) {
	k := copy(b, path)
	if p == nil {
		return
	}
	index := int32(-1)
	if p.HasInstance {
		index = int32(p.Index)
	}
	b = b[k:]
	put32(b, PartsIndex, uint32(index))
	k = PartsSize
	for i, s := range [...]string{p.Machine, p.Object, p.Parent, p.Instance, p.Counter} {
		put32(b, 4*i, uint32(len(s))) // PartsMachine … PartsCounter
		k += copy(b[k:], s)
	}
}

// room reports whether n more bytes fit between the records and the
// strings, enlarging a growing Writer's buffer when they do not.
func (w *Writer) room(n int) bool {
	if w.recEnd+n <= w.strLow {
		return true
	}
	if !canGrow || !w.grow {
		return false
	}
	w.enlarge(n)
	return true
}

// enlarge gives the buffer at least n more free bytes. Strings keep their
// distance from the end, which is what records and keys hold until Finish.
//
//go:noinline
func (w *Writer) enlarge(n int) {
	out := make([]byte, 2*len(w.out)+n)
	copy(out, w.out[:w.recEnd])
	strLen := len(w.out) - w.strLow
	copy(out[len(out)-strLen:], w.out[w.strLow:])
	w.out, w.strLow = out, len(out)-strLen
}

// Finish moves the strings after the records, turns the records' path
// distances into offsets, and writes the header that s completes. It
// returns the bytes written and whether records follow (FlagMore: a page
// that Pause ended, whose header carries Cursor, or records dropped without
// Pause), and needed: the bytes written, or for a page with more records
// the bytes of a page holding only the next record (what the output buffer
// needs when it cannot hold one).
func (w *Writer) Finish(s *Summary) (n int, more bool, needed uint32) {
	strLen := len(w.out) - w.strLow
	copy(w.out[w.recEnd:], w.out[w.strLow:])
	for i := 0; i < int(w.count); i++ {
		b := w.out[HeaderSize+i*RecordSize:]
		put32(b, RecPathOff, uint32(strLen)-get32(b, RecPathOff))
	}
	n = w.recEnd + strLen
	more, needed = w.paused || w.full, uint32(n)
	h := Header{
		Magic: Magic, Version: Version, Kind: w.kind, Total: w.first + w.count, First: w.first, Count: w.count,
		RecSize: RecordSize, RecOff: HeaderSize, StrOff: uint32(w.recEnd), StrLen: uint32(strLen),
		Columns: s.Columns, Rows: s.Rows, Bias: s.Bias, InfoLen: w.infoLen, Local: s.Local,
	}
	if s.Damage != nil {
		h.Flags |= FlagDamaged
	}
	if more {
		h.Flags |= FlagMore
		needed = w.next
	}
	if w.paused {
		h.Cursor = w.Cursor
	}
	h.Needed = needed
	if w.infoLen > 0 {
		h.InfoOff = uint32(strLen) - w.infoEnd
	}
	putHeader(w.out, &h)
	return n, more, needed
}
