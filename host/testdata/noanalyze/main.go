// Command noanalyze uses package host without Analyze: TestLinkedModules
// builds it and checks that the binary carries perfcalc.wasm and not the
// analyze module.
package main

import (
	"context"

	"github.com/perfcalc/perfcalc/host"
)

func main() {
	e, err := host.New(context.Background(), host.NewConfig())
	if err != nil {
		panic(err)
	}
	e.Close(context.Background())
}
