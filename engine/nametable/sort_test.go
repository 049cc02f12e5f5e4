package nametable_test

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/tools/encode"
	"github.com/perfcalc/perfcalc/tools/hostile"
)

// TestLookupNameByBruteForce: LookupName finds, for every name, exactly the
// indexes whose text equals it under folding, in tables of names that
// fold across scripts (the Kelvin sign, long s, Σ/σ/ς, ß, letters beyond
// the BMP, unpaired surrogates, written "¤" here): the sort that folds each name once orders
// them as LookupName's comparison does.
func TestLookupNameByBruteForce(t *testing.T) {
	alphabet := []string{"a", "A", "k", "K", "\u212A", "s", "S", "ſ", "σ", "Σ", "ς", "ß", "ẞ", "𐐀", "𐐨", "¤", "é", "É", " "}
	r := rand.New(rand.NewPCG(5, 6))
	for range 50 {
		var b []byte
		var names []string
		for i := range 40 {
			var name strings.Builder
			for range 1 + r.IntN(4) {
				name.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			names = append(names, name.String())
			b = append(b, u16(strconv.Itoa(2*i+2))...)
			b = append(b, u16(name.String())...)
		}
		b = append(b, 0, 0)
		tab, err := nametable.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range names {
			m := tab.LookupName(want)
			var have []uint32
			have = m.AppendIndexes(have)
			var brute []uint32
			for i := range names {
				idx := uint32(2*i + 2)
				if txt, _ := tab.Lookup(idx); txt.EqualFold(want) {
					brute = append(brute, idx)
				}
			}
			if !slices.Equal(have, brute) {
				t.Fatalf("LookupName(%q) = %v, want %v", want, have, brute)
			}
		}
	}
}

// u16 encodes s as UTF-16LE with its NUL, "¤" as an unpaired surrogate.
func u16(s string) []byte {
	var b []byte
	for _, r := range s {
		us := utf16.Encode([]rune{r})
		if r == '¤' {
			us = []uint16{0xD800}
		}
		for _, u := range us {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return append(b, 0, 0)
}

// TestTableMemory: a Table keeps 16 bytes per distinct index, at most twice
// the bytes of a table of the smallest pairs ("1\0a\0", 8 bytes), and
// Parse and the first LookupName (which sorts the names) allocate at most 4
// times the table's bytes in all (the folded names the sort uses are let
// go).
func TestTableMemory(t *testing.T) {
	smallest := encode.NameTable{}
	for i := range 200_000 {
		smallest.Pairs = append(smallest.Pairs, encode.NameTablePair{Index: uint32(i % 10), Text: "a"})
	}
	small, err := encode.EncodeNameTable(&smallest)
	if err != nil {
		t.Fatal(err)
	}
	distinct := encode.NameTable{}
	for i := range 100_000 {
		distinct.Pairs = append(distinct.Pairs, encode.NameTablePair{Index: uint32(i), Text: "ä"})
	}
	dist, _ := encode.EncodeNameTable(&distinct)
	hostileTable, err := hostile.NameTable(100_000)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		table []byte
	}{{"repeated indexes", small}, {"smallest distinct pairs", dist}, {"hostile", hostileTable}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		tab, err := nametable.Parse(tc.table)
		if err != nil {
			t.Fatal(err)
		}
		tab.LookupName("x") // sorts the names
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept := after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
		all := after.TotalAlloc - before.TotalAlloc
		size := uint64(len(tc.table))
		t.Logf("%s: %d bytes, %d pairs: %d kept (%.2f×), %d allocated in all (%.2f×)", tc.name, size, tab.Pairs(), kept, float64(kept)/float64(size), all, float64(all)/float64(size))
		if kept > 2*size+4096 || all > 4*size+4096 {
			t.Errorf("%s: %d bytes kept and %d allocated for a %d-byte table, want at most 2 and 4 times", tc.name, kept, all, size)
		}
		runtime.KeepAlive(tab)
	}
}

// BenchmarkParseHostile parses the name table of issue 12 and looks a name
// up (which sorts the names): 10^6 pairs of non-ASCII names with a common
// prefix, in no order (seconds natively before each name was folded once
// instead of in every comparison).
func BenchmarkParseHostile(b *testing.B) {
	table, err := hostile.NameTable(1_000_000)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(table)))
	b.ReportAllocs()
	for b.Loop() {
		tab, err := nametable.Parse(table)
		if err != nil {
			b.Fatal(err)
		}
		tab.LookupName("Größe 1")
	}
}
