package main

import (
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
)

// ABIVersion is the version of the ABI that ABI.md describes. It changes
// whenever an export, a parameter or a record layout changes meaning.
const ABIVersion = 1

// Error codes: the negative results of the exports (ABI.md, "Errors").
const (
	ErrPanic       = -1  // the export panicked (a bug in perfcalc); the text says where
	ErrBounds      = -2  // an offset or length lies outside the guest's buffers
	ErrArgument    = -3  // a reserved bit or an argument out of its range
	ErrSpace       = -4  // the result does not fit the output buffer: a page was written, call again
	ErrTruncated   = -5  // the input is truncated (engine.ErrTruncated)
	ErrMalformed   = -6  // the input is malformed (engine.ErrMalformed)
	ErrUnsupported = -7  // the input is well-formed but not decoded (engine.ErrUnsupported)
	ErrLimit       = -8  // the input asks for more work or records than the module allows
	ErrInput       = -9  // any other refusal of the input (not a .blg, a bad pattern, …)
	ErrAbsent      = -10 // the input lacks something the call needs (a counter id)
)

// Statuses that compute reports through last_status besides the
// engine.Status values 0 (Valid) to 6 (UnknownType).
const (
	StatusArgument = 0xFE // a reserved bit was set in flags or options
	StatusPanic    = 0xFF // compute panicked (a bug in perfcalc)
)

// Request records of compute_batch (ABI.md, "Request record").
const (
	ReqSize = 72

	reqType       = 0  // u32 CounterType
	reqScale      = 4  // i32 DefaultScale
	reqTimeBase   = 8  // i64 TimeBase (F)
	reqFlags      = 16 // u32 FlagHasOld | reserved
	reqOptions    = 20 // u32 engine.Options
	reqOldCStatus = 24 // u32
	reqNewCStatus = 28 // u32
	reqOldFirst   = 32 // u64
	reqOldSecond  = 40 // u64
	reqNewFirst   = 48 // u64
	reqNewSecond  = 56 // u64
	reqOldMulti   = 64 // u32
	reqNewMulti   = 68 // u32
)

// Result records of compute_batch.
const (
	ResSize = 16

	resValue  = 0 // f64
	resStatus = 8 // u32 engine.Status
	resPad    = 12
)

// FlagHasOld is bit 0 of a request's flags (and of compute's flags): the
// older sample is present.
const FlagHasOld = 1

// OptionsMask is the engine.Options bits that the ABI accepts.
const OptionsMask = uint32(engine.Cap100 | engine.Scale | engine.Times1000 | engine.Wrap32)

// Result header and records of the decode exports (ABI.md, "Decode
// results").
const (
	Magic      = 0x31524350 // "PCR1" in little-endian byte order
	HeaderSize = 80
	RecordSize = 80

	hdrMagic     = 0
	hdrVersion   = 4
	hdrKind      = 8
	hdrFlags     = 12
	hdrTotal     = 16
	hdrFirst     = 20
	hdrCount     = 24
	hdrRecSize   = 28
	hdrRecOff    = 32
	hdrStrOff    = 36
	hdrStrLen    = 40
	hdrNeeded    = 44
	hdrColumns   = 48
	hdrRows      = 52
	hdrBias      = 56
	hdrInfoOff   = 60
	hdrInfoLen   = 64
	hdrReserved0 = 68
	hdrReserved1 = 72

	recPathOff  = 0  // u32, from the start of the string area
	recPathLen  = 4  // u32
	recValue    = 8  // f64
	recStatus   = 16 // u32
	recType     = 20 // u32
	recFirst    = 24 // u64
	recSecond   = 32 // u64
	recMulti    = 40 // u32
	recCStatus  = 44 // u32
	recTimeBase = 48 // i64
	recTime     = 56 // i64
	recScale    = 64 // i32
	recAux      = 68 // u32 kind-specific (ABI.md)
	recColumn   = 72 // u32 kind-specific (ABI.md)
	recReserved = 76 // u32 0
)

// Kinds of decode results (header field kind).
const (
	KindV1    = 1
	KindV2    = 2
	KindNames = 3
	KindBlg   = 4
	KindQuery = 5
)

// Header flags.
const (
	FlagDamaged = 1 // the input is damaged after the records returned; err_ptr/err_len hold why
	FlagMore    = 2 // more records follow: call again with first = first + count
)

// MaxRecords caps the records one decode enumerates, whatever its input
// claims (a V1 blob's counters times its instances can grow with the square
// of its size).
const MaxRecords = 1 << 21

// region returns buf[off:off+n] when it lies within buf, checking without
// overflow.
func region(buf []byte, off, n uint32) ([]byte, bool) {
	if uint64(off)+uint64(n) > uint64(len(buf)) {
		return nil, false
	}
	return buf[off : off+n], true
}

// recovered turns a panic into ErrPanic; every export defers it:
//
//	defer recovered(&rc)
func recovered(rc *int32) {
	if r := recover(); r != nil {
		*rc = ErrPanic
		msg := "perfcalc: panic"
		if e, ok := r.(error); ok {
			msg += ": " + e.Error()
		} else if s, ok := r.(string); ok {
			msg += ": " + s
		}
		setError(msg)
	}
}

// fail records err's text and returns its error code.
//
//go:noinline
func fail(code int32, err error) int32 {
	setError(err.Error())
	return code
}

// errorCode maps a decoder's error to an error code.
func errorCode(err error) int32 {
	switch {
	case is(err, engine.ErrTruncated):
		return ErrTruncated
	case is(err, engine.ErrMalformed):
		return ErrMalformed
	case is(err, engine.ErrUnsupported):
		return ErrUnsupported
	}
	return ErrInput
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

// boundsError reports an offset and length outside a buffer.
func boundsError(what string, off, n uint32, size int) int32 {
	b := errBuf[:0] // the text is short: it fits, and nothing is allocated
	b = append(b, "perfcalc: "...)
	b = append(b, what...)
	b = append(b, " at "...)
	b = strconv.AppendUint(b, uint64(off), 10)
	b = append(b, ", length "...)
	b = strconv.AppendUint(b, uint64(n), 10)
	b = append(b, " lies outside the buffer of "...)
	b = strconv.AppendUint(b, uint64(size), 10)
	b = append(b, " bytes"...)
	errLen = uint32(len(b))
	return ErrBounds
}
