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

// FuzzNamesLoad feeds arbitrary sources to names_load, then translates the
// Tx log's columns with what it kept: no panic (CodePanic), a refused
// source leaves none, an accepted one counts as one, and names_unknown
// lists lines that name an object or a counter.
func FuzzNamesLoad(f *testing.F) {
	f.Add([]byte("perfcalc-names 1\no\txx\tProzessor\tProcessor\nc\txx\tProzessor\tZeit\t% Processor Time\n"))
	f.Add([]byte("perfcalc-names 1\r\nn\t007\tA\tPhysicalDisk\n# x\n\nc\tfr\tP\tA\tb\nc\tfr\tP\tB\tb\n"))
	f.Add([]byte("perfcalc-names 1\no\txx\t\xff\tb\n"))
	f.Add([]byte{})
	log, err := os.ReadFile(corpus.Shared(f, "blg", "Tx_BasicPerfCounters.blg"))
	if err != nil {
		f.Fatal(err)
	}
	defer namesLoad(0, 0, 0, 0)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		namesLoad(0, 0, 0, 0)
		copy(inBuf[:], "fuzz")
		n := uint32(copy(inBuf[8:], data))
		rc := namesLoad(0, 4, 8, n)
		switch {
		case rc == abi.CodePanic:
			t.Fatalf("names_load panicked: %s", errBuf[:errLen])
		case n == 0 && rc != 0, n > 0 && rc != 1 && rc >= 0:
			t.Fatalf("names_load: %d sources of one", rc)
		case rc < 0 && nameTab != nil:
			t.Fatal("a refused source left a table")
		}
		m := uint32(copy(inBuf[:], log))
		if c := relogColumns(0, m, 0, 0, 0, 0, 0, 0); c < 0 {
			t.Fatalf("relog_columns: %d (%s)", c, errBuf[:errLen])
		}
		u := namesUnknown()
		if u < 0 {
			t.Fatalf("names_unknown: %d (%s)", u, errBuf[:errLen])
		}
		for _, l := range strings.Split(strings.TrimSuffix(string(outBuf[:u]), "\n"), "\n") {
			if l != "" && !strings.HasPrefix(l, "object ") && !strings.HasPrefix(l, "counter ") {
				t.Fatalf("names_unknown: the line %q", l)
			}
		}
	})
}
