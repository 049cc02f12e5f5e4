package collect

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/query"
)

// RegistrySource answers the registry's performance-data queries: the V1
// interface. OpenRegistry returns the live one on Windows; tests replay
// recorded blobs through their own.
type RegistrySource interface {
	// Query appends to dst the value of HKEY_PERFORMANCE_DATA named name
	// and returns it: one PERF_DATA_BLOCK for "Global", "Costly" or a
	// list of object title indexes ("230 238"; the result may hold other
	// objects too).
	Query(dst []byte, name string) ([]byte, error)
	// NameTable returns the "Counter" name table (REG_MULTI_SZ,
	// UTF-16LE): English ("Counter 009") when local is false, else the
	// one of the system's language (HKEY_PERFORMANCE_NLSTEXT).
	NameTable(local bool) ([]byte, error)
	// Close releases the source (RegCloseKey(HKEY_PERFORMANCE_DATA)).
	Close() error
}

// NewRegistry returns a Collector that samples src. It reads the English
// name table (and the system's, when a path is not English or
// cfg.LocalNames asks for it), and resolves every path's object to its
// title indexes; a path whose object no table knows is an error.
func NewRegistry(src RegistrySource, cfg Config) (*Collector, error) {
	b := &v1Backend{src: src, cfg: cfg, byKey: map[objKey]*v1Object{}}
	if err := b.init(); err != nil {
		src.Close()
		return nil, err
	}
	return newCollector(b, cfg)
}

// v1Backend collects from a RegistrySource: one query per sample for
// every object wanted, then one engine/query Query per object, each on a
// blob of its own (the block's header, the object, and the objects its
// instances name as parents), so that an object that is malformed,
// missing or redefined in one sample leaves the others alone.
type v1Backend struct {
	src                  RegistrySource
	cfg                  Config
	english, local       *nametable.Table
	englishRaw, localRaw []byte
	out                  *nametable.Table // the table that names the values
	queryName            string           // "Global" or "2 230 238"
	titles               []uint32         // the object indexes asked for, sorted
	patterns             map[uint32][]counterpath.Path
	objs                 []*v1Object // in order of first appearance
	byKey                map[objKey]*v1Object
	buf                  []byte // this sample's blob
	objBuf               []perfdata.Object
	parents              []uint32
	occ                  map[uint32]int
	fallback             bool // the last query failed and objects were queried one by one
	singleBufs           [][]byte
	lastQueryErr         error
}

// objKey names the k-th object of a title index in a block.
type objKey struct {
	title uint32
	k     int
}

// v1Object is one object's state from sample to sample.
type v1Object struct {
	key       objKey
	name      string
	q         *query.Query
	prev, cur []byte
	hasPrev   bool
	seen      bool
}

func (b *v1Backend) init() error {
	var err error
	if b.englishRaw, err = b.src.NameTable(false); err == nil {
		b.english, _ = nametable.Parse(b.englishRaw)
	}
	// SaveDir keeps both tables: the saved captures can then be named in
	// either language, and translated (perfcalc --names-lang en).
	needLocal := b.cfg.LocalNames || b.cfg.SaveDir != ""
	for _, p := range b.cfg.Paths {
		if b.english == nil || b.english.LookupName(p.Object).Len() == 0 {
			needLocal = true
		}
	}
	if needLocal {
		if b.localRaw, err = b.src.NameTable(true); err == nil {
			b.local, _ = nametable.Parse(b.localRaw)
		}
	}
	b.out = b.english
	if b.cfg.LocalNames && b.local != nil {
		b.out = b.local
	}
	if len(b.cfg.Paths) == 0 {
		b.queryName = "Global"
		return nil
	}
	b.patterns = map[uint32][]counterpath.Path{}
	for _, p := range b.cfg.Paths {
		titles := b.objectTitles(p.Object)
		if len(titles) == 0 {
			return errors.New("collect: no object named " + strconv.Quote(p.Object) + " in this machine's name tables")
		}
		for _, t := range titles {
			q := p
			q.Object = b.titleName(t)
			q.Counter = b.translate(p.Counter)
			b.patterns[t] = append(b.patterns[t], q)
			if !slices.Contains(b.titles, t) {
				b.titles = append(b.titles, t)
			}
		}
	}
	slices.Sort(b.titles)
	var sb strings.Builder
	for i, t := range b.titles {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.FormatUint(uint64(t), 10))
	}
	b.queryName = sb.String()
	return nil
}

