package collect

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
)

// fakePDH answers PDH's calls from a script: per sample, per counter, the
// items.
type fakePDH struct {
	infos   map[string]PDHCounter // by path as added
	expand  map[string][]string
	samples [][][]PDHItem // [sample][counter id]
	fail    map[int]bool  // counters whose Raw fails
	added   []string
	n       int
}

func (f *fakePDH) Expand(path string) ([]string, error) {
	if e, ok := f.expand[path]; ok {
		return e, nil
	}
	return nil, errors.New("no such counter")
}

func (f *fakePDH) Add(path string) (PDHCounter, error) {
	info, ok := f.infos[path]
	if !ok {
		return PDHCounter{}, errors.New("PDH_CSTATUS_NO_COUNTER")
	}
	info.ID = len(f.added)
	f.added = append(f.added, path)
	return info, nil
}

func (f *fakePDH) Collect() error {
	if f.n >= len(f.samples) {
		return errors.New("no more samples")
	}
	f.n++
	return nil
}

func (f *fakePDH) Raw(id int, dst []PDHItem) ([]PDHItem, error) {
	if f.fail[id] {
		return dst, errors.New("PDH_INVALID_DATA")
	}
	return append(dst, f.samples[f.n-1][id]...), nil
}

func (f *fakePDH) Close() error { return nil }

func raw(n, d uint64) engine.RawCounter { return engine.RawCounter{FirstValue: n, SecondValue: d} }

func TestPDHPairsInstancesAndComputes(t *testing.T) {
	const cpu = `\\HOST\Processor(*)\% Processor Time`
	const up = `\\HOST\System\System Up Time`
	idle := engine.Timer100nsInv
	f := &fakePDH{
		infos: map[string]PDHCounter{
			`\Processor(*)\% Processor Time`: {FullPath: cpu, Type: idle, TimeBase: 10_000_000},
			`\System\System Up Time`:         {FullPath: up, Type: engine.ElapsedTime, DefaultScale: -3, TimeBase: 1000},
		},
		expand: map[string][]string{`\System\*`: {`\System\System Up Time`}},
		samples: [][][]PDHItem{
			{{{"0", raw(100, 1000)}, {"_Total", raw(100, 1000)}, {"svc", raw(0, 1000)}}, {{"", raw(1000, 5000)}}},
			{{{"0", raw(150, 1100)}, {"_Total", raw(150, 1100)}, {"svc", raw(10, 1100)}, {"svc", raw(7, 1100)}}, {{"", raw(1000, 6000)}}},
			{{{"0", raw(150, 1100)}, {"1", raw(0, 1200)}, {"svc", raw(30, 1200)}}, {{"", raw(1000, 7000)}}},
		},
	}
	col, err := NewPDH(f, Config{Paths: mustPaths(t, `\Processor(*)\% Processor Time`, `\System\*`)})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		path   string
		status engine.Status
		value  float64
	}
	compute := func(typ engine.CounterType, f int64, old, new engine.RawCounter) float64 {
		in := engine.Input{Counter: engine.Counter{Type: typ, TimeBase: f}, HasOld: true, Old: old, New: new}
		return engine.Compute(&in, 0).Value
	}
	wants := [][]want{
		{{`\\HOST\Processor(0)\% Processor Time`, engine.NewData, 0}, {`\\HOST\Processor(_Total)\% Processor Time`, engine.NewData, 0},
			{`\\HOST\Processor(svc)\% Processor Time`, engine.NewData, 0}, {up, engine.Valid, 4}},
		{{`\\HOST\Processor(0)\% Processor Time`, engine.Valid, compute(idle, 1e7, raw(100, 1000), raw(150, 1100))},
			{`\\HOST\Processor(_Total)\% Processor Time`, engine.Valid, 50},
			{`\\HOST\Processor(svc)\% Processor Time`, engine.Valid, 90},
			{`\\HOST\Processor(svc#1)\% Processor Time`, engine.NewData, 0}, // a duplicate that appeared
			{up, engine.Valid, 5}},
		{{`\\HOST\Processor(0)\% Processor Time`, engine.NegativeDenominator, 0}, // ΔD = 0
			{`\\HOST\Processor(1)\% Processor Time`, engine.NewData, 0}, // appeared; _Total and svc#1 went away
			{`\\HOST\Processor(svc)\% Processor Time`, engine.Valid, 80},
			{up, engine.Valid, 6}},
	}
	dir := t.TempDir()
	col.cfg.SaveDir = dir
	var s Sample
	for k, ws := range wants {
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
		if len(s.Values) != len(ws) {
			t.Fatalf("sample %d: %d values, want %d", k, len(s.Values), len(ws))
		}
		for i, w := range ws {
			v := s.Values[i]
			if string(v.Path) != w.path || v.Status != w.status || math.Abs(v.Value-w.value) > 1e-12 {
				t.Errorf("sample %d value %d: have %s %v %v, want %s %v %v", k, i, v.Path, v.Status, v.Value, w.path, w.status, w.value)
			}
		}
	}
	// The saved sample recomputes with calc --batch: its requests carry
	// the older sample each value was computed with.
	reqs, err := os.ReadFile(filepath.Join(dir, seqName("pdh-", 2, ".jsonl")))
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := os.ReadFile(filepath.Join(dir, seqName("pdh-", 2, ".paths")))
	if n := strings.Count(string(reqs), "\n"); n != 4 || strings.Count(string(paths), "\n") != 4 {
		t.Fatalf("saved %d requests:\n%s\n%s", n, reqs, paths)
	}
	if !strings.Contains(string(reqs), `{"type":"PERF_100NSEC_TIMER_INV","old":[10,1100,0],"new":[30,1200,0],"timebase":10000000}`) {
		t.Fatalf("requests:\n%s", reqs)
	}
}

