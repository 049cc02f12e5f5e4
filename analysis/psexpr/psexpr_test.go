package psexpr

import (
	"errors"
	"github.com/perfcalc/perfcalc/tools/timebound"
	"strconv"
	"strings"
	"testing"
	"time"
)

// gb16 is 16 GB as a variable: Go computes gb16 * 0.75 * 0.60 at run
// time, left to right, as PowerShell does.
var gb16 = float64(16 << 30)

var testVars = map[string]Value{
	"PhysicalMemory": Str("16"), "UserVa": Str("2048"), "OS": Str("Windows Server"),
	"PLEHealth": Str("300"), "SampleInterval": Str("60"), "Edge": Boolean(false),
	"CCR": Boolean(false), "MaximumAsyncOperationsTroughput": Str("20"),
}

// TestEvalForms: each form of PAL's threshold code, with the value worked
// out by hand from PowerShell's rules.
func TestEvalForms(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		want       []Call
	}{
		{"literal", `StaticThreshold -CollectionOfCounterInstances $CollectionOfX -Operator 'gt' -Threshold 80`,
			[]Call{{Func: "StaticThreshold", Collection: "CollectionOfX", Operator: "gt", Threshold: 80, GreaterThan: true}}},
		{"unquoted operator, trend", `StaticThreshold -CollectionOfCounterInstances $X -Operator GE -Threshold 0.5 -IsTrendOnly $True`,
			[]Call{{Func: "StaticThreshold", Collection: "X", Operator: "ge", Threshold: 0.5, TrendOnly: true, GreaterThan: true}}},
		{"size suffix", `StaticThreshold -CollectionOfCounterInstances $X -Operator 'gt' -Threshold 100MB`,
			[]Call{{Func: "StaticThreshold", Collection: "X", Operator: "gt", Threshold: 100 << 20, GreaterThan: true}}},
		{"1GB", `StaticThreshold -CollectionOfCounterInstances $X -Operator 'lt' -Threshold 1gb`,
			[]Call{{Func: "StaticThreshold", Collection: "X", Operator: "lt", Threshold: 1 << 30, GreaterThan: true}}},
		{"comments around", "#// example:\n#StaticThreshold -CollectionOfCounterInstances $Y -Operator 'gt' -Threshold 1\nStaticThreshold -CollectionOfCounterInstances $X -Operator 'gt' -Threshold 3000\n#// end",
			[]Call{{Func: "StaticThreshold", Collection: "X", Operator: "gt", Threshold: 3000, GreaterThan: true}}},
		{"collection name with #", `StaticThreshold -CollectionOfCounterInstances $CollectionOfNETCLRMemory#BytesinallHeaps -Operator 'gt' -Threshold 5`,
			[]Call{{Func: "StaticThreshold", Collection: "CollectionOfNETCLRMemory#BytesinallHeaps", Operator: "gt", Threshold: 5, GreaterThan: true}}},
		// 16 × 1024 × 0.05 = 819.2, not under 64.
		{"percent of RAM with If", "$Five = $([Int] $PhysicalMemory * 1024) * 0.05\nIf ($Five -lt 64)\n{\n\t$Five = 64\n}\nStaticThreshold -CollectionOfCounterInstances $C -Operator 'lt' -Threshold $Five",
			[]Call{{Func: "StaticThreshold", Collection: "C", Operator: "lt", Threshold: 819.2, GreaterThan: true}}},
		// 300 × 0.30 = 90, negated.
		{"negated subexpression", "$T = -$([Int]$PLEHealth) * 0.30\nStaticThreshold -CollectionOfCounterInstances $C -Operator 'lt' -Threshold $T -IsTrendOnly $True",
			[]Call{{Func: "StaticThreshold", Collection: "C", Operator: "lt", Threshold: -90, TrendOnly: true, GreaterThan: true}}},
		// (600 / 60) × 500.
		{"division", "$W = (600/[Int]$SampleInterval)*500\nStaticThreshold -CollectionOfCounterInstances $C -Operator 'gt' -Threshold $W",
			[]Call{{Func: "StaticThreshold", Collection: "C", Operator: "gt", Threshold: 5000, GreaterThan: true}}},
		{"If Else on a boolean", "If ($Edge -eq $false){ StaticThreshold -CollectionOfCounterInstances $A -Operator 'gt' -Threshold 1 } Else {StaticThreshold -CollectionOfCounterInstances $A -Operator 'ge' -Threshold 3}",
			[]Call{{Func: "StaticThreshold", Collection: "A", Operator: "gt", Threshold: 1, GreaterThan: true}}},
		{"If not taken", "If ($CCR -eq $True) { StaticThreshold -CollectionOfCounterInstances $A -Operator 'ge' -Threshold 10 }", nil},
		{"ElseIf", "If ($PhysicalMemory -eq '8') { $T = 1 } ElseIf ([int]$PhysicalMemory -gt 8) { $T = 2 } Else { $T = 3 }\nStaticThreshold -CollectionOfCounterInstances $A -Operator 'ge' -Threshold $T",
			[]Call{{Func: "StaticThreshold", Collection: "A", Operator: "ge", Threshold: 2, GreaterThan: true}}},
		{"typed assignment", "[Int] $N = 2.5 * 1\n$M = $N\nStaticThreshold -CollectionOfCounterInstances $A -Operator 'ne' -Threshold $M",
			[]Call{{Func: "StaticThreshold", Collection: "A", Operator: "ne", Threshold: 2, GreaterThan: true}}},
		// [Math]::Round("16", 0) = 16 GB; "WINDOWS SERVER" falls to default: 75 % of it, × 0.60.
		{"switch on ToUpper with default", "$P = $([Math]::Round($PhysicalMemory,0))\n$P = $P * 1GB\n$OS = [string] $OS.ToUpper()\nswitch ($OS)\n{\n  'WINDOWS XP 32-BIT'\n  {$M = 256 * 1MB}\n  default\n  {\n    $M = ($P * 0.75)\n    If ($M -gt 128GB) {$M = 128GB}\n  }\n}\n$S = $M * 0.60\nStaticThreshold -CollectionOfCounterInstances $Pool -Operator 'gt' -Threshold $S",
			[]Call{{Func: "StaticThreshold", Collection: "Pool", Operator: "gt", Threshold: gb16 * 0.75 * 0.60, GreaterThan: true}}},
		// "Wi" is not '32': the 64-bit branch, 0.60 × 8 TB.
		{"Substring", "$B = $OS.substring(0,2)\nIf ($B -eq '32') { $T = 0.60 * 2GB } Else { $T = 0.60 * 8TB }\nStaticThreshold -CollectionOfCounterInstances $V -Operator 'gt' -Threshold $T",
			[]Call{{Func: "StaticThreshold", Collection: "V", Operator: "gt", Threshold: 0.60 * (8 << 40), GreaterThan: true}}},
		{"chart band", `StaticChartThreshold -CollectionOfCounterInstances $C -MinThreshold 0.001 -MaxThreshold 10 -IsOperatorGreaterThan $False -UseMaxValue $True`,
			[]Call{{Func: "StaticChartThreshold", Collection: "C", Min: 0.001, Max: 10, UseMax: true}}},
		{"chart band defaults", `StaticChartThreshold -CollectionOfCounterInstances $C -MinThreshold 50 -MaxThreshold 80 -UseMaxValue $False`,
			[]Call{{Func: "StaticChartThreshold", Collection: "C", Min: 50, Max: 80, GreaterThan: true}}},
		{"-and -or -not", "If ((1 -lt 2) -and -not ($Edge) -or $False) { $T = 7 } Else { $T = 8 }; StaticThreshold -CollectionOfCounterInstances $A -Operator 'gt' -Threshold $T",
			[]Call{{Func: "StaticThreshold", Collection: "A", Operator: "gt", Threshold: 7, GreaterThan: true}}},
		// PowerShell compares a string on the left as strings: "2048" -gt 3000 is "2048" > "3000", false.
		{"string comparison", "If ($UserVa -gt 3000) { $T = 1 } Else { $T = 2 }\nStaticThreshold -CollectionOfCounterInstances $A -Operator 'gt' -Threshold $T",
			[]Call{{Func: "StaticThreshold", Collection: "A", Operator: "gt", Threshold: 2, GreaterThan: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have, err := Eval(tc.code, testVars)
			if err != nil {
				t.Fatal(err)
			}
			if len(have) != len(tc.want) {
				t.Fatalf("have %+v, want %+v", have, tc.want)
			}
			for i := range have {
				if have[i] != tc.want[i] {
					t.Errorf("have %+v\nwant %+v", have[i], tc.want[i])
				}
			}
		})
	}
}

