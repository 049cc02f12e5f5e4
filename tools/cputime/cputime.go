// Package cputime measures benchmarks by the CPU time of the benchmarking
// thread as well as by wall time. perfcalc is developed on a small machine
// that the whole team shares: wall time per operation includes whatever
// time the scheduler gave to other processes, and varies by ±50% between
// runs, while the thread's own CPU time does not. Benchmarks report both,
// "ns/<unit>" and "cpu-ns/<unit>"; ratios are read from benchstat on either.
package cputime

import (
	"runtime"
	"testing"
	"time"
)

// Timer measures one benchmark function's loop.
type Timer struct {
	cpu0 time.Duration
	ok   bool
}

// Start locks the calling goroutine to its thread (the loop must run on
// it), resets the benchmark timer and starts measuring.
func Start(b *testing.B) *Timer {
	runtime.LockOSThread()
	b.ResetTimer()
	t := &Timer{}
	t.cpu0, t.ok = threadCPU()
	return t
}

// ReportBytes stops measuring and reports the throughput by CPU time,
// "cpu-MB/s", for bytes processed per iteration (b.SetBytes reports it by
// wall time).
func (t *Timer) ReportBytes(b *testing.B, bytes int64) {
	cpu1, ok := threadCPU()
	b.StopTimer()
	runtime.UnlockOSThread()
	if t.ok && ok && cpu1 > t.cpu0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/(cpu1-t.cpu0).Seconds()/1e6, "cpu-MB/s")
	}
}

// Report stops measuring and reports wall and CPU nanoseconds per unit,
// for units units of work done in b.N iterations in all.
func (t *Timer) Report(b *testing.B, units float64, unit string) {
	cpu1, ok := threadCPU()
	b.StopTimer()
	runtime.UnlockOSThread()
	if units <= 0 {
		return
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/units, "ns/"+unit)
	if t.ok && ok {
		b.ReportMetric(float64((cpu1-t.cpu0).Nanoseconds())/units, "cpu-ns/"+unit)
	}
}
