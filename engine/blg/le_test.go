package blg

import (
	"encoding/binary"
	"testing"
)

// TestLE: le reads what encoding/binary reads, at every offset (the
// module's loads are unaligned), and providerGUID's halves are its bytes.
func TestLE(t *testing.T) {
	b := make([]byte, 24)
	for i := range b {
		b[i] = byte(0x11*i + 3)
	}
	for off := 0; off+8 <= len(b); off++ {
		if got, want := le.Uint16(b[off:]), binary.LittleEndian.Uint16(b[off:]); got != want {
			t.Errorf("Uint16 at %d: %#x, want %#x", off, got, want)
		}
		if got, want := le.Uint32(b[off:]), binary.LittleEndian.Uint32(b[off:]); got != want {
			t.Errorf("Uint32 at %d: %#x, want %#x", off, got, want)
		}
		if got, want := le.Uint64(b[off:]), binary.LittleEndian.Uint64(b[off:]); got != want {
			t.Errorf("Uint64 at %d: %#x, want %#x", off, got, want)
		}
	}
	if le.Uint64(providerGUID[:]) != providerGUID0 || le.Uint64(providerGUID[8:]) != providerGUID1 {
		t.Errorf("providerGUID0, providerGUID1 = %#x, %#x; providerGUID reads %#x, %#x", uint64(providerGUID0), uint64(providerGUID1),
			le.Uint64(providerGUID[:]), le.Uint64(providerGUID[8:]))
	}
}
