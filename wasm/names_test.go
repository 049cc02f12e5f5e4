//go:build !perfcalcanalyze

package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestNamesLoad: after names_load, relog_text names the columns in the
// source's English (every other byte of the text the same), counter
// patterns match the English names, names_unknown lists the names no
// source knows, a malformed source is refused with its line and drops
// every source, and len 0 drops them.
func TestNamesLoad(t *testing.T) {
	b, err := os.ReadFile(corpus.Shared(t, "blg", "Tx_BasicPerfCounters.blg"))
	if err != nil {
		t.Fatal(err)
	}
	defer namesLoad(0, 0, 0, 0)
	relog := func(pat string) string {
		t.Helper()
		offs, lens := load(t, b, []byte(pat))
		text, _ := readText(t, relogText(offs[0], lens[0], offs[1], lens[1], 0, 0, 0, abi.FormatCSV), nil)
		return string(text)
	}
	unknown := func() string {
		t.Helper()
		rc := namesUnknown()
		if rc < 0 {
			t.Fatalf("names_unknown: %d (%s)", rc, errBuf[:errLen])
		}
		return string(outBuf[:rc])
	}
	loadNames := func(name, text string) int32 {
		offs, lens := load(t, []byte(name), []byte(text))
		return namesLoad(offs[0], lens[0], offs[1], lens[1])
	}
	plain := relog("")
	// The log in English read as if Processor were the local name of
	// "Prozessor", and % Processor Time of "Prozessorzeit (%)".
	compact := "perfcalc-names 1\no\txx\tProzessor\tProcessor\nc\txx\tProzessor\tProzessorzeit (%)\t% processor time\n"
	if rc := loadNames("test.txt", compact); rc != 1 {
		t.Fatalf("names_load: %d (%s), want 1 source", rc, errBuf[:errLen])
	}
	renamed := relog("")
	want := strings.ReplaceAll(strings.ReplaceAll(plain, `\Processor(`, `\Prozessor(`), `)\% Processor Time"`, `)\Prozessorzeit (%)"`)
	if renamed != want || renamed == plain {
		t.Errorf("relog_text with the names: have %.300q, want %.300q", renamed, want)
	}
	if u := unknown(); !strings.HasSuffix(u, "\nobject PhysicalDisk\n") || strings.Contains(u, "Processor") {
		t.Errorf("names_unknown: have %q, want the other objects and not Processor", u)
	}
	sel := relog(`\Prozessor(_Total)\Prozessorzeit (%)` + "\n")
	if head, _, _ := strings.Cut(sel, "\n"); !strings.HasSuffix(strings.TrimSpace(head), `\\GEORGIS3\Prozessor(_Total)\Prozessorzeit (%)"`) || strings.Count(head, `","`) != 1 {
		t.Errorf("the English pattern selects %q", head)
	}
	// A second source ranks after the first.
	if rc := loadNames("second.txt", "perfcalc-names 1\no\txx\tCPU\tProcessor\n"); rc != 2 {
		t.Fatalf("names_load: %d (%s), want 2 sources", rc, errBuf[:errLen])
	}
	if r := relog(""); r != renamed {
		t.Error("a second source changed what the first translates")
	}
	// A malformed source: refused with its line; every source dropped.
	if rc := loadNames("bad.txt", "perfcalc-names 1\no\txx\tA\n"); rc != abi.CodeMalformed || !bytes.Contains(errBuf[:errLen], []byte("line 2")) {
		t.Errorf("a malformed source: rc %d (%s), want CodeMalformed naming line 2", rc, errBuf[:errLen])
	}
	if r := relog(""); r != plain {
		t.Error("the sources were not dropped after a malformed one")
	}
	if u := unknown(); u != "" {
		t.Errorf("names_unknown without sources: %q", u)
	}
	if rc := loadNames("test.txt", compact); rc != 1 {
		t.Fatalf("names_load: %d", rc)
	}
	if rc := namesLoad(0, 0, 0, 0); rc != 0 || relog("") != plain {
		t.Errorf("names_load(0, 0, 0, 0): rc %d; the sources still translate", rc)
	}
	if rc := namesLoad(uint32(len(inBuf)), 1, 0, 1); rc != abi.CodeBounds {
		t.Errorf("a name outside the buffer: rc %d, want CodeBounds", rc)
	}
}
