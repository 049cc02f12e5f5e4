package counterpath

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/importban"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Path
		str  string // canonical form, when it differs from in
	}{
		{in: `\Processor(_Total)\% Processor Time`, want: Path{Object: "Processor", HasInstance: true, Instance: "_Total", Counter: "% Processor Time"}},
		{in: `\\ZACH-PC\Memory\Available Bytes`, want: Path{Machine: "ZACH-PC", Object: "Memory", Counter: "Available Bytes"}},
		{in: `\System\System Up Time`, want: Path{Object: "System", Counter: "System Up Time"}},
		{in: `\\m\Process(svchost#2)\ID Process`, want: Path{Machine: "m", Object: "Process", HasInstance: true, Instance: "svchost", Index: 2, Counter: "ID Process"}},
		{in: `\Process(svchost#0)\ID Process`, want: Path{Object: "Process", HasInstance: true, Instance: "svchost", Counter: "ID Process"}, str: `\Process(svchost)\ID Process`},
		{in: `\Thread(explorer/12)\% Processor Time`, want: Path{Object: "Thread", HasInstance: true, Parent: "explorer", Instance: "12", Counter: "% Processor Time"}},
		{in: `\Process(x#2147483647)\c`, want: Path{Object: "Process", HasInstance: true, Instance: "x", Index: 1<<31 - 1, Counter: "c"}},
		{in: `\Process(x#0000000000000000000007)\c`, want: Path{Object: "Process", HasInstance: true, Instance: "x", Index: 7, Counter: "c"}, str: `\Process(x#7)\c`},
		{in: `\Thread(svchost/0#3)\Context Switches/sec`, want: Path{Object: "Thread", HasInstance: true, Parent: "svchost", Instance: "0", Index: 3, Counter: "Context Switches/sec"}},
		{in: `\Thread(*/*)\*`, want: Path{Object: "Thread", HasInstance: true, Parent: "*", Instance: "*", Counter: "*"}},
		{in: `\Process(svchost#*)\% Processor Time`, want: Path{Object: "Process", HasInstance: true, Instance: "svchost", Index: AnyIndex, Counter: "% Processor Time"}},
		{in: `\Process(pro*)\Handle Count`, want: Path{Object: "Process", HasInstance: true, Instance: "pro*", Counter: "Handle Count"}},
		// Instance names may contain parentheses, slashes after the
		// parent's, backslashes, and a # that is not an index.
		{in: `\Processor Information(Intel(R) Core(TM))\% Processor Time`, want: Path{Object: "Processor Information", HasInstance: true, Instance: "Intel(R) Core(TM)", Counter: "% Processor Time"}},
		{in: `\Paging File(\??\C:\pagefile.sys)\% Usage`, want: Path{Object: "Paging File", HasInstance: true, Instance: `\??\C:\pagefile.sys`, Counter: "% Usage"}},
		{in: `\Network Interface(Adapter #x)\Bytes Total/sec`, want: Path{Object: "Network Interface", HasInstance: true, Instance: "Adapter #x", Counter: "Bytes Total/sec"}},
		// A name that ends like an index keeps an explicit #0.
		{in: `\0(#0#0)\0`, want: Path{Object: "0", HasInstance: true, Instance: "#0", Counter: "0"}},
		{in: `\Process(a#5#0)\x`, want: Path{Object: "Process", HasInstance: true, Instance: "a#5", Counter: "x"}},
		{in: `\a(p/b/c)\d`, want: Path{Object: "a", HasInstance: true, Parent: "p", Instance: "b/c", Counter: "d"}},
		// Index names, as perfcalc gives objects and counters without a name table.
		{in: `\#238(0)\#6`, want: Path{Object: "#238", HasInstance: true, Instance: "0", Counter: "#6"}},
		{in: `\PhysicalDisk(0 C:)\Avg. Disk sec/Read`, want: Path{Object: "PhysicalDisk", HasInstance: true, Instance: "0 C:", Counter: "Avg. Disk sec/Read"}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			have, err := Parse(tc.in)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(have, tc.want) {
				t.Fatalf("have %+v\nwant %+v", have, tc.want)
			}
			str := tc.str
			if str == "" {
				str = tc.in
			}
			if s := have.String(); s != str {
				t.Errorf("String: have %q, want %q", s, str)
			}
			again, err := Parse(have.String())
			if err != nil || !reflect.DeepEqual(again, have) {
				t.Errorf("Parse(String()) = %+v, %v; want %+v", again, err, have)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in  string
		pos int
		msg string
	}{
		{"", 0, `starts with \`},
		{`Processor\% Processor Time`, 0, `starts with \`},
		{`\\`, 2, "followed by"},
		{`\\machine`, 9, "followed by"},
		{`\\\Memory\Available Bytes`, 2, "empty machine name"},
		{`\Memory`, 7, `missing \counter`},
		{`\\m\Memory`, 10, `missing \counter`},
		{`\Memory\`, 8, "empty counter name"},
		{`\\Processor(_Total)\`, 20, `missing \counter`}, // \\ starts a machine name
		{`\(x)\c`, 1, "empty object name"},
		{`\\m\\c`, 4, "empty object name"},
		{`\Processor()\c`, 11, "empty instance name"},
		{`\Processor(_Total\c`, 17, `must end just before \counter`},
		{`\Processor(_Total)x\c`, 19, `must end just before \counter`},
		{`\Processor)\c`, 10, `")" without "("`},
		{`\Thread(/1)\c`, 8, "empty parent"},
		{`\Thread(p/)\c`, 10, "empty instance name after /"},
		{`\Process(#2)\c`, 9, "empty instance name before #"},
		{`\Process(x#99999999999)\c`, 11, "too large"},
		{`\Process(x#2147483648)\c`, 11, "too large"}, // 2^31
		{`\Process(x#000000000000000000002147483648)\c`, 11, "too large"},
		{"\\Mem\xffory\\c", 4, "UTF-8"},
		{`\` + strings.Repeat("a", MaxLength), MaxLength, "longer than"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			_, err := Parse(tc.in)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("have error %v, want a *Error", err)
			}
			if pe.Pos != tc.pos || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("have position %d, %q; want position %d, a message with %q", pe.Pos, pe.Msg, tc.pos, tc.msg)
			}
			if !strings.Contains(err.Error(), "at position "+strconv.Itoa(tc.pos)) {
				t.Errorf("error text %q does not name the position", err)
			}
		})
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"*", "", true},
		{"*", "anything", true},
		{"pro*", "Processor", true},
		{"PRO*", "processor", true},
		{"pro*", "Memory", false},
		{"*sor", "Processor", true},
		{"p*c*r", "Processor", true},
		{"p*x*r", "Processor", false},
		{"_Total", "_total", true},
		{"_Total", "_Totals", false},
		{"a**b", "ab", true},
		{"a*b*c", "aXbYbZc", true},
		{"a*b*c", "aXbYbZ", false},
		{"*é*", "CAFÉ", true},
		{"straße", "STRASSE", false}, // simple folding only, like strings.EqualFold
		{"", "", true},
		{"", "x", false},
	} {
		if have := Match(tc.pattern, tc.name); have != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.pattern, tc.name, have, tc.want)
		}
	}
}

func TestMatchIsNotExponential(t *testing.T) {
	// A pattern that makes a naive recursive matcher take 2^n steps.
	pattern := strings.Repeat("a*", 30) + "b"
	name := strings.Repeat("a", 5000)
	if Match(pattern, name) {
		t.Fatal("matched, want no match")
	}
}

func TestMatches(t *testing.T) {
	parse := func(s string) Path {
		p, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		return p
	}
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{`\Process(*)\% Processor Time`, `\\M\Process(svchost#3)\% Processor Time`, true},
		{`\process(SVCHOST)\% processor time`, `\\M\Process(svchost)\% Processor Time`, true},
		{`\Process(svchost)\% Processor Time`, `\\M\Process(svchost#1)\% Processor Time`, false},
		{`\Process(svchost#1)\% Processor Time`, `\\M\Process(svchost#1)\% Processor Time`, true},
		{`\Process(svchost#*)\% Processor Time`, `\\M\Process(svchost#4)\% Processor Time`, true},
		{`\Process(svc*)\% Processor Time`, `\\M\Process(svchost#4)\% Processor Time`, true},
		{`\Process(*)\*`, `\\M\Process(System)\ID Process`, true},
		{`\Process(*)\ID*`, `\\M\Process(System)\Handle Count`, false},
		{`\\N\Process(*)\*`, `\\M\Process(System)\ID Process`, false},
		{`\\m\Process(*)\*`, `\\M\Process(System)\ID Process`, true},
		{`\Memory\*`, `\\M\Memory\Available Bytes`, true},
		{`\Memory\*`, `\\M\Process(x)\Available Bytes`, false},
		{`\Process\*`, `\\M\Process(x)\ID Process`, false},
		{`\Thread(*/*)\*`, `\Thread(explorer/3)\ID Thread`, true},
		{`\Thread(explorer/*)\*`, `\Thread(explorer/3)\ID Thread`, true},
		{`\Thread(explorer/*)\*`, `\Thread(svchost/3)\ID Thread`, false},
		{`\Thread(*)\*`, `\Thread(svchost/3#2)\ID Thread`, true},
		{`\Thread(3)\*`, `\Thread(svchost/3)\ID Thread`, false},
	} {
		if have := parse(tc.pattern).Matches(parse(tc.path)); have != tc.want {
			t.Errorf("%s matches %s: have %v, want %v", tc.pattern, tc.path, have, tc.want)
		}
	}
}

func TestHasWildcard(t *testing.T) {
	for in, want := range map[string]bool{
		`\Process(*)\x`:         true,
		`\Process(a#*)\x`:       true,
		`\Thread(*/1)\x`:        true,
		`\Process(a)\*`:         true,
		`\Process(a)\x`:         false,
		`\Memory\Available MBs`: false,
	} {
		p, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if p.HasWildcard() != want {
			t.Errorf("%s: HasWildcard = %v, want %v", in, !want, want)
		}
	}
}

func TestParseAllocations(t *testing.T) {
	const in = `\\ZACH-PC\Thread(svchost/0#3)\Context Switches/sec`
	buf := make([]byte, 0, 128)
	allocs := testing.AllocsPerRun(100, func() {
		p, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		buf = p.AppendTo(buf[:0])
		_ = Match("con*sec", p.Counter)
	})
	if allocs != 0 {
		t.Errorf("Parse + AppendTo + Match: %v allocations, want 0", allocs)
	}
}

// TestNoFmtOrOS: the package imports only the standard library (without fmt
// and os, which would bloat the WebAssembly module) and perfcalc's engine.
func TestNoFmtOrOS(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

// joinInstance is SplitInstance's parts joined again: parent/name#index,
// as relog -f bin writes an instance name from a column's parts.
func joinInstance(parent, name string, index int) string {
	if parent != "" {
		name = parent + "/" + name
	}
	if index > 0 {
		name += "#" + strconv.Itoa(index)
	}
	return name
}

func TestSplitInstance(t *testing.T) {
	for _, tc := range []struct {
		full, parent, name string
		index              int
	}{
		{"_Total", "", "_Total", 0},
		{"svchost/0#3", "svchost", "0", 3},
		{"chrome#12", "", "chrome", 12},
		{"a#b", "", "a#b", 0},
		{`\??\C:\pagefile.sys`, "", `\??\C:\pagefile.sys`, 0},
		{"a (x86)/b/c", "a (x86)", "b/c", 0},
		{"", "", "", 0},
		// What Parse refuses, and "#*", stay in the name.
		{"/x", "", "/x", 0},
		{"p/", "", "p/", 0},
		{"#4", "", "#4", 0},
		{"a#*", "", "a#*", 0},
		{"a#99999999999", "", "a#99999999999", 0},
		{"p/#3", "p", "#3", 0},
		// Only the indices PDH's numbering writes: a name that ends in
		// #0 or in a number with leading zeros keeps it (issue 32, item
		// 18: h#0 became h).
		{"h#0", "", "h#0", 0},
		{"h#00", "", "h#00", 0},
		{"h#01", "", "h#01", 0},
		{"p/h#007", "p", "h#007", 0},
		{"h#10", "", "h", 10},
	} {
		parent, name, index := SplitInstance(tc.full)
		if parent != tc.parent || name != tc.name || index != tc.index {
			t.Errorf("SplitInstance(%q) = %q, %q, %d; want %q, %q, %d", tc.full, parent, name, index, tc.parent, tc.name, tc.index)
		}
		if joined := joinInstance(parent, name, index); joined != tc.full {
			t.Errorf("SplitInstance(%q) joins again as %q", tc.full, joined)
		}
		if allocs := testing.AllocsPerRun(10, func() { SplitInstance(tc.full) }); allocs != 0 {
			t.Errorf("SplitInstance(%q) allocates %v times", tc.full, allocs)
		}
	}
}
