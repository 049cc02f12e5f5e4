package blg

import (
	"encoding/binary"
	"strings"

	"github.com/perfcalc/perfcalc/engine/internal/filetime"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// timeZoneSize is sizeof(TIME_ZONE_INFORMATION).
const timeZoneSize = 172

// TimeZone mirrors Windows' TIME_ZONE_INFORMATION as the log header stores
// it: the logging machine's zone, which relog uses for local time stamps and
// for the "(<standard name>)(<bias>)" of its CSV header. Biases are in
// minutes, UTC = local time + bias.
type TimeZone struct {
	_            [0]func()          // not comparable: no equality function in the module
	Bias         int32              // +0
	StandardName string             // +4, WCHAR[32]; often a tzres.dll reference such as "@tzres.dll,-212"
	StandardDate wintype.SystemTime // +68: when daylight time ends (in daylight local time)
	StandardBias int32              // +84
	DaylightName string             // +88, WCHAR[32]
	DaylightDate wintype.SystemTime // +152: when daylight time starts (in standard local time)
	DaylightBias int32              // +168
}

func parseTimeZone(b []byte) TimeZone {
	return TimeZone{
		Bias:         int32(binary.LittleEndian.Uint32(b[0:])),
		StandardName: utf16String(b[4:68]),
		StandardDate: wintype.ParseSystemTime(b[68:84]),
		StandardBias: int32(binary.LittleEndian.Uint32(b[84:])),
		DaylightName: utf16String(b[88:152]),
		DaylightDate: wintype.ParseSystemTime(b[152:168]),
		DaylightBias: int32(binary.LittleEndian.Uint32(b[168:])),
	}
}

// tzresName resolves the tzres.dll string references that appear in real
// logs to the English names Windows (and relog) prints. A reference -X2 is a
// zone's standard name and -X1 its daylight name; only references that real
// logs or relog output justify are listed; "" for any other. (A switch,
// not a map: the WebAssembly module is about 1 KB smaller.)
func tzresName(ref string) string {
	switch ref {
	case "@tzres.dll,-211":
		return "Pacific Daylight Time" // Tx_BasicPerfCounters.blg (Bias 480); the name appears in relog CSV headers
	case "@tzres.dll,-212":
		return "Pacific Standard Time" // Tx_BasicPerfCounters.blg
	case "@tzres.dll,-111":
		return "Eastern Daylight Time" // PAL_SamplePerfmonLog.blg (Bias 300)
	case "@tzres.dll,-112":
		return "Eastern Standard Time" // PAL_SamplePerfmonLog.blg
	}
	return ""
}

// ResolveName returns the name Windows prints for a time-zone name as a log
// stores it: a tzres.dll reference that this package knows ("@tzres.dll,-212"
// is "Pacific Standard Time") becomes that name; anything else, including
// an unknown reference, is returned unchanged. Matching ignores the case of
// the DLL name, as Windows' resource loader does.
func ResolveName(name string) string {
	if !strings.HasPrefix(name, "@") {
		return name
	}
	if v := tzresName(asciiLower(name)); v != "" {
		return v
	}
	return name
}

// asciiLower returns s with A–Z in lower case: the references are ASCII,
// and strings.ToLower would bring Unicode's case tables into the
// WebAssembly module.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// StandardDisplayName is ResolveName(tz.StandardName): the name relog prints
// in its CSV header.
func (tz *TimeZone) StandardDisplayName() string { return ResolveName(tz.StandardName) }

// DaylightDisplayName is ResolveName(tz.DaylightName).
func (tz *TimeZone) DaylightDisplayName() string { return ResolveName(tz.DaylightName) }

// FILETIME units, from the engine's calendar package.
const (
	ticksPerMinute = filetime.TicksPerMinute
	ticksPerDay    = filetime.TicksPerDay
)

// transition returns the local time (FILETIME ticks, in the clock that is in
// force before the change) of a zone's transition in year y, and false when
// the rule is not usable in that year.
func transition(st wintype.SystemTime, y int64) (int64, bool) {
	m := int64(st.Month)
	if m < 1 || m > 12 || st.Hour > 23 || st.Minute > 59 || st.Second > 59 || st.Milliseconds > 999 {
		return 0, false
	}
	var day int64
	if st.Year != 0 { // absolute date, that year only
		if int64(st.Year) != y || st.Day < 1 || int64(st.Day) > filetime.DaysInMonth(y, m) {
			return 0, false
		}
		day = int64(st.Day)
	} else {
		if st.Day < 1 || st.Day > 5 || st.DayOfWeek > 6 {
			return 0, false
		}
		first := filetime.DaysFromCivil(y, m, 1)
		// 1970-01-01 was a Thursday (4).
		dow := ((first % 7) + 7 + 4) % 7
		day = 1 + (int64(st.DayOfWeek)-dow+7)%7 + 7*(int64(st.Day)-1)
		for day > filetime.DaysInMonth(y, m) {
			day -= 7
		}
	}
	days := filetime.DaysFromCivil(y, m, day) + filetime.EpochDays1601
	ms := ((int64(st.Hour)*60+int64(st.Minute))*60+int64(st.Second))*1000 + int64(st.Milliseconds)
	return days*ticksPerDay + ms*10_000, true
}

// BiasAt returns the zone's total bias in minutes (UTC = local + bias) at
// the UTC FILETIME utc, and whether daylight time is in force, applying the
// zone's own transition rules as Windows does: daylight time starts at
// DaylightDate (standard local time) and ends at StandardDate (daylight
// local time), in the year of the standard local time; a zone whose rules
// are absent (StandardDate.Month 0) or unusable has Bias alone.
func (tz *TimeZone) BiasAt(utc int64) (bias int32, daylight bool) {
	if tz.StandardDate.Month == 0 || tz.DaylightDate.Month == 0 {
		return tz.Bias, false
	}
	std := int64(tz.Bias) + int64(tz.StandardBias)
	dst := int64(tz.Bias) + int64(tz.DaylightBias)
	y, _, _ := filetime.CivilFromDays(filetime.FloorDiv(utc-std*ticksPerMinute, ticksPerDay) - filetime.EpochDays1601)
	start, ok1 := transition(tz.DaylightDate, y)
	end, ok2 := transition(tz.StandardDate, y)
	if !ok1 || !ok2 {
		return tz.Bias + tz.StandardBias, false
	}
	startUTC := start + std*ticksPerMinute // local standard time → UTC
	endUTC := end + dst*ticksPerMinute     // local daylight time → UTC
	if startUTC < endUTC {
		daylight = utc >= startUTC && utc < endUTC
	} else { // southern hemisphere: daylight time spans the new year
		daylight = utc >= startUTC || utc < endUTC
	}
	if daylight {
		return int32(dst), true
	}
	return int32(std), false
}

// ToLocal converts the UTC FILETIME utc to the zone's local FILETIME with
// BiasAt. It does not depend on the reading machine's zone.
func (tz *TimeZone) ToLocal(utc int64) int64 {
	bias, _ := tz.BiasAt(utc)
	return utc - int64(bias)*ticksPerMinute
}
