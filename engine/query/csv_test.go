package query

import (
	"bytes"
	"math"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/logtext"
)

// TestStamp checks newStamp against package time: the local time as
// time.Date reads a SYSTEMTIME (a day past the month's end included), the
// bias as the UTC time's distance from it rounded to the quarter hour
// (math.Round), kept within ±14 hours, and relog's texts of both.
func TestStamp(t *testing.T) {
	const unixFrom1601 = 11_644_473_600
	ft := func(tm time.Time) int64 { return (tm.Unix()+unixFrom1601)*10_000_000 + int64(tm.Nanosecond()/100) }
	for _, tc := range []struct {
		name                 string
		st                   [7]uint16 // year, month, day, hour, minute, second, ms
		utcMinus             time.Duration
		wantHeader, wantTime string
		wantOK, wantBias     bool
	}{
		{"Pacific", [7]uint16{2013, 2, 19, 18, 50, 17, 844}, -8 * time.Hour, "(PDH-CSV 4.0) (UTC-08:00)(480)", "02/19/2013 18:50:17.844", true, true},
		{"UTC", [7]uint16{2020, 1, 1, 0, 0, 0, 0}, 0, "(PDH-CSV 4.0) (UTC)(0)", "01/01/2020 00:00:00.000", true, true},
		{"India, late by 7 minutes", [7]uint16{2021, 6, 30, 23, 59, 59, 999}, 5*time.Hour + 30*time.Minute - 7*time.Minute, "(PDH-CSV 4.0) (UTC+05:30)(-330)", "06/30/2021 23:59:59.999", true, true},
		{"a half quarter rounds away from zero", [7]uint16{2021, 6, 30, 12, 0, 0, 0}, -(7*time.Minute + 30*time.Second), "(PDH-CSV 4.0) (UTC-00:15)(15)", "06/30/2021 12:00:00.000", true, true},
		{"February 31st", [7]uint16{2023, 2, 31, 1, 2, 3, 4}, time.Hour, "(PDH-CSV 4.0) (UTC+01:00)(-60)", "03/03/2023 01:02:03.004", true, true},
		{"year 30827", [7]uint16{30827, 12, 31, 23, 0, 0, 0}, 0, "(PDH-CSV 4.0) (UTC)(0)", "12/31/30827 23:00:00.000", true, true},
		{"UTC 15 hours away", [7]uint16{2020, 1, 1, 0, 0, 0, 0}, 15 * time.Hour, "(PDH-CSV 4.0)", "01/01/2020 00:00:00.000", true, false},
		{"month 13", [7]uint16{2020, 13, 1, 0, 0, 0, 0}, 0, "(PDH-CSV 4.0)", "", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			y, mo, d, h, mi, s, ms := tc.st[0], tc.st[1], tc.st[2], tc.st[3], tc.st[4], tc.st[5], tc.st[6]
			local := time.Date(int(y), time.Month(mo), int(d), int(h), int(mi), int(s), int(ms)*1e6, time.UTC)
			utc := ft(local.Add(-tc.utcMinus))
			st := newStamp(y, mo, d, h, mi, s, ms, utc)
			if st.OK != tc.wantOK || st.HasBias != tc.wantBias {
				t.Fatalf("OK %v, HasBias %v; want %v, %v", st.OK, st.HasBias, tc.wantOK, tc.wantBias)
			}
			if st.OK && st.Local != ft(local) {
				t.Errorf("Local %d, time.Date gives %d", st.Local, ft(local))
			}
			if q := math.Round(tc.utcMinus.Minutes()/15) * -15; st.HasBias && float64(st.Bias) != q {
				t.Errorf("Bias %d, want %v", st.Bias, q)
			}
			if have := string(st.AppendHeader(nil, false)); have != tc.wantHeader {
				t.Errorf("header %q, want %q", have, tc.wantHeader)
			}
			if have := string(appendTime(st)); have != tc.wantTime {
				t.Errorf("time %q, want %q", have, tc.wantTime)
			}
		})
	}
}

// TestWriteCSV checks the text of WriteCSV: quoted fields with their
// quotes doubled, " " for a value that is not Valid, the digits asked,
// TSV's header and tabs, CR LF, and writes in pieces of a few KB whatever
// the number of values.
func TestWriteCSV(t *testing.T) {
	st := newStamp(2013, 2, 19, 18, 50, 17, 844, 0)
	vals := []Value{
		{Path: []byte(`\\H\A("x")\B`), Value: 0.1, Status: engine.Valid},
		{Path: []byte(`\\H\A\C`), Status: engine.NewData},
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, vals, st, false, 17); err != nil {
		t.Fatal(err)
	}
	want := "\"(PDH-CSV 4.0)\",\"\\\\H\\A(\"\"x\"\")\\B\",\"\\\\H\\A\\C\"\r\n\"02/19/2013 18:50:17.844\",\"0.10000000000000001\",\" \"\r\n"
	if b.String() != want {
		t.Errorf("CSV\n%q, want\n%q", b.String(), want)
	}
	b.Reset()
	WriteCSV(&b, vals[:1], st, true, 20)
	want = "\"(PDH-TSV 4.0)\"\t\"\\\\H\\A(\"\"x\"\")\\B\"\r\n\"02/19/2013 18:50:17.844\"\t\"0.10000000000000000555\"\r\n"
	if b.String() != want {
		t.Errorf("TSV\n%q, want\n%q", b.String(), want)
	}
	many := make([]Value, 10_000)
	for i := range many {
		many[i] = Value{Path: []byte(`\\H\Object(instance)\Counter`), Value: math.Pi, Status: engine.Valid}
	}
	var w pieces
	if err := WriteCSV(&w, many, st, false, 20); err != nil {
		t.Fatal(err)
	}
	if w.max > 8<<10 || w.n < 100 {
		t.Errorf("%d writes of up to %d bytes, want pieces of a few KB", w.n, w.max)
	}
}

// pieces counts the writes it gets and their largest size.
type pieces struct{ n, max int }

func (p *pieces) Write(b []byte) (int, error) {
	p.n++
	p.max = max(p.max, len(b))
	return len(b), nil
}

// appendTime is the time text of WriteCSV's second row.
func appendTime(s Stamp) []byte {
	if !s.OK {
		return nil
	}
	return logtext.AppendTime(nil, s.Local)
}
