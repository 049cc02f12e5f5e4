package blgbuild_test

import (
	"bytes"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// TestDecodes: a log written here is read back by engine/blg: its header
// (BuffersWritten included), its counter list and its samples, a split
// counter list too.
func TestDecodes(t *testing.T) {
	l := blgbuild.New(1024, 130_057_734_178_440_000)
	list := blgbuild.AppendCounterList(nil,
		blgbuild.Counter{Type: 0x10410400, Machine: `\\H`, Object: "Memory", Counter: "Available Bytes"},
		blgbuild.Counter{Type: 0x10410400, Machine: `\\H`, Object: "Process", Instance: "svchost", Counter: "ID Process"})
	l.Record(blgbuild.EventCounterList, 1, list, 100)
	for i := range 20 {
		ts := int64(130_057_734_178_440_000 + i*10_000_000)
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, uint64(i), uint64(2*i)), 1000)
	}
	log := l.Bytes()
	r, err := blg.NewReader(bytes.NewReader(log), int64(len(log)))
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Header(); int(h.BuffersWritten)*1024 != len(log) || h.BufferSize != 1024 {
		t.Errorf("BuffersWritten %d, BufferSize %d for a log of %d bytes", h.BuffersWritten, h.BufferSize, len(log))
	}
	if c := r.Counters(); len(c) != 2 || c[1].Path != `\\H\Process(svchost)\ID Process` {
		t.Fatalf("counters: %+v", c)
	}
	n := 0
	for r.Next() {
		if v := r.Sample().Values; len(v) != 2 || v[1].Raw.FirstValue != uint64(2*n) {
			t.Fatalf("sample %d: %+v", n, v)
		}
		n++
	}
	if r.Err() != nil || n != 20 {
		t.Fatalf("%d samples, %v", n, r.Err())
	}
}
