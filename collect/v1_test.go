package collect

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/encode"
)

func mustPaths(t testing.TB, ss ...string) []counterpath.Path {
	t.Helper()
	var ps []counterpath.Path
	for _, s := range ss {
		p, err := counterpath.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// offline computes what "perfcalc values" gives on the corpus pair
// (older, newer) of each object, in title order: the reference the live
// collector must equal.
func offline(t testing.TB, c *v1Corpus, paths []counterpath.Path, older, newer int, titles []uint32) []query.Value {
	t.Helper()
	names, err := nametable.Parse(c.names)
	if err != nil {
		t.Fatal(err)
	}
	var out []query.Value
	for _, ti := range titles {
		nb, ok := c.samples[newer][ti]
		if !ok {
			continue
		}
		var ob []byte
		if older >= 0 {
			ob = c.samples[older][ti]
		}
		q := query.New(query.Config{Names: names, Paths: paths})
		vals, err := q.Run(nil, ob, nb)
		if err != nil {
			t.Fatalf("offline %d→%d object %d: %v", older, newer, ti, err)
		}
		for _, v := range vals {
			v.Path = append([]byte(nil), v.Path...)
			out = append(out, v)
		}
	}
	return out
}

// sameValues fails unless have and want hold the same paths, types,
// statuses and bit-identical values, in the same order.
func sameValues(t testing.TB, what string, have, want []query.Value) {
	t.Helper()
	if len(have) != len(want) {
		t.Fatalf("%s: have %d values, want %d", what, len(have), len(want))
	}
	for i := range want {
		h, w := &have[i], &want[i]
		if string(h.Path) != string(w.Path) || h.Type != w.Type || h.Status != w.Status || h.HasOld != w.HasOld ||
			math.Float64bits(h.Value) != math.Float64bits(w.Value) {
			t.Fatalf("%s: value %d: have %s %v %v %v, want %s %v %v %v", what, i,
				h.Path, h.Value, h.Status, h.HasOld, w.Path, w.Value, w.Status, w.HasOld)
		}
	}
}

func TestRegistryEqualsOfflineValues(t *testing.T) {
	c := loadV1Corpus(t)
	for _, tc := range []struct {
		name  string
		paths []string
	}{
		{"global", nil},
		{"wildcards", []string{`\Processor(*)\*`, `\Process(*)\% Processor Time`, `\Process(svchost#*)\*`, `\System\*`, `\Memory\Available Bytes`}},
		{"one object", []string{`\PhysicalDisk(_Total)\Avg. Disk Queue Length`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paths := mustPaths(t, tc.paths...)
			f := &fakeRegistry{c: c}
			col, err := NewRegistry(f, Config{Paths: paths})
			if err != nil {
				t.Fatal(err)
			}
			defer col.Close()
			titles := c.titles
			if paths != nil {
				titles = nil
				for _, p := range paths {
					for _, ti := range c.titles {
						if nm, _ := mustTable(t, c.names).Lookup(ti); strings.EqualFold(nm.String(), p.Object) {
							titles = appendUnique(titles, ti)
						}
					}
				}
				sortU32(titles)
			}
			var s Sample
			total := 0
			for k := range c.samples {
				f.n = k
				if err := col.Collect(&s); err != nil {
					t.Fatal(err)
				}
				if len(s.Errors) > 0 {
					t.Fatalf("sample %d: errors %v", k, s.Errors)
				}
				sameValues(t, "sample "+itoa(k), s.Values, offline(t, c, paths, k-1, k, titles))
				total += len(s.Values)
			}
			if total == 0 {
				t.Fatal("no values at all")
			}
			if len(f.queries) != len(c.samples) {
				t.Fatalf("%d queries for %d samples: %q", len(f.queries), len(c.samples), f.queries)
			}
		})
	}
}

func TestRegistryQueryString(t *testing.T) {
	c := loadV1Corpus(t)
	f := &fakeRegistry{c: c}
	col, err := NewRegistry(f, Config{Paths: mustPaths(t, `\Processor(*)\*`, `\System\Processes`, `\Processor(_Total)\% Idle Time`)})
	if err != nil {
		t.Fatal(err)
	}
	var s Sample
	if err := col.Collect(&s); err != nil {
		t.Fatal(err)
	}
	if want := "2 238"; len(f.queries) != 1 || f.queries[0] != want {
		t.Fatalf("queries %q, want one %q", f.queries, want)
	}
	if _, err := NewRegistry(&fakeRegistry{c: c}, Config{Paths: mustPaths(t, `\No Such Object\x`)}); err == nil || !strings.Contains(err.Error(), "No Such Object") {
		t.Fatalf("unknown object: err %v", err)
	}
}

func TestRegistryInstanceChurn(t *testing.T) {
	c := loadV1Corpus(t)
	f := &fakeRegistry{c: c}
	col, err := NewRegistry(f, Config{Paths: mustPaths(t, `\Process(*)\% Processor Time`)})
	if err != nil {
		t.Fatal(err)
	}
	find := func(s *Sample, inst string) *query.Value {
		for i := range s.Values {
			if strings.HasSuffix(string(s.Values[i].Path), `\Process(`+inst+`)\% Processor Time`) {
				return &s.Values[i]
			}
		}
		return nil
	}
	var s Sample
	for k := 0; k <= 2; k++ {
		f.n = k
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
		switch k {
		case 0:
			if v := find(&s, "cmd"); v == nil || v.Status != engine.NewData {
				t.Fatalf("sample 0: cmd %+v, want NewData", v)
			}
		case 1:
			// cmd has gone, PowerStarter has come (the corpus' own churn).
			if v := find(&s, "cmd"); v != nil {
				t.Fatalf("sample 1: cmd still there: %+v", v)
			}
			if v := find(&s, "PowerStarter"); v == nil || v.HasOld || v.Status != engine.NewData {
				t.Fatalf("sample 1: PowerStarter %+v, want a new instance (NewData)", v)
			}
			if v := find(&s, "System"); v == nil || !v.HasOld || v.Status != engine.Valid {
				t.Fatalf("sample 1: System %+v, want a valid value", v)
			}
		case 2:
			if v := find(&s, "PowerStarter"); v != nil {
				t.Fatalf("sample 2: PowerStarter still there")
			}
		}
	}
}

func TestRegistryFailingObjectKeepsTheOthers(t *testing.T) {
	c := loadV1Corpus(t)
	paths := mustPaths(t, `\Processor(*)\*`, `\Memory\*`, `\System\*`)
	f := &fakeRegistry{c: c}
	col, err := NewRegistry(f, Config{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	var s Sample
	collect := func(k int) {
		t.Helper()
		f.n = k
		if err := col.Collect(&s); err != nil {
			t.Fatalf("sample %d: %v", k, err)
		}
	}
	objErr := func(name string, target error) bool {
		for _, e := range s.Errors {
			var oe *ObjectError
			if errors.As(e, &oe) && oe.Object == name && (target == nil || errors.Is(e, target)) {
				return true
			}
		}
		return false
	}
	collect(0)
	collect(1)

	// The Processor provider fails the whole query: the others are
	// queried one by one and keep their values.
	f.fail = map[uint32]bool{238: true}
	collect(2)
	if !objErr("Processor", nil) {
		t.Fatalf("sample 2: errors %v, want one for Processor", s.Errors)
	}
	sameValues(t, "sample 2 without Processor", s.Values, offline(t, c, paths, 1, 2, []uint32{2, 4}))

	// It comes back: its first value is a first sample again.
	f.fail = nil
	collect(3)
	want := offline(t, c, paths, 2, 3, []uint32{2, 4})
	want = append(want, offline(t, c, paths, -1, 3, []uint32{238})...)
	sortLike(want, s.Values)
	sameValues(t, "sample 3", s.Values, want)

	// Memory is absent from sample 4 (its provider was unloaded).
	f.drop = map[uint32]bool{4: true}
	collect(4)
	if !objErr("Memory", ErrMissing) {
		t.Fatalf("sample 4: errors %v, want Memory missing", s.Errors)
	}
	sameValues(t, "sample 4 without Memory", s.Values, offline(t, c, paths, 3, 4, []uint32{2, 238}))
	f.drop = nil

	// PhysicalDisk... here Processor's blob is damaged inside (a counter
	// definition's ByteLength of 0): Processor fails, System and Memory
	// do not.
	f.edit = func(title uint32, b []byte) {
		if title == 238 {
			le := binary.LittleEndian
			hdr := le.Uint32(b[24:])
			objHdr := le.Uint32(b[hdr+8:])
			le.PutUint32(b[hdr+objHdr:], 0)
		}
	}
	collect(5)
	if !objErr("PERF_DATA_BLOCK", nil) && !objErr("Processor", nil) {
		t.Fatalf("sample 5: errors %v, want the damaged Processor reported", s.Errors)
	}
	for _, v := range s.Values {
		if strings.Contains(string(v.Path), `\Processor(`) {
			t.Fatalf("sample 5: a value of the damaged object: %s", v.Path)
		}
	}
	if !hasPrefixValue(s.Values, `\\ZACH-PC\System\`) {
		t.Fatalf("sample 5: System lost with Processor: %d values", len(s.Values))
	}
}

// sortLike orders want as have's paths are ordered (objects may come
// back in another order).
func sortLike(want, have []query.Value) {
	pos := map[string]int{}
	for i, v := range have {
		pos[string(v.Path)] = i
	}
	for i := 1; i < len(want); i++ {
		for j := i; j > 0 && pos[string(want[j].Path)] < pos[string(want[j-1].Path)]; j-- {
			want[j], want[j-1] = want[j-1], want[j]
		}
	}
}

func hasPrefixValue(vals []query.Value, prefix string) bool {
	for _, v := range vals {
		if strings.HasPrefix(string(v.Path), prefix) {
			return true
		}
	}
	return false
}

func TestRegistryLocalizedNames(t *testing.T) {
	c := loadV1Corpus(t)
	local, err := encode.EncodeNameTable(&encode.NameTable{Pairs: []encode.NameTablePair{
		{Index: 1, Text: "1847"}, {Index: 2, Text: "System"}, {Index: 6, Text: "Prozessorzeit (%)"},
		{Index: 238, Text: "Prozessor"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	// A German path, English values.
	f := &fakeRegistry{c: c, local: local}
	col, err := NewRegistry(f, Config{Paths: mustPaths(t, `\Prozessor(_Total)\Prozessorzeit (%)`)})
	if err != nil {
		t.Fatal(err)
	}
	var s Sample
	for k := 0; k < 2; k++ {
		f.n = k
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
	}
	want := offline(t, c, mustPaths(t, `\Processor(_Total)\% Processor Time`), 0, 1, []uint32{238})
	sameValues(t, "German path", s.Values, want)

	// An English path, German values (typeperf on a German system).
	f = &fakeRegistry{c: c, local: local}
	col, err = NewRegistry(f, Config{Paths: mustPaths(t, `\Processor(_Total)\% Processor Time`), LocalNames: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := col.Collect(&s); err != nil {
		t.Fatal(err)
	}
	if len(s.Values) != 1 || string(s.Values[0].Path) != `\\ZACH-PC\Prozessor(_Total)\Prozessorzeit (%)` {
		t.Fatalf("German names: %d values, first %q", len(s.Values), firstPath(s.Values))
	}
}

func firstPath(vals []query.Value) string {
	if len(vals) == 0 {
		return ""
	}
	return string(vals[0].Path)
}

func TestRegistryWrap32(t *testing.T) {
	// A 4-byte PERF_COUNTER_COUNTER that wraps between two samples.
	blob := func(v uint64, perfTime int64) []byte {
		b, err := encode.EncodeV1(&encode.V1Blob{SystemName: "HOST", PerfTime: perfTime, PerfFreq: 1000, PerfTime100nSec: 1,
			Objects: []encode.V1Object{{ObjectNameTitleIndex: 2, NumInstances: -1,
				Counters:  []encode.V1Counter{{CounterNameTitleIndex: 4, CounterType: engine.CounterCounter, CounterSize: 4, CounterOffset: 8}},
				Instances: []encode.V1Instance{{Values: []uint64{v}}}}}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	blobs := [][]byte{blob(0xFFFFFFF0, 1000), blob(0x10, 2000)}
	for _, tc := range []struct {
		opts   engine.Options
		status engine.Status
		value  float64
	}{
		{0, engine.NegativeValue, 0},
		{engine.Wrap32, engine.Valid, 32},
	} {
		src := &scriptRegistry{blobs: blobs}
		col, err := NewRegistry(src, Config{Options: tc.opts})
		if err != nil {
			t.Fatal(err)
		}
		var s Sample
		for range blobs {
			if err := col.Collect(&s); err != nil {
				t.Fatal(err)
			}
		}
		if len(s.Values) != 1 || s.Values[0].Status != tc.status || s.Values[0].Value != tc.value {
			t.Fatalf("options %v: %+v, want %v %v", tc.opts, s.Values, tc.status, tc.value)
		}
	}
}

// scriptRegistry answers each query with the next of its blobs.
type scriptRegistry struct {
	blobs [][]byte
	n     int
}

func (s *scriptRegistry) Query(dst []byte, name string) ([]byte, error) {
	b := s.blobs[s.n%len(s.blobs)]
	s.n++
	return append(dst, b...), nil
}
func (s *scriptRegistry) NameTable(bool) ([]byte, error) { return nil, errors.New("none") }
func (s *scriptRegistry) Close() error                   { return nil }

func TestRegistrySave(t *testing.T) {
	c := loadV1Corpus(t)
	dir := t.TempDir()
	paths := mustPaths(t, `\Processor(*)\*`, `\Process(*)\*`)
	f := &fakeRegistry{c: c}
	col, err := NewRegistry(f, Config{Paths: paths, SaveDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var live [][]query.Value
	var s Sample
	for k := 0; k < 3; k++ {
		f.n = k
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
		live = append(live, cloneValues(s.Values))
	}
	// Recompute offline from the saved files alone.
	raw, err := os.ReadFile(filepath.Join(dir, "counter-009.multisz"))
	if err != nil {
		t.Fatal(err)
	}
	names := mustTable(t, raw)
	q := query.New(query.Config{Names: names, Paths: paths})
	for k := 1; k < 3; k++ {
		older, err1 := os.ReadFile(filepath.Join(dir, seqName("v1-", k-1, ".bin")))
		newer, err2 := os.ReadFile(filepath.Join(dir, seqName("v1-", k, ".bin")))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		vals, err := q.Run(nil, older, newer)
		if err != nil {
			t.Fatal(err)
		}
		sameValues(t, "saved "+itoa(k), live[k], vals)
	}
}

func cloneValues(vals []query.Value) []query.Value {
	out := make([]query.Value, len(vals))
	for i, v := range vals {
		v.Path = append([]byte(nil), v.Path...)
		out[i] = v
	}
	return out
}

func mustTable(t testing.TB, b []byte) *nametable.Table {
	t.Helper()
	tb, err := nametable.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func appendUnique(s []uint32, v uint32) []uint32 {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

func sortU32(s []uint32) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func itoa(i int) string { return string(rune('0'+i/10)) + string(rune('0'+i%10)) }
