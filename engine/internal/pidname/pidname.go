// Package pidname names Process and Thread instances by the process (and
// thread) they are, for the pid identity of packages relog (a log's
// samples) and query (two captures): which objects and counters identify
// an instance, the name an instance takes (name:pid, process:pid/tid;
// _Total keeps its name), and the numbering of the instances of one
// sample whose IDs cannot tell them apart.
//
// Objects and counters are recognised by their English names.
package pidname

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine/internal/fold"
)

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

// The counters that identify an instance.
const (
	IDProcess = "ID Process"
	IDCreator = "Creating Process ID"
	IDThread  = "ID Thread"
)

// Role is what a counter tells of an instance's identity.
type Role uint8

const (
	// NoRole is any other counter.
	NoRole Role = iota
	// PID is the ID Process counter.
	PID
	// Aux is a process's Creating Process ID or a thread's ID Thread.
	Aux
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
		return PID
	case strings.EqualFold(counter, aux):
		return Aux
	}
	return NoRole
}

// Missing returns the name of the ID counter that an object of kind k
// lacks to be named by ID, given whether it has ID Process and its Aux
// counter, or "".
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
