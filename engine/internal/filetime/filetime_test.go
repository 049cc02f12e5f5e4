package filetime

import (
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/tools/importban"
)

// The calendar arithmetic agrees with package time over ±600 years around
// 1970, day by day, and at every hour of a few hundred days.
func TestAgainstTime(t *testing.T) {
	epoch := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := int64(-600 * 366); d <= 600*366; d++ {
		tm := epoch.AddDate(0, 0, int(d))
		y, m, day := CivilFromDays(d)
		if y != int64(tm.Year()) || m != int64(tm.Month()) || day != int64(tm.Day()) {
			t.Fatalf("CivilFromDays(%d) = %d-%d-%d, want %v", d, y, m, day, tm)
		}
		if have := DaysFromCivil(y, m, day); have != d {
			t.Fatalf("DaysFromCivil(%d, %d, %d) = %d, want %d", y, m, day, have, d)
		}
		if DaysInMonth(y, m) != int64(time.Date(tm.Year(), tm.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()) {
			t.Fatalf("DaysInMonth(%d, %d) = %d", y, m, DaysInMonth(y, m))
		}
	}
}

func TestSplitJoin(t *testing.T) {
	const unixEpoch = 116444736000000000 // FILETIME of 1970-01-01 00:00:00
	for _, ft := range []int64{0, 1, unixEpoch, unixEpoch - 1, 130057734178440000, 128315940386596596, 1<<63 - 1, -1, -TicksPerDay - 7} {
		c := Split(ft)
		sec := (ft - unixEpoch) / TicksPerSecond
		rem := (ft - unixEpoch) % TicksPerSecond
		if rem < 0 {
			sec, rem = sec-1, rem+TicksPerSecond
		}
		tm := time.Unix(sec, rem*100).UTC()
		want := Civil{int64(tm.Year()), int64(tm.Month()), int64(tm.Day()), int64(tm.Hour()), int64(tm.Minute()), int64(tm.Second()), rem}
		if c != want {
			t.Errorf("Split(%d) = %+v, want %+v", ft, c, want)
		}
		if have := Join(c.Year, c.Month, c.Day, c.Hour, c.Minute, c.Second) + c.Ticks; have != ft {
			t.Errorf("Join(Split(%d)) = %d", ft, have)
		}
	}
}

func TestFloorDiv(t *testing.T) {
	for _, tc := range []struct{ a, b, want int64 }{{7, 2, 3}, {-7, 2, -4}, {-8, 2, -4}, {0, 5, 0}, {-1, 5, -1}} {
		if have := FloorDiv(tc.a, tc.b); have != tc.want {
			t.Errorf("FloorDiv(%d, %d) = %d, want %d", tc.a, tc.b, have, tc.want)
		}
	}
}

func TestImports(t *testing.T) { importban.Check(t) }
