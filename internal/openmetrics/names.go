package openmetrics

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine"
)

// FamilyName returns the metric family name of a counter and the unit that
// its name ends in ("" for none):
//
//   - "windows_" + the object + "_" + the counter, each in lower case with
//     every run of characters other than ASCII letters and digits turned
//     into one "_" (other letters and digits are written as u<hex code
//     point>, so that names in any language stay apart): \Processor\%
//     Processor Time → windows_processor_processor_time_percent;
//   - a suffix for the counter type's display unit (Prometheus' naming
//     practice): "_percent" for percentage types (the value stays PDH's
//     0–100 value, not a ratio), "_per_second" for rates (a counter name
//     ending in "/sec" loses it first: Disk Bytes/sec →
//     windows_physicaldisk_disk_bytes_per_second), "_seconds" for the
//     types PDH shows in seconds (PERF_ELAPSED_TIME, the average timers);
//     none where the name already ends in it;
//   - the unit is "percent", "seconds" or "bytes" when the name ends in
//     "_percent", "_seconds" or "_bytes" (Memory\Available Bytes →
//     windows_memory_available_bytes, unit bytes), and "" otherwise.
func FamilyName(object, counter string, t engine.CounterType) (name, unit string) {
	obj := snake(object)
	ctr := snake(counter)
	suffix := ""
	switch {
	case t.IsPercent():
		suffix = "percent"
	case t.Suffix() == engine.PerSec && t.Displayable():
		suffix = "per_second"
		for _, tail := range []string{"_sec", "_per", "persec"} {
			ctr = strings.TrimSuffix(ctr, tail)
		}
		if ctr == "sec" || ctr == "per" {
			ctr = ""
		}
	case t.Suffix() == engine.Seconds && t.Displayable():
		suffix = "seconds"
	}
	b := make([]byte, 0, 9+len(obj)+1+len(ctr)+1+len(suffix))
	b = append(b, "windows"...)
	for _, part := range []string{obj, ctr} {
		if part != "" {
			b = append(b, '_')
			b = append(b, part...)
		}
	}
	if suffix != "" && !strings.HasSuffix(string(b), "_"+suffix) {
		b = append(b, '_')
		b = append(b, suffix...)
	}
	name = string(b)
	for _, u := range []string{"percent", "seconds", "bytes"} {
		if strings.HasSuffix(name, "_"+u) {
			unit = u
			break
		}
	}
	return name, unit
}

// snake writes s in lower case with every run of other characters than
// ASCII letters and digits as one "_", trimmed; other letters and digits
// become u<hex>.
func snake(s string) string {
	b := make([]byte, 0, len(s))
	sep := false
	put := func(p ...byte) {
		if sep && len(b) > 0 {
			b = append(b, '_')
		}
		sep = false
		b = append(b, p...)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			put(c)
			i++
		case c >= 'A' && c <= 'Z':
			put(c + 'a' - 'A')
			i++
		case c < utf8.RuneSelf:
			sep = true
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			i += n
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				put(strconv.AppendInt([]byte{'u'}, int64(r), 16)...)
			} else {
				sep = true
			}
		}
	}
	return string(b)
}

// appendLabelValue appends s as an OpenMetrics label value: quoted, with
// backslash, double quote and line feed escaped, invalid UTF-8 replaced by
// U+FFFD.
func appendLabelValue(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, true)
	return append(dst, '"')
}

// appendEscaped appends s with backslash and line feed escaped, and double
// quotes too when quote is set (label values; HELP text escapes them as
// well in OpenMetrics).
func appendEscaped(dst []byte, s string, quote bool) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			dst = append(dst, '\\', '\\')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '"' && quote:
			dst = append(dst, '\\', '"')
		case c < utf8.RuneSelf:
			dst = append(dst, c)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, s[i:i+n]...)
			}
			i += n
			continue
		}
		i++
	}
	return dst
}
