package detect

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/importban"
)

func TestImports(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

// TestFormat checks that Format tells each of the project's files apart,
// and that a few bytes are enough for all but V2.
func TestFormat(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "corpus")
	for _, tc := range []struct {
		file string
		want Kind
	}{
		{"global-1.bin", V1}, {"global-2.bin", V1}, {"v2-data-1.bin", V2}, {"counter-009.multisz", Names},
		{"help-009.multisz", Names}, {"v2-reginfo.bin", 0}, {"v2-strings.bin", 0},
	} {
		b, err := os.ReadFile(filepath.Join(root, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if have := Format(b); have != tc.want {
			t.Errorf("%s: have %d, want %d", tc.file, have, tc.want)
		}
		if tc.want != V2 && len(b) > 80 {
			if have := Format(b[:80]); have != tc.want {
				t.Errorf("%s, 80 bytes: have %d, want %d", tc.file, have, tc.want)
			}
		}
		if tc.want == V2 {
			if have := Format(b[:len(b)-8]); have != 0 {
				t.Errorf("%s cut by 8 bytes: have %d, want 0 (V2 reads the whole result)", tc.file, have)
			}
		}
	}
	if b, err := os.ReadFile(corpus.Shared(t, "blg", "Tx_BasicPerfCounters.blg")); err == nil {
		if Format(b) != Blg || Format(b[:80]) != Blg || Format(b[:70]) != 0 {
			t.Errorf("a .blg log: %d, 80 bytes %d, 70 bytes %d", Format(b), Format(b[:80]), Format(b[:70]))
		}
	}
	for _, b := range [][]byte{nil, []byte("PERF"), []byte("hello world, not a capture")} {
		if have := Format(b); have != 0 {
			t.Errorf("%q: have %d, want 0", b, have)
		}
	}
}

// TestFormatAllocs: telling a V1 capture by its signature allocates
// nothing (the V2 test, tried before the name table's, may).
func TestFormatAllocs(t *testing.T) {
	for _, tc := range []struct {
		file string
		want Kind
	}{{"global-1.bin", V1}, {"global-2.bin", V1}} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(20, func() {
			if Format(b) != tc.want {
				t.Fatalf("%s: not %d", tc.file, tc.want)
			}
		}); n != 0 {
			t.Errorf("Format(%s): %v allocs, want 0", tc.file, n)
		}
	}
}
