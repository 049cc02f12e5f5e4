package encode_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// ntDecode decodes a name table back into its pairs, in index order.
func ntDecode(b []byte) ([]encode.NameTablePair, error) {
	t, err := nametable.Parse(b)
	if err != nil {
		return nil, err
	}
	var ps []encode.NameTablePair
	for i := range t.Len() {
		idx, text := t.Pair(i)
		ps = append(ps, encode.NameTablePair{Index: idx, Text: text.String()})
	}
	return ps, nil
}

func TestEncodeNameTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   encode.NameTable
		want []byte // UTF-16LE as a Go string of ASCII, one byte per unit
	}{
		{"empty", encode.NameTable{}, []byte("\x00")},
		{"empty, OmitFinalNUL", encode.NameTable{OmitFinalNUL: true}, []byte("\x00")},
		{"two pairs", encode.NameTable{Pairs: []encode.NameTablePair{{Index: 1, Text: "1847"}, {Index: 2, Text: "System"}}},
			[]byte("1\x001847\x002\x00System\x00\x00")},
		{"OmitFinalNUL", encode.NameTable{Pairs: []encode.NameTablePair{{Index: 4294967295, Text: "x"}}, OmitFinalNUL: true},
			[]byte("4294967295\x00x\x00")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have, err := encode.EncodeNameTable(&tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var want []byte
			for _, c := range tc.want {
				want = append(want, c, 0)
			}
			if !slices.Equal(have, want) {
				t.Errorf("have % x\nwant % x", have, want)
			}
			back, err := ntDecode(have)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !slices.Equal(back, tc.in.Pairs) {
				t.Errorf("round trip: have %v, want %v", back, tc.in.Pairs)
			}
		})
	}
}

func TestEncodeNameTableErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want string
	}{
		{"empty text", "", "encode: name table pair 1 (index 4): text is empty"},
		{"NUL in text", "a\x00b", "encode: name table pair 1 (index 4): text holds a NUL"},
		{"invalid UTF-8", "a\xffb", "encode: name table pair 1 (index 4): text is not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := []byte{9, 9}
			have, err := encode.AppendNameTable(dst, &encode.NameTable{Pairs: []encode.NameTablePair{{Index: 2, Text: "ok"}, {Index: 4, Text: tc.text}}})
			if err == nil || err.Error() != tc.want {
				t.Errorf("error: have %v, want %q", err, tc.want)
			}
			if !slices.Equal(have, []byte{9, 9}) {
				t.Errorf("dst: have % x, want it unchanged", have)
			}
		})
	}
}

func TestNameTableRepeatedIndex(t *testing.T) {
	b, err := encode.EncodeNameTable(&encode.NameTable{Pairs: []encode.NameTablePair{{Index: 2, Text: "first"}, {Index: 2, Text: "second"}}})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := nametable.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := tab.Lookup(2); tab.Pairs() != 2 || tab.Len() != 1 || text.String() != "second" {
		t.Errorf("have %d pairs, %d indexes, %q; want 2, 1, \"second\"", tab.Pairs(), tab.Len(), text.String())
	}
}

// ntRandText returns a random non-empty text without NUL, with ASCII,
// Latin, CJK and astral runes.
func ntRandText(r *rand.Rand) string {
	var sb strings.Builder
	for range 1 + r.IntN(20) {
		switch r.IntN(4) {
		case 0:
			sb.WriteRune(rune(1 + r.IntN(0x7F)))
		case 1:
			sb.WriteRune(rune(0xA0 + r.IntN(0x100)))
		case 2:
			sb.WriteRune(rune(0x4E00 + r.IntN(0x100)))
		default:
			sb.WriteRune(rune(0x1F600 + r.IntN(0x40)))
		}
	}
	return sb.String()
}

func TestNameTableRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 200 {
		var nt encode.NameTable
		idx := uint32(0)
		for range r.IntN(50) {
			idx += 1 + uint32(r.IntN(1000))
			nt.Pairs = append(nt.Pairs, encode.NameTablePair{Index: idx, Text: ntRandText(r)})
		}
		nt.OmitFinalNUL = r.IntN(2) == 0
		b, err := encode.EncodeNameTable(&nt)
		if err != nil {
			t.Fatalf("iteration %d: %v", iter, err)
		}
		back, err := ntDecode(b)
		if err != nil {
			t.Fatalf("iteration %d: decode: %v", iter, err)
		}
		if !slices.Equal(back, nt.Pairs) {
			t.Fatalf("iteration %d: round trip:\nhave %v\nwant %v", iter, back, nt.Pairs)
		}
		// Every text is found by name, case-insensitively.
		tab, _ := nametable.Parse(b)
		for _, p := range nt.Pairs {
			if !slices.Contains(tab.LookupName(strings.ToUpper(p.Text)).AppendIndexes(nil), p.Index) {
				t.Fatalf("iteration %d: LookupName(%q) misses %d", iter, strings.ToUpper(p.Text), p.Index)
			}
		}
		// Every cut of the table parses or fails with a FormatError.
		for n := 0; n < len(b); n += 1 + r.IntN(7) {
			if _, err := nametable.Parse(b[:n]); err != nil {
				var fe *engine.FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("iteration %d: cut at %d: have %v, want a FormatError", iter, n, err)
				}
			}
		}
	}
}

func ExampleEncodeNameTable() {
	b, err := encode.EncodeNameTable(&encode.NameTable{Pairs: []encode.NameTablePair{
		{Index: 1, Text: "1847"}, {Index: 2, Text: "System"},
	}})
	if err != nil {
		panic(err)
	}
	t, _ := nametable.Parse(b)
	name, _ := t.Lookup(2)
	fmt.Println(len(b), t.Len(), name)
	// Output:
	// 34 2 System
}
