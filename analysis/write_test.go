package analysis

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/hostile"
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

func (p *pieces) bytes() []byte { return bytes.Join(p.all, nil) }

// processCounters are the Process counters the default analyses match.
var processCounters = []string{"Handle Count", "Thread Count", "Private Bytes", "Working Set"}

// writeReports returns the default analyses' reports of the corpus' logs
// (those Run reads) and of a wide log (300 processes × 4 counters × 400
// samples: 1,200 series, megabytes of chart points), with opts.
func writeReports(t *testing.T, opts Options) map[string]*Report {
	t.Helper()
	logs := map[string][]byte{"wide": hostile.WideLog(processCounters, 300, 400)}
	names, _ := filepath.Glob(filepath.Join(corpus.Shared(t, "blg"), "*.blg"))
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		logs[filepath.Base(name)] = b
	}
	reports := map[string]*Report{}
	for name, log := range logs {
		c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
		if err != nil {
			continue // a log relog refuses
		}
		if r, _ := Run(c, Defaults(), opts); r != nil {
			reports[name] = r
		}
	}
	if len(reports["wide"].Results) == 0 {
		t.Fatal("the wide log gives no report")
	}
	return reports
}

// TestWriteJSON: WriteJSON writes AppendJSON's bytes, in pieces of about
// 64 KiB (the wide log's report in many), and WriteFleetJSON
// AppendFleetJSON's; a failing writer's error is returned and nothing is
// written after it.
func TestWriteJSON(t *testing.T) {
	reports := writeReports(t, Options{})
	var fleet []*Report
	for name, r := range reports {
		want := r.AppendJSON(nil)
		var p pieces
		if err := r.WriteJSON(&p); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(p.bytes(), want) {
			t.Errorf("%s: WriteJSON differs from AppendJSON", name)
		}
		for i, b := range p.all {
			if len(b) > 2*jsonPiece || i < len(p.all)-1 && len(b) < jsonPiece {
				t.Errorf("%s: piece %d of %d bytes", name, i, len(b))
			}
		}
		if name == "wide" {
			if len(want) < 4<<20 || len(p.all) < len(want)/(2*jsonPiece) {
				t.Errorf("wide: %d bytes in %d pieces", len(want), len(p.all))
			}
			fail := pieces{failFrom: 3}
			if err := r.WriteJSON(&fail); err != errPipe || len(fail.all) != 3 {
				t.Errorf("wide, failing writer: %v after %d writes, want %v after 3", err, len(fail.all), errPipe)
			}
		}
		if len(fleet) < 3 {
			fleet = append(fleet, r)
		}
	}
	want := AppendFleetJSON(nil, fleet)
	var p pieces
	if err := WriteFleetJSON(&p, fleet); err != nil || !bytes.Equal(p.bytes(), want) {
		t.Errorf("WriteFleetJSON differs from AppendFleetJSON (%v)", err)
	}
	fail := pieces{failFrom: 1}
	if err := WriteFleetJSON(&fail, fleet); err != errPipe || len(fail.all) != 1 {
		t.Errorf("WriteFleetJSON, failing writer: %v after %d writes", err, len(fail.all))
	}
}

// TestNoCharts: with Options.NoCharts the report is the same but for the
// charts, which are empty: its text summary is the same, and so is its
// JSON once the charts of the other are taken out.
func TestNoCharts(t *testing.T) {
	with := writeReports(t, Options{})
	without := writeReports(t, Options{NoCharts: true})
	charted := 0
	for name, r := range with {
		n := without[name]
		if n == nil {
			t.Fatalf("%s: no report without charts", name)
		}
		if !bytes.Equal(r.AppendText(nil), n.AppendText(nil)) {
			t.Errorf("%s: the text differs without charts", name)
		}
		for i := range n.Results {
			for j := range n.Results[i].Series {
				if len(n.Results[i].Series[j].Chart) != 0 {
					t.Fatalf("%s: %s has a chart", name, n.Results[i].Series[j].Path)
				}
				charted += len(r.Results[i].Series[j].Chart)
				r.Results[i].Series[j].Chart = nil
			}
		}
		if !bytes.Equal(r.AppendJSON(nil), n.AppendJSON(nil)) {
			t.Errorf("%s: the JSON differs without charts beyond the charts", name)
		}
	}
	if charted < 1200*200 {
		t.Errorf("%d chart points in the reports with charts", charted)
	}
}

// TestChartCapacity: a chart's storage holds at most DefaultChartPoints
// points (24,000 bytes), not what append would give a chart of 600
// points (1,024).
func TestChartCapacity(t *testing.T) {
	log := hostile.WideLog(processCounters, 2, 1199) // 2 rows a point: 600 points
	r, err := Run(open(t, log), Defaults(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, res := range r.Results {
		for _, s := range res.Series {
			n++
			if len(s.Chart) != DefaultChartPoints || cap(s.Chart) != DefaultChartPoints {
				t.Errorf("%s: %d chart points in room for %d", s.Path, len(s.Chart), cap(s.Chart))
			}
		}
	}
	if n != 8 {
		t.Errorf("%d series, want 8", n)
	}
}
