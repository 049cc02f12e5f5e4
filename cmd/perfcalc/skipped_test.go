package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// pdhProvider is PDH's provider GUID as events carry it.
var pdhProvider = []byte{0xb3, 0x3b, 0x3f, 0x93, 0x3e, 0x94, 0x0d, 0x49, 0x9c, 0xed, 0x3c, 0xbb, 0x14, 0xc1, 0x44, 0x79}

// TestSkippedEventsNoted: a sample whose event header is damaged (its
// provider GUID, or its event type) is skipped by the reader, and relog and
// stats now say so on standard error (the row was dropped without a word);
// the rows and the exit status stay as they were.
func TestSkippedEventsNoted(t *testing.T) {
	log := tinyLog(3)
	at := []int{}
	for i := 0; ; {
		j := bytes.Index(log[i:], pdhProvider)
		if j < 0 {
			break
		}
		at = append(at, i+j)
		i += j + 1
	}
	if len(at) != 4 { // the counter list and three samples
		t.Fatalf("the log has %d PDH events", len(at))
	}
	dir := t.TempDir()
	_, whole, _ := runCmd(t, "", "relog", putFile(t, filepath.Join(dir, "whole.blg"), log))
	for _, tc := range []struct {
		name string
		off  int // from the GUID of the second sample's event
		b    byte
	}{{"provider GUID", 3, 0x00}, {"event type", -20, 0x99}} {
		bad := append([]byte(nil), log...)
		bad[at[2]+tc.off] = tc.b
		in := putFile(t, filepath.Join(dir, "bad.blg"), bad)
		for _, cmd := range []string{"relog", "stats"} {
			code, out, errs := runCmd(t, "", cmd, in)
			want := "perfcalc " + cmd + ": note: " + in + ": 1 event was skipped (not PDH's, or of an unknown type: a damaged event header?); a sample may be missing\n"
			if code != exitOK || errs != want {
				t.Errorf("%s, %s: exit %d, %q\nwant exit 0, %q", tc.name, cmd, code, errs, want)
			}
			if cmd == "relog" && (strings.Count(out, "\n") != 3 || strings.Count(whole, "\n") != 4) {
				t.Errorf("%s: %d lines, want the header and 2 rows (the whole log: %d lines)", tc.name, strings.Count(out, "\n"), strings.Count(whole, "\n"))
			}
		}
	}
	// A log without damage: no note.
	if code, _, errs := runCmd(t, "", "relog", filepath.Join(dir, "whole.blg")); code != exitOK || errs != "" {
		t.Errorf("the whole log: exit %d, %q", code, errs)
	}
}

// TestSkippedEventsNotedByConvert: convert says, per log, how many events
// its first reading skipped, naming the damaged log and not the others it
// converts at the same time (the count was process-wide, so convert said
// nothing: a sample lost without a word).
func TestSkippedEventsNotedByConvert(t *testing.T) {
	log := tinyLog(3)
	var at []int
	for i := 0; ; {
		j := bytes.Index(log[i:], pdhProvider)
		if j < 0 {
			break
		}
		at, i = append(at, i+j), i+j+1
	}
	bad := append([]byte(nil), log...)
	bad[at[2]+3] = 0 // the second sample's provider GUID
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	for i := range 4 {
		putFile(t, filepath.Join(in, "good"+string(rune('a'+i))+".blg"), log)
	}
	damaged := putFile(t, filepath.Join(in, "bad.blg"), bad)
	code, out, errs := runCmd(t, "", "convert", in, "-o", filepath.Join(dir, "out"), "-f", "csv", "-j", "4")
	want := "perfcalc convert: note: " + damaged + ": 1 event was skipped (not PDH's, or of an unknown type: a damaged event header?); a sample may be missing\n"
	if code != exitOK || errs != want || !strings.HasPrefix(out, "converted 5, skipped 0 (up to date), failed 0") {
		t.Errorf("exit %d, stdout %q, stderr %q\nwant exit 0 and stderr %q", code, out, errs, want)
	}
}
