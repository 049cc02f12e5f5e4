package collect

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// RegInfoCode is a PerfRegInfoType: what PerfQueryCounterSetRegistrationInfo
// returns.
type RegInfoCode uint32

// The PerfRegInfoType values the collector asks for (perflib.h).
const (
	RegCounterSetStruct      RegInfoCode = 1  // PERF_REG_COUNTERSET_STRUCT: PERF_COUNTERSET_REG_INFO and its counters
	RegCounterSetNameString  RegInfoCode = 3  // PERF_REG_COUNTERSET_NAME_STRING: the localized name
	RegCounterNameStrings    RegInfoCode = 5  // PERF_REG_COUNTER_NAME_STRINGS: localized counter names
	RegCounterSetEnglishName RegInfoCode = 9  // PERF_REG_COUNTERSET_ENGLISH_NAME
	RegCounterEnglishNames   RegInfoCode = 10 // PERF_REG_COUNTER_ENGLISH_NAMES
)

// PerfLibSource is PerfLib V2's consumer interface: OpenPerfLib returns
// the live one on Windows.
type PerfLibSource interface {
	// CounterSets returns the GUIDs of the registered counter sets
	// (PerfEnumerateCounterSet).
	CounterSets() ([]perflibv2.GUID, error)
	// RegInfo returns PerfQueryCounterSetRegistrationInfo(set, code,
	// lang); lang 0 is the system's language.
	RegInfo(set perflibv2.GUID, code RegInfoCode, lang uint32) ([]byte, error)
	// Open opens a query of every counter of set, and of every instance
	// when the set has several (PerfOpenQueryHandle, PerfAddCounters with
	// PERF_WILDCARD_COUNTER and the instance "*").
	Open(set perflibv2.GUID, multiInstance bool) (PerfLibQuery, error)
	// Close releases what the source holds.
	Close() error
}

// PerfLibQuery is one open PerfLib V2 query.
type PerfLibQuery interface {
	// Data appends a PerfQueryCounterData result to dst and returns it.
	Data(dst []byte) ([]byte, error)
	// Close closes the query (PerfCloseQueryHandle).
	Close() error
}

// NewPerfLib returns a Collector of the counter sets that cfg.Paths name
// (every registered set when there are none). A path's object is matched
// with each set's English and localized name, or its GUID in registry
// form.
func NewPerfLib(src PerfLibSource, cfg Config) (*Collector, error) {
	b, err := newV2Backend(src, cfg)
	if err != nil {
		b.close()
		return nil, err
	}
	return newCollector(b, cfg)
}

// v2Backend collects each counter set with its own PerfLib query and its
// own engine/query Query.
type v2Backend struct {
	src  PerfLibSource
	cfg  Config
	sets []*v2Set
}

// v2Set is one counter set's state.
type v2Set struct {
	guid       perflibv2.GUID
	name       string // the object name of its paths
	regRaw     []byte
	stringsRaw []byte
	reg        perflibv2.RegInfo
	strs       perflibv2.StringBuffer
	hasStrs    bool
	q          PerfLibQuery
	query      *query.Query
	paths      []counterpath.Path
	prev, cur  []byte
	last       []byte // this sample's result, for save
	hasPrev    bool
	ok         bool // the last Data succeeded
}

func newV2Backend(src PerfLibSource, cfg Config) (*v2Backend, error) {
	b := &v2Backend{src: src, cfg: cfg}
	guids, err := src.CounterSets()
	if err != nil {
		return b, err
	}
	names := make([][2]string, len(guids)) // English, localized; fetched when needed
	nameOf := func(i int, local bool) string {
		j := 0
		code := RegCounterSetEnglishName
		if local {
			j, code = 1, RegCounterSetNameString
		}
		if names[i][j] == "" {
			raw, err := src.RegInfo(guids[i], code, 0)
			if err == nil {
				names[i][j] = utf16String(raw)
			}
			if names[i][j] == "" {
				names[i][j] = guids[i].String()
			}
		}
		return names[i][j]
	}
	byGUID := map[perflibv2.GUID]*v2Set{}
	add := func(i int) (*v2Set, error) {
		if s := byGUID[guids[i]]; s != nil {
			return s, nil
		}
		s := &v2Set{guid: guids[i], name: nameOf(i, cfg.LocalNames)}
		if err := b.open(s); err != nil {
			return nil, err
		}
		byGUID[guids[i]] = s
		b.sets = append(b.sets, s)
		return s, nil
	}
	if len(cfg.Paths) == 0 {
		for i := range guids {
			s, err := add(i)
			if err != nil {
				return b, err
			}
			s.paths = []counterpath.Path{
				{Object: s.name, HasInstance: true, Instance: "*", Counter: "*"},
				{Object: s.name, Counter: "*"},
			}
		}
	}
	for _, p := range cfg.Paths {
		found := false
		for i := range guids {
			if !strings.EqualFold(p.Object, guids[i].String()) && !strings.EqualFold(p.Object, nameOf(i, false)) &&
				!strings.EqualFold(p.Object, nameOf(i, true)) {
				continue
			}
			s, err := add(i)
			if err != nil {
				return b, err
			}
			q := p
			q.Object = s.name
			q.Counter = s.translate(src, p.Counter, cfg.LocalNames)
			s.paths = append(s.paths, q)
			found = true
		}
		if !found {
			return b, errors.New("collect: no counter set named " + strconv.Quote(p.Object) + " on this machine")
		}
	}
	for _, s := range b.sets {
		s.query = query.New(query.Config{RegInfo: &s.reg, Strings: s.stringsPtr(), CounterSet: s.name,
			Paths: s.paths, Options: cfg.Options})
	}
	return b, nil
}

