package query

import (
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/identity"
)

// Pairing by process (pid mode: Config.Identity identity.PID, package
// identity), as package relog pairs a log's samples: a V1 Process instance
// is paired by its "ID Process" (and "Creating Process ID", to tell a
// reused PID) and named name:pid (_Total keeps its name); a Thread
// instance by "ID Process" and "ID Thread", named process:pid/tid
// (_Total/_Total keeps its name). An instance whose process is not in the
// older capture is new (2-sample types answer engine.NewData), so no value
// is computed between two processes. Instances of a capture that the IDs
// cannot tell apart (the Idle process's threads, all 0/0) are numbered in
// their order, as PDH numbers duplicate names (identity.Dups), and noted.
// A Process V2 capture names its instances name:pid already: its pairing
// by name is by PID. Objects are recognised by their English names.

// identify reads, in pid mode, the IDs of the instances of object o of
// capture c (its counters and instances listed) and renames them: c.pdh
// keeps their PDH names, c.ids their keys. It reports whether the object
// is paired by ID; an object named Process or Thread without its ID
// counters is noted (Query.IdentityNotes).
func (q *Query) identify(c *capture, o int, object string, hasInst bool) (bool, error) {
	kind := identity.KindOf(object)
	if c.v2 || !hasInst || kind == identity.None {
		return false, nil
	}
	pidK, auxK := -1, -1
	for k, name := range q.cnames {
		switch identity.RoleOf(kind, name) {
		case identity.RolePID:
			pidK = k
		case identity.RoleAux:
			auxK = k
		}
	}
	if missing := identity.Missing(kind, pidK >= 0, auxK >= 0); missing != "" {
		q.note(identity.MissingNote(object, missing, true))
		return false, nil
	}
	c.pdh = append(c.pdh[:0], c.insts...)
	c.pids = c.pids[:0]
	c.apart = c.apart[:0]
	var in engine.Input
	for i := range c.insts {
		var key identity.Key
		if _, err := c.fill(&in, o, i, pidK); err != nil {
			return false, err
		}
		key.PID = in.New.FirstValue
		if auxK >= 0 {
			if _, err := c.fill(&in, o, i, auxK); err != nil {
				return false, err
			}
			key.Aux, key.HasAux = in.New.FirstValue, true
		}
		c.pids = append(c.pids, key)
		c.apart = append(c.apart, false)
		n := &c.insts[i]
		q.nameBuf = identity.AppendName(q.nameBuf[:0], kind, n.parent, n.name, key.PID, key.Aux)
		name := string(q.nameBuf)
		n.parent, n.name = "", name
		if kind == identity.Thread {
			// process:pid/tid: the thread's number has no "/".
			j := strings.LastIndexByte(name, '/')
			n.parent, n.name = name[:j], name[j+1:]
		}
		n.occurrence = 0
	}
	return true, nil
}

// apart numbers, in pid mode, the instances of capture c (its object
// identified and recalled) that share a name by ID (parent/name#n): as PDH
// numbers duplicate names, the first keeps its name and the next take the
// numbers after it that no instance of c has taken, in their order in the
// capture (c.apart marks them), and the object is noted. Where pair is
// set (after unpairReused, whose numbers may meet another's), an instance
// renumbered is unpaired: a series of its own.
func (q *Query) apart(c *capture, object string, pair []int) {
	kind := identity.KindOf(object)
	d := &q.dups[kind]
	d.Reset()
	mark := len(q.keys)
	for i := range c.insts {
		n := &c.insts[i]
		occ := n.occurrence
		for {
			// The instance's key (q.keys, then taken back).
			s := q.appendKey(n.parent, n.name, n.occurrence, i)
			dup := d.Next(q.keys[s.start:s.end])
			q.keys = q.keys[:mark]
			if dup == 0 {
				break
			}
			n.occurrence++
		}
		if n.occurrence == occ {
			continue
		}
		if i < len(c.apart) {
			c.apart[i] = true
		}
		if i < len(pair) {
			pair[i] = -1
		}
		if !q.dupNoted[kind] {
			// Once per object: the first name met twice.
			q.dupNoted[kind] = true
			first := n.name
			if n.parent != "" {
				first = n.parent + "/" + first
			}
			if occ > 0 {
				first += "#" + strconv.Itoa(occ)
			}
			q.note(identity.Note(kind, object, first, "capture"))
		}
	}
}

// reuse is a process that a Run numbered after the first of its name:pid
// (a reused PID): its key (ID Process and Creating Process ID: a process
// has one name) and its number (1 for the second process of that
// name:pid, …).
type reuse struct {
	key identity.Key
	n   int
}

// recall numbers, in pid mode, the processes of capture c (its object
// identified) that the last Run numbered (q.reused): the older capture's
// process met as the newer one in the Run before keeps its name:pid#n.
func (q *Query) recall(c *capture, object string) {
	if len(q.reused) == 0 || identity.KindOf(object) == identity.Thread {
		return
	}
	for i := range c.pids {
		for _, r := range q.reused {
			if identity.Same(r.key, c.pids[i]) && i < len(c.insts) {
				c.insts[i].occurrence = r.n
			}
		}
	}
}

// remember keeps, for the next Run, the newer capture's processes that
// this Run numbered as a reused PID (not those apart numbered), in
// q.nextReused (q.reused until then: the Run's other objects recall it).
func (q *Query) remember(c *capture) {
	for i := range c.pids {
		if i < len(c.insts) && c.insts[i].occurrence > 0 && !(i < len(c.apart) && c.apart[i]) {
			q.nextReused = append(q.nextReused, reuse{c.pids[i], c.insts[i].occurrence})
		}
	}
}

// note records a sentence of IdentityNotes once.
func (q *Query) note(s string) {
	for _, n := range q.notes {
		if n == s {
			return
		}
	}
	q.notes = append(q.notes, s)
}

// countBreaks counts, for an object paired by ID in both captures, the PDH
// instance names whose process differs between them (q.breaks). It uses
// the pairing scratch, which the caller fills again.
func (q *Query) countBreaks() {
	q.keys = q.keys[:0]
	q.newKeys = q.appendKeys(q.newKeys[:0], q.nw.pdh)
	q.oldKeys = q.appendKeys(q.oldKeys[:0], q.old.pdh)
	q.matchInstances()
	for i, j := range q.pair[:len(q.newKeys)] {
		if j >= 0 && !identity.Same(q.old.pids[j], q.nw.pids[i]) {
			q.breaks++
		}
	}
}

// unpairReused makes an instance whose older partner was another process
// of the same name:pid (another Creating Process ID) new, and numbers it
// after that one: the second process of a name:pid is name:pid#1, the
// third #2, … (PDH's numbering of duplicate names), each a series of its
// own.
func (q *Query) unpairReused() {
	for i, j := range q.pair[:len(q.newKeys)] {
		if j >= 0 && identity.Reused(q.old.pids[j], q.nw.pids[i]) {
			q.pair[i] = -1
			q.nw.insts[i].occurrence = q.old.insts[j].occurrence + 1
		}
	}
}

// IdentityBreaks returns the number of identity breaks of the last Run
// in pid mode (Config.Identity): the PDH instance names (chrome#2) that
// name another process (or thread) in the newer capture than in the
// older, where PDH's pairing computes a value between two processes
// (not identity.Same).
func (q *Query) IdentityBreaks() int { return q.breaks }

// IdentityNotes returns, in pid mode, one sentence per object whose
// instances the runs so far paired by name for want of their ID counters
// ("Process: no ID Process counter in the capture; its instances are
// paired by name (pdh)"), and one per object whose instances shared their
// IDs in a capture, told apart by their order in it.
func (q *Query) IdentityNotes() []string { return q.notes }
