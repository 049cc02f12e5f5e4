package blg

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
)

// rewrite reads a log and writes it again with a Writer: its header, log
// GUID and counter list (ConfigOf), then every sample's values.
func rewrite(t testing.TB, in []byte) []byte {
	t.Helper()
	r, err := NewReader(bytes.NewReader(in), int64(len(in)))
	if err != nil {
		t.Fatal(err)
	}
	var out fileBuffer
	w, err := NewWriter(&out, ConfigOf(r))
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		s := r.Sample()
		if err := w.WriteSample(s.TimeStamp, s.Values); err != nil {
			t.Fatalf("sample %d: %v", s.Index, err)
		}
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	if err := w.Close(r.Header().EndTime); err != nil {
		t.Fatal(err)
	}
	return out.b
}

// fileBuffer is an in-memory file: an io.Writer and an io.WriterAt.
type fileBuffer struct{ b []byte }

func (f *fileBuffer) Write(p []byte) (int, error) { f.b = append(f.b, p...); return len(p), nil }
func (f *fileBuffer) WriteAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > int64(len(f.b)) {
		return 0, errors.New("WriteAt beyond the end")
	}
	return copy(f.b[off:], p), nil
}

// writtenField names the field of a log that holds byte off: the fields
// that say when and by what a log was written (the WMI buffer header but
// for its BufferSize and Offset, the system trace header's version, thread
// and process ids and TRACE_LOGFILE_HEADER's two pointers, every event's
// thread and process ids and processor time, the counter list's time
// stamp), or "" for the others.
func writtenField(log []byte, off int) string {
	const bs = 1 << 16
	buf, p := off/bs, off%bs
	if p < BufferHeaderSize {
		switch {
		case p >= 0x04 && p < 0x08:
			return "WMI_BUFFER_HEADER+0x04 SavedOffset"
		case p >= 0x08 && p < 0x0C:
			return "WMI_BUFFER_HEADER+0x08 CurrentOffset"
		case p >= 0x10 && p < 0x18:
			return "WMI_BUFFER_HEADER+0x10 TimeStamp"
		case p >= 0x18 && p < 0x20:
			return "WMI_BUFFER_HEADER+0x18 SequenceNumber"
		case p >= 0x20 && p < 0x28:
			return "WMI_BUFFER_HEADER+0x20 ClockType/Frequency"
		case p >= 0x28 && p < 0x2C:
			return "WMI_BUFFER_HEADER+0x28 ClientContext"
		case p >= 0x2C && p < 0x30:
			return "WMI_BUFFER_HEADER+0x2C State"
		case p >= 0x34 && p < 0x38:
			return "WMI_BUFFER_HEADER+0x34 BufferFlag/BufferType"
		case p >= 0x38:
			return "WMI_BUFFER_HEADER+0x38 (pointers)"
		}
		return ""
	}
	base := buf * bs
	used := int(binary.LittleEndian.Uint32(log[base+0x30:]))
	for q := BufferHeaderSize; q < used; {
		ev := log[base+q:]
		var size int
		if ev[2] == traceHeaderSystem32 || ev[2] == traceHeaderSystem64 {
			size = int(binary.LittleEndian.Uint16(ev[4:]))
			ptr := 4 * int(ev[2])
			if r := p - q; r >= 0 && r < size {
				switch {
				case r < 2:
					return "SYSTEM_TRACE_HEADER+0 Version"
				case r >= 8 && r < 16:
					return "SYSTEM_TRACE_HEADER+8 ThreadId/ProcessId"
				case r >= systemHeaderSize+56 && r < systemHeaderSize+56+2*ptr:
					return "TRACE_LOGFILE_HEADER+56 LoggerName/LogFileName pointers"
				}
				return ""
			}
		} else {
			size = int(binary.LittleEndian.Uint16(ev[0:]))
			if r := p - q; r >= 0 && r < size {
				switch {
				case r >= 8 && r < 16:
					return "EVENT_TRACE_HEADER+8 ThreadId/ProcessId"
				case r >= 40 && r < 48:
					return "EVENT_TRACE_HEADER+40 KernelTime/UserTime"
				case r >= 16 && r < 24 && ev[4] == EventCounterList:
					return "counter list's EVENT_TRACE_HEADER+16 TimeStamp"
				}
				return ""
			}
		}
		q += (size + 7) &^ 7
	}
	return ""
}

