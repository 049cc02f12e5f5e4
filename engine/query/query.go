package query

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/internal/fold"
	"github.com/perfcalc/perfcalc/engine/internal/heapsort"
	"github.com/perfcalc/perfcalc/engine/internal/quote"
	"github.com/perfcalc/perfcalc/engine/internal/text"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
)

// Config is what a Query computes: the selection, the names and the
// options. The zero Config selects every counter of V1 captures, names
// objects and counters by index, and computes relog's values (no cap, no
// scaling).
type Config struct {
	// Names is the "Counter <lang>" name table of V1 object and counter
	// title indexes; nil names them "#<index>".
	Names *nametable.Table
	// Paths selects counters by PDH counter path, with wildcards
	// (counterpath.Path.Matches); none selects every counter.
	Paths []counterpath.Path
	// Options are the engine's options (engine.Cap100, engine.Scale, …).
	Options engine.Options

	// RegInfo is the counterset's registration, needed for V2 captures.
	RegInfo *perflibv2.RegInfo
	// Strings are the counterset's counter names (PERF_REG_COUNTER_NAME_STRINGS);
	// nil names V2 counters "#<CounterId>".
	Strings *perflibv2.StringBuffer
	// CounterSet is the object name of V2 counter paths; "" uses the
	// counterset's GUID in registry form.
	CounterSet string
	// IDs gives, for each V2 block position, the CounterId of the counter the
	// consumer added with that Index (perflibv2.Selector.IDs), or
	// perflibv2.NoCounter. Blocks that do not list their counters
	// (PERF_SINGLE_COUNTER, PERF_MULTIPLE_INSTANCES, PERF_ERROR_RETURN) need
	// it: without it they are left out, and Query.Unnamed counts them.
	IDs []uint32
	// Identity is how instances are paired between the captures: by name
	// as PDH pairs them (identity.PDH, the zero value), or Process and
	// Thread instances by process and thread ID (identity.PID: the
	// --identity pid of the commands; identity.go).
	Identity identity.Mode
}

// Value is one computed counter of one instance.
type Value struct {
	// Path is the counter's canonical PDH path,
	// \\machine\object(parent/instance#n)\counter. It is a view of the
	// Query's buffer, valid until the next Run.
	Path []byte
	// Parts are Path's parts, as the captures name them (Path is
	// formatted from them: counterpath.Path.AppendTo).
	Parts counterpath.Path
	// Type, Scale and DetailLevel are the counter's definition (its
	// CounterType, DefaultScale and DetailLevel).
	Type        engine.CounterType
	Scale       int32
	DetailLevel uint32
	// Value and Status are the computed value, as engine.Compute returns it.
	Value  float64
	Status engine.Status
	// HasOld says whether the instance was found in the older capture.
	HasOld bool
	// Raw is the newer capture's raw record of the counter (FirstValue,
	// SecondValue, MultiCount, CStatus and TimeStamp, as perfdata's and
	// perflibv2's Fill give them), from which Value was computed.
	Raw engine.RawCounter
}

// Suffix returns the display suffix of the counter's type ("/sec", "%", …).
func (v *Value) Suffix() engine.Suffix { return v.Type.Suffix() }

// ErrMismatch is wrapped by a *MismatchError.
var ErrMismatch = errors.New("the captures do not match")

// ErrNotV1 is returned by Run for a capture that is not a V1 blob when the
// Config has no RegInfo for V2.
var ErrNotV1 = errors.New("query: not a V1 PERF_DATA_BLOCK (a V2 capture needs Config.RegInfo)")

// MismatchError reports two captures that cannot be paired: different
// machines, objects that only one of them has, or an object whose counter
// definitions differ.
type MismatchError struct {
	_     [0]func() // not comparable: no equality function in the module
	What  string    // "machine", "object", "counters of object", "format", "number of blocks", "block"
	Older string    // what the older capture has ("" when it lacks it)
	Newer string    // what the newer capture has
}

// Error returns the error's text, for example
// `query: the captures do not match: machine "A" in the older, "B" in the newer`.
func (e *MismatchError) Error() string {
	b := []byte("query: the captures do not match: ")
	b = append(b, e.What...)
	switch {
	case e.Older == "":
		b = append(b, ' ')
		b = quote.AppendPath(b, e.Newer)
		b = append(b, " only in the newer"...)
	case e.Newer == "":
		b = append(b, ' ')
		b = quote.AppendPath(b, e.Older)
		b = append(b, " only in the older"...)
	default:
		b = append(b, ' ')
		b = quote.AppendPath(b, e.Older)
		b = append(b, " in the older, "...)
		b = quote.AppendPath(b, e.Newer)
		b = append(b, " in the newer"...)
	}
	return string(b)
}

