package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/hostile"
)

// TestAnalyzeThresholdsOnce (issue 32, item 10): a threshold file that
// inherits itself under 69 other names (links to it) was loaded once per
// name (a 16 MiB file 64 times, 1.7 GB, then refused as more than 64
// files); it is read and loaded once, identified by device and inode.
func TestAnalyzeThresholdsOnce(t *testing.T) {
	dir := analyzeFixture(t)
	var names []string
	for i := range 69 {
		link := "link" + strconv.Itoa(i) + ".xml"
		if err := os.Symlink("self.xml", filepath.Join(dir, link)); err != nil {
			t.Skip(err)
		}
		names = append(names, link)
	}
	self := putFile(t, filepath.Join(dir, "self.xml"), hostile.SelfInheriting(names, 1<<20))
	code, out, errs := runCmd(t, "", "analyze", filepath.Join(dir, "logs", "s2.blg"), "--thresholds", self, "-f", "json")
	if code != exitOK || !strings.Contains(out, `"set":"Hostile"`) {
		t.Fatalf("exit %d, stderr %q; want 0 and the report", code, errs)
	}
	var read thresholdFiles
	if _, err := loadAnalyses([]string{filepath.Join(dir, "link7.xml")}, nil, read.reader()); err != nil {
		t.Fatal(err)
	}
	if len(read.files) != 1 || len(read.files[0].data) != 1<<20 {
		t.Errorf("have %d files read, want 1 of 1 MiB", len(read.files))
	}
}

// TestAnalyzeThresholdsTooLarge: a threshold file over palxml.MaxInput (16
// MiB, what doc/ANALYSIS.md §9 says) is refused before it is read (issue
// 32, item 10: the command read up to 64 MiB).
func TestAnalyzeThresholdsTooLarge(t *testing.T) {
	dir := analyzeFixture(t)
	big := filepath.Join(dir, "big.xml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(16<<20 + 1); err != nil { // sparse: nothing written
		t.Fatal(err)
	}
	f.Close()
	code, _, errs := runCmd(t, "", "analyze", filepath.Join(dir, "logs", "s2.blg"), "--thresholds", big)
	if want := "16777217 bytes (not read); perfcalc reads at most 16 MiB of a threshold file"; code != exitError || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, errs, want)
	}
}

// TestAnalyzeOutputIsInherited (issue 32, item 15): an -o that is a file
// the threshold file inherits replaced it with the report (exit 0); every
// threshold file read is an input, refused as -o, the file left as it
// was.
func TestAnalyzeOutputIsInherited(t *testing.T) {
	dir := analyzeFixture(t)
	main := putFile(t, filepath.Join(dir, "main.xml"), []byte(`<PAL PALVERSION="2.0" NAME="main"><INHERITANCE FILEPATH="pages.xml"/></PAL>`))
	inh := filepath.Join(dir, "pages.xml")
	before, err := os.ReadFile(inh)
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCmd(t, "", "analyze", filepath.Join(dir, "logs", "s2.blg"), "--thresholds", main, "--set", "Limit=5000", "-f", "json", "-o", inh)
	if code != exitUsage || !strings.Contains(errs, "is the same file as the input "+inh+" (a threshold file read") {
		t.Errorf("exit %d, stderr %q; want 2 and the same-file error", code, errs)
	}
	if after, _ := os.ReadFile(inh); !bytes.Equal(before, after) {
		t.Errorf("the inherited file was changed")
	}
}
