package text

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestAppendUTF16 compares AppendUTF16 with unicode/utf16.Decode on random
// code units, unpaired surrogates included.
func TestAppendUTF16(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	picks := []uint16{0, 'a', 'Z', 0x7f, 0xe9, 0x20ac, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffd, 0xffff}
	for n := 0; n < 2000; n++ {
		us := make([]uint16, rng.IntN(9))
		for i := range us {
			if rng.IntN(2) == 0 {
				us[i] = picks[rng.IntN(len(picks))]
			} else {
				us[i] = uint16(rng.Uint32())
			}
		}
		b := make([]byte, 2*len(us), 2*len(us)+1)
		for i, u := range us {
			binary.LittleEndian.PutUint16(b[2*i:], u)
		}
		want := string(utf16.Decode(us))
		if have := string(AppendUTF16(nil, b)); have != want {
			t.Fatalf("%x: have %q, want %q", us, have, want)
		}
		if have := string(AppendUTF16(nil, append(b, 0x41))); have != want {
			t.Fatalf("%x with an odd byte: have %q, want %q", us, have, want)
		}
	}
}

func TestUTF16Len(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		term bool
	}{{"a\x00b\x00\x00\x00c\x00", 4, true}, {"a\x00b", 2, false}, {"\x00\x00", 0, true}, {"", 0, false}, {"\x00a\x00\x00", 2, true}} {
		if n, term := UTF16Len([]byte(tc.in)); n != tc.n || term != tc.term {
			t.Errorf("%q: have %d %v, want %d %v", tc.in, n, term, tc.n, tc.term)
		}
	}
}

func TestAppendIndexName(t *testing.T) {
	if have := string(AppendIndexName([]byte("x"), 4294967295)); have != "x#4294967295" {
		t.Errorf("have %q", have)
	}
}

// TestInterner checks that an Interner gives equal strings for equal bytes
// and allocates only for a new text.
func TestInterner(t *testing.T) {
	var in Interner
	a := in.String([]byte("name"))
	if b := in.String([]byte("name")); a != b || in.String([]byte("other")) != "other" {
		t.Fatal("interned strings differ")
	}
	buf := []byte("name")
	if n := testing.AllocsPerRun(100, func() { in.String(buf) }); n != 0 {
		t.Errorf("%v allocations for a known text, want 0", n)
	}
	for i := 0; i < maxIntern+10; i++ {
		in.String([]byte(strings.Repeat("x", i%300) + string(rune(i))))
	}
	if len(in.m) > maxIntern {
		t.Errorf("the interner holds %d strings, more than %d", len(in.m), maxIntern)
	}
}