// Unwrap returns ErrMismatch.
func (e *MismatchError) Unwrap() error { return ErrMismatch }

// Query computes the counters of pairs of captures. It keeps buffers from
// one Run to the next; a Query is not safe for concurrent use (use one per
// goroutine).
type Query struct {
	cfg Config

	nw, old capture // the newer and the older capture

	names   map[uint32]string // V1 object and counter names by title index
	v2names map[uint32]string // V2 counter names by id
	intern  text.Interner     // V2 instance names and keys, kept from run to run
	counts  map[string]int    // V2 instance names: occurrences so far
	setName string            // the V2 object name of paths
	setReg  *perflibv2.RegInfo

	// V1 object pairing: per newer object its older object, per older
	// object whether it is paired, the first unpaired older object of each
	// title index, and the next older object of the same index (or -1).
	partner []int
	used    []bool
	byTitle map[uint32]int
	next    []int

	// The current object's counter names ("" for a base counter) and
	// whether each has no value of its own.
	cnames []string
	skip   []bool

	// Selection scratch: per pattern, whether it matches the current
	// object, each counter and each instance.
	objOK  []bool
	ctrOK  []bool // pattern-major: [p*nCounters+c]
	instOK []bool // pattern-major: [p*nInstances+i]

	// Instance matching scratch.
	keys    []byte
	newKeys []span
	oldKeys []span
	sorted  []span
	pair    []int // per newer instance: the older instance, or -1

	pathBuf []byte
	nameBuf []byte
	unnamed int
	breaks  int      // pid mode: the last Run's identity breaks
	notes   []string // pid mode: the objects paired by name
	// pid mode: the processes the last Run numbered (recall), and
	// those this Run numbers (remember).
	reused, nextReused []reuse
	// pid mode: the names of the current object's instances, to number
	// those that share one (apart), per identity.Kind.
	dups     [3]identity.Dups
	dupNoted [3]bool
}

// span is a key in Query.keys, with the position of its instance.
type span struct {
	start, end int
	index      int
}

// New returns a Query for the given configuration. The Query keeps cfg's
// slices and table; they must not change while it is used.
func New(cfg Config) *Query {
	return &Query{cfg: cfg}
}

// Run computes every selected counter between the older and the newer
// capture and appends the values to dst, in the newer capture's order
// (objects, then instances, then counters). A nil older computes from the
// newer capture alone, as a first sample: 2-sample types answer
// engine.NewData.
//
// V1 blobs are recognised by their "PERF" signature; anything else is read
// as a V2 PerfQueryCounterData result when Config.RegInfo is set, and
// refused with ErrNotV1 otherwise. Malformed captures give a
// *engine.FormatError, captures that do not pair a *MismatchError. The
// Paths of the values are valid until the next Run.
func (q *Query) Run(dst []Value, older, newer []byte) ([]Value, error) {
	q.pathBuf = q.pathBuf[:0]
	q.unnamed, q.breaks = 0, 0
	q.nextReused = q.nextReused[:0]
	v2 := !perfdata.IsV1(newer)
	switch {
	case !v2 && older != nil && !perfdata.IsV1(older):
		return dst, &MismatchError{What: "format", Older: "not V1", Newer: "V1"}
	case v2 && q.cfg.RegInfo == nil:
		return dst, ErrNotV1
	case v2 && older != nil && perfdata.IsV1(older):
		return dst, &MismatchError{What: "format", Older: "V1", Newer: "V2"}
	}
	q.nw.v2, q.old.v2 = v2, v2
	n0 := len(dst)
	dst, err := q.run(dst, older, newer)
	if err != nil {
		return dst[:n0], err
	}
	return dst, nil
}

// Unnamed returns the number of V2 blocks that the last Run left out
// because they do not name their counter and Config.IDs does not either.
func (q *Query) Unnamed() int { return q.unnamed }

