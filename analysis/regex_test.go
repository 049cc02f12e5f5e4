package analysis

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// TestObjectRegexp: PAL's form and the supported syntax, against
// hand-chosen texts.
func TestObjectRegexp(t *testing.T) {
	for _, tc := range []struct {
		re  string
		yes []string
		no  []string
	}{
		{`(MSSQL|SQLServer).*:Buffer Manager`, []string{"SQLServer:Buffer Manager", `MSSQL$PROD:Buffer Manager`, "mssql$x:buffer manager", "xSQLSERVER:Buffer Managers"}, []string{"SQLServer:Buffer Node", "SQL:Buffer Manager"}},
		{`^Proc[a-e]ss(or)?$`, []string{"Processor", "process", "PROCESS"}, []string{"Processors", "xProcess", "Procfss"}},
		{`\d+\.\d`, []string{"v1.2", "10.5x"}, []string{"1.", ".5"}},
		{`[^a-z]`, []string{"abc1", "a b"}, []string{"abc", "ABC"}},
		{`a|`, []string{"", "b"}, nil},
		{`\w\s\W`, []string{"a ;"}, []string{"ab;", "; ;"}},
		{`(?:ab)+c`, []string{"ababc", "xABc"}, []string{"ac", "abab"}},
	} {
		re, err := compileObjectRegexp(tc.re)
		if err != nil {
			t.Errorf("%q: %v", tc.re, err)
			continue
		}
		for _, s := range tc.yes {
			if !re.MatchString(s) {
				t.Errorf("%q does not match %q", tc.re, s)
			}
		}
		for _, s := range tc.no {
			if re.MatchString(s) {
				t.Errorf("%q matches %q", tc.re, s)
			}
		}
	}
	for _, bad := range []string{"a{2}", "(?<=x)", "(a", "a)", "*a", "[a", `\b`, "[z-a]", strings.Repeat("(", 200) + strings.Repeat(")", 200), "^*"} {
		if _, err := compileObjectRegexp(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestObjectRegexpLikeRegexp: on random patterns of the supported syntax
// and random texts, the answer is package regexp's with (?i).
func TestObjectRegexpLikeRegexp(t *testing.T) {
	rnd := rand.New(rand.NewSource(20261126))
	atoms := []string{"a", "B", "c", ".", "[ab]", "[^a]", `\d`, "1", "(a|b)", "(ab|c)", "(?:a)", "^", "$", `\.`, "k"}
	quants := []string{"", "", "*", "+", "?"}
	for range 20000 {
		var p strings.Builder
		for range 1 + rnd.Intn(5) {
			a := atoms[rnd.Intn(len(atoms))]
			p.WriteString(a)
			if a != "^" && a != "$" {
				p.WriteString(quants[rnd.Intn(len(quants))])
			}
			if rnd.Intn(8) == 0 {
				p.WriteString("|")
			}
		}
		pat := p.String()
		want, err := regexp.Compile("(?i)" + pat)
		if err != nil {
			continue
		}
		re, err := compileObjectRegexp(pat)
		if err != nil {
			t.Fatalf("%q: %v", pat, err)
		}
		for range 5 {
			var s strings.Builder
			for range rnd.Intn(7) {
				s.WriteRune([]rune("aAbBc1.K\u212a")[rnd.Intn(9)])
			}
			if have := re.MatchString(s.String()); have != want.MatchString(s.String()) {
				t.Fatalf("%q on %q: have %v, regexp says %v", pat, s.String(), have, !have)
			}
		}
	}
}
