package engine_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// rawLog is the shape of the *.raw.json files beside the real .blg logs:
// PDH raw values decoded by an independent reader.
type rawLog struct {
	Counters []struct {
		Path         string `json:"path"`
		Type         string `json:"type"`
		TimeBase     int64  `json:"timebase"`
		DefaultScale int32  `json:"defaultScale"`
	} `json:"counters"`
	Samples [][]struct {
		Status     string `json:"status"`
		TimeStamp  int64  `json:"timestamp_filetime"`
		First      uint64 `json:"first"`
		Second     uint64 `json:"second"`
		MultiCount uint32 `json:"multiCount"`
		Items      []struct {
			Instance   string `json:"instance"`
			First      uint64 `json:"first"`
			Second     uint64 `json:"second"`
			MultiCount uint32 `json:"multiCount"`
		} `json:"items"`
	} `json:"samples"`
}

// series is the raw samples of one counter instance of a log.
type series struct {
	name    string
	counter engine.Counter
	samples []engine.RawCounter
}

func loadRawLog(t *testing.T, name string) []series {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), name))
	if err != nil {
		t.Fatal(err)
	}
	var log rawLog
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	byName := map[string]*series{}
	var order []string
	for _, row := range log.Samples {
		for j, s := range row {
			c := log.Counters[j]
			typ, err := engine.ParseCounterType(c.Type)
			if err != nil {
				t.Fatalf("%s: %v", c.Path, err)
			}
			status, err := strconv.ParseUint(s.Status, 0, 32)
			if err != nil {
				t.Fatal(err)
			}
			add := func(inst string, first, second uint64, mc uint32) {
				key := c.Path + "#" + inst
				se := byName[key]
				if se == nil {
					se = &series{name: key, counter: engine.Counter{Type: typ, Scale: c.DefaultScale, TimeBase: c.TimeBase}}
					byName[key] = se
					order = append(order, key)
				}
				se.samples = append(se.samples, engine.RawCounter{CStatus: uint32(status), TimeStamp: s.TimeStamp, FirstValue: first, SecondValue: second, MultiCount: mc})
			}
			if len(s.Items) == 0 {
				add("", s.First, s.Second, s.MultiCount)
			}
			for _, it := range s.Items {
				add(it.Instance, it.First, it.Second, it.MultiCount)
			}
		}
	}
	out := make([]series, len(order))
	for i, k := range order {
		out[i] = *byName[k]
	}
	return out
}

// TestRealLogs computes every value of two real .blg logs and checks what
// must hold whatever the exact values: bad raw statuses give InvalidData
// and nothing else, percentages of the processor stay within [0, 100],
// and the statistics count every pair exactly once.
func TestRealLogs(t *testing.T) {
	for _, name := range []string{"Tx_BasicPerfCounters.raw.json", "PowerShell_BadCounterSamples.raw.json"} {
		t.Run(name, func(t *testing.T) {
			all := loadRawLog(t, name)
			if len(all) == 0 {
				t.Fatal("no counter in the log")
			}
			valid, badPairs := 0, 0
			for _, se := range all {
				var skipped int
				for i := 1; i < len(se.samples); i++ {
					old, cur := se.samples[i-1], se.samples[i]
					in := engine.Input{Counter: se.counter, HasOld: true, Old: old, New: cur}
					r := engine.Compute(&in, 0)
					if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
						t.Fatalf("%s[%d]: %v", se.name, i, r)
					}
					bad := old.CStatus > 1 || cur.CStatus > 1
					if bad {
						badPairs++
						if r.Status != engine.InvalidData {
							t.Errorf("%s[%d]: have %v, want InvalidData for CStatus %#x, %#x", se.name, i, r, old.CStatus, cur.CStatus)
						}
					} else if r.Status == engine.InvalidData {
						t.Errorf("%s[%d]: InvalidData from good samples", se.name, i)
					}
					if r.Status != engine.Valid {
						skipped++
						continue
					}
					valid++
					if se.counter.Type.IsPercent() && (r.Value < 0 || r.Value > 100) {
						t.Errorf("%s[%d]: %v%% outside [0, 100]", se.name, i, r.Value)
					}
				}
				st := engine.ComputeStatistics(se.counter, se.samples, 0)
				if have, want := st.Count+st.Skipped, len(se.samples)-1; have != want {
					t.Errorf("%s: statistics count %d + skipped %d, want %d pairs", se.name, st.Count, st.Skipped, want)
				}
				if st.Skipped != skipped {
					t.Errorf("%s: statistics skipped %d, want %d", se.name, st.Skipped, skipped)
				}
				if st.Count > 0 && (st.Mean < st.Min || st.Mean > st.Max) && st.MeanStatus == engine.Valid {
					// The first-to-last mean of a rate is a weighted
					// average of the pair values, so it lies between them.
					t.Errorf("%s: mean %v outside [%v, %v]", se.name, st.Mean, st.Min, st.Max)
				}
			}
			if valid == 0 {
				t.Errorf("no Valid value in the whole log")
			}
			t.Logf("%d series, %d Valid values, %d pairs touching a bad sample", len(all), valid, badPairs)
		})
	}
}
