package logtext

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/tools/importban"
)

// TestImports: the package imports only the standard library (without fmt
// and os, which would bloat the WebAssembly module) and perfcalc's engine.
func TestImports(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

const (
	ticksPerSecond = 10_000_000
	testLocal      = 130057734178440000 // 02/19/2013 18:50:17.844
)

func TestAppendTime(t *testing.T) {
	for _, tc := range []struct {
		ft       int64
		want     string
		wantISO  string
		describe string
	}{
		{testLocal, "02/19/2013 18:50:17.844", "2013-02-19T18:50:17.844", "Tx's first sample"},
		{testLocal + 9999, "02/19/2013 18:50:17.844", "2013-02-19T18:50:17.844", "milliseconds truncated"},
		{0, "01/01/1601 00:00:00.000", "1601-01-01T00:00:00.000", "the FILETIME epoch"},
		{126227808000000000, "01/01/2001 00:00:00.000", "2001-01-01T00:00:00.000", "a century"},
		{129749472000000000, "02/29/2012 00:00:00.000", "2012-02-29T00:00:00.000", "a leap day"},
		{-1, "12/31/1600 23:59:59.999", "1600-12-31T23:59:59.999", "before the epoch"},
		{math.MaxInt64, "09/14/30828 02:48:05.477", "30828-09-14T02:48:05.477", "the last FILETIME"},
	} {
		t.Run(tc.describe, func(t *testing.T) {
			if have := string(AppendTime(nil, tc.ft)); have != tc.want {
				t.Errorf("AppendTime: have %s, want %s", have, tc.want)
			}
			if have := string(AppendISOTime(nil, tc.ft)); have != tc.wantISO {
				t.Errorf("AppendISOTime: have %s, want %s", have, tc.wantISO)
			}
		})
	}
}

// TestAppendTimeAgainstTime compares AppendTime and AppendISOTime with
// package time's formatting over many instants of four centuries.
func TestAppendTimeAgainstTime(t *testing.T) {
	const unixFrom1601 = 11_644_473_600
	for i := int64(0); i < 5000; i++ {
		tm := time.Unix(-9_000_000_000+i*2_654_435+i%1000, (i*7919)%1_000_000_000).UTC()
		ft := (tm.Unix()+unixFrom1601)*ticksPerSecond + int64(tm.Nanosecond()/100)
		if have, want := string(AppendTime(nil, ft)), tm.Format("01/02/2006 15:04:05.000"); have != want {
			t.Fatalf("AppendTime(%d): have %s, want %s", ft, have, want)
		}
		if have, want := string(AppendISOTime(nil, ft)), tm.Format("2006-01-02T15:04:05.000"); have != want {
			t.Fatalf("AppendISOTime(%d): have %s, want %s", ft, have, want)
		}
	}
}

// TestAppendFixed: the digits of the time stamps, and values that do not
// fit the width.
func TestAppendFixed(t *testing.T) {
	for _, tc := range []struct {
		v     int64
		width int
		want  string
	}{
		{0, 2, "00"}, {7, 2, "07"}, {59, 2, "59"}, {999, 3, "999"}, {5, 3, "005"},
		{2013, 4, "2013"}, {1601, 4, "1601"}, {30828, 4, "30828"}, {-3, 2, "-03"}, {123, 2, "123"},
		{0, 0, "0"}, {math.MinInt64, 1, "-9223372036854775808"}, {math.MaxInt64, 4, "9223372036854775807"},
	} {
		if have := string(appendFixed(nil, tc.v, tc.width)); have != tc.want {
			t.Errorf("appendFixed(%d, %d): have %q, want %q", tc.v, tc.width, have, tc.want)
		}
	}
}

// TestTimes: times printed through Times are AppendTime's and
// AppendISOTime's, across midnights, years and the epoch, and with the
// two forms alternating.
func TestTimes(t *testing.T) {
	const day = 24 * 3600 * ticksPerSecond
	var fts []int64
	for _, base := range []int64{0, testLocal, testLocal - testLocal%day, 3 * day / 2, -5} {
		for _, d := range []int64{0, 1, 9999, ticksPerSecond - 1, day - 1, day, day + 1, 365 * day, -1, -day} {
			fts = append(fts, base+d)
		}
	}
	var csv, iso, both Times
	for i, ft := range fts {
		if have, want := string(csv.Append(nil, ft, false)), string(AppendTime(nil, ft)); have != want {
			t.Errorf("%d: have %q, want %q", ft, have, want)
		}
		if have, want := string(iso.Append(nil, ft, true)), string(AppendISOTime(nil, ft)); have != want {
			t.Errorf("%d ISO: have %q, want %q", ft, have, want)
		}
		if have, want := string(both.Append(nil, ft, i%2 == 1)), string(appendTime(nil, ft, i%2 == 1)); have != want {
			t.Errorf("%d alternating: have %q, want %q", ft, have, want)
		}
	}
	if have, want := string(csv.AppendField(nil, testLocal)), `"02/19/2013 18:50:17.844"`; have != want {
		t.Errorf("AppendField: have %s, want %s", have, want)
	}
	if have, want := string(csv.AppendJSONRow(nil, testLocal)), `{"time":"2013-02-19T18:50:17.844","values":{`; have != want {
		t.Errorf("AppendJSONRow: have %s, want %s", have, want)
	}
}

func TestQuoting(t *testing.T) {
	for _, tc := range []struct{ in, csv, json string }{
		{`\\H\P(0)\% T`, `"\\H\P(0)\% T"`, `"\\\\H\\P(0)\\% T"`},
		{`a"b`, `"a""b"`, `"a\"b"`},
		{"tab\there\x01", "\"tab\there\x01\"", `"tab\u0009here\u0001"`},
		{"é\xff", "\"é\xff\"", `"é\ufffd"`},
		{"line\u2028sep\x7f", "\"line\u2028sep\x7f\"", "\"line\u2028sep\x7f\""},
	} {
		if have := string(AppendField(nil, ',', tc.in)); have != ","+tc.csv {
			t.Errorf("AppendField(%q): have %s, want ,%s", tc.in, have, tc.csv)
		}
		if have := string(AppendField(nil, '\t', []byte(tc.in))); have != "\t"+tc.csv {
			t.Errorf("AppendField([]byte(%q)): have %s, want \\t%s", tc.in, have, tc.csv)
		}
		have := AppendJSONString(nil, tc.in)
		if string(have) != tc.json {
			t.Errorf("AppendJSONString(%q): have %s, want %s", tc.in, have, tc.json)
		}
		var back string
		if err := json.Unmarshal(have, &back); err != nil {
			t.Errorf("AppendJSONString(%q) = %s does not read back: %v", tc.in, have, err)
		}
	}
}

func TestAppendTitle(t *testing.T) {
	for _, tc := range []struct {
		d    Dialect
		z    Zone
		want string
	}{
		{CSV, Zone{Name: "Pacific Standard Time", Bias: 480, Known: true}, "(PDH-CSV 4.0) (Pacific Standard Time)(480)"},
		{TSV, Zone{Name: `a "b"`, Bias: -60, Known: true}, `(PDH-TSV 4.0) (a ""b"")(-60)`},
		{CSV, Zone{Name: "", Bias: 0, Known: true}, "(PDH-CSV 4.0) ()(0)"},
		{CSV, Zone{}, "(PDH-CSV 4.0)"},
		{TSV, Zone{}, "(PDH-TSV 4.0)"},
		{CSV, OffsetZone(480), "(PDH-CSV 4.0) (UTC-08:00)(480)"},
		{CSV, OffsetZone(0), "(PDH-CSV 4.0) (UTC)(0)"},
		{CSV, OffsetZone(-330), "(PDH-CSV 4.0) (UTC+05:30)(-330)"},
		{CSV, OffsetZone(-14 * 60), "(PDH-CSV 4.0) (UTC+14:00)(-840)"},
		{CSV, OffsetZone(15), "(PDH-CSV 4.0) (UTC-00:15)(15)"},
	} {
		if have := string(AppendTitle(nil, tc.d, tc.z)); have != tc.want {
			t.Errorf("AppendTitle(%v, %+v): have %s, want %s", tc.d, tc.z, have, tc.want)
		}
		if have := string(AppendTitleField([]byte("x"), tc.d, tc.z)); have != `x"`+tc.want+`"` {
			t.Errorf("AppendTitleField(%v, %+v): have %s", tc.d, tc.z, have)
		}
	}
	if CSV.Sep() != ',' || TSV.Sep() != '\t' {
		t.Errorf("separators %q and %q", CSV.Sep(), TSV.Sep())
	}
}

func TestAppendValue(t *testing.T) {
	for _, tc := range []struct {
		v      float64
		valid  bool
		digits int
		want   string
	}{
		{0.1, true, 17, `,"0.10000000000000001"`},
		{0.1, true, 20, `,"0.10000000000000000555"`},
		{6.5500000000000006459e-005, true, 20, `,"6.5500000000000006459e-005"`},
		{12.5, false, 20, `," "`},
	} {
		if have := string(AppendValue(nil, ',', tc.v, tc.valid, tc.digits)); have != tc.want {
			t.Errorf("AppendValue(%v, %v, %d): have %s, want %s", tc.v, tc.valid, tc.digits, have, tc.want)
		}
	}
	for _, tc := range []struct {
		v     float64
		valid bool
		want  string
	}{
		{12.5, true, `,"12.500000"`}, {1.0000004, true, `,"1.000000"`}, {1e21, true, `,"1000000000000000000000.000000"`}, {12.5, false, `," "`},
	} {
		if have := string(AppendFixedValue(nil, ',', tc.v, tc.valid)); have != tc.want {
			t.Errorf("AppendFixedValue(%v, %v): have %s, want %s", tc.v, tc.valid, have, tc.want)
		}
	}
	if have := string(EndRow(AppendAbsent([]byte(`"t"`), '\t'))); have != "\"t\"\t\"\"\r\n" {
		t.Errorf("AppendAbsent, EndRow: have %q", have)
	}
	for _, tc := range []struct {
		v     float64
		valid bool
		want  string
	}{
		{0.1, true, "0.1"}, {1e-5, true, "1e-005"}, {0, true, "0"}, {3, false, "null"},
	} {
		if have := string(AppendJSONValue(nil, tc.v, tc.valid)); have != tc.want {
			t.Errorf("AppendJSONValue(%v, %v): have %s, want %s", tc.v, tc.valid, have, tc.want)
		}
	}
}

// TestAllocs: a row of text appends without allocating once the buffer
// and the Times hold their text.
func TestAllocs(t *testing.T) {
	var times Times
	buf := make([]byte, 0, 1024)
	n := testing.AllocsPerRun(100, func() {
		b := times.AppendField(buf[:0], testLocal)
		b = AppendValue(b, ',', math.Pi, true, 20)
		b = AppendAbsent(b, ',')
		b = AppendField(b, ',', `\\H\P(0)\% T`)
		b = times.AppendJSONRow(b, testLocal+1)
		b = AppendJSONString(b, `\\H\P(0)\% T`)
		b = AppendJSONValue(b, math.Pi, true)
		_ = EndRow(b)
	})
	if n != 0 {
		t.Errorf("%v allocations a row, want 0", n)
	}
}
