package abi

import (
	"testing"

	"github.com/perfcalc/perfcalc/engine/identity"
)

// TestIdentityNumbers: the ABI's numbers of the pairings are
// identity.Mode's, both ways, and another number is refused.
func TestIdentityNumbers(t *testing.T) {
	for _, tc := range []struct {
		n uint32
		m identity.Mode
	}{{IdentityPDH, identity.PDH}, {IdentityPID, identity.PID}} {
		if m, ok := IdentityMode(tc.n); !ok || m != tc.m || IdentityNumber(m) != tc.n || uint32(m) != tc.n {
			t.Errorf("IdentityMode(%d) = %v, %v; IdentityNumber = %d", tc.n, m, ok, IdentityNumber(m))
		}
	}
	for n := uint32(0); n < 256; n++ {
		if _, ok := IdentityMode(n); ok != identity.Valid(identity.Mode(n)) {
			t.Errorf("IdentityMode(%d): ok %v, identity.Valid %v", n, ok, identity.Valid(identity.Mode(n)))
		}
	}
	if AnalyzeIdentity(AnalyzePID|AnalyzePALCompat) != identity.PID || AnalyzeIdentity(AnalyzePALCompat|AnalyzeLogs) != identity.PDH {
		t.Error("AnalyzeIdentity does not read AnalyzePID")
	}
}
