package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/corpus"
)

// setTempDir makes dir the temporary folder (os.TempDir) during the test.
func setTempDir(t *testing.T, dir string) {
	for _, v := range []string{"TMPDIR", "TMP", "TEMP"} {
		t.Setenv(v, dir)
	}
}

// TestAnalyzeSpill: with a budget the Tx log's values pass, analyze
// writes them to a temporary file in the temporary folder, gives the
// report it gives within the budget, and leaves nothing behind (unnamed
// files, and named ones where the system has none).
func TestAnalyzeSpill(t *testing.T) {
	log := filepath.Join(corpus.Shared(t, "blg"), "Tx_BasicPerfCounters.blg")
	for _, compat := range []bool{false, true} {
		args := []string{"analyze", log, "-f", "json"}
		if compat {
			args = append(args, "--pal-compat")
		}
		tmp := t.TempDir()
		setTempDir(t, tmp)
		before := valuesSpilled.Load()
		code, want, errs := runCmd(t, "", args...)
		if code != exitOK || valuesSpilled.Load() != before {
			t.Fatalf("within the budget: exit %d, stderr %q, %d bytes spilled", code, errs, valuesSpilled.Load()-before)
		}
		for _, named := range []bool{false, true} {
			func() {
				budget := analyzeBudget
				analyzeBudget, noUnnamed = 4096, named
				defer func() { analyzeBudget, noUnnamed = budget, false }()
				before := valuesSpilled.Load()
				code, out, errs := runCmd(t, "", args...)
				if code != exitOK || out != want {
					t.Errorf("compat=%v named=%v: exit %d, stderr %q; the report differs from the one within the budget: %v", compat, named, code, errs, out != want)
				}
				if valuesSpilled.Load() == before {
					t.Errorf("compat=%v named=%v: nothing spilled with a budget of 4096 bytes", compat, named)
				}
				if left, err := os.ReadDir(tmp); err != nil || len(left) > 0 {
					t.Errorf("compat=%v named=%v: the temporary folder holds %v (%v)", compat, named, left, err)
				}
			}()
		}
	}
}

// TestAnalyzeSpillFails: a temporary file that cannot be created is an
// error naming it and the position of the write, not a panic.
func TestAnalyzeSpillFails(t *testing.T) {
	log := filepath.Join(corpus.Shared(t, "blg"), "Tx_BasicPerfCounters.blg")
	missing := filepath.Join(t.TempDir(), "missing")
	setTempDir(t, missing)
	budget := analyzeBudget
	analyzeBudget = 4096
	defer func() { analyzeBudget = budget }()
	code, out, errs := runCmd(t, "", "analyze", log, "-f", "json")
	want := "analysis: writing the values' spill file: 64 bytes at offset 0: a temporary file in " + missing + ": "
	if code != exitError || out != "" || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stdout %.100q, stderr %q; want 1 and %q", code, out, errs, want)
	}
}
