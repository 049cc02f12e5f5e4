package fuzz

import (
	"errors"
	"regexp"
	"testing"

	"github.com/perfcalc/perfcalc/analysis/palxml/objre"
)

// FuzzObjRegexp: objre never panics; its errors are *objre.Error with a
// position in the pattern; every pattern it compiles, Go's regexp
// compiles with (?i) too and matches the same names.
func FuzzObjRegexp(f *testing.F) {
	f.Add("(MSSQL|SQLServer).*:Buffer Node", "MSSQL$A:Buffer Node")
	f.Add("^[^a-c]x+?$", "dxx")
	f.Add(`\d\w\s(?:a|b|)*`, "1_ ab")
	f.Add("[]a-]é", "-É")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		re, err := objre.Compile(pattern)
		if err != nil {
			var e *objre.Error
			if !errors.As(err, &e) || e.Pos < 0 || e.Pos > len(pattern) {
				t.Fatalf("Compile(%q): %v: want an *objre.Error with a position in 0..%d", pattern, err, len(pattern))
			}
			return
		}
		std, err := regexp.Compile("(?i)" + pattern)
		if err != nil {
			t.Fatalf("objre compiles %q, regexp does not: %v", pattern, err)
		}
		if have, want := re.MatchString(name), std.MatchString(name); have != want {
			t.Fatalf("%q on %q: objre %v, regexp %v", pattern, name, have, want)
		}
	})
}
