package abi

import (
	"testing"

	"github.com/perfcalc/perfcalc/tools/importban"
)

// TestImports: the package, linked into the WebAssembly module, imports
// only the standard library (without fmt and os) and perfcalc's engine.
func TestImports(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }
