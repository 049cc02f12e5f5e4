package longform

import (
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"slices"
	"testing"
	"unsafe"

	"github.com/perfcalc/perfcalc/engine"
)

// TestFieldsWellFormed: every column has a type of Types, its meaning, and
// exactly one of Get and OfSeries.
func TestFieldsWellFormed(t *testing.T) {
	for _, f := range Fields {
		if !slices.Contains(Types, f.Type) || f.Doc == "" || (f.Get == nil) == (f.OfSeries == nil) {
			t.Errorf("%s: type %v in Types %v, doc %q, Get %v, OfSeries %v", f.Name, f.Type, slices.Contains(Types, f.Type), f.Doc, f.Get != nil, f.OfSeries != nil)
		}
	}
}

// TestFieldValues: each column's value in a row of an instance, and in a
// row of an object without instances whose sample has no valid value.
func TestFieldValues(t *testing.T) {
	s := NewSeries(`\\M\Thread(svchost/0#3)\Context Switches/sec`,
		&counterpath.Path{Machine: "M", Object: "Thread", HasInstance: true, Parent: "svchost", Instance: "0", Index: 3, Counter: "Context Switches/sec"}, 0x10410400)
	row := Row{Series: &s, Time: 1_700_000_000_000_000, LocalTime: 1_699_996_400_000_000,
		Cell: &Cell{Present: true, Value: 12.5, CStatus: 0x800007D0, First: 1<<63 + 5, Second: 7, Multi: 3}}
	n := Series{Path: `\\M\Memory\Available Bytes`, Machine: "M", Object: "Memory", Counter: "Available Bytes", TypeName: "PERF_COUNTER_RAWCOUNT"}
	bare := Row{Series: &n, Cell: &Cell{Present: true, Value: 1, Status: engine.NegativeDenominator}}
	unknown := Row{Series: &n, Cell: &Cell{Status: engine.UnknownType + 5}}
	want := map[string][3]Value{
		"time":           {{Int: 1_700_000_000_000_000}, {}, {}},
		"local_time":     {{Int: 1_699_996_400_000_000}, {}, {}},
		"machine":        {{Str: "M"}, {Str: "M"}, {Str: "M"}},
		"object":         {{Str: "Thread"}, {Str: "Memory"}, {Str: "Memory"}},
		"instance":       {{Str: "0"}, {Null: true}, {Null: true}},
		"parent":         {{Str: "svchost"}, {Null: true}, {Null: true}},
		"instance_index": {{Int: 3}, {Null: true}, {Null: true}},
		"counter":        {{Str: "Context Switches/sec"}, {Str: "Available Bytes"}, {Str: "Available Bytes"}},
		"path":           {{Str: s.Path}, {Str: n.Path}, {Str: n.Path}},
		"counter_type":   {{Str: s.TypeName}, {Str: "PERF_COUNTER_RAWCOUNT"}, {Str: "PERF_COUNTER_RAWCOUNT"}},
		"value":          {{Float: 12.5}, {Null: true}, {Null: true}},
		"status":         {{Str: "Valid"}, {Str: "NegativeDenominator"}, {Str: "UnknownType"}},
		"raw_status":     {{Int: 0x800007D0}, {}, {}},
		"raw_first":      {{Int: -1<<63 + 5}, {}, {}},
		"raw_second":     {{Int: 7}, {}, {}},
		"raw_multi":      {{Int: 3}, {}, {}},
		"pid":            {{Null: true}, {Null: true}, {Null: true}}, // a Thread of pdh's names: no pid
	}
	if len(want) != len(Fields) {
		t.Fatalf("%d columns, want %d", len(Fields), len(want))
	}
	for i := range Fields {
		f := &Fields[i]
		for j, r := range []*Row{&row, &bare, &unknown} {
			if have := f.Value(r); have != want[f.Name][j] {
				t.Errorf("%s, row %d: have %+v, want %+v", f.Name, j, have, want[f.Name][j])
			}
		}
	}
}

// TestNewCell: a cell holds the result and the raw record it is given, in
// 40 bytes.
func TestNewCell(t *testing.T) {
	raw := engine.RawCounter{CStatus: 1, TimeStamp: 9, FirstValue: 2, SecondValue: 3, MultiCount: 4}
	c := NewCell(engine.Result{Value: 0.5, Status: engine.NewData}, &raw)
	if c != (Cell{Present: true, Status: engine.NewData, Value: 0.5, CStatus: 1, First: 2, Second: 3, Multi: 4}) {
		t.Errorf("have %+v", c)
	}
	if n := unsafe.Sizeof(c); n != 40 {
		t.Errorf("a cell takes %d bytes, want 40", n)
	}
}

// TestProcessID: the pid column of the names --identity pid gives and of
// Process V2's, null elsewhere.
func TestProcessID(t *testing.T) {
	for _, tc := range []struct {
		object, parent, instance string
		has                      bool
		pid                      uint32
		ok                       bool
	}{
		{"Process", "", "chrome:4242", true, 4242, true},
		{"process v2", "", "svchost:4294967295", true, 4294967295, true},
		{"Thread", "chrome:4242", "5120", true, 4242, true},
		{"Process", "", "chrome", true, 0, false},
		{"Process", "", "_Total", true, 0, false},
		{"Process", "", "a:4294967296", true, 0, false},
		{"Process", "", "a:", true, 0, false},
		{"Process", "", "a:12x", true, 0, false},
		{"Process", "", "a:1", false, 0, false},
		{"Thread", "chrome", "12", true, 0, false},
		{"LogicalDisk", "", "C:1", true, 0, false},
	} {
		s := Series{Object: tc.object, HasInstance: tc.has, Parent: tc.parent, Instance: tc.instance}
		pid, ok := ProcessID(&s)
		if pid != tc.pid || ok != tc.ok {
			t.Errorf("%s(%s/%s): %d %v, want %d %v", tc.object, tc.parent, tc.instance, pid, ok, tc.pid, tc.ok)
		}
	}
}
