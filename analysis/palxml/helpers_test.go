package palxml

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// palDir returns ../shared/pal beside the repository's root (the folder
// holding go.mod), or skips the test where it is absent.
func palDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Skip("no go.mod above the test's folder")
		}
		dir = up
	}
	pal := filepath.Join(dir, "..", "shared", "pal")
	if _, err := os.Stat(filepath.Join(pal, "QuickSystemOverview.xml")); err != nil {
		t.Skipf("PAL's threshold files are not in %s (the shared folder is absent): skipped", pal)
	}
	return pal
}

// dirReader reads the files of dir, names compared as on Windows.
func dirReader(dir string) func(string) ([]byte, error) {
	fsys := os.DirFS(dir)
	return FoldReader(func(name string) ([]byte, error) { return fs.ReadFile(fsys, name) },
		func(d string) ([]string, error) {
			ents, err := fs.ReadDir(fsys, d)
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			return names, err
		})
}
