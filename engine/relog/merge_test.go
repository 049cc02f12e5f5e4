package relog

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/logtext"
)

// realLogs are the real logs that merge tests read; PAL's holds whole
// objects, the others raw records (PowerShell's of 26 machines).
var realLogs = []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"}

func input(name string, log []byte) Input {
	return Input{R: bytes.NewReader(log), Size: int64(len(log)), Name: name}
}

func merge(t *testing.T, opts Options, logs ...[]byte) *Converter {
	t.Helper()
	ins := make([]Input, len(logs))
	for i, l := range logs {
		ins[i] = input("log"+string(rune('A'+i)), l)
	}
	c, err := Merge(ins, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// output is everything a Converter gives: its -q summary, then its text in
// one format, or its statistics.
func output(t *testing.T, c *Converter, f Format) string {
	t.Helper()
	var b bytes.Buffer
	n, begin, end := c.Samples()
	b.WriteString("===")
	b.Write(logtext.AppendTime(nil, begin))
	b.WriteString(" ")
	b.Write(logtext.AppendTime(nil, end))
	b.WriteString(" " + strconv.Itoa(n) + "\n")
	if f == 255 {
		st, err := c.Statistics()
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range st {
			b.WriteString(c.Columns()[i].Path)
			b.WriteString(" ")
			b.Write(engine.AppendFloat(nil, s.Min, 17))
			b.WriteString(" ")
			b.Write(engine.AppendFloat(nil, s.Max, 17))
			b.WriteString(" ")
			b.Write(engine.AppendFloat(nil, s.Mean, 17))
			b.WriteString(" " + s.MeanStatus.String() + " ")
			b.WriteString(" " + strconv.Itoa(s.Count) + " " + strconv.Itoa(s.Skipped) + "\n")
		}
		return b.String()
	}
	if err := c.Write(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// stats is the pseudo-format of output that prints the statistics.
const stats Format = 255

// sameText fails the test at the first line where have and want differ.
func sameText(t *testing.T, what, have, want string) {
	t.Helper()
	if have == want {
		return
	}
	hl, wl := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(hl) && i < len(wl); i++ {
		if hl[i] != wl[i] {
			t.Fatalf("%s: line %d:\nhave %.400q\nwant %.400q", what, i+1, hl[i], wl[i])
		}
	}
	t.Fatalf("%s: have %d lines, want %d", what, len(hl), len(wl))
}

// mergeOptions are the selections under which merged and single logs are
// compared.
func mergeOptions(t *testing.T) []Options {
	return []Options{
		{},
		{Every: 7},
		{Begin: mustTime(t, "02/19/2013 18:55:00"), End: mustTime(t, "02/19/2013 18:56:00"), Digits: 17},
		{Begin: mustTime(t, "07/03/2007 00:00:00"), Every: 3},
		{Counters: MustPaths(`\Processor(*)\*`, `\\*\PhysicalDisk(*)\Avg. Disk Queue Length`, `\Memory\*`)},
	}
}

func mustTime(t *testing.T, s string) int64 {
	ft, err := ParseTime(s)
	if err != nil {
		t.Fatal(err)
	}
	return ft
}

// TestMergeOneAndSelf: a merge of one log, and of a log with itself (every
// sample of the second is a duplicate of one of the first), gives exactly
// what the log alone gives, in every format, with statistics and -q's
// summary, under every selection.
func TestMergeOneAndSelf(t *testing.T) {
	for _, name := range realLogs {
		log := readCorpus(t, name)
		for _, opts := range mergeOptions(t) {
			for _, f := range []Format{CSV, TSV, JSON, stats} {
				want := output(t, open(t, log, opts), f)
				if strings.Count(want, "\n") < 2 {
					continue // the selection keeps nothing of this log
				}
				sameText(t, name+" merged alone", output(t, merge(t, opts, log), f), want)
				sameText(t, name+" merged with itself", output(t, merge(t, opts, log, log, log), f), want)
			}
		}
	}
}

// rebuild re-encodes the samples [from, to) of a real log into a new log
// with the test builder: the same zone, start time, counter list, name
// table and raw values (raw records and whole-object blocks).
func rebuild(t *testing.T, log []byte, from, to int) []byte {
	t.Helper()
	r, err := blg.NewReader(bytes.NewReader(log), int64(len(log)))
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	l := newLogTZ(encodeTimeZone(&h.TimeZone), h.StartTime)
	var specs []counterSpec
	for _, ci := range r.Counters() {
		specs = append(specs, counterSpec{Flags: ci.Flags, Type: uint32(ci.Type), TimeBase: ci.TimeBase, Scale: ci.DefaultScale,
			Machine: ci.Machine, Object: ci.Object, Instance: ci.Instance, Counter: ci.Counter, Parent: ci.Parent, Index: ci.InstanceIndex})
	}
	l.record(0x20, h.StartTime, counterList(specs...))
	named := false
	for r.Next() {
		s := r.Sample()
		if !named {
			if nt := r.NameTable(); nt != nil {
				l.record(0x24, s.TimeStamp, append(utf16z(r.Machine()), nt[:len(nt)-2]...))
			}
			named = true
		}
		if s.Index < from || s.Index >= to {
			continue
		}
		var subs [][]byte
		for n, ci := range r.Counters() {
			var inst []string
			var raws []engine.RawCounter
			var status uint32
			var ts int64
			for _, v := range s.Values {
				if v.Counter == n {
					inst = append(inst, string(v.Instance))
					raws = append(raws, v.Raw)
					status, ts = v.Raw.CStatus, v.Raw.TimeStamp
				}
			}
			for _, b := range s.Blocks {
				if b.Counter == n {
					subs = append(subs, wholeRec(b.Data))
				}
			}
			switch {
			case ci.Flags&0x10 != 0 || ci.Counter == "*":
				// whole objects: their blocks only
			case ci.Wildcard():
				subs = append(subs, multiRecRaw(status, ts, inst, raws))
			case len(raws) == 1:
				subs = append(subs, rawCounterRec(raws[0]))
			}
		}
		l.record(0x22, s.TimeStamp, sampleRecord(subs...))
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return l.bytes()
}

// TestMergeSplit: a real log rebuilt as two logs split by time, with and
// without samples in common, and merged in either order, gives the whole
// log's rows and values: the values across the split are computed between
// the last sample of one part and the first of the other.
func TestMergeSplit(t *testing.T) {
	for _, name := range realLogs {
		t.Run(name, func(t *testing.T) {
			log := readCorpus(t, name)
			n, _, _ := open(t, log, Options{}).Samples()
			whole := rebuild(t, log, 0, n)
			for _, f := range []Format{CSV, JSON, stats} {
				want := output(t, open(t, log, Options{}), f)
				// The rebuilt log is the real one, sample for sample.
				sameText(t, "rebuilt", output(t, open(t, whole, Options{}), f), want)
				for _, cut := range [][2]int{{n / 2, n / 2}, {n / 3, n/3 + 4}, {1, 1}, {n - 1, n}} {
					first, second := rebuild(t, log, 0, cut[1]), rebuild(t, log, cut[0], n)
					for _, c := range []*Converter{merge(t, Options{}, first, second), merge(t, Options{}, second, first)} {
						have := output(t, c, f)
						switch {
						case f == CSV:
							sameCells(t, have, want)
						case f == stats:
							sameText(t, "split statistics", sortLines(have), sortLines(want))
						}
					}
					// PAL's instances come and go: a column that the second
					// part meets first comes after the first part's columns
					// instead of beside its counter's other instances.
					if name != "PAL_SamplePerfmonLog.blg" {
						sameText(t, "split", output(t, merge(t, Options{}, first, second), f), want)
					}
				}
			}
		})
	}
}

// sortLines returns the lines of s in sorted order.
func sortLines(s string) string {
	l := strings.Split(s, "\n")
	slices.Sort(l)
	return strings.Join(l, "\n")
}

// sameCells compares two CSV texts cell by cell, matching their columns by
// path.
func sameCells(t *testing.T, have, want string) {
	t.Helper()
	hr, wr := csvRows(have), csvRows(want)
	if len(hr) != len(wr) {
		t.Fatalf("have %d rows, want %d", len(hr), len(wr))
	}
	col := map[string]int{}
	for j, p := range hr[0] {
		col[p] = j
	}
	if len(hr[0]) != len(wr[0]) {
		t.Fatalf("have %d columns, want %d", len(hr[0]), len(wr[0]))
	}
	for i := range wr {
		for j, p := range wr[0] {
			k, ok := col[p]
			if !ok {
				t.Fatalf("column %q missing", p)
			}
			if j > 0 && hr[i][k] != wr[i][j] {
				t.Fatalf("row %d, column %q: have %q, want %q", i, p, hr[i][k], wr[i][j])
			}
		}
	}
}

// csvRows splits relog's CSV (no quotes inside the fields) into rows of
// fields.
func csvRows(text string) [][]string {
	var rows [][]string
	if strings.HasPrefix(text, "===") { // output's summary line
		text = text[strings.IndexByte(text, '\n')+1:]
	}
	for _, line := range strings.Split(strings.TrimSuffix(text, "\r\n"), "\r\n") {
		line = strings.TrimSuffix(strings.TrimPrefix(line, `"`), `"`)
		rows = append(rows, strings.Split(line, `","`))
	}
	return rows
}

// TestMergeTwoLogs: Tx (Pacific time, 2013) and PowerShell (SA Eastern
// time, 2007) merged: the union of their columns, Tx's first; the rows of
// both in time order, PowerShell's time stamps moved to Pacific time; every
// cell of a log's columns as the log alone gives it, and empty in the rows
// of the other log.
func TestMergeTwoLogs(t *testing.T) {
	tx, ps := readCorpus(t, realLogs[0]), readCorpus(t, realLogs[1])
	have := csvRows(output(t, merge(t, Options{}, tx, ps), CSV))
	txRows, psRows := csvRows(output(t, open(t, tx, Options{}), CSV)), csvRows(output(t, open(t, ps, Options{}), CSV))
	nTx, nPS := len(txRows[0])-1, len(psRows[0])-1
	if have[0][0] != txRows[0][0] || strings.Join(have[0][1:], ",") != strings.Join(append(txRows[0][1:], psRows[0][1:]...), ",") {
		t.Fatalf("header: have %.300q", have[0])
	}
	if len(have) != len(txRows)+len(psRows)-1 {
		t.Fatalf("have %d rows, want %d", len(have)-1, len(txRows)+len(psRows)-2)
	}
	// PowerShell's 275 rows come first (2007), then Tx's 601.
	for i, row := range have[1:] {
		var want []string
		if i < len(psRows)-1 {
			src := psRows[1+i]
			want = append(append([]string{shiftTime(t, src[0], -4)}, make([]string, nTx)...), src[1:]...)
		} else {
			src := txRows[i-len(psRows)+2]
			want = append(src, make([]string, nPS)...)
		}
		if strings.Join(row, "|") != strings.Join(want, "|") {
			t.Fatalf("row %d:\nhave %.300q\nwant %.300q", i+1, row, want)
		}
	}
	if strings.Contains(psRows[1][0], "10:20:12.734") || !strings.Contains(have[1][0], "07/02/2007 10:20:12.734") {
		t.Errorf("PowerShell's first sample (14:20:12.734 in UTC−3) in Pacific daylight time: have %q", have[1][0])
	}
}

// shiftTime moves a printed time stamp by h hours.
func shiftTime(t *testing.T, s string, h int64) string {
	ft := mustTime(t, s)
	return string(logtext.AppendTime(nil, ft+h*3600*ticksPerSecond))
}

// interleaved returns a raw-record log of machine m: n samples of a rate
// (10 per second) and a wildcard % Processor Time (25 %), one every two
// seconds from the second off.
func interleaved(m string, n, off int) []byte {
	l := newLog(pacific, testUTC)
	l.record(0x20, testLocal, counterList(
		counterSpec{Type: 0x10410500, TimeBase: 10_000_000, Machine: m, Object: "System", Counter: "File Read Operations/sec"},
		counterSpec{Flags: 1, Type: 0x21510500, TimeBase: 10_000_000, Machine: m, Object: "Processor", Instance: "*", Counter: "% Processor Time"},
	))
	for i := 0; i < n; i++ {
		s := int64(off + 2*i)
		ts := testLocal + s*ticksPerSecond
		d := uint64(testUTC + s*ticksPerSecond)
		l.record(0x22, ts, sampleRecord(
			rawRec(0, ts, uint64(20*i), d),
			multiRec(0, ts, item{"0", uint64(15_000_000 * i), d}),
		))
	}
	return l.bytes()
}

// TestMergeInterleaved: two machines sampled on alternate seconds: every
// row has the values of one machine, computed between that machine's own
// samples (not NewData every other row), and the statistics of each
// column are those of its log alone.
func TestMergeInterleaved(t *testing.T) {
	a, b := interleaved(`\\A`, 4, 0), interleaved(`\\B`, 4, 1)
	have := output(t, merge(t, Options{}, a, b), CSV)
	want := `"(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\A\System\File Read Operations/sec","\\A\Processor(0)\% Processor Time","\\B\System\File Read Operations/sec","\\B\Processor(0)\% Processor Time"
"02/19/2013 18:50:17.844"," "," ","",""
"02/19/2013 18:50:18.844","",""," "," "
"02/19/2013 18:50:19.844","10","25","",""
"02/19/2013 18:50:20.844","","","10","25"
"02/19/2013 18:50:21.844","10","25","",""
"02/19/2013 18:50:22.844","","","10","25"
"02/19/2013 18:50:23.844","10","25","",""
"02/19/2013 18:50:24.844","","","10","25"
`
	if have = strings.ReplaceAll(strings.SplitN(have, "\n", 2)[1], "\r\n", "\n"); have != want {
		t.Errorf("have\n%s\nwant\n%s", have, want)
	}
	st, err := merge(t, Options{}, a, b).Statistics()
	if err != nil {
		t.Fatal(err)
	}
	alone, _ := open(t, a, Options{}).Statistics()
	for i, s := range st {
		if w := alone[i%2]; !reflect.DeepEqual(s, w) {
			t.Errorf("column %d: have %+v, want %+v", i, s, w)
		}
	}
	// -t 2 keeps rows 1, 3, 5, 7 of the merge: machine A's samples only
	// (B's columns, met in no kept row, are not columns), each value
	// computed between the kept samples.
	have = output(t, merge(t, Options{Every: 2}, a, b), CSV)
	if want := `"02/19/2013 18:50:19.844","10","25"`; !strings.Contains(have, want+"\r\n") || strings.Count(have, "\r\n") != 1+4 || strings.Contains(have, `\\B`) {
		t.Errorf("-t 2:\n%s", have)
	}
}

// TestMergeDamage: a damaged log among good ones gives its rows before the
// damage, every row of the others, and an *InputError naming it.
func TestMergeDamage(t *testing.T) {
	tx := readCorpus(t, realLogs[0])
	cut := tx[:len(tx)/2+1234]
	split := rebuild(t, tx, 0, 601)
	whole := output(t, open(t, tx, Options{}), CSV)
	part, _ := csvText(t, cut, Options{}, CSV)
	for _, order := range [][]Input{
		{input("cut.blg", cut), input("whole.blg", split)},
		{input("whole.blg", split), input("cut.blg", cut)},
	} {
		c, err := Merge(order, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		err = c.Write(&b, CSV)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Name != "cut.blg" || !errors.Is(err, engine.ErrTruncated) || !strings.HasPrefix(err.Error(), "cut.blg: blg: ") {
			t.Fatalf("have error %v, want an *InputError of cut.blg", err)
		}
		if c.ScanErr() == nil || c.ScanErr().Error() != err.Error() {
			t.Errorf("ScanErr %v, Err %v: want the same damage", c.ScanErr(), err)
		}
		if have := b.String(); have != strings.SplitN(whole, "\n", 2)[1] {
			sameText(t, "merge with a damaged copy", have, strings.SplitN(whole, "\n", 2)[1])
		}
	}
	// With a log of other counters: the cut log's rows before the damage,
	// and all of the other's.
	ps := readCorpus(t, realLogs[1])
	c, err := Merge([]Input{input("cut.blg", cut), input("ps.blg", ps)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.Write(&b, CSV); err == nil {
		t.Error("no error for the cut log")
	}
	psText, _ := csvText(t, ps, Options{}, CSV)
	if have, want := strings.Count(b.String(), "\r\n"), strings.Count(part, "\r\n")+strings.Count(psText, "\r\n")-1; have != want || want < 400 {
		t.Errorf("have %d lines, want %d", have, want)
	}
	if _, err := Merge([]Input{input("a", tx), input("bad.blg", []byte("not a log"))}, Options{}); err == nil || !strings.HasPrefix(err.Error(), "bad.blg: ") {
		t.Errorf("a log that is not one: have %v", err)
	}
	if _, err := Merge(nil, Options{}); err == nil {
		t.Error("no input accepted")
	}
	if _, err := Merge(make([]Input, MaxInputs+1), Options{}); err == nil {
		t.Error("33 inputs accepted")
	}
}

// TestMergeAllocs: once warm, a merged row allocates nothing, as one log's.
func TestMergeAllocs(t *testing.T) {
	nextAllocs(t, merge(t, Options{}, exampleLog(300), interleaved(`\\B`, 300, 0)))
}
