package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// instancesLog writes a log of one wildcard counter (\Process(*)\Count)
// whose samples each hold the instances names, through the project's log
// writer.
func instancesLog(samples int, names ...string) []byte {
	l := blgbuild.New(64<<10, tinyLogStart)
	l.Record(blgbuild.EventCounterList, tinyLogStart, blgbuild.AppendCounterList(nil, blgbuild.Counter{
		Flags: 1, Type: uint32(engine.CounterRawcount), Machine: `\\TINY`, Object: "Process", Instance: "*", Counter: "Count",
	}), blgbuild.MaxEventData)
	for i := range samples {
		ts := tinyLogStart + int64(i)*10_000_000
		vals := make([]uint64, len(names))
		for j := range vals {
			vals[j] = uint64(100*i + j)
		}
		l.Record(blgbuild.EventSample, ts, blgbuild.MultiSample(ts, names, vals), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// TestLogRewrittenBetweenReadings: a log rewritten in place between
// relog's two readings (as a circular perfmon log is), whose new samples
// bring an instance that the first reading did not meet, fails with exit
// status 1 and says why, -o left as it was (relog printed the table
// without that instance's values, exit 0); a log that does not change
// reads as before.
func TestLogRewrittenBetweenReadings(t *testing.T) {
	dir := t.TempDir()
	first := instancesLog(2000, "a", "b")
	second := instancesLog(2000, "a", "b", "c")
	for n := 2000; len(second) > len(first); n -= 10 {
		second = instancesLog(n, "a", "b", "c")
	}
	if len(first) != len(second) || len(first) < 4*64<<10 {
		t.Fatalf("the logs have %d and %d bytes", len(first), len(second))
	}
	in := putFile(t, filepath.Join(dir, "circular.blg"), first)
	_, unchanged, _ := runCmd(t, "", "relog", in)
	out := filepath.Join(dir, "out.csv")
	for _, args := range [][]string{{"relog", in}, {"relog", in, "-o", out}, {"stats", in, "-o", out}, {"relog", in, in + "x", "-f", "json"}} {
		if args[len(args)-1] == "json" {
			os.WriteFile(in+"x", instancesLog(1, "z"), 0o644) // a merge
		}
		os.WriteFile(in, first, 0o644)
		os.WriteFile(out, []byte("old"), 0o644)
		betweenReadings = func() { os.WriteFile(in, second, 0o644) }
		code, stdout, errs := runCmd(t, "", args...)
		betweenReadings = nil
		old, _ := os.ReadFile(out)
		want := "perfcalc " + args[0] + ": " + in + ": the log changed while perfcalc read it (a circular log being written?): the 65536 bytes at 0x10000 differ between its two readings; read a copy of it, or the log once its collector has stopped\n"
		if code != exitError || !strings.HasPrefix(errs, want) || string(old) != "old" {
			t.Errorf("%q: exit %d, %q, -o holds %.20q\nwant exit 1, %q", args, code, errs, old, want)
		}
		if strings.Contains(stdout, "Process(c)") {
			t.Errorf("%q: the second reading's instance is printed", args)
		}
	}
	os.WriteFile(in, first, 0o644)
	if code, have, errs := runCmd(t, "", "relog", in); code != exitOK || have != unchanged || errs != "" {
		t.Errorf("unchanged: exit %d, %q", code, errs)
	}
}
