package blg

import "io"

// Split divides the samples that r has still to yield into up to n
// readers over consecutive ranges of the log's buffers, so that they can
// be read in parallel (one goroutine per reader): reading every part to
// its end, in order, yields the same samples and meets the same damage as
// reading r on alone. r itself becomes the first part. A record belongs to
// the part in whose buffers its first event lies; a part reads on past its
// range to finish its last record, and skips the parts of a record that
// began before its range. Each part holds a buffer and a record of its
// own; the counter list is shared, read-only.
//
// Split needs random access (NewReader), and returns r alone in the
// WebAssembly module (which has one thread), for a stream,
// for n < 2, after Next has started, and for logs too short to divide
// (parts of at least 4 MiB).
//
// # Notes
//
//   - A part's Sample.Index counts from 0 at its first sample: the parts'
//     counts add up to the log's. So does the index in a part's errors
//     that name a "sample record" (the file offsets are the log's).
//   - A part whose range holds no sample yields none; a damage within a
//     part's range ends that part, and the parts after it should then be
//     disregarded, as reading r alone would have stopped there.
//   - Parts other than the first have no name table and meet no trailer
//     but their own: read those from r.
func (r *Reader) Split(n int) []*Reader {
	parts := []*Reader{r}
	if !splits || n < 2 || r.ra == nil || r.err != nil || r.done || !r.pending || r.nSamples != 0 {
		return parts
	}
	total := r.size / int64(r.bufSize)
	first := int64(r.bufIndex) + 1 // the buffer after r's current one
	span := (total - first) / int64(n)
	if span < 1 || span*int64(r.bufSize) < minSplitBytes {
		return parts
	}
	for k := 1; k < n; k++ {
		from := first + int64(k)*span
		p := &Reader{
			ra: r.ra, size: r.size,
			buf: make([]byte, r.bufSize), bufSize: r.bufSize,
			bufIndex: int(from) - 1, next: from * int64(r.bufSize),
			header: r.header, guid: r.guid, haveGUID: r.haveGUID,
			counters: r.counters, haveList: true,
			skipTail: true, part: true,
		}
		p.cur, p.used = 0, 0 // nothing buffered: nextRecord loads buffer from
		parts[len(parts)-1].stopAt = from * int64(r.bufSize)
		parts = append(parts, p)
	}
	return parts
}

// minSplitBytes is the least a part of Split covers: below it, the
// goroutine costs more than it saves. (A variable for the tests.)
var minSplitBytes int64 = 4 << 20

// atStop reports whether the event in r.ev ends a part of Split or
// SeekSample: a record that begins at or past the part's range.
func (r *Reader) atStop() bool {
	return r.stopAt > 0 && r.ev.off >= r.stopAt && !r.asm.active && r.ev.partIndex == 1
}

// SeekSample makes Next read on from the record at file offset off, the
// first event of the sample record that an earlier reading of the same log
// met as the sample of index index (Sample.Offset and Sample.Index), and
// end before the first record that begins at file offset stop or after it
// (0: at the log's end); an off below 0 reads from the first sample, as
// Rewind. The samples it yields have the indexes of the whole log's
// reading. It needs a Reader from NewReader (ErrNotRewindable otherwise).
// Several instances of the WebAssembly module read a log so, one part
// each (relog.Options.PartFrom).
func (r *Reader) SeekSample(off int64, index int, stop int64) error {
	if err := r.Rewind(); err != nil {
		return err
	}
	r.stopAt = stop
	if off < 0 || r.done || r.err != nil {
		return nil
	}
	if err := r.load(int(off / int64(r.bufSize))); err != nil {
		r.err = err
		return err
	}
	r.cur = int(off - r.bufOff)
	r.nSamples = index
	return nil
}

// errStop ends a part of Split where the next part begins.
var errStop = io.EOF
