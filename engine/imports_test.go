package engine

import (
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports fails when a non-test file of package engine imports fmt, os,
// or anything outside the standard library: they would bloat the
// WebAssembly build, and the engine must stay dependency-free.
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
			if reason := bannedImport(path); reason != "" {
				t.Errorf("%s imports %q: %s", name, path, reason)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no non-test Go file found")
	}
}

// bannedImport says why path may not be imported by the engine, or "".
func bannedImport(path string) string {
	switch {
	case path == "fmt" || path == "os" || strings.HasPrefix(path, "os/"):
		return "banned (it bloats the WebAssembly build)"
	}
	// Standard-library paths have no dot in their first element.
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") {
		return "outside the standard library"
	}
	if p, err := build.Import(path, "", build.FindOnly); err != nil || !p.Goroot {
		return "not in GOROOT"
	}
	return ""
}

func TestBannedImport(t *testing.T) {
	for _, tc := range []struct {
		path   string
		banned bool
	}{
		{"fmt", true}, {"os", true}, {"os/exec", true}, {"C", true},
		{"github.com/leanovate/gopter", true}, {"golang.org/x/sys/windows", true},
		{"math", false}, {"math/bits", false}, {"strconv", false}, {"errors", false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if have := bannedImport(tc.path) != ""; have != tc.banned {
				t.Errorf("have banned %v, want %v", have, tc.banned)
			}
		})
	}
}
