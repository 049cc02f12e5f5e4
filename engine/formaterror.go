package engine

import (
	"errors"
	"strconv"
)

// Sentinel errors that a FormatError wraps, for errors.Is.
var (
	// ErrTruncated: a record or field extends past the end of the input.
	ErrTruncated = errors.New("truncated")
	// ErrMalformed: a field holds a value that the format does not allow
	// (a bad signature, a length that points outside its parent, a count
	// larger than the bytes that could hold it, …).
	ErrMalformed = errors.New("malformed")
	// ErrUnsupported: well-formed input that perfcalc does not decode
	// (a big-endian blob, an unknown code page, …).
	ErrUnsupported = errors.New("unsupported")
)

// FormatError reports malformed input to one of perfcalc's decoders: which
// format, which record (by its Windows structure name), where, which field,
// and what is wrong. Its text reads, for example,
//
//	perfdata: PERF_OBJECT_TYPE 3 at 0x1a40: DefinitionLength 4096 exceeds TotalByteLength 2048
type FormatError struct {
	_      [0]func() // not comparable: no equality function in the module
	Format string    // the decoder: "perfdata", "perflibv2", "nametable", "blg", …
	Record string    // the structure, e.g. "PERF_OBJECT_TYPE"
	Index  int       // the record's index among records of its kind, or −1
	Offset int64     // byte offset of the record (or of the field) in the input
	Field  string    // the field at fault, e.g. "DefinitionLength"; may be empty
	Detail string    // what is wrong with it, e.g. "4096 exceeds TotalByteLength 2048"
	Err    error     // ErrTruncated, ErrMalformed or ErrUnsupported
}

// Error returns the error's text, built without fmt.
func (e *FormatError) Error() string {
	b := make([]byte, 0, 96)
	b = append(b, e.Format...)
	b = append(b, ": "...)
	b = append(b, e.Record...)
	if e.Index >= 0 {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(e.Index), 10)
	}
	b = append(b, " at 0x"...)
	b = strconv.AppendInt(b, e.Offset, 16)
	b = append(b, ':')
	if e.Field != "" {
		b = append(b, ' ')
		b = append(b, e.Field...)
	}
	if e.Detail != "" {
		b = append(b, ' ')
		b = append(b, e.Detail...)
	} else if e.Err != nil {
		b = append(b, ' ')
		b = append(b, e.Err.Error()...)
	}
	return string(b)
}

// Unwrap returns the sentinel error (ErrTruncated, …).
func (e *FormatError) Unwrap() error { return e.Err }