// TestIntCast: [int] rounds half to even, as .NET's conversion does.
func TestIntCast(t *testing.T) {
	for in, want := range map[string]float64{"2.5": 2, "3.5": 4, "-2.5": -2, "2.4999": 2, "'7'": 7, "1KB": 1024} {
		calls, err := Eval("$x = [int]"+in+"\nStaticThreshold -CollectionOfCounterInstances $A -Operator gt -Threshold $x", nil)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if calls[0].Threshold != want {
			t.Errorf("[int]%s: have %v, want %v", in, calls[0].Threshold, want)
		}
	}
}

// withCounts are testVars with two counter collections.
var withCounts = func() map[string]Value {
	m := map[string]Value{"Procs": Counted(9), "Disks": Counted(3)}
	for k, v := range testVars {
		m[k] = v
	}
	return m
}()

// TestEvalCount: QuickSystemOverview.xml's processor queue thresholds read
// the processor count as the count of a collection less one (its _Total);
// the call says which collection it depends on.
func TestEvalCount(t *testing.T) {
	code := "  [Int] $NumberOfLogicalProcessors = $CollectionOfProcessorPercentProcessorTime.Count - 1\n  If ($NumberOfLogicalProcessors -eq 0)\n  {\n    $NumberOfLogicalProcessors = 1\n  }\n  $TenTimesNumberOfProcessors = [Int] $NumberOfLogicalProcessors * 10\n  StaticThreshold -CollectionOfCounterInstances $SystemProcessorQueueLength -Operator 'gt' -Threshold $TenTimesNumberOfProcessors"
	for _, tc := range []struct {
		count int
		want  float64
	}{{9, 80}, {2, 10}, {1, 10}, {0, -10}} {
		calls, err := Eval(code, map[string]Value{"collectionofprocessorpercentprocessortime": Counted(tc.count)})
		if err != nil {
			t.Fatal(err)
		}
		want := Call{Func: "StaticThreshold", Collection: "SystemProcessorQueueLength", Operator: "gt", Threshold: tc.want, GreaterThan: true, Count: "CollectionOfProcessorPercentProcessorTime"}
		if len(calls) != 1 || calls[0] != want {
			t.Errorf("count %d: have %+v, want %+v", tc.count, calls, want)
		}
	}
	// A count read in a branch not taken is no dependency.
	calls, err := Eval("If ($False) { $N = $Procs.Count }\nStaticThreshold -CollectionOfCounterInstances $X -Operator 'gt' -Threshold 5", withCounts)
	if err != nil || len(calls) != 1 || calls[0].Count != "" || calls[0].Threshold != 5 {
		t.Errorf("have %+v, %v; want one call with Count \"\"", calls, err)
	}
}

