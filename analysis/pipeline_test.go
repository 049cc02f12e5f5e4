package analysis

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// TestRunPipelined: Run gives the same report and error whether the rows
// come through relog's pipeline and the series' statistics are computed
// in parallel (two CPUs) or everything runs on one goroutine (one CPU):
// real logs, a long one, a damaged one (the report of the rows before the
// damage, with the damage) and a merge, with the default analyses and
// the benchmark's, exact and compat.
func TestRunPipelined(t *testing.T) {
	tx := corpusLog(t, "Tx_BasicPerfCounters.blg")
	long, err := gencorpus.NewRepeatedLog(tx, 20)
	if err != nil {
		t.Fatal(err)
	}
	cut := tx[:len(tx)/2+1234]
	type source struct {
		name   string
		open   func() *relog.Converter
		damage bool
	}
	single := func(log []byte) func() *relog.Converter { return func() *relog.Converter { return open(t, log) } }
	sources := []source{
		{"Tx", single(tx), false},
		{"Tx x20", single(long.Bytes()), false},
		{"Tx cut", single(cut), true},
		{"PowerShell", single(corpusLog(t, "PowerShell_BadCounterSamples.blg")), false},
		{"PAL", single(corpusLog(t, "PAL_SamplePerfmonLog.blg")), false},
		{"Tx cut merged with PowerShell", func() *relog.Converter {
			ps := corpusLog(t, "PowerShell_BadCounterSamples.blg")
			c, err := relog.Merge([]relog.Input{
				{R: bytes.NewReader(cut), Size: int64(len(cut)), Name: "cut"},
				{R: bytes.NewReader(ps), Size: int64(len(ps)), Name: "ps"},
			}, relog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return c
		}, true},
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, src := range sources {
		// The rows before the damage, as Next reads them.
		c := src.open()
		rows := 0
		for c.Next() {
			rows++
		}
		nextErr := c.Err()
		if src.damage != (nextErr != nil) {
			t.Fatalf("%s: Next's error %v", src.name, nextErr)
		}
		for _, set := range []*Set{Defaults(), benchSet()} {
			for _, compat := range []bool{false, true} {
				var reports [2][]byte
				for i, procs := range []int{1, 2} {
					runtime.GOMAXPROCS(procs)
					r, err := Run(src.open(), set, Options{PALCompat: compat})
					if errString(err) != errString(nextErr) {
						t.Fatalf("%s, %d CPUs: error %v, Next's %v", src.name, procs, err, nextErr)
					}
					if r == nil || r.Samples != rows {
						t.Fatalf("%s, %d CPUs: report %v, want one of %d rows", src.name, procs, r, rows)
					}
					reports[i] = r.AppendJSON(nil)
				}
				if !bytes.Equal(reports[0], reports[1]) {
					t.Errorf("%s, %s, compat %v: the report through the pipeline differs from the one on one CPU", src.name, set.Name, compat)
				}
			}
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}
