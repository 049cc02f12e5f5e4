package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/perfcalc/perfcalc/collect"
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// The collector's sources, driven with any bytes: what a live Windows
// source returns is untrusted (collect's package documentation). The
// decoders the Windows sources use on their buffers have their own
// targets beside the package (collect/fuzz_test.go).

// sampleRecord is what one collection gave: its values (copied) and its
// errors' texts.
type sampleRecord struct {
	Values []query.Value
	Errors []string
}

// collectAll takes n samples from col and checks what every collector
// promises: Collect fails only when the source gave nothing, and every
// object that failed is an *collect.ObjectError naming it.
func collectAll(t *testing.T, col *collect.Collector, n int) []sampleRecord {
	t.Helper()
	var out []sampleRecord
	var s collect.Sample
	for i := 0; i < n; i++ {
		if err := col.Collect(&s); err != nil {
			out = append(out, sampleRecord{Errors: []string{"Collect: " + err.Error()}})
			continue
		}
		rec := sampleRecord{}
		for _, v := range s.Values {
			v.Path = bytes.Clone(v.Path)
			rec.Values = append(rec.Values, v)
		}
		for _, e := range s.Errors {
			var oe *collect.ObjectError
			if !errors.As(e, &oe) || oe.Object == "" || oe.Err == nil || !strings.HasPrefix(e.Error(), "collect: ") {
				t.Fatalf("sample %d: error %q (%T) is not an ObjectError naming its object", i, e, e)
			}
			rec.Errors = append(rec.Errors, e.Error())
		}
		out = append(out, rec)
	}
	return out
}

// v1Pairs returns consecutive real registry blobs of ../shared/corpus/v1
// (one object each, as a one-object query returns it; the 51-instance
// Process object is left to the perfdata and query targets, as it slows
// this one tenfold) and the machine's name table cut to the names these
// objects use, or nothing where the corpus is absent.
func v1Pairs(tb testing.TB) (pairs [][2][]byte, names []byte) {
	root := corpus.Root()
	if root == "" {
		return nil, nil
	}
	dir := filepath.Join(filepath.Dir(root), "shared", "corpus", "v1")
	full, err := os.ReadFile(filepath.Join(dir, "pal_counter_009.multisz"))
	if err != nil {
		return nil, nil
	}
	used := map[uint32]bool{}
	for _, obj := range []string{"2", "4", "238", "234", "638"} {
		var pair [2][]byte
		for k, s := range []string{"00", "01"} {
			if pair[k], err = os.ReadFile(filepath.Join(dir, "s"+s+"_obj"+obj+".bin")); err != nil {
				tb.Fatal(err)
			}
		}
		pairs = append(pairs, pair)
		blk, err := perfdata.Parse(pair[0])
		if err != nil {
			tb.Fatal(err)
		}
		for oc := blk.Objects(); oc.Next(); {
			o := oc.Object()
			used[o.ObjectNameTitleIndex] = true
			for cc := o.Counters(); cc.Next(); {
				used[cc.Counter().CounterNameTitleIndex] = true
			}
		}
	}
	t, err := nametable.Parse(full)
	if err != nil {
		tb.Fatal(err)
	}
	var table encode.NameTable
	for i := range t.Len() {
		if idx, text := t.Pair(i); used[idx] {
			table.Pairs = append(table.Pairs, encode.NameTablePair{Index: idx, Text: text.String()})
		}
	}
	if names, err = encode.EncodeNameTable(&table); err != nil {
		tb.Fatal(err)
	}
	return pairs, names
}

