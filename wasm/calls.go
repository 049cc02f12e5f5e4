package main

import (
	"strconv"

	"github.com/perfcalc/perfcalc/internal/abi"
)

// region returns buf[off:off+n] when it lies within buf, checking without
// overflow.
func region(buf []byte, off, n uint32) ([]byte, bool) {
	if uint64(off)+uint64(n) > uint64(len(buf)) {
		return nil, false
	}
	return buf[off : off+n], true
}

// inRegion returns the region (off, n) of the input buffer, or ErrBounds
// naming what lies outside it.
func inRegion(what string, off, n uint32) ([]byte, int32) {
	b, ok := region(inBuf, off, n)
	if !ok {
		return nil, boundsError(what, off, n, len(inBuf))
	}
	return b, 0
}

// recovered turns a panic into CodePanic; every export defers it:
//
//	defer recovered(&rc)
func recovered(rc *int32) {
	if r := recover(); r != nil {
		*rc = abi.CodePanic
		msg := "perfcalc: panic"
		if e, ok := r.(error); ok {
			msg += ": " + e.Error()
		} else if s, ok := r.(string); ok {
			msg += ": " + s
		}
		setError(msg)
	}
}

// fail records err's text and returns its error code.
//
//go:noinline
func fail(code int32, err error) int32 {
	setError(err.Error())
	return code
}

// refuse records msg and returns CodeArgument.
//
//go:noinline
func refuse(msg string) int32 {
	setError(msg)
	return abi.CodeArgument
}

// boundsError reports an offset and length outside a buffer.
func boundsError(what string, off, n uint32, size int) int32 {
	b := errBuf[:0] // the text is short: it fits, and nothing is allocated
	b = append(b, "perfcalc: "...)
	b = append(b, what...)
	// One call of AppendUint for the three numbers: each call inlined
	// costs the module ~400 bytes.
	texts := [...]string{" at ", ", length ", " lies outside the buffer of "}
	for i, v := range [...]uint64{uint64(off), uint64(n), uint64(size)} {
		b = strconv.AppendUint(append(b, texts[i]...), v, 10)
	}
	b = append(b, " bytes"...)
	errLen = uint32(len(b))
	return abi.CodeBounds
}

// The decode exports (decode.go) and analyze (analyze.go, in the analyze
// module) are shims over package abi: they check the host's offsets and
// lengths against the input buffer, run one of abi.Builder's methods (or a
// text writer) into the output buffer (out) and turn its error into a
// code. Their results are described in ABI.md, and each method's
// documentation says what it decodes. What follows, the pages of a result
// and decode_next, serves both modules.

// out lays the result of the current decode export out in the output
// buffer; builder builds it (one call at a time: the module is
// single-threaded). Package variables: a page allocates neither.
//
// A result that does not fit one page is a continuation: the builder runs
// on a goroutine of its own, which out's Pause parks when a page is full
// (page, pause); decode_next resumes it, with the header's cursor, where
// the page ended, without decoding the input again. The text exports run
// the same way, their textWriter parking the builder at a full buffer
// (park), so that a text is produced once. (A goroutine and two channels
// cost the module about 1 KB; iter.Pull's coroutines cost 23 KB.)
var (
	out     abi.Writer
	builder abi.Builder

	// baton passes control between an export and the builder, strictly
	// in turn: the builder sends the rc of a page or of the result, an
	// export sends a parked builder 1 (resume) or 0 (abandon).
	baton  = make(chan int32)
	live   bool       // a builder is parked in pause: a continuation
	cursor uint32 = 1 // the current continuation's number (header's cursor)

	// The arguments of the current decode export, for its builder (the
	// function that build runs): args its u32 ones in their order (first
	// excepted), span a log's begin and end (decode.go's method a log's
	// Builder method); job is the builder.
	job  func() int32
	args [9]uint32
	span [2]int64

	// identityBreaks is what identity_breaks returns (decode.go): the
	// identity breaks of the last log export or query, 0 until it sets
	// them.
	identityBreaks int64
)

