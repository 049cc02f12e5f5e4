package collect

import (
	"encoding/binary"
	"errors"
	"testing"
	"unicode/utf16"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// fakePerfLib serves counter sets built with the project's encoder: per
// set, its registration, names and a script of results.
type fakePerfLib struct {
	sets map[perflibv2.GUID]*fakeSet
	fail map[perflibv2.GUID]bool // sets whose Data fails
}

type fakeSet struct {
	name, local string
	reg, names  []byte
	results     [][]byte
	n           int
}

func (f *fakePerfLib) CounterSets() ([]perflibv2.GUID, error) {
	var out []perflibv2.GUID
	for g := range f.sets {
		out = append(out, g)
	}
	// A stable order: by first byte.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j][0] < out[j-1][0]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

func (f *fakePerfLib) RegInfo(g perflibv2.GUID, code RegInfoCode, lang uint32) ([]byte, error) {
	s := f.sets[g]
	switch code {
	case RegCounterSetStruct:
		return s.reg, nil
	case RegCounterSetEnglishName:
		return utf16z(s.name), nil
	case RegCounterSetNameString:
		return utf16z(s.local), nil
	case RegCounterEnglishNames, RegCounterNameStrings:
		return s.names, nil
	}
	return nil, errors.New("unsupported")
}

func (f *fakePerfLib) Open(g perflibv2.GUID, multi bool) (PerfLibQuery, error) {
	return &fakeV2Query{f: f, g: g}, nil
}

func (f *fakePerfLib) Close() error { return nil }

type fakeV2Query struct {
	f *fakePerfLib
	g perflibv2.GUID
}

func (q *fakeV2Query) Data(dst []byte) ([]byte, error) {
	s := q.f.sets[q.g]
	if q.f.fail[q.g] {
		return dst, errors.New("ERROR_GEN_FAILURE")
	}
	b := s.results[s.n]
	s.n++
	return append(dst, b...), nil
}

func (q *fakeV2Query) Close() error { return nil }

func utf16z(s string) []byte {
	u := append(utf16.Encode([]rune(s)), 0)
	b := make([]byte, 2*len(u))
	for i, c := range u {
		binary.LittleEndian.PutUint16(b[2*i:], c)
	}
	return b
}

// newFakeSet builds a multi-instance set with a raw count (id 1) and a
// rate (id 2), and one result per sample from rows of (instance, count,
// total) at QPC time perfTime.
func newFakeSet(t *testing.T, guid byte, name string, samples [][]fakeRow) *fakeSet {
	t.Helper()
	g := [16]byte{guid, 1, 2, 3}
	reg, err := encode.EncodeV2RegInfo(&encode.V2CounterSet{GUID: g, InstanceType: perflibv2.CountersetMultiInstances,
		Counters: []encode.V2CounterRegInfo{
			{CounterID: 1, Type: engine.CounterRawcount, BaseCounterID: perflibv2.NoCounter, PerfTimeID: perflibv2.NoCounter, PerfFreqID: perflibv2.NoCounter, MultiID: perflibv2.NoCounter},
			{CounterID: 2, Type: engine.CounterCounter, BaseCounterID: perflibv2.NoCounter, PerfTimeID: perflibv2.NoCounter, PerfFreqID: perflibv2.NoCounter, MultiID: perflibv2.NoCounter},
		}})
	if err != nil {
		t.Fatal(err)
	}
	names, err := encode.EncodeV2Strings(&encode.V2Strings{Strings: []encode.V2String{{CounterID: 1, Text: "Items"}, {CounterID: 2, Text: "Items/sec"}}})
	if err != nil {
		t.Fatal(err)
	}
	s := &fakeSet{name: name, local: name + "-local", reg: reg, names: names}
	for k, rows := range samples {
		blk := encode.V2CounterBlock{Type: encode.V2Counterset, CounterIDs: []uint32{1, 2}}
		for i, r := range rows {
			blk.Rows = append(blk.Rows, encode.V2Row{InstanceID: uint32(i), Name: r.inst,
				Values: []encode.V2Value{{Size: 4, Value: r.count}, {Size: 8, Value: r.total}}})
		}
		b, err := encode.EncodeV2Data(&encode.V2Data{PerfTimeStamp: int64(1000 * (k + 1)), PerfFreq: 1000, PerfTime100NSec: 1, Blocks: []encode.V2CounterBlock{blk}})
		if err != nil {
			t.Fatal(err)
		}
		s.results = append(s.results, b)
	}
	return s
}

type fakeRow struct {
	inst         string
	count, total uint64
}

func TestPerfLibEqualsOfflineValues(t *testing.T) {
	samples := [][]fakeRow{
		{{"a", 1, 100}, {"b", 2, 200}},
		{{"b", 3, 260}, {"a", 4, 150}, {"c", 5, 10}}, // swapped, c appeared
		{{"c", 6, 30}, {"a", 7, 151}},                // b went away
	}
	set := newFakeSet(t, 1, "Widgets", samples)
	other := newFakeSet(t, 2, "Gadgets", samples)
	f := &fakePerfLib{sets: map[perflibv2.GUID]*fakeSet{{1, 1, 2, 3}: set, {2, 1, 2, 3}: other}}
	paths := mustPaths(t, `\Widgets(*)\*`, `\Gadgets-local(a)\Items/sec`)
	col, err := NewPerfLib(f, Config{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := perflibv2.ParseRegInfo(set.reg)
	strs, _ := perflibv2.ParseStrings(set.names)
	offline := func(older, newer int, name string, ps string) []query.Value {
		q := query.New(query.Config{RegInfo: &reg, Strings: &strs, CounterSet: name, Paths: mustPaths(t, ps)})
		var ob []byte
		if older >= 0 {
			ob = set.results[older]
		}
		vals, err := q.Run(nil, ob, set.results[newer])
		if err != nil {
			t.Fatal(err)
		}
		return cloneValues(vals)
	}
	var s Sample
	for k := range samples {
		if k == 2 {
			f.fail = map[perflibv2.GUID]bool{{2, 1, 2, 3}: true} // Gadgets fails: Widgets goes on
		}
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
		want := offline(k-1, k, "Widgets", `\Widgets(*)\*`)
		if k < 2 {
			want = append(want, offline(k-1, k, "Gadgets", `\Gadgets(a)\Items/sec`)...)
		} else if len(s.Errors) != 1 {
			t.Fatalf("sample 2: errors %v, want Gadgets' failure", s.Errors)
		}
		sameValues(t, "sample "+itoa(k), s.Values, want)
	}
	// Sample 1: c is new, a and b valid rates (a: 50 items over 1 s).
	if len(s.Values) == 0 {
		t.Fatal("no values")
	}
}
