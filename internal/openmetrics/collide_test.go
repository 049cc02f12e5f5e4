package openmetrics

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// Counter types of the hand-made logs.
const (
	rawCount    = 0x00010100 // PERF_COUNTER_LARGE_RAWCOUNT: the value is FirstValue
	rawFraction = 0x20020400 // PERF_RAW_FRACTION: 100 × FirstValue / SecondValue
)

// local is the first sample's local FILETIME (02/19/2013 18:50:17.844 in
// Pacific time) and second one second of FILETIME ticks.
const (
	local  = 130057734178440000
	second = 10000000
)

// collideLog is a log of the counters cs (one value each) with the given
// samples: values[k] are sample k's raw values, one per counter.
func collideLog(cs []blgbuild.Counter, values ...[]uint64) []byte {
	l := blgbuild.New(0x10000, local+8*3600*second)
	l.Record(blgbuild.EventCounterList, local, blgbuild.AppendCounterList(nil, cs...), 8000)
	for k, v := range values {
		ts := int64(local + k*second)
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, v...), 8000)
	}
	return l.Bytes()
}

// familyLines returns the family of every sample line of text, and the
// UNIT lines.
func familyLines(text []byte) (samples map[string]int, units map[string]string) {
	samples, units = map[string]int{}, map[string]string{}
	for _, line := range strings.Split(string(text), "\n") {
		if f, ok := strings.CutPrefix(line, "# UNIT "); ok {
			name, unit, _ := strings.Cut(f, " ")
			units[name] = unit
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, _, _ := strings.Cut(line, "{")
		samples[name]++
	}
	return samples, units
}

// TestCollidingFamilies: counters whose family names collide after
// sanitising are told apart by a number before the unit suffix, so that
// every family with a UNIT line ends in its unit (promtool and the
// Prometheus client refuse the file otherwise).
func TestCollidingFamilies(t *testing.T) {
	cs := []blgbuild.Counter{
		{Type: rawCount, Machine: `\\H`, Object: "Memory", Counter: "Available Bytes"},
		{Type: rawCount, Machine: `\\H`, Object: "Memory", Counter: "Available-Bytes"},
		{Type: rawCount, Machine: `\\H`, Object: "Memory", Counter: "Available Bytes!"},
		{Type: rawFraction, Machine: `\\H`, Object: "Disk", Counter: "% Busy"},
		{Type: rawFraction, Machine: `\\H`, Object: "Disk", Counter: "% Busy!"},
		{Type: rawCount, Machine: `\\H`, Object: "Q", Counter: "Free"},
		{Type: rawCount, Machine: `\\H`, Object: "Q", Counter: "Free."},
	}
	log := collideLog(cs, []uint64{1, 2, 3, 4, 5, 6, 7}, []uint64{11, 12, 13, 14, 15, 16, 17})
	text, st := write(t, log, Options{})
	samples, units := familyLines(text)
	want := map[string]string{
		"windows_memory_available_bytes":   "bytes",
		"windows_memory_available_2_bytes": "bytes",
		"windows_memory_available_3_bytes": "bytes",
		"windows_disk_busy_percent":        "percent",
		"windows_disk_busy_2_percent":      "percent",
		"windows_q_free":                   "",
		"windows_q_free_2":                 "",
	}
	for name, unit := range want {
		if samples[name] != 2 || units[name] != unit {
			t.Errorf("family %s: have %d samples, unit %q; want 2, %q", name, samples[name], units[name], unit)
		}
	}
	for name, unit := range units {
		if !strings.HasSuffix(name, "_"+unit) {
			t.Errorf("family %s does not end in its unit %s", name, unit)
		}
	}
	if len(samples) != len(want) || st.Samples != 14 || st.Families != 7 {
		t.Errorf("have %d families (Stats %d), %d samples; want %d and 14\n%s", len(samples), st.Families, st.Samples, len(want), text)
	}
	promtoolCheck(t, text, st.Samples)
}

// promtoolCheck backfills text with promtool where it is installed and
// checks that the blocks hold every sample.
func promtoolCheck(t *testing.T, text []byte, n int64) {
	t.Helper()
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		if os.Getenv("PERFCALC_REQUIRE_PROMTOOL") != "" {
			t.Fatal("promtool is not installed")
		}
		t.Log("promtool is not installed: the backfill is not checked")
		return
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.om")
	if err := os.WriteFile(in, text, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", in, filepath.Join(dir, "tsdb")).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool: %v\n%s\n%s", err, out, text)
	}
	if have := blockSamples(t, filepath.Join(dir, "tsdb")); have != n {
		t.Errorf("the blocks hold %d samples, Write wrote %d", have, n)
	}
}

// TestRepeatedMetrics: columns whose family and labels repeat an earlier
// column's (a path logged twice, counter names that differ only in case)
// are kept, told apart by a duplicate label: all 9 samples of 3 columns
// and 3 samples are written, each with its own column's values.
func TestRepeatedMetrics(t *testing.T) {
	cs := []blgbuild.Counter{
		{Type: rawCount, Machine: `\\H`, Object: "Memory", Counter: "Available Bytes"},
		{Type: rawCount, Machine: `\\H`, Object: "Memory", Counter: "Available Bytes"},
		{Type: rawCount, Machine: `\\H`, Object: "Memory", Counter: "available bytes"},
		{Type: rawCount, Machine: `\\H`, Object: "Disk", Instance: "C:", Counter: "Free Bytes"},
		{Type: rawCount, Machine: `\\H`, Object: "Disk", Instance: "C:", Counter: "Free Bytes"},
	}
	log := collideLog(cs, []uint64{1, 2, 3, 4, 5}, []uint64{11, 12, 13, 14, 15}, []uint64{21, 22, 23, 24, 25})
	text, st := write(t, log, Options{})
	var lines []string
	for _, line := range strings.Split(string(text), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	want := []string{
		`windows_memory_available_bytes{machine="H"} 1 1361328617.844`,
		`windows_memory_available_bytes{machine="H"} 11 1361328618.844`,
		`windows_memory_available_bytes{machine="H"} 21 1361328619.844`,
		`windows_memory_available_bytes{machine="H",duplicate="2"} 2 1361328617.844`,
		`windows_memory_available_bytes{machine="H",duplicate="2"} 12 1361328618.844`,
		`windows_memory_available_bytes{machine="H",duplicate="2"} 22 1361328619.844`,
		`windows_memory_available_bytes{machine="H",duplicate="3"} 3 1361328617.844`,
		`windows_memory_available_bytes{machine="H",duplicate="3"} 13 1361328618.844`,
		`windows_memory_available_bytes{machine="H",duplicate="3"} 23 1361328619.844`,
		`windows_disk_free_bytes{machine="H",instance="C:"} 4 1361328617.844`,
		`windows_disk_free_bytes{machine="H",instance="C:"} 14 1361328618.844`,
		`windows_disk_free_bytes{machine="H",instance="C:"} 24 1361328619.844`,
		`windows_disk_free_bytes{machine="H",instance="C:",duplicate="2"} 5 1361328617.844`,
		`windows_disk_free_bytes{machine="H",instance="C:",duplicate="2"} 15 1361328618.844`,
		`windows_disk_free_bytes{machine="H",instance="C:",duplicate="2"} 25 1361328619.844`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("have\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if st.Samples != 15 || st.Metrics != 5 || st.Families != 2 {
		t.Errorf("Stats %+v: want 15 samples, 5 metrics, 2 families", st)
	}
	promtoolCheck(t, text, st.Samples)
}
