package relog

import (
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/perfdata"
)

// Identity is how a Converter pairs the instances of one sample with those
// of the sample before it (Options.Identity).
//
// PDH pairs instances by name. It names the processes that share a name
// chrome, chrome#1, chrome#2, … in their order in the sample, so that when
// one exits the others are renumbered, and chrome#2 of one sample and of
// the next can be two processes: a rate computed between them is
// meaningless. IdentityPID pairs them by the process they are:
//
//   - a Process instance by its "ID Process" counter, and by its
//     "Creating Process ID" where the log has it, to tell a reused PID: its
//     instance is named name:pid (\Process(chrome:4242)\% Processor Time),
//     a series per process; _Total keeps its name;
//   - a Thread instance by "ID Process" and "ID Thread": it is named
//     process:pid/tid (\Thread(chrome:4242/5120)\Context Switches/sec);
//   - a Process V2 instance is already named name:pid by Windows: pairing it
//     by name is pairing it by PID, in both modes.
//
// A process that appears is a new series, whose first sample has no value
// (NewData for a two-sample type, as PDH's first sample), and no value is
// ever computed between two processes. An object whose IDs the log does
// not hold is paired by name, as PDH pairs it, and IdentityNotes says so.
// IdentityBreaks counts the identity breaks: a PDH instance name whose
// process (or thread) differs from the one it named in the sample before
// (where PDH computes between two processes).
//
// The objects are recognised by their English names (Process, Thread) and
// their ID counters likewise. The WebAssembly module's build leaves
// IdentityPID out (identityBuilt) and pairs by name.
type Identity uint8

const (
	// IdentityPDH pairs instances by name, as PDH and relog do (the
	// default; CSV and TSV are then relog's, byte for byte).
	IdentityPDH Identity = iota
	// IdentityPID pairs Process and Thread instances by process and thread
	// ID (see Identity).
	IdentityPID
)

// ParseIdentity returns the Identity named s: "pdh" or "pid".
func ParseIdentity(s string) (Identity, bool) {
	switch s {
	case "pdh":
		return IdentityPDH, true
	case "pid":
		return IdentityPID, true
	}
	return IdentityPDH, false
}

// String returns the identity's name: "pdh" or "pid".
func (id Identity) String() string {
	if id == IdentityPID {
		return "pid"
	}
	return "pdh"
}

// idKind is the kind of object whose instances IdentityPID pairs by ID.
type idKind uint8

const (
	kindNone idKind = iota
	kindProcess
	kindThread
)

// kindOf returns the kind of the object named object.
func kindOf(object string) idKind {
	switch {
	case strings.EqualFold(object, "Process"):
		return kindProcess
	case strings.EqualFold(object, "Thread"):
		return kindThread
	}
	return kindNone
}

// The counters that identify an instance.
const (
	idProcessName = "ID Process"
	idCreatorName = "Creating Process ID"
	idThreadName  = "ID Thread"
	idRoleNone    = 0
	idRolePID     = 1
	idRoleAux     = 2 // Creating Process ID of a process, ID Thread of a thread
)

// idKey identifies the process (or thread) of an instance in one sample.
type idKey struct {
	pid, aux uint64
	hasAux   bool
}

// idGroup is one object of one machine whose instances IdentityPID pairs
// by ID: the instances of its wildcard entries (raw-record logs) or of its
// whole-object entry.
type idGroup struct {
	kind            idKind
	machine, object string
	pidEntry        int // raw records: the ID Process entry, or −1
	auxEntry        int // raw records: the Creating Process ID or ID Thread entry, or −1
	// cur and prev map a PDH instance name (parent/name#n) to its key, in
	// this sample and in the previous kept one.
	cur, prev map[string]idKey
}

// identity is what a Converter in IdentityPID mode keeps.
type identity struct {
	groups     []idGroup
	entryGroup []int32 // per raw-record entry: its group, or −1
	entryRole  []uint8 // per raw-record entry: idRole…
	whole      map[*entry]int
	notes      []string
	noted      map[string]bool
	breaks     int64
	occ        map[string]int // per sample: occurrences of (entry, name)
	raw        bool           // some raw-record entries are paired by ID
	// The key of the instance fill is called for, and whether its aux is
	// a Creating Process ID (fill compares it with the column's last, to
	// tell a reused PID).
	key     idKey
	creator bool
	colAux  []uint64 // per column: the aux of the process of its last value
	colHas  []bool
	name    []byte
	ids     []idKey // whole objects: per instance of the block
}

