package perflibv2_test

import (
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/tools/encode"
)

const (
	tStamp = 5_000_000
	t100ns = 133_500_000_000_000_000
	tFreq  = 3_579_545
)

// v8 is an 8-byte value.
func v8(x uint64) encode.V2Value { return encode.V2Value{Size: 8, Value: x} }

// v4 is a 4-byte value.
func v4(x uint64) encode.V2Value { return encode.V2Value{Size: 4, Value: x} }

// pairData is a result for processorSet: value = 1000·(instance+1) + id for
// the counterset block, helpers chosen so that every pairing is visible.
func pairData(t testing.TB, n0 uint64) []byte {
	row := func(id uint32, name string, k uint64) encode.V2Row {
		return encode.V2Row{InstanceID: id, Name: name, Values: []encode.V2Value{
			v8(n0 + k*1000 + 0), v4(k*1000 + 1), v4(k*1000 + 2), v8(k*1000 + 3), v8(k*1000 + 4), v8(k*1000 + 5),
			v8(k*1000 + 6), v4(k*1000 + 7), v4(k*1000 + 8), v8(k*1000 + 9), v4(k*1000 + 10), v4(k*1000 + 11), v4(k*1000 + 12),
		}}
	}
	single := func(x uint64) encode.V2CounterBlock {
		return encode.V2CounterBlock{Type: encode.V2SingleCounter, Rows: []encode.V2Row{{Values: []encode.V2Value{v4(x)}}}}
	}
	return mustEncode(t, &encode.V2Data{
		PerfTimeStamp: tStamp, PerfTime100NSec: t100ns, PerfFreq: tFreq,
		Blocks: []encode.V2CounterBlock{
			{Status: 0x10DA, Type: encode.V2ErrorReturn}, // 0: counter 8 failed
			{Type: encode.V2Counterset, CounterIDs: []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
				Rows: []encode.V2Row{row(0, "0", 1), row(1, "_Total", 2)}}, // 1
			single(77), // 2: counter 1
			single(88), // 3: counter 2
			{Type: encode.V2MultipleInstances, Rows: []encode.V2Row{ // 4: counter 1
				{InstanceID: 1, Name: "a", Values: []encode.V2Value{v4(10)}},
				{InstanceID: 2, Name: "b", Values: []encode.V2Value{v4(20)}},
				{InstanceID: 3, Name: "c", Values: []encode.V2Value{v4(30)}},
			}},
			{Type: encode.V2MultipleInstances, Rows: []encode.V2Row{ // 5: counter 2, other order
				{InstanceID: 2, Name: "b", Values: []encode.V2Value{v4(200)}},
				{InstanceID: 1, Name: "a", Values: []encode.V2Value{v4(100)}},
			}},
			{Status: 31, Type: encode.V2Counterset, CounterIDs: []uint32{1, 2}, // 6: an error status with data
				Rows: []encode.V2Row{{InstanceID: 1, Name: "x", Values: []encode.V2Value{v4(1), v4(2)}}}},
			{Type: encode.V2MultipleCounters, CounterIDs: []uint32{1}, // 7: counter 1 without its base
				Rows: []encode.V2Row{{Values: []encode.V2Value{v4(5)}}}},
			{Type: encode.V2MultipleCounters, CounterIDs: []uint32{2, 6, 1}, // 8
				Rows: []encode.V2Row{{Values: []encode.V2Value{v4(5), v8(6), v4(7)}}}},
		},
	})
}

