package engine_test

import (
	"fmt"

	"github.com/perfcalc/perfcalc/engine"
)

func ExampleCompute() {
	// "% Processor Time" is PERF_100NSEC_TIMER_INV: the idle time's share
	// of the interval, inverted. 2.5 s idle in 10 s.
	in := engine.Input{
		Counter: engine.Counter{Type: engine.Timer100nsInv, TimeBase: engine.Frequency100NS},
		HasOld:  true,
		Old:     engine.RawCounter{FirstValue: 1_000_000_000, SecondValue: 130057734178440000},
		New:     engine.RawCounter{FirstValue: 1_025_000_000, SecondValue: 130057734278440000},
	}
	r := engine.Compute(&in, 0)
	fmt.Println(r.Value, r.Status)

	// The first sample of a series has no value yet.
	in.HasOld = false
	r = engine.Compute(&in, 0)
	fmt.Println(r.Value, r.Status)
	// Output:
	// 75 Valid
	// 0 NewData
}

func ExampleComputeBatch() {
	ins := []engine.Input{
		{ // 500 operations in 2 s at a tick frequency of 1000
			Counter: engine.Counter{Type: engine.CounterCounter, TimeBase: 1000},
			HasOld:  true,
			Old:     engine.RawCounter{FirstValue: 100, SecondValue: 5000},
			New:     engine.RawCounter{FirstValue: 600, SecondValue: 7000},
		},
		{ // 150% without Cap100 would show as 150
			Counter: engine.Counter{Type: engine.RawFraction},
			New:     engine.RawCounter{FirstValue: 3, SecondValue: 2},
		},
		{ // the counter went backwards
			Counter: engine.Counter{Type: engine.CounterLargeDelta},
			HasOld:  true,
			Old:     engine.RawCounter{FirstValue: 10, SecondValue: 5000},
			New:     engine.RawCounter{FirstValue: 4, SecondValue: 7000},
		},
	}
	out := make([]engine.Result, len(ins))
	n := engine.ComputeBatch(ins, engine.Cap100, out)
	for _, r := range out[:n] {
		fmt.Println(r.Value, r.Status)
	}
	// Output:
	// 250 Valid
	// 100 Valid
	// 0 NegativeValue
}

func ExampleParseCounterType() {
	for _, s := range []string{"PERF_COUNTER_COUNTER", "100nsec_timer_inv", "0x40030500", "542573824", "PERF_PRECISION_TIMESTAMP", "0x12345678"} {
		t, err := engine.ParseCounterType(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s = %#08x, %d sample(s), suffix %q\n", t, uint32(t), t.Samples(), t.Suffix())
	}
	// Output:
	// PERF_COUNTER_COUNTER = 0x10410400, 2 sample(s), suffix "/sec"
	// PERF_100NSEC_TIMER_INV = 0x21510500, 2 sample(s), suffix "%"
	// PERF_LARGE_RAW_BASE = 0x40030500, 0 sample(s), suffix ""
	// PERF_PRECISION_100NS_TIMER = 0x20570500, 2 sample(s), suffix "%"
	// PERF_LARGE_RAW_BASE = 0x40030500, 0 sample(s), suffix ""
	// engine: "0x12345678" is not a winperf.h counter type (want a PERF_* name, 0x… or a decimal number)
}

func ExampleAppendValue() {
	var line []byte
	for _, c := range []struct {
		t engine.CounterType
		r engine.Result
	}{
		{engine.Timer100nsInv, engine.Result{Value: 100.0 / 3}},
		{engine.CounterRawcountHex, engine.Result{Value: 0xBEEF}},
		{engine.CounterCounter, engine.Result{Status: engine.NewData}},
		{engine.CounterCounter, engine.Result{Value: 1e17}},
	} {
		line = append(line, '"')
		line = engine.AppendValue(line, c.t, c.r, engine.DefaultDigits)
		line = append(line, '"', ',')
	}
	fmt.Println(string(line))
	// Output:
	// "33.333333333333335702","0xBEEF"," ","100000000000000000",
}

func ExampleComputeStatistics() {
	// Five samples of a PERF_COUNTER_BULK_COUNT ("Disk Bytes/sec") with a
	// tick frequency of 1000; the fourth sample is bad.
	samples := []engine.RawCounter{
		{FirstValue: 0, SecondValue: 0},
		{FirstValue: 4000, SecondValue: 1000},
		{FirstValue: 10000, SecondValue: 2000},
		{CStatus: engine.CStatusNoMachine},
		{FirstValue: 20000, SecondValue: 4000},
	}
	st := engine.ComputeStatistics(engine.Counter{Type: engine.CounterBulkCount, TimeBase: 1000}, samples, 0)
	fmt.Printf("count %d, skipped %d, min %v, max %v, mean %v (%v)\n", st.Count, st.Skipped, st.Min, st.Max, st.Mean, st.MeanStatus)
	// Output:
	// count 2, skipped 2, min 4000, max 6000, mean 5000 (Valid)
}

func ExampleStatisticsFold() {
	// The samples of ExampleComputeStatistics as they come, one at a time,
	// in memory that does not grow with them: the same statistics.
	f := engine.NewStatisticsFold(engine.Counter{Type: engine.CounterBulkCount, TimeBase: 1000}, 0)
	for _, s := range []engine.RawCounter{
		{FirstValue: 0, SecondValue: 0},
		{FirstValue: 4000, SecondValue: 1000},
		{FirstValue: 10000, SecondValue: 2000},
		{CStatus: engine.CStatusNoMachine},
		{FirstValue: 20000, SecondValue: 4000},
	} {
		f.Add(s)
	}
	st := f.Statistics()
	fmt.Printf("%d samples: count %d, skipped %d, min %v, max %v, mean %v (%v)\n", f.Samples(), st.Count, st.Skipped, st.Min, st.Max, st.Mean, st.MeanStatus)
	// Output:
	// 5 samples: count 2, skipped 2, min 4000, max 6000, mean 5000 (Valid)
}
