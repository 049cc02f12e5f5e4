package blg

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// The examples read small logs built by hand (see builder_test.go): two
// counters on machine \\HOST, one of them a wildcard, sampled every second.

func ExampleNewReader() {
	log := testLog(2, 4096, 1<<20)
	r, err := NewReader(bytes.NewReader(log), int64(len(log)))
	if err != nil {
		fmt.Println(err)
		return
	}
	tz := &r.Header().TimeZone
	fmt.Printf("(%s)(%d)\n", tz.StandardDisplayName(), tz.Bias)
	cs := r.Counters()
	var path []byte
	for r.Next() {
		s := r.Sample()
		for _, v := range s.Values {
			path = cs[v.Counter].AppendPath(path[:0], v.Instance)
			fmt.Printf("%d %s N=%d status=%#x\n", s.Index, path, v.Raw.FirstValue, v.Raw.CStatus)
		}
	}
	if err := r.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// (Pacific Standard Time)(480)
	// 0 \\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length N=0 status=0x0
	// 0 \\HOST\Processor(0)\% Processor Time N=0 status=0x0
	// 0 \\HOST\Processor(1)\% Processor Time N=0 status=0x0
	// 0 \\HOST\Processor(_Total)\% Processor Time N=0 status=0x0
	// 1 \\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length N=1000 status=0x0
	// 1 \\HOST\Processor(0)\% Processor Time N=100 status=0x0
	// 1 \\HOST\Processor(1)\% Processor Time N=200 status=0x0
	// 1 \\HOST\Processor(_Total)\% Processor Time N=150 status=0x0
}

// Reading a log sequentially and computing each series' values with the
// engine: every instance of a wildcard counter is its own series.
func ExampleNewStreamReader() {
	r, err := NewStreamReader(bytes.NewReader(testLog(3, 1024, 200)))
	if err != nil {
		fmt.Println(err)
		return
	}
	cs := r.Counters()
	old := map[string]engine.RawCounter{}
	var path []byte
	for r.Next() {
		for _, v := range r.Sample().Values {
			path = cs[v.Counter].AppendPath(path[:0], v.Instance)
			in := engine.Input{Counter: cs[v.Counter].Engine(), New: v.Raw}
			in.Old, in.HasOld = old[string(path)]
			old[string(path)] = v.Raw
			res := engine.Compute(&in, 0)
			if strings.Contains(string(path), "_Total") {
				fmt.Println(strings.TrimSpace(res.Status.String() + " " + string(engine.AppendValue(nil, in.Type, res, engine.DefaultDigits))))
			}
		}
	}
	fmt.Println(r.Err())
	// Output:
	// NewData
	// Valid 99.998500000000007049
	// Valid 99.998500000000007049
	// <nil>
}

func ExampleTimeZone_ToLocal() {
	// The zone of a log written in California (Tx_BasicPerfCounters.blg).
	tz := TimeZone{
		Bias:         480,
		StandardName: "@tzres.dll,-212",
		StandardDate: wintype.SystemTime{Month: 11, Day: 1, Hour: 2}, // first Sunday of November, 02:00
		DaylightName: "@tzres.dll,-211",
		DaylightDate: wintype.SystemTime{Month: 3, Day: 2, Hour: 2}, // second Sunday of March, 02:00
		DaylightBias: -60,
	}
	const hour = 3600 * 10_000_000
	spring := int64(130073832000000000) // 2013-03-10 10:00 UTC, in FILETIME units
	for _, utc := range []int64{spring - hour, spring} {
		bias, dst := tz.BiasAt(utc)
		fmt.Println((utc-tz.ToLocal(utc))/hour*60, bias, dst)
	}
	fmt.Println(tz.StandardDisplayName())
	// Output:
	// 480 480 false
	// 420 420 true
	// Pacific Standard Time
}

func ExampleResolveName() {
	fmt.Println(ResolveName("@tzres.dll,-112"))
	fmt.Println(ResolveName("@tzres.dll,-402"))
	fmt.Println(ResolveName("SA Eastern Standard Time"))
	// Output:
	// Eastern Standard Time
	// @tzres.dll,-402
	// SA Eastern Standard Time
}
