package collect

import (
	"testing"
	"unsafe"
)

// TestCounterIdentifierBytes checks the identifier that Open adds: every
// counter of a set, and for a multi-instance set the instance "*".
func TestCounterIdentifierBytes(t *testing.T) {
	set := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	for _, multi := range []bool{false, true} {
		b := counterIdentifier(set, multi)
		id := (*perfCounterIdentifier)(unsafe.Pointer(&b[0]))
		wantSize := uint32(40)
		if multi {
			wantSize = 48
		}
		if id.CounterSetGUID != set || id.Size != wantSize || id.CounterID != perfWildcardCounter || id.InstanceID != perfWildcardInstanceID || len(b) != int(wantSize) {
			t.Fatalf("multi %v: %+v (%d bytes)", multi, *id, len(b))
		}
		if multi && (b[40] != '*' || b[41] != 0 || b[42] != 0 || b[43] != 0) {
			t.Fatalf("instance name % x, want L\"*\"", b[40:44])
		}
		if uintptr(unsafe.Pointer(&b[0]))%8 != 0 {
			t.Fatal("identifier not 8-byte aligned")
		}
	}
}
