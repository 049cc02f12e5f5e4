package blg

import (
	"io"

	"github.com/perfcalc/perfcalc/engine"
)

// Reader reads a .blg log buffer by buffer and yields its samples one at a
// time:
//
//	r, err := blg.NewReader(f, size)
//	if err != nil { … }
//	for r.Next() {
//		s := r.Sample()
//		for _, v := range s.Values { … r.Counters()[v.Counter] … v.Raw … }
//	}
//	if err := r.Err(); err != nil { … }
//
// It holds one buffer of the log (64 KiB), the largest record seen (split
// records are reassembled in one reused slice), the counter list and the
// name table, never the whole log; after warm-up, Next allocates nothing.
// A Reader is not safe for concurrent use.
type Reader struct {
	ra   io.ReaderAt // random access, or
	rd   io.Reader   // sequential
	size int64       // with ra: the log's size

	buf      []byte // the current buffer
	bufSize  int
	bufOff   int64 // file offset of buf
	bufIndex int   // index of buf among the log's buffers
	next     int64 // file offset of the next buffer
	used     int   // WMI_BUFFER_HEADER.Offset of buf
	cur      int   // offset in buf of the next event

	header   LogHeader
	guid     [16]byte
	haveGUID bool
	counters []CounterInfo
	haveList bool
	names    nameTable
	trailer  *Trailer

	ev      event
	asm     assembler
	rec     record
	pending bool // rec holds a sample record that Next has not yet returned

	// Where Rewind returns to: the file offset of the first sample's first
	// event (−1 without a sample), and the damage open met after the
	// counter list.
	start    int64
	startErr error

	sample   Sample
	nSamples int
	first    int64 // time stamps of the first two samples
	second   int64
	err      error
	done     bool
	skips    int64 // events skipped since NewReader or the last Rewind (Skipped)

	// A part of Split or SeekSample: the file offset at which the next
	// part begins (0: none), and whether to skip the parts of a record
	// begun before this part.
	stopAt   int64
	skipTail bool
	part     bool // a later part of Split (which cannot rewind)
}

// Skipped returns the number of events this Reader skipped since
// NewReader (the header and counter list included) or its last Rewind:
// events of another provider than PDH's or system events after the log
// header, and PDH records of an unknown event type, as SkippedEvents
// counts them for the whole process. A damaged event header is the likely
// cause, and a sample may be lost with it. A part of Split counts its own.
func (r *Reader) Skipped() int64 { return r.skips }

// NewReader opens the log held by r, size bytes long (an *os.File and its
// size, a *bytes.Reader and its Len, …). It reads the first buffer, the log
// header and the records up to the first sample (the counter list and, in
// Vista-era logs, the name table), and returns an error if the input is not
// a .blg log or its header or counter list is damaged. A damage found after
// the counter list is reported by Err after the samples before it.
func NewReader(r io.ReaderAt, size int64) (*Reader, error) {
	rd := &Reader{ra: r, size: size}
	return rd, rd.open()
}

// NewStreamReader is NewReader for a log read sequentially, once, from r
// (a pipe, a network stream, a decompressor). Memory use is the same.
func NewStreamReader(r io.Reader) (*Reader, error) {
	rd := &Reader{rd: r}
	return rd, rd.open()
}

// read fills dst, buffer index's bytes (or its header) at off. It returns
// io.EOF when the log ends exactly at off, a FormatError (ErrTruncated)
// when it ends inside dst, and I/O errors unchanged.
func (r *Reader) read(dst []byte, off int64, what string, index int) error {
	var n int
	var err error
	if r.ra != nil {
		if off >= r.size {
			return io.EOF
		}
		want := dst
		if r.size-off < int64(len(dst)) {
			want = dst[:r.size-off] // the log ends inside dst
		}
		n, err = r.ra.ReadAt(want, off)
		if n == len(dst) {
			err = nil
		} else if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
	} else {
		n, err = io.ReadFull(r.rd, dst)
	}
	switch {
	case err == nil:
		return nil
	case err == io.EOF && n == 0:
		return io.EOF
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return newError(what, index, off, "", "log ends at "+hexa(uint64(off)+uint64(n))+", "+itoa(int64(len(dst)-n))+" bytes before the end of the buffer"+r.whole(index), engine.ErrTruncated)
	}
	return err
}

