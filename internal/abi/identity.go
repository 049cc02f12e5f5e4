package abi

import "github.com/perfcalc/perfcalc/engine/identity"

// The ABI's numbers of the pairings (IdentityPDH, IdentityPID: the identity
// export's argument; AnalyzePID: analyze's flag) are identity.Mode's values
// on the wire; these functions are the one place they are converted.

// IdentityMode returns the identity.Mode of the identity export's mode
// (IdentityPDH, IdentityPID); ok is false for another number.
func IdentityMode(mode uint32) (m identity.Mode, ok bool) {
	if mode > IdentityPID {
		return identity.PDH, false
	}
	return identity.Mode(mode), true
}

// IdentityNumber returns the identity export's mode of m (IdentityPDH,
// IdentityPID); a mode that is not identity.Valid is IdentityPDH, as it
// is paired.
func IdentityNumber(m identity.Mode) uint32 {
	if m == identity.PID {
		return IdentityPID
	}
	return IdentityPDH
}

// AnalyzeIdentity returns the identity.Mode of analyze's flags: identity.PID
// where AnalyzePID is set.
func AnalyzeIdentity(flags uint32) identity.Mode {
	if flags&AnalyzePID != 0 {
		return identity.PID
	}
	return identity.PDH
}
