package relog

import (
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/perfdata"
)

// idGroup is one object of one machine whose instances identity.PID pairs
// by ID: the instances of its wildcard entries (raw-record logs) or of its
// whole-object entry.
type idGroup struct {
	kind            identity.Kind
	machine, object string
	pidEntry        int // raw records: the ID Process entry, or −1
	auxEntry        int // raw records: the Creating Process ID or ID Thread entry, or −1
	// cur and prev map a PDH instance name (parent/name#n) to its key, in
	// this sample and in the previous kept one; names lists cur's names
	// in their order in the sample (countBreaks walks it: the module links
	// no map iteration), parts their parent and name (without #n).
	cur, prev map[string]identity.Key
	names     []string
	parts     []instParts
	// ids maps a PDH instance name to its identity.PID name in sample gen
	// (nameSample), which dups tells apart where the IDs cannot; it keeps
	// the names of earlier samples, so that a sample like the one before
	// allocates nothing.
	ids   map[string]*idName
	gen   uint32
	dups  identity.Dups
	noted bool // the object's shared IDs are noted
	// reused maps a process's name:pid to the Creating Process ID of its
	// last process and that process's number: 0 for the first, whose name
	// is name:pid, 1 for the second, name:pid#1 (PDH numbers duplicate
	// names so), a series of its own, ….
	reused map[string]reuse
}

// instParts is an instance's PDH parent and name (without #n).
type instParts struct {
	_           [0]func() // not comparable: no equality function in the WebAssembly module
	parent, own string
}

// idName is the identity.PID name of a PDH instance name in sample gen.
type idName struct {
	_    [0]func() // not comparable: no equality function in the WebAssembly module
	gen  uint32
	name string
}

// reuse is, for a name:pid, the creator of its last process and that
// process's number (0 for the first), and the highest number its name
// has had: the processes that shared its PID in one sample (a damaged
// log) took n+1, n+2, … (identity.Dups), so that a reused PID takes the
// number after them.
type reuse struct {
	aux    uint64
	n, top int
}

// start starts a sample of the group: the previous sample's keys become
// prev.
func (gr *idGroup) start() {
	gr.prev, gr.cur = gr.cur, gr.prev
	clear(gr.cur)
	gr.gen++
	gr.names = gr.names[:0]
	gr.parts = gr.parts[:0]
}

// set records the key of a PDH instance name in the sample, and the
// parent and name (without #n) it is named by.
//
//go:noinline
func (gr *idGroup) set(name string, k identity.Key, parent, own string) {
	if _, ok := gr.cur[name]; !ok {
		gr.names = append(gr.names, name)
		gr.parts = append(gr.parts, instParts{parent: parent, own: own})
	}
	gr.cur[name] = k
}

// pairing is what a Converter in identity.PID mode keeps.
type pairing struct {
	groups     []idGroup
	entryGroup []int32 // per raw-record entry: its group, or −1
	entryRole  []uint8 // per raw-record entry: its identity.Role
	notes      []string
	breaks     int64
	occ        map[string]*occurrences // per (entry, name): its occurrences in sample occGen
	occGen     uint32
	raw        bool // some raw-record entries are paired by ID
	name       []byte
	ids        []identity.Key // whole objects: per instance of the block
}

