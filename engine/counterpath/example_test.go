package counterpath_test

import (
	"fmt"

	"github.com/perfcalc/perfcalc/engine/counterpath"
)

func ExampleParse() {
	p, err := counterpath.Parse(`\\ZACH-PC\Thread(svchost/0#3)\Context Switches/sec`)
	if err != nil {
		panic(err)
	}
	fmt.Printf("machine %s, object %s, parent %s, instance %s, index %d, counter %s\n",
		p.Machine, p.Object, p.Parent, p.Instance, p.Index, p.Counter)
	fmt.Println(p)
	// Output:
	// machine ZACH-PC, object Thread, parent svchost, instance 0, index 3, counter Context Switches/sec
	// \\ZACH-PC\Thread(svchost/0#3)\Context Switches/sec
}

func ExamplePath_Matches() {
	pattern, _ := counterpath.Parse(`\Process(svc*)\% Processor Time`)
	for _, s := range []string{
		`\\M\Process(svchost)\% Processor Time`,
		`\\M\Process(svchost#1)\% Processor Time`,
		`\\M\Process(System)\% Processor Time`,
	} {
		p, _ := counterpath.Parse(s)
		fmt.Println(s, pattern.Matches(p))
	}
	// Output:
	// \\M\Process(svchost)\% Processor Time true
	// \\M\Process(svchost#1)\% Processor Time true
	// \\M\Process(System)\% Processor Time false
}
