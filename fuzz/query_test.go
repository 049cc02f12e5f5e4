package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
	"github.com/perfcalc/perfcalc/tools/hostile"
)

// querySeedPairs returns pairs of captures: the generated Global pair and
// V2 pair of testdata/corpus, and small encoded V1 pairs with parents,
// duplicates, appearing and disappearing instances.
func querySeedPairs(f testing.TB) [][2][]byte {
	var pairs [][2][]byte
	read := func(name string) []byte {
		b, err := os.ReadFile(corpus.Project(f, name))
		if err != nil {
			return nil // not generated yet: the encoded seeds remain
		}
		return b
	}
	if g1, g2 := read("global-1.bin"), read("global-2.bin"); g1 != nil && g2 != nil {
		pairs = append(pairs, [2][]byte{g1, g2})
	}
	if d1, d2 := read("v2-data-1.bin"), read("v2-data-2.bin"); d1 != nil && d2 != nil {
		pairs = append(pairs, [2][]byte{d1, d2})
	}
	cs := []encode.V1Counter{
		{CounterNameTitleIndex: 6, CounterType: engine.Timer100ns, CounterSize: 8},
		{CounterNameTitleIndex: 8, CounterType: engine.RawFraction, CounterSize: 4},
		{CounterNameTitleIndex: 8, CounterType: engine.RawBase, CounterSize: 4},
		{CounterNameTitleIndex: 10, CounterType: engine.CounterMultiTimer, CounterSize: 8},
	}
	encode.V1Layout(cs)
	enc := func(sec int64, names ...string) []byte {
		procs := encode.V1Object{ObjectNameTitleIndex: 230, NumInstances: int32(len(names)), Counters: cs}
		threads := encode.V1Object{ObjectNameTitleIndex: 232, NumInstances: int32(len(names)), Counters: cs}
		for i, n := range names {
			v := []uint64{uint64(sec) * uint64(i+1) * 1000, 1, 4, uint64(sec) * 10}
			m := []uint32{0, 0, 0, 2}
			procs.Instances = append(procs.Instances, encode.V1Instance{Name: n, UniqueID: -1, Values: v, MultiCounts: m})
			threads.Instances = append(threads.Instances, encode.V1Instance{Name: "0", ParentObjectTitleIndex: 230,
				ParentObjectInstance: uint32(len(names) - 1 - i), UniqueID: -1, Values: v, MultiCounts: m})
		}
		data, err := encode.EncodeV1(&encode.V1Blob{SystemName: "SEED", PerfTime: sec * 100, PerfFreq: 100,
			PerfTime100nSec: sec * 10_000_000, Objects: []encode.V1Object{procs, threads}})
		if err != nil {
			f.Fatal(err)
		}
		return data
	}
	pairs = append(pairs,
		[2][]byte{enc(1, "a", "b", "b"), enc(2, "B", "c", "a")},
		[2][]byte{enc(1, "x"), enc(2)},
	)
	// Issue 12: long instance names (at the cap and over it), and a capture
	// whose second object is damaged where a selection of the first never
	// looked (an instance's NameLength past the object).
	for _, n := range []int{1024, 1025} {
		b, err := hostile.LongInstancesV1(2, n)
		if err != nil {
			f.Fatal(err)
		}
		pairs = append(pairs, [2][]byte{b, b})
	}
	bad := enc(1, "a", "b")
	if blk, err := perfdata.Parse(bad); err == nil {
		objs := blk.Objects()
		objs.Next()
		if objs.Next() {
			insts := objs.Object().Instances()
			if insts.Next() {
				binary.LittleEndian.PutUint32(bad[insts.Instance().Offset+20:], 0xFFFF)
			}
		}
	}
	pairs = append(pairs, [2][]byte{bad, bad})
	return pairs
}

// fuzzRegInfo is a counterset registration for the V2 half of FuzzQuery.
func fuzzRegInfo(f testing.TB) *perflibv2.RegInfo {
	if data, err := os.ReadFile(corpus.Project(f, "v2-reginfo.bin")); err == nil {
		if reg, err := perflibv2.ParseRegInfo(data); err == nil {
			return &reg
		}
	}
	none := uint32(perflibv2.NoCounter)
	data, err := encode.EncodeV2RegInfo(&encode.V2CounterSet{Counters: []encode.V2CounterRegInfo{
		{CounterID: 0, Type: engine.CounterCounter, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none},
		{CounterID: 1, Type: engine.RawFraction, BaseCounterID: 2, PerfTimeID: none, PerfFreqID: none, MultiID: none},
		{CounterID: 2, Type: engine.RawBase, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none},
	}})
	if err != nil {
		f.Fatal(err)
	}
	reg, err := perflibv2.ParseRegInfo(data)
	if err != nil {
		f.Fatal(err)
	}
	return &reg
}

