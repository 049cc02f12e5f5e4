package engine

import (
	"errors"
	"strconv"
	"strings"
)

// OptionSet is what an options text says (ParseOptions): the option bits
// and, when the text gives one with scale=S, the DefaultScale to apply.
type OptionSet struct {
	Options Options
	// Scale is the S of scale=S; HasScale reports that the text gave one.
	Scale    int32
	HasScale bool
}

// ParseOptions reads an options text, the one syntax of perfcalc calc
// --options and perfcalc values --options (the JS and Python packages
// read the same text): names separated by commas, in any order and ASCII
// case, with spaces around them ignored; "" is none, relog's output.
//
//	cap100     clamp percentages at 100 (Cap100, PDH's default)
//	scale      multiply by 10^DefaultScale, the counter's (Scale, PDH's default)
//	scale=S    the same with the DefaultScale S, −10 to 10, for a value
//	           computed from raw samples alone (perfcalc calc)
//	1000       multiply by 1000 (Times1000, PDH_FMT_1000); also times1000
//	wrap32     read a backwards step of a 4-byte counter as a 32-bit wrap (Wrap32)
//
// They apply after the formula in the order of Options, whatever their
// order in the text. An unknown name, an empty one or a bad S is an error
// that quotes it.
func ParseOptions(s string) (OptionSet, error) {
	var o OptionSet
	if trimSpace(s) == "" {
		return o, nil
	}
	for _, name := range strings.Split(s, ",") {
		name = trimSpace(name)
		switch lower(name) {
		case "cap100":
			o.Options |= Cap100
		case "scale":
			o.Options |= Scale
		case "1000", "times1000":
			o.Options |= Times1000
		case "wrap32":
			o.Options |= Wrap32
		default:
			if len(name) < 6 || lower(name[:6]) != "scale=" {
				return OptionSet{}, errors.New("unknown option " + strconv.Quote(name) + " (want cap100, scale, 1000 or wrap32)")
			}
			v, ok := parseScale(name[6:])
			if !ok {
				return OptionSet{}, errors.New(strconv.Quote(name) + ": the scale is a power of ten from -10 to 10")
			}
			o.Options |= Scale
			o.Scale, o.HasScale = v, true
		}
	}
	return o, nil
}

// parseScale reads S of scale=S: an optional sign and decimal digits, −10
// to 10.
func parseScale(s string) (int32, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	if len(s) == 0 || len(s) > 2 {
		return 0, false
	}
	v := int32(0)
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		v = 10*v + int32(s[i]-'0')
	}
	if v > 10 {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// trimSpace returns s without leading and trailing ASCII spaces and tabs.
func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// lower returns s with ASCII letters in lower case.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
