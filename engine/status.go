package engine

import "strconv"

// Status says whether a computed value is valid, and why not. It follows
// PDH's calculation statuses (PDH_CALC_NEGATIVE_DENOMINATOR, …); the zero
// Status is Valid.
type Status uint8

// The statuses of a computed value. When several apply, the first in this
// order wins: UnknownType, NotDisplayable, InvalidData, NewData,
// NegativeDenominator, NegativeValue.
const (
	// Valid: the value is the type's formula.
	Valid Status = iota
	// NewData: a 2-sample type was given one sample (the first of a series).
	NewData
	// NegativeDenominator: a time or base delta ≤ 0, a zero base or item
	// count, or a frequency ≤ 0 where one divides.
	NegativeDenominator
	// NegativeValue: the counter went backwards (a reset, a wrap, a
	// restarted instance), an inverse timer's ΔN exceeded ΔD, or an elapsed
	// time's start lies after its time stamp.
	NegativeValue
	// InvalidData: the source marked the raw data bad (a CStatus other than
	// 0 or 1), or the counter's base is missing.
	InvalidData
	// NotDisplayable: base, text, no-data and histogram types have no value.
	NotDisplayable
	// UnknownType: the counter type is not a winperf.h type.
	UnknownType
)

var statusNames = [...]string{"Valid", "NewData", "NegativeDenominator", "NegativeValue", "InvalidData", "NotDisplayable", "UnknownType"}

// String returns the status name (Valid, NewData, …).
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// ParseStatus returns the status with the given name, as String prints it.
func ParseStatus(name string) (Status, bool) {
	for i, n := range statusNames {
		if n == name {
			return Status(i), true
		}
	}
	return 0, false
}