// TestEvalErrors: what is outside the subset is an *Error naming it and
// where.
func TestEvalErrors(t *testing.T) {
	for _, tc := range []struct {
		code, want string
		pos        int
	}{
		{"For ($i=0;$i -lt $C.Count;$i++) { }", "For is not supported", 0},
		{"CreateAlert -TimeSliceIndex $t", "CreateAlert", 0},
		{"If AvgProcessor > 75 Then\n IsAvgThresholdBroken = True\nEnd If", "expected '(' after If", 3},
		// Without the collection among the variables (Counted), its
		// count is unknown: a loop's variable or one only PAL sets.
		{"[Int] $N = $CollectionOfProcessorPercentProcessorTime.Count - 1", "no counter collection", 11},
		{"$T = $alQuantizedTime.Count", "no counter collection", 5},
		{"$T = $Procs + 1", "collection $Procs used as a value", 5},
		{"$T = $Procs[0]", "collection $Procs used as a value", 5},
		{"$T = $Procs.Count + $Disks.Count", "two collections", 20},
		{"StaticThreshold -CollectionOfCounterInstances $X -Operator 'gt' -Threshold 250 .", "expected a parameter", 79},
		{"StaticThreshold -CollectionOfCounterInstances $X -Operator 'ge -Threshold 20", "unterminated string", 59},
		{"StaticThreshold -CollectionOfCounterInstances $X", "without -Operator", 48},
		{"$T = $Nope * 2", "unknown variable $Nope", 5},
		{"$T = 1 / 0", "division by zero", 7},
		{"$T = [int]3000000000", "range of [int]", 5},
		{"$T = 'a' * 3", "string arithmetic", 9},
		{"$T = $OS.Split(';')", "member .Split", 8},
		{"$T = 1 -match 2", "-match is not supported", 7},
		{"switch -regex ($OS) { }", "expected '('", 7},
		{"$T = (((1", "expected ')'", 9},
		{"}", "unexpected '}'", 0},
	} {
		_, err := Eval(tc.code, withCounts)
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(pe.Msg, tc.want) || pe.Pos != tc.pos {
			t.Errorf("Eval(%q): have %v, want an *Error at byte %d saying %q", tc.code, err, tc.pos, tc.want)
		}
	}
	_, err := Eval("$T = $PhysicalMemoryX", nil)
	var pe *Error
	if !errors.As(err, &pe) || pe.Var != "PhysicalMemoryX" {
		t.Errorf("have %v, want an *Error with Var PhysicalMemoryX", err)
	}
}

