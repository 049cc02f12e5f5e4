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
// library, perfcalc's engine and internal/abi; the analyze module
// (-tags perfcalcanalyze), perfcalc's analysis and internal/abi/analyze
// too, and perfcalc.wasm none of them. It asks the go command for the graph
// of the wasip1 build.
func TestImports(t *testing.T) {
	for _, tags := range []string{"", "perfcalcanalyze"} {
		cmd := exec.Command("go", "list", "-tags", tags, "-deps", ".")
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		deps := strings.Fields(string(b))
		if len(deps) < 10 {
			t.Fatalf("go list listed %d packages", len(deps))
		}
		engine, analysis := false, false
		for _, p := range deps {
			first, _, _ := strings.Cut(p, "/")
			an := strings.HasPrefix(p, "github.com/perfcalc/perfcalc/analysis") || p == "github.com/perfcalc/perfcalc/internal/abi/analyze"
			switch {
			case p == "fmt" || p == "os" || strings.HasPrefix(p, "os/"):
				t.Errorf("tags %q: the module imports %s", tags, p)
			case an && tags == "":
				t.Errorf("the module without the analyze export imports %s", p)
			case strings.Contains(first, ".") && !strings.HasPrefix(p, "github.com/perfcalc/perfcalc/engine") && !an &&
				p != "github.com/perfcalc/perfcalc/internal/abi" && p != "github.com/perfcalc/perfcalc/wasm":
				t.Errorf("tags %q: the module imports %s, outside the standard library, perfcalc's engine, analysis and internal/abi", tags, p)
			}
			engine = engine || p == "github.com/perfcalc/perfcalc/engine"
			analysis = analysis || an
		}
		if !engine || analysis != (tags != "") {
			t.Errorf("tags %q: the graph holds perfcalc's engine: %v, its analysis: %v", tags, engine, analysis)
		}
	}
}
