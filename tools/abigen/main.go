// Command abigen writes what other languages and documents need of the
// module's ABI from its one Go source, internal/abi/layout.go:
//
//   - web/abi.mjs, the JS package's constants (template js.tmpl);
//   - python/src/perfcalc/_abi.py, the Python package's constants and
//     record fields (template py.tmpl);
//   - the generated tables of wasm/ABI.md (between "<!-- abigen:begin NAME
//     -->" and "<!-- abigen:end -->" lines): the exports, the records'
//     layouts, the kinds and the error codes;
//
// layout.go's Format… constants (relog_text's formats) are themselves
// written from relog.Format's constants (engine/relog/write.go): a format
// added there is added to the ABI, each keeping what layout.go says of it;
//
// and of the long table from its one Go source, the columns of
// internal/longform (columns.go, longform.Fields; long.go):
//
//   - python/src/perfcalc/_columns.py, the Python package's long schema in
//     Arrow and Spark types (the external Parquet checks load it too);
//   - internal/parquetlog/record_test.go, the struct that the Parquet
//     writer's tests read its files back with;
//   - the column table of internal/longform/doc.go (the indented lines
//     after the paragraph ending "generated from Fields (make generate):").
//
// Another language is one more template in targets. Run it with make
// generate (go generate in internal/abi), or
//
//	go run ./tools/abigen
//
// from the repository's root; -check reports stale files instead of writing
// them (its test does the same, and fails while a file is stale).
//
// layout.go holds only constants, in commented groups; a field of a record
// is a constant whose comment starts with its wasm type (u32, i32, u64,
// i64, f64, or region: a u32 offset and a u32 length), and the group's
// constant ending in "Size" is the record's size.
package main

import (
	"bytes"
	"embed"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"text/template"
	"unicode"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/internal/longform"
)

//go:embed *.tmpl
var templates embed.FS

// A target is a generated file: its path from the repository's root and
// its template.
type target struct{ path, template string }

// targets are the generated files besides ABI.md's tables.
var targets = []target{
	{"web/abi.mjs", "js.tmpl"},
	{"python/src/perfcalc/_abi.py", "py.tmpl"},
}

// layoutFile and abiMD are the source and the document, from the root.
const (
	layoutFile = "internal/abi/layout.go"
	abiMD      = "wasm/ABI.md"
)

func main() {
	check := flag.Bool("check", false, "report stale files instead of writing them")
	flag.Parse()
	root, err := repoRoot()
	if err == nil {
		err = run(root, *check)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "abigen:", err)
		os.Exit(1)
	}
}

