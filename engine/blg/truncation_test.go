package blg

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
)

// checkCut reads data (a log cut short, or whole) with both entry points
// and checks: no panic; every error a FormatError naming an offset; the
// samples read are a prefix of full; a cut inside a buffer ends with
// ErrTruncated; a cut at a buffer boundary ends with ErrTruncated when the
// header counts the buffers (want is the whole log's length; 0 when the
// header does not count them: the cut may then end cleanly, or with a
// split record's ErrTruncated).
func checkCut(t *testing.T, data []byte, full []Sample, bufSize, want int) {
	t.Helper()
	for _, stream := range []bool{false, true} {
		r, err := openEither(data, stream)
		if err != nil {
			var fe *engine.FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), " at 0x") {
				t.Fatalf("cut at %#x (stream %v): have %v, want a FormatError", len(data), stream, err)
			}
			continue
		}
		n := 0
		for r.Next() {
			s := r.Sample()
			if n >= len(full) || !bytes.Equal(s.Record, full[n].Record) || s.TimeStamp != full[n].TimeStamp {
				t.Fatalf("cut at %#x (stream %v): sample %d differs from the whole log's", len(data), stream, n)
			}
			n++
		}
		err = r.Err()
		switch {
		case err == nil:
			if len(data)%bufSize != 0 || len(data) < want {
				t.Fatalf("cut at %#x (stream %v) of a %#x-byte log: have no error after %d samples, want ErrTruncated", len(data), stream, want, n)
			}
		case !errors.Is(err, engine.ErrTruncated) || !strings.Contains(err.Error(), " at 0x"):
			t.Fatalf("cut at %#x (stream %v): have %v, want ErrTruncated", len(data), stream, err)
		}
	}
}

// openEither opens data with NewStreamReader or with NewReader.
func openEither(data []byte, stream bool) (*Reader, error) {
	if stream {
		return NewStreamReader(bytes.NewReader(data))
	}
	return NewReader(bytes.NewReader(data), int64(len(data)))
}

func cuts(size, bufSize, step int) []int {
	var out []int
	for c := 0; c <= BufferHeaderSize+1; c++ {
		out = append(out, c)
	}
	for c := bufSize; c <= size; c += bufSize {
		out = append(out, c-1, c, c+1)
	}
	for c := 0; c < size; c += step {
		out = append(out, c)
	}
	return out
}

func TestTruncation(t *testing.T) {
	t.Run("hand-made", func(t *testing.T) {
		data := testLog(40, 1024, 100)
		full := readAll(t, open(t, data))
		if len(full) != 40 {
			t.Fatalf("have %d samples, want 40", len(full))
		}
		for _, c := range cuts(len(data), 1024, 7) {
			if c <= len(data) {
				checkCut(t, data[:c], full, 1024, 0)
			}
		}
	})
	for _, name := range []string{"PAL_SamplePerfmonLog.blg", "Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg"} {
		t.Run(name, func(t *testing.T) {
			data := readCorpus(t, name)
			full := readAll(t, open(t, data))
			for _, c := range cuts(len(data), 0x10000, 997) {
				if c <= len(data) {
					checkCut(t, data[:c], full, 0x10000, len(data))
				}
			}
		})
	}
}

// TestCutAtBufferBoundary: a log cut between two buffers is shorter than
// its header's BuffersWritten says: the samples before the cut are read,
// then an ErrTruncated names the missing buffers and where the log ends.
// (Issue 12: head -c 196608 of the Tx log gave 248 of 601 samples without
// a word, and PAL cut at 65,536 or 131,072 bytes gave no sample and no
// error.)
func TestCutAtBufferBoundary(t *testing.T) {
	for _, tc := range []struct {
		log     string
		cut     int
		samples int // −1: NewReader fails (the counter list is not complete)
		text    string
	}{
		{"Tx_BasicPerfCounters.blg", 196608, 248, "blg: buffer 3 at 0x30000: missing: the log ends here: 3 of the 6 buffers that its header counts (BuffersWritten) are whole"},
		{"PAL_SamplePerfmonLog.blg", 65536, -1, "blg: buffer 1 at 0x10000: missing: the log ends here: 1 of the 7 buffers"},
		{"PAL_SamplePerfmonLog.blg", 131072, -1, "blg: buffer 2 at 0x20000: missing: the log ends here: 2 of the 7 buffers"},
		{"Tx_BasicPerfCounters.blg", 196608 + 1000, 248, "blg: buffer 3 at 0x30000: log ends at 0x303e8, 64536 bytes before the end of the buffer: 3 of the 6 buffers"},
	} {
		data := readCorpus(t, tc.log)[:tc.cut]
		for _, stream := range []bool{false, true} {
			r, err := openEither(data, stream)
			n := 0
			if err == nil {
				for r.Next() {
					n++
				}
				err = r.Err()
			} else {
				n = -1
			}
			if n != tc.samples || !errors.Is(err, engine.ErrTruncated) || !strings.HasPrefix(err.Error(), tc.text) {
				t.Errorf("%s cut at %d (stream %v): %d samples, %v; want %d samples, %q", tc.log, tc.cut, stream, n, err, tc.samples, tc.text)
			}
		}
	}
}