// TestRewriteIdentity: each real PDH raw-counter log, rewritten, has the
// bytes of the original but in the fields that say when and by what it was
// written; and those are the fields doc/FORMATS.md §5.1 lists for it.
func TestRewriteIdentity(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fields []string
	}{
		{"Tx_BasicPerfCounters.blg", []string{
			"EVENT_TRACE_HEADER+40 KernelTime/UserTime",
			"EVENT_TRACE_HEADER+8 ThreadId/ProcessId",
			"SYSTEM_TRACE_HEADER+8 ThreadId/ProcessId",
			"WMI_BUFFER_HEADER+0x10 TimeStamp",
			"WMI_BUFFER_HEADER+0x38 (pointers)",
			"counter list's EVENT_TRACE_HEADER+16 TimeStamp",
		}},
		{"PowerShell_BadCounterSamples.blg", []string{
			"EVENT_TRACE_HEADER+40 KernelTime/UserTime",
			"EVENT_TRACE_HEADER+8 ThreadId/ProcessId",
			"SYSTEM_TRACE_HEADER+0 Version",
			"SYSTEM_TRACE_HEADER+8 ThreadId/ProcessId",
			"TRACE_LOGFILE_HEADER+56 LoggerName/LogFileName pointers",
			"WMI_BUFFER_HEADER+0x04 SavedOffset",
			"WMI_BUFFER_HEADER+0x08 CurrentOffset",
			"WMI_BUFFER_HEADER+0x10 TimeStamp",
			"WMI_BUFFER_HEADER+0x18 SequenceNumber",
			"WMI_BUFFER_HEADER+0x20 ClockType/Frequency",
			"WMI_BUFFER_HEADER+0x28 ClientContext",
			"WMI_BUFFER_HEADER+0x2C State",
			"WMI_BUFFER_HEADER+0x34 BufferFlag/BufferType",
			"WMI_BUFFER_HEADER+0x38 (pointers)",
			"counter list's EVENT_TRACE_HEADER+16 TimeStamp",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := readCorpus(t, tc.name)
			out := rewrite(t, in)
			if len(out) != len(in) {
				t.Fatalf("have %d bytes, want %d", len(out), len(in))
			}
			seen := map[string]bool{}
			for i := range in {
				if in[i] == out[i] {
					continue
				}
				f := writtenField(in, i)
				if f == "" {
					t.Fatalf("byte %#x: have %#x, want %#x (not a field that says when or by what the log was written)", i, out[i], in[i])
				}
				seen[f] = true
			}
			var have []string
			for f := range seen {
				have = append(have, f)
			}
			sort.Strings(have)
			if !slices.Equal(have, tc.fields) {
				t.Errorf("fields that differ:\nhave %s\nwant %s", strings.Join(have, "; "), strings.Join(tc.fields, "; "))
			}
			// And the rewrite reads back to the same samples.
			a, _ := NewReader(bytes.NewReader(in), int64(len(in)))
			b, _ := NewReader(bytes.NewReader(out), int64(len(out)))
			sa, sb := readAll(t, a), readAll(t, b)
			if len(sa) != len(sb) {
				t.Fatalf("have %d samples, want %d", len(sb), len(sa))
			}
			for i := range sa {
				if !sameSample(&sa[i], &sb[i]) {
					t.Fatalf("sample %d differs", i)
				}
			}
		})
	}
}

