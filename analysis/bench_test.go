package analysis

import "testing"

// benchSet is a few analyses of the Tx log's counters: every column
// matched, thresholds on each.
func benchSet() *Set {
	set := oneAnalysis(`\Processor(*)\% Processor Time`,
		Threshold{Name: "w", Condition: Warning, Priority: 50, Operator: Greater, Value: 50},
		Threshold{Name: "c", Condition: Critical, Priority: 100, Operator: Greater, Value: 80})
	for _, p := range []string{`\PhysicalDisk(*)\Avg. Disk Queue Length`, `\PhysicalDisk(*)\Avg. Disk Bytes/Write`} {
		set.Analyses = append(set.Analyses, oneAnalysis(p, Threshold{Name: "w", Condition: Warning, Priority: 50, Operator: GreaterEqual, Value: 2}).Analyses...)
	}
	for i := range set.Analyses {
		set.Analyses[i].Name += string(rune('0' + i))
	}
	return set
}

// BenchmarkRunTx: Run on the real Tx log (601 rows, 10 columns), exact
// and compat; the bytes are the log's.
func BenchmarkRunTx(b *testing.B) {
	log := corpusLog(b, "Tx_BasicPerfCounters.blg")
	set := benchSet()
	for _, mode := range []struct {
		name string
		opts Options
	}{{"exact", Options{}}, {"compat", Options{PALCompat: true}}} {
		b.Run(mode.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(log)))
			for b.Loop() {
				r, err := Run(open(b, log), set, mode.opts)
				if err != nil || len(r.Results) != 3 {
					b.Fatal(err)
				}
			}
		})
	}
}
