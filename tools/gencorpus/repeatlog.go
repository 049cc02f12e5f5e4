package gencorpus

import (
	"encoding/binary"
	"errors"
	"io"
)

// Layout of the .blg logs RepeatedLog repeats (doc/FORMATS.md §5): 64 KiB ETW
// buffers, each a 0x48-byte WMI_BUFFER_HEADER (its sequence number at 0x18,
// the end of its events at 0x30) followed by 8-aligned events with a 48-byte
// header (size at 0, time stamp at 16).
const (
	blgBufferSize  = 0x10000
	blgBufHeader   = 0x48
	blgEventHeader = 48
	ticksPerSecond = 10_000_000
)

// RepeatedLog is a .blg log of any size made from a real one: the first two
// buffers of the original (header, counter list, first samples) once, then
// its other buffers over and over, each copy's events shifted in time and its
// buffers renumbered, so that the time stamps keep increasing. It is served
// buffer by buffer through ReadAt and never needs to exist as a whole
// (Bytes makes it do so).
type RepeatedLog struct {
	head    []byte   // buffers 0 and 1
	body    [][]byte // buffers 2 …
	span    int64    // time covered by one copy of the body, in 100 ns
	copies  int64
	scratch []byte
	cached  int64 // index of the buffer in scratch, or −1
}

// NewRepeatedLog returns log (a .blg of 64 KiB buffers, at least four)
// with its body repeated copies times.
func NewRepeatedLog(log []byte, copies int64) (*RepeatedLog, error) {
	if len(log)%blgBufferSize != 0 || len(log) < 4*blgBufferSize || copies < 1 {
		return nil, errors.New("gencorpus: a repeated log needs a log of at least four 64 KiB buffers and one copy or more")
	}
	l := &RepeatedLog{head: log[:2*blgBufferSize], copies: copies, scratch: make([]byte, blgBufferSize), cached: -1}
	for off := 2 * blgBufferSize; off < len(log); off += blgBufferSize {
		l.body = append(l.body, log[off:off+blgBufferSize])
	}
	first, last := eventTimes(l.body[0]), eventTimes(l.body[len(l.body)-1])
	if len(first) == 0 || len(last) == 0 {
		return nil, errors.New("gencorpus: the log's first or last buffer holds no event")
	}
	l.span = last[len(last)-1] - first[0] + ticksPerSecond
	return l, nil
}

// eventTimes returns the time stamps of the events of a buffer.
func eventTimes(buf []byte) []int64 {
	var ts []int64
	end := min(int(binary.LittleEndian.Uint32(buf[0x30:])), len(buf))
	for p := blgBufHeader; p+blgEventHeader <= end; {
		size := int(binary.LittleEndian.Uint16(buf[p:]))
		if size < blgEventHeader {
			break
		}
		ts = append(ts, int64(binary.LittleEndian.Uint64(buf[p+16:])))
		p += (size + 7) &^ 7
	}
	return ts
}

// Size returns the log's size in bytes.
func (l *RepeatedLog) Size() int64 {
	return int64(len(l.head)) + l.copies*int64(len(l.body))*blgBufferSize
}

// buffer returns buffer i of the log (i ≥ 2), patched.
func (l *RepeatedLog) buffer(i int64) []byte {
	if i == l.cached {
		return l.scratch
	}
	k := i - 2
	n := int64(len(l.body))
	b := l.scratch
	copy(b, l.body[k%n])
	shift := (k / n) * l.span
	le := binary.LittleEndian
	le.PutUint64(b[0x18:], uint64(i))
	end := min(int(le.Uint32(b[0x30:])), len(b))
	for p := blgBufHeader; p+blgEventHeader <= end; {
		size := int(le.Uint16(b[p:]))
		if size < blgEventHeader {
			break
		}
		le.PutUint64(b[p+16:], le.Uint64(b[p+16:])+uint64(shift))
		p += (size + 7) &^ 7
	}
	l.cached = i
	return b
}

// ReadAt reads the log's bytes at off (io.ReaderAt).
func (l *RepeatedLog) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		if off >= l.Size() {
			return n, io.EOF
		}
		var src []byte
		if off < int64(len(l.head)) {
			src = l.head[off:]
		} else {
			src = l.buffer(off / blgBufferSize)[off%blgBufferSize:]
		}
		c := copy(p[n:], src)
		n += c
		off += int64(c)
	}
	return n, nil
}

// Bytes returns the whole log.
func (l *RepeatedLog) Bytes() []byte {
	b := make([]byte, l.Size())
	l.ReadAt(b, 0)
	return b
}
