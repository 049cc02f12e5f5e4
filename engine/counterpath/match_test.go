package counterpath

import (
	"strings"
	"testing"
	"time"
)

// TestMatchCases: the cases where a rune-wise matcher can go wrong —
// folding that leaves ASCII (the Kelvin sign, long s), invalid bytes (each
// one U+FFFD), pieces that overlap themselves, stars at both ends. The
// fuzz package compares Match with a regular expression on random input.
func TestMatchCases(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"*k", "\u212A", true}, {"K*", "\u212Ax", true}, {"*ſ*", "S", true}, {"*\uFFFD", "a\xff", true},
		{"\xfe*", "\xff", true}, {"\xe2\x82*", "\uFFFD", false}, {"*\xe2\x82\xac", "\xe2\x82\xac\xac", false},
		{"a*a", "a", false}, {"*aab", "aaab", true}, {"*abab", "ababab", true}, {"*ab*ab", "abab", true},
		{"*ab*ab", "aba", false}, {"**", "", true}, {"*", "\xff\xfe", true}, {"a*", "A", true},
		{"*ÄÖ*ü", "xäöyÜ", true}, {"*\u212A\u212A", "kkk", true}, {"*aab*", "aaaab", true},
		{"*" + strings.Repeat("ab", 40) + "*c", strings.Repeat("ab", 41) + "c", true},
		{"*" + strings.Repeat("ab", 40) + "*c", strings.Repeat("ab", 39) + "c", false},
	} {
		if have := Match(tc.pattern, tc.name); have != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.pattern, tc.name, have, tc.want)
		}
	}
}

// hostileMatches are the near misses of issue 12: a pattern of a star,
// 1,000 letters and another letter against 10^6 letters, in ASCII and in
// non-ASCII letters that need Unicode's case folding. A backtracking
// matcher takes 1,000 × 10^6 steps (seconds to minutes); Match takes one
// pass.
var hostileMatches = []struct{ name, pattern, text, matching string }{
	{"ASCII", "*" + strings.Repeat("a", 1000) + "b", strings.Repeat("a", 1_000_000), "*" + strings.Repeat("a", 1000)},
	{"folded", "*" + strings.Repeat("ä", 1000) + "b", strings.Repeat("Ä", 1_000_000), "*" + strings.Repeat("ä", 1000)},
	{"middle", "*" + strings.Repeat("a", 1000) + "b*", strings.Repeat("A", 1_000_000), "*" + strings.Repeat("a", 1000) + "*a"},
}

// TestMatchLinear: Match's time does not grow with the pattern's length.
// A backtracking matcher takes pattern × name steps; Match takes a pass
// over each. The times are compared within one run (the fastest of three
// each), so that a loaded machine slows both alike: the 1,000-letter near
// miss must take less than 20 times the 10-letter one (a backtracking
// matcher: about 100 times).
func TestMatchLinear(t *testing.T) {
	for _, tc := range hostileMatches {
		if Match(tc.pattern, tc.text) {
			t.Errorf("%s: matched, want no match", tc.name)
		}
		if !Match(tc.matching, tc.text) {
			t.Errorf("%s: %q… does not match", tc.name, tc.matching[:8])
		}
		short := strings.Replace(tc.pattern, strings.Repeat(tc.pattern[1:2], 990), "", 1)
		if tc.name == "folded" {
			short = strings.Replace(tc.pattern, strings.Repeat("ä", 990), "", 1)
		}
		fastest := func(pattern string) time.Duration {
			best := time.Duration(1 << 62)
			for range 3 {
				start := time.Now()
				Match(pattern, tc.text)
				best = min(best, time.Since(start))
			}
			return best
		}
		long, base := fastest(tc.pattern), fastest(short)
		t.Logf("%s: %v for the 1,000-letter pattern, %v for the 10-letter one", tc.name, long, base)
		if long > 20*base+10*time.Millisecond {
			t.Errorf("%s: %v for the 1,000-letter pattern, %v for the 10-letter one: not linear", tc.name, long, base)
		}
	}
}

func BenchmarkMatchHostile(b *testing.B) {
	for _, tc := range hostileMatches {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.text)))
			for b.Loop() {
				Match(tc.pattern, tc.text)
			}
		})
	}
}
