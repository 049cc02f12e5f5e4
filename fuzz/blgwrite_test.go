package fuzz

import (
	"bytes"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
)

// blgWrittenSeed is a small log that blg.Writer writes: 1 KiB buffers, a
// single counter, a wildcard counter whose instances come and go (a sample
// of many instances split over several events) and a counter absent from
// some samples.
func blgWrittenSeed() []byte {
	var out bytes.Buffer
	w, err := blg.NewWriter(&out, blg.WriterConfig{
		Header: blg.LogHeader{BufferSize: 1024, Version: 0x05010206, PerfFreq: 10_000_000, StartTime: 130_057_734_178_440_000, LoggerName: "l", LogFileName: "f.blg"},
		Counters: []blg.CounterInfo{
			{Type: engine.CounterRawcount, Machine: `\\H`, Object: "Memory", Counter: "Pages/sec"},
			{Flags: 1, Type: engine.Timer100ns, TimeBase: 10_000_000, Machine: `\\H`, Object: "Processor", Instance: "*", Counter: "% Processor Time"},
			{Type: engine.CounterCounter, TimeBase: 10_000_000, Machine: `\\H`, Object: "Process", Instance: "x", Parent: "p", InstanceIndex: 1, Counter: "Handle Count"},
		},
	})
	if err != nil {
		panic(err)
	}
	for i := range 12 {
		ts := int64(130_057_734_178_440_000 + i*10_000_000)
		vals := []blg.Value{{Counter: 0, Raw: engine.RawCounter{TimeStamp: ts, FirstValue: uint64(i), MultiCount: 1}}}
		for k := range (i % 3) * 20 {
			vals = append(vals, blg.Value{Counter: 1, Instance: []byte{byte('a' + k%26), byte('0' + k/26)}, Raw: engine.RawCounter{CStatus: 1, TimeStamp: ts, FirstValue: uint64(k * i), SecondValue: uint64(ts)}})
		}
		if i%4 != 3 {
			vals = append(vals, blg.Value{Counter: 2, Raw: engine.RawCounter{CStatus: 0xC0000BC6, TimeStamp: ts, FirstValue: 1 << 40}})
		}
		if err := w.WriteSample(ts, vals); err != nil {
			panic(err)
		}
	}
	if err := w.Close(0); err != nil {
		panic(err)
	}
	return out.Bytes()
}

// FuzzBLGWrite: whatever sequence of samples the reader accepts (the
// samples of a log up to its end or its first damage, whole-object logs
// aside), blg.Writer writes a log that reads back to the same header
// fields, counter list and samples (time stamps, counters, instance names,
// raw values and statuses); the writer refuses nothing of it.
func FuzzBLGWrite(f *testing.F) {
	for _, s := range blgHandMadeSeeds() {
		f.Add(s)
	}
	for _, s := range blgCorpusSeeds() {
		if len(s) <= 1<<16 { // the fuzzer stalls on mutations of the large ones
			f.Add(s)
		}
	}
	for _, s := range blgHostileSeeds() {
		f.Add(s)
	}
	f.Add(blgWrittenSeed())
	f.Fuzz(func(t *testing.T, data []byte) { runWrite(t, data) })
}

func runWrite(t *testing.T, data []byte) {
	{
		r, err := blg.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for _, c := range r.Counters() {
			if c.Flags&0x10 != 0 || c.Counter == "*" {
				return // whole objects: the writer writes raw values only
			}
		}
		var out bytes.Buffer
		w, err := blg.NewWriter(&out, blg.ConfigOf(r))
		if err != nil {
			t.Fatalf("NewWriter refuses the log's own header or counter list: %v", err)
		}
		type sample struct {
			ts     int64
			values []blg.Value
		}
		var want []sample
		for r.Next() {
			s := r.Sample()
			if len(s.Blocks) > 0 {
				return
			}
			c := sample{ts: s.TimeStamp}
			for _, v := range s.Values {
				if v.Instance != nil {
					v.Instance = bytes.Clone(v.Instance)
				}
				c.values = append(c.values, v)
			}
			want = append(want, c)
			if err := w.WriteSample(s.TimeStamp, s.Values); err != nil {
				t.Fatalf("sample %d: WriteSample refuses what the reader accepted: %v", s.Index, err)
			}
		}
		if err := w.Close(0); err != nil {
			t.Fatal(err)
		}
		b := out.Bytes()
		r2, err := blg.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("the log written does not open: %v", err)
		}
		h, h2 := r.Header(), r2.Header()
		if h2.StartTime != h.StartTime || h2.PerfFreq != h.PerfFreq || h2.Version != h.Version || h2.PointerSize != h.PointerSize ||
			h2.TimeZone.Bias != h.TimeZone.Bias || h2.TimeZone.StandardName != h.TimeZone.StandardName || h2.TimeZone.DaylightDate != h.TimeZone.DaylightDate ||
			h2.LoggerName != h.LoggerName || h2.LogFileName != h.LogFileName {
			t.Fatalf("header: have %+v, want %+v", *h2, *h)
		}
		cs, cs2 := r.Counters(), r2.Counters()
		if len(cs2) != len(cs) {
			t.Fatalf("have %d counters, want %d", len(cs2), len(cs))
		}
		for i := range cs {
			a, b := &cs[i], &cs2[i]
			if a.Path != b.Path || a.Flags != b.Flags || a.UserData != b.UserData || a.Type != b.Type || a.TimeBase != b.TimeBase || a.DefaultScale != b.DefaultScale ||
				a.Instance != b.Instance || a.Parent != b.Parent || a.InstanceIndex != b.InstanceIndex {
				t.Fatalf("counter %d: have %+v, want %+v", i, *b, *a)
			}
		}
		n := 0
		for r2.Next() {
			s := r2.Sample()
			if n >= len(want) {
				t.Fatalf("more samples read back than written (%d)", len(want))
			}
			w := &want[n]
			if s.TimeStamp != w.ts || len(s.Values) != len(w.values) {
				t.Fatalf("sample %d: have %d values at %d, want %d at %d", n, len(s.Values), s.TimeStamp, len(w.values), w.ts)
			}
			for i, v := range s.Values {
				u := &w.values[i]
				if v.Counter != u.Counter || v.Raw != u.Raw || !bytes.Equal(v.Instance, u.Instance) || (v.Instance == nil) != (u.Instance == nil) {
					t.Fatalf("sample %d value %d: have %+v, want %+v", n, i, v, *u)
				}
			}
			n++
		}
		if err := r2.Err(); err != nil || n != len(want) {
			t.Fatalf("read back %d of %d samples: %v", n, len(want), err)
		}
	}
}
