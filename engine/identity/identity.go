// Package identity is process identity, in one place: how the instances of
// one sample (or capture) are paired with those of the one before it
// (Mode: by name as PDH pairs them, or Process and Thread instances by
// process and thread ID), which objects and counters identify an instance
// (Kind, Role), the name an instance takes by ID (AppendName: name:pid,
// process:pid/tid; _Total keeps its name), the numbering of instances
// whose IDs cannot tell them apart (Dups), what identifies a process,
// what is an identity break and a reused PID (Key, Same, Reused), and the
// notes that say so (Note, MissingNote).
//
// Package relog (a log's samples), package query (two captures) and
// package collect (live samples) pair instances with it; the command's
// --identity flag, the module's identity export and analyze's flag are
// read into a Mode (Parse; the module's numbers are converted in package
// abi).
//
// Objects and counters are recognised by their English names.
package identity

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine/internal/fold"
)

// Mode is how instances are paired from one sample (or capture) to the
// next.
//
// PDH pairs instances by name. It names the processes that share a name
// chrome, chrome#1, chrome#2, … in their order in the sample, so that when
// one exits the others are renumbered, and chrome#2 of one sample and of
// the next can be two processes: a rate computed between them is
// meaningless. PID pairs them by the process they are:
//
//   - a Process instance by its "ID Process" counter, and by its
//     "Creating Process ID" where the log has it, to tell a reused PID: its
//     instance is named name:pid (\Process(chrome:4242)\% Processor Time),
//     a series per process; _Total keeps its name;
//   - a Thread instance by "ID Process" and "ID Thread": it is named
//     process:pid/tid (\Thread(chrome:4242/5120)\Context Switches/sec);
//     _Total/_Total keeps its name;
//   - a Process V2 instance is already named name:pid by Windows: pairing it
//     by name is pairing it by PID, in both modes.
//
// A process that appears is a new series, whose first sample has no value
// (NewData for a two-sample type, as PDH's first sample), and no value is
// ever computed between two processes. Instances that share their IDs in
// a sample (the Idle process's threads, all ID Process 0 and ID Thread 0;
// two processes with one PID in a damaged log) stay distinct series:
// numbered in their order in the sample as PDH numbers duplicate names
// (Idle:0/0, Idle:0/0#1, …: Dups), and a note says so (Note). An object
// whose IDs the log does not hold is paired by name, as PDH pairs it, and
// a note says so (MissingNote). An identity break is a PDH instance name
// whose process (or thread) differs from the one it named in the sample
// before (not Same): where PDH computes between two processes.
type Mode uint8

const (
	// PDH pairs instances by name, as PDH and relog do (the default;
	// CSV and TSV are then relog's, byte for byte).
	PDH Mode = iota
	// PID pairs Process and Thread instances by process and thread ID
	// (see Mode).
	PID
)

// Parse returns the Mode named s: "pdh" or "pid"; ok is false for another
// name.
func Parse(s string) (m Mode, ok bool) {
	switch s {
	case "pdh":
		return PDH, true
	case "pid":
		return PID, true
	}
	return PDH, false
}

// Valid reports whether m is one of the modes (PDH, PID): the one check of
// a mode given as a number (the module's identity export, through package
// abi; the Go host). It is a function, not a method: a method of Mode
// would stay in the WebAssembly module's method tables.
func Valid(m Mode) bool { return m <= PID }

// String returns the mode's name: "pdh" or "pid" (another value's is
// "pdh", as it is paired).
func (m Mode) String() string {
	if m == PID {
		return "pid"
	}
	return "pdh"
}

// Kind is the kind of object whose instances are named by ID.
type Kind uint8

const (
	// None is any other object: paired by name.
	None Kind = iota
	// Process is the V1 Process object: paired by ID Process (and
	// Creating Process ID, to tell a reused PID).
	Process
	// Thread is the Thread object: paired by ID Process and ID Thread.
	Thread
)

// KindOf returns the kind of the object named object.
func KindOf(object string) Kind {
	switch {
	case strings.EqualFold(object, "Process"):
		return Process
	case strings.EqualFold(object, "Thread"):
		return Thread
	}
	return None
}

// The counters that identify an instance (Role).
const (
	IDProcess = "ID Process"
	IDCreator = "Creating Process ID"
	IDThread  = "ID Thread"
)

// Role is what a counter tells of an instance's identity.
type Role uint8

const (
	// RoleNone is any other counter.
	RoleNone Role = iota
	// RolePID is the ID Process counter.
	RolePID
	// RoleAux is a process's Creating Process ID or a thread's ID Thread.
	RoleAux
)

// RoleOf returns the role of counter in an object of kind k.
func RoleOf(k Kind, counter string) Role {
	aux := IDCreator
	if k == Thread {
		aux = IDThread
	}
	switch {
	case k == None:
	case strings.EqualFold(counter, IDProcess):
		return RolePID
	case strings.EqualFold(counter, aux):
		return RoleAux
	}
	return RoleNone
}

