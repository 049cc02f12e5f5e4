package engine

import (
	"testing"

	"github.com/perfcalc/perfcalc/tools/importban"
)

// TestImports: package engine imports only the standard library, without
// fmt and os, so that the WebAssembly module stays small.
func TestImports(t *testing.T) { importban.Check(t) }
