package psexpr_test

import (
	"fmt"

	"github.com/perfcalc/perfcalc/analysis/psexpr"
)

func ExampleEval() {
	calls, err := psexpr.Eval(`$TenPercent = $([Int] $PhysicalMemory * 1024) * 0.10
StaticThreshold -CollectionOfCounterInstances $CollectionOfAvailableMBytes -Operator 'lt' -Threshold $TenPercent`,
		map[string]psexpr.Value{"PhysicalMemory": psexpr.Str("32")})
	if err != nil {
		panic(err)
	}
	c := calls[0]
	fmt.Println(c.Collection, c.Operator, c.Threshold)
	// Output: CollectionOfAvailableMBytes lt 3276.8
}
