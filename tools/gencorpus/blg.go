package gencorpus

import "github.com/perfcalc/perfcalc/tools/blgbuild"

// Sample log: sampleLogSamples samples, one second apart, of three counters
// of PERFCALC-DEMO, from sampleLogStart, a FILETIME of 2025-01-15 12:00:00
// (the samples' time stamps, which relog shows as the logging machine's
// local time; the log's zone is US Pacific, PST: UTC = local + 8 h).
const (
	sampleLogStart   = 133_814_160_000_000_000
	sampleLogSamples = 10
	sampleLogSecond  = 10_000_000
)

// sampleLog returns a small .blg log written by tools/blgbuild (4 KiB
// buffers), so that the packages can be tried without the shared corpus:
// \Processor(_Total)\% Processor Time (PERF_100NSEC_TIMER_INV, 25% busy
// in every interval), \Memory\Available Bytes (PERF_COUNTER_LARGE_RAWCOUNT,
// 1 GiB plus 1 MiB per sample) and \System\Processes (PERF_COUNTER_RAWCOUNT,
// 100 + the sample's index).
func sampleLog() []byte {
	const machine = `\\PERFCALC-DEMO`
	l := blgbuild.New(4096, sampleLogStart)
	list := blgbuild.AppendCounterList(nil,
		blgbuild.Counter{Type: 0x21510500, TimeBase: sampleLogSecond, Machine: machine, Object: "Processor", Instance: "_Total", Counter: "% Processor Time"},
		blgbuild.Counter{Type: 0x00010100, Machine: machine, Object: "Memory", Counter: "Available Bytes"},
		blgbuild.Counter{Type: 0x00010000, Machine: machine, Object: "System", Counter: "Processes"})
	l.Record(blgbuild.EventCounterList, sampleLogStart, list, blgbuild.MaxEventData)
	for i := range sampleLogSamples {
		ts := int64(sampleLogStart + i*sampleLogSecond)
		// Idle time grows by 0.75 s a second: 25% busy.
		idle := uint64(i) * sampleLogSecond * 3 / 4
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, idle, 1<<30+uint64(i)<<20, 100+uint64(i)), blgbuild.MaxEventData)
	}
	return l.Bytes()
}
