//go:build !wasm

package blg

import "sync/atomic"

// skippedEvents counts the events that the process' Readers skipped.
var skippedEvents atomic.Int64

// skip counts an event that the Reader skips, for Skipped and
// SkippedEvents.
func (r *Reader) skip() {
	r.skips++
	skippedEvents.Add(1)
}

// SkippedEvents returns how many events the Readers of this process have
// skipped so far, all together: events of another provider than PDH's or
// system events after the log header, and PDH records of an unknown event
// type. No real log seen has any: a damaged event header (its provider
// GUID, HeaderType or Class.Type) is the likely cause, and a sample may be
// lost with it. A program that reads one log at a time tells whether that
// log had any from the count before and after its first reading (a second
// reading after Rewind, or by Split's parts, counts the same events again,
// and Readers in other goroutines count theirs). The WebAssembly module
// has no SkippedEvents (its size budget). Reader.Skipped counts one
// Reader's, in the module too.
func SkippedEvents() int64 { return skippedEvents.Load() }
