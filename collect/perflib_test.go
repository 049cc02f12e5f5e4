package collect

import (
	"errors"
	"strings"
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
		if st := identifierStatus(b); st != 0 {
			t.Fatalf("status of a fresh identifier %#x, want 0", st)
		}
		id.Status = 0xC0000BB8 // what PerfAddCounters writes for an unknown counter
		if st := identifierStatus(b); st != id.Status {
			t.Fatalf("identifierStatus %#x, want the structure's Status %#x", st, id.Status)
		}
	}
}

// TestSizedCall: the buffer negotiation of the PerfLib calls takes the
// size a call asks for (or twice the buffer), gives up beyond
// maxPerfLibBytes, and refuses a call that reports more bytes than its
// buffer holds.
func TestSizedCall(t *testing.T) {
	type answer struct {
		err    error
		actual uint32
	}
	errSmall, errOther := errors.New("too small"), errors.New("other")
	small := func(err error) bool { return err == errSmall }
	for _, tc := range []struct {
		name    string
		answers []answer
		wantLen int
		wantErr string
	}{
		{"fits", []answer{{nil, 100}}, 100, ""},
		{"grows to what it asks", []answer{{errSmall, 100_000}, {nil, 100_000}}, 100_000, ""},
		{"asks beyond the cap", []answer{{errSmall, maxPerfLibBytes + 1}}, 0, "needs more than 512 MiB"},
		{"reports more than its buffer", []answer{{nil, 5000}}, 0, "more bytes than its buffer holds"},
		{"fails", []answer{{errOther, 0}}, 0, "other"},
	} {
		calls := 0
		b, err := sizedCall(func(buf *byte, size uint32, actual *uint32) error {
			a := tc.answers[min(calls, len(tc.answers)-1)]
			calls++
			*actual = a.actual
			return a.err
		}, nil, small)
		if len(b) != tc.wantLen || (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: %d bytes, %v; want %d and %q", tc.name, len(b), err, tc.wantLen, tc.wantErr)
		}
	}
}
