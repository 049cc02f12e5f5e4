package doccheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// citation is "doc/FORMATS.md §1.2" (or doc/COUNTER-TYPES.md, with or
// without a section).
var citation = regexp.MustCompile(`doc/([A-Z-]+\.md)(?: §([0-9]+(?:\.[0-9]+)?))?`)

// heading is a numbered section heading ("## 1. …" gives "1", "### 1.2 …"
// gives "1.2").
var heading = regexp.MustCompile(`(?m)^#{2,3} ([0-9]+(?:\.[0-9]+)?)\.? `)

// self is this package's folder, whose tests show the forms they look for
// and cite documents that exist only in their temporary folders.
const self = "tools/doccheck/"

// TestCitations: every "doc/NAME.md §N" that the repository's files cite
// is a document of doc/ with a section N; no file cites the specification
// folder outside the repository (../shared/spec).
func TestCitations(t *testing.T) {
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("git rev-parse: %v (not a git checkout)", err)
	}
	root := strings.TrimSpace(string(top))
	ls := exec.Command("git", "ls-files")
	ls.Dir = root
	out, err := ls.Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	cited, problems := checkCitations(root, strings.Split(strings.TrimSpace(string(out)), "\n"))
	for _, p := range problems {
		t.Error(p)
	}
	if cited < 20 {
		t.Errorf("only %d citations found: the test checks too little", cited)
	}
}

// TestCitationsCatchBadOnes: the check finds a section that a document
// lacks, a document that does not exist, and a citation of ../shared/spec,
// and accepts good citations (a repository of three files in a temporary
// folder).
func TestCitationsCatchBadOnes(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"doc/FORMATS.md":  "# Formats\n\n## 1. Blobs\n\n### 1.2 Objects\n\n## 3 Logs\n",
		"doc/PLAIN.md":    "# Plain\n\n## Usage\n",
		"host/e.go":       "// See doc/PLAIN.md and doc/PLAIN.md §1.\npackage e\n",
		"engine/a.go":     "// See doc/FORMATS.md §1.2 and doc/FORMATS.md §3, and doc/FORMATS.md.\npackage a\n",
		"engine/b.go":     "// See doc/FORMATS.md §2 and doc/NOWHERE.md §1.\npackage b\n",
		"web/c.mjs":       "// from ../shared/spec/FORMATS.md\n",
		"testdata/x.bin":  "doc/NOWHERE.md §9", // not a source or document: not read
		"cmd/skip/d.txt":  "doc/NOWHERE.md §9",
		"python/README.m": "doc/NOWHERE.md §9",
	}
	var names []string
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	cited, problems := checkCitations(root, names)
	if cited != 7 {
		t.Errorf("have %d citations, want 7 (a.go's three, b.go's two, e.go's two)", cited)
	}
	want := []string{
		"engine/b.go cites doc/FORMATS.md §2, which has no such section",
		"doc/NOWHERE.md is cited but does not exist",
		"host/e.go cites doc/PLAIN.md §1, which has no such section",
		"web/c.mjs cites ../shared/spec, which is not part of the repository",
	}
	for _, w := range want {
		found := false
		for _, p := range problems {
			found = found || strings.HasPrefix(p, w)
		}
		if !found {
			t.Errorf("the check missed %q; it found %q", w, problems)
		}
	}
	if len(problems) != len(want) {
		t.Errorf("have %d problems %q, want %d", len(problems), problems, len(want))
	}
}

// checkCitations reads the sources and documents among files (paths
// relative to root, slash-separated) and returns the number of citations
// of doc/ that they hold and a message for each bad one.
func checkCitations(root string, files []string) (cited int, problems []string) {
	sections := map[string]map[string]bool{}
	missing := map[string]bool{}
	for _, f := range files {
		if !strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, ".md") && !strings.HasSuffix(f, ".mjs") && !strings.HasSuffix(f, ".ts") {
			continue
		}
		if strings.HasPrefix(f, self) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		text := string(b)
		if strings.Contains(text, "shared/spec") {
			problems = append(problems, f+" cites ../shared/spec, which is not part of the repository")
		}
		for _, m := range citation.FindAllStringSubmatch(text, -1) {
			cited++
			doc, sec := m[1], m[2]
			if sections[doc] == nil {
				sections[doc], missing[doc] = headings(root, doc)
				if missing[doc] {
					problems = append(problems, "doc/"+doc+" is cited but does not exist (first by "+f+")")
				}
			}
			if sec != "" && !missing[doc] && !sections[doc][sec] {
				problems = append(problems, f+" cites doc/"+doc+" §"+sec+", which has no such section")
			}
		}
	}
	return cited, problems
}

// headings returns the section numbers of the document doc/name under
// root, and whether the document is missing.
func headings(root, name string) (secs map[string]bool, missing bool) {
	b, err := os.ReadFile(filepath.Join(root, "doc", name))
	if err != nil {
		return map[string]bool{}, true
	}
	secs = map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(string(b), -1) {
		secs[m[1]] = true
	}
	return secs, false
}
