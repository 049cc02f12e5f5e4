package nametable

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/importban"
)

// sz encodes strings as consecutive UTF-16LE NUL-terminated strings, without
// the final extra NUL.
func sz(ss ...string) []byte {
	var b []byte
	for _, s := range ss {
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		b = append(b, 0, 0)
	}
	return b
}

// msz is sz with the final extra NUL.
func msz(ss ...string) []byte { return append(sz(ss...), 0, 0) }

func loadReal(t testing.TB) []byte {
	dir := corpus.Shared(t, "v1")
	b, err := os.ReadFile(filepath.Join(dir, "pal_counter_009.multisz"))
	if err != nil {
		t.Fatalf("read real name table: %v", err)
	}
	return b
}

func TestRealTable(t *testing.T) {
	b := loadReal(t)
	tab, err := Parse(b)
	if err != nil {
		t.Fatalf("Parse: have %v, want nil", err)
	}
	if have, want := tab.Pairs(), 1839; have != want {
		t.Errorf("Pairs: have %d, want %d", have, want)
	}
	if have, want := tab.Len(), 1839; have != want {
		t.Errorf("Len: have %d, want %d", have, want)
	}
	for _, tc := range []struct {
		index uint32
		want  string
	}{
		{1, "1847"}, {2, "System"}, {4, "Memory"}, {6, "% Processor Time"},
		{10, "File Read Operations/sec"}, {40, "Pages/sec"}, {230, "Process"},
		{238, "Processor"}, {1514, "Pages/Sec"}, {1846, "End Marker"},
		{1848, "Telephony"}, {2288, "No name"}, {4658, "DMA Buffer Submitted/Sec"},
	} {
		have, ok := tab.Lookup(tc.index)
		if !ok || have.String() != tc.want {
			t.Errorf("Lookup(%d): have %q %v, want %q true", tc.index, have.String(), ok, tc.want)
		}
	}
	if idx, name := tab.Pair(0); idx != 1 || name.String() != "1847" {
		t.Errorf("Pair(0): have %d %q, want 1 \"1847\"", idx, name.String())
	}
	for _, missing := range []uint32{0, 3, 5, 1847, 4659, 1 << 31} {
		if have, ok := tab.Lookup(missing); ok {
			t.Errorf("Lookup(%d): have %q true, want absent", missing, have.String())
		}
	}
	noName := []uint32{2288, 2304, 2308, 2496, 2500, 2518, 2526, 2544, 2548, 2560, 2580, 2586,
		2604, 2620, 2626, 2630, 2642, 2646, 2658, 2662, 2674, 2678, 2870, 2886, 2890, 3126,
		3142, 3148, 3152, 3164, 3168, 3180, 3184, 3196, 3200}
	for _, q := range []string{"No name", "no name", "NO NAME"} {
		if have := tab.LookupName(q).AppendIndexes(nil); !slices.Equal(have, noName) {
			t.Errorf("LookupName(%q): have %v, want %v", q, have, noName)
		}
	}
	if have, want := tab.LookupName("pages/SEC").AppendIndexes(nil), []uint32{40, 1514}; !slices.Equal(have, want) {
		t.Errorf("LookupName(pages/SEC): have %v, want %v", have, want)
	}
	if have := tab.LookupName("Process").AppendIndexes(nil); !slices.Contains(have, 230) {
		t.Errorf("LookupName(Process): have %v, want it to contain 230", have)
	}
	if have := tab.LookupName("no such counter").Len(); have != 0 {
		t.Errorf("LookupName(no such counter): have %d matches, want 0", have)
	}
	// Every pair is found by its own name, and the matches are exactly the
	// pairs with that name.
	for i := range tab.Len() {
		idx, name := tab.Pair(i)
		m := tab.LookupName(name.String())
		if !slices.Contains(m.AppendIndexes(nil), idx) {
			t.Fatalf("LookupName(%q): have %v, want it to contain %d", name.String(), m.AppendIndexes(nil), idx)
		}
		for j := range m.Len() {
			if !m.Text(j).EqualFold(name.String()) {
				t.Fatalf("LookupName(%q) match %d: have %q", name.String(), j, m.Text(j).String())
			}
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    []byte
		pairs int
		want  map[uint32]string
	}{
		{"empty input", nil, 0, nil},
		{"only the final NUL", []byte{0, 0}, 0, nil},
		{"one pair", msz("1", "1847"), 1, map[uint32]string{1: "1847"}},
		{"missing final NUL tolerated", sz("2", "System", "4", "Memory"), 2, map[uint32]string{2: "System", 4: "Memory"}},
		{"zero padding after final NUL", append(msz("2", "System"), 0, 0, 0, 0), 1, map[uint32]string{2: "System"}},
		{"repeated index: last wins", msz("2", "System", "4", "Memory", "2", "Système"), 3, map[uint32]string{2: "Système", 4: "Memory"}},
		{"unsorted", msz("10", "b", "2", "a"), 2, map[uint32]string{2: "a", 10: "b"}},
		{"leading zeros", msz("007", "x"), 1, map[uint32]string{7: "x"}},
		{"max index", msz("4294967295", "top"), 1, map[uint32]string{0xFFFFFFFF: "top"}},
		{"index zero", msz("0", "zero"), 1, map[uint32]string{0: "zero"}},
		{"surrogate pair", msz("2", "a\U0001F600b"), 1, map[uint32]string{2: "a\U0001F600b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Parse(tc.in)
			if err != nil {
				t.Fatalf("Parse: have %v, want nil", err)
			}
			if have := tab.Pairs(); have != tc.pairs {
				t.Errorf("Pairs: have %d, want %d", have, tc.pairs)
			}
			if have := tab.Len(); have != len(tc.want) {
				t.Errorf("Len: have %d, want %d", have, len(tc.want))
			}
			for idx, want := range tc.want {
				have, ok := tab.Lookup(idx)
				if !ok || have.String() != want {
					t.Errorf("Lookup(%d): have %q %v, want %q", idx, have.String(), ok, want)
				}
				if m := tab.LookupName(want); !slices.Contains(m.AppendIndexes(nil), idx) {
					t.Errorf("LookupName(%q): have %v, want %d among them", want, m.AppendIndexes(nil), idx)
				}
			}
			prev := int64(-1)
			for i := range tab.Len() {
				idx, _ := tab.Pair(i)
				if int64(idx) <= prev {
					t.Errorf("Pair(%d): index %d not above %d", i, idx, prev)
				}
				prev = int64(idx)
			}
		})
	}
}

func TestRepeatedIndexHidesEarlierName(t *testing.T) {
	tab, err := Parse(msz("2", "Old", "2", "New"))
	if err != nil {
		t.Fatal(err)
	}
	if have := tab.LookupName("old").Len(); have != 0 {
		t.Errorf("LookupName(old): have %d matches, want 0 (index 2 was overwritten)", have)
	}
	if have := tab.LookupName("new").AppendIndexes(nil); !slices.Equal(have, []uint32{2}) {
		t.Errorf("LookupName(new): have %v, want [2]", have)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     []byte
		offset int64
		field  string
		err    error
	}{
		{"odd length", append(msz("1", "x"), 0), 10, "", engine.ErrMalformed},
		{"index without NUL", []byte{'1', 0}, 0, "index", engine.ErrTruncated},
		{"text without NUL", append(sz("2"), 'S', 0, 'y', 0), 4, "text", engine.ErrTruncated},
		{"index without text", sz("2"), 4, "text", engine.ErrTruncated},
		{"index with empty text", msz("2"), 4, "text", engine.ErrMalformed},
		{"non-numeric index", msz("2", "System", "x4", "Memory"), 18, "index", engine.ErrMalformed},
		{"negative index", msz("-4", "Memory"), 0, "index", engine.ErrMalformed},
		{"index with space", msz(" 4", "Memory"), 0, "index", engine.ErrMalformed},
		{"non-ASCII digit", msz("٤", "Memory"), 0, "index", engine.ErrMalformed},
		{"index overflow", msz("4294967296", "x"), 0, "index", engine.ErrMalformed},
		{"huge index", msz("99999999999999999999999", "x"), 0, "index", engine.ErrMalformed},
		{"garbage after final NUL", append(msz("2", "a"), 'x', 0), 10, "", engine.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Parse(tc.in)
			var fe *engine.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Parse: have %v, %v; want a *engine.FormatError", tab, err)
			}
			if fe.Format != "nametable" || fe.Record != "REG_MULTI_SZ" || fe.Offset != tc.offset || fe.Field != tc.field || !errors.Is(err, tc.err) {
				t.Errorf("have %+v, want Format nametable, Record REG_MULTI_SZ, Offset %d, Field %q, Err %v", *fe, tc.offset, tc.field, tc.err)
			}
			if !strings.Contains(err.Error(), "at 0x"+strconv.FormatInt(tc.offset, 16)) {
				t.Errorf("Error(): have %q, want the offset 0x%x", err.Error(), tc.offset)
			}
		})
	}
}

