package relog

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// This file tests what happens when names collide: a path the log holds
// twice, names that differ only in case, instance names that are not
// valid UTF-16.

const (
	collideLocal = 130057734178440000 // 02/19/2013 18:50:17.844, Pacific
	rawCount     = 0x00010100         // PERF_COUNTER_LARGE_RAWCOUNT: the value is FirstValue
)

// rawCountLog is a log of the counters cs, all PERF_COUNTER_LARGE_RAWCOUNT
// (Type is set here), one sample per values[k], a value per counter.
func rawCountLog(cs []counterSpec, values ...[]uint64) []byte {
	l := newLog(pacific, collideLocal+8*3600*ticksPerSecond)
	for i := range cs {
		cs[i].Type = rawCount
	}
	l.record(0x20, collideLocal, counterList(cs...))
	for k, vs := range values {
		ts := int64(collideLocal + k*ticksPerSecond)
		var subs [][]byte
		for _, v := range vs {
			subs = append(subs, rawRec(0, ts, v, 0))
		}
		l.record(0x22, ts, sampleRecord(subs...))
	}
	return l.bytes()
}

// TestJSONRepeatedPath: a path the log holds twice has two keys in the
// JSON rows (the second "<path> (duplicate 2)", which skips a key that is
// another column's path), so that a parser keeps every column's value;
// CSV keeps both columns under the same header.
func TestJSONRepeatedPath(t *testing.T) {
	log := rawCountLog([]counterSpec{
		{Machine: `\\H`, Object: "Memory", Counter: "Available Bytes"},
		{Machine: `\\H`, Object: "Memory", Counter: "Available Bytes"},
		{Machine: `\\H`, Object: "Memory", Counter: "Available Bytes (duplicate 2)"},
		{Machine: `\\H`, Object: "Memory", Counter: "Available Bytes"},
	}, []uint64{1, 2, 3, 4}, []uint64{11, 12, 13, 14})
	for _, f := range []Format{JSON, CSV} {
		seq, par, seqErr, parErr := writeBoth(t, log, Options{}, f)
		if seqErr != nil || parErr != nil {
			t.Fatal(seqErr, parErr)
		}
		text := string(joinPieces(seq))
		if text != string(joinPieces(par)) {
			t.Errorf("format %d: the pipeline writes other text", f)
		}
		if f == CSV {
			if !strings.Contains(text, `"\\H\Memory\Available Bytes","\\H\Memory\Available Bytes","\\H\Memory\Available Bytes (duplicate 2)","\\H\Memory\Available Bytes"`) ||
				!strings.Contains(text, `.844","11","12","13","14"`) {
				t.Errorf("CSV:\n%s", text)
			}
			continue
		}
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if len(lines) != 2 {
			t.Fatalf("%d JSON lines, want 2:\n%s", len(lines), text)
		}
		for k, line := range lines {
			var row struct{ Values map[string]float64 }
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				t.Fatal(err)
			}
			want := map[string]float64{
				`\\H\Memory\Available Bytes`:               float64(10*k + 1),
				`\\H\Memory\Available Bytes (duplicate 3)`: float64(10*k + 2),
				`\\H\Memory\Available Bytes (duplicate 2)`: float64(10*k + 3),
				`\\H\Memory\Available Bytes (duplicate 4)`: float64(10*k + 4),
			}
			if len(row.Values) != len(want) || strings.Count(line, `":`) != len(want)+2 { // with "time" and "values"
				t.Errorf("row %d: have %v, want %v", k, row.Values, want)
			}
			for key, v := range want {
				if have, ok := row.Values[key]; !ok || have != v {
					t.Errorf("row %d: %s: have %v, want %v", k, key, have, v)
				}
			}
		}
	}
}

// joinPieces returns what Write wrote.
func joinPieces(p pieces) []byte {
	var b []byte
	for _, c := range p.calls {
		b = append(b, c...)
	}
	return b
}