// open reads the set's registration and names and opens its query.
func (b *v2Backend) open(s *v2Set) error {
	var err error
	if s.regRaw, err = b.src.RegInfo(s.guid, RegCounterSetStruct, 0); err != nil {
		return errors.New("collect: counter set " + s.name + ": registration: " + err.Error())
	}
	if s.reg, err = perflibv2.ParseRegInfo(s.regRaw); err != nil {
		return errors.New("collect: counter set " + s.name + ": " + err.Error())
	}
	code := RegCounterEnglishNames
	if b.cfg.LocalNames {
		code = RegCounterNameStrings
	}
	if raw, err := b.src.RegInfo(s.guid, code, 0); err == nil {
		if strs, err := perflibv2.ParseStrings(raw); err == nil {
			s.stringsRaw, s.strs, s.hasStrs = raw, strs, true
		}
	}
	multi := s.reg.Header.InstanceType&perflibv2.CountersetMultiInstances != 0
	if s.q, err = b.src.Open(s.guid, multi); err != nil {
		return errors.New("collect: counter set " + s.name + ": " + err.Error())
	}
	return nil
}

func (s *v2Set) stringsPtr() *perflibv2.StringBuffer {
	if !s.hasStrs {
		return nil
	}
	return &s.strs
}

// translate maps a counter name without wildcards of the other language
// to the names the values carry, through the counter's id.
func (s *v2Set) translate(src PerfLibSource, name string, local bool) string {
	if !s.hasStrs || strings.Contains(name, "*") || lookupString(&s.strs, name) {
		return name
	}
	code := RegCounterNameStrings
	if local {
		code = RegCounterEnglishNames
	}
	raw, err := src.RegInfo(s.guid, code, 0)
	if err != nil {
		return name
	}
	other, err := perflibv2.ParseStrings(raw)
	if err != nil {
		return name
	}
	for i := range other.Len() {
		id, t, ok := other.At(i)
		if ok && strings.EqualFold(t.String(), name) {
			if u, ok := s.strs.Lookup(id); ok {
				return u.String()
			}
		}
	}
	return name
}

// lookupString reports whether a string buffer holds name.
func lookupString(sb *perflibv2.StringBuffer, name string) bool {
	for i := range sb.Len() {
		if _, t, ok := sb.At(i); ok && strings.EqualFold(t.String(), name) {
			return true
		}
	}
	return false
}

func (b *v2Backend) collect(s *Sample) error {
	ok := 0
	var firstErr error
	for _, set := range b.sets {
		var err error
		set.cur, err = set.q.Data(set.cur[:0])
		set.ok = err == nil
		if err != nil {
			set.cur = set.cur[:0]
			set.hasPrev = false
			s.Errors = append(s.Errors, &ObjectError{Object: set.name, Err: err})
			firstErr = cmpOr(firstErr, err)
			continue
		}
		ok++
		set.last = set.cur
		var older []byte
		if set.hasPrev {
			older = set.prev
		}
		n0 := len(s.Values)
		vals, err := set.query.Run(s.Values, older, set.cur)
		if err != nil && older != nil && isMismatch(err) {
			vals, err = set.query.Run(s.Values, nil, set.cur)
		}
		if err != nil {
			s.Values = vals[:n0]
			s.Errors = append(s.Errors, &ObjectError{Object: set.name, Err: err})
			set.hasPrev = false
			continue
		}
		s.Values = vals
		set.prev, set.cur = set.cur, set.prev
		set.hasPrev = true
	}
	if ok == 0 && firstErr != nil {
		return firstErr
	}
	return nil
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// save writes each set's result (v2-{GUID}-NNNNNN.bin) and, once, its
// registration (v2-{GUID}.reginfo) and counter names (v2-{GUID}.strings):
// "perfcalc values OLDER NEWER --reginfo … --strings … --counterset NAME".
func (b *v2Backend) save(dir string, seq int) error {
	for _, set := range b.sets {
		base := "v2-" + set.guid.String()
		if seq == 0 {
			if err := os.WriteFile(filepath.Join(dir, base+".reginfo"), set.regRaw, 0o644); err != nil {
				return err
			}
			if set.hasStrs {
				if err := os.WriteFile(filepath.Join(dir, base+".strings"), set.stringsRaw, 0o644); err != nil {
					return err
				}
			}
		}
		if !set.ok {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, seqName(base+"-", seq, ".bin")), set.last, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (b *v2Backend) close() error {
	var first error
	for _, s := range b.sets {
		if s.q != nil {
			first = cmpOr(first, s.q.Close())
		}
	}
	return cmpOr(first, b.src.Close())
}

// utf16String decodes a NUL-terminated UTF-16LE string (through
// wintype.Text, the type of the decoders' UTF-16LE names).
func utf16String(b []byte) string {
	n := 0
	for n+1 < len(b) && (b[n] != 0 || b[n+1] != 0) {
		n += 2
	}
	return wintype.Text(b[:n]).String()
}
