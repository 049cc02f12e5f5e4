//go:build perfcalcdebug

package main

import "testing"

// TestMallocsExport checks that the debug build's mallocs counts
// allocations (make wasm-test runs the tests with -tags perfcalcdebug).
func TestMallocsExport(t *testing.T) {
	before := mallocs()
	sink = make([]byte, 100)
	if after := mallocs(); after <= before {
		t.Errorf("mallocs did not grow across an allocation: %d then %d", before, after)
	}
}

var sink []byte