// svcLog is a log of one wildcard counter \\H\Svc(*)\X
// (PERF_COUNTER_LARGE_RAWCOUNT) whose samples, at seconds from, from+1, …,
// hold the instances names with the values values[k][i].
func svcLog(from int, names []string, values ...[]uint64) []byte {
	l := newLog(pacific, collideLocal+8*3600*ticksPerSecond)
	l.record(0x20, collideLocal, counterList(counterSpec{Flags: 1, Type: rawCount, Machine: `\\H`, Object: "Svc", Instance: "*", Counter: "X"}))
	for k, vs := range values {
		ts := int64(collideLocal + (from+k)*ticksPerSecond)
		items := make([]item, len(names))
		for i, n := range names {
			items[i] = item{n, vs[i], 0}
		}
		l.record(0x22, ts, sampleRecord(multiRec(0, ts, items...)))
	}
	return l.bytes()
}

// TestMergeCase: merged logs whose instance names differ only in case.
// A column of one log joins the column of an earlier log of the same path,
// else of the same path but for case (PDH compares names without case),
// and takes at most one column of each log: no value of any log is
// dropped or written under another column, in CSV and in the statistics.
func TestMergeCase(t *testing.T) {
	const head = `"(PDH-CSV 4.0) (Pacific Standard Time)(480)"`
	row := func(sec int, cells ...string) string {
		return `"02/19/2013 18:50:` + strconv.Itoa(17+sec) + `.844","` + strings.Join(cells, `","`) + "\"\r\n"
	}
	const svc, lower, upper = `"\\H\Svc(Svc)\X"`, `"\\H\Svc(svc)\X"`, `"\\H\Svc(SVC)\X"`
	for _, tc := range []struct {
		name string
		logs [][]byte
		want string
	}{
		{"Svc, then Svc and svc", [][]byte{
			svcLog(0, []string{"Svc"}, []uint64{1}, []uint64{2}),
			svcLog(2, []string{"Svc", "svc"}, []uint64{10, 20}, []uint64{11, 21}),
		}, head + "," + svc + "," + lower + "\r\n" + row(0, "1", "") + row(1, "2", "") + row(2, "10", "20") + row(3, "11", "21")},
		{"Svc, then svc and Svc", [][]byte{
			svcLog(0, []string{"Svc"}, []uint64{1}, []uint64{2}),
			svcLog(2, []string{"svc", "Svc"}, []uint64{20, 10}, []uint64{21, 11}),
		}, head + "," + svc + "," + lower + "\r\n" + row(0, "1", "") + row(1, "2", "") + row(2, "10", "20") + row(3, "11", "21")},
		{"Svc and svc, then svc", [][]byte{
			svcLog(0, []string{"Svc", "svc"}, []uint64{1, 5}, []uint64{2, 6}),
			svcLog(2, []string{"svc"}, []uint64{20}, []uint64{21}),
		}, head + "," + svc + "," + lower + "\r\n" + row(0, "1", "5") + row(1, "2", "6") + row(2, "", "20") + row(3, "", "21")},
		{"Svc, then SVC: one series", [][]byte{
			svcLog(0, []string{"Svc"}, []uint64{1}, []uint64{2}),
			svcLog(2, []string{"SVC"}, []uint64{30}, []uint64{31}),
		}, head + "," + svc + "\r\n" + row(0, "1") + row(1, "2") + row(2, "30") + row(3, "31")},
		{"Svc and svc, then SVC, svc and Svc", [][]byte{
			svcLog(0, []string{"Svc", "svc"}, []uint64{1, 5}, []uint64{2, 6}),
			svcLog(2, []string{"SVC", "svc", "Svc"}, []uint64{30, 20, 10}, []uint64{31, 21, 11}),
		}, head + "," + svc + "," + lower + "," + upper + "\r\n" + row(0, "1", "5", "") + row(1, "2", "6", "") + row(2, "10", "20", "30") + row(3, "11", "21", "31")},
		{"one path twice, twice", [][]byte{
			rawCountLog([]counterSpec{{Machine: `\\H`, Object: "M", Counter: "X"}, {Machine: `\\H`, Object: "M", Counter: "X"}}, []uint64{1, 5}, []uint64{2, 6}),
			rawCountLog([]counterSpec{{Machine: `\\H`, Object: "M", Counter: "X"}, {Machine: `\\H`, Object: "m", Counter: "x"}}, []uint64{1, 5}, []uint64{2, 6}, []uint64{3, 7}),
		}, head + `,"\\H\M\X","\\H\M\X"` + "\r\n" + row(0, "1", "5") + row(1, "2", "6") + row(2, "3", "7")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := merge(t, Options{}, tc.logs...)
			var b bytes.Buffer
			if err := c.Write(&b, CSV); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("have\n%s\nwant\n%s", b.String(), tc.want)
			}
			// The statistics count every value of every column.
			st, err := merge(t, Options{}, tc.logs...).Statistics()
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(tc.want, "\r\n"), "\r\n")[1:]
			for i, s := range st {
				n, sum := 0, 0.0
				for _, line := range lines {
					cell := strings.Split(strings.TrimSuffix(line, `"`), `","`)[1+i]
					if v, err := strconv.ParseFloat(cell, 64); err == nil {
						n++
						sum += v
					}
				}
				if s.Count != n || s.Mean != sum/float64(n) {
					t.Errorf("column %d: statistics count %d, mean %v; want %d, %v", i, s.Count, s.Mean, n, sum/float64(n))
				}
			}
		})
	}
}

