package blg

import (
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine/wintype"
)

// ftUTC returns the FILETIME of a UTC date, computed with package time
// (independent of the code under test).
func ftUTC(y int, m time.Month, d, h, mi, s int) int64 {
	return time.Date(y, m, d, h, mi, s, 0, time.UTC).UnixNano()/100 + 116444736000000000
}

func TestToLocal(t *testing.T) {
	eastern := TimeZone{Bias: 300, StandardName: "@tzres.dll,-112", StandardDate: wintype.SystemTime{Month: 11, Day: 1, Hour: 2},
		DaylightName: "@tzres.dll,-111", DaylightDate: wintype.SystemTime{Month: 3, Day: 2, Hour: 2}, DaylightBias: -60}
	// Central Europe: last Sunday of March 02:00 to last Sunday of October 03:00.
	europe := TimeZone{Bias: -60, StandardDate: wintype.SystemTime{Month: 10, Day: 5, Hour: 3},
		DaylightDate: wintype.SystemTime{Month: 3, Day: 5, Hour: 2}, DaylightBias: -60}
	// Southern hemisphere (Brazil's rules of the 2000s): third Sunday of
	// October 00:00 to third Sunday of February 00:00.
	brazil := TimeZone{Bias: 180, StandardDate: wintype.SystemTime{Month: 2, Day: 3}, DaylightDate: wintype.SystemTime{Month: 10, Day: 3}, DaylightBias: -60}
	noDST := TimeZone{Bias: 180, StandardName: "SA Eastern Standard Time"}
	// An absolute date: daylight time in 2013 only, 1 April 02:00 to 1 October 03:00.
	once := TimeZone{Bias: 0, StandardDate: wintype.SystemTime{Year: 2013, Month: 10, Day: 1, Hour: 3},
		DaylightDate: wintype.SystemTime{Year: 2013, Month: 4, Day: 1, Hour: 2}, DaylightBias: -60}
	// Day 7 is not a week of the month: the rule is unusable.
	broken := TimeZone{Bias: 120, StandardBias: 0, StandardDate: wintype.SystemTime{Month: 10, Day: 7}, DaylightDate: wintype.SystemTime{Month: 3, Day: 2}, DaylightBias: -60}

	for _, tc := range []struct {
		name     string
		tz       *TimeZone
		utc      int64
		local    int64
		bias     int32
		daylight bool
	}{
		{"pacific winter", &pacific, ftUTC(2013, 2, 19, 12, 0, 0), ftUTC(2013, 2, 19, 4, 0, 0), 480, false},
		{"pacific before spring forward", &pacific, ftUTC(2013, 3, 10, 9, 59, 59), ftUTC(2013, 3, 10, 1, 59, 59), 480, false},
		{"pacific spring forward", &pacific, ftUTC(2013, 3, 10, 10, 0, 0), ftUTC(2013, 3, 10, 3, 0, 0), 420, true},
		{"pacific summer", &pacific, ftUTC(2013, 7, 1, 0, 0, 0), ftUTC(2013, 6, 30, 17, 0, 0), 420, true},
		{"pacific before fall back", &pacific, ftUTC(2013, 11, 3, 8, 59, 59), ftUTC(2013, 11, 3, 1, 59, 59), 420, true},
		{"pacific fall back", &pacific, ftUTC(2013, 11, 3, 9, 0, 0), ftUTC(2013, 11, 3, 1, 0, 0), 480, false},
		{"pacific 2007 first new-rule spring", &pacific, ftUTC(2007, 3, 11, 10, 0, 0), ftUTC(2007, 3, 11, 3, 0, 0), 420, true},
		{"pacific new year", &pacific, ftUTC(2014, 1, 1, 7, 59, 59), ftUTC(2013, 12, 31, 23, 59, 59), 480, false},
		{"eastern august 2007", &eastern, ftUTC(2007, 8, 2, 18, 0, 0), ftUTC(2007, 8, 2, 14, 0, 0), 240, true},
		{"eastern leap day", &eastern, ftUTC(2012, 2, 29, 12, 0, 0), ftUTC(2012, 2, 29, 7, 0, 0), 300, false},
		{"europe before last sunday of march", &europe, ftUTC(2013, 3, 31, 0, 59, 59), ftUTC(2013, 3, 31, 1, 59, 59), -60, false},
		{"europe last sunday of march", &europe, ftUTC(2013, 3, 31, 1, 0, 0), ftUTC(2013, 3, 31, 3, 0, 0), -120, true},
		{"europe october has four sundays", &europe, ftUTC(2013, 10, 27, 0, 59, 59), ftUTC(2013, 10, 27, 2, 59, 59), -120, true},
		{"europe fall back", &europe, ftUTC(2013, 10, 27, 1, 0, 0), ftUTC(2013, 10, 27, 2, 0, 0), -60, false},
		{"europe 2015 fifth sunday", &europe, ftUTC(2015, 3, 29, 1, 0, 0), ftUTC(2015, 3, 29, 3, 0, 0), -120, true},
		{"europe 2015 before", &europe, ftUTC(2015, 3, 22, 1, 0, 0), ftUTC(2015, 3, 22, 2, 0, 0), -60, false},
		{"brazil january", &brazil, ftUTC(2013, 1, 15, 12, 0, 0), ftUTC(2013, 1, 15, 10, 0, 0), 120, true},
		{"brazil may", &brazil, ftUTC(2013, 5, 15, 12, 0, 0), ftUTC(2013, 5, 15, 9, 0, 0), 180, false},
		{"brazil december", &brazil, ftUTC(2013, 12, 15, 12, 0, 0), ftUTC(2013, 12, 15, 10, 0, 0), 120, true},
		{"brazil start", &brazil, ftUTC(2013, 10, 20, 3, 0, 0), ftUTC(2013, 10, 20, 1, 0, 0), 120, true},
		{"brazil before start", &brazil, ftUTC(2013, 10, 20, 2, 59, 59), ftUTC(2013, 10, 19, 23, 59, 59), 180, false},
		{"no daylight time", &noDST, ftUTC(2007, 7, 1, 12, 0, 0), ftUTC(2007, 7, 1, 9, 0, 0), 180, false},
		{"absolute date, its year", &once, ftUTC(2013, 6, 1, 12, 0, 0), ftUTC(2013, 6, 1, 13, 0, 0), -60, true},
		{"absolute date, another year", &once, ftUTC(2014, 6, 1, 12, 0, 0), ftUTC(2014, 6, 1, 12, 0, 0), 0, false},
		{"unusable rule", &broken, ftUTC(2013, 6, 1, 12, 0, 0), ftUTC(2013, 6, 1, 10, 0, 0), 120, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bias, dst := tc.tz.BiasAt(tc.utc)
			if bias != tc.bias || dst != tc.daylight {
				t.Errorf("have bias %d daylight %v, want %d %v", bias, dst, tc.bias, tc.daylight)
			}
			if have := tc.tz.ToLocal(tc.utc); have != tc.local {
				t.Errorf("have local %v, want %v", time.Unix(0, (have-116444736000000000)*100).UTC(), time.Unix(0, (tc.local-116444736000000000)*100).UTC())
			}
		})
	}
}

