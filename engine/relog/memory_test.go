package relog

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/perfcalc/perfcalc/tools/hostile"
)

// TestCounterListMemory: a Converter keeps at most 4 times the bytes of a
// log's counter list, through both readings (the 60 MB list of issue 12,
// 394,736 entries and no sample, cost 1 GB in perfcalc stats): the second
// reading rewinds the first's reader instead of reading the list again,
// and an entry of one counter and one instance has no map.
func TestCounterListMemory(t *testing.T) {
	const n = 100_000
	log := hostile.CounterListLog(n)
	listBytes := uint64(n * 152)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c, err := New(bytes.NewReader(log), int64(len(log)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for c.Next() {
	}
	if c.Err() != nil {
		t.Fatal(c.Err())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	kept := after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
	t.Logf("%d entries, %d bytes of list: %d bytes kept (%.2f×), %d allocated in all (%.2f×)", n, listBytes, kept,
		float64(kept)/float64(listBytes), after.TotalAlloc-before.TotalAlloc, float64(after.TotalAlloc-before.TotalAlloc)/float64(listBytes))
	if kept > 4*listBytes {
		t.Errorf("%d bytes kept for a %d-byte list, want at most 4 times", kept, listBytes)
	}
	runtime.KeepAlive(c)
}
