package wintype

import (
	"slices"
	"testing"
	"unicode/utf16"
	"unsafe"

	"github.com/perfcalc/perfcalc/tools/importban"
)

// TestImports: the decoders and the WebAssembly module link this package.
func TestImports(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

func TestSystemTimeSize(t *testing.T) {
	if have := int(unsafe.Sizeof(SystemTime{})); have != SystemTimeSize {
		t.Errorf("unsafe.Sizeof(SystemTime{}): have %d, want %d", have, SystemTimeSize)
	}
}

func TestParseSystemTime(t *testing.T) {
	b := []byte{
		0xEA, 0x07, // Year 2026
		11, 0, // Month
		6, 0, // DayOfWeek
		21, 0, // Day
		12, 0, // Hour
		39, 0, // Minute
		19, 0, // Second
		0xE7, 0x03, // Milliseconds 999
		0xFF, 0xFF, // past the record: not read
	}
	want := SystemTime{Year: 2026, Month: 11, DayOfWeek: 6, Day: 21, Hour: 12, Minute: 39, Second: 19, Milliseconds: 999}
	if have := ParseSystemTime(b); have != want {
		t.Errorf("ParseSystemTime: have %+v, want %+v", have, want)
	}
	// Every WORD lands in its own field.
	for i := 0; i < 8; i++ {
		var rec [SystemTimeSize]byte
		rec[2*i], rec[2*i+1] = 0x34, 0x12
		st := ParseSystemTime(rec[:])
		fields := [8]uint16{st.Year, st.Month, st.DayOfWeek, st.Day, st.Hour, st.Minute, st.Second, st.Milliseconds}
		for j, v := range fields {
			if want := uint16(0); j == i {
				want = 0x1234
				if v != want {
					t.Errorf("WORD %d: field %d is %#x, want %#x", i, j, v, want)
				}
			} else if v != want {
				t.Errorf("WORD %d: field %d is %#x, want 0", i, j, v)
			}
		}
	}
}

// utf16le encodes s as UTF-16LE code units, without a NUL.
func utf16le(s string) Text {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return Text(b)
}

func TestTextFold(t *testing.T) {
	for _, tc := range []struct {
		text, query string
		want        bool
	}{
		{"Pages/sec", "PAGES/SEC", true},
		{"Kelvin", "\u212Aelvin", true}, // Kelvin sign folds like K
		{"Σίσυφος", "ΣΊΣΥΦΟΣ", true},
		{"straße", "STRASSE", false}, // simple case mapping only
		{"abc", "abcd", false},
		{"abcd", "abc", false},
		{"", "", true},
		{"a\U0001F600", "A\U0001F600", true},
	} {
		text := utf16le(tc.text)
		if have := text.EqualFold(tc.query); have != tc.want {
			t.Errorf("Text(%q).EqualFold(%q): have %v, want %v", tc.text, tc.query, have, tc.want)
		}
		if have := text.Equal(tc.text); !have {
			t.Errorf("Text(%q).Equal(itself): have false, want true", tc.text)
		}
		if have := text.String(); have != tc.text {
			t.Errorf("Text(%q).String(): have %q", tc.text, have)
		}
	}
	if utf16le("Pages/sec").Equal("PAGES/SEC") {
		t.Error(`Text("Pages/sec").Equal("PAGES/SEC"): have true, want false (Equal is exact)`)
	}
	// An unpaired surrogate decodes as U+FFFD.
	lone := Text([]byte{0x00, 0xD8, 'a', 0})
	if have, want := lone.String(), "\uFFFDa"; have != want {
		t.Errorf("unpaired surrogate: have %q, want %q", have, want)
	}
	if have, want := lone.AppendUTF16(nil), []uint16{0xD800, 'a'}; !slices.Equal(have, want) {
		t.Errorf("AppendUTF16: have %v, want %v", have, want)
	}
	if have, want := lone.Len(), 2; have != want {
		t.Errorf("Len: have %d, want %d", have, want)
	}
	if have, want := lone.Unit(0), uint16(0xD800); have != want {
		t.Errorf("Unit(0): have %#x, want %#x", have, want)
	}
	if have, want := string(lone.AppendUTF8([]byte("x"))), "x\uFFFDa"; have != want {
		t.Errorf("AppendUTF8: have %q, want %q", have, want)
	}
}

func TestTextAllocs(t *testing.T) {
	name := utf16le("Processor Information")
	dst := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() {
		dst = name.AppendUTF8(dst[:0])
		if !name.EqualFold("PROCESSOR INFORMATION") {
			t.Fatal("EqualFold failed")
		}
	}); n != 0 {
		t.Errorf("AppendUTF8 and EqualFold: %v allocs, want 0", n)
	}
}

func TestTextCompareFold(t *testing.T) {
	for _, tc := range []struct {
		text, query string
		want        int
	}{
		{"Pages/sec", "PAGES/SEC", 0},
		{"abc", "abd", -1},
		{"ABD", "abc", 1},
		{"abc", "abcd", -1},
		{"abcd", "ABC", 1},
		{"", "a", -1},
		{"\u212Aelvin", "kelvin", 0},
	} {
		if have := utf16le(tc.text).CompareFold(tc.query); have != tc.want {
			t.Errorf("Text(%q).CompareFold(%q): have %d, want %d", tc.text, tc.query, have, tc.want)
		}
	}
}
