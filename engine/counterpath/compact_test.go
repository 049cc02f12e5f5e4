package counterpath

import (
	"reflect"
	"strings"
	"testing"
)

// TestCompact: runs of stars in a pattern's parent, instance and counter
// become one star (a name of stars alone "**"), the patterns match the same
// paths as before, and ps itself is returned, unchanged, when there is no
// run.
func TestCompact(t *testing.T) {
	stars := strings.Repeat("*", 1000)
	for _, tc := range []struct{ in, want string }{
		{`\Process(x` + stars + `y)\` + stars + `Time`, `\Process(x*y)\*Time`},
		{`\\M\Process(a**/b***c#*)\**`, `\\M\Process(a*/b*c#*)\**`},
		{`\Process(` + stars + `)\*`, `\Process(**)\*`},
		{`\Process(**)\a**`, `\Process(**)\a*`},
		{`\Process(*)\*`, `\Process(*)\*`},
	} {
		p, err := Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		in := []Path{p}
		have := Compact(in)
		if s := have[0].String(); s != tc.want {
			t.Errorf("Compact(%.40q…) = %q, want %q", tc.in, s, tc.want)
		}
		if !reflect.DeepEqual(in[0], p) {
			t.Errorf("Compact changed its argument: %q", in[0].String())
		}
		for _, name := range []string{`\\M\Process(xy)\Time`, `\\M\Process(x1y)\A Time`, `\\M\Process(ab/bc)\X`,
			`\\M\Process(a/bzc#3)\ab`, `\\M\Process(p/kid)\q`, `\\M\Process(kid)\q`, `\\M\Process(kid#2)\q`, `\\M\Memory\Pages`} {
			q, err := Parse(name)
			if err != nil {
				t.Fatal(err)
			}
			if p.Matches(q) != have[0].Matches(q) {
				t.Errorf("%.40q and its compact form %q differ on %q", tc.in, tc.want, name)
			}
		}
	}
	ps := []Path{{Object: "Process", HasInstance: true, Instance: "a*b", Counter: "*"}}
	if have := Compact(ps); &have[0] != &ps[0] {
		t.Error("Compact copied patterns without runs")
	}
	if Compact(nil) != nil {
		t.Error("Compact(nil) is not nil")
	}
}
