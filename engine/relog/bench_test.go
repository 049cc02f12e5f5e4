package relog

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkCSV reads and converts each real log to CSV (both readings of
// the log, the text written to io.Discard). MB/s is of the .blg;
// allocs/sample divides the allocations by the log's samples.
func BenchmarkCSV(b *testing.B) {
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"} {
		b.Run(name, func(b *testing.B) {
			log := readCorpus(b, name)
			b.ReportAllocs()
			b.SetBytes(int64(len(log)))
			samples := 0
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			for i := 0; i < b.N; i++ {
				c, err := New(bytes.NewReader(log), int64(len(log)), Options{})
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Write(io.Discard, CSV); err != nil {
					b.Fatal(err)
				}
				samples, _, _ = c.Samples()
			}
			runtime.ReadMemStats(&ms1)
			b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(b.N)/float64(samples), "allocs/sample")
		})
	}
}

// txLog serves a log of several hundred MB made from the real Tx log: its
// first two buffers (header, counter list, first samples) once, then its
// other buffers repeated, each copy's events shifted in time and its
// buffers renumbered, so that time stamps keep increasing. It is served
// from memory, buffer by buffer, and never exists as a whole.
type txLog struct {
	head    []byte   // buffers 0 and 1
	body    [][]byte // buffers 2 …
	span    int64    // time covered by one copy of the body, in 100 ns
	copies  int64
	scratch []byte
	cached  int64 // index of the buffer in scratch, or −1
}

func newTxLog(t testing.TB, copies int64) *txLog {
	log := readCorpus(t, "Tx_BasicPerfCounters.blg")
	if len(log)%bufSize != 0 || len(log) < 4*bufSize {
		t.Fatalf("unexpected Tx log size %d", len(log))
	}
	l := &txLog{head: log[:2*bufSize], copies: copies, scratch: make([]byte, bufSize), cached: -1}
	for off := 2 * bufSize; off < len(log); off += bufSize {
		l.body = append(l.body, log[off:off+bufSize])
	}
	first, last := eventTimes(l.body[0]), eventTimes(l.body[len(l.body)-1])
	l.span = last[len(last)-1] - first[0] + ticksPerSecond
	return l
}

// eventTimes returns the time stamps of the PDH events of a buffer.
func eventTimes(buf []byte) []int64 {
	var ts []int64
	end := int(le.Uint32(buf[0x30:]))
	for p := bufHeader; p+eventHeader <= end; {
		size := int(le.Uint16(buf[p:]))
		if size < eventHeader {
			break
		}
		ts = append(ts, int64(le.Uint64(buf[p+16:])))
		p += (size + 7) &^ 7
	}
	return ts
}

func (l *txLog) size() int64 { return int64(len(l.head)) + l.copies*int64(len(l.body))*bufSize }

// buffer returns buffer i of the log (i ≥ 2), patched.
func (l *txLog) buffer(i int64) []byte {
	if i == l.cached {
		return l.scratch
	}
	k := i - 2
	n := int64(len(l.body))
	b := l.scratch
	copy(b, l.body[k%n])
	shift := (k / n) * l.span
	le.PutUint64(b[0x18:], uint64(i))
	end := int(le.Uint32(b[0x30:]))
	for p := bufHeader; p+eventHeader <= end; {
		size := int(le.Uint16(b[p:]))
		if size < eventHeader {
			break
		}
		le.PutUint64(b[p+16:], le.Uint64(b[p+16:])+uint64(shift))
		p += (size + 7) &^ 7
	}
	l.cached = i
	return b
}

func (l *txLog) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		if off >= l.size() {
			return n, io.EOF
		}
		var src []byte
		if off < int64(len(l.head)) {
			src = l.head[off:]
		} else {
			src = l.buffer(off / bufSize)[off%bufSize:]
		}
		c := copy(p[n:], src)
		n += c
		off += int64(c)
	}
	return n, nil
}

// TestPeakMemory converts a log of about 400 MB made from the Tx log's
// buffers to CSV into io.Discard and reports the peak heap in use, the
// total allocated and the process's maximum resident set. It is kept out of
// the default run (it takes several seconds); run it with
//
//	PERFCALC_MEMTEST=1 go test -run PeakMemory -v ./engine/relog
func TestPeakMemory(t *testing.T) {
	if os.Getenv("PERFCALC_MEMTEST") == "" {
		t.Skip("set PERFCALC_MEMTEST=1 to measure the memory of converting a 400 MB log")
	}
	copies := int64(1600) // 1600 copies of 4 buffers of 64 KiB: 400 MiB
	if s := os.Getenv("PERFCALC_MEMTEST_COPIES"); s != "" {
		copies, _ = strconv.ParseInt(s, 10, 64)
	}
	log := newTxLog(t, copies)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
		}
	}()
	start := time.Now()
	c, err := New(log, log.size(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var w countingWriter
	if err := c.Write(&w, CSV); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	close(stop)
	<-done
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	n, _, _ := c.Samples()
	if want := 100 * int(copies); n < want {
		t.Errorf("have %d samples, want more than %d", n, want)
	}
	t.Logf("log %d MiB, %d samples, %d columns, CSV %d MiB, %v (%.0f MB/s)", log.size()>>20, n, len(c.Columns()), w.n>>20, elapsed.Round(time.Millisecond), float64(log.size())/elapsed.Seconds()/1e6)
	t.Logf("heap in use before %d KiB, peak %d KiB; total allocated %d KiB (%.2f allocations per sample); max RSS %s",
		before.HeapInuse>>10, peak.Load()>>10, (after.TotalAlloc-before.TotalAlloc)>>10, float64(after.Mallocs-before.Mallocs)/float64(n), maxRSS())
	if peak.Load() > 64<<20 {
		t.Errorf("peak heap in use %d MiB, want under 64 MiB", peak.Load()>>20)
	}
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// maxRSS reads the process's peak resident set from /proc where there is
// one.
func maxRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("VmHWM:")) {
			return string(bytes.TrimSpace(line[len("VmHWM:"):]))
		}
	}
	return "unknown"
}
