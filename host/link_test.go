package host_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/perfcalc/perfcalc/host"
)

// TestLinkedModules builds testdata/noanalyze, a program that uses an
// Engine without Analyze, and checks that its binary holds perfcalc.wasm
// but not the analyze module (3 MB that the linker drops when nothing
// calls Analyze or AnalyzeModule): a part of each module's bytes that the
// other lacks is searched for.
func TestLinkedModules(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program (seconds to a minute): not in -short")
	}
	out := filepath.Join(t.TempDir(), "noanalyze")
	cmd := exec.Command("go", "build", "-o", out, "./testdata/noanalyze")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/noanalyze: %v\n%s", err, b)
	}
	bin, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		m, other   []byte
		wantLinked bool
	}{
		{"perfcalc.wasm", host.Module(), host.AnalyzeModule(), true},
		{"perfcalc-analyze.wasm", host.AnalyzeModule(), host.Module(), false},
	} {
		part := uniquePart(t, tc.m, tc.other)
		if linked := bytes.Contains(bin, part); linked != tc.wantLinked {
			t.Errorf("the program's binary (%d bytes) holds %s: %v, want %v", len(bin), tc.name, linked, tc.wantLinked)
		}
	}
}

// uniquePart returns 256 bytes from the second half of m that other does
// not hold.
func uniquePart(t *testing.T, m, other []byte) []byte {
	t.Helper()
	for at := len(m) / 2; at+256 <= len(m); at += 4096 {
		if p := m[at : at+256]; !bytes.Contains(other, p) {
			return p
		}
	}
	t.Fatal("no part of one module that the other lacks")
	return nil
}
