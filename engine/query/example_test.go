package query_test

import (
	"fmt"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// exampleCapture encodes a Processor object sampled at second sec, with
// the idle time of each processor in 100 ns units (the raw value of
// % Processor Time, an inverse timer).
func exampleCapture(sec int64, idle0, idle1 uint64) []byte {
	counters := []encode.V1Counter{
		{CounterNameTitleIndex: 6, CounterType: engine.Timer100nsInv, CounterSize: 8},    // % Processor Time
		{CounterNameTitleIndex: 148, CounterType: engine.CounterCounter, CounterSize: 4}, // Interrupts/sec
	}
	encode.V1Layout(counters)
	data, err := encode.EncodeV1(&encode.V1Blob{
		SystemName: "HOST", PerfTime: sec * 1000, PerfFreq: 1000, PerfTime100nSec: sec * 10_000_000,
		Objects: []encode.V1Object{{ObjectNameTitleIndex: 238, NumInstances: 2, Counters: counters, Instances: []encode.V1Instance{
			{Name: "0", UniqueID: -1, Values: []uint64{idle0, uint64(sec) * 100}},
			{Name: "1", UniqueID: -1, Values: []uint64{idle1, uint64(sec) * 250}},
		}}},
	})
	if err != nil {
		panic(err)
	}
	return data
}

// Compute every counter between two captures, named through a name table.
func Example() {
	table, _ := encode.EncodeNameTable(&encode.NameTable{Pairs: []encode.NameTablePair{
		{Index: 6, Text: "% Processor Time"}, {Index: 148, Text: "Interrupts/sec"}, {Index: 238, Text: "Processor"},
	}})
	names, err := nametable.Parse(table)
	if err != nil {
		panic(err)
	}
	older := exampleCapture(100, 0, 0)
	newer := exampleCapture(101, 7_500_000, 2_500_000) // idle 75 % and 25 % of the second

	q := query.New(query.Config{Names: names})
	vals, err := q.Run(nil, older, newer)
	if err != nil {
		panic(err)
	}
	for _, v := range vals {
		fmt.Printf("%s = %v %s (%v)\n", v.Path, v.Value, v.Suffix(), v.Status)
	}
	// Output:
	// \\HOST\Processor(0)\% Processor Time = 25 % (Valid)
	// \\HOST\Processor(0)\Interrupts/sec = 100 /sec (Valid)
	// \\HOST\Processor(1)\% Processor Time = 75 % (Valid)
	// \\HOST\Processor(1)\Interrupts/sec = 250 /sec (Valid)
}

// Select counters with PDH paths and wildcards; without a name table,
// objects and counters are named by their index.
func Example_select() {
	sel, err := counterpath.Parse(`\#238(*)\#6`)
	if err != nil {
		panic(err)
	}
	q := query.New(query.Config{Paths: []counterpath.Path{sel}})
	vals, err := q.Run(nil, exampleCapture(100, 0, 0), exampleCapture(102, 10_000_000, 20_000_000))
	if err != nil {
		panic(err)
	}
	for _, v := range vals {
		fmt.Printf("%s = %v\n", v.Path, v.Value)
	}
	// Output:
	// \\HOST\#238(0)\#6 = 50
	// \\HOST\#238(1)\#6 = 0
}
