//go:build !wasm

package blg_test

import (
	"bytes"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// TestSkippedEvents: a sample event whose provider GUID or event type is
// damaged is skipped, and counted by SkippedEvents, once per reading, and
// by the Reader's Skipped; an intact log counts none.
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
	read := func(b []byte) (samples int, skipped, again int64) {
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
		skipped = blg.SkippedEvents() - before
		if r.Skipped() != skipped {
			t.Errorf("Reader.Skipped %d, SkippedEvents counted %d", r.Skipped(), skipped)
		}
		// Rewound, the reader counts the second reading's alone.
		if err := r.Rewind(); err != nil {
			t.Fatal(err)
		}
		if r.Skipped() != 0 {
			t.Errorf("Skipped after Rewind: %d", r.Skipped())
		}
		for r.Next() {
		}
		return samples, skipped, r.Skipped()
	}
	if n, s, _ := read(log); n != 3 || s != 0 {
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
			// Rewind returns to the first good sample: a damaged event
			// before it is not read again.
			if n, s, again := read(bad); n != 2 || s != 1 || again != int64(sample) {
				t.Errorf("%s of sample %d damaged: %d samples, %d skipped, %d after Rewind; want 2, 1 and %d", tc.name, sample, n, s, again, sample)
			}
		}
	}
}