// objectTitles returns the title indexes named name in the English or the
// local table, or given as "#<index>".
func (b *v1Backend) objectTitles(name string) []uint32 {
	var out []uint32
	for _, t := range []*nametable.Table{b.english, b.local} {
		if t == nil {
			continue
		}
		if out = t.LookupName(name).AppendIndexes(out); len(out) > 0 {
			return out
		}
	}
	if n, ok := hashIndex(name); ok {
		out = append(out, n)
	}
	return out
}

// hashIndex reads "#238".
func hashIndex(s string) (uint32, bool) {
	if len(s) < 2 || s[0] != '#' {
		return 0, false
	}
	n, err := strconv.ParseUint(s[1:], 10, 32)
	return uint32(n), err == nil
}

// titleName names a title index as the values are named: its text in the
// output table, else "#<index>" (as package query names it).
func (b *v1Backend) titleName(t uint32) string {
	if b.out != nil {
		if s, ok := b.out.Lookup(t); ok {
			return s.String()
		}
	}
	return "#" + strconv.FormatUint(uint64(t), 10)
}

// translate maps a counter name without wildcards to the output table's
// language, through its title index in the other table; a name the output
// table knows, or one with wildcards, is kept.
func (b *v1Backend) translate(name string) string {
	if b.out == nil || strings.Contains(name, "*") || b.out.LookupName(name).Len() > 0 {
		return name
	}
	for _, t := range []*nametable.Table{b.english, b.local} {
		if t == nil || t == b.out {
			continue
		}
		if m := t.LookupName(name); m.Len() > 0 {
			if s, ok := b.out.Lookup(m.Index(0)); ok {
				return s.String()
			}
		}
	}
	return name
}

// object returns the state of the k-th object with title index t,
// creating it on first sight.
func (b *v1Backend) object(key objKey) *v1Object {
	if o := b.byKey[key]; o != nil {
		return o
	}
	o := &v1Object{key: key, name: b.titleName(key.title)}
	paths := b.patterns[key.title]
	if len(b.cfg.Paths) == 0 {
		paths = []counterpath.Path{
			{Object: o.name, HasInstance: true, Instance: "*", Counter: "*"},
			{Object: o.name, Counter: "*"},
		}
	}
	o.q = query.New(query.Config{Names: b.out, Paths: paths, Options: b.cfg.Options, Identity: b.cfg.Identity})
	b.byKey[key] = o
	b.objs = append(b.objs, o)
	return o
}

func (b *v1Backend) collect(s *Sample) error {
	for _, o := range b.objs {
		o.seen = false
	}
	var err error
	b.buf, err = b.src.Query(b.buf[:0], b.queryName)
	b.lastQueryErr = err
	b.fallback = false
	if err != nil {
		if len(b.titles) < 2 {
			return err
		}
		// One query for all objects failed: ask for each alone, so that
		// one failing provider does not take the others with it.
		b.fallback = true
		return b.collectEach(s)
	}
	b.collectBlob(s, b.buf, nil)
	b.reportMissing(s)
	return nil
}

// collectEach queries each object alone.
func (b *v1Backend) collectEach(s *Sample) error {
	b.singleBufs = grow(b.singleBufs, len(b.titles))
	ok := 0
	for i, t := range b.titles {
		var err error
		b.singleBufs[i], err = b.src.Query(b.singleBufs[i][:0], strconv.FormatUint(uint64(t), 10))
		if err != nil {
			b.singleBufs[i] = b.singleBufs[i][:0]
			s.Errors = append(s.Errors, &ObjectError{Object: b.titleName(t), Err: err})
			b.forget(t)
			continue
		}
		ok++
		b.collectBlob(s, b.singleBufs[i], []uint32{t})
	}
	b.reportMissing(s)
	if ok == 0 {
		return b.lastQueryErr
	}
	return nil
}