func TestFill(t *testing.T) {
	reg, err := perflibv2.ParseRegInfo(mustRegInfo(t, processorSet()))
	if err != nil {
		t.Fatal(err)
	}
	data := pairData(t, 0)
	ids := []uint32{8, 0xFFFFFFFF, 1, 2, 1, 2, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}
	bad := engine.CStatusInvalidData
	for _, tc := range []struct {
		name    string
		sel     perflibv2.Selector
		counter engine.Counter
		raw     engine.RawCounter
	}{
		{"100 ns timer", perflibv2.Selector{Block: 1, Row: 0, CounterID: 0},
			engine.Counter{Type: engine.Timer100ns, TimeBase: engine.Frequency100NS}, engine.RawCounter{FirstValue: 1000, SecondValue: t100ns}},
		{"raw fraction: base from BaseCounterId", perflibv2.Selector{Block: 1, Row: 1, CounterID: 1},
			engine.Counter{Type: engine.RawFraction, Scale: -2, TimeBase: tFreq}, engine.RawCounter{FirstValue: 2001, SecondValue: 2002}},
		{"object timer: PerfTimeId and PerfFreqId", perflibv2.Selector{Block: 1, Row: 0, CounterID: 3},
			engine.Counter{Type: engine.ObjTimeTimer, TimeBase: 1005}, engine.RawCounter{FirstValue: 1003, SecondValue: 1004}},
		{"elapsed time", perflibv2.Selector{Block: 1, Row: 1, CounterID: 9},
			engine.Counter{Type: engine.ElapsedTime, Scale: -10, TimeBase: 2005}, engine.RawCounter{FirstValue: 2009, SecondValue: 2004}},
		{"multi timer: MultiId", perflibv2.Selector{Block: 1, Row: 1, CounterID: 6},
			engine.Counter{Type: engine.MultiTimer100ns, TimeBase: engine.Frequency100NS}, engine.RawCounter{FirstValue: 2006, SecondValue: t100ns, MultiCount: 2007}},
		{"tick rate", perflibv2.Selector{Block: 1, Row: 0, CounterID: 8},
			engine.Counter{Type: engine.CounterCounter, Scale: 10, TimeBase: tFreq}, engine.RawCounter{FirstValue: 1008, SecondValue: tStamp}},
		{"average timer: base and tick frequency", perflibv2.Selector{Block: 1, Row: 0, CounterID: 10},
			engine.Counter{Type: engine.AverageTimer, TimeBase: tFreq}, engine.RawCounter{FirstValue: 1010, SecondValue: 1011}},
		{"base counter itself", perflibv2.Selector{Block: 1, Row: 0, CounterID: 2},
			engine.Counter{Type: engine.RawBase, TimeBase: tFreq}, engine.RawCounter{FirstValue: 1002, SecondValue: tStamp}},
		{"missing base", perflibv2.Selector{Block: 1, Row: 0, CounterID: 12},
			engine.Counter{Type: engine.RawFraction, TimeBase: tFreq}, engine.RawCounter{CStatus: bad, FirstValue: 1012}},
		{"error block", perflibv2.Selector{Block: 0, CounterID: 8},
			engine.Counter{Type: engine.CounterCounter, Scale: 10, TimeBase: tFreq}, engine.RawCounter{CStatus: bad, SecondValue: tStamp}},
		{"single counter blocks: base found through IDs", perflibv2.Selector{Block: 2, CounterID: 1, IDs: ids},
			engine.Counter{Type: engine.RawFraction, Scale: -2, TimeBase: tFreq}, engine.RawCounter{FirstValue: 77, SecondValue: 88}},
		{"single counter block without IDs: base from a block with ids", perflibv2.Selector{Block: 2, CounterID: 1},
			engine.Counter{Type: engine.RawFraction, Scale: -2, TimeBase: tFreq}, engine.RawCounter{FirstValue: 77, SecondValue: 5}},
		{"multiple instances: base matched by instance", perflibv2.Selector{Block: 4, Row: 0, CounterID: 1, IDs: ids},
			engine.Counter{Type: engine.RawFraction, Scale: -2, TimeBase: tFreq}, engine.RawCounter{FirstValue: 10, SecondValue: 100}},
		{"multiple instances: second instance", perflibv2.Selector{Block: 4, Row: 1, CounterID: 1, IDs: ids},
			engine.Counter{Type: engine.RawFraction, Scale: -2, TimeBase: tFreq}, engine.RawCounter{FirstValue: 20, SecondValue: 200}},
		{"multiple instances: instance without base", perflibv2.Selector{Block: 4, Row: 2, CounterID: 1, IDs: ids},
			engine.Counter{Type: engine.RawFraction, Scale: -2, TimeBase: tFreq}, engine.RawCounter{CStatus: bad, FirstValue: 30}},
		{"error status on a data block", perflibv2.Selector{Block: 6, CounterID: 1},
			engine.Counter{Type: engine.RawFraction, Scale: -2, TimeBase: tFreq}, engine.RawCounter{CStatus: bad, FirstValue: 1}},
		{"multiple counters: base from another block", perflibv2.Selector{Block: 7, CounterID: 1},
			engine.Counter{Type: engine.RawFraction, Scale: -2, TimeBase: tFreq}, engine.RawCounter{FirstValue: 5, SecondValue: 5}},
		{"multiple instances without IDs: base missing", perflibv2.Selector{Block: 4, Row: 0, CounterID: 1},
			engine.Counter{Type: engine.RawFraction, Scale: -2, TimeBase: tFreq}, engine.RawCounter{CStatus: bad, FirstValue: 10}},
		{"multiple counters with the base", perflibv2.Selector{Block: 8, CounterID: 1},
			engine.Counter{Type: engine.RawFraction, Scale: -2, TimeBase: tFreq}, engine.RawCounter{FirstValue: 7, SecondValue: 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := engine.Input{HasOld: true, Old: engine.RawCounter{FirstValue: 99}}
			ok, err := perflibv2.Fill(&in, data, &reg, tc.sel)
			if !ok || err != nil {
				t.Fatalf("Fill: have %v, %v; want true, nil", ok, err)
			}
			tc.raw.TimeStamp = t100ns
			if in.Counter != tc.counter || in.New != tc.raw {
				t.Errorf("have %+v %+v,\nwant %+v %+v", in.Counter, in.New, tc.counter, tc.raw)
			}
			if !in.HasOld || in.Old.FirstValue != 99 {
				t.Errorf("Fill changed Old: %+v", in.Old)
			}
		})
	}
	for _, tc := range []struct {
		name string
		sel  perflibv2.Selector
	}{
		{"block out of range", perflibv2.Selector{Block: 9, CounterID: 0}},
		{"negative block", perflibv2.Selector{Block: -1, CounterID: 0}},
		{"row out of range", perflibv2.Selector{Block: 1, Row: 2, CounterID: 0}},
		{"negative row", perflibv2.Selector{Block: 1, Row: -1, CounterID: 0}},
		{"counter not registered", perflibv2.Selector{Block: 1, CounterID: 55}},
		{"counter not in the block", perflibv2.Selector{Block: 7, CounterID: 2}},
		{"IDs say another counter", perflibv2.Selector{Block: 2, CounterID: 2, IDs: ids}},
		{"IDs say another counter for an error block", perflibv2.Selector{Block: 0, CounterID: 0, IDs: ids}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := engine.Input{}
			ok, err := perflibv2.Fill(&in, data, &reg, tc.sel)
			if ok || err != nil || in != (engine.Input{}) {
				t.Errorf("Fill: have %v, %v, %+v; want false, nil and no change", ok, err, in)
			}
		})
	}
	// Malformed data is a FormatError.
	if _, err := perflibv2.Fill(&engine.Input{}, data[:40], &reg, perflibv2.Selector{}); !isFormatError(err) {
		t.Errorf("short data: have %v, want a FormatError", err)
	}
	if _, err := perflibv2.Fill(&engine.Input{}, put32(data, 0x30+8, 8), &reg, perflibv2.Selector{Block: 1}); !isFormatError(err) {
		t.Errorf("bad block: have %v, want a FormatError", err)
	}
}