// run generates every file under root; with check it only compares.
func run(root string, check bool) error {
	files, err := generate(root)
	if err != nil {
		return err
	}
	var stale []string
	for _, name := range sortedKeys(files) {
		path := filepath.Join(root, name)
		old, _ := os.ReadFile(path)
		if bytes.Equal(old, files[name]) {
			continue
		}
		if check {
			stale = append(stale, name)
			continue
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	if len(stale) > 0 {
		return errors.New("stale, run make generate: " + strings.Join(stale, ", "))
	}
	return nil
}

// repoRoot finds the repository's root: the folder of go.mod above the
// working directory (go generate runs in internal/abi).
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// generate returns the contents of every generated file, by path.
func generate(root string) (map[string][]byte, error) {
	names, err := formatNames(filepath.Join(root, relogFormats))
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(filepath.Join(root, layoutFile))
	if err != nil {
		return nil, err
	}
	if src, err = writeFormats(src, names); err != nil {
		return nil, err
	}
	files := map[string][]byte{layoutFile: src}
	l, err := parseLayout(filepath.Join(root, layoutFile), src)
	if err != nil {
		return nil, err
	}
	if err := l.checkTables(); err != nil {
		return nil, err
	}
	for _, t := range targets {
		b, err := l.render(t.template)
		if err != nil {
			return nil, err
		}
		files[t.path] = b
	}
	md, err := os.ReadFile(filepath.Join(root, abiMD))
	if err != nil {
		return nil, err
	}
	if files[abiMD], err = l.fillMarkdown(md); err != nil {
		return nil, err
	}
	if err := generateLong(root, longform.Fields, files); err != nil {
		return nil, err
	}
	return files, nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Const is a constant of layout.go.
type Const struct {
	Name    string // the Go name
	Value   string // its value as a literal of C-like languages (decimal, or hex where the source writes hex)
	Int     int64
	Comment string // the line comment, type prefix included
	Type    string // a field's wasm type ("" for other constants)
	Field   string // a field's description (the comment after its type)
}

// Group is a const block of layout.go with its doc comment.
type Group struct {
	Doc    string // the doc comment, one line per line
	Consts []Const
}

// Size returns the group's size constant (the one ending in Size), or nil.
func (g *Group) Size() *Const {
	for i := range g.Consts {
		if strings.HasSuffix(g.Consts[i].Name, "Size") && g.Consts[i].Type == "" {
			return &g.Consts[i]
		}
	}
	return nil
}

// Fields returns the group's record fields, by offset.
func (g *Group) Fields() []Const {
	var fs []Const
	for _, c := range g.Consts {
		if c.Type != "" {
			fs = append(fs, c)
		}
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Int < fs[j].Int })
	return fs
}

// Layout is layout.go, read.
type Layout struct {
	Groups []Group
	byName map[string]*Const
}

// typeSizes are the field types, with their sizes in bytes.
var typeSizes = map[string]int64{"u32": 4, "i32": 4, "u64": 8, "i64": 8, "f64": 8, "region": 8}

// readLayout parses and type-checks layout.go alone (it imports nothing).
func readLayout(path string) (*Layout, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseLayout(path, src)
}

// parseLayout is readLayout of the source src.
func parseLayout(path string, src []byte) (*Layout, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if len(f.Imports) > 0 {
		return nil, errors.New(path + " must import nothing")
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{}).Check("abi", fset, []*ast.File{f}, info); err != nil {
		return nil, err
	}
	l := &Layout{byName: map[string]*Const{}}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			return nil, fmt.Errorf("%s: only const declarations belong in the layout", fset.Position(d.Pos()))
		}
		g := Group{Doc: strings.TrimSpace(gd.Doc.Text())}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				obj := info.Defs[name].(*types.Const)
				v, exact := constant.Int64Val(constant.ToInt(obj.Val()))
				if !exact {
					return nil, fmt.Errorf("%s: %s is not an integer", fset.Position(name.Pos()), name.Name)
				}
				c := Const{Name: name.Name, Int: v, Value: fmt.Sprint(v), Comment: strings.TrimSpace(vs.Comment.Text())}
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && strings.HasPrefix(lit.Value, "0x") {
						c.Value = fmt.Sprintf("0x%X", v)
					}
				}
				if typ, rest, ok := strings.Cut(c.Comment, " "); ok && typeSizes[typ] > 0 {
					c.Type, c.Field = typ, rest
				}
				g.Consts = append(g.Consts, c)
			}
		}
		l.Groups = append(l.Groups, g)
	}
	for gi := range l.Groups {
		for ci := range l.Groups[gi].Consts {
			c := &l.Groups[gi].Consts[ci]
			l.byName[c.Name] = c
		}
	}
	return l, nil
}

// table returns the group whose size constant is name.
func (l *Layout) table(name string) (*Group, error) {
	for i := range l.Groups {
		if s := l.Groups[i].Size(); s != nil && s.Name == name && len(l.Groups[i].Fields()) > 0 {
			return &l.Groups[i], nil
		}
	}
	return nil, errors.New("layout.go has no record " + name)
}

// checkTables checks that the fields of every record tile it exactly: no
// gap, no overlap, natural alignment, a size that is a multiple of 8.
func (l *Layout) checkTables() error {
	for i := range l.Groups {
		g := &l.Groups[i]
		fs := g.Fields()
		if len(fs) == 0 {
			continue
		}
		size := g.Size()
		if size == nil {
			return fmt.Errorf("the record of %s has no size constant", fs[0].Name)
		}
		at := int64(0)
		for _, f := range fs {
			n := typeSizes[f.Type]
			if f.Int != at {
				return fmt.Errorf("%s: %s at %d, want %d (a gap or an overlap)", size.Name, f.Name, f.Int, at)
			}
			if f.Int%min(n, 8) != 0 {
				return fmt.Errorf("%s: %s at %d is not aligned to %d", size.Name, f.Name, f.Int, n)
			}
			at += n
		}
		if at != size.Int || at%8 != 0 {
			return fmt.Errorf("%s: the fields end at %d, the size is %d (a multiple of 8)", size.Name, at, size.Int)
		}
	}
	return nil
}

// prefixed returns the constants whose names start with prefix, in order.
func (l *Layout) prefixed(prefix string) []Const {
	var cs []Const
	for _, g := range l.Groups {
		for _, c := range g.Consts {
			if strings.HasPrefix(c.Name, prefix) && len(c.Name) > len(prefix) && unicode.IsUpper(rune(c.Name[len(prefix)])) {
				cs = append(cs, c)
			}
		}
	}
	return cs
}

// Named is a name and a value, for the engine's names.
type Named struct {
	Name  string
	Value string
}

