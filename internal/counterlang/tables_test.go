package counterlang

import (
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/translate"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// tableBytes returns the REG_MULTI_SZ bytes of the pairs index, text, ….
func tableBytes(t *testing.T, pairs ...any) []byte {
	t.Helper()
	var nt encode.NameTable
	for i := 0; i+1 < len(pairs); i += 2 {
		nt.Pairs = append(nt.Pairs, encode.NameTablePair{Index: uint32(pairs[i].(int)), Text: pairs[i+1].(string)})
	}
	b, err := encode.EncodeNameTable(&nt)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTablesCompact: the compact form of a pair of name tables
// translates every name (English, localized, unknown; as an object and as
// a counter) as Build of the two tables does, Status included: an English
// name whose index the local table lacks ("Only English") stays English,
// not unknown; one localized name of two indexes ("Seiten/s") is
// ambiguous in both; a pair with a control character is skipped and
// counted (the only difference); a repeated pair is written once.
func TestTablesCompact(t *testing.T) {
	enB := tableBytes(t, 1, "1847", 2, "System", 4, "Memory", 6, "% Processor Time", 238, "Processor",
		1380, "Available Bytes", 4452, "Only English", 40, "Pages/sec", 42, "Page Reads/sec", 50, "Cache", 52, "Cache", 60, "Bad\x01")
	deB := tableBytes(t, 1, "1847", 2, "System", 4, "Speicher", 6, "Prozessorzeit (%)", 238, "Prozessor",
		1380, "Verfügbare Bytes", 9999, "Nur deutsch", 40, "Seiten/s", 42, "Seiten/s", 50, "Cache", 52, "Cache", 60, "Schlecht")
	en, err := nametable.Parse(enB)
	if err != nil {
		t.Fatal(err)
	}
	de, err := nametable.Parse(deB)
	if err != nil {
		t.Fatal(err)
	}
	c, lines, skipped := TablesCompact([]byte(translate.CompactHeader+"\n"), en, de, "007")
	if skipped != 1 { // Bad\x01's pair
		t.Errorf("skipped %d, want 1", skipped)
	}
	if strings.Count(string(c), "\tCache\tCache\n") != 1 || strings.Count(string(c), "\n") != lines+1 {
		t.Errorf("%d lines: %q", lines, c)
	}
	if !strings.Contains(string(c), "n\t007\tOnly English\tOnly English\n") {
		t.Errorf("no line for the English name only English has: %q", c)
	}
	viaTables, _, err := translate.Build([]translate.Source{{Name: "009", Data: enB}, {Name: "007", Data: deB}})
	if err != nil {
		t.Fatal(err)
	}
	viaCompact, _, err := translate.Build([]translate.Source{{Name: "compact", Data: c}})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Unbekannt", "System", "Seiten/s", "Nur deutsch"}
	for _, tab := range []*nametable.Table{en, de} {
		for i := 0; i < tab.Len(); i++ {
			_, text := tab.Pair(i)
			names = append(names, text.String(), strings.ToUpper(text.String()))
		}
	}
	for _, n := range names {
		if strings.Contains(n, "\x01") || strings.EqualFold(n, "Schlecht") {
			continue // the skipped pair: the compact form cannot hold it
		}
		ot, oc := viaTables.Object(n), viaCompact.Object(n)
		if ot.Text != oc.Text || ot.Status != oc.Status {
			t.Errorf("object %q: tables %s %v, compact %s %v", n, ot.Text, ot.Status, oc.Text, oc.Status)
		}
		for _, obj := range []string{"Processor", "Unknown"} {
			ct, cc := viaTables.Counter(obj, n), viaCompact.Counter(obj, n)
			if ct.Text != cc.Text || ct.Status != cc.Status {
				t.Errorf("counter %q of %s: tables %s %v, compact %s %v", n, obj, ct.Text, ct.Status, cc.Text, cc.Status)
			}
		}
	}
	if s := viaCompact.Object("Only English").Status; s != translate.English {
		t.Errorf("Only English: %v, want English", s)
	}
	if s := viaCompact.Counter("Memory", "Seiten/s").Status; s != translate.Ambiguous {
		t.Errorf("Seiten/s: %v, want Ambiguous", s)
	}
	if len(viaTables.Ambiguities()) != len(viaCompact.Ambiguities()) {
		t.Errorf("ambiguities: tables %v, compact %v", viaTables.Ambiguities(), viaCompact.Ambiguities())
	}
}
