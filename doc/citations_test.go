// Package doc holds perfcalc's own notes on the formats it reads
// (FORMATS.md) and on how it computes values (COUNTER-TYPES.md); its test
// checks that the repository cites them, and only them, correctly.
package doc

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// citation is "doc/FORMATS.md §1.2" (or doc/COUNTER-TYPES.md, with or
// without a section).
var citation = regexp.MustCompile(`doc/([A-Z-]+\.md)(?: §([0-9]+(?:\.[0-9]+)?))?`)

// TestCitations: every "doc/NAME.md §N" that the repository's files cite
// is a document of this folder with a section N; no file cites the
// specification folder outside the repository (../shared/spec).
func TestCitations(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "..").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	sections := map[string]map[string]bool{}
	cited := 0
	for _, f := range strings.Fields(string(out)) {
		if !strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, ".md") && !strings.HasSuffix(f, ".mjs") && !strings.HasSuffix(f, ".ts") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if f == "citations_test.go" { // paths are relative to this folder
			continue // this file, whose comments show the forms it looks for
		}
		text := string(b)
		if strings.Contains(text, "shared/spec") {
			t.Errorf("%s cites ../shared/spec, which is not part of the repository", f)
		}
		for _, m := range citation.FindAllStringSubmatch(text, -1) {
			cited++
			doc, sec := m[1], m[2]
			if sections[doc] == nil {
				sections[doc] = headings(t, doc)
			}
			if sec != "" && !sections[doc][sec] {
				t.Errorf("%s cites doc/%s §%s, which has no such section", f, doc, sec)
			}
		}
	}
	if cited < 20 {
		t.Errorf("only %d citations found: the test checks too little", cited)
	}
}

// headings returns the section numbers of a document of this folder
// ("## 1. …" gives "1", "### 1.2 …" gives "1.2").
func headings(t *testing.T, name string) map[string]bool {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Errorf("doc/%s is cited but does not exist", name)
		return map[string]bool{}
	}
	secs := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^#{2,3} ([0-9]+(?:\.[0-9]+)?)\.? `).FindAllStringSubmatch(string(b), -1) {
		secs[m[1]] = true
	}
	return secs
}