// FuzzRegistryCollect runs the registry collector over two samples of any
// bytes and any name table (Global, every object), writing the captures
// with Config.SaveDir: no panic; Collect does not fail (the source
// answered); every failure is an ObjectError naming its object; the saved
// captures are the bytes the source gave, and replaying them
// (ReplayRegistry) gives the same values and errors.
func FuzzRegistryCollect(f *testing.F) {
	pairs, names := v1Pairs(f)
	for _, p := range pairs {
		f.Add(p[0], p[1], names)
	}
	g, err := gencorpus.Seeds(gencorpus.KindV1)
	if err != nil {
		f.Fatal(err)
	}
	tables, err := gencorpus.Seeds(gencorpus.KindNameTable)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(g[0], g[1], tables[0])
	dir := f.TempDir() // one folder for every input: each overwrites the files of the one before
	f.Fuzz(func(t *testing.T, older, newer, names []byte) {
		os.Remove(filepath.Join(dir, "counter-009.multisz"))
		run := func(src collect.RegistrySource, save string) []sampleRecord {
			col, err := collect.NewRegistry(src, collect.Config{SaveDir: save})
			if err != nil {
				t.Fatalf("NewRegistry without paths: %v", err)
			}
			defer col.Close()
			return collectAll(t, col, 2)
		}
		live := run(collect.ReplayRegistry([][]byte{older, newer}, names), dir)
		for i, want := range [][]byte{older, newer} {
			have, err := os.ReadFile(filepath.Join(dir, "v1-00000"+string(rune('0'+i))+".bin"))
			if err != nil || !bytes.Equal(have, want) {
				t.Fatalf("saved capture %d: %d bytes (%v), want the %d the source gave", i, len(have), err, len(want))
			}
		}
		saved, err := os.ReadFile(filepath.Join(dir, "counter-009.multisz"))
		if err != nil && names != nil {
			t.Fatalf("the name table was not saved: %v", err)
		}
		replayed := run(collect.ReplayRegistry([][]byte{older, newer}, saved), "")
		if !reflect.DeepEqual(live, replayed) {
			t.Fatalf("the saved captures give other values:\nlive     %+v\nreplayed %+v", live, replayed)
		}
	})
}

// fakePerfLib is a PerfLib V2 source of one counter set whose
// registration, names and results are given bytes.
type fakePerfLib struct {
	guid            perflibv2.GUID
	reg, strs, name []byte
	data            [][]byte
	n               int
}

func (f *fakePerfLib) CounterSets() ([]perflibv2.GUID, error) { return []perflibv2.GUID{f.guid}, nil }

func (f *fakePerfLib) RegInfo(set perflibv2.GUID, code collect.RegInfoCode, lang uint32) ([]byte, error) {
	switch code {
	case collect.RegCounterSetStruct:
		return f.reg, nil
	case collect.RegCounterNameStrings, collect.RegCounterEnglishNames:
		return f.strs, nil
	case collect.RegCounterSetNameString, collect.RegCounterSetEnglishName:
		return f.name, nil
	}
	return nil, errors.New("no such registration information")
}

func (f *fakePerfLib) Open(perflibv2.GUID, bool) (collect.PerfLibQuery, error) { return f, nil }

// Data answers the next result (the fake is its own query).
func (f *fakePerfLib) Data(dst []byte) ([]byte, error) {
	if f.n >= len(f.data) {
		return dst, errors.New("no more results")
	}
	f.n++
	return append(dst, f.data[f.n-1]...), nil
}

func (f *fakePerfLib) Close() error { return nil }

func utf16z(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return append(b, 0, 0)
}