// forget drops the previous samples of the objects of title t.
func (b *v1Backend) forget(t uint32) {
	for _, o := range b.objs {
		if o.key.title == t {
			o.hasPrev, o.seen = false, true
		}
	}
}

// collectBlob computes every wanted object of blob (only those of only,
// when given).
func (b *v1Backend) collectBlob(s *Sample, blob []byte, only []uint32) {
	blk, err := perfdata.Parse(blob)
	if err != nil {
		s.Errors = append(s.Errors, &ObjectError{Object: "PERF_DATA_BLOCK", Err: err})
		return
	}
	// The objects up to the first one that cannot be decoded: the ones
	// after it cannot be found.
	b.objBuf = b.objBuf[:0]
	cur := blk.Objects()
	for cur.Next() {
		b.objBuf = append(b.objBuf, *cur.Object())
	}
	walkErr := cur.Err()
	if b.occ == nil {
		b.occ = map[uint32]int{}
	}
	clear(b.occ)
	for i := range b.objBuf {
		o := &b.objBuf[i]
		t := o.ObjectNameTitleIndex
		k := b.occ[t]
		b.occ[t] = k + 1
		if !b.wanted(t, only) {
			continue
		}
		st := b.object(objKey{t, k})
		st.seen = true
		st.cur = b.subBlob(st.cur[:0], &blk, i)
		n0 := len(s.Values)
		b.compute(s, st)
		for _, v := range s.Values[n0:] {
			// perfdata.Object.Fill's time bases.
			var f int64
			switch v.Type.TimeBase() {
			case engine.TimerTick:
				f = blk.PerfFreq
			case engine.Timer100NS:
				f = engine.Frequency100NS
			case engine.ObjectTimer:
				f = o.PerfFreq
			}
			s.TimeBases = append(s.TimeBases, f)
		}
	}
	if walkErr != nil {
		s.Errors = append(s.Errors, &ObjectError{Object: "PERF_DATA_BLOCK", Err: walkErr})
	}
}

// wanted reports whether objects of title t are collected.
func (b *v1Backend) wanted(t uint32, only []uint32) bool {
	if only != nil {
		return slices.Contains(only, t)
	}
	if len(b.cfg.Paths) == 0 {
		return true
	}
	_, ok := slices.BinarySearch(b.titles, t)
	return ok
}

// compute runs the object's query between its previous and current blob
// and swaps them.
func (b *v1Backend) compute(s *Sample, st *v1Object) {
	var older []byte
	if st.hasPrev {
		older = st.prev
	}
	n0 := len(s.Values)
	vals, err := st.q.Run(s.Values, older, st.cur)
	if err != nil && older != nil && isMismatch(err) {
		// The object was redefined (its provider restarted): start again
		// from this sample.
		vals, err = st.q.Run(s.Values, nil, st.cur)
	}
	if b.cfg.Identity == identity.PID {
		s.IdentityBreaks += st.q.IdentityBreaks()
		for _, n := range st.q.IdentityNotes() {
			if !slices.Contains(s.IdentityNotes, n) {
				s.IdentityNotes = append(s.IdentityNotes, n)
			}
		}
	}
	if err != nil {
		s.Values = vals[:n0]
		s.Errors = append(s.Errors, &ObjectError{Object: st.name, Err: err})
		st.hasPrev = false
		return
	}
	s.Values = vals
	st.prev, st.cur = st.cur, st.prev
	st.hasPrev = true
}

// isMismatch reports whether err says that two captures do not pair
// (kept out of line: the variable errors.As needs would escape).
func isMismatch(err error) bool {
	var mm *query.MismatchError
	return errors.As(err, &mm)
}

