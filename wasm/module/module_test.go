package module

import (
	"bytes"
	"os"
	"testing"
)

// TestBytes: Bytes is the committed file, a WebAssembly binary (its
// magic and version 1 of the binary format).
func TestBytes(t *testing.T) {
	want, err := os.ReadFile("perfcalc.wasm")
	if err != nil {
		t.Fatal(err)
	}
	b := Bytes()
	if !bytes.Equal(b, want) {
		t.Fatalf("Bytes: %d bytes, not those of perfcalc.wasm (%d bytes)", len(b), len(want))
	}
	if !bytes.HasPrefix(b, []byte("\x00asm\x01\x00\x00\x00")) {
		t.Errorf("Bytes begins with % x, not a WebAssembly binary's magic and version", b[:min(8, len(b))])
	}
}
