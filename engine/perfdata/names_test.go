package perfdata_test

import (
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// allNames returns the full names of every object's instances.
func allNames(t *testing.T, data []byte) [][]string {
	t.Helper()
	blk, err := perfdata.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var nm perfdata.Namer
	var out [][]string
	objs := blk.Objects()
	for objs.Next() {
		o := objs.Object()
		names, err := nm.Names(&blk, o)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, n := range names {
			s = append(s, n.String())
		}
		out = append(out, s)
	}
	if err := objs.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestNames(t *testing.T) {
	raw := encode.V1Counter{CounterType: engine.CounterRawcount, CounterSize: 4}
	obj := func(title uint32, insts ...encode.V1Instance) encode.V1Object {
		for i := range insts {
			insts[i].Values = []uint64{1}
		}
		return encode.V1Object{ObjectNameTitleIndex: title, NumInstances: int32(len(insts)), Counters: laid(raw), Instances: insts}
	}
	child := func(name string, parent uint32, inst uint32) encode.V1Instance {
		return encode.V1Instance{Name: name, ParentObjectTitleIndex: parent, ParentObjectInstance: inst}
	}
	for _, tc := range []struct {
		name string
		blob encode.V1Blob
		want [][]string
	}{
		{"duplicates", encode.V1Blob{Objects: []encode.V1Object{obj(230,
			child("svchost", 0, 0), child("csrss", 0, 0), child("svchost", 0, 0), child("csrss", 0, 0), child("svchost", 0, 0))}},
			[][]string{{"svchost", "csrss", "svchost#1", "csrss#1", "svchost#2"}}},
		{"case-insensitive", encode.V1Blob{Objects: []encode.V1Object{obj(230,
			child("SvcHost", 0, 0), child("svchost", 0, 0), child("SVCHOST", 0, 0), child("Straße", 0, 0), child("STRASSE", 0, 0), child("ÉTÉ", 0, 0), child("été", 0, 0))}},
			[][]string{{"SvcHost", "svchost#1", "SVCHOST#2", "Straße", "STRASSE", "ÉTÉ", "été#1"}}},
		{"parents", sampleBlob(), [][]string{
			{"svchost", "SvcHost#1", "Idle"},
			{"svchost/0", "SvcHost/0#1", "Idle/1", "2"},
		}},
		{"child before parent object", encode.V1Blob{Objects: []encode.V1Object{
			obj(232, child("0", 230, 1), child("0", 230, 0)),
			obj(230, child("a", 0, 0), child("b", 0, 0)),
		}}, [][]string{{"b/0", "a/0"}, {"a", "b"}}},
		{"parent object absent", encode.V1Blob{Objects: []encode.V1Object{obj(232, child("0", 230, 0), child("0", 230, 1))}},
			[][]string{{"0", "0#1"}}},
		{"parent object without instances", encode.V1Blob{Objects: []encode.V1Object{
			{ObjectNameTitleIndex: 230, NumInstances: -1, Counters: laid(raw), Instances: []encode.V1Instance{{Values: []uint64{1}}}},
			obj(232, child("7", 230, 0)),
		}}, [][]string{{""}, {"7"}}},
		{"unnamed", encode.V1Blob{Objects: []encode.V1Object{obj(1, encode.V1Instance{UniqueID: -1}, encode.V1Instance{UniqueID: -1})}}, [][]string{{"", "#1"}}},
		{"unique ids", encode.V1Blob{Objects: []encode.V1Object{
			obj(230, encode.V1Instance{UniqueID: 4}, encode.V1Instance{UniqueID: 8}, encode.V1Instance{Name: "named", UniqueID: 9}),
			obj(232, encode.V1Instance{UniqueID: 1, ParentObjectTitleIndex: 230, ParentObjectInstance: 1}, encode.V1Instance{UniqueID: -1}),
		}}, [][]string{{"4", "8", "named"}, {"8/1", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have := allNames(t, mustEncode(t, tc.blob))
			if len(have) != len(tc.want) {
				t.Fatalf("objects: have %q, want %q", have, tc.want)
			}
			for i := range have {
				if len(have[i]) != len(tc.want[i]) {
					t.Fatalf("object %d: have %q, want %q", i, have[i], tc.want[i])
				}
				for j := range have[i] {
					if have[i][j] != tc.want[i][j] {
						t.Errorf("object %d instance %d: have %q, want %q", i, j, have[i][j], tc.want[i][j])
					}
				}
			}
		})
	}
}

func TestNamesParts(t *testing.T) {
	data := mustEncode(t, sampleBlob())
	blk, _ := perfdata.Parse(data)
	objs := blk.Objects()
	objs.Next()
	if !objs.Next() {
		t.Fatal(objs.Err())
	}
	o := objs.Object()
	var nm perfdata.Namer
	names, err := nm.Names(&blk, o)
	if err != nil {
		t.Fatal(err)
	}
	want := []perfdata.InstanceName{
		{Parent: "svchost", Name: "0"},
		{Parent: "SvcHost", Name: "0", Occurrence: 1},
		{Parent: "Idle", Name: "1"},
		{Name: "2", ParentMissing: true},
	}
	for i := range want {
		if !reflect.DeepEqual(names[i], want[i]) {
			t.Errorf("instance %d: have %+v, want %+v", i, names[i], want[i])
		}
	}
}

// TestNamesLinear names 100,000 instances that all share one name: a
// quadratic algorithm would take minutes.
func TestNamesLinear(t *testing.T) {
	const n = 100_000
	insts := make([]encode.V1Instance, n)
	for i := range insts {
		insts[i] = encode.V1Instance{Name: "svchost", ParentObjectTitleIndex: 230, ParentObjectInstance: uint32(i % 7), Values: []uint64{1}}
	}
	parents := make([]encode.V1Instance, 7)
	for i := range parents {
		parents[i] = encode.V1Instance{Name: "p", Values: []uint64{1}}
	}
	raw := laid(encode.V1Counter{CounterType: engine.CounterRawcount, CounterSize: 4})
	data := mustEncode(t, encode.V1Blob{Objects: []encode.V1Object{
		{ObjectNameTitleIndex: 230, NumInstances: 7, Counters: raw, Instances: parents},
		{ObjectNameTitleIndex: 232, NumInstances: n, Counters: raw, Instances: insts},
	}})
	start := time.Now()
	names := allNames(t, data)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("time: have %v, want well under 5 s", d)
	}
	if have, want := names[1][n-1], "p/svchost#"+strconv.Itoa(n-1); have != want {
		t.Errorf("last name: have %q, want %q", have, want)
	}
}

// TestNamesCorpus checks the real Process object's 13 svchost instances:
// svchost, svchost#1 … svchost#12.
func TestNamesCorpus(t *testing.T) {
	data := readCorpusFile(t, corpus.Shared(t, "v1"), "s00_obj230.bin")
	names := allNames(t, data)[0]
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("name %q: have it twice, want unique names", n)
		}
		seen[n] = true
	}
	for _, n := range []string{"svchost", "svchost#1", "svchost#12", "csrss", "csrss#1", "_Total", "Idle"} {
		if !seen[n] {
			t.Errorf("name %q: have none, want it among %q", n, names)
		}
	}
	if seen["svchost#13"] || seen["svchost#0"] || seen["csrss#2"] {
		t.Errorf("names: have %q, want 13 svchost and 2 csrss", names)
	}
}