// reportMissing lists the objects asked for that this sample lacks and
// drops their previous samples, so that they start again when they come
// back.
func (b *v1Backend) reportMissing(s *Sample) {
	for _, o := range b.objs {
		if !o.seen {
			if o.hasPrev {
				s.Errors = append(s.Errors, &ObjectError{Object: o.name, Err: ErrMissing})
			}
			o.hasPrev = false
		}
	}
	if len(b.cfg.Paths) == 0 {
		return
	}
	for _, t := range b.titles {
		if _, ok := b.byKey[objKey{t, 0}]; !ok && b.isObject(t) {
			s.Errors = append(s.Errors, &ObjectError{Object: b.titleName(t), Err: ErrMissing})
		}
	}
}

// isObject reports whether a title index asked for is worth reporting as
// missing: a path's object name can match counters' indexes too, which no
// block holds.
func (b *v1Backend) isObject(t uint32) bool {
	for _, o := range b.objs {
		if o.key.title == t {
			return true
		}
	}
	// Never seen: report it only when no other index of the same name
	// was seen either.
	name := b.titleName(t)
	for _, o := range b.objs {
		if strings.EqualFold(o.name, name) {
			return false
		}
	}
	return true
}

// subBlob appends to dst a stand-alone PERF_DATA_BLOCK holding object i
// of blk and the objects its instances name as parents, in block order:
// the layout of a one-object RegQueryValueEx result, which package query
// computes on its own.
func (b *v1Backend) subBlob(dst []byte, blk *perfdata.Block, i int) []byte {
	data := blk.Bytes()
	hdr := int(blk.HeaderLength) // where the first object starts
	dst = append(dst, data[:hdr]...)
	le := binary.LittleEndian
	// A system name outside the header (never in real data) is dropped.
	if no, nl := int(blk.SystemNameOffset), int(blk.SystemNameLength); nl > 0 && no+nl > hdr {
		le.PutUint32(dst[80:], 0)
		le.PutUint32(dst[84:], 0)
	}
	o := &b.objBuf[i]
	b.parents = b.parents[:0]
	if o.NumInstances > 0 {
		c := o.Instances()
		for c.Next() { // errors are reported by the query
			in := c.Instance()
			if p := in.ParentObjectTitleIndex; p != 0 && p != o.ObjectNameTitleIndex && !slices.Contains(b.parents, p) {
				b.parents = append(b.parents, p)
			}
		}
	}
	n := 1
	for j := range b.objBuf {
		if j == i {
			dst = append(dst, o.Bytes()...)
			continue
		}
		if t := b.objBuf[j].ObjectNameTitleIndex; slices.Contains(b.parents, t) && firstOf(b.objBuf, t) == j {
			dst = append(dst, b.objBuf[j].Bytes()...)
			n++
		}
	}
	le.PutUint32(dst[20:], uint32(len(dst))) // TotalByteLength
	le.PutUint32(dst[28:], uint32(n))        // NumObjectTypes
	return dst
}

// firstOf returns the position of the first object with title index t.
func firstOf(objs []perfdata.Object, t uint32) int {
	for j := range objs {
		if objs[j].ObjectNameTitleIndex == t {
			return j
		}
	}
	return -1
}

// save writes the sample's blob (or, after a fallback, each object's) and,
// once, the name tables.
func (b *v1Backend) save(dir string, seq int) error {
	if seq == 0 {
		if b.englishRaw != nil {
			if err := os.WriteFile(filepath.Join(dir, EnglishTableFile), b.englishRaw, 0o644); err != nil {
				return err
			}
		}
		if b.localRaw != nil {
			if err := os.WriteFile(filepath.Join(dir, LocalTableFile), b.localRaw, 0o644); err != nil {
				return err
			}
		}
	}
	if !b.fallback {
		if b.lastQueryErr != nil {
			return nil
		}
		return os.WriteFile(filepath.Join(dir, seqName("v1-", seq, ".bin")), b.buf, 0o644)
	}
	for i, t := range b.titles {
		if len(b.singleBufs[i]) == 0 {
			continue
		}
		name := seqName("v1-", seq, "-obj"+strconv.FormatUint(uint64(t), 10)+".bin")
		if err := os.WriteFile(filepath.Join(dir, name), b.singleBufs[i], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (b *v1Backend) close() error { return b.src.Close() }

// grow returns s with length n, reusing its array when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)
}
