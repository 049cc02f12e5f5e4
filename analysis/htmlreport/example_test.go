package htmlreport_test

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/analysis/htmlreport"
)

// The report of a log without alerts: one file, its title naming the
// machine, no script.
func ExampleWrite() {
	a := analysis.Analysis{Name: "Available memory", Category: "Memory"}
	r := &analysis.Report{
		Machine: "SERVER1",
		Begin:   130_057_734_000_000_000, // 2013-02-19 18:50:00
		End:     130_057_770_000_000_000, // one hour later
		Samples: 361, Interval: 120,
		Results: []analysis.Result{{Analysis: &a}},
	}
	var b strings.Builder
	if err := htmlreport.Write(&b, []*analysis.Report{r}, htmlreport.Params{Logs: []string{"SERVER1.blg"}, Interval: "auto"}); err != nil {
		panic(err)
	}
	doc := b.String()
	fmt.Println(regexp.MustCompile(`<title>.*</title>`).FindString(doc))
	fmt.Println(regexp.MustCompile(`<tr><th>Duration</th><td>[^<]*`).FindString(doc))
	fmt.Println(strings.Contains(doc, "<script"))
	// Output:
	// <title>perfcalc analysis of SERVER1</title>
	// <tr><th>Duration</th><td>1 h, 361 samples
	// false
}
