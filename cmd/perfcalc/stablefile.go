package main

import (
	"hash/maphash"
	"io"
	"strconv"
	"sync"
)

// A log file is read twice (engine/relog: once for its columns, once for
// its rows), and a log that changes in between (a circular perfmon log
// rewrites itself in place) would give rows that the first reading did not
// prepare columns for: their values would be lost. stableLog checks that
// every piece of the file that the second reading reads again is as the
// first reading saw it, and fails the read otherwise.

// betweenReadings, when set (by tests), runs after openLogs has read its
// logs once, before the second reading.
var betweenReadings func()

// stableLog is a log file read through io.ReaderAt in two readings: while
// recording (the first), it keeps a checksum of each piece read, by offset;
// then (see verify) each piece read again at the same offset and length
// must have the same bytes, or ReadAt fails with a *logChangedError. Its
// memory is one small entry per piece of the first reading (a 64 KiB
// buffer of the log in every real log).
type stableLog struct {
	r io.ReaderAt

	mu        sync.Mutex
	verifying bool
	seen      map[int64]pieceSum
}

// pieceSum is what the first reading saw at an offset.
type pieceSum struct {
	want, n int // bytes asked for, bytes read
	sum     uint64
}

// stableSeed seeds the checksums of a run.
var stableSeed = maphash.MakeSeed()

func newStableLog(r io.ReaderAt) *stableLog {
	return &stableLog{r: r, seen: map[int64]pieceSum{}}
}

// ReadAt reads as r does, recording or checking what it read.
func (s *stableLog) ReadAt(p []byte, off int64) (int, error) {
	n, err := s.r.ReadAt(p, off)
	sum := maphash.Bytes(stableSeed, p[:n])
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.verifying {
		s.seen[off] = pieceSum{len(p), n, sum}
		return n, err
	}
	if was, ok := s.seen[off]; ok && was.want == len(p) && (was.n != n || was.sum != sum) {
		return 0, &logChangedError{off: off, was: was.n, now: n}
	}
	return n, err
}

// verify ends the first reading: from now on, what is read again must be
// as it was.
func (s *stableLog) verify() {
	s.mu.Lock()
	s.verifying = true
	s.mu.Unlock()
}

// logChangedError reports a log whose bytes at off differ between the two
// readings.
type logChangedError struct {
	off      int64
	was, now int // bytes read at off by each reading
}

func (e *logChangedError) Error() string {
	b := []byte("the log changed while perfcalc read it (a circular log being written?): the ")
	b = strconv.AppendInt(b, int64(e.was), 10)
	b = append(b, " bytes at 0x"...)
	b = strconv.AppendInt(b, e.off, 16)
	if e.now != e.was {
		b = append(b, " are "...)
		b = strconv.AppendInt(b, int64(e.now), 10)
		b = append(b, " bytes now"...)
	} else {
		b = append(b, " differ between its two readings"...)
	}
	b = append(b, "; read a copy of it, or the log once its collector has stopped"...)
	return string(b)
}
