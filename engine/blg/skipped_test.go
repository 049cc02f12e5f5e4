//go:build !wasm

package blg_test

import (
	"bytes"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// TestSkippedEvents: a sample event whose provider GUID or event type is
// damaged is skipped, and counted by SkippedEvents, once per reading; an
// intact log counts none.
func TestSkippedEvents(t *testing.T) {
	const start = 130_057_734_178_440_000
	l := blgbuild.New(64<<10, start)
	l.Record(blgbuild.EventCounterList, start, blgbuild.AppendCounterList(nil, blgbuild.Counter{Type: 0x10000, Machine: `\\M`, Object: "Memory", Counter: "Pages"}), blgbuild.MaxEventData)
	for i := range 3 {
		l.Record(blgbuild.EventSample, start+int64(i), blgbuild.RawSample(start+int64(i), uint64(i)), blgbuild.MaxEventData)
	}
	log := l.Bytes()
	guid := []byte{0xb3, 0x3b, 0x3f, 0x93, 0x3e, 0x94, 0x0d, 0x49, 0x9c, 0xed, 0x3c, 0xbb, 0x14, 0xc1, 0x44, 0x79}
	var at []int // the PDH events' provider GUIDs: the counter list, then the samples
	for i := 0; ; {
		j := bytes.Index(log[i:], guid)
		if j < 0 {
			break
		}
		at, i = append(at, i+j), i+j+1
	}
	read := func(b []byte) (samples int, skipped int64) {
		before := blg.SkippedEvents()
		r, err := blg.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		for r.Next() {
			samples++
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		return samples, blg.SkippedEvents() - before
	}
	if n, s := read(log); n != 3 || s != 0 {
		t.Fatalf("the intact log: %d samples, %d skipped", n, s)
	}
	for _, tc := range []struct {
		name string
		off  int // from the event's provider GUID
		b    byte
	}{{"provider GUID", 0, 0}, {"event type", -20, 0x99}} {
		for _, sample := range []int{0, 1} {
			bad := append([]byte(nil), log...)
			bad[at[1+sample]+tc.off] = tc.b
			if n, s := read(bad); n != 2 || s != 1 {
				t.Errorf("%s of sample %d damaged: %d samples, %d skipped; want 2 and 1", tc.name, sample, n, s)
			}
		}
	}
}