// identityBuilt says whether IdentityPID is built in: natively, not in the
// WebAssembly module (fast_wasm.go), whose size budget its code (about 60
// KB of module) exceeds; there Options.Identity is ignored and instances
// are paired by name. Every use of Converter.id is guarded by it, so that
// the module links none of this file's code.
const identityBuilt = fast

// ident returns the Converter's *identity (nil in IdentityPDH mode).
func (c *Converter) ident() *identity {
	id, _ := c.id.(*identity)
	return id
}

// setupIdentity prepares IdentityPID for the log's counter list: the
// groups of the wildcard Process and Thread entries, and a note for those
// whose ID counters the list lacks.
func (c *Converter) setupIdentity() {
	if !identityBuilt || c.opts.Identity != IdentityPID {
		return
	}
	id := &identity{whole: map[*entry]int{}, noted: map[string]bool{}, occ: map[string]int{}}
	c.id = id
	id.entryGroup = make([]int32, len(c.entries))
	id.entryRole = make([]uint8, len(c.entries))
	for i := range c.entries {
		id.entryGroup[i] = -1
		e := &c.entries[i]
		k := kindOf(e.info.Object)
		if e.whole || !e.info.Wildcard() || k == kindNone {
			continue
		}
		g := id.group(k, e.info.Machine, e.info.Object)
		id.entryGroup[i] = int32(g)
		gr := &id.groups[g]
		switch {
		case strings.EqualFold(e.info.Counter, idProcessName):
			gr.pidEntry, id.entryRole[i] = i, idRolePID
		case k == kindProcess && strings.EqualFold(e.info.Counter, idCreatorName),
			k == kindThread && strings.EqualFold(e.info.Counter, idThreadName):
			gr.auxEntry, id.entryRole[i] = i, idRoleAux
		}
	}
	for g := range id.groups {
		gr := &id.groups[g]
		missing := ""
		switch {
		case gr.pidEntry < 0:
			missing = idProcessName
		case gr.kind == kindThread && gr.auxEntry < 0:
			missing = idThreadName
		}
		if missing == "" {
			id.raw = true
			continue
		}
		id.note(gr.machine, gr.object, missing)
		for i := range id.entryGroup {
			if id.entryGroup[i] == int32(g) {
				id.entryGroup[i], id.entryRole[i] = -1, idRoleNone
			}
		}
	}
	// A log without Process or Thread instances to pair (nor notes) reads
	// as in pdh mode, at its speed (the first reading in parts among
	// them).
	whole := false
	for i := range c.entries {
		whole = whole || c.entries[i].whole && kindOf(c.entries[i].info.Object) != kindNone
	}
	if !id.raw && !whole && len(id.notes) == 0 {
		c.id = nil
	}
}

// group returns the index of the group of an object of a machine, adding
// it.
func (id *identity) group(k idKind, machine, object string) int {
	for g := range id.groups {
		gr := &id.groups[g]
		if gr.kind == k && strings.EqualFold(gr.machine, machine) && strings.EqualFold(gr.object, object) {
			return g
		}
	}
	id.groups = append(id.groups, idGroup{kind: k, machine: machine, object: object, pidEntry: -1, auxEntry: -1,
		cur: map[string]idKey{}, prev: map[string]idKey{}})
	return len(id.groups) - 1
}

// note records, once per object, that its instances are paired by name.
func (id *identity) note(machine, object, missing string) {
	s := object
	if machine != "" {
		s += " (" + machine + ")"
	}
	s += ": no " + missing + " counter in the log; its instances are paired by name (pdh)"
	if !id.noted[s] {
		id.noted[s] = true
		id.notes = append(id.notes, s)
	}
}

// reset forgets the samples of the first reading, before the second.
func (id *identity) reset() {
	for g := range id.groups {
		clear(id.groups[g].cur)
		clear(id.groups[g].prev)
	}
	clear(id.colHas)
	id.breaks = 0
}

