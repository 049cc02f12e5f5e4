package relog

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports fails when a non-test file of the package imports fmt or os
// (they bloat the WebAssembly build) or a package outside the standard
// library and perfcalc's engine.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			switch {
			case path == "fmt" || path == "os" || strings.HasPrefix(path, "os/"):
				t.Errorf("%s imports %q: banned (it bloats the WebAssembly build)", name, path)
			case strings.Contains(first, ".") && !strings.HasPrefix(path, "github.com/perfcalc/perfcalc/engine"):
				t.Errorf("%s imports %q: outside the standard library and perfcalc's engine", name, path)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no non-test Go file found")
	}
}
