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

// Name returns the parent and name an instance of an object of kind k
// takes by ID, given its PDH parent and name (without #n) and its IDs:
// a process name:pid, a thread process:pid / tid; _Total (a process's,
// a thread's _Total/_Total) keeps its name.
func Name(k Kind, parent, name string, pid, aux uint64) (string, string) {
	switch {
	case k == Thread && parent != "_Total":
		return parent + ":" + strconv.FormatUint(pid, 10), strconv.FormatUint(aux, 10)
	case k == Process && name != "_Total":
		return parent, name + ":" + strconv.FormatUint(pid, 10)
	}
	return parent, name
}

// Join returns parent/name, or name without a parent.
func Join(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "/" + name
}

// Dups numbers the instances of one sample that take the same name by ID
// (threads that share ID Process and ID Thread, such as the Idle process's
// threads, all 0/0; two processes with one PID in a damaged log): as PDH
// numbers duplicate names, the first keeps the name and the others are
// #1, #2, … in their order in the sample, so that instances distinct in
// a sample stay distinct series, paired by that position. Names are
// compared as PDH compares them (case-insensitive). The zero value is
// ready; Reset starts a sample.
type Dups struct {
	seen map[string]int
	key  []byte
}

// Reset starts a sample.
func (d *Dups) Reset() { clear(d.seen) }

// Next returns how many instances of the sample took name before this one
// (0 for the first), and counts it.
func (d *Dups) Next(parent, name string) int {
	if d.seen == nil {
		d.seen = map[string]int{}
	}
	d.key = fold.Append(d.key[:0], parent)
	d.key = append(d.key, '/')
	d.key = fold.Append(d.key, name)
	n := d.seen[string(d.key)]
	d.seen[string(d.key)] = n + 1
	return n
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
