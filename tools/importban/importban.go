// Package importban lets a test check that a package's non-test files keep
// to the imports the WebAssembly module can afford: the standard library
// without fmt and os (which add about 0.75 MB to the module), plus the
// perfcalc packages a caller allows.
package importban

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Check fails t when a non-test Go file in the working directory (the
// package under test) imports fmt, os or os/..., or a package outside the
// standard library whose path does not start with one of allowed. It also
// fails when there is no non-test file to check.
func Check(t testing.TB, allowed ...string) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			if reason := Reason(path, allowed...); reason != "" {
				t.Errorf("%s imports %q: %s", name, path, reason)
			}
		}
	}
	if checked == 0 {
		t.Fatal("importban: no non-test Go file in the package")
	}
}

// Reason says why path may not be imported, or returns "" when it may.
func Reason(path string, allowed ...string) string {
	if path == "fmt" || path == "os" || strings.HasPrefix(path, "os/") {
		return "banned: it bloats the WebAssembly module"
	}
	// Standard-library paths have no dot in their first element.
	first, _, _ := strings.Cut(path, "/")
	if !strings.Contains(first, ".") {
		return ""
	}
	for _, a := range allowed {
		if path == a || strings.HasPrefix(path, a+"/") {
			return ""
		}
	}
	return "outside the standard library and the packages allowed here"
}