// testConfig is a small log's configuration: 1 KiB buffers, a single
// counter, a wildcard counter and a second single counter.
func testConfig() WriterConfig {
	return WriterConfig{
		Header: LogHeader{BufferSize: 1024, Version: 0x05010206, ProviderVersion: 9200, PerfFreq: 10_000_000,
			StartTime: 0x01ce0f150422df79, TimeZone: pacific, LoggerName: "logger", LogFileName: `C:\x.blg`},
		LogGUID: [16]byte{9, 8, 7},
		Counters: []CounterInfo{
			{Type: engine.CounterRawcount, Machine: `\\HOST`, Object: "Memory", Counter: "Available Bytes"},
			{Flags: 1, Type: engine.Timer100ns, TimeBase: 10_000_000, DefaultScale: -2, Machine: `\\HOST`, Object: "Processor", Instance: "*", Counter: "% Processor Time"},
			{Type: engine.CounterCounter, TimeBase: 3579545, Machine: `\\HOST`, Object: "Process", Instance: "svchost", Parent: "p\uFFFDd800", InstanceIndex: 2, Counter: "Handle Count"},
		},
	}
}

// testSamples returns n samples for testConfig: the wildcard entry's
// instances vary (none in some samples, names with an unpaired surrogate
// and a U+FFFD), the third entry is absent from every fifth sample.
func testSamples(n int) []Sample {
	var out []Sample
	names := []string{"0", "1", "_Total", "x\uFFFDdc00y", "\uFFFDfffd", ""}
	for i := range n {
		ts := int64(0x01ce0ed1f5ff8340 + i*10_000_000)
		s := Sample{TimeStamp: ts}
		s.Values = append(s.Values, Value{Counter: 0, Raw: engine.RawCounter{CStatus: uint32(i % 3), TimeStamp: ts, FirstValue: uint64(i) * 4096, SecondValue: 7, MultiCount: 1}})
		for k := range i % len(names) {
			s.Values = append(s.Values, Value{Counter: 1, Instance: []byte(names[k]), Raw: engine.RawCounter{CStatus: 0x800007D1 * uint32(i%2), TimeStamp: ts + 5, FirstValue: uint64(i*k) << 33, SecondValue: uint64(ts), MultiCount: uint32(k)}})
		}
		if i%5 != 4 {
			s.Values = append(s.Values, Value{Counter: 2, Raw: engine.RawCounter{TimeStamp: ts, FirstValue: 1 << 63, SecondValue: uint64(i), MultiCount: 1}})
		}
		out = append(out, s)
	}
	return out
}

func writeSamples(t testing.TB, w io.Writer, cfg WriterConfig, samples []Sample) error {
	t.Helper()
	wr, err := NewWriter(w, cfg)
	if err != nil {
		return err
	}
	for i := range samples {
		if err := wr.WriteSample(samples[i].TimeStamp, samples[i].Values); err != nil {
			return err
		}
	}
	return wr.Close(cfg.Header.StartTime + 1)
}

// sameValues reports whether two samples hold the same time stamp and
// values (counter, instance name, raw data).
func sameValues(a, b *Sample) bool {
	if a.TimeStamp != b.TimeStamp || len(a.Values) != len(b.Values) {
		return false
	}
	for i := range a.Values {
		va, vb := &a.Values[i], &b.Values[i]
		if va.Counter != vb.Counter || va.Raw != vb.Raw || !bytes.Equal(va.Instance, vb.Instance) {
			return false
		}
	}
	return true
}