// TestEvalBounds: nesting, token count and length are bounded.
func TestEvalBounds(t *testing.T) {
	for _, tc := range []struct{ code, want string }{
		{"$T = " + strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000), "nested deeper"},
		{"$T = " + strings.Repeat("-", 10000) + "1", "nested deeper"},
		{strings.Repeat("If (1) {", 1000) + strings.Repeat("}", 1000), "nested deeper"},
		{"$T = 1" + strings.Repeat("+1", 25000), "tokens"},
		{strings.Repeat(" ", MaxCode+1), "longer than"},
	} {
		_, err := Eval(tc.code, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("have %v, want an error saying %q", err, tc.want)
		}
	}
}

// TestParseNumber: ParseNumber agrees with strconv.ParseFloat where it
// reads a number, and refuses what it cannot convert exactly rounded.
func TestParseNumber(t *testing.T) {
	for _, s := range []string{"0", "1", "0.010", "99.999", "0.029999", "1024", ".5", "5.", "1e3", "2.5E-4", "123456789012345", "0.000000000000000000001", "3000000000", "00012.50"} {
		have, ok := ParseNumber(s)
		want, err := strconv.ParseFloat(s, 64)
		if !ok || err != nil || have != want {
			t.Errorf("ParseNumber(%q) = %v, %v; strconv says %v, %v", s, have, ok, want, err)
		}
	}
	for s, want := range map[string]float64{"1KB": 1024, "100mb": 100 << 20, "1.5GB": 1.5 * (1 << 30), "8TB": 8 << 40, "1PB": 1 << 50} {
		if have, ok := ParseNumber(s); !ok || have != want {
			t.Errorf("ParseNumber(%q) = %v, %v, want %v", s, have, ok, want)
		}
	}
	for _, s := range []string{"", ".", "e5", "1e", "1e1000", "1234567890123456", "1e-30", "0x10", "1_000", "-1", "+1", "1.2.3", "NaN", "Inf", "KB", "1 KB"} {
		if v, ok := ParseNumber(s); ok {
			t.Errorf("ParseNumber(%q) = %v, want refused", s, v)
		}
	}
}

