package blg

import (
	"io"
	"runtime"
	"testing"
)

// bigLog is a log of 1+n buffers of 64 KiB, made of one buffer with the
// header and counter list and n copies of one buffer of samples, served
// without ever existing in memory as a whole.
type bigLog struct {
	head, body []byte
	n          int64
	off        int64 // for Read
}

func newBigLog(n int64) (*bigLog, int) {
	l := newLog(0x10000, pacific)
	l.record(EventCounterList, 0, encodeCounterList(testEntries...), 1<<20)
	l.flush()
	samples := 0
	for len(l.cur) < 0x10000-1024 {
		l.record(EventSample, 1, encodeSample(encodeRaw(0, 1, 2, 3, 1), encodeMulti(0, 1, itemSpec{"0", 1, 2, 0}, itemSpec{"_Total", 1, 2, 0})), 1<<20)
		samples++
	}
	l.flush()
	return &bigLog{head: l.bufs[0], body: l.bufs[1], n: n}, samples
}

func (b *bigLog) size() int64 { return (1 + b.n) * 0x10000 }

func (b *bigLog) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		if off >= b.size() {
			return n, io.EOF
		}
		buf := b.body
		if off < 0x10000 {
			buf = b.head
		}
		c := copy(p[n:], buf[off%0x10000:])
		n += c
		off += int64(c)
	}
	return n, nil
}

func (b *bigLog) Read(p []byte) (int, error) {
	n, err := b.ReadAt(p, b.off)
	b.off += int64(n)
	if n > 0 && err == io.EOF {
		err = nil
	}
	return n, err
}

// TestStreamingMemory: reading a 256 MiB log allocates about as much as
// reading a small one: one buffer, the counter list, the reused sample
// slices.
func TestStreamingMemory(t *testing.T) {
	const buffers = 4096 // 256 MiB
	for _, stream := range []bool{false, true} {
		log, perBuffer := newBigLog(buffers)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var r *Reader
		var err error
		if stream {
			r, err = NewStreamReader(log)
		} else {
			r, err = NewReader(log, log.size())
		}
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for r.Next() {
			n++
		}
		runtime.ReadMemStats(&after)
		if r.Err() != nil || n != perBuffer*buffers {
			t.Fatalf("stream %v: have %d samples, error %v; want %d", stream, n, r.Err(), perBuffer*buffers)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
			t.Errorf("stream %v: reading %d MiB allocated %d bytes, want under 1 MiB", stream, log.size()>>20, alloc)
		} else {
			t.Logf("stream %v: %d samples of %d MiB, %d bytes allocated", stream, n, log.size()>>20, alloc)
		}
	}
}
