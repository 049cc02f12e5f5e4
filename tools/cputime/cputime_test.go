package cputime

import (
	"runtime"
	"testing"
)

func TestThreadCPUAdvances(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread CPU time is measured on Linux only")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok := threadCPU()
	if !ok {
		t.Fatal("clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed")
	}
	x := 1
	for i := range 20_000_000 {
		x = x*31 + i
	}
	t1, _ := threadCPU()
	if t1 <= t0 {
		t.Errorf("have %v then %v (x %d), want the thread's CPU time to advance", t0, t1, x)
	}
}