// Missing returns the name of the ID counter that an object of kind k
// lacks to be named by ID, given whether it has ID Process and its
// RoleAux counter, or "".
func Missing(k Kind, pid, aux bool) string {
	switch {
	case !pid:
		return IDProcess
	case k == Thread && !aux:
		return IDThread
	}
	return ""
}

// AppendName appends the name an instance of an object of kind k takes
// by ID, given its PDH parent and name (without #n) and its IDs: a
// process name:pid, a thread process:pid/tid; _Total (a process's, a
// thread's _Total/_Total) keeps its name (parent/name).
func AppendName(dst []byte, k Kind, parent, name string, pid, aux uint64) []byte {
	if keeps(k, parent, name) {
		if parent != "" {
			dst = append(append(dst, parent...), '/')
		}
		return append(dst, name...)
	}
	if k == Thread {
		name = parent // process:pid/tid
	}
	dst = strconv.AppendUint(append(append(dst, name...), ':'), pid, 10)
	if k == Thread {
		dst = strconv.AppendUint(append(dst, '/'), aux, 10)
	}
	return dst
}

// keeps reports whether an instance keeps its PDH name: another object's,
// a _Total.
func keeps(k Kind, parent, name string) bool {
	switch k {
	case Thread:
		return parent == "_Total"
	case Process:
		return name == "_Total"
	}
	return true
}

// Dups numbers the instances of one sample that take the same name by ID
// (threads that share ID Process and ID Thread, such as the Idle process's
// threads, all 0/0; two processes with one PID in a damaged log): as PDH
// numbers duplicate names, the first keeps the name and the others are
// #1, #2, … in their order in the sample, so that instances distinct in
// a sample stay distinct series, paired by that position. Names are
// compared as PDH compares them (case-insensitive). The zero value is
// ready; Reset starts a sample. It keeps every name it has met (a log's
// names recur from sample to sample: it allocates for new names only).
type Dups struct {
	seen map[string]*dupCount
	gen  uint32
	key  []byte
}

// dupCount is how many instances of sample gen took a name.
type dupCount struct {
	_   [0]func() // not comparable: no equality function in the WebAssembly module
	gen uint32
	n   int
}

// Reset starts a sample.
func (d *Dups) Reset() { d.gen++ }

// Next returns how many instances of the sample took name (as AppendName
// writes it, or any key) before this one (0 for the first), and counts it.
func (d *Dups) Next(name []byte) int {
	if d.seen == nil {
		d.seen = map[string]*dupCount{}
	}
	d.key = d.key[:0]
	for _, b := range name {
		if b >= utf8.RuneSelf {
			// Not ASCII (rare): fold's Unicode case mapping.
			d.key = fold.Append(d.key[:0], string(name))
			break
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		d.key = append(d.key, b)
	}
	c := d.seen[string(d.key)]
	if c == nil {
		c = &dupCount{}
		d.seen[string(d.key)] = c
	}
	if c.gen != d.gen {
		c.gen, c.n = d.gen, 0
	}
	c.n++
	return c.n - 1
}

// Key identifies the process (or thread) of an instance in one sample (or
// capture): its ID Process, and its Aux counter (a process's Creating
// Process ID, a thread's ID Thread) where the sample holds it.
type Key struct {
	_        [0]func() // not comparable (Same compares): no equality function in the WebAssembly module
	PID, Aux uint64
	HasAux   bool
}

// Same reports whether two keys are the same process (or thread): the
// same IDs, and the same creator where the sample holds it (or neither
// holds it). A PDH instance name whose key in the sample before is not
// the Same as its key now is an identity break: it names another process
// (or thread), and PDH's pairing by name computes a value between two
// processes.
func Same(a, b Key) bool {
	return a.PID == b.PID && a.Aux == b.Aux && a.HasAux == b.HasAux
}

// Reused reports whether k is another process than last, which had its
// PID: both hold their Creating Process ID, and the two differ (a reused
// PID, whose process takes the name name:pid#1, then #2, …: a series of
// its own).
func Reused(last, k Key) bool { return k.HasAux && last.HasAux && k.Aux != last.Aux }

// MissingNote is the sentence that says an object's instances are paired
// by name (as PDH pairs them) because the log (or, with capture, the
// capture) lacks the ID counter missing (Missing): object is the object's
// name (with its machine, where the caller names it).
func MissingNote(object, missing string, capture bool) string {
	if capture {
		return object + ": no " + missing + " counter in the capture; its instances are paired by name (pdh)"
	}
	return object + ": no " + missing + " counter in the log; its instances are paired by name (pdh)"
}

// Note is the sentence that says an object's instances were told apart by
// their order in the sample (Dups) because their IDs could not: object is
// the object's name (with its machine, where the caller names it), first
// the first name met twice (parent/name), and where "sample" or
// "capture".
func Note(k Kind, object, first, where string) string {
	ids := IDProcess
	if k == Thread {
		ids += " and " + IDThread
	}
	return object + ": instances share their " + ids + " (" + first + "); they are told apart by their order in the " +
		where + ", as PDH numbers duplicate names (" + first + ", " + first + "#1, …)"
}
