package htmlreport

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// fileTimeUnix is the FILETIME (100 ns since 1601-01-01) of the Unix
// epoch.
const fileTimeUnix = 116_444_736_000_000_000

// wall turns a FILETIME into a time.Time whose UTC fields are the
// FILETIME's wall clock (a local FILETIME stays local).
func wall(ft int64) time.Time {
	d := ft - fileTimeUnix
	sec, rem := d/10_000_000, d%10_000_000
	if rem < 0 {
		sec, rem = sec-1, rem+10_000_000
	}
	return time.Unix(sec, rem*100).UTC()
}

// localTime writes a local FILETIME as "2013-02-19 18:50:17".
func localTime(ft int64) string { return wall(ft).Format("2006-01-02 15:04:05") }

// utcTime writes a local FILETIME of a log whose bias is bias minutes
// (UTC = local + bias) as ISO 8601 UTC: "2013-02-20T02:50:17Z".
func utcTime(ft int64, bias int32) string {
	return wall(ft + int64(bias)*600_000_000).Format("2006-01-02T15:04:05Z")
}

// duration writes a length in 100 ns units as "1 h 2 min 3 s".
func duration(d int64) string {
	s := d / 10_000_000
	if s <= 0 {
		return strconv.FormatFloat(float64(d)/1e7, 'f', 3, 64) + " s"
	}
	var parts []string
	if days := s / 86400; days > 0 {
		parts = append(parts, strconv.FormatInt(days, 10)+" d")
	}
	if h := s % 86400 / 3600; h > 0 {
		parts = append(parts, strconv.FormatInt(h, 10)+" h")
	}
	if m := s % 3600 / 60; m > 0 {
		parts = append(parts, strconv.FormatInt(m, 10)+" min")
	}
	if sec := s % 60; sec > 0 || len(parts) == 0 {
		parts = append(parts, strconv.FormatInt(sec, 10)+" s")
	}
	return strings.Join(parts, " ")
}

// seconds writes a number of seconds as duration does.
func seconds(s int64) string { return duration(s * 10_000_000) }

// num writes a value as people read it: thousands separators, two
// decimals from 1 on (none from 1,000 on, one from 100), three significant
// digits below 1, trailing zeros dropped; "–" for NaN and infinities.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	a := math.Abs(v)
	var s string
	switch {
	case a == 0:
		return "0"
	case a >= 1000:
		s = strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 100:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	case a >= 1e-6:
		// three significant digits
		dec := 2 - int(math.Floor(math.Log10(a)))
		s = strconv.FormatFloat(v, 'f', dec, 64)
	default:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return group(s)
}

// group puts thousands separators into the integer part of a decimal
// number's text.
func group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	if len(intPart) <= 3 {
		if sign == "-" && intPart == "0" && strings.Trim(frac, ".0") == "" {
			sign = ""
		}
		return sign + intPart + frac
	}
	var b strings.Builder
	b.WriteString(sign)
	first := len(intPart) % 3
	if first > 0 {
		b.WriteString(intPart[:first])
	}
	for i := first; i < len(intPart); i += 3 {
		if b.Len() > len(sign) {
			b.WriteByte(',')
		}
		b.WriteString(intPart[i : i+3])
	}
	b.WriteString(frac)
	return b.String()
}

// exact writes a value in full, for the title attribute a hover shows.
func exact(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	if a := math.Abs(v); a == 0 || a >= 1e-4 && a < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// count writes an integer with thousands separators.
func count(n int) string { return group(strconv.Itoa(n)) }
