package query_test

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/blgedit"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// palProcess returns the real Process blocks of the PAL sample log (one
// per sample) and its name table.
func palProcess(t *testing.T) ([][]byte, *nametable.Table) {
	dir := corpus.Shared(t, "v1")
	table, err := os.ReadFile(filepath.Join(dir, "pal_counter_009.multisz"))
	if err != nil {
		t.Fatal(err)
	}
	names, err := nametable.Parse(table)
	if err != nil {
		t.Fatal(err)
	}
	var blocks [][]byte
	for s := 0; s <= 10; s++ {
		blocks = append(blocks, readFile(t, filepath.Join(dir, "s"+pad2(s)+"_obj230.bin")))
	}
	return blocks, names
}

// pidOf returns the PID of a pid-mode Process path's instance, name:pid.
func pidOf(t *testing.T, v *query.Value) uint64 {
	i := strings.LastIndexByte(v.Parts.Instance, ':')
	pid, err := strconv.ParseUint(v.Parts.Instance[i+1:], 10, 64)
	if i < 0 || err != nil || v.Parts.Index != 0 {
		t.Fatalf("%s: no :pid", v.Path)
	}
	return pid
}

func TestIdentityPIDCorpus(t *testing.T) {
	blocks, names := palProcess(t)
	pdh := query.New(query.Config{Names: names})
	pid := query.New(query.Config{Names: names, Identity: identity.PID})
	breaks := 0
	for s := 1; s < len(blocks); s++ {
		a, err := pdh.Run(nil, blocks[s-1], blocks[s])
		if err != nil {
			t.Fatal(err)
		}
		b, err := pid.Run(nil, blocks[s-1], blocks[s])
		if err != nil {
			t.Fatal(err)
		}
		if len(a) != len(b) {
			t.Fatalf("sample %d: %d values by name, %d by PID", s, len(a), len(b))
		}
		breaks += pid.IdentityBreaks()
		// Same order, the same process (ID Process in every instance):
		// where the process kept its PDH name, the same value.
		for i := range b {
			if b[i].Parts.Instance == "_Total" {
				continue
			}
			if b[i].Parts.Counter == "ID Process" && b[i].Raw.FirstValue != pidOf(t, &b[i]) {
				t.Fatalf("%s holds the process %d", b[i].Path, b[i].Raw.FirstValue)
			}
			same := a[i].Value == b[i].Value && a[i].Status == b[i].Status || math.IsNaN(a[i].Value) && math.IsNaN(b[i].Value)
			if !same && pid.IdentityBreaks() == 0 {
				t.Fatalf("sample %d: %s = %v (%v), %s = %v (%v)", s, a[i].Path, a[i].Value, a[i].Status, b[i].Path, b[i].Value, b[i].Status)
			}
		}
		if notes := pid.IdentityNotes(); len(notes) != 0 {
			t.Fatalf("notes %q", notes)
		}
	}
	if breaks != 1 {
		t.Fatalf("%d breaks in the PAL log's Process blocks, want 1 (rundll32#1)", breaks)
	}
}

func TestIdentityPIDExit(t *testing.T) {
	blocks, names := palProcess(t)
	newer, ok, err := blgedit.RemoveInstance(blocks[5], names, "Process", "svchost#2")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	// By PID, each process's value is the one of the unchanged captures.
	want := map[string]query.Value{}
	orig, err := query.New(query.Config{Names: names, Identity: identity.PID}).Run(nil, blocks[4], blocks[5])
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range orig {
		want[string(v.Path)] = v
	}
	q := query.New(query.Config{Names: names, Identity: identity.PID})
	got, err := q.Run(nil, blocks[4], newer)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(orig)-28 {
		t.Fatalf("%d values, want %d less one process", len(got), len(orig))
	}
	for _, v := range got {
		w, ok := want[string(v.Path)]
		if !ok || w.Status != v.Status || w.HasOld != v.HasOld || math.Float64bits(w.Value) != math.Float64bits(v.Value) {
			t.Fatalf("%s = %v (%v), the unchanged captures' %v (%v)", v.Path, v.Value, v.Status, w.Value, w.Status)
		}
	}
	// svchost#3 … #12 are renumbered: 10 breaks, where by name each is
	// computed against another process.
	if q.IdentityBreaks() != 10 {
		t.Fatalf("%d breaks, want 10", q.IdentityBreaks())
	}
	byName, err := query.New(query.Config{Names: names}).Run(nil, blocks[4], newer)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range byName {
		if v.Parts.Instance == "svchost" && v.Parts.Index >= 2 && v.Parts.Counter == "ID Process" && !v.HasOld {
			t.Fatalf("by name, %s has no older value", v.Path)
		}
	}
}

