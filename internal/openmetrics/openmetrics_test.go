package openmetrics

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/longform"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

func TestFamilyName(t *testing.T) {
	const (
		timer100ns = engine.CounterType(0x20510500) // PERF_100NSEC_TIMER (percent)
		rate       = engine.CounterType(0x10410400) // PERF_COUNTER_COUNTER (/sec)
		bulkRate   = engine.CounterType(0x10410500) // PERF_COUNTER_BULK_COUNT (/sec)
		avgTimer   = engine.CounterType(0x30020400) // PERF_AVERAGE_TIMER (secs)
		large      = engine.CounterType(0x00010100) // PERF_COUNTER_LARGE_RAWCOUNT
	)
	for _, tc := range []struct {
		object, counter string
		t               engine.CounterType
		name, unit      string
	}{
		{"Processor", "% Processor Time", timer100ns, "windows_processor_processor_time_percent", "percent"},
		{"PhysicalDisk", "Disk Bytes/sec", bulkRate, "windows_physicaldisk_disk_bytes_per_second", ""},
		{"System", "Context Switches/sec", rate, "windows_system_context_switches_per_second", ""},
		{"Network Interface", "Bytes Received per sec", bulkRate, "windows_network_interface_bytes_received_per_second", ""},
		{"PhysicalDisk", "Avg. Disk sec/Transfer", avgTimer, "windows_physicaldisk_avg_disk_sec_transfer_seconds", "seconds"},
		{"Memory", "Available Bytes", large, "windows_memory_available_bytes", "bytes"},
		{"Memory", "% Committed Bytes In Use", engine.CounterType(0x20020400), "windows_memory_committed_bytes_in_use_percent", "percent"},
		{".NET CLR Memory", "# Bytes in all Heaps", large, "windows_net_clr_memory_bytes_in_all_heaps", ""},
		{"处理器", "% 处理器时间", timer100ns, "windows_u5904u7406u5668_u5904u7406u5668u65f6u95f4_percent", "percent"},
		{"X", "Percent", timer100ns, "windows_x_percent", "percent"},
		{"", "", large, "windows", ""},
	} {
		name, unit := FamilyName(tc.object, tc.counter, tc.t)
		if name != tc.name || unit != tc.unit {
			t.Errorf("%s\\%s: have %s %q, want %s %q", tc.object, tc.counter, name, unit, tc.name, tc.unit)
		}
	}
}

// write converts a log to OpenMetrics with opts.
func write(t *testing.T, log []byte, opts Options) ([]byte, Stats) {
	t.Helper()
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	st, err := Write(&b, longform.FromConverter(c), opts)
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), st
}

func readLog(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var logs = []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"}

// TestCorpus checks the text of every real log: families are contiguous
// and declared once, each metric's time stamps increase, every sample's
// value is the CSV cell of its path and time (printed with 20 digits), the
// samples are the CSV's valid cells, no NaN, and "# EOF" ends it.
func TestCorpus(t *testing.T) {
	for _, name := range logs {
		t.Run(name, func(t *testing.T) {
			log := readLog(t, name)
			text, st := write(t, log, Options{})
			c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var csvText bytes.Buffer
			if err := c.Write(&csvText, relog.CSV); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&csvText).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			series := longform.SeriesOf(c.Columns())
			// The CSV's valid cells by metric (prefix) and UTC millisecond.
			_, prefixes := layout(series)
			clock := longform.NewClock(&c.Header().TimeZone)
			want := map[string]string{}
			nValid := 0
			for _, rec := range recs[1:] {
				lt, err := relog.ParseTime(rec[0])
				if err != nil {
					t.Fatal(err)
				}
				ms := floorDiv(longform.UnixMicros(clock.UTC(lt)), 1000)
				for j, cell := range rec[1:] {
					if cell == "" || cell == " " {
						continue
					}
					nValid++
					want[prefixes[j]+string(appendSeconds(nil, ms))] = cell
				}
			}
			if int64(nValid) != st.Samples+st.Dropped {
				t.Errorf("%d valid CSV cells, %d samples + %d dropped", nValid, st.Samples, st.Dropped)
			}
			if !bytes.HasSuffix(text, []byte("\n# EOF\n")) || bytes.Contains(text, []byte("NaN")) {
				t.Errorf("the text does not end in # EOF or holds a NaN")
			}
			declared := map[string]bool{}
			current := ""
			lastTime := map[string]float64{}
			lastMetric := ""
			doneMetrics := map[string]bool{}
			samples := int64(0)
			sc := bufio.NewScanner(bytes.NewReader(text))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				line := sc.Text()
				if f, ok := strings.CutPrefix(line, "# TYPE "); ok {
					name := strings.Fields(f)[0]
					if declared[name] {
						t.Fatalf("family %s declared twice", name)
					}
					declared[name], current = true, name
					continue
				}
				if strings.HasPrefix(line, "#") {
					continue
				}
				samples++
				sp := strings.LastIndexByte(line, ' ')
				vp := strings.LastIndexByte(line[:sp], ' ')
				metric, value, ts := line[:vp+1], line[vp+1:sp], line[sp+1:]
				if !strings.HasPrefix(metric, current+"{") {
					t.Fatalf("%q outside its family (current %s)", line, current)
				}
				if metric != lastMetric {
					if doneMetrics[metric] {
						t.Fatalf("metric %s is not contiguous", metric)
					}
					doneMetrics[lastMetric] = true
					lastMetric = metric
				}
				tv, err := strconv.ParseFloat(ts, 64)
				if err != nil {
					t.Fatal(err)
				}
				if prev, ok := lastTime[metric]; ok && tv <= prev {
					t.Fatalf("%q: time stamp does not increase", line)
				}
				lastTime[metric] = tv
				v, err := strconv.ParseFloat(value, 64)
				if err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				cell, ok := want[metric+ts]
				if !ok {
					t.Fatalf("%q: no valid CSV cell", line)
				}
				if have := string(engine.AppendFloat(nil, v, engine.DefaultDigits)); have != cell {
					t.Errorf("%q: value %s, CSV %s", line, have, cell)
				}
			}
			if samples != st.Samples {
				t.Errorf("%d sample lines, Stats %d", samples, st.Samples)
			}
		})
	}
}

