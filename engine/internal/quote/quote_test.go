package quote

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"unicode/utf8"
)

// TestASCIILikeStrconv checks every one- and two-byte ASCII string.
func TestASCIILikeStrconv(t *testing.T) {
	for a := range 128 {
		for b := range 129 {
			s := string(rune(a))
			if b < 128 {
				s += string(rune(b))
			}
			if got, want := Quote(s), strconv.Quote(s); got != want {
				t.Fatalf("Quote(%q) = %s, want %s", s, got, want)
			}
		}
	}
}

func TestExamples(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`\Processor(_Total)\% Processor Time`, `"\\Processor(_Total)\\% Processor Time"`},
		{"Prozessorzeit (%)", `"Prozessorzeit (%)"`},
		{"Процессор", `"Процессор"`},
		{"a\u202eb", `"a\u202eb"`},
		{"\ufeffname", `"\ufeffname"`},
		{"x\x80\xffy", `"x\x80\xffy"`},
		{"\u0085", `"\u0085"`},
		{"\U0001F600", "\"\U0001F600\""},
		{"", `""`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestHiddenRunesLikeStrconv checks that every rune Quote escapes is one
// strconv.Quote escapes too, in the same way.
func TestHiddenRunesLikeStrconv(t *testing.T) {
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if !hidden(r) {
			continue
		}
		s := string(r)
		if got, want := Quote(s), strconv.Quote(s); got != want {
			t.Errorf("Quote(%U) = %s, strconv.Quote = %s", r, got, want)
		}
	}
}

// TestUnquoteRoundTrip feeds random bytes, valid and invalid UTF-8.
func TestUnquoteRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			switch r.IntN(3) {
			case 0:
				b[i] = byte(r.IntN(128))
			default:
				b[i] = byte(r.IntN(256))
			}
		}
		if r.IntN(4) == 0 {
			b = utf8.AppendRune(b, rune(r.IntN(0x110000)))
		}
		s := string(b)
		q := Quote(s)
		back, err := strconv.Unquote(q)
		if err != nil || back != s {
			t.Fatalf("Unquote(Quote(%q)) = %q, %v", s, back, err)
		}
	}
}

// TestAppendPath: AppendPath keeps backslashes as given and escapes the rest as Quote.
func TestAppendPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`\\HOST\Processor(_Total)\% Processor Time`, `"\\HOST\Processor(_Total)\% Processor Time"`},
		{`C:\logs\a "b".blg`, `"C:\logs\a \"b\".blg"`},
		{"a\tb\u202e\xff", `"a\tb\u202e\xff"`},
	} {
		if got := string(AppendPath([]byte("x"), c.in)); got != "x"+c.want {
			t.Errorf("AppendPath(%q) = %s, want x%s", c.in, got, c.want)
		}
	}
}

// TestAppendVisible: AppendVisible escapes controls, hidden runes (but
// the no-break space) and invalid bytes, keeps quotes and backslashes,
// and leaves a name without them as it is.
func TestAppendVisible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`\\HOST\Processor(_Total)\% Processor Time`, `\\HOST\Processor(_Total)\% Processor Time`},
		{`a "b" c`, `a "b" c`},
		{"Prozessorzeit (%) Процессор\u00a0\U0001F600", "Prozessorzeit (%) Процессор\u00a0\U0001F600"},
		{"Pages\x1b[2J\a\rFORGED\nline\t\x7f", `Pages\x1b[2J\a\rFORGED\nline\t\x7f`},
		{"x\u0085\u009b31m\u202eevil\u200b\u2028\ufeff\u00ady", `x\u0085\u009b31m\u202eevil\u200b\u2028\ufeff\u00ady`},
		{"bad\xff\xc0end", `bad\xff\xc0end`},
		{"", ""},
	} {
		if got := string(AppendVisible([]byte("x"), c.in)); got != "x"+c.want {
			t.Errorf("AppendVisible(%q) = %s, want x%s", c.in, got, c.want)
		}
	}
	// what it escapes, Quote does too
	for r := rune(0); r <= 0x10000; r++ {
		s := string(r)
		if v := string(AppendVisible(nil, s)); v != s && "\""+v+"\"" != Quote(s) {
			t.Errorf("AppendVisible(%U) = %s, Quote = %s", r, v, Quote(s))
		}
	}
}
