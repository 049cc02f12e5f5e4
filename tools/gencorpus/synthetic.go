package gencorpus

import (
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// SyntheticV1 builds the ~1 MB V1 blob that the decoding benchmarks walk
// (perfdata's and host's, so that their figures compare): 8 objects × 560
// instances × 24 counters of 15 types, 4- and 8-byte values.
func SyntheticV1() ([]byte, error) {
	types := []engine.CounterType{
		engine.CounterCounter, engine.CounterBulkCount, engine.Timer100ns, engine.CounterRawcount,
		engine.CounterLargeRawcount, engine.RawFraction, engine.RawBase, engine.ObjTimeTimer,
		engine.Precision100nsTimer, engine.PrecisionTimestamp, engine.AverageTimer, engine.AverageBase,
		engine.CounterMultiTimer, engine.ElapsedTime, engine.Counter100nsQueuelenType,
	}
	blob := encode.V1Blob{SystemName: "SYNTHETIC", PerfTime: 123456789, PerfFreq: 10_000_000, PerfTime100nSec: 133_000_000_000_000_000}
	for oi := range 8 {
		o := encode.V1Object{ObjectNameTitleIndex: uint32(1000 + 2*oi), NumInstances: 560, PerfTime: 99, PerfFreq: 1000}
		for i := range 24 {
			t := types[(i+oi)%len(types)]
			o.Counters = append(o.Counters, encode.V1Counter{CounterNameTitleIndex: uint32(2 * i), CounterType: t, CounterSize: uint32(t.RawSize())})
		}
		encode.V1Layout(o.Counters)
		for j := range int(o.NumInstances) {
			in := encode.V1Instance{Name: "instance-" + strconv.Itoa(j%97), UniqueID: -1}
			for i, c := range o.Counters {
				in.Values = append(in.Values, uint64(i*j)&(1<<(8*c.CounterSize)-1))
			}
			o.Instances = append(o.Instances, in)
		}
		blob.Objects = append(blob.Objects, o)
	}
	return encode.EncodeV1(&blob)
}
