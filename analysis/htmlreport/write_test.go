package htmlreport

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/analysis"
)

// pieces records the writes it gets, failing from the write failFrom (0:
// never).
type pieces struct {
	all      [][]byte
	failFrom int
}

var errPipe = errors.New("broken pipe")

func (p *pieces) Write(b []byte) (int, error) {
	p.all = append(p.all, bytes.Clone(b))
	if p.failFrom > 0 && len(p.all) >= p.failFrom {
		return 0, errPipe
	}
	return len(b), nil
}

// bigReport is BenchmarkWrite's report: 1,000 series of 600 chart points.
func bigReport() *analysis.Report {
	r := handReport("SERVER1")
	res := &r.Results[0]
	for len(res.Series) < 1000 {
		s := res.Series[1]
		s.Path = strings.Replace(s.Path, "<script>", "p"+itoa(len(res.Series)), 1)
		res.Series = append(res.Series, s)
	}
	for i := range res.Series {
		pts := res.Series[i].Chart
		for len(pts) < 600 {
			pts = append(pts, pts[len(pts)-1])
		}
		res.Series[i].Chart = pts
	}
	return r
}

// TestWritePieces: Write writes the report as it goes, in pieces of
// about 64 KiB (a chart's SVG at most beyond), the same bytes as in one
// piece; a failing writer's error is returned and nothing is written
// after it.
func TestWritePieces(t *testing.T) {
	reports := []*analysis.Report{bigReport(), handReport("SERVER2")}
	var whole bytes.Buffer
	if err := Write(&whole, reports, Params{Version: "test"}); err != nil {
		t.Fatal(err)
	}
	var p pieces
	if err := Write(&p, reports, Params{Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.Join(p.all, nil), whole.Bytes()) {
		t.Fatal("the pieces differ from the whole")
	}
	if n := whole.Len(); n < 4<<20 || len(p.all) < n/(1<<20) {
		t.Errorf("%d bytes in %d pieces", n, len(p.all))
	}
	for i, b := range p.all {
		if len(b) > 1<<20 || i < len(p.all)-1 && len(b) < piece {
			t.Errorf("piece %d of %d bytes", i, len(b))
		}
	}
	fail := pieces{failFrom: 2}
	if err := Write(&fail, reports, Params{}); err != errPipe || len(fail.all) != 2 {
		t.Errorf("failing writer: %v after %d writes, want %v after 2", err, len(fail.all), errPipe)
	}
}
