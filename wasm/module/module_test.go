package module

import (
	"bytes"
	"os"
	"testing"
)

// TestBytes: Bytes and AnalyzeBytes are the committed files, WebAssembly
// binaries (their magic and version 1 of the binary format), and not the
// same module.
func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		file string
		b    []byte
	}{
		{"perfcalc.wasm", Bytes()},
		{"perfcalc-analyze.wasm", AnalyzeBytes()},
	} {
		want, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(tc.b, want) {
			t.Fatalf("%s: %d bytes embedded, not those of the file (%d bytes)", tc.file, len(tc.b), len(want))
		}
		if !bytes.HasPrefix(tc.b, []byte("\x00asm\x01\x00\x00\x00")) {
			t.Errorf("%s begins with % x, not a WebAssembly binary's magic and version", tc.file, tc.b[:min(8, len(tc.b))])
		}
	}
	if bytes.Equal(Bytes(), AnalyzeBytes()) {
		t.Error("Bytes and AnalyzeBytes are the same module")
	}
}