// TestSurrogateInstances: instance names that are not valid UTF-16 (Windows
// allows any 16-bit units) keep their identity: "x" + 0xD800 and "x" +
// 0xDC00 are two columns named with U+FFFD and the unit's hex digits, and
// when the two swap places between samples each keeps its own values, in
// CSV and JSON, the text valid UTF-8. A real U+FFFD is a third name.
func TestSurrogateInstances(t *testing.T) {
	hi, lo, repl := []uint16{'x', 0xD800}, []uint16{'x', 0xDC00}, []uint16{'x', 0xFFFD}
	l := newLog(pacific, collideLocal+8*3600*ticksPerSecond)
	l.record(0x20, collideLocal, counterList(counterSpec{Flags: 1, Type: rawCount, Machine: `\\H`, Object: "Svc", Instance: "*", Counter: "X"}))
	for k, s := range []struct {
		names  [][]uint16
		values []uint64
	}{
		{[][]uint16{hi, lo, repl}, []uint64{1, 2, 3}},
		{[][]uint16{lo, repl, hi}, []uint64{20, 30, 10}},
		{[][]uint16{repl, hi, lo}, []uint64{300, 100, 200}},
	} {
		ts := int64(collideLocal + k*ticksPerSecond)
		l.record(0x22, ts, sampleRecord(blgbuild.MultiSubRecord(ts, s.names, s.values)))
	}
	log := l.bytes()
	csv, err := csvText(t, log, Options{}, CSV)
	if err != nil {
		t.Fatal(err)
	}
	want := `"(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\H\Svc(x` + "\uFFFD" + `d800)\X","\\H\Svc(x` + "\uFFFD" + `dc00)\X","\\H\Svc(x` + "\uFFFD" + `fffd)\X"` + "\r\n" +
		`"02/19/2013 18:50:17.844","1","2","3"` + "\r\n" +
		`"02/19/2013 18:50:18.844","10","20","30"` + "\r\n" +
		`"02/19/2013 18:50:19.844","100","200","300"` + "\r\n"
	if csv != want {
		t.Errorf("CSV: have\n%s\nwant\n%s", csv, want)
	}
	js, err := csvText(t, log, Options{}, JSON)
	if err != nil {
		t.Fatal(err)
	}
	for k, line := range strings.Split(strings.TrimSuffix(js, "\n"), "\n") {
		var row struct{ Values map[string]float64 }
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		scale := []float64{1, 10, 100}[k]
		for i, name := range []string{"d800", "dc00", "fffd"} {
			key := `\\H\Svc(x` + "\uFFFD" + name + `)\X`
			if have := row.Values[key]; have != scale*float64(i+1) || len(row.Values) != 3 {
				t.Errorf("JSON row %d: %s: have %v (of %d values), want %v", k, key, have, len(row.Values), scale*float64(i+1))
			}
		}
	}
}
