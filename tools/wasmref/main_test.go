package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/detect"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

var corpusDir = filepath.Join("..", "..", "testdata", "corpus")

// record is a line of wasmref's output.
type record struct {
	Path   string  `json:"path"`
	Value  float64 `json:"value"`
	Bits   string  `json:"bits"`
	Status uint32  `json:"status"`
	Type   uint32  `json:"type"`
	Aux    uint32  `json:"aux"`
}

// runRef runs wasmref with args and returns its status, output and errors.
func runRef(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	rc := run(args, &stdout, &stderr)
	return rc, stdout.String(), stderr.String()
}

// records decodes wasmref's JSON lines.
func records(t *testing.T, out string) []record {
	t.Helper()
	var rs []record
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		rs = append(rs, r)
	}
	return rs
}

// TestNames: a name table's records are its pairs, in order (path = the
// text, value and aux = the index), as package nametable reads them.
func TestNames(t *testing.T) {
	file := filepath.Join(corpusDir, "counter-009.multisz")
	rc, out, errs := runRef("names", file)
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := nametable.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	rs := records(t, out)
	if len(rs) != tab.Len() {
		t.Fatalf("have %d records, want %d pairs", len(rs), tab.Len())
	}
	for i, r := range rs {
		index, text := tab.Pair(i)
		if r.Path != text.String() || r.Value != float64(index) || r.Aux != index {
			t.Errorf("record %d: have %q %v (aux %d), want %q %d", i, r.Path, r.Value, r.Aux, text.String(), index)
		}
	}
}

// TestV1: every counter of a capture, named by the table, with "bits" the
// value's bit pattern.
func TestV1(t *testing.T) {
	rc, out, errs := runRef("v1", filepath.Join(corpusDir, "global-2.bin"), filepath.Join(corpusDir, "counter-009.multisz"))
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	rs := records(t, out)
	if len(rs) < 100 {
		t.Fatalf("have %d records, want at least 100", len(rs))
	}
	for i, r := range rs {
		if !strings.HasPrefix(r.Path, `\\PERFCALC-DEMO\`) {
			t.Errorf("record %d: path %q does not name the capture's machine", i, r.Path)
		}
		if b, err := strconv.ParseUint(r.Bits, 16, 64); err != nil || math.Float64frombits(b) != r.Value {
			t.Errorf("record %d: bits %q are not those of %v", i, r.Bits, r.Value)
		}
	}
}

// TestV2Fixture: v2fixture writes two V2 captures and what names them, and
// v2 and query2 decode them.
func TestV2Fixture(t *testing.T) {
	dir := t.TempDir()
	if rc, _, errs := runRef("v2fixture", dir); rc != 0 {
		t.Fatalf("v2fixture: rc %d: %s", rc, errs)
	}
	f := func(name string) string { return filepath.Join(dir, name) }
	for _, name := range []string{"older.bin", "newer.bin"} {
		b, err := os.ReadFile(f(name))
		if err != nil {
			t.Fatal(err)
		}
		if k := detect.Format(b); k != detect.V2 {
			t.Errorf("%s: detect.Format %d, want V2", name, k)
		}
	}
	rc, out, errs := runRef("v2", f("newer.bin"), f("reg.bin"), f("strings.bin"))
	if rc != 0 || len(records(t, out)) == 0 {
		t.Fatalf("v2: rc %d, %d bytes: %s", rc, len(out), errs)
	}
	rc, out, errs = runRef("query2", f("older.bin"), f("newer.bin"), f("reg.bin"), f("strings.bin"))
	if rc != 0 || len(records(t, out)) == 0 {
		t.Fatalf("query2: rc %d, %d bytes: %s", rc, len(out), errs)
	}
}

func TestErrors(t *testing.T) {
	names := filepath.Join(corpusDir, "counter-009.multisz")
	for _, tc := range []struct {
		args []string
		rc   int
		err  string
	}{
		{nil, 2, "usage: wasmref"},
		{[]string{"bogus", "x"}, 2, "wasmref: unknown command bogus"},
		{[]string{"query", names}, 2, "usage: wasmref"},
		{[]string{"relog", "xml", names}, 2, "usage: wasmref"},
		{[]string{"v1", filepath.Join(corpusDir, "no-such-file")}, 1, "wasmref: cannot load"},
		{[]string{"v1", names}, 1, `Signature is not "PERF" in UTF-16LE`},
		{[]string{"blg", names}, 1, "wasmref: error -6: blg:"},
	} {
		rc, out, errs := runRef(tc.args...)
		if rc != tc.rc || out != "" || !strings.Contains(errs, tc.err) {
			t.Errorf("%q: rc %d, output %q, errors %q; want rc %d and an error with %q", tc.args, rc, out, errs, tc.rc, tc.err)
		}
	}
}

// TestExitLog: exitlog writes the PAL sample log with svchost#2 exiting at
// sample 5 (the hosts' --identity fixture): a log of the same size whose
// bytes differ, and refuses a missing argument.
func TestExitLog(t *testing.T) {
	pal := filepath.Join("..", "..", "..", "shared", "corpus", "blg", "PAL_SamplePerfmonLog.blg")
	in, err := os.ReadFile(pal)
	if err != nil {
		t.Skipf("the PAL sample log is absent (%v): a clone without ../shared", err)
	}
	out := filepath.Join(t.TempDir(), "exit.blg")
	if rc, _, errs := runRef("exitlog", pal, out); rc != 0 || errs != "" {
		t.Fatalf("exitlog: %d, %s", rc, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil || len(b) != len(in) || bytes.Equal(b, in) {
		t.Fatalf("exitlog wrote %d bytes (the log %d), changed %v, %v", len(b), len(in), !bytes.Equal(b, in), err)
	}
	if rc, _, _ := runRef("exitlog", pal); rc != 2 {
		t.Errorf("exitlog without OUT: %d, want 2", rc)
	}
}

// TestIdentityLog: identitylog writes blgbuild.IdentityLog (the hosts'
// fixture of instances that share their IDs), and refuses a missing
// argument.
func TestIdentityLog(t *testing.T) {
	out := filepath.Join(t.TempDir(), "shared.blg")
	if rc, _, errs := runRef("identitylog", out); rc != 0 || errs != "" {
		t.Fatalf("identitylog: %d, %s", rc, errs)
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Equal(b, blgbuild.IdentityLog()) {
		t.Fatalf("identitylog wrote %d bytes, not blgbuild.IdentityLog's (%v)", len(b), err)
	}
	if rc, _, _ := runRef("identitylog"); rc != 2 {
		t.Errorf("identitylog without OUT: %d, want 2", rc)
	}
}
