package objre

import (
	"testing"

	"github.com/perfcalc/perfcalc/tools/importban"
)

// TestImports: package objre imports only the standard library, without
// fmt and os: the WebAssembly module links it.
func TestImports(t *testing.T) {
	importban.Check(t, "github.com/perfcalc/perfcalc/engine", "github.com/perfcalc/perfcalc/analysis")
}