// TestWriterRoundTrip: a log written reads back to its header, counter
// list and samples, over many buffers, with a record split over events.
func TestWriterRoundTrip(t *testing.T) {
	cfg := testConfig()
	want := testSamples(60)
	// One sample with many instances: larger than a buffer, split.
	big := Sample{TimeStamp: want[59].TimeStamp + 1}
	big.Values = append(big.Values, want[0].Values[0])
	for k := range 100 {
		big.Values = append(big.Values, Value{Counter: 1, Instance: []byte("instance " + itoa(int64(k))), Raw: engine.RawCounter{FirstValue: uint64(k)}})
	}
	want = append(want, big)
	for _, ptr := range []uint32{4, 8} {
		cfg.Header.PointerSize = ptr
		var out fileBuffer
		if err := writeSamples(t, &out, cfg, want); err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(out.b), int64(len(out.b)))
		if err != nil {
			t.Fatal(err)
		}
		h := r.Header()
		if h.PointerSize != ptr || h.BufferSize != 1024 || h.StartTime != cfg.Header.StartTime || h.EndTime != cfg.Header.StartTime+1 ||
			int(h.BuffersWritten) != len(out.b)/1024 || h.LoggerName != "logger" || h.LogFileName != `C:\x.blg` || h.TimeZone.StandardName != pacific.StandardName || h.TimeZone.DaylightDate != pacific.DaylightDate {
			t.Errorf("header: have %+v", *h)
		}
		if ConfigOf(r).LogGUID != cfg.LogGUID {
			t.Errorf("log GUID: have %x, want %x", ConfigOf(r).LogGUID, cfg.LogGUID)
		}
		cs := r.Counters()
		if len(cs) != len(cfg.Counters) {
			t.Fatalf("have %d counters, want %d", len(cs), len(cfg.Counters))
		}
		for i := range cs {
			a, b := &cs[i], &cfg.Counters[i]
			if a.Flags != b.Flags || a.Type != b.Type || a.TimeBase != b.TimeBase || a.DefaultScale != b.DefaultScale || a.Machine != b.Machine ||
				a.Object != b.Object || a.Instance != b.Instance || a.Parent != b.Parent || a.InstanceIndex != b.InstanceIndex || a.Counter != b.Counter {
				t.Errorf("counter %d: have %+v, want %+v", i, *a, *b)
			}
		}
		have := readAll(t, r)
		if len(have) != len(want) {
			t.Fatalf("have %d samples, want %d", len(have), len(want))
		}
		for i := range want {
			if !sameValues(&have[i], &want[i]) {
				t.Fatalf("sample %d: have %+v, want %+v", i, have[i].Values, want[i].Values)
			}
		}
	}
}

// failingWriter takes n bytes, then fails; the Write that crosses n writes
// the bytes up to n.
type failingWriter struct {
	b []byte
	n int
}

var errDiskFull = errors.New("disk full")

func (f *failingWriter) Write(p []byte) (int, error) {
	room := f.n - len(f.b)
	if len(p) <= room {
		f.b = append(f.b, p...)
		return len(p), nil
	}
	f.b = append(f.b, p[:max(room, 0)]...)
	return max(room, 0), errDiskFull
}

// TestWriterDamage: a log whose io.Writer fails after any number of bytes
// (a full disk, a killed process) reads up to its last whole buffer: the
// samples read are the first ones written, unchanged, and the cut is an
// error unless it falls between two buffers; the Writer reports the
// failure.
func TestWriterDamage(t *testing.T) {
	cfg := testConfig()
	samples := testSamples(12)
	full := &failingWriter{n: 1 << 30} // no WriteAt: the header is not set at Close
	if err := writeSamples(t, full, cfg, samples); err != nil {
		t.Fatal(err)
	}
	if len(full.b) < 6*1024 {
		t.Fatalf("have %d bytes, want a log of several buffers", len(full.b))
	}
	for n := 0; n < len(full.b); n++ {
		f := &failingWriter{n: n}
		if err := writeSamples(t, f, cfg, samples); !errors.Is(err, errDiskFull) {
			t.Fatalf("cut at %d: have error %v, want %v", n, err, errDiskFull)
		}
		if !bytes.Equal(f.b, full.b[:n]) {
			t.Fatalf("cut at %d: the prefix differs from the whole log's", n)
		}
		r, err := NewReader(bytes.NewReader(f.b), int64(len(f.b)))
		if err != nil {
			if n >= 2*1024 && n%1024 == 0 {
				t.Fatalf("cut at %d, between buffers: %v", n, err)
			}
			continue // nothing readable: the header or the list is cut
		}
		got, rerr := samplesOf(r)
		if len(got) > len(samples) {
			t.Fatalf("cut at %d: %d samples read, %d written", n, len(got), len(samples))
		}
		for i := range got {
			if !sameValues(&got[i], &samples[i]) {
				t.Fatalf("cut at %d: sample %d decodes to other values", n, i)
			}
		}
		if (rerr == nil) != (n%1024 == 0) {
			t.Fatalf("cut at %d: have error %v", n, rerr)
		}
		if rerr != nil && !errors.Is(rerr, engine.ErrTruncated) {
			t.Fatalf("cut at %d: have error %v, want ErrTruncated", n, rerr)
		}
	}
}

