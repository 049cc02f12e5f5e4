// Command fuzztargets lists the module's fuzz targets, found in the tree:
// every top-level func FuzzX(*testing.F) of a _test.go file, with the
// build tag its file needs (wasm's analyze targets build with
// perfcalcanalyze only). make fuzz and make fuzz-long run what it prints, so
// a new target (or a package's first) is fuzzed without editing a list.
//
//	go run ./tools/fuzztargets [DIR | DIR/... ...]
//
// Without arguments it lists the whole module (./...). Each line is
// PKG:TARGET:TAGS (PKG as ./dir/, TAGS empty for none), sorted. A target
// whose file builds on no single tag of this platform (a _windows_test.go
// on Linux) is named on standard error and left out.
package main

import (
	"bufio"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 {
		args = []string{"./..."}
	}
	targets, notes, err := list(args)
	for _, n := range notes {
		os.Stderr.WriteString("fuzztargets: " + n + "\n")
	}
	if err != nil {
		os.Stderr.WriteString("fuzztargets: " + err.Error() + "\n")
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	for _, t := range targets {
		w.WriteString(t.String() + "\n")
	}
	if err := w.Flush(); err != nil {
		os.Exit(1)
	}
}

// target is one fuzz target: its package's folder, its name, the build
// tag its file needs ("" for none).
type target struct{ dir, name, tags string }

// String is the line make reads: ./dir/:Name:tags.
func (t target) String() string {
	d := "./"
	if t.dir != "." {
		d += filepath.ToSlash(t.dir) + "/"
	}
	return d + ":" + t.name + ":" + t.tags
}

// list returns the fuzz targets of the folders the patterns name (DIR, or
// DIR/... for DIR and every folder below it but testdata, node_modules,
// hidden folders and other modules), relative to the working directory,
// and notes on the targets no tag builds here.
func list(patterns []string) ([]target, []string, error) {
	dirs := map[string]bool{}
	for _, p := range patterns {
		root, all := strings.CutSuffix(filepath.ToSlash(p), "/...")
		root = filepath.Clean(root)
		if !all {
			dirs[root] = true
			continue
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			name := d.Name()
			if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // another module
			}
			dirs[path] = true
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	var targets []target
	var notes []string
	seen := map[target]bool{}
	for dir := range dirs {
		ts, ns, err := inDir(dir)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, ns...)
		for _, t := range ts {
			if !seen[t] {
				seen[t] = true
				targets = append(targets, t)
			}
		}
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i].String() < targets[j].String() })
	sort.Strings(notes)
	return targets, notes, nil
}

// inDir returns the fuzz targets of one folder's _test.go files.
func inDir(dir string) ([]target, []string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, nil, err
	}
	var targets []target
	var notes []string
	for _, path := range files {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		names := fuzzFuncs(f)
		if len(names) == 0 {
			continue
		}
		tags, ok := buildTag(dir, filepath.Base(path), f)
		if !ok {
			notes = append(notes, path+": "+strings.Join(names, ", ")+": the file builds on no single tag of "+build.Default.GOOS+"/"+build.Default.GOARCH+"; not fuzzed here")
			continue
		}
		for _, n := range names {
			targets = append(targets, target{dir, n, tags})
		}
	}
	return targets, notes, nil
}

// fuzzFuncs returns the names of a file's fuzz targets: top-level
// functions FuzzX with one parameter of type *testing.F.
func fuzzFuncs(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Fuzz") || fn.Type.Params.NumFields() != 1 {
			continue
		}
		star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "F" {
			names = append(names, fn.Name.Name)
		}
	}
	return names
}

// buildTag returns the tag a file needs to build on this platform: "" when
// it builds without one, else the first tag of its //go:build line that
// makes it build; false when none does.
func buildTag(dir, name string, f *ast.File) (string, bool) {
	ctx := build.Default
	if ok, _ := ctx.MatchFile(dir, name); ok {
		return "", true
	}
	var expr constraint.Expr
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if constraint.IsGoBuild(c.Text) {
				expr, _ = constraint.Parse(c.Text)
			}
		}
	}
	if expr == nil {
		return "", false // excluded by its name (_windows_test.go)
	}
	for _, tag := range tagsOf(expr, nil) {
		ctx.BuildTags = []string{tag}
		if ok, _ := ctx.MatchFile(dir, name); ok {
			return tag, true
		}
	}
	return "", false
}

// tagsOf appends the tags an expression names to tags.
func tagsOf(x constraint.Expr, tags []string) []string {
	switch x := x.(type) {
	case *constraint.TagExpr:
		tags = append(tags, x.Tag)
	case *constraint.NotExpr:
		tags = tagsOf(x.X, tags)
	case *constraint.AndExpr:
		tags = tagsOf(x.Y, tagsOf(x.X, tags))
	case *constraint.OrExpr:
		tags = tagsOf(x.Y, tagsOf(x.X, tags))
	}
	return tags
}