// TestQuote: Quote escapes like strconv.Quote for ASCII without
// backslashes and keeps printable non-ASCII; backslashes stay as written
// (a chart's name is quoted as the threshold file writes it).
func TestQuote(t *testing.T) {
	for _, s := range []string{"abc", `a"b`, "x\n\r\ty", "\x00\x1f\x7f", "é✓"} {
		if have, want := Quote(s), strconv.Quote(s); have != want {
			t.Errorf("Quote(%q) = %s, want %s", s, have, want)
		}
	}
	for s, want := range map[string]string{
		`\System\Processor Queue Length`: `"\System\Processor Queue Length"`,
		`a"b\c`:                          `"a\"b\c"`,
		`\\HOST\Obj(x)\C`:                `"\\HOST\Obj(x)\C"`,
	} {
		if have := Quote(s); have != want {
			t.Errorf("Quote(%s) = %s, want %s", s, have, want)
		}
	}
	if have := Quote("\xff"); have != `"\xff"` {
		t.Errorf("Quote(\\xff) = %s", have)
	}
}

// TestMembersLinear (issue 32, item 7): 9,000 .Trim() calls on a 4 MiB
// question value took 149 s, each member converting the whole string to
// runes; they go through the string once now. Members that go through the
// whole string each time (.ToUpper() 6,000 times) are bounded by the work
// (MaxWork) and refused with an error saying so.
func TestMembersLinear(t *testing.T) {
	vars := map[string]Value{"S": Str(strings.Repeat("x", 4<<20) + "  ")}
	timebound.Within(t, 20*time.Second, "the evaluation", func() {
		calls, err := Eval("$t = $S"+strings.Repeat(".Trim()", 9000)+"\nStaticThreshold -CollectionOfCounterInstances $X -Operator 'gt' -Threshold $t.Length", vars)
		if err != nil || len(calls) != 1 || calls[0].Threshold != 4<<20 {
			t.Errorf("have %v, %v; want one call with the threshold %d", calls, err, 4<<20)
		}
	})
	timebound.Within(t, 20*time.Second, "the evaluation", func() {
		_, err := Eval("$t = $S"+strings.Repeat(".ToUpper()", 6000), vars)
		if err == nil || !strings.Contains(err.Error(), "work allowed") {
			t.Errorf("have %v, want the work refused", err)
		}
	})
}

// TestEnvWork: Evals that share Env.Work share one bound.
func TestEnvWork(t *testing.T) {
	work := 10
	env := Env{Scopes: []map[string]Value{{"s": Str("abcdef")}}, Work: &work}
	code := "$t = $S.ToUpper()"
	if _, err := env.Eval(code); err != nil {
		t.Fatal(err)
	}
	if work != 4 {
		t.Errorf("have %d left, want 4", work)
	}
	if _, err := env.Eval(code); err == nil || !strings.Contains(err.Error(), "work allowed") {
		t.Errorf("have %v, want the work refused", err)
	}
}

// TestSubstringRunes: .Substring counts runes, an invalid byte as one
// (U+FFFD), as string([]rune(s)) does.
func TestSubstringRunes(t *testing.T) {
	for _, tc := range []struct {
		s        string
		start, n int
		want     string
	}{
		{"héllo", 1, 3, "éll"},
		{"héllo", 0, 5, "héllo"},
		{"héllo", 5, 0, ""},
		{"a\xff\xfeb", 1, 2, "\uFFFD\uFFFD"},
		{"a\xff\xfeb", 3, 1, "b"},
	} {
		calls, err := Eval("$t = $S.Substring("+strconv.Itoa(tc.start)+", "+strconv.Itoa(tc.n)+")\nStaticThreshold -CollectionOfCounterInstances $X -Operator 'gt' -Threshold $t.Length", map[string]Value{"S": Str(tc.s)})
		if err != nil || len(calls) != 1 || calls[0].Threshold != float64(tc.n) {
			t.Errorf("%q.Substring(%d, %d): have %v, %v", tc.s, tc.start, tc.n, calls, err)
		}
		if have := runeSlice(tc.s, tc.start, tc.start+tc.n); have != tc.want || have != string([]rune(tc.s)[tc.start:tc.start+tc.n]) {
			t.Errorf("%q.Substring(%d, %d): have %q, want %q", tc.s, tc.start, tc.n, have, tc.want)
		}
	}
}
