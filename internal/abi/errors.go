package abi

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// Error is a refusal that the ABI defines itself, with its code (Code…),
// the number that completes it (last_detail) and its text.
type Error struct {
	_      [0]func() // not comparable (compared as pointers): no equality function in the module
	Code   int32
	Detail uint32
	Text   string
}

// Error returns the text.
func (e *Error) Error() string { return e.Text }

// The ABI's own refusals, the same in the module and in host.Native.
var (
	// ErrStopped ends a builder whose result its Writer's Pause
	// abandoned (a continuation that the host ended).
	ErrStopped error = &Error{Code: CodeArgument, Text: "perfcalc: the result was abandoned"}
	// ErrTooMany refuses a result of more than MaxRecords records.
	ErrTooMany error = &Error{Code: CodeLimit, Text: "perfcalc: the input holds more than 2097152 records"}
	// ErrEvery refuses an every above MaxEvery.
	ErrEvery error = &Error{Code: CodeArgument, Text: "perfcalc: every is above 2^30"}
	// ErrFormat refuses a relog_text format other than FormatCSV,
	// FormatTSV, FormatJSON and FormatBin.
	ErrFormat error = &Error{Code: CodeArgument, Text: "perfcalc: relog_text: format is 0 (CSV), 1 (TSV), 2 (JSON) or 3 (.blg)"}
	// ErrQueryFormat refuses a query_text format other than FormatCSV and
	// FormatTSV.
	ErrQueryFormat error = &Error{Code: CodeArgument, Text: "perfcalc: query_text: format is 0 (CSV) or 1 (TSV)"}
	// ErrDigits refuses digits above MaxDigits, and reserved bits of
	// relog_text's and query_text's format.
	ErrDigits error = &Error{Code: CodeArgument, Text: "perfcalc: digits (bits 8 to 15 of format) are 0 (the default, 20) or 1 to 20"}
	// ErrStatsFlags refuses relog_stats' reserved flags.
	ErrStatsFlags error = &Error{Code: CodeArgument, Text: "perfcalc: relog_stats: flags are 0 or 1 (StatsPercentiles)"}
)

// CodeOf returns the error code of an error of the builders: an *Error's
// own; CodeInput for captures that query cannot pair; CodeTruncated,
// CodeMalformed or CodeUnsupported for errors that wrap the engine's
// sentinels; CodeLimit for a log of more columns than relog's
// MaxColumns; CodeInput for any other. nil is 0.
func CodeOf(err error) int32 {
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	switch {
	case err == nil:
		return 0
	case is(err, query.ErrMismatch) || is(err, query.ErrNotV1):
		return CodeInput
	case is(err, engine.ErrTruncated):
		return CodeTruncated
	case is(err, engine.ErrMalformed):
		return CodeMalformed
	case is(err, engine.ErrUnsupported):
		return CodeUnsupported
	}
	if _, ok := err.(*relog.ColumnsError); ok {
		return CodeLimit
	}
	return CodeInput
}

// DetailOf returns the number that completes err's code (last_detail): an
// *Error's Detail, else 0.
func DetailOf(err error) uint32 {
	if e, ok := err.(*Error); ok {
		return e.Detail
	}
	return 0
}

// is reports whether err or an error it wraps (Unwrap() error or
// Unwrap() []error) is target, as errors.Is does for sentinel errors.
// errors.Is would link internal/reflectlite, about 40 KB of the module, to
// guard against comparing uncomparable errors; the engine's sentinels are
// pointers, so == cannot panic here.
func is(err, target error) bool {
	for err != nil {
		if err == target {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if is(e, target) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}