// TestWriterErrors: what a Writer refuses, with a clear error and before
// writing the sample.
func TestWriterErrors(t *testing.T) {
	cfg := testConfig()
	for _, tc := range []struct {
		name   string
		values []Value
		want   string
	}{
		{"two values without instances", []Value{{Counter: 0}, {Counter: 0}}, "without an instance name"},
		{"out of order", []Value{{Counter: 2}, {Counter: 0}}, "out of counter-list order"},
		{"beyond the list", []Value{{Counter: 3}}, "beyond the counter list"},
		{"mixed statuses", []Value{{Counter: 1, Instance: []byte("a"), Raw: engine.RawCounter{CStatus: 1}}, {Counter: 1, Instance: []byte("b")}}, "differ in CStatus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out fileBuffer
			w, err := NewWriter(&out, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteSample(1, tc.values); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("have %v, want an error with %q", err, tc.want)
			}
			if w.Samples() != 0 {
				t.Errorf("have %d samples, want 0", w.Samples())
			}
		})
	}
	for _, tc := range []struct {
		name string
		edit func(*WriterConfig)
		want string
	}{
		{"buffer size", func(c *WriterConfig) { c.Header.BufferSize = 1000 }, "BufferSize"},
		{"pointer size", func(c *WriterConfig) { c.Header.PointerSize = 2 }, "PointerSize"},
		{"zone name", func(c *WriterConfig) { c.Header.TimeZone.StandardName = strings.Repeat("z", 33) }, "exceeds 32"},
		{"whole object", func(c *WriterConfig) { c.Counters = []CounterInfo{{Flags: 0x10, Counter: "*"}} }, "whole object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testConfig()
			tc.edit(&c)
			var out fileBuffer
			w, err := NewWriter(&out, c)
			if err == nil {
				err = w.WriteSample(1, nil)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("have %v, want an error with %q", err, tc.want)
			}
		})
	}
	// After Close, and after an error of the io.Writer, nothing is written.
	var out fileBuffer
	w, _ := NewWriter(&out, cfg)
	if err := w.Close(0); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteSample(1, nil); !errors.Is(err, ErrWriterClosed) {
		t.Errorf("after Close: have %v, want ErrWriterClosed", err)
	}
}

// TestWriterFlush: Flush puts each sample in whole buffers at once (a live
// log), Close after a Flush adds no empty buffer, and every whole-buffer
// prefix reads to the samples flushed before its end.
func TestWriterFlush(t *testing.T) {
	cfg := testConfig()
	samples := testSamples(6)
	out := &failingWriter{n: 1 << 30}
	w, err := NewWriter(out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil { // the counter list alone
		t.Fatal(err)
	}
	ends := []int{len(out.b)}
	for i := range samples {
		if err := w.WriteSample(samples[i].TimeStamp, samples[i].Values); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if len(out.b) == ends[len(ends)-1] || len(out.b)%1024 != 0 {
			t.Fatalf("sample %d: the output has %d bytes after Flush, want more whole buffers", i, len(out.b))
		}
		ends = append(ends, len(out.b))
	}
	if err := w.Flush(); err != nil || len(out.b) != ends[len(ends)-1] {
		t.Fatalf("an empty Flush wrote: %v, %d bytes", err, len(out.b))
	}
	if err := w.Close(0); err != nil || len(out.b) != ends[len(ends)-1] {
		t.Fatalf("Close after Flush: %v, %d bytes, want %d", err, len(out.b), ends[len(ends)-1])
	}
	for k, end := range ends {
		r, err := NewReader(bytes.NewReader(out.b[:end]), int64(end))
		if err != nil {
			t.Fatal(err)
		}
		got := readAll(t, r)
		if len(got) != k {
			t.Fatalf("prefix of %d bytes: %d samples, want %d", end, len(got), k)
		}
		for i := range got {
			if !sameValues(&got[i], &samples[i]) {
				t.Fatalf("prefix of %d bytes: sample %d differs", end, i)
			}
		}
	}
}
