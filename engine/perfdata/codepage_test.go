package perfdata

import (
	"errors"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
)

func TestAppendName(t *testing.T) {
	u16 := func(units ...uint16) []byte {
		var b []byte
		for _, u := range units {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	for _, tc := range []struct {
		name string
		raw  []byte
		cp   uint32
		want string
	}{
		{"utf16", u16('C', ':', 0), 0, "C:"},
		{"utf16 1200", u16('a', 0xE9, 0), 1200, "aé"},
		{"utf16 stops at NUL", u16('a', 0, 'b', 0), 0, "a"},
		{"utf16 no NUL", u16('a', 'b'), 0, "ab"},
		{"utf16 surrogate pair", u16(0xD834, 0xDD1E, 0), 0, "𝄞"},
		// Unpaired surrogates keep their code units (text.AppendUTF16Name).
		{"utf16 lone high", u16(0xD834, 'x', 0), 0, "\uFFFDd834x"},
		{"utf16 lone low", u16(0xDD1E, 0), 0, "\uFFFDdd1e"},
		{"utf16 high at end", u16('a', 0xD834), 0, "a\uFFFDd834"},
		{"utf16 U+FFFD", u16(0xFFFD, 'x', 0), 0, "\uFFFDfffdx"},
		{"utf16 odd byte ignored", []byte{'a', 0, 'b'}, 0, "a"},
		{"1252", []byte{'C', 'a', 'f', 0xE9, ' ', 0x80, 0x93, 'q', 0x94, 0}, 1252, "Café €“q”"},
		{"1252 undefined bytes", []byte{0x81, 0x8D, 0x8F, 0x90, 0x9D, 0}, 1252, "\u0081\u008D\u008F\u0090\u009D"},
		{"latin1", []byte{0x80, 0xFF, 0}, 28591, "\u0080ÿ"},
		{"ascii", []byte{'o', 'k', 0xC3, 0}, 20127, "ok\uFFFD"},
		{"utf8", []byte("日本語 🎉\x00"), 65001, "日本語 🎉"},
		{"utf8 invalid", []byte{'a', 0xC3, 'b', 0xFF, 0}, 65001, "a\uFFFDb\uFFFD"},
		{"utf8 truncated rune", []byte{0xE6, 0x97}, 65001, "\uFFFD\uFFFD"},
		{"empty", nil, 1252, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have, err := appendName([]byte("x"), tc.raw, tc.cp, 0, 0)
			if err != nil || string(have) != "x"+tc.want {
				t.Errorf("have %q, %v; want %q", have, err, "x"+tc.want)
			}
		})
	}
}

func TestAppendNameUnsupported(t *testing.T) {
	for _, cp := range []uint32{932, 936, 1251, 437, 1} {
		if SupportedCodePage(cp) {
			t.Errorf("SupportedCodePage(%d): have true, want false", cp)
		}
		_, err := appendName(nil, []byte("a\x00"), cp, 3, 0x1a40)
		var fe *engine.FormatError
		if !errors.As(err, &fe) || !errors.Is(err, engine.ErrUnsupported) {
			t.Fatalf("code page %d: have %v, want an ErrUnsupported FormatError", cp, err)
		}
		want := "perfdata: PERF_OBJECT_TYPE 3 at 0x1a6c: CodePage " + strings.TrimSpace(u64(uint64(cp))) + " is not supported"
		if !strings.HasPrefix(err.Error(), want) {
			t.Errorf("code page %d: have %q, want it to start with %q", cp, err, want)
		}
	}
}

func TestAppendNameAllocs(t *testing.T) {
	raw := []byte{'s', 0, 'v', 0, 'c', 0, 0, 0}
	buf := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		buf, _ = appendName(buf[:0], raw, 0, 0, 0)
	})
	if allocs != 0 || string(buf) != "svc" {
		t.Errorf("have %v allocations and %q, want 0 and svc", allocs, buf)
	}
}