func (r *Reader) open() error {
	const rec = "WMI_BUFFER_HEADER"
	var hb [BufferHeaderSize]byte
	if err := r.read(hb[:], 0, rec, 0); err != nil {
		if err == io.EOF {
			return newError(rec, 0, 0, "", "the log is empty", engine.ErrTruncated)
		}
		return err
	}
	bh, err := ParseBufferHeader(hb[:], 0)
	if err != nil {
		setIndex(err, 0)
		return err
	}
	r.bufSize = int(bh.BufferSize)
	if r.ra != nil && r.size < int64(r.bufSize) {
		return errf("buffer", 0, 0, "", engine.ErrTruncated, "log ends at %x, inside its first buffer of %d bytes", int64(r.size), int64(r.bufSize))
	}
	r.buf = make([]byte, r.bufSize)
	copy(r.buf, hb[:])
	if err := r.read(r.buf[BufferHeaderSize:], BufferHeaderSize, "buffer", 0); err != nil {
		if err == io.EOF {
			err = newError("buffer", 0, BufferHeaderSize, "", "log ends after the first buffer's header", engine.ErrTruncated)
		}
		return err
	}
	r.used, r.cur, r.next = int(bh.Offset), BufferHeaderSize, int64(r.bufSize)
	h, size, err := parseLogHeader(r.buf[BufferHeaderSize:r.used], BufferHeaderSize)
	if err != nil {
		return err
	}
	if h.BufferSize != bh.BufferSize {
		return errf("TRACE_LOGFILE_HEADER", -1, BufferHeaderSize+systemHeaderSize, "BufferSize", engine.ErrMalformed, "%u disagrees with the first buffer's %u", int64(h.BufferSize), int64(bh.BufferSize))
	}
	r.header = h
	r.cur += (size + 7) &^ 7
	// The prologue: everything before the first sample.
	for {
		err := r.nextRecord()
		if err == io.EOF {
			r.done, r.start = true, -1
			return nil
		}
		if err == nil {
			var isSample bool
			isSample, err = r.handle()
			if err == nil && isSample {
				r.pending, r.start = true, r.rec.off
				return nil
			}
		}
		if err != nil {
			if r.haveList {
				r.err, r.startErr, r.start = err, err, -1
				return nil
			}
			return err
		}
	}
}

// whole says, for a log that ends before or inside buffer i, how many of
// the buffers its header counts are whole, when the header counts them
// (TRACE_LOGFILE_HEADER.BuffersWritten is 0 in a log still being written).
func (r *Reader) whole(i int) string {
	w := r.header.BuffersWritten
	if w == 0 {
		return ""
	}
	return ": " + itoa(int64(i)) + " of the " + utoa(uint64(w)) + " buffers that its header counts (BuffersWritten) are whole"
}

// setIndex sets the Index of the first *engine.FormatError in err's Unwrap
// chain. (errors.As would link internal/reflectlite into the WebAssembly
// module.)
func setIndex(err error, i int) {
	for err != nil {
		if fe, ok := err.(*engine.FormatError); ok {
			fe.Index = i
			return
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return
		}
		err = u.Unwrap()
	}
}

// loadNext reads the next buffer. It returns io.EOF at the end of the log.
func (r *Reader) loadNext() error { return r.load(r.bufIndex + 1) }

// load reads buffer i.
func (r *Reader) load(i int) error {
	off := int64(i) * int64(r.bufSize)
	if err := r.read(r.buf, off, "buffer", i); err != nil {
		return err
	}
	r.bufIndex = i
	if size := le.Uint32(r.buf); int(size) != r.bufSize {
		return errf("WMI_BUFFER_HEADER", r.bufIndex, off, "BufferSize", engine.ErrMalformed, "%u differs from the log's %d", int64(size), int64(r.bufSize))
	}
	bh, err := ParseBufferHeader(r.buf, off)
	if err != nil {
		setIndex(err, r.bufIndex)
		return err
	}
	r.bufOff, r.used, r.cur = off, int(bh.Offset), BufferHeaderSize
	r.next = off + int64(r.bufSize)
	return nil
}

// nextRecord walks the events to the next complete PDH record and leaves it
// in r.rec. It returns io.EOF at the end of the log.
func (r *Reader) nextRecord() error {
	r.rec.data = nil // the last record is used up: let trim free its bytes
	r.asm.trim()
	for {
		if r.cur >= r.used {
			if err := r.loadNext(); err != nil {
				if err == io.EOF {
					// A log shorter than its header says is damaged, even
					// when it ends between two buffers.
					if w := int64(r.header.BuffersWritten); int64(r.bufIndex)+1 < w {
						return newError("buffer", r.bufIndex+1, r.next, "", "missing: the log ends here"+r.whole(r.bufIndex+1), engine.ErrTruncated)
					}
					if perr := r.asm.pending(r.next); perr != nil {
						return perr
					}
				}
				return err
			}
			continue
		}
		n, err := parseEvent(r.buf[r.cur:r.used], r.bufOff+int64(r.cur), &r.ev)
		if err != nil {
			return err
		}
		r.cur += n
		if !r.ev.pdh {
			r.skip()
			continue
		}
		if splits && r.skipTail {
			if r.ev.partIndex != 1 {
				continue // the end of a record that the part before reads
			}
			r.skipTail = false
		}
		if r.atStop() {
			return errStop
		}
		if !r.haveGUID {
			r.guid, r.haveGUID = r.ev.logGUID, true
		} else if r.ev.logGUID != r.guid {
			return newError("PDH event", -1, r.ev.off+eventHeaderSize, "LogGUID", "differs from the log's", engine.ErrMalformed)
		}
		room := int64(0)
		if r.ra != nil {
			room = r.size - r.bufOff - int64(r.cur)
		}
		done, err := r.asm.add(&r.ev, &r.rec, room)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
	}
}

