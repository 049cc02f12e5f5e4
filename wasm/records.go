package main

import (
	"errors"
	"math"

	"github.com/perfcalc/perfcalc/engine"
)

// errTooMany is returned by writer.add past MaxRecords.
var errTooMany = errors.New("perfcalc: the input holds more than 2097152 records")

// record is one decoded counter value, as the decode exports write it.
type record struct {
	Value    float64
	Status   engine.Status
	Type     engine.CounterType
	Raw      engine.RawCounter // FirstValue, SecondValue, MultiCount, CStatus; TimeStamp goes to Time
	TimeBase int64
	Time     int64
	Scale    int32
	Aux      uint32 // kind-specific: see ABI.md
	Column   uint32 // kind-specific: see ABI.md
}

// writer lays a decode result out in a buffer: the header, the records of
// one page (from the record numbered first), and the string area with their
// paths. Records grow up from the header; strings grow down from the end of
// the buffer and are moved to follow the records when the page is finished.
// Records before first, and records after the page is full, are counted
// (total, and the bytes a single page would need) but not written.
type writer struct {
	out   []byte
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

	flags   uint32
	columns uint32
	rows    uint32
	bias    int32
	infoLen uint32
	infoEnd uint32 // distance from the end of out of the info string's start
}

// start prepares w to write a result of the given kind into out, from the
// record numbered first. keys is the number of shared-string keys (blg
// columns), 0 when every record has its own path.
func (w *writer) start(out []byte, kind, first uint32, keys int) {
	*w = writer{out: out, kind: kind, first: first, recEnd: HeaderSize, strLow: len(out)}
	if keys > 0 {
		w.keyDist = make([]uint32, keys)
		w.keySeen = make([]bool, keys)
	}
}

// setInfo writes the result's info string (the time zone of a log, the
// machine of a V1 blob, the counterset of a V2 result). Call it once, before
// the records.
func (w *writer) setInfo(s string) {
	w.neededStr += uint64(len(s))
	if w.strLow-len(s) < w.recEnd {
		return // cannot happen with the buffer sizes of the module; leave it empty
	}
	w.strLow -= copy(w.out[w.strLow-len(s):], s)
	w.infoLen = uint32(len(s))
	w.infoEnd = uint32(len(w.out) - w.strLow)
}

// add appends a record with its path; key ≥ 0 names a path shared by many
// records (a blg column), written once per page. It returns errTooMany past
// MaxRecords.
func (w *writer) add(r *record, path []byte, key int) error {
	if w.total >= MaxRecords {
		return errTooMany
	}
	idx := w.total
	w.total++
	if key < 0 {
		w.neededStr += uint64(len(path))
	} else if !w.keySeen[key] {
		w.keySeen[key] = true
		w.neededStr += uint64(len(path))
	}
	if idx < w.first || w.full {
		return nil
	}
	dist := uint32(0)
	strNeed := len(path)
	if key >= 0 && w.keyDist[key] != 0 {
		dist, strNeed = w.keyDist[key]-1, 0
	}
	if w.recEnd+RecordSize > w.strLow-strNeed {
		w.full = true
		return nil
	}
	if strNeed > 0 || dist == 0 {
		w.strLow -= copy(w.out[w.strLow-len(path):], path)
		dist = uint32(len(w.out) - w.strLow)
		if key >= 0 {
			w.keyDist[key] = dist + 1
		}
	}
	b := w.out[w.recEnd : w.recEnd+RecordSize]
	put32(b, recPathOff, dist) // a distance from the end until finish
	put32(b, recPathLen, uint32(len(path)))
	put64(b, recValue, math.Float64bits(r.Value))
	put32(b, recStatus, uint32(r.Status))
	put32(b, recType, uint32(r.Type))
	put64(b, recFirst, r.Raw.FirstValue)
	put64(b, recSecond, r.Raw.SecondValue)
	put32(b, recMulti, r.Raw.MultiCount)
	put32(b, recCStatus, r.Raw.CStatus)
	put64(b, recTimeBase, uint64(r.TimeBase))
	put64(b, recTime, uint64(r.Time))
	put32(b, recScale, uint32(r.Scale))
	put32(b, recAux, r.Aux)
	put32(b, recColumn, r.Column)
	put32(b, recReserved, 0)
	w.recEnd += RecordSize
	w.count++
	return nil
}

