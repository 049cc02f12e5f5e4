package relog

import (
	"encoding/binary"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// This file builds small .blg logs by hand: tools/blgbuild frames them
// (a 32-bit system header with a TRACE_LOGFILE_HEADER, then PDH events in
// 64 KiB buffers); the records (counter list, name-table chunks, samples)
// are made here.

const (
	bufSize   = 0x10000
	bufHeader = 0x48 // WMI_BUFFER_HEADER
)

var le = binary.LittleEndian

func utf16z(s string) []byte { return blgbuild.UTF16Z(s) }

// zone is a TIME_ZONE_INFORMATION; the default is Pacific with its 2007
// rules, as in Tx_BasicPerfCounters.blg.
type zone struct {
	bias                     int32
	std, dst                 string
	stdMonth, dstMonth       uint16
	stdDay, dstDay, hour     uint16
	stdBiasDelta, dstBiasDel int32
}

var pacific = zone{bias: 480, std: "@tzres.dll,-212", dst: "@tzres.dll,-211", stdMonth: 11, stdDay: 1, dstMonth: 3, dstDay: 2, hour: 2, dstBiasDel: -60}

func (z zone) encode() []byte {
	b := make([]byte, 172)
	le.PutUint32(b[0:], uint32(z.bias))
	copy(b[4:68], utf16z(z.std))
	le.PutUint16(b[68+2:], z.stdMonth)
	le.PutUint16(b[68+6:], z.stdDay)
	le.PutUint16(b[68+8:], z.hour)
	le.PutUint32(b[84:], uint32(z.stdBiasDelta))
	copy(b[88:152], utf16z(z.dst))
	le.PutUint16(b[152+2:], z.dstMonth)
	le.PutUint16(b[152+6:], z.dstDay)
	le.PutUint16(b[152+8:], z.hour)
	le.PutUint32(b[168:], uint32(z.dstBiasDel))
	return b
}

// encodeTimeZone is the TIME_ZONE_INFORMATION of tz.
func encodeTimeZone(tz *blg.TimeZone) []byte {
	b := make([]byte, 172)
	st := func(b []byte, s wintype.SystemTime) {
		for i, v := range []uint16{s.Year, s.Month, s.DayOfWeek, s.Day, s.Hour, s.Minute, s.Second, s.Milliseconds} {
			le.PutUint16(b[2*i:], v)
		}
	}
	le.PutUint32(b[0:], uint32(tz.Bias))
	copy(b[4:68], utf16z(tz.StandardName))
	st(b[68:], tz.StandardDate)
	le.PutUint32(b[84:], uint32(tz.StandardBias))
	copy(b[88:152], utf16z(tz.DaylightName))
	st(b[152:], tz.DaylightDate)
	le.PutUint32(b[168:], uint32(tz.DaylightBias))
	return b
}

// logBuilder is a log being written; its records are split into parts of
// at most 8000 bytes.
type logBuilder struct{ log *blgbuild.Log }

// newLog starts a log whose header holds the zone z and the UTC start time
// start (a FILETIME).
func newLog(z zone, start int64) *logBuilder { return newLogTZ(z.encode(), start) }

// newLogTZ starts a log whose header holds the TIME_ZONE_INFORMATION tz
// (172 bytes) and the UTC start time start.
func newLogTZ(tz []byte, start int64) *logBuilder {
	return &logBuilder{blgbuild.NewTZ(bufSize, start, tz)}
}

// record appends a PDH record of event type typ.
func (l *logBuilder) record(typ byte, ts int64, data []byte) { l.log.Record(typ, ts, data, 8000) }

// bytes ends the log and returns it.
func (l *logBuilder) bytes() []byte { return l.log.Bytes() }

// counterSpec is one counter-list entry.
type counterSpec = blgbuild.Counter

// counterList is the counter-list record of the entries.
func counterList(cs ...counterSpec) []byte { return blgbuild.AppendCounterList(nil, cs...) }

func bl(kind byte, size int) []byte {
	b := []byte{'B', 'L', 3, kind, 0, 0, 0, 0}
	le.PutUint32(b[4:], uint32(size))
	return b
}

// sampleRecord wraps sub-records into a sample record.
func sampleRecord(subs ...[]byte) []byte {
	n := 8
	for _, s := range subs {
		n += len(s)
	}
	b := bl(0, n)
	for _, s := range subs {
		b = append(b, s...)
	}
	return b
}

// rawRec is a PDH_RAW_COUNTER sub-record.
func rawRec(status uint32, ts int64, first, second uint64) []byte {
	return rawCounterRec(engine.RawCounter{CStatus: status, TimeStamp: ts, FirstValue: first, SecondValue: second, MultiCount: 1})
}

// rawCounterRec is the PDH_RAW_COUNTER sub-record of r.
func rawCounterRec(r engine.RawCounter) []byte {
	body := make([]byte, 40)
	le.PutUint32(body[0:], r.CStatus)
	le.PutUint64(body[4:], uint64(r.TimeStamp))
	le.PutUint64(body[16:], r.FirstValue)
	le.PutUint64(body[24:], r.SecondValue)
	le.PutUint32(body[32:], r.MultiCount)
	return append(bl(1, 48), body...)
}

type item struct {
	name          string
	first, second uint64
}

// multiRec is a multi-instance sub-record.
func multiRec(status uint32, ts int64, items ...item) []byte {
	names := make([]string, len(items))
	raws := make([]engine.RawCounter, len(items))
	for i, it := range items {
		names[i], raws[i] = it.name, engine.RawCounter{FirstValue: it.first, SecondValue: it.second}
	}
	return multiRecRaw(status, ts, names, raws)
}

// multiRecRaw is a multi-instance sub-record of the instances names, with
// the raw values raws (their FirstValue, SecondValue and MultiCount).
func multiRecRaw(status uint32, ts int64, inst []string, raws []engine.RawCounter) []byte {
	body := make([]byte, 24+24*len(inst))
	le.PutUint32(body[4:], uint32(len(inst)))
	le.PutUint32(body[8:], status)
	le.PutUint64(body[16:], uint64(ts))
	var names []byte
	for i, r := range raws {
		q := body[24+24*i:]
		le.PutUint32(q[0:], uint32(len(body)+len(names)))
		le.PutUint32(q[4:], r.MultiCount)
		le.PutUint64(q[8:], r.FirstValue)
		le.PutUint64(q[16:], r.SecondValue)
		names = append(names, utf16z(inst[i])...)
	}
	body = append(body, names...)
	for len(body)%8 != 0 {
		body = append(body, 0)
	}
	le.PutUint32(body[0:], uint32(len(body)))
	return append(bl(2, 8+len(body)), body...)
}

// wholeRec is a whole-object sub-record holding a PERF_DATA_BLOCK.
func wholeRec(block []byte) []byte { return append(bl(5, 8+len(block)), block...) }

// nameChunk is a name-table chunk: the machine, then index/name pairs.
func nameChunk(machine string, pairs ...string) []byte {
	b := utf16z(machine)
	for _, p := range pairs {
		b = append(b, utf16z(p)...)
	}
	return b
}
