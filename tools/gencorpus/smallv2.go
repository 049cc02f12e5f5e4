package gencorpus

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// SmallV2 builds a small V2 counterset registration (a fraction with its
// base and a 100 ns timer, counterset GUID {04030201-0605-0807-090a-
// 0b0c0d0e0f10}), its counter names ("% Used", "Used Base", "% Busy") and
// two captures 1 s apart of two instances, "a" and "b": the module's and
// the JS package's tests decode them (wasm's native reference writes them
// with "v2fixture").
func SmallV2() (reg, strs, older, newer []byte, err error) {
	const none = perflibv2.NoCounter
	set := encode.V2CounterSet{GUID: [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, DetailLevel: 100, InstanceType: perflibv2.CountersetMultiInstances,
		Counters: []encode.V2CounterRegInfo{
			{CounterID: 1, Type: engine.RawFraction, BaseCounterID: 2, PerfTimeID: none, PerfFreqID: none, MultiID: none, DetailLevel: 100},
			{CounterID: 2, Type: engine.RawBase, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none, DetailLevel: 100},
			{CounterID: 3, Type: engine.Timer100ns, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none, DetailLevel: 100},
		}}
	if reg, err = encode.EncodeV2RegInfo(&set); err != nil {
		return
	}
	if strs, err = encode.EncodeV2Strings(&encode.V2Strings{Strings: []encode.V2String{{CounterID: 1, Text: "% Used"}, {CounterID: 2, Text: "Used Base"}, {CounterID: 3, Text: "% Busy"}}}); err != nil {
		return
	}
	capture := func(ts int64, v uint64) ([]byte, error) {
		row := func(id uint32, name string, k uint64) encode.V2Row {
			return encode.V2Row{InstanceID: id, Name: name, Values: []encode.V2Value{{Size: 4, Value: k * v}, {Size: 4, Value: 1000}, {Size: 8, Value: k * v * 1000}}}
		}
		return encode.EncodeV2Data(&encode.V2Data{PerfTime100NSec: ts, PerfFreq: 10_000_000, PerfTimeStamp: ts, Blocks: []encode.V2CounterBlock{{
			Type: encode.V2Counterset, CounterIDs: []uint32{1, 2, 3}, Rows: []encode.V2Row{row(0, "a", 1), row(1, "b", 2)},
		}}})
	}
	if older, err = capture(1_000_000_000, 100); err != nil {
		return
	}
	newer, err = capture(1_010_000_000, 200)
	return
}