// setupIdentity prepares identity.PID for the log's counter list: the
// groups of the wildcard Process and Thread entries, and a note for those
// whose ID counters the list lacks.
func (c *Converter) setupIdentity() {
	if c.opts.Identity != identity.PID {
		return
	}
	id := &pairing{occ: map[string]*occurrences{}}
	c.id = id
	id.entryGroup = make([]int32, len(c.entries))
	id.entryRole = make([]uint8, len(c.entries))
	for i := range c.entries {
		id.entryGroup[i] = -1
		e := &c.entries[i]
		k := identity.KindOf(e.info.Object)
		if e.whole || !e.info.Wildcard() || k == identity.None {
			continue
		}
		g := id.group(k, e.info.Machine, e.info.Object)
		id.entryGroup[i] = int32(g)
		gr := &id.groups[g]
		switch id.entryRole[i] = uint8(identity.RoleOf(k, e.info.Counter)); identity.Role(id.entryRole[i]) {
		case identity.RolePID:
			gr.pidEntry = i
		case identity.RoleAux:
			gr.auxEntry = i
		}
	}
	for g := range id.groups {
		gr := &id.groups[g]
		missing := identity.Missing(gr.kind, gr.pidEntry >= 0, gr.auxEntry >= 0)
		if missing == "" {
			id.raw = true
			continue
		}
		id.note(gr.machine, gr.object, missing)
		for i := range id.entryGroup {
			if id.entryGroup[i] == int32(g) {
				id.entryGroup[i], id.entryRole[i] = -1, uint8(identity.RoleNone)
			}
		}
	}
	// A log without Process or Thread instances to pair (nor notes) reads
	// as in pdh mode, at its speed (the first reading in parts among
	// them).
	whole := false
	for i := range c.entries {
		whole = whole || c.entries[i].whole && identity.KindOf(c.entries[i].info.Object) != identity.None
	}
	if !id.raw && !whole && len(id.notes) == 0 {
		c.id = nil
	}
}

// group returns the index of the group of an object of a machine, adding
// it.
func (id *pairing) group(k identity.Kind, machine, object string) int {
	for g := range id.groups {
		gr := &id.groups[g]
		if gr.kind == k && strings.EqualFold(gr.machine, machine) && strings.EqualFold(gr.object, object) {
			return g
		}
	}
	id.groups = append(id.groups, idGroup{kind: k, machine: machine, object: object, pidEntry: -1, auxEntry: -1,
		cur: map[string]identity.Key{}, prev: map[string]identity.Key{}, ids: map[string]*idName{}, reused: map[string]reuse{}})
	return len(id.groups) - 1
}

// note records, once per object, that its instances are paired by name.
func (id *pairing) note(machine, object, missing string) {
	id.addNote(identity.MissingNote(objectName(machine, object), missing, false))
}

// objectName names an object in a note: Process (\\HOST).
func objectName(machine, object string) string {
	if machine != "" {
		return object + " (" + machine + ")"
	}
	return object
}

// addNote records a sentence of IdentityNotes once.
//
//go:noinline
func (id *pairing) addNote(s string) {
	if !contains(id.notes, s) {
		id.notes = append(id.notes, s)
	}
}

// reset forgets the samples of the first reading, before the second.
func (id *pairing) reset() {
	for g := range id.groups {
		clear(id.groups[g].cur)
		clear(id.groups[g].prev)
		clear(id.groups[g].reused)
		id.groups[g].gen++
		id.groups[g].names = id.groups[g].names[:0]
		id.groups[g].parts = id.groups[g].parts[:0]
	}
	id.breaks = 0
}

