package wintype

import "encoding/binary"

// SystemTimeSize is sizeof(SYSTEMTIME): eight WORDs.
const SystemTimeSize = 16

// SystemTime mirrors Windows' SYSTEMTIME (16 bytes, eight little-endian
// WORDs in this order). The decoders hand it over as stored, unchecked.
//
// Where it appears:
//   - PERF_DATA_BLOCK.SystemTime (package perfdata) and
//     PERF_DATA_HEADER.SystemTime (package perflibv2): the collection
//     time. The documentation says UTC; in the real captures it is the
//     collecting machine's local time (the blocks' PerfTime100nSec is the
//     UTC time stamp).
//   - TIME_ZONE_INFORMATION's StandardDate and DaylightDate (package blg):
//     Year 0 selects the "day-in-month" form: the transition happens on the
//     Day-th (1..5, 5 = the last) DayOfWeek (0 = Sunday) of Month, at
//     Hour:Minute:Second.Milliseconds local time, every year. A non-zero
//     Year gives an absolute date that applies to that year only. Month 0
//     means the zone has no daylight time.
type SystemTime struct {
	Year, Month, DayOfWeek, Day, Hour, Minute, Second, Milliseconds uint16
}

// ParseSystemTime decodes the SYSTEMTIME at the start of b, which must hold
// at least SystemTimeSize bytes (the callers check their record's length
// first).
func ParseSystemTime(b []byte) SystemTime {
	_ = b[15] // one bounds check
	le := binary.LittleEndian
	return SystemTime{
		Year:         le.Uint16(b[0:]),
		Month:        le.Uint16(b[2:]),
		DayOfWeek:    le.Uint16(b[4:]),
		Day:          le.Uint16(b[6:]),
		Hour:         le.Uint16(b[8:]),
		Minute:       le.Uint16(b[10:]),
		Second:       le.Uint16(b[12:]),
		Milliseconds: le.Uint16(b[14:]),
	}
}
