package abi

import (
	"math"

	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// Writer lays a decode result out in a buffer, as the decode exports
// return it: the header, the records of one page (from the record numbered
// first), and the string area with their paths. Records grow up from the
// header; strings grow down from the end of the buffer and are moved to
// follow the records by Finish. Records before first, and records after the
// page is full, are counted (total, and the bytes a single page would need)
// but not written. A Writer made by NewGrowing grows its buffer instead, so
// that a page holds every record.
type Writer struct {
	out   []byte
	grow  bool
	kind  uint32
	first uint32
	total uint32
	count uint32
	full  bool

	recEnd int // end of the records written
	strLow int // start of the strings written (they end at len(out))

	neededStr uint64   // bytes of the strings of every record, counting shared ones once
	keyDist   []uint32 // per shared-string key: its distance from the end of out in this page, +1; 0 = not written
	keySeen   []bool   // per key: counted in neededStr

	infoLen uint32
	infoEnd uint32 // distance from the end of out of the info string's start
}

// Reset prepares w to write a result into out (at least 2·HeaderSize
// bytes), from the record numbered first.
func (w *Writer) Reset(out []byte, first uint32) {
	*w = Writer{out: out, first: first, recEnd: HeaderSize, strLow: len(out)}
}

// NewGrowing returns a Writer of a result in one page, in a buffer that
// grows as the records need (host.Native's). Bytes returns the result. The
// module's buffers are fixed: there (GOARCH wasm) the growing code is left
// out and such a Writer pages as any other.
func NewGrowing() *Writer {
	w := &Writer{}
	w.Reset(make([]byte, 64<<10), 0)
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
		w.keySeen = make([]bool, s.Keys)
	}
	info := s.Info
	w.neededStr += uint64(len(info))
	if !w.room(len(info)) {
		return // cannot happen with the module's buffers; leave it empty
	}
	w.strLow -= copy(w.out[w.strLow-len(info):], info)
	w.infoLen = uint32(len(info))
	w.infoEnd = uint32(len(w.out) - w.strLow)
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

// slot counts a record with its path and, when it belongs to this page and
// fits, writes the path and returns the record's bytes and the path's
// distance from the end of the buffer; nil otherwise.
func (w *Writer) slot(path []byte, p *counterpath.Path, key int) ([]byte, uint32) {
	idx := w.total
	w.total++
	size := len(path) + partsLen(p) // the path, then its parts
	if key < 0 {
		w.neededStr += uint64(size)
	} else if !w.keySeen[key] {
		w.keySeen[key] = true
		w.neededStr += uint64(size)
	}
	if idx < w.first || w.full {
		return nil, 0
	}
	dist := uint32(0)
	strNeed := size
	if key >= 0 && w.keyDist[key] != 0 {
		dist, strNeed = w.keyDist[key]-1, 0
	}
	if !w.room(RecordSize + strNeed) {
		w.full = true
		return nil, 0
	}
	if strNeed > 0 || dist == 0 {
		w.strLow -= size
		k := w.strLow + copy(w.out[w.strLow:], path)
		if p != nil {
			// The parts (ABI.md, Path parts): the lengths, then the bytes.
			index := int32(-1)
			if p.HasInstance {
				index = int32(p.Index)
			}
			b := w.out[k:]
			put32(b, PartsIndex, uint32(index))
			k = PartsSize
			for i, s := range [...]string{p.Machine, p.Object, p.Parent, p.Instance, p.Counter} {
				put32(b, 4*i, uint32(len(s))) // PartsMachine … PartsCounter
				k += copy(b[k:], s)
			}
		}
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
// returns the bytes written, whether records remain for another page
// (FlagMore), and the bytes a single page of every record needs.
func (w *Writer) Finish(s *Summary) (n int, more bool, needed uint32) {
	strLen := len(w.out) - w.strLow
	copy(w.out[w.recEnd:], w.out[w.strLow:])
	for i := 0; i < int(w.count); i++ {
		b := w.out[HeaderSize+i*RecordSize:]
		put32(b, RecPathOff, uint32(strLen)-get32(b, RecPathOff))
	}
	need := uint64(HeaderSize) + uint64(w.total)*RecordSize + w.neededStr
	if need > math.MaxUint32 {
		need = math.MaxUint32
	}
	more = w.first+w.count < w.total
	h := Header{
		Magic: Magic, Version: Version, Kind: w.kind, Total: w.total, First: w.first, Count: w.count,
		RecSize: RecordSize, RecOff: HeaderSize, StrOff: uint32(w.recEnd), StrLen: uint32(strLen),
		Needed: uint32(need), Columns: s.Columns, Rows: s.Rows, Bias: s.Bias, InfoLen: w.infoLen, Local: s.Local,
	}
	if s.Damage != nil {
		h.Flags |= FlagDamaged
	}
	if more {
		h.Flags |= FlagMore
	}
	if w.infoLen > 0 {
		h.InfoOff = uint32(strLen) - w.infoEnd
	}
	putHeader(w.out, &h)
	return w.recEnd + strLen, more, uint32(need)
}