// IdentityNotes returns, in identity.PID mode, one sentence per object
// whose instances are paired by name because the log lacks the counters
// that identify them ("Process (\\HOST): no ID Process counter in the log;
// its instances are paired by name (pdh)"), and one per object whose
// instances share their IDs in a sample ("Thread (\\HOST): instances share
// their ID Process and ID Thread (Idle:0/0); they are told apart by their
// order in the sample, …"). They are known after the first reading (New).
func (c *Converter) IdentityNotes() []string {
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
	return c.id.notes
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

// IdentityBreaks returns, in identity.PID mode, the number of identity
// breaks the second reading has met so far: a PDH instance name (chrome#2)
// that names another process (or thread) than in the previous kept sample,
// where PDH would compute a value between two processes. A log without
// breaks yields, in both modes, the same values in series of other names.
//
// For several logs (Merge), each log's instances are named by ID, and the
// breaks and notes are those of all the logs; a reused PID (the same
// name:pid, another Creating Process ID) is told within each log (its
// name:pid#1 is a series of that log).
func (c *Converter) IdentityBreaks() int64 {
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
	return c.id.breaks
}

// occurrences counts the occurrences of an (entry, instance name) in
// sample gen: the map keeps the names of earlier samples, so that a sample
// like the one before adds no key.
type occurrences struct {
	_   [0]func() // not comparable: no equality function in the WebAssembly module
	gen uint32
	n   int
}

// numbered returns the PDH name of the n-th occurrence of an instance name
// in the values of entry ei in the current sample: name, name#1, … (PDH
// numbers the duplicates of a sample in their order).
func (id *pairing) numbered(ei int, inst []byte) string {
	id.name = strconv.AppendInt(id.name[:0], int64(ei), 10)
	id.name = append(id.name, 0)
	id.name = append(id.name, inst...)
	o := id.occ[string(id.name)]
	if o == nil {
		o = &occurrences{}
		id.occ[string(id.name)] = o
	}
	if o.gen != id.occGen {
		o.gen, o.n = id.occGen, 0
	}
	n := o.n
	o.n++
	if n == 0 {
		return string(inst)
	}
	return string(inst) + "#" + strconv.Itoa(n)
}

// collect reads, before the values of a raw-record sample are visited, the
// ID counters of every group: the key of each PDH instance name. In the
// second reading it counts the breaks.
func (id *pairing) collect(values []blg.Value, first bool) {
	for g := range id.groups {
		id.groups[g].start()
	}
	id.occGen++
	for i := range values {
		v := &values[i]
		if v.Counter < 0 || v.Counter >= len(id.entryRole) || identity.Role(id.entryRole[v.Counter]) == identity.RoleNone {
			continue
		}
		gr := &id.groups[id.entryGroup[v.Counter]]
		name := id.numbered(v.Counter, v.Instance)
		k, met := gr.cur[name]
		if identity.Role(id.entryRole[v.Counter]) == identity.RolePID {
			k.PID = v.Raw.FirstValue
		} else {
			k.Aux, k.HasAux = v.Raw.FirstValue, true
		}
		parent, own := "", ""
		if !met {
			parent, own = splitThread(gr.kind, string(v.Instance))
		}
		gr.set(name, k, parent, own)
	}
	id.occGen++
	for g := range id.groups {
		id.nameSample(&id.groups[g])
	}
	if !first {
		for g := range id.groups {
			id.countBreaks(&id.groups[g])
		}
	}
}

// countBreaks counts the instance names of a group whose key differs from
// the previous kept sample's.
//
//go:noinline
func (id *pairing) countBreaks(gr *idGroup) {
	for _, name := range gr.names {
		if p, ok := gr.prev[name]; ok && !identity.Same(p, gr.cur[name]) {
			id.breaks++
		}
	}
}

// splitThread splits a thread's instance name parent/name at its first
// "/"; another object's name is its own.
func splitThread(k identity.Kind, inst string) (parent, own string) {
	if k == identity.Thread {
		if i := strings.IndexByte(inst, '/'); i >= 0 {
			return inst[:i], inst[i+1:]
		}
	}
	return "", inst
}

// rawName returns, for a value of a raw-record entry paired by ID, the
// name of its instance in identity.PID mode; ok is false where the sample
// lacks the instance's ID (it is then paired by name).
func (id *pairing) rawName(ei int, inst []byte) (name []byte, ok bool) {
	gr := &id.groups[id.entryGroup[ei]]
	pdh := id.numbered(ei, inst)
	n, ok := gr.idOf(pdh)
	if !ok {
		return append(id.name[:0], pdh...), false
	}
	return append(id.name[:0], n...), true
}

// idOf returns the identity.PID name of the PDH instance name pdh in the
// current sample; ok is false where the sample has not named it.
func (gr *idGroup) idOf(pdh string) (name string, ok bool) {
	n := gr.ids[pdh]
	if n == nil || n.gen != gr.gen {
		return "", false
	}
	return n.name, true
}

// nameSample names, in identity.PID mode, the instances of a sample of
// group gr (gr.names, in their order in the sample): gr.ids.
func (id *pairing) nameSample(gr *idGroup) {
	gr.dups.Reset()
	for i, pdh := range gr.names {
		id.name = id.appendName(id.name[:0], gr, gr.parts[i].parent, gr.parts[i].own, gr.cur[pdh])
		n := gr.ids[pdh]
		if n == nil {
			n = &idName{}
			gr.ids[pdh] = n
		}
		if n.name != string(id.name) {
			n.name = string(id.name)
		}
		n.gen = gr.gen
	}
}

// appendName appends the identity.PID name of the next instance of a sample
// of group gr: name:pid for a process, process:pid/tid for a thread
// (_Total as is: identity.Name). A process whose name:pid an earlier
// process of the group had (a reused PID: another Creating Process ID than
// the last one's) is name:pid#1, then #2, … (PDH's numbering of duplicate
// names: #1 is the second): a series of its own. Instances of the sample
// that the IDs cannot tell apart (the same name:pid, or process:pid/tid)
// are numbered in their order in the sample, as PDH numbers duplicate
// names (identity.Dups), and noted.
func (id *pairing) appendName(dst []byte, gr *idGroup, parent, own string, key identity.Key) []byte {
	k := gr.kind
	if k == identity.Process {
		parent = ""
	}
	start := len(dst)
	dst = identity.AppendName(dst, k, parent, own, key.PID, key.Aux)
	dup := gr.dups.Next(dst[start:])
	if dup == 1 && !gr.noted {
		// Once per object: the first name met twice.
		gr.noted = true
		id.addNote(identity.Note(k, objectName(gr.machine, gr.object), string(dst[start:]), "sample"))
	}
	n := dup
	if k == identity.Process && own != "_Total" {
		r, ok := gr.reused[string(dst[start:])]
		switch {
		case dup > 0:
			// Another process of this name:pid in the sample: after the
			// first's number.
			if n = r.n + dup; n > r.top {
				r.top = n
				gr.reused[string(dst[start:])] = r
			}
		case !ok || key.HasAux && r.aux != key.Aux:
			if ok {
				r.n = r.top + 1
				r.top = r.n
			}
			r.aux = key.Aux
			gr.reused[string(dst[start:])] = r
		}
		if dup == 0 {
			n = r.n
		}
	}
	if n > 0 {
		dst = append(dst, '#')
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	return dst
}

// wholeIDs finds the ID counters of a whole object's block in identity.PID
// mode and sets id.ids, one key per instance; ok is false where the object
// is not paired by ID (another object, or its IDs missing: noted).
func (c *Converter) wholeIDs(e *entry, obj *perfdata.Object, defs []defRef) (ok bool, err error) {
	id := c.id
	k := identity.KindOf(e.info.Object)
	if k == identity.None || obj.NumInstances == perfdata.NoInstances {
		return false, nil
	}
	pidDef, auxDef := -1, -1
	for j := range defs {
		d := &defs[j]
		if d.ci < 0 || int(d.ci) >= len(e.counters) {
			continue
		}
		switch identity.RoleOf(k, e.counters[d.ci]) {
		case identity.RolePID:
			pidDef = j
		case identity.RoleAux:
			auxDef = j
		}
	}
	if missing := identity.Missing(k, pidDef >= 0, auxDef >= 0); missing != "" {
		id.note(e.info.Machine, e.info.Object, missing)
		return false, nil
	}
	id.ids = id.ids[:0]
	insts := obj.Instances()
	for insts.Next() {
		inst := insts.Instance()
		var key identity.Key
		for r, d := range [2]int{pidDef, auxDef} {
			var in engine.Input
			if d < 0 || obj.Fill(&in, &defs[d].def, inst.CounterBlock) != nil {
				continue
			}
			if r == 0 {
				key.PID = in.New.FirstValue
			} else {
				key.Aux, key.HasAux = in.New.FirstValue, true
			}
		}
		id.ids = append(id.ids, key)
	}
	return true, insts.Err()
}

// wholeGroup returns the group of a whole-object entry of kind k paired by
// ID, and starts its sample.
func (id *pairing) wholeGroup(k identity.Kind, e *entry) *idGroup {
	gr := &id.groups[id.group(k, e.info.Machine, e.info.Object)]
	gr.start()
	return gr
}

// endBlock ends the block of a whole-object group: the second reading
// counts its breaks.
func (id *pairing) endBlock(gr *idGroup, first bool) {
	if !first {
		id.countBreaks(gr)
	}
}