// TestNamerReusedBuffer rewrites one buffer with a new sample whose parent
// names differ: the Namer must not use the old parents.
func TestNamerReusedBuffer(t *testing.T) {
	sample := func(parent string, perfTime int64) []byte {
		b := sampleBlob()
		b.PerfTime = perfTime
		b.Objects[0].Instances[0].Name = parent
		return mustEncode(t, b)
	}
	first, second := sample("aaaaaaa", 1), sample("bbbbbbb", 2)
	if len(first) != len(second) {
		t.Fatalf("lengths: have %d and %d, want equal", len(first), len(second))
	}
	buf := append([]byte(nil), first...)
	var nm perfdata.Namer
	threadNames := func() string {
		blk, err := perfdata.Parse(buf)
		if err != nil {
			t.Fatal(err)
		}
		objs := blk.Objects()
		objs.Next()
		if !objs.Next() {
			t.Fatal(objs.Err())
		}
		o := objs.Object()
		names, err := nm.Names(&blk, o)
		if err != nil {
			t.Fatal(err)
		}
		return names[0].String()
	}
	if have := threadNames(); have != "aaaaaaa/0" {
		t.Fatalf("first sample: have %q, want aaaaaaa/0", have)
	}
	copy(buf, second)
	if have := threadNames(); have != "bbbbbbb/0" {
		t.Errorf("second sample in the same buffer: have %q, want bbbbbbb/0", have)
	}
	// Same header, new content: only Reset can tell.
	b3 := sampleBlob()
	b3.PerfTime = 2
	b3.Objects[0].Instances[0].Name = "ccccccc"
	copy(buf, mustEncode(t, b3))
	nm.Reset()
	if have := threadNames(); have != "ccccccc/0" {
		t.Errorf("after Reset: have %q, want ccccccc/0", have)
	}
}