func TestFillCompute(t *testing.T) {
	reg, _ := perflibv2.ParseRegInfo(mustRegInfo(t, processorSet()))
	// Two samples one second apart, in 100 ns units, in which counter 0
	// (a 100 ns timer) advanced by half a second: 50 %.
	older := pairData(t, 0)
	newer := mustEncode(t, &encode.V2Data{PerfTime100NSec: t100ns + 10_000_000, Blocks: []encode.V2CounterBlock{
		{Type: encode.V2MultipleCounters, CounterIDs: []uint32{0}, Rows: []encode.V2Row{{Values: []encode.V2Value{v8(1000 + 5_000_000)}}}},
	}})
	var in engine.Input
	if ok, err := perflibv2.Fill(&in, older, &reg, perflibv2.Selector{Block: 1, CounterID: 0}); !ok || err != nil {
		t.Fatal(ok, err)
	}
	in.Old, in.HasOld = in.New, true
	if ok, err := perflibv2.Fill(&in, newer, &reg, perflibv2.Selector{Block: 0, CounterID: 0}); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if r := engine.Compute(&in, 0); r.Status != engine.Valid || r.Value != 50 {
		t.Errorf("Compute: have %v %v, want 50 Valid", r.Value, r.Status)
	}
}

func TestFillAllocs(t *testing.T) {
	reg, _ := perflibv2.ParseRegInfo(mustRegInfo(t, processorSet()))
	data := pairData(t, 0)
	ids := []uint32{8, 0xFFFFFFFF, 1, 2, 1, 2}
	var in engine.Input
	var sum uint64
	allocs := testing.AllocsPerRun(100, func() {
		for _, sel := range []perflibv2.Selector{
			{Block: 1, Row: 1, CounterID: 3}, {Block: 1, CounterID: 6}, {Block: 4, Row: 1, CounterID: 1, IDs: ids},
		} {
			if ok, err := perflibv2.Fill(&in, data, &reg, sel); !ok || err != nil {
				panic("Fill failed")
			}
			sum += in.New.SecondValue
		}
	})
	if allocs != 0 {
		t.Errorf("Fill: have %v allocs per run, want 0", allocs)
	}
	if sum == 0 {
		t.Error("Fill read nothing")
	}
}
