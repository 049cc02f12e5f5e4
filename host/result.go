package host

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// Kind is the kind of a decode result (the header's kind field).
type Kind uint32

// The kinds of decode results.
const (
	KindV1    Kind = abi.KindV1    // a V1 PERF_DATA_BLOCK
	KindV2    Kind = abi.KindV2    // a PerfLib V2 PerfQueryCounterData result
	KindNames Kind = abi.KindNames // a name table
	KindBlg   Kind = abi.KindBlg   // a .blg log
	KindQuery Kind = abi.KindQuery // a query between two captures
	KindStats Kind = abi.KindStats // the statistics of a .blg log's columns
)

// String returns the kind's name ("v1", "v2", "names", "blg", "query",
// "stats").
func (k Kind) String() string {
	switch k {
	case KindV1:
		return "v1"
	case KindV2:
		return "v2"
	case KindNames:
		return "names"
	case KindBlg:
		return "blg"
	case KindQuery:
		return "query"
	case KindStats:
		return "stats"
	}
	return "kind " + strconv.FormatUint(uint64(k), 10)
}

// Record is one decoded counter value (ABI.md, "Record"): its PDH path, its
// value computed with the call's options and its raw sample. Aux and
// Column depend on the kind:
//
//   - V1: Aux is the CounterNameTitleIndex, Column the object's index;
//   - V2: Aux is the CounterId, Column the block's index;
//   - name table: Aux (and Value) is the index, Path the text;
//   - blg: Aux is the sample's index in the log, Column the column's index.
type Record struct {
	Path string
	// Parts are the parts of a counter's Path (ABI.md, "Path parts"), as
	// the module formatted it from them; zero for a name table's record.
	Parts    counterpath.Path
	Value    float64
	Status   engine.Status
	Type     engine.CounterType
	Raw      engine.RawCounter // TimeStamp is Time
	TimeBase int64
	Time     int64 // a FILETIME: V1 PerfTime100nSec, V2 PerfTime100NSec, blg the sample's local time
	Scale    int32
	Aux      uint32
	Column   uint32
}

// Statistic is the statistics of one column of a .blg log (ABI.md,
// "Statistics record"): what perfcalc stats prints for it, as
// relog.Converter.Statistics computes it.
type Statistic struct {
	Path  string
	Parts counterpath.Path // the parts of Path (ABI.md, "Path parts")
	Type  engine.CounterType
	engine.Statistics
	// Percentiles are the column's percentiles (ABI.md, "Percentiles
	// record") with RelogStatsPercentiles; nil with RelogStats.
	Percentiles *relog.Percentiles
}

// Decoded is the result of a decode: its records, in the order of ABI.md,
// and what the header says of the input.
type Decoded struct {
	Kind    Kind
	Records []Record
	// Statistics are the records of a KindStats result (RelogStats), one
	// per column; Records is then empty.
	Statistics []Statistic
	// Columns are the V1 objects, V2 blocks, name-table indexes or blg
	// columns; Rows are 1 (V1, V2), the pairs read (name table) or the
	// samples (blg, stats).
	Columns, Rows uint32
	// Info is the V1 machine name, the V2 counterset's GUID or the log's
	// time zone's name.
	Info string
	// Bias is the log's time-zone bias in minutes (UTC = local + bias).
	Bias int32
	// Breaks is, for a .blg log read with relog.Options.Identity pid
	// (DecodeBlg, RelogStats), its identity breaks, as
	// relog.Converter.IdentityBreaks (the module's identity_breaks); 0
	// otherwise.
	Breaks int64
	// Damage is, for a .blg log damaged after the records returned, why
	// (with an Engine an *Error whose Code is 0; with Native the native
	// error): the records before it are valid.
	Damage error
}

// V2Counterset is what decoding PerfLib V2 data needs besides the data:
// the counterset's registration (PERF_COUNTERSET_REG_INFO and its
// PERF_COUNTER_REG_INFO array, required), optionally its counter name strings
// (a PERF_STRING_BUFFER_HEADER block; nil names counters "#<id>"), and the
// CounterId of each block position (perflibv2.Selector.IDs), which
// PERF_SINGLE_COUNTER and PERF_MULTIPLE_INSTANCES blocks need.
type V2Counterset struct {
	RegInfo []byte
	Strings []byte
	IDs     []uint32
}

// QueryConfig is query.Config with its parts as the bytes they are parsed
// from: the module parses them.
type QueryConfig struct {
	// Names is the V1 "Counter <lang>" name table; nil names "#<index>".
	Names []byte
	// Paths select counters (wildcards allowed); none selects every counter.
	Paths []counterpath.Path
	// Options are the engine's options.
	Options engine.Options
	// V2 captures: the counterset's registration (non-nil means V2), its
	// name strings and block ids (see V2Counterset), and the object name of
	// paths ("" uses the counterset's GUID).
	RegInfo    []byte
	Strings    []byte
	IDs        []uint32
	CounterSet string
}

