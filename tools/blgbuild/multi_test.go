package blgbuild_test

import (
	"bytes"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// TestMultiSample: a log of one wildcard entry and MultiSample records
// reads back, through package blg, with each sample's instances and values
// in order.
func TestMultiSample(t *testing.T) {
	const start = 130_057_734_178_440_000
	l := blgbuild.New(64<<10, start)
	l.Record(blgbuild.EventCounterList, start, blgbuild.AppendCounterList(nil, blgbuild.Counter{Flags: 1, Type: 0x10000, Machine: `\\M`, Object: "Process", Instance: "*", Counter: "Count"}), blgbuild.MaxEventData)
	names := [][]string{{"a", "bb"}, {"a", "bb", "ccc"}}
	for i, n := range names {
		vals := make([]uint64, len(n))
		for j := range vals {
			vals[j] = uint64(10*i + j)
		}
		l.Record(blgbuild.EventSample, start+int64(i), blgbuild.MultiSample(start+int64(i), n, vals), blgbuild.MaxEventData)
	}
	log := l.Bytes()
	r, err := blg.NewReader(bytes.NewReader(log), int64(len(log)))
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for ; r.Next(); i++ {
		s := r.Sample()
		if len(s.Values) != len(names[i]) {
			t.Fatalf("sample %d: have %d values, want %d", i, len(s.Values), len(names[i]))
		}
		for j, v := range s.Values {
			if string(v.Instance) != names[i][j] || v.Raw.FirstValue != uint64(10*i+j) || v.Raw.SecondValue != uint64(start+int64(i)) || v.Counter != 0 {
				t.Errorf("sample %d value %d: have %q %+v, want %q %d", i, j, v.Instance, v.Raw, names[i][j], 10*i+j)
			}
		}
	}
	if err := r.Err(); err != nil || i != len(names) {
		t.Errorf("have %d samples (%v), want %d", i, err, len(names))
	}
}
