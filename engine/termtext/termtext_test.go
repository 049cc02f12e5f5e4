package termtext

import (
	"testing"

	"github.com/perfcalc/perfcalc/tools/importban"
)

func TestImports(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

// TestVisible: a name with controls and bidirectional marks comes out
// escaped, one without as it is.
func TestVisible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`\\HOST\Processor(_Total)\% Processor Time`, `\\HOST\Processor(_Total)\% Processor Time`},
		{"Prozessorzeit (%)\u00a0Процессор", "Prozessorzeit (%)\u00a0Процессор"},
		{"Pages\x1b]0;owned\a\r\\\\FORGED\u202e\u0085\xff", `Pages\x1b]0;owned\a\r\\FORGED\u202e\u0085\xff`},
	} {
		if have := Visible(c.in); have != c.want {
			t.Errorf("Visible(%q) = %s, want %s", c.in, have, c.want)
		}
		if have := string(AppendVisible([]byte("x"), c.in)); have != "x"+c.want {
			t.Errorf("AppendVisible(%q) = %s, want x%s", c.in, have, c.want)
		}
	}
}

// TestVisibleAllocs: a name that needs no escape costs no allocation.
func TestVisibleAllocs(t *testing.T) {
	name := `\\HOST\Processor(_Total)\% Processor Time`
	if n := testing.AllocsPerRun(100, func() { _ = Visible(name) }); n != 0 {
		t.Errorf("Visible of a plain name: %v allocations, want 0", n)
	}
}
