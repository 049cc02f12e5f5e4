package analyze

import (
	"testing"

	"github.com/perfcalc/perfcalc/tools/importban"
)

// TestImports: the package, linked into the WebAssembly module (the
// analyze export), imports only the standard library (without fmt and os),
// perfcalc's engine, its analysis and internal/abi.
func TestImports(t *testing.T) {
	importban.Check(t, "github.com/perfcalc/perfcalc/engine", "github.com/perfcalc/perfcalc/analysis", "github.com/perfcalc/perfcalc/internal/abi")
}