// IdentityNotes returns, in IdentityPID mode, one sentence per object
// whose instances are paired by name because the log lacks the counters
// that identify them ("Process (\\HOST): no ID Process counter in the log;
// its instances are paired by name (pdh)"). Whole-object logs are known
// after the first reading (New), raw-record logs from their counter list.
func (c *Converter) IdentityNotes() []string {
	if !identityBuilt {
		return nil
	}
	if m, ok := c.merge.(*merger); ok {
		var notes []string
		for _, p := range m.parts {
			for _, n := range p.IdentityNotes() {
				if !contains(notes, n) {
					notes = append(notes, n)
				}
			}
		}
		return notes
	}
	if c.id == nil {
		return nil
	}
	return c.ident().notes
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// IdentityBreaks returns, in IdentityPID mode, the number of identity
// breaks the second reading has met so far: a PDH instance name (chrome#2)
// that names another process (or thread) than in the previous kept sample,
// where PDH would compute a value between two processes. A log without
// breaks yields, in both modes, the same values in series of other names.
//
// For several logs (Merge), each log's instances are named by ID, and the
// breaks and notes are those of all the logs; a reused PID (the same
// name:pid, another Creating Process ID) is not told in a merge.
func (c *Converter) IdentityBreaks() int64 {
	if !identityBuilt {
		return 0
	}
	if m, ok := c.merge.(*merger); ok {
		n := int64(0)
		for _, p := range m.parts {
			n += p.IdentityBreaks()
		}
		return n
	}
	if c.id == nil {
		return 0
	}
	return c.ident().breaks
}

// numbered returns the PDH name of the n-th occurrence of an instance name
// in the values of entry ei in the current sample: name, name#1, … (PDH
// numbers the duplicates of a sample in their order).
func (id *identity) numbered(ei int, inst []byte) string {
	id.name = strconv.AppendInt(id.name[:0], int64(ei), 10)
	id.name = append(id.name, 0)
	id.name = append(id.name, inst...)
	n := id.occ[string(id.name)]
	id.occ[string(id.name)] = n + 1
	if n == 0 {
		return string(inst)
	}
	return string(inst) + "#" + strconv.Itoa(n)
}

// collect reads, before the values of a raw-record sample are visited, the
// ID counters of every group: the key of each PDH instance name. In the
// second reading it counts the breaks.
func (id *identity) collect(values []blg.Value, first bool) {
	for g := range id.groups {
		gr := &id.groups[g]
		gr.prev, gr.cur = gr.cur, gr.prev
		clear(gr.cur)
	}
	clear(id.occ)
	for i := range values {
		v := &values[i]
		if v.Counter < 0 || v.Counter >= len(id.entryRole) || id.entryRole[v.Counter] == idRoleNone {
			continue
		}
		gr := &id.groups[id.entryGroup[v.Counter]]
		name := id.numbered(v.Counter, v.Instance)
		k := gr.cur[name]
		if id.entryRole[v.Counter] == idRolePID {
			k.pid = v.Raw.FirstValue
		} else {
			k.aux, k.hasAux = v.Raw.FirstValue, true
		}
		gr.cur[name] = k
	}
	clear(id.occ)
	if !first {
		for g := range id.groups {
			id.countBreaks(&id.groups[g])
		}
	}
}

// countBreaks counts the instance names of a group whose key differs from
// the previous kept sample's.
func (id *identity) countBreaks(gr *idGroup) {
	for name, k := range gr.cur {
		if p, ok := gr.prev[name]; ok && p != k {
			id.breaks++
		}
	}
}

// rawName returns, for a value of a raw-record entry paired by ID, the
// name of its instance in IdentityPID mode, and sets id.key; ok is false
// where the sample lacks the instance's ID (it is then paired by name).
func (id *identity) rawName(ei int, inst []byte) (name []byte, ok bool) {
	gr := &id.groups[id.entryGroup[ei]]
	pdh := id.numbered(ei, inst)
	k, found := gr.cur[pdh]
	if !found {
		id.key, id.creator = idKey{}, false
		return append(id.name[:0], pdh...), false
	}
	id.key, id.creator = k, gr.kind == kindProcess && k.hasAux
	parent, own := "", string(inst)
	if gr.kind == kindThread {
		if i := strings.IndexByte(own, '/'); i >= 0 {
			parent, own = own[:i], own[i+1:]
		}
	}
	return id.appendName(id.name[:0], gr.kind, parent, own, k), true
}

// appendName appends the IdentityPID name of an instance: name:pid for a
// process (_Total as is), process:pid/tid for a thread.
func (id *identity) appendName(dst []byte, k idKind, parent, own string, key idKey) []byte {
	if k == kindThread {
		dst = append(dst, parent...)
		dst = append(dst, ':')
		dst = strconv.AppendUint(dst, key.pid, 10)
		dst = append(dst, '/')
		return strconv.AppendUint(dst, key.aux, 10)
	}
	dst = append(dst, own...)
	if own == "_Total" {
		return dst
	}
	dst = append(dst, ':')
	return strconv.AppendUint(dst, key.pid, 10)
}

// check makes, in fill, a value of a reused PID (another Creating Process
// ID than the column's last value) a first sample.
func (id *identity) check(col int32, in *engine.Input) {
	if !id.creator {
		return
	}
	if len(id.colHas) <= int(col) {
		n := max(int(col)+1, 2*len(id.colHas))
		id.colHas = append(id.colHas, make([]bool, n-len(id.colHas))...)
		id.colAux = append(id.colAux, make([]uint64, n-len(id.colAux))...)
	}
	if in.HasOld && id.colHas[col] && id.colAux[col] != id.key.aux {
		in.HasOld = false
	}
	id.colAux[col], id.colHas[col] = id.key.aux, true
}

// wholeIDs finds the ID counters of a whole object's block in IdentityPID
// mode and sets id.ids, one key per instance; ok is false where the object
// is not paired by ID (another object, or its IDs missing: noted).
func (c *Converter) wholeIDs(e *entry, obj *perfdata.Object, defs []defRef) (ok bool, err error) {
	id := c.ident()
	k := kindOf(e.info.Object)
	if k == kindNone || obj.NumInstances == perfdata.NoInstances {
		return false, nil
	}
	pidDef, auxDef := -1, -1
	for j := range defs {
		d := &defs[j]
		if d.ci < 0 || int(d.ci) >= len(e.counters) {
			continue
		}
		switch name := e.counters[d.ci]; {
		case strings.EqualFold(name, idProcessName):
			pidDef = j
		case k == kindProcess && strings.EqualFold(name, idCreatorName),
			k == kindThread && strings.EqualFold(name, idThreadName):
			auxDef = j
		}
	}
	switch {
	case pidDef < 0:
		id.note(e.info.Machine, e.info.Object, idProcessName)
		return false, nil
	case k == kindThread && auxDef < 0:
		id.note(e.info.Machine, e.info.Object, idThreadName)
		return false, nil
	}
	id.ids = id.ids[:0]
	insts := obj.Instances()
	for insts.Next() {
		inst := insts.Instance()
		var key idKey
		var in engine.Input
		if obj.Fill(&in, &defs[pidDef].def, inst.CounterBlock) == nil {
			key.pid = in.New.FirstValue
		}
		if auxDef >= 0 && obj.Fill(&in, &defs[auxDef].def, inst.CounterBlock) == nil {
			key.aux, key.hasAux = in.New.FirstValue, true
		}
		id.ids = append(id.ids, key)
	}
	return true, insts.Err()
}

// wholeGroup returns the group of a whole-object entry paired by ID, and
// starts its sample: the previous sample's keys become prev.
func (id *identity) wholeGroup(e *entry) *idGroup {
	g, ok := id.whole[e]
	if !ok {
		g = id.group(kindOf(e.info.Object), e.info.Machine, e.info.Object)
		id.whole[e] = g
	}
	gr := &id.groups[g]
	gr.prev, gr.cur = gr.cur, gr.prev
	clear(gr.cur)
	return gr
}

// endBlock ends the block of a whole-object group: the second reading
// counts its breaks.
func (id *identity) endBlock(gr *idGroup, first bool) {
	id.creator = false
	if !first {
		id.countBreaks(gr)
	}
}
