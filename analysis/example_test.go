package analysis_test

import (
	"bytes"
	"fmt"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// exampleLog is a minute of \\HOST\Processor(_Total)\% Processor Time
// (a raw count here, for brevity): 20 %, with 95 % at 18:50:40.
func exampleLog() []byte {
	const local = 130057734000000000 // 2013-02-19 18:50:00, Pacific
	l := blgbuild.New(64<<10, local+8*3600*10_000_000)
	l.Record(blgbuild.EventCounterList, local, blgbuild.AppendCounterList(nil, blgbuild.Counter{
		Flags: 1, Type: 0x00010000, Machine: `\\HOST`, Object: "Processor", Instance: "*", Counter: "% Processor Time",
	}), blgbuild.MaxEventData)
	for i := range int64(61) {
		ts := local + i*10_000_000
		v := uint64(20)
		if i == 40 {
			v = 95
		}
		l.Record(blgbuild.EventSample, ts, blgbuild.MultiSample(ts, []string{"_Total"}, []uint64{v}), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// Run a set of one analysis over a log and print the alerts.
func ExampleRun() {
	log := exampleLog()
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
	if err != nil {
		panic(err)
	}
	path, _ := counterpath.Parse(`\Processor(*)\% Processor Time`)
	set := &analysis.Set{Name: "example", Analyses: []analysis.Analysis{{
		Name: "Processor", Category: "CPU", Enabled: true,
		Datasources: []analysis.Datasource{{Name: path.String(), Path: path, Round: -1}},
		Thresholds: []analysis.Threshold{
			{Name: "busy", Condition: analysis.Warning, Priority: 50, Operator: analysis.Greater, Value: 50},
			{Name: "saturated", Condition: analysis.Critical, Priority: 100, Operator: analysis.Greater, Value: 90},
		},
	}}}
	r, err := analysis.Run(c, set, analysis.Options{Interval: 10})
	if err != nil {
		panic(err)
	}
	for _, a := range r.Alerts {
		fmt.Printf("slice %d: %s %s, max %v (%s)\n", a.Slice, a.Path, a.Threshold, a.Max, analysis.AppendISOTime(nil, a.Start, r.Bias))
	}
	// Output:
	// slice 3: \\HOST\Processor(_Total)\% Processor Time saturated, max 95 (2013-02-20T02:50:31.000Z)
}

// The report as JSON: its alerts.
func ExampleReport_AppendJSON() {
	log := exampleLog()
	c, _ := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
	path, _ := counterpath.Parse(`\Processor(_Total)\% Processor Time`)
	set := &analysis.Set{Analyses: []analysis.Analysis{{
		Name: "Processor", Enabled: true,
		Datasources: []analysis.Datasource{{Name: "cpu", Path: path, Round: 0}},
		Thresholds:  []analysis.Threshold{{Name: "busy", Condition: analysis.Warning, Priority: 50, Operator: analysis.GreaterEqual, Value: 50}},
	}}}
	r, _ := analysis.Run(c, set, analysis.Options{Interval: 30})
	b := r.AppendJSON(nil)
	i := bytes.Index(b, []byte(`"alerts"`))
	j := bytes.Index(b, []byte(`,"analyses"`))
	fmt.Println(string(b[i:j]))
	// Output:
	// "alerts":[{"machine":"HOST","analysis":"Processor","id":"","datasource":"cpu","category":"","condition":"Warning","priority":50,"threshold":"busy","path":"\\\\HOST\\Processor(_Total)\\% Processor Time","slice":1,"start":"2013-02-20T02:50:31.000Z","end":"2013-02-20T02:51:00.000Z","min":20,"avg":22.5,"max":95,"trend":300}]
}
