package query_test

import (
	"errors"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// f returns v as a float64 variable, so that arithmetic on it is done in
// float64 at run time, as in the engine.
func f(v float64) float64 { return v }

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

// Title indexes of the fixtures' name table.
const (
	idxProcess   = 230
	idxThread    = 232
	idxProcTime  = 6   // % Processor Time: PERF_100NSEC_TIMER, 8 bytes
	idxFaults    = 28  // Page Faults/sec: PERF_COUNTER_COUNTER, 4 bytes
	idxThreads   = 680 // Thread Count: PERF_COUNTER_RAWCOUNT, 4 bytes
	idxFree      = 408 // % Free: PERF_RAW_FRACTION with its PERF_RAW_BASE
	secondIn100n = 10_000_000
)

func testNames(t testing.TB) *nametable.Table {
	t.Helper()
	data, err := encode.EncodeNameTable(&encode.NameTable{Pairs: []encode.NameTablePair{
		{Index: 1, Text: "1847"}, {Index: idxProcTime, Text: "% Processor Time"}, {Index: idxFaults, Text: "Page Faults/sec"},
		{Index: idxProcess, Text: "Process"}, {Index: idxThread, Text: "Thread"}, {Index: idxFree, Text: "% Free"},
		{Index: idxThreads, Text: "Thread Count"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := nametable.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// procCounters are the counters of the fixtures' Process object.
func procCounters() []encode.V1Counter {
	cs := []encode.V1Counter{
		{CounterNameTitleIndex: idxProcTime, CounterType: engine.Timer100ns, CounterSize: 8},
		{CounterNameTitleIndex: idxFaults, CounterType: engine.CounterCounter, CounterSize: 4},
		{CounterNameTitleIndex: idxThreads, CounterType: engine.CounterRawcount, CounterSize: 4},
		{CounterNameTitleIndex: idxFree, CounterType: engine.RawFraction, CounterSize: 4},
		{CounterNameTitleIndex: idxFree, CounterType: engine.RawBase, CounterSize: 4},
	}
	encode.V1Layout(cs)
	return cs
}

// proc is an instance of the fixtures' Process object: its name and its
// processor time (100 ns units); the other counters are derived from it.
type proc struct {
	name string
	time uint64
}

func procInstances(ps []proc) []encode.V1Instance {
	var out []encode.V1Instance
	for _, p := range ps {
		out = append(out, encode.V1Instance{Name: p.name, UniqueID: -1, Values: []uint64{p.time, p.time / 1000, 7, 1, 4}})
	}
	return out
}

// v1Blob encodes a capture of machine with a Process object and, when
// threads is not nil, a Thread object whose instances name their process by
// position.
func v1Blob(t testing.TB, machine string, sec int64, procs []proc, threads []encode.V1Instance) []byte {
	t.Helper()
	b := encode.V1Blob{
		SystemName: machine, PerfTime: sec * 1000, PerfFreq: 1000, PerfTime100nSec: sec * secondIn100n,
		Objects: []encode.V1Object{{ObjectNameTitleIndex: idxProcess, NumInstances: int32(len(procs)),
			Counters: procCounters(), Instances: procInstances(procs)}},
	}
	if threads != nil {
		tc := []encode.V1Counter{{CounterNameTitleIndex: idxProcTime, CounterType: engine.Timer100ns, CounterSize: 8}}
		encode.V1Layout(tc)
		b.Objects = append(b.Objects, encode.V1Object{ObjectNameTitleIndex: idxThread, NumInstances: int32(len(threads)),
			Counters: tc, Instances: threads})
	}
	data, err := encode.EncodeV1(&b)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// pct is the 100 ns timer's value for a processor-time delta over 1 s.
func pct(d uint64) float64 { return (f(float64(d)) / f(secondIn100n)) * 100 }

// result is what a test expects of one value.
type result struct {
	path   string
	value  float64
	status engine.Status
}

func checkValues(t *testing.T, have []query.Value, want []result) {
	t.Helper()
	if len(have) != len(want) {
		var ps []string
		for _, v := range have {
			ps = append(ps, string(v.Path))
		}
		t.Fatalf("have %d values (%s), want %d", len(have), strings.Join(ps, ", "), len(want))
	}
	for i, w := range want {
		v := have[i]
		if string(v.Path) != w.path || v.Status != w.status || math.Float64bits(v.Value) != math.Float64bits(w.value) {
			t.Errorf("value %d: have %s = %v (%v), want %s = %v (%v)", i, v.Path, v.Value, v.Status, w.path, w.value, w.status)
		}
	}
}

func TestInstanceMatching(t *testing.T) {
	pt := `\% Processor Time`
	for _, tc := range []struct {
		name       string
		older      []proc
		newer      []proc
		want       []result
		wantHasOld []bool
	}{
		{
			name:  "same places",
			older: []proc{{"a", 100}, {"b", 200}},
			newer: []proc{{"a", 5_000_100}, {"b", 2_500_200}},
			want: []result{
				{`\\HOST\Process(a)` + pt, pct(5_000_000), engine.Valid},
				{`\\HOST\Process(b)` + pt, pct(2_500_000), engine.Valid},
			},
		},
		{
			name:  "swapped places",
			older: []proc{{"a", 100}, {"b", 200}},
			newer: []proc{{"b", 2_500_200}, {"a", 5_000_100}},
			want: []result{
				{`\\HOST\Process(b)` + pt, pct(2_500_000), engine.Valid},
				{`\\HOST\Process(a)` + pt, pct(5_000_000), engine.Valid},
			},
		},
		{
			name:  "appears: NewData",
			older: []proc{{"a", 100}},
			newer: []proc{{"new", 900}, {"a", 1_000_100}},
			want: []result{
				{`\\HOST\Process(new)` + pt, 0, engine.NewData},
				{`\\HOST\Process(a)` + pt, pct(1_000_000), engine.Valid},
			},
		},
		{
			name:  "disappears: dropped",
			older: []proc{{"gone", 100}, {"a", 100}},
			newer: []proc{{"a", 1_000_100}},
			want:  []result{{`\\HOST\Process(a)` + pt, pct(1_000_000), engine.Valid}},
		},
		{
			name:  "restarted under a reused name: NegativeValue",
			older: []proc{{"worker", 9_000_000}},
			newer: []proc{{"worker", 10}},
			want:  []result{{`\\HOST\Process(worker)` + pt, 0, engine.NegativeValue}},
		},
		{
			name:  "names compare case-insensitively",
			older: []proc{{"SvcHost", 100}},
			newer: []proc{{"svchost", 3_000_100}},
			want:  []result{{`\\HOST\Process(svchost)` + pt, pct(3_000_000), engine.Valid}},
		},
		{
			name:  "duplicates pair by occurrence",
			older: []proc{{"svchost", 100}, {"x", 0}, {"SVCHOST", 200}},
			newer: []proc{{"svchost", 1_000_100}, {"svchost", 2_000_200}},
			want: []result{
				{`\\HOST\Process(svchost)` + pt, pct(1_000_000), engine.Valid},
				{`\\HOST\Process(svchost#1)` + pt, pct(2_000_000), engine.Valid},
			},
		},
		{
			name:  "a name that looks like an occurrence",
			older: []proc{{"a#1", 100}, {"a", 0}, {"a", 200}},
			newer: []proc{{"a#1", 1_000_100}, {"a", 0}, {"a", 2_000_200}},
			want: []result{
				// counterpath writes #0 after a name that ends in #digits,
				// so that the path reads back as the same instance.
				{`\\HOST\Process(a#1#0)` + pt, pct(1_000_000), engine.Valid},
				{`\\HOST\Process(a)` + pt, pct(0), engine.Valid},
				{`\\HOST\Process(a#1)` + pt, pct(2_000_000), engine.Valid},
			},
		},
		{
			name:  "the first of two duplicates ends: the second takes its name",
			older: []proc{{"svchost", 100}, {"svchost", 5_000_000}},
			newer: []proc{{"svchost", 6_000_000}},
			want:  []result{{`\\HOST\Process(svchost)` + pt, pct(5_999_900), engine.Valid}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := query.New(query.Config{Names: testNames(t), Paths: mustPaths(t, `\Process(*)\% Processor Time`)})
			vals, err := q.Run(nil, v1Blob(t, "HOST", 10, tc.older, nil), v1Blob(t, "HOST", 11, tc.newer, nil))
			if err != nil {
				t.Fatal(err)
			}
			checkValues(t, vals, tc.want)
			for i, v := range vals {
				if wantOld := tc.want[i].status != engine.NewData; v.HasOld != wantOld {
					t.Errorf("%s: have HasOld %v, want %v", v.Path, v.HasOld, wantOld)
				}
			}
		})
	}
}

// TestParentChild checks that Thread instances are named parent/name and
// paired by that full name when their processes swap places.
func TestParentChild(t *testing.T) {
	th := func(parent uint32, time uint64) encode.V1Instance {
		return encode.V1Instance{Name: "0", ParentObjectTitleIndex: idxProcess, ParentObjectInstance: parent, UniqueID: -1, Values: []uint64{time}}
	}
	older := v1Blob(t, "HOST", 10, []proc{{"a", 0}, {"b", 0}}, []encode.V1Instance{th(0, 100), th(1, 200), th(1, 300)})
	// b and a swapped places; b's threads are listed first.
	newer := v1Blob(t, "HOST", 11, []proc{{"b", 0}, {"a", 0}}, []encode.V1Instance{th(0, 1_000_200), th(0, 2_000_300), th(1, 4_000_100)})
	q := query.New(query.Config{Names: testNames(t), Paths: mustPaths(t, `\Thread(*)\*`)})
	vals, err := q.Run(nil, older, newer)
	if err != nil {
		t.Fatal(err)
	}
	if p := vals[1].Parts; !reflect.DeepEqual(p, counterpath.Path{Machine: "HOST", Object: "Thread", HasInstance: true, Parent: "b", Instance: "0", Index: 1, Counter: "% Processor Time"}) {
		t.Errorf("have parts %+v", p)
	}
	checkValues(t, vals, []result{
		{`\\HOST\Thread(b/0)\% Processor Time`, pct(1_000_000), engine.Valid},
		{`\\HOST\Thread(b/0#1)\% Processor Time`, pct(2_000_000), engine.Valid},
		{`\\HOST\Thread(a/0)\% Processor Time`, pct(4_000_000), engine.Valid},
	})

	// A parent pattern selects the children of one parent.
	q = query.New(query.Config{Names: testNames(t), Paths: mustPaths(t, `\Thread(A/*)\% Processor Time`)})
	if vals, err = q.Run(nil, older, newer); err != nil {
		t.Fatal(err)
	}
	checkValues(t, vals, []result{{`\\HOST\Thread(a/0)\% Processor Time`, pct(4_000_000), engine.Valid}})
}

func TestSelection(t *testing.T) {
	older := v1Blob(t, "HOST", 10, []proc{{"a", 0}, {"b", 0}, {"b", 0}}, nil)
	newer := v1Blob(t, "HOST", 11, []proc{{"a", 1_000_000}, {"b", 2_000_000}, {"b", 4_000_000}}, nil)
	faults := func(d uint64) float64 { return f(float64(d)) / (f(1000) / f(1000)) }
	free := (f(1) / f(4)) * 100
	for _, tc := range []struct {
		name  string
		names bool
		paths []string
		want  []result
	}{
		{
			name:  "every counter of one instance (bases are not listed)",
			names: true,
			paths: []string{`\Process(a)\*`},
			want: []result{
				{`\\HOST\Process(a)\% Processor Time`, pct(1_000_000), engine.Valid},
				{`\\HOST\Process(a)\Page Faults/sec`, faults(1000), engine.Valid},
				{`\\HOST\Process(a)\Thread Count`, 7, engine.Valid},
				{`\\HOST\Process(a)\% Free`, free, engine.Valid},
			},
		},
		{
			name:  "an occurrence, a machine, case and a partial wildcard",
			names: true,
			paths: []string{`\\host\process(B#1)\page*`},
			want:  []result{{`\\HOST\Process(b#1)\Page Faults/sec`, faults(4000), engine.Valid}},
		},
		{
			name:  "every occurrence",
			names: true,
			paths: []string{`\Process(b#*)\Thread Count`},
			want: []result{
				{`\\HOST\Process(b)\Thread Count`, 7, engine.Valid},
				{`\\HOST\Process(b#1)\Thread Count`, 7, engine.Valid},
			},
		},
		{
			name:  "several paths: a value once, in the capture's order",
			names: true,
			paths: []string{`\Process(b)\Thread Count`, `\Process(*)\Thread Count`, `\Process(a)\Thread Count`},
			want: []result{
				{`\\HOST\Process(a)\Thread Count`, 7, engine.Valid},
				{`\\HOST\Process(b)\Thread Count`, 7, engine.Valid},
				{`\\HOST\Process(b#1)\Thread Count`, 7, engine.Valid},
			},
		},
		{
			name:  "without a name table: indexes",
			paths: []string{`\#230(a)\#680`},
			want:  []result{{`\\HOST\#230(a)\#680`, 7, engine.Valid}},
		},
		{
			name:  "another machine selects nothing",
			names: true,
			paths: []string{`\\OTHER\Process(*)\*`},
		},
		{
			name:  "a path without instance does not select instances",
			names: true,
			paths: []string{`\Process\Thread Count`},
		},
		{
			name:  "an unknown object selects nothing",
			names: true,
			paths: []string{`\Memory\*`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := query.Config{Paths: mustPaths(t, tc.paths...)}
			if tc.names {
				cfg.Names = testNames(t)
			}
			vals, err := query.New(cfg).Run(nil, older, newer)
			if err != nil {
				t.Fatal(err)
			}
			checkValues(t, vals, tc.want)
		})
	}
}

func TestEveryCounter(t *testing.T) {
	older := v1Blob(t, "HOST", 10, []proc{{"a", 0}}, nil)
	newer := v1Blob(t, "HOST", 12, []proc{{"a", 1_000_000}}, nil)
	vals, err := query.New(query.Config{Names: testNames(t)}).Run(nil, older, newer)
	if err != nil {
		t.Fatal(err)
	}
	checkValues(t, vals, []result{
		{`\\HOST\Process(a)\% Processor Time`, (f(1_000_000) / f(2*secondIn100n)) * 100, engine.Valid},
		{`\\HOST\Process(a)\Page Faults/sec`, f(1000) / (f(2000) / f(1000)), engine.Valid},
		{`\\HOST\Process(a)\Thread Count`, 7, engine.Valid},
		{`\\HOST\Process(a)\% Free`, (f(1) / f(4)) * 100, engine.Valid},
	})
	for _, v := range vals {
		if v.Scale != 0 || v.DetailLevel != 0 {
			t.Errorf("%s: have scale %d detail %d, want 0 0", v.Path, v.Scale, v.DetailLevel)
		}
	}
	if have, want := vals[0].Suffix(), engine.Percent; have != want {
		t.Errorf("have suffix %v, want %v", have, want)
	}
	if have, want := vals[1].Type, engine.CounterCounter; have != want {
		t.Errorf("have type %v, want %v", have, want)
	}

	// A single capture is a first sample.
	vals, err = query.New(query.Config{Names: testNames(t)}).Run(nil, nil, newer)
	if err != nil {
		t.Fatal(err)
	}
	checkValues(t, vals, []result{
		{`\\HOST\Process(a)\% Processor Time`, 0, engine.NewData},
		{`\\HOST\Process(a)\Page Faults/sec`, 0, engine.NewData},
		{`\\HOST\Process(a)\Thread Count`, 7, engine.Valid},
		{`\\HOST\Process(a)\% Free`, (f(1) / f(4)) * 100, engine.Valid},
	})
}

func TestOptions(t *testing.T) {
	older := v1Blob(t, "HOST", 10, []proc{{"a", 0}}, nil)
	newer := v1Blob(t, "HOST", 11, []proc{{"a", 30_000_000}}, nil) // 300 % over 1 s
	for _, tc := range []struct {
		opts engine.Options
		want float64
	}{
		{0, pct(30_000_000)},
		{engine.Cap100, 100},
	} {
		q := query.New(query.Config{Names: testNames(t), Options: tc.opts, Paths: mustPaths(t, `\Process(a)\% Processor Time`)})
		vals, err := q.Run(nil, older, newer)
		if err != nil {
			t.Fatal(err)
		}
		checkValues(t, vals, []result{{`\\HOST\Process(a)\% Processor Time`, tc.want, engine.Valid}})
	}
}

func TestErrors(t *testing.T) {
	good := v1Blob(t, "HOST", 10, []proc{{"a", 0}}, nil)
	withThread := v1Blob(t, "HOST", 11, []proc{{"a", 0}}, []encode.V1Instance{})
	otherCounters, err := encode.EncodeV1(&encode.V1Blob{SystemName: "HOST", PerfFreq: 1, Objects: []encode.V1Object{{
		ObjectNameTitleIndex: idxProcess, NumInstances: 0,
		Counters: []encode.V1Counter{{CounterNameTitleIndex: idxThreads, CounterType: engine.CounterRawcount, CounterSize: 4, CounterOffset: 4}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name         string
		older, newer []byte
		wantIs       error
		wantText     string
	}{
		{"different machines", v1Blob(t, "OTHER", 10, nil, nil), good, query.ErrMismatch,
			`query: the captures do not match: machine "OTHER" in the older, "HOST" in the newer`},
		{"an object only in the newer", good, withThread, query.ErrMismatch,
			`query: the captures do not match: object "Thread" only in the newer`},
		{"an object only in the older", withThread, good, query.ErrMismatch,
			`query: the captures do not match: object "Thread" only in the older`},
		{"counters changed", good, otherCounters, query.ErrMismatch,
			`query: the captures do not match: counters of object "Process" in the older, "Process" in the newer`},
		{"not a blob", good, []byte("hello, world"), query.ErrNotV1, query.ErrNotV1.Error()},
		{"truncated newer", good, good[:100], engine.ErrTruncated, ""},
		{"truncated older", good[:len(good)-8], good, engine.ErrTruncated, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := query.New(query.Config{Names: testNames(t)})
			dst := []query.Value{{Value: 42}}
			vals, err := q.Run(dst, tc.older, tc.newer)
			if !errors.Is(err, tc.wantIs) {
				t.Fatalf("have error %v, want %v", err, tc.wantIs)
			}
			if tc.wantText != "" && err.Error() != tc.wantText {
				t.Errorf("have %q, want %q", err, tc.wantText)
			}
			if len(vals) != 1 || vals[0].Value != 42 {
				t.Errorf("have %d values, want dst unchanged", len(vals))
			}
		})
	}
}

// TestNamesAgreeWithNamer checks the query's instance names against
// perfdata.Namer on the generated Global capture (parents, duplicates,
// PERF_NO_INSTANCES objects) and on an unnamed instance with a UniqueID.
func TestNamesAgreeWithNamer(t *testing.T) {
	unnamed, err := encode.EncodeV1(&encode.V1Blob{SystemName: "HOST", PerfFreq: 1, Objects: []encode.V1Object{{
		ObjectNameTitleIndex: idxProcess, NumInstances: 2, Counters: []encode.V1Counter{{CounterNameTitleIndex: idxThreads, CounterType: engine.CounterRawcount, CounterSize: 4, CounterOffset: 4}},
		Instances: []encode.V1Instance{{UniqueID: 1234, Values: []uint64{1}}, {Name: "x", UniqueID: -1, Values: []uint64{2}}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	blobs := map[string][]byte{"unnamed": unnamed}
	if g, err := os.ReadFile(corpus.Project(t, "global-2.bin")); err == nil {
		blobs["global-2.bin"] = g
	} else {
		t.Logf("testdata/corpus/global-2.bin is absent: checking the encoded blob only (%v)", err)
	}
	for name, data := range blobs {
		t.Run(name, func(t *testing.T) {
			blk, err := perfdata.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			var nm perfdata.Namer
			objs := blk.Objects()
			for objs.Next() {
				o := objs.Object()
				if o.NumInstances <= 0 {
					continue
				}
				ns, err := nm.Names(&blk, o)
				if err != nil {
					t.Fatal(err)
				}
				for _, n := range ns {
					want = append(want, n.String())
				}
			}
			if err := objs.Err(); err != nil {
				t.Fatal(err)
			}
			// One counter per instance: the first of each object.
			vals, err := query.New(query.Config{}).Run(nil, nil, data)
			if err != nil {
				t.Fatal(err)
			}
			var have []string
			last := ""
			for _, v := range vals {
				p, err := counterpath.Parse(string(v.Path))
				if err != nil {
					t.Fatal(err)
				}
				if !p.HasInstance {
					continue
				}
				key := p.Object + "(" + p.Parent + "/" + p.Instance + "#" + strconv.Itoa(p.Index) + ")"
				if key == last {
					continue
				}
				last = key
				n := perfdata.InstanceName{Parent: p.Parent, Name: p.Instance, Occurrence: p.Index}
				have = append(have, n.String())
			}
			if strings.Join(have, "\n") != strings.Join(want, "\n") {
				t.Errorf("have\n%s\nwant\n%s", strings.Join(have, "\n"), strings.Join(want, "\n"))
			}
			if name == "unnamed" && (len(have) != 2 || have[0] != "1234") {
				t.Errorf("have %q, want the UniqueID 1234 as the name", have)
			}
		})
	}
}

// TestRepeatedObjects checks that a title index that occurs twice in a
// capture pairs its k-th object with the k-th of the other capture.
func TestRepeatedObjects(t *testing.T) {
	enc := func(sec int64, first, second uint64) []byte {
		o := func(name string, v uint64) encode.V1Object {
			return encode.V1Object{ObjectNameTitleIndex: idxProcess, NumInstances: 1, Counters: procCounters(),
				Instances: procInstances([]proc{{name, v}})}
		}
		data, err := encode.EncodeV1(&encode.V1Blob{SystemName: "HOST", PerfTime: sec, PerfFreq: 1, PerfTime100nSec: sec * secondIn100n,
			Objects: []encode.V1Object{o("x", first), o("x", second)}})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	q := query.New(query.Config{Names: testNames(t), Paths: mustPaths(t, `\Process(x)\% Processor Time`)})
	vals, err := q.Run(nil, enc(1, 0, 1_000_000), enc(2, 2_000_000, 4_000_000))
	if err != nil {
		t.Fatal(err)
	}
	checkValues(t, vals, []result{
		{`\\HOST\Process(x)\% Processor Time`, pct(2_000_000), engine.Valid},
		{`\\HOST\Process(x)\% Processor Time`, pct(3_000_000), engine.Valid},
	})
}