// TestDamagedHeaders: a damaged buffer, event or record header is refused
// with an error that names the structure, the field and the offset, after
// the samples before it.
func TestDamagedHeaders(t *testing.T) {
	for _, tc := range []struct {
		name   string
		log    string
		at     int
		bytes  []byte
		record string
		field  string
		err    error
		offset int64 // of the error; −1: not checked
		before int64 // the samples before this file offset are still read; −1: open fails
	}{
		{"buffer 0 size", "Tx", 0, []byte{0x45, 0x23, 0x01, 0}, "WMI_BUFFER_HEADER", "BufferSize", engine.ErrMalformed, 0, -1},
		{"buffer 0 offset", "Tx", 0x30, []byte{0, 0, 2, 0}, "WMI_BUFFER_HEADER", "Offset", engine.ErrMalformed, 0x30, -1},
		{"marker", "Tx", 0x4A, []byte{7}, "SYSTEM_TRACE_HEADER", "Marker", engine.ErrMalformed, 0x48, -1},
		{"system header small", "Tx", 0x4C, []byte{0x10, 0}, "SYSTEM_TRACE_HEADER", "Size", engine.ErrMalformed, 0x4C, -1},
		{"system header large", "Tx", 0x4C, []byte{0xFF, 0xFF}, "SYSTEM_TRACE_HEADER", "Size", engine.ErrMalformed, 0x4C, -1},
		{"log header buffer size", "Tx", 0x68, []byte{0, 0x80, 0, 0}, "TRACE_LOGFILE_HEADER", "BufferSize", engine.ErrMalformed, 0x68, -1},
		{"pointer size", "Tx", 0x68 + 44, []byte{4}, "TRACE_LOGFILE_HEADER", "PointerSize", engine.ErrMalformed, 0x68 + 44, -1},
		{"buffer 1 size", "Tx", 0x10000, []byte{0, 0, 2, 0}, "WMI_BUFFER_HEADER", "BufferSize", engine.ErrMalformed, 0x10000, -1},
		{"counter list entry", "Tx", 0x10098, []byte{0xFF, 0xFF}, "counter list entry", "Size", engine.ErrMalformed, 0x10098, -1},
		{"buffer 3 size", "Tx", 0x30000, []byte{0, 0x80, 0, 0}, "WMI_BUFFER_HEADER", "BufferSize", engine.ErrMalformed, 0x30000, 0x30000},
		{"buffer 3 offset", "Tx", 0x30030, []byte{0x10, 0}, "WMI_BUFFER_HEADER", "Offset", engine.ErrMalformed, 0x30030, 0x30000},
		{"event header type", "Tx", 0x30048 + 2, []byte{0x33}, "EVENT_TRACE_HEADER", "HeaderType", engine.ErrUnsupported, 0x30048 + 2, 0x30000},
		{"event marker", "Tx", 0x30048 + 3, []byte{0}, "EVENT_TRACE_HEADER", "MarkerFlags", engine.ErrMalformed, 0x30048, 0x30000},
		{"event size large", "Tx", 0x30048, []byte{0xF0, 0xFF}, "EVENT_TRACE_HEADER", "Size", engine.ErrMalformed, 0x30048, 0x30000},
		{"event size small", "Tx", 0x30048, []byte{0x10, 0}, "EVENT_TRACE_HEADER", "Size", engine.ErrMalformed, 0x30048, 0x30000},
		{"part index", "Tx", 0x30048 + 64, []byte{5}, "PDH event", "PartIndex", engine.ErrMalformed, 0x30048 + 64, 0x30000},
		{"sample signature", "Tx", 0x30048 + 72, []byte{'X'}, "sample record", "Signature", engine.ErrMalformed, 0x30048 + 72, 0x30000},
		{"raw sub-record size", "Tx", 0x30048 + 72 + 15, []byte{0x7F}, "sub-record", "Size", engine.ErrMalformed, 0x30048 + 72 + 12, 0x30000},
		{"split part missing", "PAL", 0x33df0 + 64, []byte{3}, "split record", "PartIndex", engine.ErrMalformed, 0x33df0, 0x31e68},
		{"split block signature", "PAL", 0x31e68 + 72 + 16, []byte{'Q'}, "PERF_DATA_BLOCK", "Signature", engine.ErrMalformed, 0x31e68 + 72 + 16, 0x31e68},
		// The same on a hand-made log (1 KiB buffers, one event per record),
		// which runs where the real logs are absent.
		{"hand: buffer 0 size", "hand", 0, []byte{0x00, 0x04, 0x20}, "WMI_BUFFER_HEADER", "BufferSize", engine.ErrMalformed, 0, -1},
		{"hand: buffer 0 offset", "hand", 0x30, []byte{0x08, 0x04}, "WMI_BUFFER_HEADER", "Offset", engine.ErrMalformed, 0x30, -1},
		{"hand: marker", "hand", 0x4A, []byte{0x0A}, "SYSTEM_TRACE_HEADER", "Marker", engine.ErrMalformed, 0x48, -1},
		{"hand: log header buffer size", "hand", 0x68, []byte{0, 8}, "TRACE_LOGFILE_HEADER", "BufferSize", engine.ErrMalformed, 0x68, -1},
		{"hand: pointer size", "hand", 0x68 + 44, []byte{8}, "TRACE_LOGFILE_HEADER", "PointerSize", engine.ErrMalformed, 0x68 + 44, -1},
		{"hand: buffer 3 size", "hand", 3 * 1024, []byte{0, 8}, "WMI_BUFFER_HEADER", "BufferSize", engine.ErrMalformed, 3 * 1024, 3 * 1024},
		{"hand: buffer 3 offset", "hand", 3*1024 + 0x30, []byte{0x08, 0x08}, "WMI_BUFFER_HEADER", "Offset", engine.ErrMalformed, 3*1024 + 0x30, 3 * 1024},
		{"hand: event header type", "hand", 3*1024 + 0x48 + 2, []byte{0x13}, "EVENT_TRACE_HEADER", "HeaderType", engine.ErrUnsupported, 3*1024 + 0x48 + 2, 3 * 1024},
		{"hand: part index", "hand", 3*1024 + 0x48 + 64, []byte{0xFF}, "PDH event", "PartIndex", engine.ErrMalformed, 3*1024 + 0x48 + 64, 3 * 1024},
		{"hand: sample size", "hand", 3*1024 + 0x48 + 72 + 7, []byte{0x80}, "sample record", "Size", engine.ErrMalformed, 3*1024 + 0x48 + 72 + 4, 3 * 1024},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var orig []byte
			if tc.log == "hand" {
				orig = testLog(10, 1024, 1<<20)
			} else {
				orig = readCorpus(t, map[string]string{"Tx": "Tx_BasicPerfCounters.blg", "PAL": "PAL_SamplePerfmonLog.blg"}[tc.log])
			}
			full := readAll(t, open(t, orig))
			data := bytes.Clone(orig)
			copy(data[tc.at:], tc.bytes)
			r, err := NewReader(bytes.NewReader(data), int64(len(data)))
			if tc.before < 0 {
				fe := checkFormatError(t, err, tc.record, tc.field, tc.err)
				if tc.offset >= 0 && fe.Offset != tc.offset {
					t.Errorf("have offset %#x, want %#x: %v", fe.Offset, tc.offset, err)
				}
				t.Log(err)
				return
			}
			if err != nil {
				t.Fatalf("NewReader: %v", err)
			}
			n := 0
			for r.Next() {
				n++
			}
			fe := checkFormatError(t, r.Err(), tc.record, tc.field, tc.err)
			if tc.offset >= 0 && fe.Offset != tc.offset {
				t.Errorf("have offset %#x, want %#x: %v", fe.Offset, tc.offset, r.Err())
			}
			want := 0
			for _, s := range full {
				if s.Offset < tc.before {
					want++
				}
			}
			if n != want || n == 0 {
				t.Errorf("have %d samples before the damage, want %d", n, want)
			}
			t.Log(r.Err())
		})
	}
}
