// Package hostile builds the hostile inputs of issue 12 with the project's
// own encoders, at any size: the regression tests use them small, the
// measurements (cmd/hostile) at the size of the attack. Each generator is
// deterministic.
package hostile

import (
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// LongInstancesV1 returns a V1 blob with one object (title index 230) of n
// instances whose names are nameLen characters: name i is nameLen−1 times
// 'a' then the digit i%10, so that a pattern of many a's followed by
// another letter almost matches every name.
func LongInstancesV1(n, nameLen int) ([]byte, error) {
	o := encode.V1Object{ObjectNameTitleIndex: 230, NumInstances: int32(n), PerfFreq: 10_000_000,
		Counters: []encode.V1Counter{{CounterNameTitleIndex: 6, CounterType: engine.CounterRawcount, CounterSize: 4}}}
	encode.V1Layout(o.Counters)
	for i := range n {
		name := strings.Repeat("a", nameLen-1) + strconv.Itoa(i%10)
		o.Instances = append(o.Instances, encode.V1Instance{Name: name, UniqueID: -1, Values: []uint64{uint64(i)}})
	}
	blob := encode.V1Blob{SystemName: "HOSTILE", PerfFreq: 10_000_000, PerfTime: 1, PerfTime100nSec: 133_000_000_000_000_000,
		SystemTime: wintype.SystemTime{Year: 2025, Month: 1, Day: 1}, Objects: []encode.V1Object{o}}
	return encode.EncodeV1(&blob)
}

// NearMissPattern returns the wildcard "*" followed by n 'a's and a 'b': a
// pattern that almost matches every name of LongInstancesV1 and that costs
// a backtracking matcher n × the name's length.
func NearMissPattern(n int) string { return "*" + strings.Repeat("a", n) + "b" }

// CounterListLog returns a .blg log whose counter list has n entries of 152
// bytes each (distinct instances of one counter) and no sample: the
// decoders' memory then is all the counter list's.
func CounterListLog(n int) []byte {
	list := append([]byte(nil), blgbuild.CounterListHeader...)
	for i := range n {
		list = blgbuild.AppendCounterList(list, blgbuild.Counter{
			Type: uint32(engine.CounterRawcount), Machine: `\\HOSTILE`, Object: "Process",
			Instance: "instance" + pad6(i), Counter: "% Processor Time",
		})
	}
	l := blgbuild.New(64<<10, 130_057_734_178_440_000)
	l.Record(blgbuild.EventCounterList, 130_057_734_178_440_000, list, blgbuild.MaxEventData)
	return l.Bytes()
}

func pad6(i int) string {
	s := strconv.Itoa(i % 1_000_000)
	return strings.Repeat("0", 6-len(s)) + s
}

// NameTable returns a "Counter 009" table of n pairs whose names are
// non-ASCII (case folding takes Unicode's tables), share a long prefix and
// come in no particular order.
func NameTable(n int) ([]byte, error) {
	t := encode.NameTable{Pairs: make([]encode.NameTablePair, n)}
	x := uint32(2463534242)
	for i := range t.Pairs {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		t.Pairs[i] = encode.NameTablePair{Index: uint32(2 * (i + 1)), Text: "Größe " + strconv.FormatUint(uint64(x), 10)}
	}
	return encode.EncodeNameTable(&t)
}

// NewInstancesLog returns a .blg log of counters wildcard entries
// (\\HOSTILE\Process(*)\Counter k) and samples samples, each of which
// brings perSample instances that no other sample has: the log has
// counters × samples × perSample columns, however small its records.
func NewInstancesLog(counters, samples, perSample int) []byte {
	const start = 130_057_734_178_440_000
	list := append([]byte(nil), blgbuild.CounterListHeader...)
	for k := range counters {
		list = blgbuild.AppendCounterList(list, blgbuild.Counter{
			Flags: 1, Type: uint32(engine.CounterRawcount), Machine: `\\HOSTILE`, Object: "Process",
			Instance: "*", Counter: "Counter " + strconv.Itoa(k),
		})
	}
	l := blgbuild.New(64<<10, start)
	l.Record(blgbuild.EventCounterList, start, list, blgbuild.MaxEventData)
	names := make([][]uint16, perSample)
	values := make([]uint64, perSample)
	for i := range samples {
		ts := int64(start + i*10_000_000)
		for j := range names {
			names[j] = names[j][:0]
			for _, r := range "instance" + strconv.Itoa(i*perSample+j) {
				names[j] = append(names[j], uint16(r))
			}
			values[j] = uint64(i + j)
		}
		l.Record(blgbuild.EventSample, ts, multiSample(counters, ts, names, values), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// WideLog returns a .blg log of one wildcard entry \\WIDE\Process(*)\NAME
// per counter name and samples samples one second apart, each with the
// same instances "process0" … (raw counts: instance j's value in sample i
// is i+j): a log that is wide rather than long, counters × instances
// columns, for the memory of analyze (its defaults match Process' Handle
// Count, Thread Count, Private Bytes and Working Set).
func WideLog(counters []string, instances, samples int) []byte {
	return wideLog("Process", counters, instances, samples)
}

// wideLog is WideLog of the object object.
func wideLog(object string, counters []string, instances, samples int) []byte {
	const start = 130_057_734_178_440_000
	list := append([]byte(nil), blgbuild.CounterListHeader...)
	for _, name := range counters {
		list = blgbuild.AppendCounterList(list, blgbuild.Counter{
			Flags: 1, Type: uint32(engine.CounterRawcount), Machine: `\\WIDE`, Object: object,
			Instance: "*", Counter: name,
		})
	}
	l := blgbuild.New(64<<10, start)
	l.Record(blgbuild.EventCounterList, start, list, blgbuild.MaxEventData)
	names := make([][]uint16, instances)
	for j := range names {
		for _, r := range "process" + strconv.Itoa(j) {
			names[j] = append(names[j], uint16(r))
		}
	}
	values := make([]uint64, instances)
	for i := range samples {
		ts := int64(start + i*10_000_000)
		for j := range values {
			values[j] = uint64(i + j)
		}
		l.Record(blgbuild.EventSample, ts, multiSample(len(counters), ts, names, values), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// multiSample returns a raw-record sample of n wildcard entries, each with
// the instances names and their values, at ts.
func multiSample(n int, ts int64, names [][]uint16, values []uint64) []byte {
	rec := []byte{'B', 'L', 3, 0, 0, 0, 0, 0}
	for range n {
		rec = append(rec, blgbuild.MultiSubRecord(ts, names, values)...)
	}
	rec[4], rec[5], rec[6], rec[7] = byte(len(rec)), byte(len(rec)>>8), byte(len(rec)>>16), byte(len(rec)>>24)
	return rec
}