func TestPDHFailingCounterKeepsTheOthers(t *testing.T) {
	f := &fakePDH{
		infos: map[string]PDHCounter{
			`\A\x`: {FullPath: `\\H\A\x`, Type: engine.CounterRawcount},
			`\B\y`: {FullPath: `\\H\B\y`, Type: engine.CounterRawcount},
		},
		samples: [][][]PDHItem{{{{"", raw(1, 0)}}, {{"", raw(2, 0)}}}},
		fail:    map[int]bool{0: true},
	}
	col, err := NewPDH(f, Config{Paths: mustPaths(t, `\A\x`, `\B\y`)})
	if err != nil {
		t.Fatal(err)
	}
	var s Sample
	if err := col.Collect(&s); err != nil {
		t.Fatal(err)
	}
	var oe *ObjectError
	if len(s.Values) != 1 || string(s.Values[0].Path) != `\\H\B\y` || s.Values[0].Value != 2 ||
		len(s.Errors) != 1 || !errors.As(s.Errors[0], &oe) || oe.Object != `\\H\A\x` {
		t.Fatalf("values %+v errors %v", s.Values, s.Errors)
	}
	if _, err := NewPDH(&fakePDH{}, Config{}); err == nil {
		t.Fatal("PDH without paths was accepted")
	}
	if _, err := NewPDH(f, Config{Paths: mustPaths(t, `\C\z`)}); err == nil {
		t.Fatal("an unknown counter was accepted")
	}
}

// TestPDHSaveCalcTakes: a saved request is one that perfcalc calc --batch
// reads (FuzzPDHSavedRequests found both): a DefaultScale outside −10..10
// is saved as the scale the engine used (clamped), and a value of a type
// winperf.h does not define (UnknownType whatever the numbers, a type calc
// refuses) is left out.
func TestPDHSaveCalcTakes(t *testing.T) {
	for _, tc := range []struct {
		typ   engine.CounterType
		scale int32
		want  string
	}{
		{engine.CounterRawcount, -33, `{"type":"PERF_COUNTER_RAWCOUNT","new":[7,0,0],"scale":-10}` + "\n"},
		{engine.CounterRawcount, 12, `{"type":"PERF_COUNTER_RAWCOUNT","new":[7,0,0],"scale":10}` + "\n"},
		{engine.CounterRawcount, 3, `{"type":"PERF_COUNTER_RAWCOUNT","new":[7,0,0],"scale":3}` + "\n"},
		{engine.CounterType(0x224104F7), 0, ""},
	} {
		f := &fakePDH{
			infos:   map[string]PDHCounter{`\A\x`: {FullPath: `\\H\A\x`, Type: tc.typ, DefaultScale: tc.scale}},
			samples: [][][]PDHItem{{{{"", raw(7, 0)}}}},
		}
		dir := t.TempDir()
		col, err := NewPDH(f, Config{Paths: mustPaths(t, `\A\x`), Options: engine.Scale, SaveDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		var s Sample
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
		have, err := os.ReadFile(filepath.Join(dir, "pdh-000000.jsonl"))
		if err != nil || string(have) != tc.want {
			t.Errorf("%v scale %d: saved %q (%v), want %q", tc.typ, tc.scale, have, err, tc.want)
		}
	}
}

// TestHasInstanceWildcard: the PDH source asks for an array of instances
// exactly where NewPDH names items by instance: a wildcard in the
// instance, its parent or its #index, read as counterpath reads the path
// (the scan it replaced took parentheses in a machine or counter name for
// an instance).
func TestHasInstanceWildcard(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{`\Processor(*)\% Processor Time`, true},
		{`\Process(svchost#*)\ID Process`, true},
		{`\Thread(notepad/*)\Context Switches/sec`, true},
		{`\Processor(_Total)\% Processor Time`, false},
		{`\Network Interface(Intel(R) PRO_1000)\Bytes Total/sec`, false},
		{`\Memory\Available Bytes`, false},
		{`\\m(*)\Obj\C`, false},
		{`\Obj(a)\C (x*)`, false},
		{`\Obj(a)\C*`, false},
		{`not a path (*)`, false},
	} {
		if have := hasInstanceWildcard(tc.path); have != tc.want {
			t.Errorf("%q: have %v, want %v", tc.path, have, tc.want)
		}
	}
}
