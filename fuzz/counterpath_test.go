package fuzz

import (
	"errors"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// FuzzCounterPath: Parse never panics; an error names a position inside the
// path; a parsed path formats to a canonical form that parses to the same
// path, and a path always matches itself.
func FuzzCounterPath(f *testing.F) {
	for _, s := range []string{
		`\Processor(_Total)\% Processor Time`,
		`\\ZACH-PC\Thread(svchost/0#3)\Context Switches/sec`,
		`\Process(svchost#*)\*`,
		`\Paging File(\??\C:\pagefile.sys)\% Usage`,
		`\Processor Information(Intel(R) Core(TM))\% Processor Time`,
		`\#238(0)\#6`,
		`\\m\\c`,
		`\a(p/b/c)\d`,
		`\x(#5)\y`,
		`\0(#0#0)\0`, // found by fuzzing: a name ending in #0 needs its own #0
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := counterpath.Parse(s)
		if err != nil {
			var pe *counterpath.Error
			if !errors.As(err, &pe) || pe.Pos < 0 || pe.Pos > len(s) {
				t.Fatalf("Parse(%q): %v: want a *counterpath.Error with a position in 0..%d", s, err, len(s))
			}
			return
		}
		canon := p.String()
		q, err := counterpath.Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q) = %+v, whose canonical form %q does not parse: %v", s, p, canon, err)
		}
		if q != p {
			t.Fatalf("Parse(%q) = %+v; its canonical form %q parses to %+v", s, p, canon, q)
		}
		if !strings.Contains(p.Instance, "*") && !strings.Contains(p.Parent, "*") && !strings.Contains(p.Counter, "*") && p.Index != counterpath.AnyIndex && !p.Matches(p) {
			t.Fatalf("%q does not match itself", canon)
		}
	})
}

// FuzzCounterList: ParseList never panics; an error names a line that the
// file has; every path it returns formats to a path that parses again.
func FuzzCounterList(f *testing.F) {
	f.Add([]byte("# disks\r\n\\PhysicalDisk(*)\\Avg. Disk sec/Read\r\n\r\n\\Memory\\*\r\n"))
	f.Add([]byte{0xFF, 0xFE, '\\', 0, 'a', 0, '\\', 0, 'b', 0, '\n', 0})
	f.Add([]byte{0xFE, 0xFF, 0, '\\', 0, 'a', 0, '\\', 0, 'b'})
	f.Add([]byte("\xEF\xBB\xBF\\x(y)\\z\nbad\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		paths, err := counterpath.ParseList(b)
		if err != nil {
			var le *counterpath.ListError
			if !errors.As(err, &le) || le.Line < 1 || le.Line > len(b)+1 {
				t.Fatalf("ParseList: %v: want a *counterpath.ListError with a line in 1..%d", err, len(b)+1)
			}
			return
		}
		for _, p := range paths {
			if _, err := counterpath.Parse(p.String()); err != nil {
				t.Fatalf("%q from the list does not parse again: %v", p.String(), err)
			}
		}
	})
}
