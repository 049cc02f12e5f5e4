package relog_test

import "github.com/perfcalc/perfcalc/engine/relog"

// exampleLog is a hand-made log of three samples, one second apart, of
// \\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length (ΔN/ΔD = 0.25 each
// second) and \\HOST\Processor(*)\% Processor Time with the instances 0
// (25 %) and _Total (50 %).
func exampleLog() []byte { return relog.HandMadeLog() }

// mustPaths parses counter paths, panicking on a bad one.
var mustPaths = relog.MustPaths
