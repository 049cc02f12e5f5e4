package logtext

import (
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
)

// Dialect is one of relog's text formats: PDH-CSV or PDH-TSV.
type Dialect uint8

// The dialects.
const (
	// CSV is relog's -f csv: fields separated by commas.
	CSV Dialect = iota
	// TSV is relog's -f tsv: fields separated by tabs, "(PDH-TSV 4.0)" in
	// the header.
	TSV
)

// Sep returns the field separator of d: a comma, or a tab.
func (d Dialect) Sep() byte {
	if d == TSV {
		return '\t'
	}
	return ','
}

// Zone is the time zone that a table's header names: its times are the
// local times of that zone.
type Zone struct {
	// Name is the zone's name, "Pacific Standard Time".
	Name string
	// Bias is UTC − local time in minutes, 480 for UTC-08:00.
	Bias int32
	// Known says that the header names the zone; without it the header's
	// first field is "(PDH-CSV 4.0)" alone.
	Known bool
}

// OffsetZone returns the Zone of a bias named after its offset,
// "UTC-08:00" for 480 ("UTC" for 0), for sources that carry no zone name
// (a capture of live counters). |bias| is at most 14 hours.
func OffsetZone(bias int32) Zone {
	b := append(make([]byte, 0, 9), "UTC"...)
	if bias != 0 {
		off, sign := -bias, byte('+')
		if off < 0 {
			sign, off = '-', -off
		}
		h, m := byte(off/60%100), byte(off%60)
		b = append(b, sign, '0'+h/10, '0'+h%10, ':', '0'+m/10, '0'+m%10)
	}
	return Zone{Name: string(b), Bias: bias, Known: true}
}

// AppendTitle appends the header's first field without its quotes:
// "(PDH-CSV 4.0) (Pacific Standard Time)(480)" ("(PDH-TSV 4.0) …" for TSV),
// with the double quotes in the zone's name doubled; "(PDH-CSV 4.0)" alone
// when the zone is not Known.
func AppendTitle(dst []byte, d Dialect, z Zone) []byte {
	if d == TSV {
		dst = append(dst, "(PDH-TSV 4.0)"...)
	} else {
		dst = append(dst, "(PDH-CSV 4.0)"...)
	}
	if !z.Known {
		return dst
	}
	dst = append(dst, " ("...)
	dst = appendEscaped(dst, z.Name)
	dst = append(dst, ")("...)
	dst = strconv.AppendInt(dst, int64(z.Bias), 10)
	return append(dst, ')')
}

// AppendTitleField appends the header's first field in its quotes
// (AppendTitle). The counter paths follow it, each through AppendField,
// then CR LF.
func AppendTitleField(dst []byte, d Dialect, z Zone) []byte {
	dst = append(dst, '"')
	return append(AppendTitle(dst, d, z), '"')
}

// AppendField appends the separator sep and s in double quotes, with the
// double quotes in s doubled (RFC 4180).
func AppendField[S ~string | ~[]byte](dst []byte, sep byte, s S) []byte {
	dst = append(dst, sep, '"')
	dst = appendEscaped(dst, s)
	return append(dst, '"')
}

// AppendValue appends the separator sep and a value's field: the value in
// quotes when valid, a single space in quotes when not (no value yet, bad
// data). The value prints as C's %.<digits>g with a three-digit exponent
// (engine.AppendFloat: relog's 20 significant digits, 17 as before about
// 2020).
func AppendValue(dst []byte, sep byte, v float64, valid bool, digits int) []byte {
	dst = append(dst, sep, '"')
	if valid {
		dst = engine.AppendFloat(dst, v, digits)
	} else {
		dst = append(dst, ' ')
	}
	return append(dst, '"')
}

// AppendFixedValue is AppendValue for typeperf's values: six decimals, as
// C's %f prints them.
func AppendFixedValue(dst []byte, sep byte, v float64, valid bool) []byte {
	dst = append(dst, sep, '"')
	if valid {
		dst = strconv.AppendFloat(dst, v, 'f', 6, 64)
	} else {
		dst = append(dst, ' ')
	}
	return append(dst, '"')
}

// AppendAbsent appends the separator sep and the empty field of a column
// that the row does not have (an instance absent from the sample).
func AppendAbsent(dst []byte, sep byte) []byte {
	return append(dst, sep, '"', '"')
}

// EndRow ends a line of the table: CR LF.
func EndRow(dst []byte) []byte { return append(dst, '\r', '\n') }

// appendEscaped appends s with its double quotes doubled.
func appendEscaped[S ~string | ~[]byte](dst []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, s[i])
	}
	return dst
}
