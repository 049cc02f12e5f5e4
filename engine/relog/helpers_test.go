package relog_test

import (
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// exampleLog is a hand-made log of three samples, one second apart, of
// \\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length (ΔN/ΔD = 0.25 each
// second) and \\HOST\Processor(*)\% Processor Time with the instances 0
// (25 %) and _Total (50 %).
func exampleLog() []byte { return relog.HandMadeLog() }

func mustPaths(s ...string) []counterpath.Path {
	var ps []counterpath.Path
	for _, v := range s {
		p, err := counterpath.Parse(v)
		if err != nil {
			panic(err)
		}
		ps = append(ps, p)
	}
	return ps
}
