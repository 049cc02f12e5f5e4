package text

import (
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
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

// TestAppendUTF16Name: names keep every code unit. The text is valid UTF-8,
// equals AppendUTF16's where no unit is an unpaired surrogate or U+FFFD,
// writes those as U+FFFD and four hex digits, and two different
// sequences of code units never give the same text.
func TestAppendUTF16Name(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	picks := []uint16{'a', 'F', '0', 0xe9, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffd, 0xffff, 0xd834, 0xdd1e}
	seen := map[string]string{}
	for n := 0; n < 20000; n++ {
		us := make([]uint16, rng.IntN(6))
		for i := range us {
			us[i] = picks[rng.IntN(len(picks))]
		}
		b := make([]byte, 2*len(us))
		for i, u := range us {
			binary.LittleEndian.PutUint16(b[2*i:], u)
		}
		have := string(AppendUTF16Name(nil, b))
		// The reference: unicode/utf16 for the pairs, the escape for the rest.
		var want strings.Builder
		for i := 0; i < len(us); i++ {
			u := us[i]
			switch {
			case utf16.IsSurrogate(rune(u)) && u < 0xdc00 && i+1 < len(us) && us[i+1] >= 0xdc00 && us[i+1] <= 0xdfff:
				want.WriteRune(utf16.DecodeRune(rune(u), rune(us[i+1])))
				i++
			case utf16.IsSurrogate(rune(u)) || u == 0xfffd:
				want.WriteString("\uFFFD" + strconv.FormatUint(uint64(u), 16))
			default:
				want.WriteRune(rune(u))
			}
		}
		if have != want.String() || !utf8.ValidString(have) {
			t.Fatalf("%x: have %q, want %q", us, have, want.String())
		}
		key := string(b)
		if other, ok := seen[have]; ok && other != key {
			t.Fatalf("%x and %x both give %q", []byte(other), b, have)
		}
		seen[have] = key
	}
}
