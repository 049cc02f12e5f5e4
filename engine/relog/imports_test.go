package relog

import (
	"testing"

	"github.com/perfcalc/perfcalc/tools/importban"
)

// TestImports: the package imports only the standard library (without fmt
// and os, which would bloat the WebAssembly module) and perfcalc's engine.
func TestImports(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }
