package perfdata_test

import (
	"encoding/binary"
	"fmt"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// exampleBlob returns a small blob such as RegQueryValueEx(HKEY_PERFORMANCE_DATA,
// "238") returns: a Processor object with two instances.
func exampleBlob(perfTime100nSec int64, busy0, busy1, busyTotal uint64) []byte {
	counters := []encode.V1Counter{
		{CounterNameTitleIndex: 6, CounterType: engine.Timer100nsInv, CounterSize: 8},    // % Processor Time
		{CounterNameTitleIndex: 148, CounterType: engine.CounterCounter, CounterSize: 4}, // Interrupts/sec
	}
	encode.V1Layout(counters)
	data, err := encode.EncodeV1(&encode.V1Blob{
		SystemName: "HOST", PerfTime: perfTime100nSec / 100, PerfFreq: 100_000, PerfTime100nSec: perfTime100nSec,
		Objects: []encode.V1Object{{ObjectNameTitleIndex: 238, NumInstances: 3, Counters: counters, Instances: []encode.V1Instance{
			{Name: "0", UniqueID: -1, Values: []uint64{busy0, 1000}},
			{Name: "1", UniqueID: -1, Values: []uint64{busy1, 2000}},
			{Name: "_Total", UniqueID: -1, Values: []uint64{busyTotal, 3000}},
		}}},
	})
	if err != nil {
		panic(err)
	}
	return data
}

// Walk every object, counter definition, instance and raw value of a blob.
func Example() {
	blk, err := perfdata.Parse(exampleBlob(10_000_000, 4_000_000, 9_000_000, 6_500_000))
	if err != nil {
		panic(err)
	}
	fmt.Println("system:", blk.SystemName())
	objs := blk.Objects()
	for objs.Next() {
		o := objs.Object()
		fmt.Println("object", o.ObjectNameTitleIndex, "instances:", o.NumInstances)
		is := o.Instances()
		for is.Next() {
			in := is.Instance()
			name, _ := in.Name()
			cs := o.Counters()
			for cs.Next() {
				c := cs.Counter()
				v, _ := in.CounterBlock.Value(c)
				fmt.Printf("  %-6s counter %3d %-24v %d\n", name, c.CounterNameTitleIndex, c.CounterType, v)
			}
			if err := cs.Err(); err != nil {
				panic(err)
			}
		}
		if err := is.Err(); err != nil {
			panic(err)
		}
	}
	if err := objs.Err(); err != nil {
		panic(err)
	}
	// Output:
	// system: HOST
	// object 238 instances: 3
	//   0      counter   6 PERF_100NSEC_TIMER_INV   4000000
	//   0      counter 148 PERF_COUNTER_COUNTER     1000
	//   1      counter   6 PERF_100NSEC_TIMER_INV   9000000
	//   1      counter 148 PERF_COUNTER_COUNTER     2000
	//   _Total counter   6 PERF_100NSEC_TIMER_INV   6500000
	//   _Total counter 148 PERF_COUNTER_COUNTER     3000
}

// Compute "% Processor Time" from two blobs taken one second apart. The
// values are bit for bit what relog prints (100 · (1 − ΔN/ΔD)).
func ExampleObject_Fill() {
	older := exampleBlob(10_000_000, 4_000_000, 9_000_000, 6_500_000)
	newer := exampleBlob(20_000_000, 6_500_000, 18_000_000, 12_250_000)
	sample := func(data []byte, j int) (engine.Input, error) {
		var in engine.Input
		blk, err := perfdata.Parse(data)
		if err != nil {
			return in, err
		}
		objs := blk.Objects()
		if !objs.Next() {
			return in, objs.Err()
		}
		o := objs.Object()
		def, err := o.Counter(0)
		if err != nil {
			return in, err
		}
		is := o.Instances()
		for k := 0; ; k++ {
			if !is.Next() {
				return in, is.Err()
			}
			inst := is.Instance()
			if k == j {
				return in, o.Fill(&in, &def, inst.CounterBlock)
			}
		}
	}
	for j, name := range []string{"0", "1", "_Total"} {
		old, err := sample(older, j)
		if err != nil {
			panic(err)
		}
		in, err := sample(newer, j)
		if err != nil {
			panic(err)
		}
		in.HasOld, in.Old = true, old.New
		r := engine.Compute(&in, 0)
		fmt.Printf("%s: %g %% (%v)\n", name, r.Value, r.Status)
	}
	// Output:
	// 0: 75 % (Valid)
	// 1: 9.999999999999998 % (Valid)
	// _Total: 42.50000000000001 % (Valid)
}

// Compute every counter of every instance of two blobs: a Plan per object
// does once what Fill works out per value, then fills an instance's inputs
// in one call, and engine.ComputeBatch computes them together.
func ExampleObject_Plan() {
	older := exampleBlob(10_000_000, 4_000_000, 9_000_000, 6_500_000)
	newer := exampleBlob(20_000_000, 6_500_000, 18_000_000, 12_250_000)
	// fill returns the inputs of every counter of every instance of the
	// blob's first object, in order.
	fill := func(data []byte, p *perfdata.Plan, dst []engine.Input) ([]engine.Input, error) {
		blk, err := perfdata.Parse(data)
		if err != nil {
			return dst, err
		}
		objs := blk.Objects()
		if !objs.Next() {
			return dst, objs.Err()
		}
		o := objs.Object()
		if err := o.Plan(p); err != nil {
			return dst, err
		}
		is := o.Instances()
		for is.Next() {
			inst := is.Instance()
			n := len(dst)
			dst = append(dst, make([]engine.Input, len(p.Defs))...)
			if err := p.Fill(dst[n:], inst.CounterBlock); err != nil {
				return dst, err
			}
		}
		if err := is.Err(); err != nil {
			return dst, err
		}
		return dst, nil
	}
	var p perfdata.Plan
	old, err := fill(older, &p, nil)
	if err != nil {
		panic(err)
	}
	ins, err := fill(newer, &p, nil)
	if err != nil {
		panic(err)
	}
	for i := range ins {
		ins[i].HasOld, ins[i].Old = true, old[i].New
	}
	out := make([]engine.Result, len(ins))
	engine.ComputeBatch(ins, 0, out)
	for i, r := range out {
		fmt.Printf("instance %d %-24v %g\n", i/len(p.Defs), p.Defs[i%len(p.Defs)].CounterType, r.Value)
	}
	// Output:
	// instance 0 PERF_100NSEC_TIMER_INV   75
	// instance 0 PERF_COUNTER_COUNTER     0
	// instance 1 PERF_100NSEC_TIMER_INV   9.999999999999998
	// instance 1 PERF_COUNTER_COUNTER     0
	// instance 2 PERF_100NSEC_TIMER_INV   42.50000000000001
	// instance 2 PERF_COUNTER_COUNTER     0
}

// Name instances as PDH does in counter paths: parent/name#n.
func ExampleNamer_Names() {
	raw := []encode.V1Counter{{CounterType: engine.CounterRawcount, CounterSize: 4, CounterOffset: 8}}
	data, _ := encode.EncodeV1(&encode.V1Blob{Objects: []encode.V1Object{
		{ObjectNameTitleIndex: 230, NumInstances: 2, Counters: raw, Instances: []encode.V1Instance{
			{Name: "svchost", Values: []uint64{1}}, {Name: "svchost", Values: []uint64{2}},
		}},
		{ObjectNameTitleIndex: 232, NumInstances: 3, Counters: raw, Instances: []encode.V1Instance{
			{Name: "0", ParentObjectTitleIndex: 230, ParentObjectInstance: 0, Values: []uint64{1}},
			{Name: "0", ParentObjectTitleIndex: 230, ParentObjectInstance: 1, Values: []uint64{2}},
			{Name: "1", ParentObjectTitleIndex: 230, ParentObjectInstance: 1, Values: []uint64{3}},
		}},
	}})
	blk, _ := perfdata.Parse(data)
	var nm perfdata.Namer
	objs := blk.Objects()
	for {
		if !objs.Next() {
			break
		}
		o := objs.Object()
		names, _ := nm.Names(&blk, o)
		for _, n := range names {
			fmt.Println(o.ObjectNameTitleIndex, n)
		}
	}
	// Output:
	// 230 svchost
	// 230 svchost#1
	// 232 svchost/0
	// 232 svchost/0#1
	// 232 svchost/1
}

// Malformed input is a *engine.FormatError that names the structure, the
// offset and the field.
func ExampleParse_error() {
	data := exampleBlob(10_000_000, 1, 2, 3)
	// PERF_OBJECT_TYPE.DefinitionLength of the first object, at 104 + 4.
	binary.LittleEndian.PutUint32(data[108:], 4096)
	blk, err := perfdata.Parse(data)
	if err != nil {
		panic(err)
	}
	objs := blk.Objects()
	for objs.Next() {
	}
	fmt.Println(objs.Err())
	// Output:
	// perfdata: PERF_OBJECT_TYPE 0 at 0x68: DefinitionLength 4096 exceeds TotalByteLength 320
}
