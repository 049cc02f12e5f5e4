package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/blgrename"
)

// TestRelogBinRenamed: -f bin writes the names relog gives its columns,
// not the log's entries as they were: a German log written with
// --names-lang en reads back as the English log, and the PAL log written
// with --identity pid keeps its processes' name:pid.
func TestRelogBinRenamed(t *testing.T) {
	xml, es := counterLang(t)
	path, data := readShared(t, "Tx_BasicPerfCounters.blg")
	local, err := blgrename.Rewrite(data, newLocalizer(es, "deDE").names())
	if err != nil {
		t.Fatal(err)
	}
	de := writeFile(t, "de.blg", local)
	en := filepath.Join(t.TempDir(), "en.blg")
	if code, _, errs := runCmd(t, "", "relog", de, "--names-lang", "en", "--names-file", xml, "-o", en); code != exitOK {
		t.Fatalf("relog -f bin --names-lang en: exit %d: %s", code, errs)
	}
	_, want, _ := runCmd(t, "", "relog", path)
	if _, have, _ := runCmd(t, "", "relog", en); have != want {
		t.Error("the German log written with --names-lang en does not read back as the English log")
	}

	pal, _ := readShared(t, "PAL_SamplePerfmonLog.blg")
	pid := filepath.Join(t.TempDir(), "pid.blg")
	sel := `\Process(rundll32*)\% Processor Time`
	if code, _, errs := runCmd(t, "", "relog", pal, "--identity", "pid", "-c", sel, "-o", pid); code != exitOK {
		t.Fatalf("relog -f bin --identity pid: exit %d: %s", code, errs)
	}
	_, want, _ = runCmd(t, "", "relog", pal, "--identity", "pid", "-c", sel)
	_, have, _ := runCmd(t, "", "relog", pid)
	if have != want || !strings.Contains(have, `Process(rundll32:580)`) {
		t.Errorf("the PAL log written with --identity pid reads back otherwise:\n%.300s\nwant\n%.300s", have, want)
	}
}
