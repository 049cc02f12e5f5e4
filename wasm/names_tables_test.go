//go:build !perfcalcanalyze

package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/translate"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/internal/counterlang"
	"github.com/perfcalc/perfcalc/tools/blgrename"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// TestNamesLoadTables: the compact form that perfcalc names --compact
// makes of a machine's pair of name tables (counterlang.TablesCompact:
// the PAL log's English table and a "local" one that names every index
// "Lokal <English>") translates, through names_load, the PAL log rewritten
// with the local names (its records and embedded table) back to the
// English log: relog_text's CSV is the original's byte for byte, and no
// name is left untranslated.
func TestNamesLoadTables(t *testing.T) {
	data, err := os.ReadFile(corpus.Shared(t, "blg", "PAL_SamplePerfmonLog.blg"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := blg.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	en, err := nametable.Parse(r.NameTable())
	if err != nil {
		t.Fatal(err)
	}
	local := func(s string) string { return "Lokal " + s }
	var nt encode.NameTable
	for i := 0; i < en.Len(); i++ {
		idx, text := en.Pair(i)
		name := text.String()
		if idx != 1 {
			name = local(name)
		}
		nt.Pairs = append(nt.Pairs, encode.NameTablePair{Index: idx, Text: name})
	}
	b, err := encode.EncodeNameTable(&nt)
	if err != nil {
		t.Fatal(err)
	}
	lt, err := nametable.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	compact, lines, skipped := counterlang.TablesCompact([]byte(translate.CompactHeader+"\n"), en, lt, "local")
	if lines < 100 || skipped != 0 {
		t.Fatalf("%d lines, %d skipped", lines, skipped)
	}
	localLog, err := blgrename.Rewrite(data, blgrename.Names{
		Object:  local,
		Counter: func(_, c string) string { return local(c) },
		Table:   local,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer namesLoad(0, 0, 0, 0)
	relog := func(log []byte) string {
		t.Helper()
		offs, lens := load(t, log, nil)
		text, _ := readText(t, relogText(offs[0], lens[0], offs[1], lens[1], 0, 0, 0, abi.FormatCSV), nil)
		return string(text)
	}
	want := relog(data)
	if plain := relog(localLog); plain == want {
		t.Fatal("the local log has the English names")
	}
	offs, lens := load(t, []byte("tables"), compact)
	if rc := namesLoad(offs[0], lens[0], offs[1], lens[1]); rc != 1 {
		t.Fatalf("names_load: %d (%s)", rc, errBuf[:errLen])
	}
	if have := relog(localLog); have != want {
		t.Errorf("the local log with the tables' compact form: %d bytes, want the English log's %d", len(have), len(want))
	}
	if rc := namesUnknown(); rc != 0 {
		t.Errorf("names_unknown: %d, %q", rc, outBuf[:max(rc, 0)])
	}
}