// finish moves the strings after the records, fixes the records' string
// offsets, writes the header and returns the result's code: the bytes
// written, or ErrSpace when records remain for another page (last_detail
// then holds the bytes a single page of every record would need).
func (w *writer) finish() int32 {
	strLen := len(w.out) - w.strLow
	copy(w.out[w.recEnd:], w.out[w.strLow:])
	for i := 0; i < int(w.count); i++ {
		b := w.out[HeaderSize+i*RecordSize:]
		put32(b, recPathOff, uint32(strLen)-get32(b, recPathOff))
	}
	needed := uint64(HeaderSize) + uint64(w.total)*RecordSize + w.neededStr
	if needed > math.MaxUint32 {
		needed = math.MaxUint32
	}
	more := w.first+w.count < w.total
	if more {
		w.flags |= FlagMore
	}
	h := w.out[:HeaderSize]
	put32(h, hdrMagic, Magic)
	put32(h, hdrVersion, ABIVersion)
	put32(h, hdrKind, w.kind)
	put32(h, hdrFlags, w.flags)
	put32(h, hdrTotal, w.total)
	put32(h, hdrFirst, w.first)
	put32(h, hdrCount, w.count)
	put32(h, hdrRecSize, RecordSize)
	put32(h, hdrRecOff, HeaderSize)
	put32(h, hdrStrOff, uint32(w.recEnd))
	put32(h, hdrStrLen, uint32(strLen))
	put32(h, hdrNeeded, uint32(needed))
	put32(h, hdrColumns, w.columns)
	put32(h, hdrRows, w.rows)
	put32(h, hdrBias, uint32(w.bias))
	infoOff := uint32(0)
	if w.infoLen > 0 {
		infoOff = uint32(strLen) - w.infoEnd
	}
	put32(h, hdrInfoOff, infoOff)
	put32(h, hdrInfoLen, w.infoLen)
	put32(h, hdrReserved0, 0)
	put64(h, hdrReserved1, 0)
	if more {
		lastDetail = uint32(needed)
		if errLen == 0 {
			setError("perfcalc: the result does not fit the output buffer: call again from the next record")
		}
		return ErrSpace
	}
	return int32(w.recEnd + strLen)
}

// header is a decoded result header, for tests and the native reference.
type header struct {
	Magic, Version, Kind, Flags           uint32
	Total, First, Count, RecSize, RecOff  uint32
	StrOff, StrLen, Needed, Columns, Rows uint32
	Bias                                  int32
	InfoOff, InfoLen                      uint32
}

// parseHeader reads a result header.
func parseHeader(b []byte) header {
	return header{
		Magic: get32(b, hdrMagic), Version: get32(b, hdrVersion), Kind: get32(b, hdrKind), Flags: get32(b, hdrFlags),
		Total: get32(b, hdrTotal), First: get32(b, hdrFirst), Count: get32(b, hdrCount),
		RecSize: get32(b, hdrRecSize), RecOff: get32(b, hdrRecOff),
		StrOff: get32(b, hdrStrOff), StrLen: get32(b, hdrStrLen), Needed: get32(b, hdrNeeded),
		Columns: get32(b, hdrColumns), Rows: get32(b, hdrRows), Bias: int32(get32(b, hdrBias)),
		InfoOff: get32(b, hdrInfoOff), InfoLen: get32(b, hdrInfoLen),
	}
}

// parseRecord reads record i of a result and its path.
func parseRecord(b []byte, h *header, i int) (record, string) {
	r := b[int(h.RecOff)+i*int(h.RecSize):]
	off, n := get32(r, recPathOff), get32(r, recPathLen)
	s := b[h.StrOff : h.StrOff+h.StrLen]
	return record{
		Value:  math.Float64frombits(get64(r, recValue)),
		Status: engine.Status(get32(r, recStatus)),
		Type:   engine.CounterType(get32(r, recType)),
		Raw: engine.RawCounter{
			FirstValue: get64(r, recFirst), SecondValue: get64(r, recSecond),
			MultiCount: get32(r, recMulti), CStatus: get32(r, recCStatus),
		},
		TimeBase: int64(get64(r, recTimeBase)),
		Time:     int64(get64(r, recTime)),
		Scale:    int32(get32(r, recScale)),
		Aux:      get32(r, recAux),
		Column:   get32(r, recColumn),
	}, string(s[off : off+n])
}