// TestToLocalExtremes: any FILETIME converts without a panic.
func TestToLocalExtremes(t *testing.T) {
	for _, ft := range []int64{0, -1, 1 << 62, -(1 << 62), 9223372036854775807, -9223372036854775808} {
		for _, tz := range []TimeZone{pacific, {Bias: -2147483648, StandardDate: wintype.SystemTime{Month: 12, Day: 5, Hour: 23}, DaylightDate: wintype.SystemTime{Month: 1, Day: 1}, DaylightBias: 2147483647}} {
			_ = tz.ToLocal(ft)
		}
	}
}

func TestResolveName(t *testing.T) {
	for _, tc := range []struct{ have, want string }{
		{"@tzres.dll,-212", "Pacific Standard Time"},
		{"@tzres.dll,-211", "Pacific Daylight Time"},
		{"@tzres.dll,-112", "Eastern Standard Time"},
		{"@tzres.dll,-111", "Eastern Daylight Time"},
		{"@TZRES.DLL,-112", "Eastern Standard Time"},
		{"@tzres.dll,-999", "@tzres.dll,-999"},
		{"@tzres.dll,-210", "@tzres.dll,-210"},
		{"SA Eastern Standard Time", "SA Eastern Standard Time"},
		{"", ""},
	} {
		if have := ResolveName(tc.have); have != tc.want {
			t.Errorf("ResolveName(%q): have %q, want %q", tc.have, have, tc.want)
		}
	}
	if have := pacific.StandardDisplayName(); have != "Pacific Standard Time" {
		t.Errorf("have %q, want Pacific Standard Time", have)
	}
	if have := pacific.DaylightDisplayName(); have != "Pacific Daylight Time" {
		t.Errorf("have %q, want Pacific Daylight Time", have)
	}
}
