package blgrename

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

func relogCSV(t *testing.T, log []byte) string {
	t.Helper()
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.Write(&b, relog.CSV); err != nil && err != c.Err() {
		t.Fatal(err)
	}
	return b.String()
}

// TestIdentity: rewriting a real log with no renaming keeps relog's whole
// output; renaming changes the header's names only.
func TestIdentity(t *testing.T) {
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"} {
		t.Run(name, func(t *testing.T) {
			log, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), name))
			if err != nil {
				t.Fatal(err)
			}
			same, err := Rewrite(log, Names{})
			if err != nil {
				t.Fatal(err)
			}
			want := relogCSV(t, log)
			if have := relogCSV(t, same); have != want {
				t.Errorf("the rewritten log's CSV differs")
			}
			upper, err := Rewrite(log, Names{Object: strings.ToUpper, Counter: func(_, c string) string { return "Z" + c }, Table: func(s string) string { return "Z" + s }})
			if err != nil {
				t.Fatal(err)
			}
			have := relogCSV(t, upper)
			if have == want {
				t.Fatal("renaming changed nothing")
			}
			if hr, wr := have[strings.IndexByte(have, '\n'):], want[strings.IndexByte(want, '\n'):]; hr != wr {
				t.Error("renaming changed the rows")
			}
		})
	}
}
