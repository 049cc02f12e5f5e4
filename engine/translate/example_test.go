package translate_test

import (
	"fmt"

	"github.com/perfcalc/perfcalc/engine/translate"
)

func ExampleTable_Path() {
	compact := translate.CompactHeader + "\n" +
		"o\tdeDE\tProcessor\tProzessor\n" +
		"c\tdeDE\tProcessor\t% Processor Time\tProzessorzeit (%)\n"
	var b translate.Builder
	if err := b.AddCompact(b.Source("CounterLang.xml"), []byte(compact)); err != nil {
		panic(err)
	}
	tab := b.Table()
	path, obj, ctr, _ := tab.Path(`\\PC-7\Prozessor(_Total)\Prozessorzeit (%)`)
	fmt.Println(path)
	fmt.Println(obj.Status, ctr.Status, tab.Source(ctr.Source))
	path, obj, _, _ = tab.Path(`\\PC-7\Speicher\Verfügbare MB`)
	fmt.Println(path, obj.Status)
	// Output:
	// \\PC-7\Processor(_Total)\% Processor Time
	// translated translated CounterLang.xml
	// \\PC-7\Speicher\Verfügbare MB unknown
}
