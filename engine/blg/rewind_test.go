package blg

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/perfcalc/perfcalc/tools/hostile"
)

// TestRewind: after Rewind, Next gives the same samples again (split ones
// too, from any buffer), the same damage at the same place, and nothing for
// a log without samples; a stream reader cannot rewind.
func TestRewind(t *testing.T) {
	logs := map[string][]byte{
		"hand-made, split samples": testLog(40, 1024, 100),
		"no sample":                hostile.CounterListLog(3),
		"cut":                      testLog(40, 1024, 100)[:5*1024+300],
	}
	for name, data := range logs {
		checkRewind(t, name, data)
	}
	s, err := NewStreamReader(bytes.NewReader(logs["hand-made, split samples"]))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Rewind(); !errors.Is(err, ErrNotRewindable) {
		t.Errorf("a stream reader's Rewind: %v", err)
	}
	t.Run("real logs", func(t *testing.T) {
		for _, name := range []string{"PAL_SamplePerfmonLog.blg", "Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg"} {
			data := readCorpus(t, name)
			checkRewind(t, name, data)
			checkRewind(t, name+" cut at a buffer boundary", data[:3*0x10000])
		}
	})
}

// checkRewind reads a log, rewinds it twice and checks that it reads the
// same samples and damage again.
func checkRewind(t *testing.T, name string, data []byte) {
	t.Helper()
	{
		r := open(t, data)
		first := readSamples(r)
		firstErr := r.Err()
		for range 2 {
			if err := r.Rewind(); err != nil && err != firstErr {
				t.Fatalf("%s: Rewind: %v", name, err)
			}
			again := readSamples(r)
			if len(again) != len(first) {
				t.Fatalf("%s: %d samples after Rewind, %d before", name, len(again), len(first))
			}
			for i := range again {
				if !bytes.Equal(again[i].Record, first[i].Record) || again[i].Offset != first[i].Offset || again[i].Index != i {
					t.Fatalf("%s: sample %d differs after Rewind", name, i)
				}
			}
			if errText(r.Err()) != errText(firstErr) {
				t.Errorf("%s: after Rewind %v, before %v", name, r.Err(), firstErr)
			}
		}
	}
}

// readSamples reads the samples of r, keeping copies of their records.
func readSamples(r *Reader) []Sample {
	var out []Sample
	for r.Next() {
		s := r.Sample()
		out = append(out, Sample{Index: s.Index, Offset: s.Offset, Record: bytes.Clone(s.Record)})
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestCounterListMemory: the memory a Reader keeps for a counter list is at
// most 3 times the list's bytes, plus its buffer and at most 1 MiB of
// reassembly space (the 60 MB list of issue 12, 394,736 entries, cost
// 1 GB in perfcalc stats): the list is allocated once, and a large
// reassembled record is let go once read. The hostile log's entries are
// 152 bytes with 4 strings; the smallest possible entries (56 bytes, every
// string the same empty one) cost the most per byte, a CounterInfo each.
func TestCounterListMemory(t *testing.T) {
	smallest := func(n int) []byte {
		list := []byte{0xFF, 6, 0, 0, 8, 0, 2, 0}
		for range n {
			e := make([]byte, 56)
			binary.LittleEndian.PutUint32(e[0:], 56)
			binary.LittleEndian.PutUint32(e[36:], noString)
			binary.LittleEndian.PutUint32(e[40:], noString)
			list = append(list, e...)
		}
		l := newLog(0x10000, pacific)
		l.record(EventCounterList, 1, list, 0xFF00)
		return l.bytes()
	}
	for _, tc := range []struct {
		name       string
		log        []byte
		n, entrySz int
	}{
		{"hostile, 3,000 entries", hostile.CounterListLog(3_000), 3_000, 152},
		{"hostile, 100,000 entries", hostile.CounterListLog(100_000), 100_000, 152},
		{"smallest entries", smallest(100_000), 100_000, 56},
	} {
		listBytes := uint64(tc.n * tc.entrySz)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := NewReader(bytes.NewReader(tc.log), int64(len(tc.log)))
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept := after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
		if len(r.Counters()) != tc.n {
			t.Fatalf("%s: %d counters", tc.name, len(r.Counters()))
		}
		t.Logf("%s: %d bytes of list, %d bytes kept (%.2f×), %d allocated in all (%.2f×)", tc.name, listBytes, kept,
			float64(kept)/float64(listBytes), after.TotalAlloc-before.TotalAlloc, float64(after.TotalAlloc-before.TotalAlloc)/float64(listBytes))
		if limit := 3*listBytes + maxKeptBuffer + 0x10000; kept > limit {
			t.Errorf("%s: %d bytes kept for a %d-byte list, want at most %d", tc.name, kept, listBytes, limit)
		}
		runtime.KeepAlive(r)
	}
}
