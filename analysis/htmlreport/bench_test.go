package htmlreport

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/analysis"
)

// BenchmarkSanitizeHostile: a description of 64 KiB of unmatched tags
// costs linear time (maxDepth).
func BenchmarkSanitizeHostile(b *testing.B) {
	in := strings.Repeat("<b>", 10000) + strings.Repeat("</i>", 10000)
	for b.Loop() {
		sanitize(in)
	}
}

// BenchmarkWrite: the report of 1,000 series of 600 chart points (a busy
// server's processes), its size per op as bytes.
func BenchmarkWrite(b *testing.B) {
	r := bigReport()
	var n countWriter
	if err := Write(&n, []*analysis.Report{r}, Params{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		if err := Write(io.Discard, []*analysis.Report{r}, Params{}); err != nil {
			b.Fatal(err)
		}
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// BenchmarkWriteAlerting: the report of 500 and 2,000 analyses, each
// with one alert (issue 32, item 13: it was quadratic in analyses ×
// alerts).
func BenchmarkWriteAlerting(b *testing.B) {
	for _, n := range []int{500, 2000} {
		r := manyAlerting(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Write(io.Discard, []*analysis.Report{r}, Params{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
