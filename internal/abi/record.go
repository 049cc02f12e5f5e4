package abi

import (
	"math"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// Record is one decoded counter value: a record of a decode result without
// its path (see the Rec… offsets). Aux and Column depend on the result's
// kind (layout.go).
type Record struct {
	Value    float64
	Status   engine.Status
	Type     engine.CounterType
	Raw      engine.RawCounter // FirstValue, SecondValue, MultiCount, CStatus; its TimeStamp is Time
	TimeBase int64
	Time     int64
	Scale    int32
	Aux      uint32
	Column   uint32
	Bias     int32 // blg: the bias in force at Time, minutes (UTC = Time + Bias)
}

// Statistic is one column's statistics: a statistics record without its
// path (see the Stat… offsets).
type Statistic struct {
	engine.Statistics
	Type   engine.CounterType
	Column uint32
}

// Header is a decode result's header (see the Hdr… offsets).
type Header struct {
	Magic, Version, Kind, Flags           uint32
	Total, First, Count, RecSize, RecOff  uint32
	StrOff, StrLen, Needed, Columns, Rows uint32
	Bias                                  int32
	InfoOff, InfoLen, Cursor              uint32
	Local                                 int64
}

// ReadHeader reads the header at the start of b (at least HeaderSize
// bytes). It checks nothing: the caller checks what it relies on.
func ReadHeader(b []byte) Header {
	_ = b[HeaderSize-1]
	return Header{
		Magic: get32(b, HdrMagic), Version: get32(b, HdrVersion), Kind: get32(b, HdrKind), Flags: get32(b, HdrFlags),
		Total: get32(b, HdrTotal), First: get32(b, HdrFirst), Count: get32(b, HdrCount),
		RecSize: get32(b, HdrRecSize), RecOff: get32(b, HdrRecOff),
		StrOff: get32(b, HdrStrOff), StrLen: get32(b, HdrStrLen), Needed: get32(b, HdrNeeded),
		Columns: get32(b, HdrColumns), Rows: get32(b, HdrRows), Bias: int32(get32(b, HdrBias)),
		InfoOff: get32(b, HdrInfoOff), InfoLen: get32(b, HdrInfoLen), Cursor: get32(b, HdrCursor), Local: int64(get64(b, HdrLocal)),
	}
}

// putHeader writes h at the start of b.
func putHeader(b []byte, h *Header) {
	_ = b[HeaderSize-1]
	put32(b, HdrMagic, h.Magic)
	put32(b, HdrVersion, h.Version)
	put32(b, HdrKind, h.Kind)
	put32(b, HdrFlags, h.Flags)
	put32(b, HdrTotal, h.Total)
	put32(b, HdrFirst, h.First)
	put32(b, HdrCount, h.Count)
	put32(b, HdrRecSize, h.RecSize)
	put32(b, HdrRecOff, h.RecOff)
	put32(b, HdrStrOff, h.StrOff)
	put32(b, HdrStrLen, h.StrLen)
	put32(b, HdrNeeded, h.Needed)
	put32(b, HdrColumns, h.Columns)
	put32(b, HdrRows, h.Rows)
	put32(b, HdrBias, uint32(h.Bias))
	put32(b, HdrInfoOff, h.InfoOff)
	put32(b, HdrInfoLen, h.InfoLen)
	put32(b, HdrCursor, h.Cursor)
	put64(b, HdrLocal, uint64(h.Local))
}

// RecordPath returns the path offset (in the string area) and length of
// the record or statistics record r (at least RecordSize bytes).
func RecordPath(r []byte) (off, n uint32) {
	_ = r[RecordSize-1]
	return get32(r, RecPathOff), get32(r, RecPathLen)
}

// ReadRecord reads the record r (at least RecordSize bytes), its path
// excepted (RecordPath).
func ReadRecord(r []byte) Record {
	_ = r[RecordSize-1]
	return Record{
		Value:  math.Float64frombits(get64(r, RecValue)),
		Status: engine.Status(get32(r, RecStatus)),
		Type:   engine.CounterType(get32(r, RecType)),
		Raw: engine.RawCounter{
			FirstValue: get64(r, RecFirst), SecondValue: get64(r, RecSecond),
			MultiCount: get32(r, RecMulti), CStatus: get32(r, RecCStatus),
			TimeStamp: int64(get64(r, RecTime)),
		},
		TimeBase: int64(get64(r, RecTimeBase)),
		Time:     int64(get64(r, RecTime)),
		Scale:    int32(get32(r, RecScale)),
		Aux:      get32(r, RecAux),
		Column:   get32(r, RecColumn),
		Bias:     int32(get32(r, RecBias)),
	}
}

// putRecord writes rec into r with the path offset pathDist (see
// Writer.finish) and length pathLen.
func putRecord(r []byte, rec *Record, pathDist, pathLen uint32) {
	_ = r[RecordSize-1]
	put32(r, RecPathOff, pathDist)
	put32(r, RecPathLen, pathLen)
	put64(r, RecValue, math.Float64bits(rec.Value))
	put32(r, RecStatus, uint32(rec.Status))
	put32(r, RecType, uint32(rec.Type))
	put64(r, RecFirst, rec.Raw.FirstValue)
	put64(r, RecSecond, rec.Raw.SecondValue)
	put32(r, RecMulti, rec.Raw.MultiCount)
	put32(r, RecCStatus, rec.Raw.CStatus)
	put64(r, RecTimeBase, uint64(rec.TimeBase))
	put64(r, RecTime, uint64(rec.Time))
	put32(r, RecScale, uint32(rec.Scale))
	put32(r, RecAux, rec.Aux)
	put32(r, RecColumn, rec.Column)
	put32(r, RecBias, uint32(rec.Bias))
}

// partsLen returns the bytes of the parts of p (0 for nil).
func partsLen(p *counterpath.Path) int {
	if p == nil {
		return 0
	}
	return PartsSize + len(p.Machine) + len(p.Object) + len(p.Parent) + len(p.Instance) + len(p.Counter)
}

// ReadParts reads the parts at the start of b (the string area from a
// path's end on, as Writer.Record writes them); false when b is too short
// for them.
func ReadParts(b []byte) (counterpath.Path, bool) {
	var p counterpath.Path
	if len(b) < PartsSize {
		return p, false
	}
	at, ok := uint64(PartsSize), true
	part := func(off int) string {
		n := uint64(get32(b, off))
		if !ok || at+n > uint64(len(b)) {
			ok = false
			return ""
		}
		at += n
		return string(b[at-n : at])
	}
	p.Machine, p.Object, p.Parent = part(PartsMachine), part(PartsObject), part(PartsParent)
	p.Instance, p.Counter = part(PartsInstance), part(PartsCounter)
	if index := int32(get32(b, PartsIndex)); index >= 0 {
		p.HasInstance, p.Index = true, int(index)
	}
	return p, ok
}

// ReadStatistic reads the statistics record r (at least StatSize bytes),
// its path excepted (RecordPath). Counts above the int range read as its
// maximum.
func ReadStatistic(r []byte) Statistic {
	_ = r[StatSize-1]
	count := func(off int) int { return int(min(get64(r, off), math.MaxInt)) }
	return Statistic{
		Statistics: engine.Statistics{
			Count: count(StatCount), Skipped: count(StatSkipped), Invalid: count(StatInvalid),
			ValidMean: math.Float64frombits(get64(r, StatValidMean)),
			Min:       math.Float64frombits(get64(r, StatMin)), Max: math.Float64frombits(get64(r, StatMax)),
			Mean: math.Float64frombits(get64(r, StatMean)), MeanStatus: engine.Status(get32(r, StatMeanStatus)),
		},
		Type:   engine.CounterType(get32(r, StatType)),
		Column: get32(r, StatColumn),
	}
}

// putStatistic writes s into r with the path offset pathDist (see
// Writer.finish) and length pathLen.
func putStatistic(r []byte, s *Statistic, pathDist, pathLen uint32) {
	_ = r[StatSize-1]
	put32(r, StatPathOff, pathDist)
	put32(r, StatPathLen, pathLen)
	put64(r, StatMean, math.Float64bits(s.Mean))
	put32(r, StatMeanStatus, uint32(s.MeanStatus))
	put32(r, StatType, uint32(s.Type))
	put64(r, StatMin, math.Float64bits(s.Min))
	put64(r, StatMax, math.Float64bits(s.Max))
	put64(r, StatCount, uint64(s.Count))
	put64(r, StatSkipped, uint64(s.Skipped))
	put64(r, StatInvalid, uint64(s.Invalid))
	put64(r, StatValidMean, math.Float64bits(s.ValidMean))
	put32(r, StatColumn, s.Column)
	put32(r, StatRecord, StatRecStats)
}

// putPercentiles writes the percentiles record of the column column into r
// with the path offset pathDist and length pathLen.
func putPercentiles(r []byte, p *relog.Percentiles, column, pathDist, pathLen uint32) {
	_ = r[PctSize-1]
	clear(r)
	put32(r, PctPathOff, pathDist)
	put32(r, PctPathLen, pathLen)
	put64(r, PctP90, math.Float64bits(p.P90))
	put64(r, PctP95, math.Float64bits(p.P95))
	put64(r, PctP99, math.Float64bits(p.P99))
	put32(r, PctColumn, column)
	put32(r, PctRecord, StatRecPercentiles)
}

// ReadPercentiles reads the percentiles record r (at least StatSize
// bytes; PctRecord StatRecPercentiles): its percentiles and its column.
func ReadPercentiles(r []byte) (relog.Percentiles, uint32) {
	_ = r[PctSize-1]
	f := func(off int) float64 { return math.Float64frombits(get64(r, off)) }
	return relog.Percentiles{P90: f(PctP90), P95: f(PctP95), P99: f(PctP99)}, get32(r, PctColumn)
}

// PutRequest writes in and opts as compute_batch's request record q (at
// least ReqSize bytes).
func PutRequest(q []byte, in *engine.Input, opts uint32) {
	_ = q[ReqSize-1]
	var flags uint32
	if in.HasOld {
		flags = FlagHasOld
	}
	put32(q, ReqType, uint32(in.Type))
	put32(q, ReqScale, uint32(in.Scale))
	put64(q, ReqTimeBase, uint64(in.TimeBase))
	put32(q, ReqFlags, flags)
	put32(q, ReqOptions, opts)
	put32(q, ReqOldCStatus, in.Old.CStatus)
	put32(q, ReqNewCStatus, in.New.CStatus)
	put64(q, ReqOldFirst, in.Old.FirstValue)
	put64(q, ReqOldSecond, in.Old.SecondValue)
	put64(q, ReqNewFirst, in.New.FirstValue)
	put64(q, ReqNewSecond, in.New.SecondValue)
	put32(q, ReqOldMulti, in.Old.MultiCount)
	put32(q, ReqNewMulti, in.New.MultiCount)
}

// ReadRequest reads the request record q (at least ReqSize bytes) into in
// and returns its options; false when a reserved bit of its flags or
// options is set.
func ReadRequest(in *engine.Input, q []byte) (engine.Options, bool) {
	_ = q[ReqSize-1]
	flags, opts := get32(q, ReqFlags), get32(q, ReqOptions)
	if flags&^FlagHasOld != 0 || opts&^OptionsMask != 0 {
		return 0, false
	}
	// Field by field: a composite literal would be built aside and copied
	// (in the module, a call to memmove per request; twice the time).
	in.Type = engine.CounterType(get32(q, ReqType))
	in.Scale = int32(get32(q, ReqScale))
	in.TimeBase = int64(get64(q, ReqTimeBase))
	in.HasOld = flags&FlagHasOld != 0
	in.Old.CStatus, in.Old.TimeStamp = get32(q, ReqOldCStatus), 0
	in.Old.FirstValue, in.Old.SecondValue = get64(q, ReqOldFirst), get64(q, ReqOldSecond)
	in.Old.MultiCount = get32(q, ReqOldMulti)
	in.New.CStatus, in.New.TimeStamp = get32(q, ReqNewCStatus), 0
	in.New.FirstValue, in.New.SecondValue = get64(q, ReqNewFirst), get64(q, ReqNewSecond)
	in.New.MultiCount = get32(q, ReqNewMulti)
	return engine.Options(opts), true
}

// PutResult writes r as compute_batch's result record b (at least ResSize
// bytes).
func PutResult(b []byte, r engine.Result) {
	_ = b[ResSize-1]
	put64(b, ResValue, math.Float64bits(r.Value))
	put32(b, ResStatus, uint32(r.Status))
	put32(b, ResPad, 0)
}

// ReadResult reads the result record b (at least ResSize bytes): the value
// and the status as the module wrote it (a host checks its range).
func ReadResult(b []byte) (float64, uint32) {
	_ = b[ResSize-1]
	return math.Float64frombits(get64(b, ResValue)), get32(b, ResStatus)
}

// PutRegion writes the region (off, n) into the query descriptor desc at
// field (Query…).
func PutRegion(desc []byte, field int, off, n uint32) {
	put32(desc, field, off)
	put32(desc, field+4, n)
}

// ReadRegion reads the region at field (Query…) of the query descriptor
// desc.
func ReadRegion(desc []byte, field int) (off, n uint32) {
	return get32(desc, field), get32(desc, field+4)
}

// Little-endian u32 arrays: V2 counter ids (decode_v2, query).

// AppendU32s appends vs as little-endian u32s.
func AppendU32s(dst []byte, vs []uint32) []byte {
	for _, v := range vs {
		dst = append(dst, 0, 0, 0, 0)
		put32(dst, len(dst)-4, v)
	}
	return dst
}

// ReadU32s reads len(b)/4 little-endian u32s (nil for none).
func ReadU32s(b []byte) []uint32 {
	if len(b) < 4 {
		return nil
	}
	vs := make([]uint32, len(b)/4)
	for i := range vs {
		vs[i] = get32(b, 4*i)
	}
	return vs
}

// ThrEntry is one entry of analyze's table of threshold files (ThrSize
// bytes): the regions of the input buffer that hold the file's name and
// bytes, and its flags (ThrRun).
type ThrEntry struct {
	NameOff, NameLen, DataOff, DataLen uint32
	Flags, Reserved                    uint32
}

// ReadThrEntry reads the entry at the start of b (ThrSize bytes at least).
func ReadThrEntry(b []byte) ThrEntry {
	var t ThrEntry
	t.NameOff, t.NameLen = ReadRegion(b, ThrName)
	t.DataOff, t.DataLen = ReadRegion(b, ThrData)
	t.Flags, t.Reserved = get32(b, ThrFlags), get32(b, ThrReserved)
	return t
}

// Put writes t at the start of b (ThrSize bytes at least).
func (t *ThrEntry) Put(b []byte) {
	PutRegion(b, ThrName, t.NameOff, t.NameLen)
	PutRegion(b, ThrData, t.DataOff, t.DataLen)
	put32(b, ThrFlags, t.Flags)
	put32(b, ThrReserved, t.Reserved)
}