// FuzzQuery feeds two mutated captures through a query, with and without a
// selection, as V1 blobs and (through a registration) as V2 results: no
// panic, every error a *engine.FormatError or one of the query's own, and
// every value finite with a known status. The captures are specs
// (fromSpec): the older over the seed pairs' older captures, the newer
// over their newer ones (the same first byte picks one pair), each edited,
// or any bytes. TestQueryMutations runs 10,000 mutations of the pairs on
// every "go test".
func FuzzQuery(f *testing.F) {
	pairs := querySeedPairs(f)
	var olders, newers [][]byte
	for i, p := range pairs {
		olders, newers = append(olders, p[0]), append(newers, p[1])
		for sel := range uint8(4) {
			f.Add([]byte{byte(i)}, []byte{byte(i)}, sel)
		}
	}
	reg := fuzzRegInfo(f)
	paths := queryPaths(f)
	f.Fuzz(func(t *testing.T, olderSpec, newerSpec []byte, sel uint8) {
		checkQuery(t, reg, paths, fromSpec(olders, olderSpec), fromSpec(newers, newerSpec), sel)
	})
}

// queryPaths are the selections of FuzzQuery.
func queryPaths(tb testing.TB) []counterpath.Path {
	var paths []counterpath.Path
	for _, s := range []string{`\Process(*)\*`, `\#230(b#*)\#6`, `\#232(a/*)\*`, `\*\*`} {
		p, err := counterpath.Parse(s)
		if err != nil {
			tb.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// checkQuery runs one query and checks its invariants: sel's bit 0 selects
// paths, bit 1 gives the V2 registration, bit 2 drops the older capture.
func checkQuery(t *testing.T, reg *perflibv2.RegInfo, paths []counterpath.Path, older, newer []byte, sel uint8) {
	cfg := query.Config{IDs: []uint32{perflibv2.NoCounter, 0, perflibv2.NoCounter, 10, 0}}
	if sel&1 != 0 {
		cfg.Paths = paths
	}
	if sel&2 != 0 {
		cfg.RegInfo = reg
	}
	if sel&4 != 0 {
		older = nil
	}
	q := query.New(cfg)
	var vals []query.Value
	for run := range 2 { // a second run reuses the buffers
		var err error
		vals, err = q.Run(vals[:0], older, newer)
		if run == 0 && cfg.Paths != nil {
			// A selection never hides a damage (issue 12): the captures
			// give the same error without it.
			all := cfg
			all.Paths = nil
			_, allErr := query.New(all).Run(nil, older, newer)
			if (err == nil) != (allErr == nil) || err != nil && err.Error() != allErr.Error() {
				t.Fatalf("with a selection %v, without %v", err, allErr)
			}
		}
		var fe *engine.FormatError
		switch {
		case err == nil:
		case errors.As(err, &fe), errors.Is(err, query.ErrMismatch), errors.Is(err, query.ErrNotV1):
			if len(vals) != 0 {
				t.Fatalf("have %d values with error %v, want none", len(vals), err)
			}
			if err.Error() == "" {
				t.Fatal("an error without text")
			}
			continue
		default:
			t.Fatalf("unexpected error %T: %v", err, err)
		}
		for _, v := range vals {
			if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
				t.Fatalf("%s: have %v", v.Path, v.Value)
			}
			if v.Status > engine.UnknownType {
				t.Fatalf("%s: have status %d", v.Path, v.Status)
			}
			if v.Status != engine.Valid && v.Value != 0 {
				t.Fatalf("%s: have %v with status %v, want 0", v.Path, v.Value, v.Status)
			}
			if len(v.Path) == 0 || v.Path[0] != '\\' {
				t.Fatalf("have path %q", v.Path)
			}
		}
	}
}

// TestQueryMutations runs checkQuery on 10000 deterministic random
// mutations of the seed pairs (bytes overwritten in both captures, the
// newer truncated, bytes inserted into the older), each within a time
// limit: the same invariants as FuzzQuery, on every plain "go test".
func TestQueryMutations(t *testing.T) {
	pairs := querySeedPairs(t)
	reg := fuzzRegInfo(t)
	paths := queryPaths(t)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 10000 {
		pr := pairs[r.IntN(len(pairs))]
		o, n := bytes.Clone(pr[0]), bytes.Clone(pr[1])
		for k := r.IntN(4); k >= 0; k-- {
			n[r.IntN(len(n))] = byte(r.Uint32())
			o[r.IntN(len(o))] = byte(r.Uint32())
		}
		if r.IntN(3) == 0 {
			n = n[:r.IntN(len(n))]
		}
		if r.IntN(3) == 0 {
			j := r.IntN(len(o))
			o = slices.Insert(o, j, make([]byte, 1+r.IntN(16))...)
		}
		sel := uint8(r.IntN(8))
		start := time.Now()
		checkQuery(t, reg, paths, o, n, sel)
		if d := time.Since(start); d > 10*time.Second { // milliseconds each; a hang never ends
			t.Fatalf("mutation %d took %v", i, d)
		}
	}
}
