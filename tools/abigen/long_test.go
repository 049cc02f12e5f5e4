package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/internal/longform"
)

// TestLongRefuses: a column that the generated files cannot hold is an
// error naming it: a bad or repeated name, a type without Python or Go
// names, neither or both of Get and OfSeries.
func TestLongRefuses(t *testing.T) {
	get := func(*longform.Row) longform.Value { return longform.Value{} }
	of := func(*longform.Series) longform.Value { return longform.Value{} }
	for _, tc := range []struct {
		f    longform.Field
		want string
	}{
		{longform.Field{Name: "Bad Name", Type: longform.String, Get: get}, `"Bad Name" is not a column name`},
		{longform.Field{Name: "x__y", Type: longform.String, Get: get}, `"x__y" is not a column name`},
		{longform.Field{Name: "time", Type: longform.String, Get: get}, `"time" is not a column name`},
		{longform.Field{Name: "day", Type: longform.Type{Arrow: "date32[day]", Physical: "INT32", Logical: "DATE"}, Get: get}, "the type date32[day] has no Python or Go name"},
		{longform.Field{Name: "x", Type: longform.String}, "set one of Get and OfSeries"},
		{longform.Field{Name: "x", Type: longform.String, Get: get, OfSeries: of}, "set one of Get and OfSeries"},
	} {
		fs := append(append([]longform.Field{}, longform.Fields...), tc.f)
		err := generateLong(root(t), fs, map[string][]byte{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.f.Name, err, tc.want)
		}
	}
	if err := generateLong(t.TempDir(), longform.Fields, map[string][]byte{}); err == nil {
		t.Error("no doc.go: no error")
	}
	if _, err := fillColumnTable([]byte("// Package longform.\npackage longform\n"), longform.Fields); err == nil || !strings.Contains(err.Error(), "no column table") {
		t.Errorf("doc.go without a table: %v", err)
	}
}

// TestColumnTable: the generated table of doc.go names every column in
// order with its types, then its meaning in lines of at most 80 columns;
// filling it again changes nothing, and the text around it stays.
func TestColumnTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root(t), longDoc))
	if err != nil {
		t.Fatal(err)
	}
	out, err := fillColumnTable(doc, longform.Fields[:2])
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(doc), "//\ttime ")
	if !strings.HasPrefix(string(out), head) || !bytes.Contains(out, []byte("\n//\n// Every row fills")) {
		t.Errorf("the text around the table changed:\n%s", out)
	}
	if !bytes.Contains(out, []byte("//\ttime        timestamp[us, tz=UTC]  not null  [INT64 TIMESTAMP(isAdjustedToUTC=true, unit=MICROS)]\n//\t    the sample's instant in UTC, to the microsecond\n//\tlocal_time ")) ||
		bytes.Contains(out, []byte("//\tmachine")) {
		t.Errorf("table of two columns (names padded to the longest):\n%s", out)
	}
	again, err := fillColumnTable(out, longform.Fields[:2])
	if err != nil || !bytes.Equal(again, out) {
		t.Errorf("filling twice differs: %v", err)
	}
	full, err := fillColumnTable(doc, longform.Fields)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`\n//\tinstance_index +int32 +null +\[INT32 INT\(32, true\)\]\n`).Match(full) {
		t.Errorf("no line of instance_index:\n%s", full)
	}
	for _, line := range strings.Split(string(full), "\n") {
		if strings.HasPrefix(line, "//\t    ") && len([]rune(strings.ReplaceAll(line, "\t", "    "))) > 80 {
			t.Errorf("line longer than 80 columns: %q", line)
		}
	}
}

// TestGoName: column names become Go field names.
func TestGoName(t *testing.T) {
	for in, want := range map[string]string{"time": "Time", "local_time": "LocalTime", "raw_first": "RawFirst", "instance_index": "InstanceIndex", "a1_b2": "A1B2"} {
		if have := goName(in); have != want {
			t.Errorf("%s: have %s, want %s", in, have, want)
		}
	}
}

// TestWrap: words are kept whole, lines do not exceed the width unless a
// word does.
func TestWrap(t *testing.T) {
	have := wrap("aa bbb cc  d eeeeeeeeee f", 6)
	want := []string{"aa bbb", "cc d", "eeeeeeeeee", "f"}
	if strings.Join(have, "|") != strings.Join(want, "|") {
		t.Errorf("have %q, want %q", have, want)
	}
	if wrap("", 5) != nil {
		t.Error("empty text: lines")
	}
}

// TestLongTypesMapped: every column type of longform.Types has its Python,
// Spark and Go names, so that a column of any of them generates.
func TestLongTypesMapped(t *testing.T) {
	for _, typ := range longform.Types {
		pt, gt := pyTypes[typ], goTypes[typ]
		if pt.arrow == "" || pt.sparkDDL == "" || pt.sparkArrow == "" || gt.typ == "" || !strings.Contains(gt.expr, "%s") {
			t.Errorf("%s: Python %+v, Go %+v", typ.Arrow, pt, gt)
		}
	}
	if len(pyTypes) != len(longform.Types) || len(goTypes) != len(longform.Types) {
		t.Errorf("%d Python and %d Go types for %d column types", len(pyTypes), len(goTypes), len(longform.Types))
	}
}