func TestIdentityPIDFallback(t *testing.T) {
	blocks, _ := palProcess(t)
	// Without a name table the object is #230: not recognised, paired by
	// name, no note (the object is not named Process).
	q := query.New(query.Config{Identity: identity.PID})
	if _, err := q.Run(nil, blocks[0], blocks[1]); err != nil {
		t.Fatal(err)
	}
	if q.IdentityBreaks() != 0 || len(q.IdentityNotes()) != 0 {
		t.Fatalf("breaks %d, notes %q", q.IdentityBreaks(), q.IdentityNotes())
	}
	// A table that names ID Process otherwise: the Process object is
	// paired by name, as without PID, and noted.
	dir := corpus.Shared(t, "v1")
	table := readFile(t, filepath.Join(dir, "pal_counter_009.multisz"))
	from, to := utf16le("\x00ID Process\x00"), utf16le("\x00ID Procesz\x00")
	if strings.Count(string(table), string(from)) != 1 {
		t.Fatalf("the table names ID Process %d times", strings.Count(string(table), string(from)))
	}
	names, err := nametable.Parse([]byte(strings.Replace(string(table), string(from), string(to), 1)))
	if err != nil {
		t.Fatal(err)
	}
	q = query.New(query.Config{Names: names, Identity: identity.PID})
	got, err := q.Run(nil, blocks[0], blocks[1])
	if err != nil {
		t.Fatal(err)
	}
	want, err := query.New(query.Config{Names: names}).Run(nil, blocks[0], blocks[1])
	if err != nil {
		t.Fatal(err)
	}
	notes := q.IdentityNotes()
	if len(notes) != 1 || notes[0] != "Process: no ID Process counter in the capture; its instances are paired by name (pdh)" {
		t.Fatalf("notes %q", notes)
	}
	for i := range got {
		if string(got[i].Path) != string(want[i].Path) || got[i].Status != want[i].Status || got[i].Status == engine.Valid && got[i].Value != want[i].Value {
			t.Fatalf("%s differs from pdh's %s", got[i].Path, want[i].Path)
		}
	}
}

// utf16le encodes an ASCII string in UTF-16LE.
func utf16le(s string) []byte {
	var b []byte
	for i := range len(s) {
		b = append(b, s[i], 0)
	}
	return b
}