// typeAliases are the Windows names of counter types that String does not
// print: another type's value (engine.ParseCounterType reads them).
var typeAliases = []string{"PERF_PRECISION_TIMESTAMP"}

// templateData is what the templates read.
type templateData struct {
	Layout   *Layout
	Statuses []string // engine.Status names, by value
	Types    []Named  // the counter types of winperf.h, by Windows name
	Codes    []Named  // the error codes' names (without "Code"), by value
	Exports  []abi.Export
	// AnalyzeExports are abi.AnalyzeModuleExports.
	AnalyzeExports []string
}

func (l *Layout) data() templateData {
	d := templateData{Layout: l, Exports: abi.Exports, AnalyzeExports: abi.AnalyzeModuleExports}
	for s := engine.Valid; s <= engine.UnknownType; s++ {
		d.Statuses = append(d.Statuses, s.String())
	}
	for _, t := range engine.Types() {
		d.Types = append(d.Types, Named{t.String(), fmt.Sprintf("0x%08X", uint32(t))})
	}
	for _, alias := range typeAliases {
		t, err := engine.ParseCounterType(alias)
		if err != nil || t.String() == alias {
			panic("abigen: " + alias + " is not an alias of a counter type")
		}
		d.Types = append(d.Types, Named{alias, fmt.Sprintf("0x%08X", uint32(t))})
	}
	for _, c := range l.prefixed("Code") {
		d.Codes = append(d.Codes, Named{strings.TrimPrefix(c.Name, "Code"), c.Value})
	}
	return d
}

var funcs = template.FuncMap{
	"upper":      upperSnake,
	"trimSuffix": strings.TrimSuffix,
	"comment":    func(prefix, s string) string { return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix) },
}

// render executes a template of a target.
func (l *Layout) render(name string) ([]byte, error) {
	t, err := template.New(name).Funcs(funcs).ParseFS(templates, name)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, l.data()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// upperSnake turns a Go name into the UPPER_SNAKE name of JS and Python
// constants: RecPathOff → REC_PATH_OFF, ABIVersion → ABI_VERSION,
// RecCStatus → REC_CSTATUS (a single capital does not make a word).
func upperSnake(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			run := 0 // capitals just before r
			for j := i - 1; j >= 0 && unicode.IsUpper(rs[j]); j-- {
				run++
			}
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (nextLower && run > 1) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// markdown tables, by marker name.
func (l *Layout) markdown(name string) (string, error) {
	var b strings.Builder
	switch name {
	case "exports":
		b.WriteString("| export | module | signature | what |\n|---|---|---|---|\n")
		for _, x := range abi.Exports {
			module := "main"
			switch inAnalyze, inMain := abi.InAnalyzeModule(x.Name); {
			case inAnalyze && inMain:
				module = "both"
			case inAnalyze:
				module = "analyze"
			}
			fmt.Fprintf(&b, "| `%s` | %s | `(%s) -> %s` | %s |\n", x.Name, module, x.Params, x.Results, x.Doc)
		}
	case "codes":
		b.WriteString("| code | name | meaning |\n|---|---|---|\n")
		for _, c := range l.prefixed("Code") {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", strings.Replace(c.Value, "-", "−", 1), c.Name, c.Comment)
		}
	case "kinds":
		b.WriteString("| kind | name | result of |\n|---|---|---|\n")
		for _, c := range l.prefixed("Kind") {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", c.Value, c.Name, c.Comment)
		}
	default:
		g, err := l.table(name)
		if err != nil {
			return "", err
		}
		b.WriteString("| offset | type | field |\n|---|---|---|\n")
		for _, f := range g.Fields() {
			typ := f.Type
			if typ == "region" {
				typ = "u32 offset, u32 length"
			}
			fmt.Fprintf(&b, "| %d | %s | %s |\n", f.Int, typ, f.Field)
		}
	}
	return b.String(), nil
}

var markerRE = regexp.MustCompile(`(?m)^<!-- abigen:begin (\S+) -->\n(?s:.*?)^<!-- abigen:end -->\n`)

// fillMarkdown replaces every generated table of md.
func (l *Layout) fillMarkdown(md []byte) ([]byte, error) {
	var err error
	n := 0
	out := markerRE.ReplaceAllFunc(md, func(m []byte) []byte {
		n++
		name := string(markerRE.FindSubmatch(m)[1])
		table, terr := l.markdown(name)
		if terr != nil && err == nil {
			err = terr
		}
		return []byte("<!-- abigen:begin " + name + " -->\n" + table + "<!-- abigen:end -->\n")
	})
	if err == nil && n == 0 {
		err = errors.New(abiMD + " has no generated table")
	}
	return out, err
}

// sourceDir is this file's folder (for the test).
func sourceDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}