// reader collects a decode result from its pages (abi's layout: a header,
// records, strings), checking each header against the bytes it heads:
// Engine reads the module's output buffer with it page by page, Native the
// one page its Builder wrote.
type reader struct {
	d    Decoded
	next uint32 // the index of the next page's first record
	// column is the column of the last statistics record (KindStats),
	// which a percentiles record must be of.
	column uint32
}

// page reads the page at the start of b. It returns the page's header, or
// what breaks the ABI ("" when nothing does). The columns, rows and bias
// are the last page's: those of a result whose pages the module returns as
// it decodes (V1 objects, V2 blocks) are complete on its last page.
func (rd *reader) page(b []byte) (h abi.Header, violation string) {
	if len(b) < abi.HeaderSize {
		return h, "the result is shorter than its header"
	}
	h = abi.ReadHeader(b)
	if h.Magic != abi.Magic || h.Version != abi.Version || h.RecSize != abi.RecordSize || h.RecOff != abi.HeaderSize ||
		h.First != rd.next || h.StrOff < abi.HeaderSize || uint64(h.Count)*abi.RecordSize > uint64(h.StrOff)-abi.HeaderSize ||
		uint64(h.StrOff)+uint64(h.StrLen) > uint64(len(b)) {
		return h, "the result header is inconsistent"
	}
	strs := b[h.StrOff : h.StrOff+h.StrLen]
	if rd.next == 0 {
		rd.d = Decoded{Kind: Kind(h.Kind)}
		if uint64(h.InfoOff)+uint64(h.InfoLen) > uint64(len(strs)) {
			return h, "the result's info lies outside its strings"
		}
		rd.d.Info = string(strs[h.InfoOff : h.InfoOff+h.InfoLen])
		if rd.d.Kind == KindStats {
			rd.d.Statistics = make([]Statistic, 0, min(h.Total, 1<<16)) // the module's total is not trusted for more
		} else {
			rd.d.Records = make([]Record, 0, min(h.Total, 1<<16))
		}
	}
	if uint64(h.First)+uint64(h.Count) != uint64(h.Total) || Kind(h.Kind) != rd.d.Kind {
		return h, "the result's pages do not add up"
	}
	rd.d.Columns, rd.d.Rows, rd.d.Bias = h.Columns, h.Rows, h.Bias
	var lastOff, lastLen uint32
	var lastPath string
	var lastParts counterpath.Path
	for i := range h.Count {
		r := b[abi.HeaderSize+i*abi.RecordSize:]
		po, pl := abi.RecordPath(r)
		if uint64(po)+uint64(pl) > uint64(len(strs)) {
			return h, "a record's path lies outside the strings"
		}
		if i == 0 || po != lastOff || pl != lastLen { // a log's records share their column's path
			lastOff, lastLen, lastPath = po, pl, string(strs[po:po+pl])
			if rd.d.Kind != KindNames {
				var ok bool
				if lastParts, ok = abi.ReadParts(strs[po+pl:]); !ok {
					return h, "a record's path parts lie outside the strings"
				}
			}
		}
		if rd.d.Kind == KindStats {
			if binary.LittleEndian.Uint32(r[abi.StatRecord:]) == abi.StatRecPercentiles {
				// The percentiles of the column of the statistics record before it.
				n := len(rd.d.Statistics)
				if n == 0 || rd.d.Statistics[n-1].Percentiles != nil || binary.LittleEndian.Uint32(r[abi.PctColumn:]) != rd.column {
					return h, "a percentiles record follows no statistics record of its column"
				}
				f64 := func(off int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(r[off:])) }
				rd.d.Statistics[n-1].Percentiles = &relog.Percentiles{P90: f64(abi.PctP90), P95: f64(abi.PctP95), P99: f64(abi.PctP99)}
				continue
			}
			st := abi.ReadStatistic(r)
			rd.column = st.Column
			rd.d.Statistics = append(rd.d.Statistics, Statistic{Path: lastPath, Parts: lastParts, Type: st.Type, Statistics: st.Statistics})
			continue
		}
		rec := abi.ReadRecord(r)
		rd.d.Records = append(rd.d.Records, Record{
			Path: lastPath, Parts: lastParts, Value: rec.Value, Status: rec.Status, Type: rec.Type, Raw: rec.Raw,
			TimeBase: rec.TimeBase, Time: rec.Time, Scale: rec.Scale, Aux: rec.Aux, Column: rec.Column,
		})
	}
	rd.next += h.Count
	return h, ""
}

// appendValues appends the records of a query result as query's values.
func appendValues(dst []query.Value, d *Decoded) []query.Value {
	for i := range d.Records {
		r := &d.Records[i]
		dst = append(dst, query.Value{
			Path: []byte(r.Path), Parts: r.Parts, Type: r.Type, Scale: r.Scale, DetailLevel: r.Aux,
			Value: r.Value, Status: r.Status, HasOld: r.Column == 1, Raw: r.Raw,
		})
	}
	return dst
}