func TestTruncatedEverywhere(t *testing.T) {
	strs := []string{"1", "1847", "2", "System", "4", "Memory", "230", "Process"}
	full := msz(strs...)
	// The cuts that parse: the empty input, and the ones right after a
	// text's NUL (the final extra NUL missing, tolerated).
	ok := map[int]int{0: 0}
	for i := 2; i <= len(strs); i += 2 {
		ok[len(sz(strs[:i]...))] = i / 2
	}
	for n := range len(full) {
		tab, err := Parse(full[:n])
		pairs, want := ok[n]
		if !want {
			var fe *engine.FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), "at 0x") {
				t.Errorf("Parse(full[:%d]): have %v, want a FormatError with an offset", n, err)
			}
			continue
		}
		if err != nil || tab.Pairs() != pairs {
			t.Errorf("Parse(full[:%d]): have %v, want %d pairs", n, err, pairs)
		}
	}
}

func TestMatchesIndexPanicsOutOfRange(t *testing.T) {
	tab, _ := Parse(msz("2", "a"))
	defer func() {
		if recover() == nil {
			t.Error("Matches.Index(1) on one match: have no panic, want one")
		}
	}()
	tab.LookupName("a").Index(1)
}

func TestLookupAllocs(t *testing.T) {
	tab, err := Parse(msz("1", "1847", "2", "System", "4", "Memory", "230", "Process", "700", "No name", "702", "no name"))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 64)
	u16 := make([]uint16, 0, 64)
	var sink int
	allocs := testing.AllocsPerRun(100, func() {
		txt, _ := tab.Lookup(230)
		buf = txt.AppendUTF8(buf[:0])
		u16 = txt.AppendUTF16(u16[:0])
		m := tab.LookupName("NO NAME")
		for i := range m.Len() {
			sink += int(m.Index(i)) + m.Text(i).Len()
		}
		if txt.EqualFold("process") {
			sink++
		}
	})
	if allocs != 0 {
		t.Errorf("lookups: have %v allocs per run, want 0", allocs)
	}
	if sink == 0 {
		t.Error("lookups found nothing")
	}
}

