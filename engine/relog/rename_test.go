package relog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// TestRename: Options.Rename renames every column's object and counter (of
// single counters, wildcard instances and whole objects), keeps machines,
// instances and every value, and Counters match the new names.
func TestRename(t *testing.T) {
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"} {
		t.Run(name, func(t *testing.T) {
			data := readCorpus(t, name)
			csv := func(opts Options) (string, []Column) {
				c, err := New(bytes.NewReader(data), int64(len(data)), opts)
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				if err := c.Write(&b, CSV); err != nil && err != c.Err() {
					t.Fatal(err)
				}
				return b.String(), c.Columns()
			}
			upper := func(o, c string) (string, string) { return "X" + strings.ToUpper(o), "Y" + c }
			plain, pcols := csv(Options{})
			renamed, rcols := csv(Options{Rename: upper})
			if len(pcols) != len(rcols) {
				t.Fatalf("have %d columns renamed, %d not", len(rcols), len(pcols))
			}
			for i := range pcols {
				p := pcols[i].Parts
				want := p
				want.Object, want.Counter = upper(p.Object, p.Counter)
				if rcols[i].Path != want.String() && !strings.Contains(pcols[i].Path, "#") {
					t.Errorf("column %d: have %s, want %s", i, rcols[i].Path, want.String())
				}
				r := rcols[i].Parts
				if r.Machine != p.Machine || r.Instance != p.Instance || r.Parent != p.Parent || r.Index != p.Index || r.Object != want.Object || r.Counter != want.Counter {
					t.Errorf("column %d: have the parts %+v, want %+v", i, r, want)
				}
			}
			// The rows (everything after the header line) are the same.
			if pr, rr := plain[strings.IndexByte(plain, '\n'):], renamed[strings.IndexByte(renamed, '\n'):]; pr != rr {
				t.Error("the rows differ")
			}
			// A pattern of the new names selects the column.
			pat, err := counterpath.Parse(`\` + rcols[0].Parts.Object + `(*)\` + rcols[0].Parts.Counter)
			if !rcols[0].Parts.HasInstance {
				pat, err = counterpath.Parse(`\` + rcols[0].Parts.Object + `\` + rcols[0].Parts.Counter)
			}
			if err != nil {
				t.Fatal(err)
			}
			_, sel := csv(Options{Rename: upper, Counters: []counterpath.Path{pat}})
			if len(sel) == 0 || sel[0].Path != rcols[0].Path {
				t.Errorf("the pattern %s selects %d columns", pat.String(), len(sel))
			}
		})
	}
}
