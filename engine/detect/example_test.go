package detect_test

import (
	"fmt"
	"os"

	"github.com/perfcalc/perfcalc/engine/detect"
)

func ExampleFormat() {
	for _, name := range []string{"global-1.bin", "v2-data-1.bin", "counter-009.multisz", "v2-reginfo.bin"} {
		data, err := os.ReadFile("../../testdata/corpus/" + name)
		if err != nil {
			fmt.Println(err)
			return
		}
		switch detect.Format(data) {
		case detect.V1:
			fmt.Println(name, "is a V1 capture")
		case detect.V2:
			fmt.Println(name, "is a V2 capture")
		case detect.Names:
			fmt.Println(name, "is a name table")
		case detect.Blg:
			fmt.Println(name, "is a .blg log")
		default:
			fmt.Println(name, "is none of them")
		}
	}
	// Output:
	// global-1.bin is a V1 capture
	// v2-data-1.bin is a V2 capture
	// counter-009.multisz is a name table
	// v2-reginfo.bin is none of them
}