// handle takes the record in r.rec. It reports whether it is a sample,
// which the caller decodes.
func (r *Reader) handle() (bool, error) {
	switch r.rec.typ {
	case EventSample:
		if !r.haveList {
			return false, newError("sample record", r.nSamples, r.rec.off, "", "comes before the counter list", engine.ErrMalformed)
		}
		return true, nil
	case EventCounterList:
		if r.haveList {
			return false, newError("counter list", -1, r.rec.off, "", "a second counter list (counters changed during logging) is not supported", engine.ErrUnsupported)
		}
		list, err := parseCounterList(r.rec.data, r.rec.loc)
		if err != nil {
			return false, err
		}
		r.counters, r.haveList = list, true
	case EventNameTable:
		return false, r.names.add(r.rec.data, r.rec.loc)
	case EventTrailer:
		t, err := parseTrailer(r.rec.data, r.rec.off, r.rec.loc)
		if err != nil {
			return false, err
		}
		r.trailer = t
	default:
		r.skip()
	}
	return false, nil
}

// Next advances to the next sample, which Sample then returns. It returns
// false at the end of the log or at the first damage, which Err reports.
func (r *Reader) Next() bool {
	if r.err != nil || r.done {
		return false
	}
	for {
		if !r.pending {
			err := r.nextRecord()
			if err == io.EOF {
				r.done = true
				return false
			}
			if err == nil {
				var isSample bool
				if isSample, err = r.handle(); err == nil && !isSample {
					continue
				}
			}
			if err != nil {
				r.err = err
				return false
			}
		}
		r.pending = false
		s := &r.sample
		s.Index, s.Offset, s.TimeStamp = r.nSamples, r.rec.off, r.rec.timeStamp
		if err := s.decode(r.rec.data, len(r.counters), r.rec.loc); err != nil {
			r.err = err
			return false
		}
		switch r.nSamples {
		case 0:
			r.first = s.TimeStamp
		case 1:
			r.second = s.TimeStamp
		}
		r.nSamples++
		return true
	}
}

// Rewind goes back to the first sample: Next then reads the samples again,
// as a new Reader would, without reading the header, the counter list and
// the name table again (relog reads a log twice: for its columns, then for
// its rows). It needs a Reader from NewReader; a stream reader's Rewind
// returns ErrNotRewindable, as do the later parts of Split; the Reader that
// Split made the first of its parts reads the whole log again.
func (r *Reader) Rewind() error {
	if r.ra == nil || r.part {
		return ErrNotRewindable // a stream, or a later part of Split
	}
	r.asm.active, r.pending, r.trailer, r.stopAt = false, false, nil, 0
	r.nSamples, r.first, r.second, r.skips = 0, 0, 0, 0
	r.sample.layoutN = 0 // the first sample repeats none
	r.err, r.done = r.startErr, r.start < 0 && r.startErr == nil
	if r.start < 0 {
		return nil
	}
	if err := r.load(int(r.start / int64(r.bufSize))); err != nil {
		r.err = err
		return err
	}
	r.cur = int(r.start - r.bufOff)
	return nil
}

// Sample returns the current sample. It and its slices are valid until the
// next call to Next.
func (r *Reader) Sample() *Sample { return &r.sample }

// Err returns the error that stopped Next, or nil at the log's clean end.
// Format problems are *engine.FormatError values (Format "blg"); I/O errors
// of the underlying reader are returned unchanged.
func (r *Reader) Err() error { return r.err }

// Header returns the log header.
func (r *Reader) Header() *LogHeader { return &r.header }

// Counters returns the log's counter list; a sample's Value.Counter and
// Block.Counter index it. The caller must not modify it.
func (r *Reader) Counters() []CounterInfo { return r.counters }

// Machine returns the logging machine's name as the log stores it (with its
// leading \\): the name table's, or else the first counter's. Logs of
// several machines name each in its CounterInfo.Machine.
func (r *Reader) Machine() string {
	if r.names.machine != "" {
		return r.names.machine
	}
	if len(r.counters) > 0 {
		return r.counters[0].Machine
	}
	return ""
}

// NameTable returns a new copy of the logging machine's counter name table
// that Vista-era logs carry, as a REG_MULTI_SZ ("1\0" "1847\0" "2\0"
// "System\0" … "\0", UTF-16LE), the form HKEY_PERFORMANCE_DATA's
// "Counter 009" value has; nil when the log has none.
func (r *Reader) NameTable() []byte { return r.names.multiSZ() }

// Trailer returns the summary record that Vista-era logs end with, once
// Next has reached it (normally after the last sample), or nil.
func (r *Reader) Trailer() *Trailer { return r.trailer }

// Interval returns the time between the first two samples, in 100 ns
// units: the log's sampling interval when it is regular. It is 0 until Next
// has returned two samples.
func (r *Reader) Interval() int64 {
	if r.nSamples < 2 {
		return 0
	}
	return r.second - r.first
}
