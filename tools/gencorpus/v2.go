package gencorpus

import (
	"encoding/binary"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// The V2 counterset: "PerfCalc Processor Information", modelled on
// Windows' "Processor Information" counterset (README: "V2 files").
const (
	// V2CountersetName is the counterset's name. PerfLib returns it on its
	// own (PERF_REG_COUNTERSET_NAME_STRING, a bare NUL-terminated string),
	// not in the counter name string buffer of v2-strings.bin.
	V2CountersetName = "PerfCalc Processor Information"
	// V2ErrorStatus is the dwStatus of the PERF_ERROR_RETURN block:
	// ERROR_WMI_INSTANCE_NOT_FOUND (4201), the answer chosen here for
	// % Processor Time (counter 0) of V2MissingInstance.
	V2ErrorStatus = 0x1069
	// V2MissingInstance is the instance, absent from the set, that the
	// error block answers for.
	V2MissingInstance = "0,7"
)

// V2CountersetGUID is the made-up GUID of the counterset,
// {5c1ef9a8-1b0e-4a8f-9d36-7f2a4e6c0b51}, as stored.
var V2CountersetGUID = func() [16]byte {
	var g [16]byte
	binary.LittleEndian.PutUint32(g[0:], 0x5c1ef9a8)
	binary.LittleEndian.PutUint16(g[4:], 0x1b0e)
	binary.LittleEndian.PutUint16(g[6:], 0x4a8f)
	copy(g[8:], []byte{0x9d, 0x36, 0x7f, 0x2a, 0x4e, 0x6c, 0x0b, 0x51})
	return g
}()

const (
	attribNoDisplayable = 0x2 // PERF_ATTRIB_NO_DISPLAYABLE
	aggTotal            = 1   // PERF_AGGREGATE_TOTAL
	aggAvg              = 2   // PERF_AGGREGATE_AVG
	none                = 0xFFFF_FFFF
)

// v2Counter is one counter of the set.
type v2Counter struct {
	name string
	reg  encode.V2CounterRegInfo
	size uint32
}

func v2Counters() []v2Counter {
	c := func(id uint32, name string, t engine.CounterType, size uint32, attrib uint64, agg uint32) v2Counter {
		return v2Counter{name: name, size: size, reg: encode.V2CounterRegInfo{CounterID: id, Type: t, Attrib: attrib,
			DetailLevel: 100, AggregateFunc: agg, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none}}
	}
	cs := []v2Counter{
		c(0, "% Processor Time", engine.Timer100nsInv, 8, 0, aggAvg),
		c(1, "% Priority Time", engine.Precision100nsTimer, 8, 0, aggAvg),
		c(2, "Priority Time Stamp", engine.PrecisionTimestamp, 8, attribNoDisplayable, 0),
		c(3, "% Idle Time", engine.ObjTimeTimer, 8, 0, aggAvg),
		c(4, "Idle Time Stamp", engine.CounterLargeRawcount, 8, attribNoDisplayable, 0),
		c(5, "Idle Time Frequency", engine.CounterLargeRawcount, 8, attribNoDisplayable, 0),
		c(6, "% Core Busy Time", engine.MultiTimer100ns, 8, 0, aggAvg),
		c(7, "Active Cores", engine.CounterRawcount, 4, attribNoDisplayable, 0),
		c(8, "% of Maximum Frequency", engine.RawFraction, 4, 0, aggAvg),
		c(9, "Maximum Frequency", engine.RawBase, 4, attribNoDisplayable, 0),
		c(10, "Interrupts/sec", engine.CounterCounter, 4, 0, aggTotal),
		c(11, "Processor Frequency", engine.CounterRawcount, 4, 0, aggAvg),
	}
	cs[1].reg.BaseCounterID = 2
	cs[3].reg.PerfTimeID, cs[3].reg.PerfFreqID = 4, 5
	cs[6].reg.MultiID = 7
	cs[8].reg.BaseCounterID = 9
	cs[10].reg.DefaultScale = -2
	return cs
}

// v2Inst is one instance of the set with its values at the first sample
// and their increments.
type v2Inst struct {
	id           uint32
	name         string
	busy         uint64 // % Processor Time's idle increment, 100 ns
	prio         uint64 // % Priority Time increment, 100 ns
	cores        uint64
	coreBusy     uint64 // % Core Busy Time increment, 100 ns
	interrupts   [2]uint64
	idleBase     uint64
	prioBase     uint64
	coreBusyBase uint64
}

var v2Insts = []v2Inst{
	{id: 0, name: "0,0", busy: 6_000_000, prio: 3_000_000, cores: 1, coreBusy: 4_000_000, interrupts: [2]uint64{2_400_123_456, 2_150},
		idleBase: 2_400_000_000_000, prioBase: 100_000_000_000, coreBusyBase: 336_450_000_000},
	{id: 1, name: "0,1", busy: 9_000_000, prio: 800_000, cores: 1, coreBusy: 1_000_000, interrupts: [2]uint64{1_500_654_321, 1_350},
		idleBase: 2_500_000_000_000, prioBase: 50_000_000_000, coreBusyBase: 236_450_000_000},
	{id: 2, name: "0,_Total", busy: 7_500_000, prio: 1_900_000, cores: 2, coreBusy: 5_000_000, interrupts: [2]uint64{3_900_777_777, 3_500},
		idleBase: 2_450_000_000_000, prioBase: 75_000_000_000, coreBusyBase: 572_900_000_000},
	{id: 3, name: "_Total", busy: 7_500_000, prio: 1_900_000, cores: 2, coreBusy: 5_000_000, interrupts: [2]uint64{3_900_777_777, 3_500},
		idleBase: 2_450_000_000_000, prioBase: 75_000_000_000, coreBusyBase: 572_900_000_000},
}

// The V2 pair's clocks: ten minutes after the V1 pair, one second apart.
func v2Time(s int) time.Time { return sample1.Add(10*time.Minute + time.Duration(s)*time.Second) }
func v2QPC(s int) int64      { return PerfTime(0) + 600*QPCFrequency + int64(s)*Interval }
func v2FT(s int) int64       { return fileTime(v2Time(s)) }

// row returns the instance's values of every counter of the set at sample s.
func (in *v2Inst) row(s int) []uint64 {
	return []uint64{
		lin(in.idleBase, in.busy, s),
		lin(in.prioBase, in.prio, s), uint64(v2FT(s) + 2_000),
		lin(in.idleBase, in.busy, s), uint64(v2QPC(s) + 700), QPCFrequency,
		lin(in.coreBusyBase, in.coreBusy, s), in.cores,
		2_700, 3_600,
		lin(in.interrupts[0], in.interrupts[1], s),
		2_700,
	}
}

func v2Set() *encode.V2CounterSet {
	set := &encode.V2CounterSet{GUID: V2CountersetGUID, DetailLevel: 100, InstanceType: 2} // PERF_COUNTERSET_MULTI_INSTANCES
	for _, c := range v2Counters() {
		set.Counters = append(set.Counters, c.reg)
	}
	return set
}

func v2RegInfo() ([]byte, error) { return encode.EncodeV2RegInfo(v2Set()) }

func v2Strings() ([]byte, error) {
	var s encode.V2Strings
	for _, c := range v2Counters() {
		s.Strings = append(s.Strings, encode.V2String{CounterID: c.reg.CounterID, Text: c.name})
	}
	return encode.EncodeV2Strings(&s)
}

func v2Instances() ([]byte, error) {
	var insts []encode.V2Instance
	for _, in := range v2Insts {
		insts = append(insts, encode.V2Instance{InstanceID: in.id, Name: in.name})
	}
	return encode.EncodeV2Instances(insts)
}

// V2BlockIDs gives, for each block of the V2 data files, the CounterId of
// the PERF_COUNTER_IDENTIFIER with that Index (0xFFFFFFFF: the wildcard
// PERF_WILDCARD_COUNTER), for perflibv2.Selector.IDs.
var V2BlockIDs = []uint32{none, 0, none, 10, 0}

// v2Desc describes sample s of the V2 pair: the counterset block (every
// counter of every instance), one counter of _Total, several counters of
// _Total, one counter of every instance, and an error return.
func v2Desc(s int) *encode.V2Data {
	counters := v2Counters()
	value := func(k int, v uint64) encode.V2Value { return encode.V2Value{Size: counters[k].size, Value: v} }
	set := encode.V2CounterBlock{Type: encode.V2Counterset}
	for _, c := range counters {
		set.CounterIDs = append(set.CounterIDs, c.reg.CounterID)
	}
	inst := encode.V2CounterBlock{Type: encode.V2MultipleInstances}
	for i := range v2Insts {
		in := &v2Insts[i]
		vals := in.row(s)
		r := encode.V2Row{InstanceID: in.id, Name: in.name}
		for k, v := range vals {
			r.Values = append(r.Values, value(k, v))
		}
		set.Rows = append(set.Rows, r)
		inst.Rows = append(inst.Rows, encode.V2Row{InstanceID: in.id, Name: in.name, Values: []encode.V2Value{value(10, vals[10])}})
	}
	total := v2Insts[3].row(s)
	multiIDs := []uint32{10, 11, 8, 9}
	mc := encode.V2CounterBlock{Type: encode.V2MultipleCounters, CounterIDs: multiIDs, Rows: []encode.V2Row{{}}}
	for _, id := range multiIDs {
		mc.Rows[0].Values = append(mc.Rows[0].Values, value(int(id), total[id]))
	}
	st := v2Time(s)
	return &encode.V2Data{
		PerfTimeStamp:   v2QPC(s),
		PerfTime100NSec: v2FT(s),
		PerfFreq:        QPCFrequency,
		SystemTime: wintype.SystemTime{Year: uint16(st.Year()), Month: uint16(st.Month()), DayOfWeek: uint16(st.Weekday()),
			Day: uint16(st.Day()), Hour: uint16(st.Hour()), Minute: uint16(st.Minute()), Second: uint16(st.Second()),
			Milliseconds: uint16(st.Nanosecond() / 1_000_000)},
		Blocks: []encode.V2CounterBlock{
			set,
			{Type: encode.V2SingleCounter, Rows: []encode.V2Row{{Values: []encode.V2Value{value(0, total[0])}}}},
			mc,
			inst,
			{Type: encode.V2ErrorReturn, Status: V2ErrorStatus},
		},
	}
}

func v2Data(s int) ([]byte, error) { return encode.EncodeV2Data(v2Desc(s)) }
