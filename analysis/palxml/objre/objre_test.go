package objre

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

var testPatterns = []string{
	"(MSSQL|SQLServer).*:Buffer Node", "(MSSQL|SQLServer).*", "^SQLServer:", "Node$", "a.c", "a*b", "a+b", "ab?c",
	"(?:ab)+", "x(a|b|)y", "[a-c]x", "[^a-c]x", "[]a]", "[a-]", `\d+\.\d`, `\w\W\s\S`, `\(x\)`, "(a*)*", "(a|b)*c",
	"é+", "k", "^$", "a*?b", "[\\d_]z", "((((a))))", "",
}

var testNames = []string{
	"", "SQLServer:Buffer Node", "MSSQL$INST1:Buffer Node", "mssql$x:buffer node", "SQLServer:Buffer Manager",
	"abc", "AXC", "aaab", "b", "xay", "xy", "xzy", "cx", "dx", "]", "-", "12.5", "a_ b", "(x)", "ÉÉ", "K", "\u212a",
	"a\nc", "\xff", "Node", "MSSQL", "zzz_z",
}

// TestLikeRegexp: where a pattern compiles, it matches as Go's regexp
// with (?i) does.
func TestLikeRegexp(t *testing.T) {
	for _, p := range testPatterns {
		re, err := Compile(p)
		if err != nil {
			t.Errorf("Compile(%q): %v", p, err)
			continue
		}
		std := regexp.MustCompile("(?i)" + p)
		for _, n := range testNames {
			if have, want := re.MatchString(n), std.MatchString(n); have != want {
				t.Errorf("%q on %q: have %v, want %v", p, n, have, want)
			}
		}
	}
}

// TestCompileErrors: what is refused, and where.
func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		p, want string
		pos     int
	}{
		{"(ab", "missing closing )", 0},
		{"ab)", "unexpected ')'", 2},
		{"*a", "missing argument", 0},
		{"a**", "nested repetition", 2},
		{"a{2}", "counted repetition", 1},
		{"[abc", "missing closing ]", 0},
		{"[z-a]", "invalid character class range", 0},
		{`\b`, `escape \b`, 0},
		{`a\`, "trailing backslash", 1},
		{"(?i)a", "group flags", 0},
		{"[[:alpha:]]", "POSIX", 1},
		{"^*", "quantifier after an anchor", 1},
		{strings.Repeat("(", 200), "nested deeper", 100},
		{strings.Repeat("a", MaxPattern+1), "longer than", MaxPattern},
	} {
		_, err := Compile(tc.p)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, tc.want) || e.Pos != tc.pos {
			t.Errorf("Compile(%q): have %v, want an *Error at %d saying %q", tc.p, err, tc.pos, tc.want)
		}
	}
}

func ExampleRegexp_MatchString() {
	re, err := Compile("(MSSQL|SQLServer).*:Buffer Node")
	if err != nil {
		panic(err)
	}
	fmt.Println(re.MatchString(`MSSQL$PROD:Buffer Node`), re.MatchString(`SQLServer:Buffer Manager`))
	// Output: true false
}
