// Package memtest measures the memory of a piece of work in the tests that
// bound it (PERFCALC_MEMTEST): the peak heap in use while it runs and the
// process's peak resident set.
package memtest

import (
	"bytes"
	"os"
	"runtime"
	"sync/atomic"
	"time"
)

// PeakHeap runs work and returns the largest runtime.MemStats.HeapInuse
// seen while it ran, sampled every 20 ms after a garbage collection.
func PeakHeap(work func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
		}
	}()
	work()
	close(stop)
	<-done
	return peak.Load()
}

// MaxRSS reads the process's peak resident set from /proc where there is
// one ("49356 kB"), or returns "unknown".
func MaxRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			return string(bytes.TrimSpace(v))
		}
	}
	return "unknown"
}