// build runs fn, a builder: a function that reads the export's arguments
// (args) and builds its result with builder (see finish), on a goroutine of
// its own; it is the body of every decode export. It ends the continuation
// of the result before it. (The exports' last parameter, first, is
// reserved: version 1's pages began at a record index; the next page now
// comes from decode_next.) (Not inlined: its code is shared by every
// export.)
//
//go:noinline
func build(fn func() int32) int32 {
	drop()
	clearError()
	identityBreaks = 0
	out.Reset(outBuf)
	out.Pause = pause
	builder = abi.Builder{W: &out}
	job = fn
	go runJob()
	return wait()
}

// runJob runs job, on the builder's goroutine, and sends its rc.
func runJob() { baton <- guarded() }

// guarded runs job and returns its rc; a panic is CodePanic, as in every
// export. (A result that the host abandoned ends with abi.ErrStopped,
// which nobody reads: drop's callers clear its text.)
func guarded() (rc int32) {
	defer recovered(&rc)
	return job()
}

// wait receives the rc of the builder's next page or of its result;
// a page leaves the builder parked (live).
func wait() int32 {
	rc := <-baton
	live = rc == abi.CodeSpace // only a page ends so: no builder's error has the code
	return rc
}

// pause is out's Pause, on the builder's goroutine: it ends the page
// (CodeSpace, last_detail = the bytes a page needs for the next record, the
// header's cursor for decode_next), hands it over and waits for decode_next
// (true: the next page, in the output buffer then in use) or for the
// continuation's end (false).
func pause() bool {
	out.Cursor = nextCursor()
	_, _, lastDetail = out.Finish(&builder.Summary)
	if !park() {
		return false
	}
	out.NextPage(outBuf)
	return true
}

// nextCursor returns the cursor of a page that a builder ends: a new odd
// number (never 0).
func nextCursor() uint32 {
	cursor += 2
	return cursor
}

// park hands a page over (CodeSpace), on the builder's goroutine, and
// waits for decode_next (true) or for the continuation's end (false).
func park() bool {
	setError("perfcalc: the result continues: decode_next(cursor)")
	baton <- abi.CodeSpace
	return <-baton != 0
}

// drop ends the current continuation, if any: the parked builder returns.
func drop() {
	if live {
		live = false
		baton <- 0
		<-baton
	}
}

// decodeNext writes the next page of the result whose last page carried
// cursor c, resuming it where that page ended; it returns what the export
// that began the result returns. Cursor 0 ends the current continuation
// (its memory is let go) and returns 0. Another decode export ends it too.
//
//go:wasmexport decode_next
func decodeNext(c uint32) int32 {
	if c == 0 {
		drop()
		clearError()
		return 0
	}
	clearError()
	if !live || c != cursor {
		return refuse("perfcalc: decode_next: no result continues with this cursor")
	}
	live = false
	baton <- 1
	return wait()
}

// textWriter writes a text export's text into the output buffer, page by
// page: when the buffer is full, the page (the whole buffer) goes to the
// host (CodeSpace, last_detail = the cursor for decode_next) and the text
// continues from the start of the buffer then in use when the host asks
// for the next page. The text is produced once, whatever the pages.
type textWriter struct {
	n int // bytes written into the current page
}

// Write copies p into the page, parking the builder at every full page;
// abandoned (another export, decode_next(0)), it returns abi.ErrStopped.
func (t *textWriter) Write(p []byte) (int, error) {
	k := len(p)
	for {
		c := copy(outBuf[t.n:], p)
		t.n += c
		p = p[c:]
		if len(p) == 0 {
			return k, nil
		}
		lastDetail = nextCursor()
		if !park() {
			return k - len(p), abi.ErrStopped
		}
		t.n = 0
	}
}

// finish ends the text that t wrote, or reports err: the bytes written on
// the last page, or err's code. damage, the damage of a log after the rows
// written, goes to err_ptr.
func (t *textWriter) finish(damage, err error) int32 {
	if err != nil {
		return fail(abi.CodeOf(err), err)
	}
	if damage != nil {
		setError(damage.Error())
	}
	return int32(t.n)
}
