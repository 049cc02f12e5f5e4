//go:build !wasip1

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestImports fails when the WebAssembly module's import graph holds fmt, os
// (they bloat the module by about 0.75 MB) or a package outside the standard
// library, perfcalc's engine and internal/abi. It asks the go command for the graph of the
// wasip1 build.
func TestImports(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(b))
	if len(deps) < 10 {
		t.Fatalf("go list listed %d packages", len(deps))
	}
	engine := false
	for _, p := range deps {
		first, _, _ := strings.Cut(p, "/")
		switch {
		case p == "fmt" || p == "os" || strings.HasPrefix(p, "os/"):
			t.Errorf("the module imports %s", p)
		case strings.Contains(first, ".") && !strings.HasPrefix(p, "github.com/perfcalc/perfcalc/engine") &&
			p != "github.com/perfcalc/perfcalc/internal/abi" && p != "github.com/perfcalc/perfcalc/wasm":
			t.Errorf("the module imports %s, outside the standard library, perfcalc's engine and internal/abi", p)
		}
		engine = engine || p == "github.com/perfcalc/perfcalc/engine"
	}
	if !engine {
		t.Errorf("the graph lacks perfcalc's engine: %q", deps)
	}
}