// TestSpill: a budget far smaller than the log makes Write spill windows
// to a temporary file; the text is the same as from memory, and the file
// is gone.
func TestSpill(t *testing.T) {
	for _, name := range logs {
		log := readLog(t, name)
		want, st0 := write(t, log, Options{})
		dir := t.TempDir()
		have, st := write(t, log, Options{Budget: 4096, TempDir: dir})
		if st.Spilled == 0 || st0.Spilled != 0 {
			t.Errorf("%s: spilled %d and %d bytes, want some and none", name, st.Spilled, st0.Spilled)
		}
		if !bytes.Equal(have, want) {
			t.Errorf("%s: the text written through the temporary file differs", name)
		}
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Errorf("%s: %d temporary files left", name, len(left))
		}
	}
}

// TestSpillOption: with Options.Spill the windows go there, no file is
// made in TempDir, and the text is the same as from memory.
func TestSpillOption(t *testing.T) {
	for _, name := range logs {
		log := readLog(t, name)
		want, _ := write(t, log, Options{})
		dir := t.TempDir()
		var m MemorySpill
		have, st := write(t, log, Options{Budget: 4096, TempDir: dir, Spill: &m})
		if st.Spilled == 0 || int64(m.Len()) != st.Spilled {
			t.Errorf("%s: spilled %d bytes, the SpillFile holds %d", name, st.Spilled, m.Len())
		}
		if !bytes.Equal(have, want) {
			t.Errorf("%s: the text written through Spill differs", name)
		}
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Errorf("%s: %d files made in TempDir", name, len(left))
		}
	}
}

// TestPromtool backfills every real log into a Prometheus TSDB with
// promtool (Debian's prometheus package; make external-test installs it):
// the blocks hold exactly the samples written. It skips where promtool is
// absent unless PERFCALC_REQUIRE_PROMTOOL is set.
func TestPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		if os.Getenv("PERFCALC_REQUIRE_PROMTOOL") != "" {
			t.Fatal("promtool is not installed")
		}
		t.Skip("promtool is not installed (apt-get install prometheus, or make external-test)")
	}
	for _, name := range logs {
		t.Run(name, func(t *testing.T) {
			text, st := write(t, readLog(t, name), Options{})
			dir := t.TempDir()
			in := filepath.Join(dir, "in.om")
			if err := os.WriteFile(in, text, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", in, filepath.Join(dir, "tsdb")).CombinedOutput()
			if err != nil {
				t.Fatalf("promtool: %v\n%s", err, out)
			}
			samples := blockSamples(t, filepath.Join(dir, "tsdb"))
			if samples != st.Samples || st.Samples == 0 {
				t.Errorf("the blocks hold %d samples, Write wrote %d", samples, st.Samples)
			}
			t.Logf("%d samples, %d metrics", samples, st.Metrics)
		})
	}
}

// blockSamples returns the number of samples in the blocks of a TSDB
// folder that promtool wrote.
func blockSamples(t *testing.T, dir string) int64 {
	t.Helper()
	metas, _ := filepath.Glob(filepath.Join(dir, "*", "meta.json"))
	var samples int64
	for _, m := range metas {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		var meta struct {
			Stats struct{ NumSamples int64 }
		}
		if err := json.Unmarshal(b, &meta); err != nil {
			t.Fatal(err)
		}
		samples += meta.Stats.NumSamples
	}
	return samples
}
