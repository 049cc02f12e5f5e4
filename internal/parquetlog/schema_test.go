package parquetlog

import (
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/perfcalc/perfcalc/internal/longform"
)

// TestRecordSchema: the schema of record, the struct that make generate
// writes from longform.Fields and Write writes with, is longform.Fields:
// the same columns in order, each with its name, nullability, dictionary
// encoding and Parquet physical and logical types (spaces aside).
func TestRecordSchema(t *testing.T) {
	fields := parquet.SchemaOf(record{}).Fields()
	if len(fields) != len(longform.Fields) {
		t.Fatalf("record has %d columns, longform.Fields %d", len(fields), len(longform.Fields))
	}
	for i, want := range longform.Fields {
		have := fields[i]
		logical := ""
		if l := have.Type().LogicalType(); l != nil {
			logical = l.String()
		}
		dict := have.Encoding() != nil && have.Encoding().Encoding() == format.RLEDictionary
		if have.Name() != want.Name || have.Optional() != want.Nullable || dict != want.Dictionary ||
			have.Type().Kind().String() != want.Physical || logical != strings.ReplaceAll(want.Logical, " ", "") {
			t.Errorf("column %d: record has %s optional=%v dictionary=%v %s %s; longform.Fields %s nullable=%v dictionary=%v %s %s",
				i, have.Name(), have.Optional(), dict, have.Type().Kind(), logical, want.Name, want.Nullable, want.Dictionary, want.Physical, want.Logical)
		}
	}
}

// TestRecordSet: record's setSeries and setRow take every column from
// longform.Fields: nulls where it says null, the values of a row otherwise.
func TestRecordSet(t *testing.T) {
	if err := recordFresh(); err != nil {
		t.Fatal(err)
	}
	s := longform.NewSeries(`\\M\Thread(svchost/0#3)\Context Switches/sec`,
		&counterpath.Path{Machine: "M", Object: "Thread", HasInstance: true, Parent: "svchost", Instance: "0", Index: 3, Counter: "Context Switches/sec"}, 0x10410400)
	row := longform.Row{Series: &s, Time: 1_700_000_000_000_000, LocalTime: 1_699_996_400_000_000, Cell: &longform.Cell{Present: true}}
	row.Cell.Value = 12.5
	row.Cell.CStatus, row.Cell.First, row.Cell.Second, row.Cell.Multi = 0x800007D0, 1<<63+5, 7, 3
	var r record
	var n nullables
	set := func() {
		r = record{}
		r.setSeries(row.Series, &n)
		r.setRow(&row, &n)
		for i := range longform.Fields {
			f := &longform.Fields[i]
			if v := f.Value(&row); v.Null && !f.Nullable {
				t.Errorf("%s: null in a column that is not nullable", f.Name)
			}
		}
	}
	set()
	if r.Time != row.Time || r.LocalTime != row.LocalTime || r.Machine != "M" || r.Object != "Thread" || r.Counter != "Context Switches/sec" ||
		r.Path != s.Path || r.CounterType != s.TypeName || r.Status != "Valid" {
		t.Errorf("required columns: %+v", r)
	}
	if r.Instance == nil || *r.Instance != "0" || r.Parent == nil || *r.Parent != "svchost" || r.InstanceIndex == nil || *r.InstanceIndex != 3 ||
		r.Value == nil || *r.Value != 12.5 || *r.RawStatus != 0x800007D0 || *r.RawFirst != 1<<63+5 || *r.RawSecond != 7 || *r.RawMulti != 3 {
		t.Errorf("optional columns: %+v", r)
	}
	m := longform.NewSeries(`\\M\Memory\Available Bytes`, &counterpath.Path{Machine: "M", Object: "Memory", Counter: "Available Bytes"}, 0x10100)
	row.Series = &m
	row.Cell.Status = 99 // beyond the engine's statuses
	set()
	if r.Instance != nil || r.Parent != nil || r.InstanceIndex != nil || r.Value != nil || r.Status != "UnknownType" || r.RawMulti == nil {
		t.Errorf("no instance, no value: %+v", r)
	}
}
