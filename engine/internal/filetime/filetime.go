// Package filetime converts Windows FILETIMEs (100 ns ticks since
// 1601-01-01) to and from calendar fields in the proleptic Gregorian
// calendar, without package time: the engine's packages use it so that the
// WebAssembly module does not carry time's zone database and syscalls.
package filetime

// FILETIME units.
const (
	TicksPerSecond = 10_000_000
	TicksPerMinute = 60 * TicksPerSecond
	TicksPerDay    = 24 * 60 * TicksPerMinute
	// EpochDays1601 is the number of days from 1601-01-01 to 1970-01-01.
	EpochDays1601 = 134774
)

// Civil is a FILETIME's calendar date and clock, as read on a wall clock
// (no zone is applied).
type Civil struct {
	Year, Month, Day     int64
	Hour, Minute, Second int64
	Ticks                int64 // 100 ns ticks within the second, 0…9,999,999
}

// Split returns the calendar fields of the FILETIME ft.
func Split(ft int64) Civil {
	days := FloorDiv(ft, TicksPerDay)
	c := Clock(ft - days*TicksPerDay)
	c.Year, c.Month, c.Day = CivilFromDays(days - EpochDays1601)
	return c
}

// Clock returns the clock fields (Hour, Minute, Second, Ticks) of rest
// ticks since midnight, 0 ≤ rest < TicksPerDay; the date fields are 0.
func Clock(rest int64) Civil {
	var c Civil
	c.Hour = rest / (60 * TicksPerMinute)
	rest -= c.Hour * 60 * TicksPerMinute
	c.Minute = rest / TicksPerMinute
	rest -= c.Minute * TicksPerMinute
	c.Second = rest / TicksPerSecond
	c.Ticks = rest - c.Second*TicksPerSecond
	return c
}

// Join returns the FILETIME of a calendar date and clock. The fields are not
// checked; use DaysInMonth to validate a day first.
func Join(y, mo, d, h, mi, s int64) int64 {
	days := DaysFromCivil(y, mo, d) + EpochDays1601
	return days*TicksPerDay + ((h*60+mi)*60+s)*TicksPerSecond
}

// DaysFromCivil returns the number of days from 1970-01-01 to y-m-d in the
// proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
func DaysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := FloorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// CivilFromDays is the inverse of DaysFromCivil.
func CivilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := FloorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
		y++ // January and February belong to the next civil year
	}
	return y, m, d
}

// IsLeap reports whether y is a leap year.
func IsLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// DaysInMonth returns the number of days of month m (1…12) of year y.
func DaysInMonth(y, m int64) int64 {
	switch m {
	case 2:
		if IsLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// FloorDiv divides a by b (b > 0) rounding towards minus infinity.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
