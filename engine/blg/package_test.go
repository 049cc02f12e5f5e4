package blg

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/importban"
)

// TestImports: the package imports only the standard library (without fmt
// and os, which would bloat the WebAssembly module) and perfcalc's engine.
func TestImports(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

// TestSizes pins the sizes of the on-disk structures.
func TestSizes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		have, want int
	}{
		{"WMI buffer header", BufferHeaderSize, 0x48},
		{"SYSTEM_TRACE_HEADER", systemHeaderSize, 32},
		{"TRACE_LOGFILE_HEADER 32-bit", logFileHeaderFixed32, 0x110},
		{"TRACE_LOGFILE_HEADER 64-bit", logFileHeaderFixed64, 0x118},
		{"TIME_ZONE_INFORMATION", timeZoneSize, 172},
		{"EVENT_TRACE_HEADER", eventHeaderSize, 48},
		{"PDH part header", partHeaderSize, 24},
		{"PDH_RAW_COUNTER", rawCounterSize, 40},
		{"counter list entry", counterEntryHeaderSize, 52},
		{"PERF_DATA_BLOCK", perfDataBlock, 88},
		{"SystemTime", int(unsafe.Sizeof(wintype.SystemTime{})), 16},
	} {
		if tc.have != tc.want {
			t.Errorf("%s: have %d bytes, want %d", tc.name, tc.have, tc.want)
		}
	}
}

// TestAllocs: after warm-up, reading a sample allocates nothing, with both
// entry points, for raw-value records and for split whole-object records.
func TestAllocs(t *testing.T) {
	logs := map[string][]byte{"hand-made": testLog(300, 1024, 100)}
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg"} {
		if dir := corpusDir(); dir != "" {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				logs[name] = b
			}
		}
	}
	for name, data := range logs {
		for _, stream := range []bool{false, true} {
			r, err := openEither(data, stream)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for n < 3 && r.Next() {
				n++
			}
			runs := 100
			if name == "PAL_SamplePerfmonLog.blg" {
				runs = 6
			}
			allocs := testing.AllocsPerRun(runs, func() {
				if !r.Next() {
					t.Fatalf("%s: Next false: %v", name, r.Err())
				}
			})
			if allocs != 0 {
				t.Errorf("%s (stream %v): have %v allocations per sample, want 0", name, stream, allocs)
			}
		}
	}
}

// corpusDir returns ../shared/corpus/blg beside the project, or "" (the
// allocation gate then runs on the hand-made log only).
func corpusDir() string {
	root := corpus.Root()
	if root == "" {
		return ""
	}
	dir := filepath.Join(filepath.Dir(root), "shared", "corpus", "blg")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// BenchmarkRead reads every sample of each real log (the largest are
// 448 KiB) and of a hand-made log of 2000 samples in 1 KiB buffers with
// records split into 100-byte parts. Allocations per op include opening
// the log (its buffer, counter list and name table); Next itself allocates
// nothing after warm-up (TestAllocs).
func BenchmarkRead(b *testing.B) {
	type log struct {
		name string
		data []byte
	}
	logs := []log{{"hand-made", testLog(2000, 1024, 100)}}
	if dir := corpusDir(); dir != "" {
		for _, name := range []string{"PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg", "Tx_BasicPerfCounters.blg"} {
			if d, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				logs = append(logs, log{name, d})
			}
		}
	}
	for _, l := range logs {
		b.Run(l.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(l.data)))
			samples := 0
			for i := 0; i < b.N; i++ {
				r, err := NewReader(bytes.NewReader(l.data), int64(len(l.data)))
				if err != nil {
					b.Fatal(err)
				}
				for r.Next() {
					samples++
				}
				if r.Err() != nil {
					b.Fatal(r.Err())
				}
			}
			b.ReportMetric(float64(samples)/float64(b.N), "samples/op")
		})
	}
}
