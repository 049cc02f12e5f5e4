package host_test

import (
	"context"
	"fmt"
	"os"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/host"
)

// Compute one value in the sandbox: the same call as engine.Compute, plus
// an error.
func ExampleEngine_Compute() {
	ctx := context.Background()
	eng, err := host.New(ctx, host.NewConfig().WithCompilationCacheDir(os.TempDir()+"/perfcalc-wazero"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer eng.Close(ctx)

	// PERF_100NSEC_TIMER: 25 ms busy in 100 ms.
	in := engine.Input{
		Counter: engine.Counter{Type: engine.Timer100ns, TimeBase: engine.Frequency100NS},
		HasOld:  true,
		Old:     engine.RawCounter{FirstValue: 1_000_000, SecondValue: 50_000_000},
		New:     engine.RawCounter{FirstValue: 1_250_000, SecondValue: 51_000_000},
	}
	r, err := eng.Compute(&in, engine.Cap100)
	fmt.Println(r.Value, r.Status, err)
	fmt.Println(engine.Compute(&in, engine.Cap100) == r)
	// Output:
	// 25 Valid <nil>
	// true
}

// Decode a name table in the sandbox; host.Native{} does the same in
// process.
func ExampleEngine_DecodeNames() {
	ctx := context.Background()
	eng, err := host.New(ctx, host.NewConfig().WithCompilationCacheDir(os.TempDir()+"/perfcalc-wazero"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer eng.Close(ctx)

	// "2\0System\0 4\0Memory\0\0" in UTF-16LE.
	var table []byte
	for _, s := range []string{"2", "System", "4", "Memory", ""} {
		for _, c := range s {
			table = append(table, byte(c), 0)
		}
		table = append(table, 0, 0)
	}
	d, err := eng.DecodeNames(table)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range d.Records {
		fmt.Println(r.Aux, r.Path)
	}
	_, err = eng.DecodeNames(table[:5])
	fmt.Println(host.ErrorCode(err))
	// Output:
	// 2 System
	// 4 Memory
	// Malformed
}

// Switch between the sandbox and the caller's process in one line: Engine
// and Native have the same methods.
func ExampleNative() {
	type calculator interface {
		ComputeBatch([]engine.Input, engine.Options, []engine.Result) (int, error)
	}
	var calc calculator = host.Native{} // or: calc, err := host.New(ctx, host.NewConfig())

	in := []engine.Input{
		{Counter: engine.Counter{Type: engine.RawFraction}, New: engine.RawCounter{FirstValue: 3, SecondValue: 4}},
		{Counter: engine.Counter{Type: engine.CounterCounter, TimeBase: 1000}, HasOld: true,
			Old: engine.RawCounter{FirstValue: 10, SecondValue: 0}, New: engine.RawCounter{FirstValue: 60, SecondValue: 500}},
	}
	out := make([]engine.Result, len(in))
	n, err := calc.ComputeBatch(in, 0, out)
	fmt.Println(n, err, out[0].Value, out[1].Value)
	// Output:
	// 2 <nil> 75 100
}
