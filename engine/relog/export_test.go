package relog

import (
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/internal/filetime"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// ticksPerSecond is FILETIME's unit, for the tests' time stamps.
const ticksPerSecond = filetime.TicksPerSecond

// HandMadeLog gives the external test package the hand-made log of
// the examples.
func HandMadeLog() []byte { return exampleLog(3) }

// HandMadeHalves gives the external test package the hand-made log of the
// examples cut in two by time: its samples 0–1 and 1–2 (sample 1 in both).
func HandMadeHalves() ([]byte, []byte) { return exampleLogRange(0, 2), exampleLogRange(1, 3) }

// exampleLog returns n samples of the examples' two counters.
func exampleLog(n int) []byte { return exampleLogRange(0, n) }

// exampleLogRange returns the samples [from, to) of the examples' log.
func exampleLogRange(from, to int) []byte { return exampleLogBuffers(from, to, bufSize) }

// exampleLogBuffers is exampleLogRange in buffers of size bytes (a
// multiple of 1 KiB): small ones make a short log of many buffers.
func exampleLogBuffers(from, to, size int) []byte {
	const local = 130057734178440000 // 02/19/2013 18:50:17.844, Pacific
	const utc = local + 8*3600*ticksPerSecond
	l := &logBuilder{blgbuild.NewTZ(size, utc, pacific.encode())}
	l.record(0x20, local, counterList(
		counterSpec{Type: 0x00550500, TimeBase: 10_000_000, Machine: `\\HOST`, Object: "PhysicalDisk", Instance: "0 C:", Counter: "Avg. Disk Queue Length"},
		counterSpec{Flags: 1, Type: 0x21510500, TimeBase: 10_000_000, Machine: `\\HOST`, Object: "Processor", Instance: "*", Counter: "% Processor Time"},
	))
	for i := from; i < to; i++ {
		ts := int64(local + i*ticksPerSecond)
		d := uint64(utc + i*ticksPerSecond)
		l.record(0x22, ts, sampleRecord(
			rawRec(0, ts, uint64(2_500_000*i), d),
			multiRec(0, ts, item{"0", uint64(7_500_000 * i), d}, item{"_Total", uint64(5_000_000 * i), d}),
		))
	}
	return l.bytes()
}

// MustPaths parses counter paths for the tests of both packages, panicking
// on a bad one.
func MustPaths(s ...string) []counterpath.Path {
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
