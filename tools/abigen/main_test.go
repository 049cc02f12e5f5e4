package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/internal/abi"
)

func root(t *testing.T) string {
	t.Helper()
	return filepath.Join(sourceDir(), "..", "..")
}

// TestGeneratedFilesUpToDate fails while a generated file (web/abi.mjs,
// the tables of wasm/ABI.md) differs from a fresh generation.
func TestGeneratedFilesUpToDate(t *testing.T) {
	files, err := generate(root(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sortedKeys(files) {
		have, err := os.ReadFile(filepath.Join(root(t), name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, files[name]) {
			t.Errorf("%s is stale: run go generate ./internal/abi", name)
		}
	}
}

// TestLayoutValues checks that what abigen reads of layout.go is what the
// compiler reads: every constant, with its value.
func TestLayoutValues(t *testing.T) {
	l, err := readLayout(filepath.Join(root(t), layoutFile))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int64{
		"Version": abi.Version, "CodeAbsent": abi.CodeAbsent, "RecordSize": abi.RecordSize, "RecColumn": abi.RecColumn,
		"HdrLocal": abi.HdrLocal, "ReqNewMulti": abi.ReqNewMulti, "QueryPaths": abi.QueryPaths,
		"Magic": abi.Magic, "MaxRecords": abi.MaxRecords, "StatSkipped": abi.StatSkipped, "OptionsMask": abi.OptionsMask,
	} {
		c := l.byName[name]
		if c == nil || c.Int != want {
			t.Errorf("%s: have %+v, want %d", name, c, want)
		}
	}
	if c := l.byName["RecTime"]; c.Type != "i64" || !strings.HasPrefix(c.Field, "time: a FILETIME") {
		t.Errorf("RecTime: type %q, field %q", c.Type, c.Field)
	}
	if c := l.byName["Magic"]; c.Value != "0x31524350" {
		t.Errorf("a hex constant is written %s", c.Value)
	}
}

// TestCheckTables checks that a record whose fields do not tile it is
// refused: a gap, an overlap, a misaligned field, a wrong size.
func TestCheckTables(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"gap", "const (\n\tXSize = 16\n\tXA = 0 // u32 a\n\tXB = 8 // u64 b\n)\n"},
		{"overlap", "const (\n\tXSize = 16\n\tXA = 0 // u64 a\n\tXB = 4 // u32 b\n\tXC = 8 // u64 c\n)\n"},
		{"misaligned", "const (\n\tXSize = 16\n\tXA = 0 // u32 a\n\tXB = 4 // u64 b\n\tXC = 12 // u32 c\n)\n"},
		{"short", "const (\n\tXSize = 16\n\tXA = 0 // u64 a\n)\n"},
		{"no size", "const (\n\tXA = 0 // u64 a\n)\n"},
	} {
		path := filepath.Join(t.TempDir(), "layout.go")
		if err := os.WriteFile(path, []byte("package abi\n\n"+tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		l, err := readLayout(path)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := l.checkTables(); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

// TestUpperSnake checks the JS and Python names of Go constants.
func TestUpperSnake(t *testing.T) {
	for in, want := range map[string]string{
		"RecPathOff": "REC_PATH_OFF", "ABIVersion": "ABI_VERSION", "RecCStatus": "REC_CSTATUS", "OptTimes1000": "OPT_TIMES1000",
		"OptCap100": "OPT_CAP100", "Version": "VERSION", "InCap": "IN_CAP", "MaxEvery": "MAX_EVERY", "QueryIDs": "QUERY_IDS",
	} {
		if have := upperSnake(in); have != want {
			t.Errorf("%s: have %s, want %s", in, have, want)
		}
	}
}

// TestABIMarkdownStatuses checks ABI.md's hand-written table of statuses
// against the engine's.
func TestABIMarkdownStatuses(t *testing.T) {
	md, err := os.ReadFile(filepath.Join(root(t), abiMD))
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`(?m)^\| (\d+) \| (\w+) \| .* \|$`).FindAllSubmatch(md, -1)
	n := 0
	for _, r := range rows {
		v, _ := strconv.Atoi(string(r[1]))
		if v > int(engine.UnknownType) || string(r[2]) != engine.Status(v).String() {
			continue // another table's row
		}
		if v != n {
			t.Errorf("status %d in place %d", v, n)
		}
		n++
	}
	if n != int(engine.UnknownType)+1 {
		t.Errorf("ABI.md lists %d of the engine's %d statuses", n, int(engine.UnknownType)+1)
	}
}

// TestJSConstants checks that web/abi.mjs names every constant of the
// layout, and the engine's statuses and counter types.
func TestJSConstants(t *testing.T) {
	l, err := readLayout(filepath.Join(root(t), layoutFile))
	if err != nil {
		t.Fatal(err)
	}
	js, err := l.render("js.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range l.byName {
		if !bytes.Contains(js, []byte("export const "+upperSnake(name)+" = "+c.Value+";")) {
			t.Errorf("abi.mjs lacks %s", name)
		}
	}
	for _, ct := range engine.Types() {
		if !bytes.Contains(js, []byte(ct.String()+": ")) {
			t.Errorf("abi.mjs lacks %s", ct)
		}
	}
	if !bytes.Contains(js, []byte(`"NegativeDenominator"`)) || !bytes.Contains(js, []byte(`[-10]: "Absent"`)) {
		t.Error("abi.mjs lacks the status or code names")
	}
}