// selectObject sets objOK for the object named object on machine and
// reports whether any pattern (or the absence of patterns) selects it.
func (q *Query) selectObject(machine, object string) bool {
	ps := q.cfg.Paths
	if len(ps) == 0 {
		return true
	}
	q.objOK = grow(q.objOK, len(ps))
	any := false
	for i := range ps {
		p := &ps[i]
		ok := (p.Machine == "" || strings.EqualFold(p.Machine, machine)) && strings.EqualFold(p.Object, object)
		q.objOK[i] = ok
		any = any || ok
	}
	return any
}

// selectCounters sets ctrOK for the n counters named names ("" matches
// no pattern).
func (q *Query) selectCounters(n int, names []string) {
	ps := q.cfg.Paths
	q.ctrOK = grow(q.ctrOK, len(ps)*n)
	for i := range ps {
		if !q.objOK[i] {
			continue
		}
		for c := range n {
			if s := names[c]; s != "" {
				q.ctrOK[i*n+c] = counterpath.Match(ps[i].Counter, s)
			} else {
				q.ctrOK[i*n+c] = false
			}
		}
	}
}

// selectInstances sets instOK for the instances insts; has says whether
// the object has instances.
func (q *Query) selectInstances(insts []instName, has bool) {
	ps := q.cfg.Paths
	n := len(insts)
	q.instOK = grow(q.instOK, len(ps)*n)
	for i := range ps {
		if !q.objOK[i] {
			continue
		}
		p := &ps[i]
		for j := range n {
			in := &insts[j]
			// A concrete path whose machine, object and counter are the
			// pattern's own (a pattern matches itself) isolates the
			// instance part of Matches.
			c := counterpath.Path{Machine: p.Machine, Object: p.Object, Counter: p.Counter,
				HasInstance: has, Parent: in.parent, Instance: in.name, Index: in.occurrence}
			q.instOK[i*n+j] = p.Matches(c)
		}
	}
}

// selected reports whether counter c of instance i is selected (nc
// counters, ni instances).
func (q *Query) selected(c, nc, i, ni int) bool {
	ps := q.cfg.Paths
	if len(ps) == 0 {
		return true
	}
	for p := range ps {
		if q.objOK[p] && q.ctrOK[p*nc+c] && q.instOK[p*ni+i] {
			return true
		}
	}
	return false
}

// appendKey appends the case-folded full name parent/name#n of an instance
// to q.keys and returns its span.
func (q *Query) appendKey(parent, name string, occurrence, index int) span {
	s := span{start: len(q.keys), index: index}
	q.keys = fold.Append(q.keys, parent)
	if parent != "" {
		q.keys = append(q.keys, '/')
	}
	q.keys = fold.Append(q.keys, name)
	// A NUL, which names cannot hold, keeps "a#1" (a name) apart from the
	// second "a".
	q.keys = append(q.keys, 0)
	q.keys = strconv.AppendInt(q.keys, int64(occurrence), 10)
	s.end = len(q.keys)
	return s
}

// matchInstances pairs each of q.newKeys with the q.oldKeys of the same
// key, filling q.pair (−1 when the instance is new). Instances that keep
// their place are paired in constant time; the others by binary search.
func (q *Query) matchInstances() {
	q.pair = grow(q.pair, len(q.newKeys))
	q.sorted = append(q.sorted[:0], q.oldKeys...)
	keys := q.keys
	cmp := func(a, b span) int { return bytes.Compare(keys[a.start:a.end], keys[b.start:b.end]) }
	sorted := q.sorted
	heapsort.Sort(len(sorted), func(i, j int) bool {
		if c := cmp(sorted[i], sorted[j]); c != 0 {
			return c < 0
		}
		return sorted[i].index < sorted[j].index
	}, func(i, j int) { sorted[i], sorted[j] = sorted[j], sorted[i] })
	for i, k := range q.newKeys {
		q.pair[i] = -1
		kb := keys[k.start:k.end]
		if i < len(q.oldKeys) {
			if o := q.oldKeys[i]; bytes.Equal(keys[o.start:o.end], kb) {
				q.pair[i] = o.index
				continue
			}
		}
		if j, ok := slices.BinarySearchFunc(q.sorted, k, cmp); ok {
			q.pair[i] = q.sorted[j].index
		}
	}
}

// appendPath appends the canonical path to q.pathBuf and returns it.
func (q *Query) appendPath(p *counterpath.Path) []byte {
	start := len(q.pathBuf)
	q.pathBuf = p.AppendTo(q.pathBuf)
	return q.pathBuf[start:len(q.pathBuf):len(q.pathBuf)]
}

// grow returns s with length n, reusing its array when it is large enough.
// The elements are not cleared.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