// FuzzPerfLibCollect runs the PerfLib V2 collector on a counter set whose
// registration, counter names, name and two results are any bytes: no
// panic; a registration that cannot be read fails NewPerfLib with the
// counter set's name and perflibv2's reason; every failure of a sample is
// an ObjectError naming the set; the values of each sample are those
// package query computes offline from the same results (perfcalc values),
// the collector's promise.
func FuzzPerfLibCollect(f *testing.F) {
	seed := func(k gencorpus.Kind) []byte {
		s, err := gencorpus.Seeds(k)
		if err != nil || len(s) == 0 {
			f.Fatalf("gencorpus.Seeds(%v): %v", k, err)
		}
		return s[0]
	}
	data, err := gencorpus.Seeds(gencorpus.KindV2Data)
	if err != nil || len(data) < 2 {
		f.Fatal("no V2 results to seed with")
	}
	f.Add(seed(gencorpus.KindV2RegInfo), seed(gencorpus.KindV2Strings), "Processor Information", data[0], data[1])
	f.Add(seed(gencorpus.KindV2RegInfo), []byte(nil), "", data[1], data[0])
	f.Fuzz(func(t *testing.T, reg, strs []byte, name string, older, newer []byte) {
		src := &fakePerfLib{guid: perflibv2.GUID{1, 2, 3}, reg: reg, strs: strs, name: utf16z(name), data: [][]byte{older, newer}}
		col, err := collect.NewPerfLib(src, collect.Config{})
		ri, rerr := perflibv2.ParseRegInfo(reg)
		if rerr != nil {
			if err == nil || !strings.HasPrefix(err.Error(), "collect: counter set ") || !strings.HasSuffix(err.Error(), rerr.Error()) {
				t.Fatalf("a registration perflibv2 refuses (%v): NewPerfLib says %v", rerr, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("NewPerfLib: %v", err)
		}
		defer col.Close()
		live := collectAll(t, col, 2)

		// The same computation offline, as the collector documents it.
		cfg := query.Config{RegInfo: &ri, CounterSet: src.setName(), Paths: []counterpath.Path{
			{Object: src.setName(), HasInstance: true, Instance: "*", Counter: "*"},
			{Object: src.setName(), Counter: "*"},
		}}
		if sb, err := perflibv2.ParseStrings(strs); err == nil {
			cfg.Strings = &sb
		}
		q := query.New(cfg)
		var prev []byte
		for i, cur := range [][]byte{older, newer} {
			vals, err := q.Run(nil, prev, cur)
			var mm *query.MismatchError
			if err != nil && prev != nil && errors.As(err, &mm) {
				vals, err = q.Run(nil, nil, cur)
			}
			prev = nil
			if err == nil {
				prev = cur
			}
			have := live[i]
			if (err != nil) != (len(have.Errors) > 0) {
				t.Fatalf("sample %d: offline error %v, collector errors %q", i, err, have.Errors)
			}
			if err == nil && !sameValues(have.Values, vals) {
				t.Fatalf("sample %d: the collector's %d values differ from query's %d", i, len(have.Values), len(vals))
			}
		}
	})
}

// setName is the object name the collector gives the set: its English
// name as the registration information returns it, else its GUID.
func (f *fakePerfLib) setName() string {
	n := 0
	for n+1 < len(f.name) && (f.name[n] != 0 || f.name[n+1] != 0) {
		n += 2
	}
	if s := wintype.Text(f.name[:n]).String(); s != "" {
		return s
	}
	return f.guid.String()
}

// sameValues compares values field by field (paths by their bytes).
func sameValues(a, b []query.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !bytes.Equal(x.Path, y.Path) {
			return false
		}
		x.Path, y.Path = nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// fakePDH is a PDH source of one counter whose instances and raw values
// come from the fuzzer.
type fakePDH struct {
	info    collect.PDHCounter
	samples [][]collect.PDHItem
	n       int
}

func (f *fakePDH) Expand(path string) ([]string, error)   { return []string{path}, nil }
func (f *fakePDH) Add(string) (collect.PDHCounter, error) { return f.info, nil }
func (f *fakePDH) Collect() error {
	if f.n >= len(f.samples) {
		return errors.New("no more samples")
	}
	f.n++
	return nil
}
func (f *fakePDH) Raw(id int, dst []collect.PDHItem) ([]collect.PDHItem, error) {
	return append(dst, f.samples[f.n-1]...), nil
}
func (f *fakePDH) Close() error { return nil }

// pdhItems reads PDH raw items from fuzz bytes: per item a name length
// byte, the name, and the raw values (8 bytes each of N and D or B, 4 of
// MultiCount and CStatus); at most 64 items.
func pdhItems(b []byte) []collect.PDHItem {
	var out []collect.PDHItem
	for len(b) > 0 && len(out) < 64 {
		n := min(int(b[0]), len(b)-1)
		// Valid UTF-8, as the source's decoding of PDH's UTF-16 gives it.
		name := strings.ToValidUTF8(string(b[1:1+n]), "\uFFFD")
		b = b[1+n:]
		var raw [24]byte
		b = b[copy(raw[:], b):]
		le := binary.LittleEndian
		out = append(out, collect.PDHItem{Instance: name, Raw: engine.RawCounter{
			FirstValue: le.Uint64(raw[0:]), SecondValue: le.Uint64(raw[8:]),
			MultiCount: le.Uint32(raw[16:]), CStatus: le.Uint32(raw[20:]) & 1,
		}})
	}
	return out
}

// pathSafe reports whether PDH's path syntax can name an instance without
// ambiguity: not empty (package query prints "()", "(#1)", which
// counterpath refuses), no "#" (name#1 is also the second "name"), no
// backslash, and no "/" at either end (parent/name).
func pathSafe(name string) bool {
	return name != "" && !strings.ContainsAny(name, "#\\") && !strings.HasPrefix(name, "/") && !strings.HasSuffix(name, "/")
}

// FuzzPDHCollect runs the PDH collector on a counter with an instance
// wildcard whose items (instance names, raw values) in two samples come
// from the fuzzer: no panic; one value per item; each value's path reads
// back (counterpath.Parse) as the item's parent, name and PDH's #n among
// the items of the same name, so that a value is found again by its path,
// for every name the path syntax can hold (pathSafe).
func FuzzPDHCollect(f *testing.F) {
	enc := func(items ...collect.PDHItem) []byte {
		var b []byte
		for _, it := range items {
			b = append(b, byte(len(it.Instance)))
			b = append(b, it.Instance...)
			b = binary.LittleEndian.AppendUint64(b, it.Raw.FirstValue)
			b = binary.LittleEndian.AppendUint64(b, it.Raw.SecondValue)
			b = binary.LittleEndian.AppendUint32(b, it.Raw.MultiCount)
			b = binary.LittleEndian.AppendUint32(b, it.Raw.CStatus)
		}
		return b
	}
	it := func(name string, n, d uint64) collect.PDHItem {
		return collect.PDHItem{Instance: name, Raw: engine.RawCounter{FirstValue: n, SecondValue: d}}
	}
	f.Add(enc(it("0", 10, 100), it("1", 20, 100), it("_Total", 30, 100)), enc(it("0", 15, 200), it("_Total", 60, 200)),
		`\\GEORGIS3\Processor(*)\% Processor Time`, uint32(engine.Timer100nsInv))
	f.Add(enc(it("svchost", 1, 1), it("svchost", 2, 1), it("SVCHOST", 3, 1), it("explorer/1", 4, 1)), enc(it("svchost", 5, 2)),
		`\Process(*)\% Processor Time`, uint32(engine.Timer100ns))
	f.Add(enc(it("Intel(R) PRO_1000", 1, 1)), enc(it("Intel(R) PRO_1000", 9, 2)), `\Network Interface(*)\Bytes Total/sec`, uint32(engine.CounterBulkCount))
	f.Fuzz(func(t *testing.T, first, second []byte, path string, typ uint32) {
		sel, err := counterpath.Parse(path)
		if err != nil || !sel.HasWildcard() || strings.Contains(sel.Counter, "*") {
			return
		}
		samples := [][]collect.PDHItem{pdhItems(first), pdhItems(second)}
		src := &fakePDH{info: collect.PDHCounter{FullPath: path, Type: engine.CounterType(typ), TimeBase: 10_000_000}, samples: samples}
		col, err := collect.NewPDH(src, collect.Config{Paths: []counterpath.Path{sel}})
		if err != nil {
			t.Fatal(err)
		}
		defer col.Close()
		for i, rec := range collectAll(t, col, 2) {
			items := samples[i]
			if len(rec.Values) != len(items) || len(rec.Errors) > 0 {
				t.Fatalf("sample %d: %d values and errors %q for %d items", i, len(rec.Values), rec.Errors, len(items))
			}
			seen := map[string]int{}
			for k, v := range rec.Values {
				// PDH's "parent/name", split at the first "/" after the first character.
				parent, name, found := strings.Cut(items[k].Instance, "/")
				if !found || parent == "" {
					parent, name = "", items[k].Instance
				}
				key := strings.ToLower(parent + "/" + name)
				index := seen[key]
				seen[key]++
				if !pathSafe(items[k].Instance) {
					continue
				}
				// A path longer than PDH_MAX_COUNTER_PATH does not read
				// back (the fuzzer's long counter names): its parts do.
				p, err := v.Parts, error(nil)
				if len(v.Path) <= counterpath.MaxLength {
					p, err = counterpath.Parse(string(v.Path))
				}
				if err != nil || p.Parent != parent || p.Instance != name || p.Index != index {
					t.Fatalf("sample %d item %d %q: the value's path %q reads back as parent %q, instance %q, #%d (%v); want %q, %q, #%d",
						i, k, items[k].Instance, v.Path, p.Parent, p.Instance, p.Index, err, parent, name, index)
				}
			}
		}
	})
}
