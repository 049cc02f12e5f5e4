package translate

import (
	"testing"

	"github.com/perfcalc/perfcalc/tools/importban"
)

// TestImports: the package imports only the standard library (without fmt
// and os) and perfcalc's engine, for the WebAssembly module.
func TestImports(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }
