package relog

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/tools/encode"
)

const (
	testLocal = 130057734178440000 // 02/19/2013 18:50:17.844
	testUTC   = testLocal + 8*3600*ticksPerSecond
)

func open(t *testing.T, log []byte, opts Options) *Converter {
	t.Helper()
	c, err := New(bytes.NewReader(log), int64(len(log)), opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func csvText(t *testing.T, log []byte, opts Options, f Format) (string, error) {
	t.Helper()
	var b bytes.Buffer
	err := open(t, log, opts).Write(&b, f)
	return b.String(), err
}

func TestParseTime(t *testing.T) {
	const day = 24 * 3600 * ticksPerSecond
	midnight := int64(testLocal - (18*3600+50*60+17)*ticksPerSecond - 8440000)
	for _, tc := range []struct {
		in   string
		want int64 // 0: an error
	}{
		{"02/19/2013 18:50:17.844", testLocal},
		{"2/19/2013 18:50:17.844", testLocal},
		{"02/19/2013 18:50:17", testLocal - 8440000},
		{"02/19/2013 18:50", testLocal - 178440000},
		{"02/19/2013", midnight},
		{"2/19/2013 6:50:17 PM", testLocal - 8440000},
		{"2/19/2013 12:00:00 AM", midnight},
		{"2/19/2013 12:00:00 PM", midnight + day/2},
		{"2013-02-19T18:50:17.844", testLocal},
		{"2013-02-19 18:50:17.8440000", testLocal},
		{"2013-02-19T18:50:17.8441234", testLocal + 1234},
		{"2013-02-19", midnight},
		{"2012-02-29", midnight - 356*day},
		{"02/30/2013", 0},
		{"13/01/2013", 0},
		{"02/19/2013 24:00:00", 0},
		{"02/19/2013 18:60:00", 0},
		{"02/19/13", 0},
		{"2013-2-19", 0},
		{"02/19/2013 18:50:17.844 XM", 0},
		{"02/19/2013 13:00:00 PM", 0},
		{"2013-02-19T18:50:17.12345678", 0},
		{"", 0},
		{"yesterday", 0},
	} {
		t.Run(tc.in, func(t *testing.T) {
			have, err := ParseTime(tc.in)
			if tc.want == 0 {
				if err == nil || !errors.Is(err, ErrTime) {
					t.Errorf("have %d, %v; want an ErrTime", have, err)
				}
				return
			}
			if err != nil || have != tc.want {
				t.Errorf("have %d, %v; want %d", have, err, tc.want)
			}
		})
	}
}

// TestSelection checks -b, -e and -t: which samples are kept, and that
// each value is computed from the previous kept sample.
func TestSelection(t *testing.T) {
	log := exampleLog(10)
	s := int64(ticksPerSecond)
	for _, tc := range []struct {
		name string
		opts Options
		want []int // indexes of the kept samples
	}{
		{"all", Options{}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"every 3", Options{Every: 3}, []int{0, 3, 6, 9}},
		{"every 4", Options{Every: 4}, []int{0, 4, 8}},
		{"begin", Options{Begin: testLocal + 7*s}, []int{7, 8, 9}},
		{"begin between samples", Options{Begin: testLocal + 6*s + 1}, []int{7, 8, 9}},
		{"end", Options{End: testLocal + 2*s}, []int{0, 1, 2}},
		{"begin, end and every 2", Options{Begin: testLocal + 3*s, End: testLocal + 8*s, Every: 2}, []int{3, 5, 7}},
		{"nothing", Options{Begin: testLocal + 20*s}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := open(t, log, tc.opts)
			if n, _, _ := c.Samples(); n != len(tc.want) {
				t.Errorf("Samples: have %d, want %d", n, len(tc.want))
			}
			var have []int
			var prev []Cell
			for c.Next() {
				row := c.Row()
				have = append(have, row.Index)
				if want := int64(testLocal + int64(row.Index)*s); row.Time != want {
					t.Errorf("row %d: time %d, want %d", row.Index, row.Time, want)
				}
				for i, cell := range row.Cells {
					in := engine.Input{Counter: cell.Counter, New: cell.Raw}
					if prev != nil {
						in.HasOld, in.Old = true, prev[i].Raw
					}
					if want := engine.Compute(&in, 0); cell.Result != want || !cell.Present {
						t.Errorf("row %d column %d: have %+v, want %+v", row.Index, i, cell.Result, want)
					}
				}
				prev = append(prev[:0], row.Cells...)
			}
			if c.Err() != nil {
				t.Fatal(c.Err())
			}
			if !equalInts(have, tc.want) {
				t.Errorf("kept samples %v, want %v", have, tc.want)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// instanceLog is a log of one wildcard PERF_COUNTER_RAWCOUNT... no: of
// one wildcard rate, whose samples hold the given instance names.
func instanceLog(samples ...[]string) []byte {
	l := newLog(pacific, testUTC)
	l.record(0x20, testLocal, counterList(
		counterSpec{Flags: 1, Type: 0x10410500, TimeBase: 1000, Machine: `\\H`, Object: "Process", Instance: "*", Counter: "IO/sec"},
	))
	for i, names := range samples {
		ts := int64(testLocal + i*ticksPerSecond)
		var items []item
		for j, n := range names {
			items = append(items, item{n, uint64(10*i + j), uint64(1000 * i)})
		}
		l.record(0x22, ts, sampleRecord(multiRec(0, ts, items...)))
	}
	return l.bytes()
}

func TestInstances(t *testing.T) {
	for _, tc := range []struct {
		name    string
		samples [][]string
		want    string
	}{
		{
			name:    "an instance appears, leaves and comes back",
			samples: [][]string{{"a"}, {"a", "b"}, {"a", "b"}, {"a"}, {"b", "a"}},
			want: `"(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\H\Process(a)\IO/sec","\\H\Process(b)\IO/sec"
"02/19/2013 18:50:17.844"," ",""
"02/19/2013 18:50:18.844","10"," "
"02/19/2013 18:50:19.844","10","10"
"02/19/2013 18:50:20.844","10",""
"02/19/2013 18:50:21.844","11"," "
`,
		},
		{
			// In sample 1, svchost#1 is the second svchost: its
			// value (11) is one above the first's (10).
			name:    "duplicate names are numbered",
			samples: [][]string{{"svchost", "svchost", "x"}, {"svchost", "svchost"}},
			want: `"(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\H\Process(svchost)\IO/sec","\\H\Process(svchost#1)\IO/sec","\\H\Process(x)\IO/sec"
"02/19/2013 18:50:17.844"," "," "," "
"02/19/2013 18:50:18.844","10","10",""
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have, err := csvText(t, instanceLog(tc.samples...), Options{}, CSV)
			if err != nil {
				t.Fatal(err)
			}
			have = strings.ReplaceAll(have, "\r\n", "\n")
			if have != tc.want {
				t.Errorf("have\n%s\nwant\n%s", have, tc.want)
			}
		})
	}
}

func TestFilters(t *testing.T) {
	log := exampleLog(2)
	for _, tc := range []struct {
		patterns []string
		want     []string
	}{
		{nil, []string{`\\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length`, `\\HOST\Processor(0)\% Processor Time`, `\\HOST\Processor(_Total)\% Processor Time`}},
		{[]string{`\processor(*)\*`}, []string{`\\HOST\Processor(0)\% Processor Time`, `\\HOST\Processor(_Total)\% Processor Time`}},
		{[]string{`\\*\Processor(_TOTAL)\% processor time`}, []string{`\\HOST\Processor(_Total)\% Processor Time`}},
		{[]string{`\\host\PhysicalDisk(*)\avg*`, `\Processor(0)\*`}, []string{`\\HOST\PhysicalDisk(0 C:)\Avg. Disk Queue Length`, `\\HOST\Processor(0)\% Processor Time`}},
		{[]string{`\\OTHER\Processor(*)\*`}, nil},
		{[]string{`\Memory\*`}, nil},
	} {
		t.Run(strings.Join(tc.patterns, " "), func(t *testing.T) {
			c := open(t, log, Options{Counters: MustPaths(tc.patterns...)})
			var have []string
			for _, col := range c.Columns() {
				have = append(have, col.Path)
			}
			if strings.Join(have, "|") != strings.Join(tc.want, "|") {
				t.Errorf("have %q, want %q", have, tc.want)
			}
		})
	}
}

// TestBadStatus: a raw record with a bad CStatus has no value, and the
// value after it has none either (it would be computed from bad data).
func TestBadStatus(t *testing.T) {
	l := newLog(pacific, testUTC)
	l.record(0x20, testLocal, counterList(
		counterSpec{Type: 0x21510500, TimeBase: 10_000_000, Machine: `\\M`, Object: "Processor", Instance: "_Total", Counter: "% Processor Time"},
	))
	statuses := []uint32{0, 0, 0x800007D0, 0, 0}
	for i, st := range statuses {
		ts := int64(testLocal + i*ticksPerSecond)
		l.record(0x22, ts, sampleRecord(rawRec(st, ts, uint64(2_500_000*i), uint64(testUTC+i*ticksPerSecond))))
	}
	have, err := csvText(t, l.bytes(), Options{}, CSV)
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, line := range strings.Split(strings.TrimSpace(have), "\r\n")[1:] {
		_, v, _ := strings.Cut(line, ",")
		cells = append(cells, v)
	}
	want := []string{`" "`, `"75"`, `" "`, `" "`, `"75"`}
	if strings.Join(cells, " ") != strings.Join(want, " ") {
		t.Errorf("have %v, want %v", cells, want)
	}
}

// TestDamage: a log cut in the middle of its samples gives the rows before
// the cut and an error; a log that is not a .blg is refused by New.
func TestDamage(t *testing.T) {
	log := exampleLog(1500) // about 5 buffers
	if len(log) < 4*bufSize {
		t.Fatalf("the test log has %d bytes, want at least 4 buffers", len(log))
	}
	for _, cut := range []int{3*bufSize + 1000, 2*bufSize + bufHeader + 100, 2 * bufSize} {
		t.Run("cut at "+itoa(cut), func(t *testing.T) {
			c := open(t, log[:cut], Options{})
			var b bytes.Buffer
			err := c.Write(&b, CSV)
			if err == nil && cut%bufSize != 0 {
				t.Fatal("no error for a log cut in a buffer")
			}
			if err != nil && !errors.Is(err, engine.ErrTruncated) && !errors.Is(err, engine.ErrMalformed) {
				t.Errorf("have %v, want a truncated or malformed log", err)
			}
			if (err == nil) != (c.ScanErr() == nil) || err != nil && err.Error() != c.ScanErr().Error() {
				t.Errorf("the readings disagree: Write %v, ScanErr %v", err, c.ScanErr())
			}
			rows := strings.Count(b.String(), "\r\n") - 1
			n, _, _ := c.Samples()
			if rows != n || rows < 500 {
				t.Errorf("have %d rows, Samples %d; want the same, at least 500", rows, n)
			}
			whole, _ := csvText(t, log, Options{}, CSV)
			if !strings.HasPrefix(whole, b.String()) {
				t.Error("the rows before the damage differ from the whole log's")
			}
		})
	}
	for _, bad := range [][]byte{nil, []byte("\"(PDH-CSV 4.0)\",\"x\"\r\n"), make([]byte, bufSize)} {
		if _, err := New(bytes.NewReader(bad), int64(len(bad)), Options{}); err == nil {
			t.Errorf("New accepted %d bytes that are not a log", len(bad))
		}
	}
}

func itoa(n int) string { return string(appendDigits(nil, int64(n), 1)) }

// TestWholeObjects builds a Vista-style log of whole objects with the
// project's V1 encoder: a single-instance object and a multi-instance one
// whose instances come and go, named through the log's name table.
func TestWholeObjects(t *testing.T) {
	const (
		memory, pages, committed = 4, 40, 26
		process, procTime, base  = 230, 6, 7
	)
	names := []string{"4", "Memory", "6", "% Processor Time", "26", "Committed Bytes", "40", "Pages/sec", "230", "Process"}
	blob := func(i int, insts ...string) []byte {
		pt := int64(1000 * i)
		mem := encode.V1Object{
			ObjectNameTitleIndex: memory, NumInstances: -1, DefaultCounter: -1,
			Counters: []encode.V1Counter{
				{CounterNameTitleIndex: pages, CounterType: engine.CounterCounter, CounterSize: 4, CounterOffset: 8},
				{CounterNameTitleIndex: committed, CounterType: engine.CounterLargeRawcount, CounterSize: 8, CounterOffset: 16},
			},
			Instances: []encode.V1Instance{{Values: []uint64{uint64(50 * i), 1 << 40}}},
		}
		proc := encode.V1Object{
			ObjectNameTitleIndex: process, NumInstances: int32(len(insts)), DefaultCounter: -1,
			Counters: []encode.V1Counter{
				{CounterNameTitleIndex: procTime, CounterType: engine.Timer100ns, CounterSize: 8, CounterOffset: 8},
				{CounterNameTitleIndex: base, CounterType: engine.AverageBase, CounterSize: 4, CounterOffset: 16},
			},
		}
		for j, n := range insts {
			proc.Instances = append(proc.Instances, encode.V1Instance{Name: n, UniqueID: -1, Values: []uint64{uint64(2_500_000 * i * (j + 1)), 1}})
		}
		var out [][]byte
		for _, o := range []encode.V1Object{mem, proc} {
			b, err := encode.EncodeV1(&encode.V1Blob{SystemName: "BOX", PerfTime: pt, PerfFreq: 1000, PerfTime100nSec: int64(testUTC + i*ticksPerSecond), Objects: []encode.V1Object{o}})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, wholeRec(b))
		}
		return sampleRecord(out...)
	}
	l := newLog(pacific, testUTC)
	l.record(0x20, testLocal, counterList(
		counterSpec{Flags: 0x10, Type: 0x10, Machine: `\\BOX`, Object: "Memory", Counter: "*"},
		counterSpec{Flags: 0x10, Type: 0x10, Machine: `\\BOX`, Object: "Process", Instance: "*", Counter: "*"},
	))
	l.record(0x24, testLocal, nameChunk(`\\BOX`, names...))
	for i, insts := range [][]string{{"a", "a"}, {"a", "a", "b"}, {"a"}, {"a", "a", "b"}} {
		l.record(0x22, int64(testLocal+i*ticksPerSecond), blob(i, insts...))
	}
	have, err := csvText(t, l.bytes(), Options{}, CSV)
	if err != nil {
		t.Fatal(err)
	}
	// Pages/sec: 50 per second. % Processor Time of instance j (0-based
	// among the sample's instances): 25·(j+1) % of the time, when it was
	// the same instance in the sample before.
	want := `"(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\BOX\Memory\Pages/sec","\\BOX\Memory\Committed Bytes","\\BOX\Process(a)\% Processor Time","\\BOX\Process(a#1)\% Processor Time","\\BOX\Process(b)\% Processor Time"
"02/19/2013 18:50:17.844"," ","1099511627776"," "," ",""
"02/19/2013 18:50:18.844","50","1099511627776","25","50"," "
"02/19/2013 18:50:19.844","50","1099511627776","25","",""
"02/19/2013 18:50:20.844","50","1099511627776","25"," "," "
`
	if have = strings.ReplaceAll(have, "\r\n", "\n"); have != want {
		t.Errorf("have\n%s\nwant\n%s", have, want)
	}
}

// TestNextAllocs: once warm, reading and computing a row of a raw-record
// log allocates nothing, wildcard instances included.
func TestNextAllocs(t *testing.T) { nextAllocs(t, open(t, exampleLog(300), Options{})) }

// nextAllocs fails the test unless c's Next allocates nothing per row once
// warm (c must have more than 210 rows).
func nextAllocs(t *testing.T, c *Converter) {
	t.Helper()
	for i := 0; i < 10; i++ {
		if !c.Next() {
			t.Fatal(c.Err())
		}
	}
	allocs := testing.AllocsPerRun(200, func() {
		if !c.Next() {
			t.Fatal("the log ended early", c.Err())
		}
	})
	if allocs != 0 {
		t.Errorf("Next allocates %v times per row, want 0", allocs)
	}
}

// TestColumnPartsOfInstances: a wildcard entry's instance names are split
// into parent, name and #n for the columns' parts, and -c selects on those
// parts (a parent pattern selects the parent's instances).
func TestColumnPartsOfInstances(t *testing.T) {
	log := instanceLog([]string{"svchost/3", "svchost/3", `\??\C:\pagefile.sys`, "a (x86)", "n#7"})
	c := open(t, log, Options{})
	type parts struct {
		parent, instance string
		index            int
	}
	var have []parts
	for _, col := range c.Columns() {
		p := col.Parts
		if p.Machine != "H" || p.Object != "Process" || p.Counter != "IO/sec" || !p.HasInstance {
			t.Errorf("%s: parts %+v", col.Path, p)
		}
		have = append(have, parts{p.Parent, p.Instance, p.Index})
	}
	want := []parts{{"svchost", "3", 0}, {"svchost", "3", 1}, {"", `\??\C:\pagefile.sys`, 0}, {"", "a (x86)", 0}, {"", "n", 7}}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("have parts %+v\nwant %+v", have, want)
	}
	for pattern, paths := range map[string][]string{
		`\Process(svchost/*)\IO/sec`: {`\\H\Process(svchost/3)\IO/sec`, `\\H\Process(svchost/3#1)\IO/sec`},
		`\Process(svchost/3#1)\*`:    {`\\H\Process(svchost/3#1)\IO/sec`},
		`\\h\process(n#7)\io/SEC`:    {`\\H\Process(n#7)\IO/sec`},
		`\Process(A*)\IO/sec`:        {`\\H\Process(a (x86))\IO/sec`},
	} {
		p, err := counterpath.Parse(pattern)
		if err != nil {
			t.Fatal(err)
		}
		var cols []string
		for _, col := range open(t, log, Options{Counters: []counterpath.Path{p}}).Columns() {
			cols = append(cols, col.Path)
		}
		if !reflect.DeepEqual(cols, paths) {
			t.Errorf("-c %s: have %q, want %q", pattern, cols, paths)
		}
	}
}

// TestColumnPartsOfAnEntry: a single counter's parts are its counter-list
// entry's, the machine without \\ and an index of 2^31 or more held at
// 2^31 − 1 (32 bits in the hosts' parts and the long table).
func TestColumnPartsOfAnEntry(t *testing.T) {
	for _, tc := range []struct {
		index uint32
		want  int
	}{{0, 0}, {3, 3}, {1<<31 - 1, 1<<31 - 1}, {1 << 31, 1<<31 - 1}, {1<<32 - 1, 1<<31 - 1}} {
		l := newLog(pacific, testUTC)
		l.record(0x20, testLocal, counterList(counterSpec{Type: 0x10410500, TimeBase: 1000, Machine: `\\M`, Object: "Thread",
			Parent: "p", Instance: "i", Index: tc.index, Counter: "Context Switches/sec"}))
		l.record(0x22, testLocal, sampleRecord(rawRec(0, testLocal, 1, 2)))
		cols := open(t, l.bytes(), Options{}).Columns()
		if len(cols) != 1 {
			t.Fatalf("%d columns", len(cols))
		}
		want := counterpath.Path{Machine: "M", Object: "Thread", HasInstance: true, Parent: "p", Instance: "i", Index: tc.want, Counter: "Context Switches/sec"}
		if !reflect.DeepEqual(cols[0].Parts, want) {
			t.Errorf("index %d: have %+v, want %+v", tc.index, cols[0].Parts, want)
		}
	}
}
