// Package corpus finds the real Windows captures that tests read from
// ../shared/corpus (beside the project's root) and the project's own
// generated captures in testdata/corpus.
package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// Root returns the project's root: the nearest directory at or above the
// working directory that holds go.mod. It returns "" when there is none.
func Root() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Shared returns the path of ../shared/corpus/<elem...> beside the project's
// root, or skips the test with a clear message when that folder is absent
// (a fresh clone of the project alone).
func Shared(tb testing.TB, elem ...string) string {
	tb.Helper()
	root := Root()
	if root == "" {
		tb.Skip("real captures: cannot find the project's root (go.mod)")
	}
	dir := filepath.Join(append([]string{filepath.Dir(root), "shared", "corpus"}, elem...)...)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("real captures: %s is absent; skipping the tests that read them", dir)
	}
	return dir
}

// Project returns the path of testdata/corpus/<elem...> in the project.
func Project(tb testing.TB, elem ...string) string {
	tb.Helper()
	root := Root()
	if root == "" {
		tb.Fatal("cannot find the project's root (go.mod)")
	}
	return filepath.Join(append([]string{root, "testdata", "corpus"}, elem...)...)
}
