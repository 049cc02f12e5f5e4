package longform

import (
	"os"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/importban"
)

// TestImports: the package keeps to what the WebAssembly module may link,
// so that the Python package's tables can come from the module.
func TestImports(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

// TestNewSeries: a series takes the parts it is given as they are, even
// where its path would read back otherwise (an object with "(" in its name,
// a counter with a backslash, a log's machine without \\).
func TestNewSeries(t *testing.T) {
	for _, tc := range []struct {
		path  string
		parts counterpath.Path
		want  Series
		full  string
	}{
		{`\\GEORGIS3\Processor(_Total)\% Processor Time`,
			counterpath.Path{Machine: "GEORGIS3", Object: "Processor", HasInstance: true, Instance: "_Total", Counter: "% Processor Time"},
			Series{Machine: "GEORGIS3", Object: "Processor", HasInstance: true, Instance: "_Total", Counter: "% Processor Time"}, "_Total"},
		{`\\ZACH-PC\Thread(svchost/0#3)\Context Switches/sec`,
			counterpath.Path{Machine: "ZACH-PC", Object: "Thread", HasInstance: true, Parent: "svchost", Instance: "0", Index: 3, Counter: "Context Switches/sec"},
			Series{Machine: "ZACH-PC", Object: "Thread", HasInstance: true, Parent: "svchost", Instance: "0", Index: 3, Counter: "Context Switches/sec"}, "svchost/0#3"},
		{`\\ZACH-PC\Memory\Available Bytes`,
			counterpath.Path{Machine: "ZACH-PC", Object: "Memory", Counter: "Available Bytes"},
			Series{Machine: "ZACH-PC", Object: "Memory", Counter: "Available Bytes"}, ""},
		{`\Paging File(\??\C:\pagefile.sys)\% Usage`,
			counterpath.Path{Object: "Paging File", HasInstance: true, Instance: `\??\C:\pagefile.sys`, Counter: "% Usage"},
			Series{Object: "Paging File", HasInstance: true, Instance: `\??\C:\pagefile.sys`, Counter: "% Usage"}, `\??\C:\pagefile.sys`},
		{`HOST\Odd(1)(x)\a\b`,
			counterpath.Path{Machine: "HOST", Object: "Odd(1)", HasInstance: true, Instance: "x", Counter: `a\b`},
			Series{Machine: "HOST", Object: "Odd(1)", HasInstance: true, Instance: "x", Counter: `a\b`}, "x"},
		{`\o(i#*)\c`,
			counterpath.Path{Object: "o", HasInstance: true, Instance: "i", Index: counterpath.AnyIndex, Counter: "c"},
			Series{Object: "o", HasInstance: true, Instance: "i", Counter: "c"}, "i"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			have := NewSeries(tc.path, &tc.parts, engine.CounterType(0x00010000))
			tc.want.Path, tc.want.Type, tc.want.TypeName = tc.path, 0x00010000, "PERF_COUNTER_RAWCOUNT"
			if have != tc.want {
				t.Errorf("have %+v\nwant %+v", have, tc.want)
			}
			if f := have.FullInstance(); f != tc.full {
				t.Errorf("FullInstance: have %q, want %q", f, tc.full)
			}
		})
	}
}

// TestClock: local times of a log in US Eastern time become UTC across both
// changes of 2013 (March 10 02:00 EST → EDT, November 3 02:00 EDT → EST).
func TestClock(t *testing.T) {
	eastern := blg.TimeZone{Bias: 300, StandardDate: wintype.SystemTime{Month: 11, Day: 1, Hour: 2},
		DaylightDate: wintype.SystemTime{Month: 3, Day: 2, Hour: 2}, DaylightBias: -60}
	ft := func(y, mo, d, h, mi int) int64 {
		days := int64(0)
		for yy := 1601; yy < y; yy++ {
			days += 365
			if yy%4 == 0 && (yy%100 != 0 || yy%400 == 0) {
				days++
			}
		}
		mdays := []int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			mdays[1] = 29
		}
		for m := 1; m < mo; m++ {
			days += int64(mdays[m-1])
		}
		days += int64(d - 1)
		return ((days*24+int64(h))*60 + int64(mi)) * ticksPerMinute
	}
	c := NewClock(&eastern)
	for i, tc := range []struct{ local, utc int64 }{
		{ft(2013, 2, 19, 18, 50), ft(2013, 2, 19, 23, 50)},  // EST
		{ft(2013, 3, 10, 2, 30), ft(2013, 3, 10, 7, 30)},    // skipped: standard bias
		{ft(2013, 8, 1, 12, 0), ft(2013, 8, 1, 16, 0)},      // EDT
		{ft(2013, 11, 3, 1, 15), ft(2013, 11, 3, 5, 15)},    // first 01:15 (EDT)
		{ft(2013, 11, 3, 1, 45), ft(2013, 11, 3, 5, 45)},    // first 01:45 (EDT)
		{ft(2013, 11, 3, 1, 15), ft(2013, 11, 3, 6, 15)},    // again 01:15, now EST
		{ft(2013, 11, 3, 2, 15), ft(2013, 11, 3, 7, 15)},    // EST
		{ft(2013, 12, 24, 23, 59), ft(2013, 12, 25, 4, 59)}, // EST
	} {
		if have := c.UTC(tc.local); have != tc.utc {
			t.Errorf("%d: have UTC %d, want %d (%+d min)", i, have, tc.utc, (have-tc.utc)/ticksPerMinute)
		}
	}
	if have, want := FixedClock(-120).UTC(ft(2020, 1, 1, 2, 0)), ft(2020, 1, 1, 0, 0); have != want {
		t.Errorf("fixed clock: have %d, want %d", have, want)
	}
	if have := UnixMicros(ft(1970, 1, 1, 0, 1)); have != 60_000_000 {
		t.Errorf("UnixMicros: have %d, want 60000000", have)
	}
	if have := UnixMicros(unixEpoch - 1); have != -1 {
		t.Errorf("UnixMicros rounds down: have %d, want -1", have)
	}
}

// TestFieldsDocumented: the package documentation's column table lists the
// columns of Fields, in order, with their Arrow types.
func TestFieldsDocumented(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(strings.TrimPrefix(line, "//\t"))
		if strings.HasPrefix(line, "//\t") && !strings.HasPrefix(line, "//\t ") && len(f) >= 2 {
			names = append(names, f[0])
		}
	}
	if len(names) != len(Fields) {
		t.Fatalf("doc.go lists %d columns %q, Fields has %d", len(names), names, len(Fields))
	}
	for i, f := range Fields {
		if names[i] != f.Name {
			t.Errorf("column %d: doc.go says %q, Fields %q", i, names[i], f.Name)
		}
	}
}
