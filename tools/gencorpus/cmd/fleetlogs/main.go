// Command fleetlogs writes many small .blg logs of a made-up fleet, for
// the Spark cluster test (python/cluster_test.py): each log is one
// machine's, a few counters over a few samples, and every other log spans
// midnight UTC, so that a dataset partitioned by machine and date gets
// several machines, two dates, and logs split across them:
//
//	go run ./tools/gencorpus/cmd/fleetlogs -n 300 -o DIR
//
// The logs are FLEET-000.blg, … (machine FLEET-000, …; every tenth
// machine's name has a character that Hive escapes: "FLEET:010").
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

func main() {
	n := flag.Int("n", 300, "logs to write")
	samples := flag.Int("samples", 12, "samples per log")
	out := flag.String("o", "", "the folder of the logs (created if absent)")
	flag.Parse()
	if *out == "" || *n < 1 || *samples < 2 || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: fleetlogs -n LOGS [-samples N] -o DIR")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "fleetlogs:", err)
		os.Exit(1)
	}
	for i := range *n {
		if err := os.WriteFile(filepath.Join(*out, fmt.Sprintf("FLEET-%03d.blg", i)), fleetLog(i, *samples), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "fleetlogs:", err)
			os.Exit(1)
		}
	}
}

// Times as FILETIMEs (100 ns since 1601-01-01 UTC).
const (
	second = 10_000_000
	// midnight is 2026-11-26T00:00:00Z as the logs' local time
	// (blgbuild's Pacific Standard Time, UTC−8): 2026-11-25 16:00.
	midnight = (1_795_651_200+11_644_473_600)*second - 8*3600*second
)

// machineName is log i's machine.
func machineName(i int) string {
	if i%10 == 0 {
		return fmt.Sprintf("FLEET:%03d", i)
	}
	return fmt.Sprintf("FLEET-%03d", i)
}

// fleetLog is log i: three counters of machine i (a raw count, a rate,
// and one instance of a rate), samples one second apart (local times, in
// blgbuild's time zone), starting a few seconds before midnight UTC for
// odd i (the log spans two dates) and hours before it for even i; the raw
// values depend on i.
func fleetLog(i, samples int) []byte {
	start := int64(midnight - int64(samples/2)*second)
	if i%2 == 0 {
		start = midnight - int64(3+i%17)*3600*second
	}
	l := blgbuild.New(8<<10, start)
	m := `\\` + machineName(i)
	l.Record(blgbuild.EventCounterList, start, blgbuild.AppendCounterList(nil,
		blgbuild.Counter{Type: 0x00010100, Machine: m, Object: "Memory", Counter: "Available Bytes"},
		blgbuild.Counter{Type: 0x10410400, TimeBase: second, Machine: m, Object: "Memory", Counter: "Pages/sec"},
		blgbuild.Counter{Type: 0x10410400, TimeBase: second, Machine: m, Object: "Network Interface", Instance: "eth0", Counter: "Bytes Total/sec"},
	), blgbuild.MaxEventData)
	for s := range samples {
		ts := start + int64(s)*second
		k := uint64(i*1000 + s)
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, 1<<30+k*4096, k*k*7, k*uint64(1500+i)), blgbuild.MaxEventData)
	}
	return l.Bytes()
}
