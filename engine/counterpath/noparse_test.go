package counterpath

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// pathParsers are what splits or parses a counter path in the sources: a
// call of this package's parsers, a path parser of the Python package or
// the viewer by name, and a split or search on a backslash (the separator
// of a path's parts). Each is a regular expression over one line.
var pathParsers = map[string][]*regexp.Regexp{
	".go": {
		regexp.MustCompile(`counterpath\.Parse(List)?\(`),
		regexp.MustCompile(`strings\.(Split|SplitN|SplitAfter|Cut|LastIndex|LastIndexByte|Index|IndexByte)\([^)]*(` + "`\\\\`" + `|"\\\\"|'\\\\')`),
	},
	".py": {
		regexp.MustCompile(`\bsplit_path\b`),
		regexp.MustCompile(`\.(split|rsplit|find|rfind|index|rindex|partition|rpartition)\(\s*r?["']\\\\`),
	},
	".mjs": {
		regexp.MustCompile(`\bparsePath\b`),
		regexp.MustCompile(`\.(split|indexOf|lastIndexOf)\(\s*["'` + "`" + `]\\\\`),
	},
}

// parsesUserInput are the files allowed to parse counter paths, and why:
// what they read are paths that a user or Windows wrote, never paths that
// perfcalc formatted (those carry their parts: relog.Column.Parts,
// query.Value.Parts, the module's records).
var parsesUserInput = map[string]string{
	"cmd/perfcalc/flags.go":     "-c patterns and counter files (-cf)",
	"internal/abi/build.go":     "the hosts' counter path patterns (ParsePatterns)",
	"collect/pdh.go":            "the paths a user asks PDH for, and PDH's own full paths (PDH_COUNTER_INFO_W)",
	"collect/pdhbuf.go":         "the paths a user asks PDH for (their instance wildcard)",
	"web/viewer/dom.mjs":        "a line-break opportunity after each backslash of a path shown (no part is read)",
	"analysis/palxml/load.go":   "the counter paths of PAL's threshold files (DATASOURCE, and the regular-expression paths counterpath cannot read)",
	"analysis/defaults.go":      "the default analyses' counter paths, written as text in their table",
	"engine/translate/table.go": "Table.Path: a path a user gives, to translate (perfcalc's columns carry their parts: relog.Options.Rename)",
}

// TestNoOtherPathParser: no Go, Python or JavaScript source outside this
// package splits or parses a counter path, but where it reads what a user
// or Windows wrote (parsesUserInput). Tests are left out: they may read a
// path back to check the parts a result carries. make check runs it.
func TestNoOtherPathParser(t *testing.T) {
	root := filepath.Join("..", "..")
	var offenders []string
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		if d.IsDir() {
			name := d.Name()
			// Tests, and what the build or a package manager makes.
			if rel == "engine/counterpath" || name == "test" || name == "tests" || name == "e2e" ||
				name == "node_modules" || name == "build" || name == "dist" ||
				(strings.HasPrefix(name, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(rel)
		if ext == ".js" {
			ext = ".mjs"
		}
		pats := pathParsers[ext]
		if pats == nil || strings.HasSuffix(rel, "_test.go") || strings.HasSuffix(rel, ".test.mjs") || strings.HasPrefix(filepath.Base(rel), "test_") {
			return nil
		}
		if _, ok := parsesUserInput[rel]; ok {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(b), "\n") {
			for _, re := range pats {
				if re.MatchString(line) {
					offenders = append(offenders, rel+":"+strconv.Itoa(i+1)+": "+strings.TrimSpace(line))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d sources checked: the walk missed the repository", checked)
	}
	if len(offenders) > 0 {
		t.Errorf("%d lines split or parse a counter path outside engine/counterpath (use the parts that relog.Column, query.Value and the module's records carry; a parser of user input goes in parsesUserInput with its reason):\n%s",
			len(offenders), strings.Join(offenders, "\n"))
	}
}

// TestPathParserPatterns: the patterns catch the parsers that were removed
// and leave the code that only builds or shows paths alone.
func TestPathParserPatterns(t *testing.T) {
	for _, tc := range []struct {
		ext, line string
		parses    bool
	}{
		{".go", `p, err := counterpath.Parse(string(s.Values[i].Path))`, true},
		{".go", `s := strings.Split(path, "\\")`, true},
		{".go", "last := strings.LastIndexByte(path, '\\\\')", true},
		{".go", "i := strings.LastIndex(path, `\\`)", true},
		{".py", `    parts = [split_path(p) for p in paths]`, true},
		{".py", `        end = path.find("\\", 2)`, true},
		{".py", `    last = rest.rfind("\\")`, true},
		{".mjs", `    this.parts = paths.map(parsePath);`, true},
		{".mjs", `  const last = rest.lastIndexOf("\\");`, true},
		{".mjs", `    const end = rest.indexOf("\\", 2);`, true},
		{".go", "p.Machine = strings.TrimPrefix(info.Machine, `\\\\`)", false},
		{".go", `dst = append(dst, '\\')`, false},
		{".go", `sel, err := abi.ParsePatterns(text)`, false},
		{".py", `o = o.split(",")`, false},
		{".mjs", "return `${parts.parent === null ? \"\" : `${parts.parent}/`}${parts.instance}`;", false},
	} {
		parses := slices.ContainsFunc(pathParsers[tc.ext], func(re *regexp.Regexp) bool { return re.MatchString(tc.line) })
		if parses != tc.parses {
			t.Errorf("%s %q: matched %v, want %v", tc.ext, tc.line, parses, tc.parses)
		}
	}
}