// TestImportBan: the package imports only the standard library (without fmt
// and os, which would bloat the WebAssembly module) and perfcalc's engine.
func TestImportBan(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

func BenchmarkLookupIndex(b *testing.B) {
	tab, err := Parse(loadReal(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	idx := []uint32{2, 230, 238, 1846, 4658, 3}
	n := 0
	for i := 0; i < b.N; i++ {
		if _, ok := tab.Lookup(idx[i%len(idx)]); ok {
			n++
		}
	}
	_ = n
}

func BenchmarkLookupName(b *testing.B) {
	tab, err := Parse(loadReal(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	names := []string{"process", "% Processor Time", "no name", "Pages/Sec", "DMA Buffer Submitted/Sec", "absent"}
	n := 0
	for i := 0; i < b.N; i++ {
		n += tab.LookupName(names[i%len(names)]).Len()
	}
	_ = n
}

func BenchmarkParse(b *testing.B) {
	data := loadReal(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLookupNameConcurrent: the first LookupName sorts the names once,
// whichever goroutines ask at the same time (run with -race).
func TestLookupNameConcurrent(t *testing.T) {
	var pairs []string
	for i := 1; i < 400; i++ {
		pairs = append(pairs, strconv.Itoa(2*i), "name "+strconv.Itoa(i%37))
	}
	tab, err := Parse(msz(pairs...))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	counts := make([]int, 8)
	for g := range counts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[g] = tab.LookupName("NAME 5").Len()
		}()
	}
	wg.Wait()
	for g, n := range counts {
		if n != 11 {
			t.Errorf("goroutine %d: %d matches, want 11", g, n)
		}
	}
}
