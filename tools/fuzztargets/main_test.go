package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoRoot changes to the repository's root (two folders up) for the test.
func repoRoot(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("%s is not the repository's root: %v", root, err)
	}
	t.Chdir(root)
}

// fuzzDecl is a fuzz target's declaration, as a plain text search finds it.
var fuzzDecl = regexp.MustCompile(`(?m)^func (Fuzz\w*)\(\w+ \*testing\.F\)`)

// TestEveryTargetListed: every fuzz target of the tree (a text search of
// every _test.go file) is one that make fuzz runs, with the tag its file
// needs: issue 32 found five packages' targets that a list kept by hand
// had left out (engine/blg, engine/perflibv2, engine/relog, wasm).
func TestEveryTargetListed(t *testing.T) {
	repoRoot(t)
	targets, notes, err := list([]string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 0 {
		t.Errorf("targets not fuzzed on this platform: %q", notes)
	}
	listed := map[string]bool{}
	for _, tg := range targets {
		listed[tg.String()] = true
	}
	found := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		tags := ""
		if m := regexp.MustCompile(`(?m)^//go:build (\w+)$`).FindSubmatch(b); m != nil {
			tags = string(m[1])
		}
		for _, m := range fuzzDecl.FindAllSubmatch(b, -1) {
			found++
			want := target{filepath.Dir(path), string(m[1]), tags}.String()
			if !listed[want] {
				t.Errorf("%s: %s is not among the targets make fuzz runs (want %s)", path, m[1], want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found != len(targets) || found < 47 {
		t.Errorf("the tree has %d fuzz targets, the list %d; want the same, at least issue 32's 47", found, len(targets))
	}
	for _, want := range []string{
		"./engine/blg/:FuzzSplit:", "./engine/perflibv2/:FuzzIndex:", "./engine/relog/:FuzzParts:",
		"./wasm/:FuzzDecodeExports:", "./wasm/:FuzzNamesLoad:", "./wasm/:FuzzAnalyzeTable:perfcalcanalyze",
	} {
		if !listed[want] {
			t.Errorf("%s is not listed", want)
		}
	}
}

// TestMakefileRunsTheList: make fuzz and make fuzz-long take their targets
// from this command, not from a list of packages kept by hand.
func TestMakefileRunsTheList(t *testing.T) {
	repoRoot(t)
	b, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{"fuzz", "fuzz-long"} {
		_, recipe, ok := strings.Cut(string(b), "\n"+rule+":\n")
		recipe, _, _ = strings.Cut(recipe, "\n\n")
		if !ok || !strings.Contains(recipe, "$(GO) run ./tools/fuzztargets $(FUZZPKGS)") {
			t.Errorf("make %s does not run the targets of go run ./tools/fuzztargets:\n%s", rule, recipe)
		}
	}
	if m := regexp.MustCompile(`(?m)^FUZZPKGS \?= (.*)$`).FindSubmatch(b); m == nil || string(m[1]) != "./..." {
		t.Errorf("FUZZPKGS's default is %q; want ./... (every package)", m)
	}
}

// TestTags: a file that builds only with a tag is listed with it; one that
// builds on no tag of this platform is named in a note.
func TestTags(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a_test.go":       "package p\n\nimport \"testing\"\n\nfunc FuzzA(f *testing.F) {}\nfunc FuzzNot(t *testing.T) {}\n",
		"b_test.go":       "//go:build extra && !never\n\npackage p\n\nimport \"testing\"\n\nfunc FuzzB(f *testing.F) {}\n",
		"c_test.go":       "//go:build !extra\n\npackage p\n\nimport \"testing\"\n\nfunc FuzzC(f *testing.F) {}\n",
		"d_plan9_test.go": "package p\n\nimport \"testing\"\n\nfunc FuzzD(f *testing.F) {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	targets, notes, err := list([]string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, tg := range targets {
		have = append(have, tg.String())
	}
	if want := "./:FuzzA: ./:FuzzB:extra ./:FuzzC:"; strings.Join(have, " ") != want {
		t.Errorf("have %q, want %q", have, want)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "d_plan9_test.go: FuzzD: the file builds on no single tag") {
		t.Errorf("notes %q, want one on d_plan9_test.go", notes)
	}
}
