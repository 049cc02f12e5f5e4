package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxReadme is the README's length in lines (issue 20: a newcomer reads it
// in five minutes; the rest lives in doc/): the agreed ceiling, with no
// allowance (issue 32: the two lines issue 21 added were made up).
const maxReadme = 150

// link is a Markdown link's target: [text](target).
var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// mdHeading is a Markdown heading's text.
var mdHeading = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)

// repoRoot is the repository's root: two folders up from this package.
func repoRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("%s is not the repository's root: %v", root, err)
	}
	return root
}

// TestReadmeShort: the README has at most maxReadme lines.
func TestReadmeShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > maxReadme {
		t.Errorf("README.md has %d lines; at most %d (move the details to doc/)", n, maxReadme)
	}
}

// TestLinks: every relative link of the README and of doc/'s documents
// names a file or folder of the repository, and a link to a heading
// (FILE.md#anchor) names a heading of that document.
func TestLinks(t *testing.T) {
	root := repoRoot(t)
	docs, err := filepath.Glob(filepath.Join(root, "doc", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, "doc/"+filepath.Base(d))
	}
	links, problems := checkLinks(root, files)
	for _, p := range problems {
		t.Error(p)
	}
	if links < 30 {
		t.Errorf("only %d relative links found: the test checks too little", links)
	}
}

// TestLinksCatchBadOnes: the check finds a missing file and a missing
// heading, and accepts good links.
func TestLinksCatchBadOnes(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"README.md":   "[a](doc/A.md) [b](doc/A.md#2-files-in-and-out) [c](doc/A.md#9-nowhere) [d](gone.go) [e](https://example.com/x) [f](#top) [g](doc/)\n\n# Top\n",
		"doc/A.md":    "# A\n\n## 2. Files in and out\n\nSee [README](../README.md#top) and [B](B.md).\n",
		"src/skip.md": "[x](nowhere.md)",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links, problems := checkLinks(root, []string{"README.md", "doc/A.md"})
	if links != 8 {
		t.Errorf("have %d relative links, want 8", links)
	}
	want := []string{
		"README.md links to doc/A.md#9-nowhere, which has no such heading",
		"README.md links to gone.go, which does not exist",
		"doc/A.md links to B.md, which does not exist",
	}
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("have problems\n%s\nwant\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}

// checkLinks checks the relative links of files (paths relative to root,
// slash-separated) and returns their number and a message for each bad one.
func checkLinks(root string, files []string) (links int, problems []string) {
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			file, anchor, _ := strings.Cut(target, "#")
			path := filepath.Join(root, filepath.FromSlash(f))
			if file != "" {
				path = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
			}
			text, err := os.ReadFile(path)
			if err != nil && !isDir(path) {
				problems = append(problems, f+" links to "+target+", which does not exist")
				continue
			}
			if anchor != "" && !anchors(string(text))[anchor] {
				problems = append(problems, f+" links to "+target+", which has no such heading")
			}
		}
	}
	return links, problems
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// anchors returns the anchors of a Markdown document's headings, as GitHub
// makes them: lower case, ASCII punctuation dropped, spaces as hyphens
// (other characters are kept: a heading linked by anchor should keep to
// ASCII).
func anchors(doc string) map[string]bool {
	a := map[string]bool{}
	for _, m := range mdHeading.FindAllStringSubmatch(doc, -1) {
		var s strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				s.WriteByte('-')
			case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 0x7f:
				s.WriteRune(r)
			}
		}
		a[s.String()] = true
	}
	return a
}