// reusedBlob is a capture of Process instances chrome with % Processor
// Time, ID Process and Creating Process ID: each proc is {pid, creator,
// time}.
func reusedBlob(t *testing.T, sec int64, procs [][3]uint64) []byte {
	t.Helper()
	cs := []encode.V1Counter{
		{CounterNameTitleIndex: 6, CounterType: engine.Timer100ns, CounterSize: 8},
		{CounterNameTitleIndex: 784, CounterType: engine.CounterRawcount, CounterSize: 4},
		{CounterNameTitleIndex: 1410, CounterType: engine.CounterRawcount, CounterSize: 4},
	}
	encode.V1Layout(cs)
	var insts []encode.V1Instance
	for _, p := range procs {
		insts = append(insts, encode.V1Instance{Name: "chrome", UniqueID: -1, Values: []uint64{p[2], p[0], p[1]}})
	}
	data, err := encode.EncodeV1(&encode.V1Blob{
		SystemName: "HOST", PerfTime: sec * 1000, PerfFreq: 1000, PerfTime100nSec: sec * 10_000_000,
		Objects: []encode.V1Object{{ObjectNameTitleIndex: 230, NumInstances: int32(len(insts)), Counters: cs, Instances: insts}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestIdentityPIDReused: a reused PID (PID 10 with another Creating
// Process ID) is a new series, chrome:10#1 (the second process of that
// name:pid, as PDH numbers duplicates), with no value; the Query
// remembers it in the Runs after (watch), and the first process's name
// stays chrome:10.
func TestIdentityPIDReused(t *testing.T) {
	data, err := encode.EncodeNameTable(&encode.NameTable{Pairs: []encode.NameTablePair{
		{Index: 1, Text: "1847"}, {Index: 6, Text: "% Processor Time"}, {Index: 230, Text: "Process"},
		{Index: 784, Text: "ID Process"}, {Index: 1410, Text: "Creating Process ID"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	names, err := nametable.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	caps := [][]byte{
		reusedBlob(t, 10, [][3]uint64{{10, 1, 0}, {20, 1, 0}}),
		reusedBlob(t, 11, [][3]uint64{{10, 1, 1_000_000}, {20, 1, 2_000_000}}),
		reusedBlob(t, 12, [][3]uint64{{10, 7, 50}, {20, 1, 4_000_000}}),
		reusedBlob(t, 13, [][3]uint64{{10, 7, 3_000_050}, {20, 1, 6_000_000}}),
	}
	q := query.New(query.Config{Names: names, Identity: identity.PID})
	want := []map[string]float64{
		{"chrome:10": 10, "chrome:20": 20},
		{"chrome:10#1": -1, "chrome:20": 20}, // -1: no older value
		{"chrome:10#1": 30, "chrome:20": 20},
	}
	for r := range want {
		vals, err := q.Run(nil, caps[r], caps[r+1])
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]float64{}
		for _, v := range vals {
			if v.Parts.Counter != "% Processor Time" {
				continue
			}
			inst := v.Parts.Instance
			if v.Parts.Index > 0 {
				inst += "#" + strconv.Itoa(v.Parts.Index)
			}
			switch {
			case !v.HasOld && v.Status == engine.NewData:
				got[inst] = -1
			case v.Status == engine.Valid:
				got[inst] = math.Round(v.Value)
			default:
				t.Fatalf("run %d: %s %v", r, v.Path, v.Status)
			}
		}
		if len(got) != len(want[r]) {
			t.Fatalf("run %d: %v, want %v", r, got, want[r])
		}
		for k, w := range want[r] {
			if g, ok := got[k]; !ok || g != w {
				t.Fatalf("run %d: %v, want %v", r, got, want[r])
			}
		}
	}
	// A fresh Query meeting the two processes in one Run tells them apart
	// too: the older is chrome:10, the newer chrome:10#1.
	vals, err := query.New(query.Config{Names: names, Identity: identity.PID}).Run(nil, caps[1], caps[2])
	if err != nil {
		t.Fatal(err)
	}
	met := 0
	for _, v := range vals {
		if v.Parts.Instance == "chrome:10" {
			met++
			if v.Parts.Index != 1 || v.HasOld {
				t.Fatalf("%s: index %d, has old %v; want chrome:10#1, new", v.Path, v.Parts.Index, v.HasOld)
			}
		}
	}
	if met != 3 {
		t.Fatalf("%d values of chrome:10, want 3", met)
	}
}

// sharedIDBlob is a capture of Process and Thread instances whose IDs do
// not tell all of them apart: Idle's four threads (ID Process 0, ID Thread
// 0), two svchost with PID 500, _Total and _Total/_Total, and app (PID
// app, its thread app·10), at second sec: each instance's counter is its
// rate times sec.
func sharedIDBlob(t *testing.T, sec int64, app uint64) []byte {
	t.Helper()
	pc := []encode.V1Counter{
		{CounterNameTitleIndex: 6, CounterType: engine.Timer100ns, CounterSize: 8},
		{CounterNameTitleIndex: 784, CounterType: engine.CounterRawcount, CounterSize: 4},
		{CounterNameTitleIndex: 1410, CounterType: engine.CounterRawcount, CounterSize: 4},
	}
	tc := []encode.V1Counter{
		{CounterNameTitleIndex: 146, CounterType: engine.CounterCounter, CounterSize: 4},
		{CounterNameTitleIndex: 784, CounterType: engine.CounterRawcount, CounterSize: 4},
		{CounterNameTitleIndex: 804, CounterType: engine.CounterRawcount, CounterSize: 4},
	}
	encode.V1Layout(pc)
	encode.V1Layout(tc)
	s := uint64(sec)
	procs := []encode.V1Instance{
		{Name: "Idle", UniqueID: -1, Values: []uint64{5_000_000 * s, 0, 0}},
		{Name: "app", UniqueID: -1, Values: []uint64{1_000_000 * s, app, 4}},
		{Name: "svchost", UniqueID: -1, Values: []uint64{3_000_000 * s, 500, 4}},
		{Name: "svchost", UniqueID: -1, Values: []uint64{4_000_000 * s, 500, 4}},
		{Name: "_Total", UniqueID: -1, Values: []uint64{9_000_000 * s, 0, 0}},
	}
	var threads []encode.V1Instance
	for k := range uint64(4) {
		threads = append(threads, encode.V1Instance{Name: strconv.FormatUint(k, 10), ParentObjectTitleIndex: 230, ParentObjectInstance: 0,
			UniqueID: -1, Values: []uint64{(k + 1) * 10 * s, 0, 0}})
	}
	threads = append(threads,
		encode.V1Instance{Name: "0", ParentObjectTitleIndex: 230, ParentObjectInstance: 1, UniqueID: -1, Values: []uint64{5 * s, app, app * 10}},
		encode.V1Instance{Name: "_Total", ParentObjectTitleIndex: 230, ParentObjectInstance: 4, UniqueID: -1, Values: []uint64{1000 * s, 0, 0}})
	data, err := encode.EncodeV1(&encode.V1Blob{
		SystemName: "HOST", PerfTime: sec * 1000, PerfFreq: 1000, PerfTime100nSec: sec * 10_000_000,
		Objects: []encode.V1Object{
			{ObjectNameTitleIndex: 230, NumInstances: int32(len(procs)), Counters: pc, Instances: procs},
			{ObjectNameTitleIndex: 232, NumInstances: int32(len(threads)), Counters: tc, Instances: threads},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestIdentityPIDSharedIDs: instances that the IDs cannot tell apart in a
// capture stay distinct, numbered in their order as PDH numbers duplicate
// names, each paired with its older namesake by that position, and noted;
// _Total/_Total keeps its name; app, restarted (PID 100, then 200), is a
// new process and two breaks (Process and Thread).
func TestIdentityPIDSharedIDs(t *testing.T) {
	data, err := encode.EncodeNameTable(&encode.NameTable{Pairs: []encode.NameTablePair{
		{Index: 1, Text: "1847"}, {Index: 6, Text: "% Processor Time"}, {Index: 146, Text: "Context Switches/sec"},
		{Index: 230, Text: "Process"}, {Index: 232, Text: "Thread"}, {Index: 784, Text: "ID Process"},
		{Index: 804, Text: "ID Thread"}, {Index: 1410, Text: "Creating Process ID"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	names, err := nametable.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	q := query.New(query.Config{Names: names, Identity: identity.PID})
	vals, err := q.Run(nil, sharedIDBlob(t, 10, 100), sharedIDBlob(t, 11, 200))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, v := range vals {
		if v.Parts.Counter != "% Processor Time" && v.Parts.Counter != "Context Switches/sec" {
			continue
		}
		p := string(v.Path)
		if _, ok := got[p]; ok {
			t.Errorf("%s twice", p)
		}
		switch {
		case !v.HasOld && v.Status == engine.NewData:
			got[p] = -1
		case v.Status == engine.Valid:
			got[p] = math.Round(v.Value)
		default:
			t.Errorf("%s: %v", p, v.Status)
		}
	}
	want := map[string]float64{
		`\\HOST\Thread(Idle:0/0)\Context Switches/sec`:      10,
		`\\HOST\Thread(Idle:0/0#1)\Context Switches/sec`:    20,
		`\\HOST\Thread(Idle:0/0#2)\Context Switches/sec`:    30,
		`\\HOST\Thread(Idle:0/0#3)\Context Switches/sec`:    40,
		`\\HOST\Thread(_Total/_Total)\Context Switches/sec`: 1000,
		`\\HOST\Thread(app:200/2000)\Context Switches/sec`:  -1, // -1: no older value
		`\\HOST\Process(Idle:0)\% Processor Time`:           50,
		`\\HOST\Process(app:200)\% Processor Time`:          -1,
		`\\HOST\Process(svchost:500)\% Processor Time`:      30,
		`\\HOST\Process(svchost:500#1)\% Processor Time`:    40,
		`\\HOST\Process(_Total)\% Processor Time`:           90,
	}
	if len(got) != len(want) {
		t.Errorf("%d values, want %d: %v", len(got), len(want), got)
	}
	for p, w := range want {
		if g, ok := got[p]; !ok || g != w {
			t.Errorf("%s: %v (present %v), want %v", p, g, ok, w)
		}
	}
	if q.IdentityBreaks() != 2 {
		t.Errorf("%d breaks, want 2 (app and app/0)", q.IdentityBreaks())
	}
	wantNotes := []string{
		"Process: instances share their ID Process (svchost:500); they are told apart by their order in the capture, as PDH numbers duplicate names (svchost:500, svchost:500#1, …)",
		"Thread: instances share their ID Process and ID Thread (Idle:0/0); they are told apart by their order in the capture, as PDH numbers duplicate names (Idle:0/0, Idle:0/0#1, …)",
	}
	if notes := q.IdentityNotes(); strings.Join(notes, "\n") != strings.Join(wantNotes, "\n") {
		t.Errorf("notes %q, want %q", notes, wantNotes)
	}
	// A second Run (watch) names them alike.
	again, err := q.Run(nil, sharedIDBlob(t, 11, 200), sharedIDBlob(t, 12, 200))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range again {
		if p := string(v.Path); strings.HasPrefix(p, `\\HOST\Process(svchost:500`) && v.Parts.Counter == "% Processor Time" {
			n++
			if w := want[p]; v.Status != engine.Valid || math.Round(v.Value) != w {
				t.Errorf("second run: %s = %v (%v), want %v", p, v.Value, v.Status, w)
			}
		}
	}
	if n != 2 || len(q.IdentityNotes()) != 2 {
		t.Errorf("second run: %d svchost values, %d notes; want 2 and 2", n, len(q.IdentityNotes()))
	}
}
