package logtext_test

import (
	"fmt"
	"strings"

	"github.com/perfcalc/perfcalc/engine/logtext"
)

// A PDH-CSV table of two counters and one row, as relog writes it (its
// lines end in CR LF; the example shows them with LF).
func Example() {
	const local = 130057734178440000 // 02/19/2013 18:50:17.844, local time
	d, z := logtext.CSV, logtext.Zone{Name: "Pacific Standard Time", Bias: 480, Known: true}
	b := logtext.AppendTitleField(nil, d, z)
	for _, p := range []string{`\\HOST\Processor(0)\% Processor Time`, `\\HOST\Memory\Available Bytes`} {
		b = logtext.AppendField(b, d.Sep(), p)
	}
	b = logtext.EndRow(b)
	var times logtext.Times
	b = times.AppendField(b, local)
	b = logtext.AppendValue(b, d.Sep(), 12.5, true, 20)
	b = logtext.AppendValue(b, d.Sep(), 0, false, 20)
	b = logtext.EndRow(b)
	fmt.Print(strings.ReplaceAll(string(b), "\r\n", "\n")) // lines end in CR LF
	// Output:
	// "(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\HOST\Processor(0)\% Processor Time","\\HOST\Memory\Available Bytes"
	// "02/19/2013 18:50:17.844","12.5"," "
}
