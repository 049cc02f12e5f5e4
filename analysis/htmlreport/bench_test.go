package htmlreport

import (
	"io"
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
