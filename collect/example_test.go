package collect_test

import (
	"fmt"

	"github.com/perfcalc/perfcalc/collect"
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// A Collector over two recorded PERF_DATA_BLOCKs: on Windows,
// collect.Open(collect.Registry, cfg) reads the live ones instead.
func ExampleNewRegistry() {
	blob := func(bytes uint64, perfTime int64) []byte {
		b, _ := encode.EncodeV1(&encode.V1Blob{SystemName: "HOST", PerfTime: perfTime, PerfFreq: 1000,
			Objects: []encode.V1Object{{ObjectNameTitleIndex: 2, NumInstances: -1,
				Counters:  []encode.V1Counter{{CounterNameTitleIndex: 4, CounterType: engine.CounterBulkCount, CounterSize: 8, CounterOffset: 8}},
				Instances: []encode.V1Instance{{Values: []uint64{bytes}}}}}})
		return b
	}
	names, _ := encode.EncodeNameTable(&encode.NameTable{Pairs: []encode.NameTablePair{{Index: 2, Text: "Network"}, {Index: 4, Text: "Bytes/sec"}}})
	src := collect.ReplayRegistry([][]byte{blob(1000, 5000), blob(3000, 7000)}, names)

	path, _ := counterpath.Parse(`\Network\Bytes/sec`)
	col, err := collect.NewRegistry(src, collect.Config{Paths: []counterpath.Path{path}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer col.Close()
	var s collect.Sample
	for range 2 {
		if err := col.Collect(&s); err != nil {
			fmt.Println(err)
			return
		}
		for _, v := range s.Values {
			fmt.Printf("sample %d: %s = %v (%v)\n", s.Index, v.Path, v.Value, v.Status)
		}
	}
	// Output:
	// sample 0: \\HOST\Network\Bytes/sec = 0 (NewData)
	// sample 1: \\HOST\Network\Bytes/sec = 1000 (Valid)
}
