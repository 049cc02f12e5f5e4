package nametable_test

import (
	"fmt"
	"unicode/utf16"

	"github.com/perfcalc/perfcalc/engine/nametable"
)

// multiSZ builds a REG_MULTI_SZ value from its strings.
func multiSZ(ss ...string) []byte {
	var b []byte
	for _, s := range ss {
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		b = append(b, 0, 0)
	}
	return append(b, 0, 0)
}

func ExampleParse() {
	data := multiSZ("1", "1847", "2", "System", "4", "Memory", "230", "Process", "700", "No name", "702", "No Name")
	t, err := nametable.Parse(data)
	if err != nil {
		panic(err)
	}
	name, _ := t.Lookup(230)
	fmt.Println(t.Len(), name)
	buf := make([]byte, 0, 64)
	name, _ = t.Lookup(1)
	fmt.Println(string(name.AppendUTF8(buf)))
	m := t.LookupName("no NAME")
	for i := range m.Len() {
		fmt.Println(m.Index(i), m.Text(i))
	}
	// Output:
	// 6 Process
	// 1847
	// 700 No name
	// 702 No Name
}
