package main

import (
	"bytes"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
)

// TestFleetLog: each log reads as a .blg of its machine with the samples
// asked for; an odd log's samples straddle midnight UTC (local 16:00 in
// the logs' UTC−8 zone), an even log's end before it.
func TestFleetLog(t *testing.T) {
	for _, i := range []int{0, 1, 7, 10} {
		log := fleetLog(i, 12)
		r, err := blg.NewReader(bytes.NewReader(log), int64(len(log)))
		if err != nil {
			t.Fatal(err)
		}
		if have, want := r.Machine(), `\\`+machineName(i); have != want || len(r.Counters()) != 3 {
			t.Errorf("log %d: machine %q, %d counters; want %q and 3", i, have, len(r.Counters()), want)
		}
		var first, last int64
		n := 0
		for r.Next() {
			if n == 0 {
				first = r.Sample().TimeStamp
			}
			last = r.Sample().TimeStamp
			n++
		}
		if err := r.Err(); err != nil || n != 12 {
			t.Fatalf("log %d: %d samples (%v), want 12", i, n, err)
		}
		spans := first < midnight && last >= midnight
		if spans != (i%2 == 1) {
			t.Errorf("log %d: samples %d..%d, midnight UTC %d: spans it %v", i, first, last, midnight, spans)
		}
	}
	if machineName(10) != "FLEET:010" || machineName(11) != "FLEET-011" {
		t.Errorf("machine names %q %q", machineName(10), machineName(11))
	}
}
