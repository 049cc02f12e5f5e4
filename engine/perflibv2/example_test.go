package perflibv2_test

import (
	"fmt"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/tools/encode"
)

func ExampleParser() {
	// A PerfQueryCounterData result for \Processor(*)\*, built by the
	// project's encoder (real V2 captures are not publicly available).
	data, _ := encode.EncodeV2Data(&encode.V2Data{
		PerfTimeStamp: 5_000_000, PerfFreq: 10_000_000,
		Blocks: []encode.V2CounterBlock{{
			Type: encode.V2Counterset, CounterIDs: []uint32{0, 1},
			Rows: []encode.V2Row{
				{InstanceID: 0, Name: "0", Values: []encode.V2Value{{Size: 8, Value: 1500}, {Size: 4, Value: 7}}},
				{InstanceID: 1, Name: "_Total", Values: []encode.V2Value{{Size: 8, Value: 3000}, {Size: 4, Value: 14}}},
			},
		}},
	})
	var p perflibv2.Parser
	h, err := p.Start(data)
	if err != nil {
		panic(err)
	}
	fmt.Println("blocks:", h.NumCounters, "freq:", h.PerfFreq)
	for p.Next() {
		blk := p.Block()
		rows := blk.Rows()
		for rows.Next() {
			r := rows.Row()
			vs := r.Values()
			for vs.Next() {
				v := vs.Value()
				id, _ := blk.CounterID(v.Index)
				x, _ := v.Uint64()
				fmt.Printf("%s %s counter %d = %d\n", blk.Type, r.Name, id, x)
			}
		}
	}
	if err := p.Err(); err != nil {
		panic(err)
	}
	// Output:
	// blocks: 1 freq: 10000000
	// PERF_COUNTERSET 0 counter 0 = 1500
	// PERF_COUNTERSET 0 counter 1 = 7
	// PERF_COUNTERSET _Total counter 0 = 3000
	// PERF_COUNTERSET _Total counter 1 = 14
}

func ExampleParseRegInfo() {
	b, _ := encode.EncodeV2RegInfo(&encode.V2CounterSet{
		DetailLevel: 100, InstanceType: perflibv2.CountersetMultiInstances,
		Counters: []encode.V2CounterRegInfo{
			{CounterID: 1, Type: engine.RawFraction, BaseCounterID: 2, PerfTimeID: perflibv2.NoCounter, PerfFreqID: perflibv2.NoCounter, MultiID: perflibv2.NoCounter},
			{CounterID: 2, Type: engine.RawBase, BaseCounterID: perflibv2.NoCounter, PerfTimeID: perflibv2.NoCounter, PerfFreqID: perflibv2.NoCounter, MultiID: perflibv2.NoCounter},
		},
	})
	r, err := perflibv2.ParseRegInfo(b)
	if err != nil {
		panic(err)
	}
	for i := range r.Len() {
		c := r.Counter(i)
		fmt.Println(c.CounterID, c.Type, c.BaseCounterID)
	}
	// Output:
	// 1 PERF_RAW_FRACTION 2
	// 2 PERF_RAW_BASE 4294967295
}

func ExampleInstanceParser() {
	b, _ := encode.EncodeV2Instances([]encode.V2Instance{{InstanceID: 0, Name: "0"}, {InstanceID: 1, Name: "_Total"}})
	var p perflibv2.InstanceParser
	p.Start(b)
	for p.Next() {
		inst := p.Instance()
		fmt.Println(inst.InstanceID, inst.Name, inst.Size)
	}
	if err := p.Err(); err != nil {
		panic(err)
	}
	// Output:
	// 0 0 16
	// 1 _Total 24
}

func ExampleParseStrings() {
	b, _ := encode.EncodeV2Strings(&encode.V2Strings{Strings: []encode.V2String{
		{CounterID: 1, Text: "% Processor Time"}, {CounterID: 2, None: true},
	}})
	s, err := perflibv2.ParseStrings(b)
	if err != nil {
		panic(err)
	}
	fmt.Println("reading:", s.Reading())
	for i := range s.Len() {
		id, text, ok := s.At(i)
		fmt.Println(id, text, ok)
	}
	// Output:
	// reading: SDK
	// 1 % Processor Time true
	// 2  false
}

func ExampleFill() {
	reg, _ := encode.EncodeV2RegInfo(&encode.V2CounterSet{Counters: []encode.V2CounterRegInfo{
		{CounterID: 1, Type: engine.RawFraction, BaseCounterID: 2, PerfTimeID: perflibv2.NoCounter, PerfFreqID: perflibv2.NoCounter, MultiID: perflibv2.NoCounter},
		{CounterID: 2, Type: engine.RawBase, BaseCounterID: perflibv2.NoCounter, PerfTimeID: perflibv2.NoCounter, PerfFreqID: perflibv2.NoCounter, MultiID: perflibv2.NoCounter},
	}})
	data, _ := encode.EncodeV2Data(&encode.V2Data{Blocks: []encode.V2CounterBlock{{
		Type: encode.V2MultipleCounters, CounterIDs: []uint32{1, 2},
		Rows: []encode.V2Row{{Values: []encode.V2Value{{Size: 4, Value: 30}, {Size: 4, Value: 120}}}},
	}}})
	r, err := perflibv2.ParseRegInfo(reg)
	if err != nil {
		panic(err)
	}
	var in engine.Input
	found, err := perflibv2.Fill(&in, data, &r, perflibv2.Selector{Block: 0, CounterID: 1})
	if err != nil || !found {
		panic("not found")
	}
	res := engine.Compute(&in, 0)
	fmt.Println(in.New.FirstValue, in.New.SecondValue, res.Value, res.Status)
	// Output:
	// 30 120 25 Valid
}

func ExampleIndex() {
	reg, _ := encode.EncodeV2RegInfo(&encode.V2CounterSet{Counters: []encode.V2CounterRegInfo{
		{CounterID: 1, Type: engine.RawFraction, BaseCounterID: 2, PerfTimeID: perflibv2.NoCounter, PerfFreqID: perflibv2.NoCounter, MultiID: perflibv2.NoCounter},
		{CounterID: 2, Type: engine.RawBase, BaseCounterID: perflibv2.NoCounter, PerfTimeID: perflibv2.NoCounter, PerfFreqID: perflibv2.NoCounter, MultiID: perflibv2.NoCounter},
	}})
	data, _ := encode.EncodeV2Data(&encode.V2Data{Blocks: []encode.V2CounterBlock{{
		Type: encode.V2Counterset, CounterIDs: []uint32{1, 2},
		Rows: []encode.V2Row{
			{InstanceID: 0, Name: "a", Values: []encode.V2Value{{Size: 4, Value: 30}, {Size: 4, Value: 120}}},
			{InstanceID: 1, Name: "b", Values: []encode.V2Value{{Size: 4, Value: 60}, {Size: 4, Value: 80}}},
		},
	}}})
	r, err := perflibv2.ParseRegInfo(reg)
	if err != nil {
		panic(err)
	}
	// Index the result once, then fill each value.
	var x perflibv2.Index
	if err := x.Reset(data, &r, nil); err != nil {
		panic(err)
	}
	var in engine.Input
	for row := range 2 {
		found, err := x.Fill(&in, 0, row, 1)
		if err != nil || !found {
			panic("not found")
		}
		res := engine.Compute(&in, 0)
		fmt.Println(in.New.FirstValue, in.New.SecondValue, res.Value, res.Status)
	}
	// Output:
	// 30 120 25 Valid
	// 60 80 75 Valid
}
