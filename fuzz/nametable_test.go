package fuzz

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
	"github.com/perfcalc/perfcalc/tools/hostile"
)

// ntRealTable returns the real name table of ../shared/corpus, or nil
// where it is absent (the seed is then simply not added).
func ntRealTable() []byte {
	root := corpus.Root()
	if root == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(root), "shared", "corpus", "v1", "pal_counter_009.multisz"))
	if err != nil {
		return nil
	}
	return b
}

// ntCheckErr fails unless err is a *engine.FormatError of format whose
// text names an offset.
func ntCheckErr(t *testing.T, err error, format string) {
	t.Helper()
	var fe *engine.FormatError
	if !errors.As(err, &fe) || fe.Format != format || !strings.Contains(err.Error(), " at 0x") {
		t.Fatalf("have error %v (%T), want a %s *engine.FormatError naming an offset", err, err, format)
	}
}

// FuzzNameTable: Parse never panics; errors are FormatErrors with an
// offset; a parsed table answers its own lookups and re-encodes to a table
// with the same pairs.
func FuzzNameTable(f *testing.F) {
	addProjectSeeds(f, gencorpus.KindNameTable)
	for _, nt := range []encode.NameTable{
		{},
		{Pairs: []encode.NameTablePair{{Index: 1, Text: "1847"}, {Index: 2, Text: "System"}, {Index: 4, Text: "Memory"}}},
		{Pairs: []encode.NameTablePair{{Index: 2, Text: "No name"}, {Index: 4, Text: "no NAME"}, {Index: 2, Text: "x"}}, OmitFinalNUL: true},
		{Pairs: []encode.NameTablePair{{Index: 4294967295, Text: "Σίσυφος \U0001F600"}}},
	} {
		b, err := encode.EncodeNameTable(&nt)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	if b, err := hostile.NameTable(64); err == nil { // issue 12: non-ASCII names sorted by folding
		f.Add(b)
	}
	f.Add([]byte{'1', 0, 0})
	f.Add([]byte{'9', 0, '9', 0, '9', 0, '9', 0, '9', 0, '9', 0, '9', 0, '9', 0, '9', 0, '9', 0, '9', 0, 0, 0, 'x', 0, 0, 0})
	if real := ntRealTable(); real != nil {
		f.Add(real)
		f.Add(real[:len(real)/2])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tab, err := nametable.Parse(b)
		if err != nil {
			ntCheckErr(t, err, "nametable")
			return
		}
		if tab.Len() > tab.Pairs() {
			t.Fatalf("Len %d above Pairs %d", tab.Len(), tab.Pairs())
		}
		var nt encode.NameTable
		buf := make([]byte, 0, 64)
		for i := range tab.Len() {
			idx, text := tab.Pair(i)
			if have, ok := tab.Lookup(idx); !ok || string(have) != string(text) {
				t.Fatalf("Lookup(%d): have %q %v, want %q", idx, have.String(), ok, text.String())
			}
			buf = text.AppendUTF8(buf[:0])
			if i < 64 {
				found := false
				m := tab.LookupName(string(buf))
				for j := range m.Len() {
					found = found || m.Index(j) == idx
				}
				if !found {
					t.Fatalf("LookupName(%q) misses index %d", buf, idx)
				}
			}
			nt.Pairs = append(nt.Pairs, encode.NameTablePair{Index: idx, Text: string(buf)})
		}
		again, err := encode.EncodeNameTable(&nt)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		tab2, err := nametable.Parse(again)
		if err != nil || tab2.Len() != tab.Len() {
			t.Fatalf("re-parse: have %v, %d pairs; want %d", err, tab2.Len(), tab.Len())
		}
		for i := range tab2.Len() {
			i1, t1 := tab.Pair(i)
			i2, t2 := tab2.Pair(i)
			if i1 != i2 || t1.String() != t2.String() {
				t.Fatalf("pair %d: have %d %q, want %d %q", i, i2, t2.String(), i1, t1.String())
			}
		}
	})
}
