package main

import (
	"strconv"

	"github.com/perfcalc/perfcalc/internal/abi"
)

// region returns buf[off:off+n] when it lies within buf, checking without
// overflow.
func region(buf []byte, off, n uint32) ([]byte, bool) {
	if uint64(off)+uint64(n) > uint64(len(buf)) {
		return nil, false
	}
	return buf[off : off+n], true
}

// inRegion returns the region (off, n) of the input buffer, or ErrBounds
// naming what lies outside it.
func inRegion(what string, off, n uint32) ([]byte, int32) {
	b, ok := region(inBuf, off, n)
	if !ok {
		return nil, boundsError(what, off, n, len(inBuf))
	}
	return b, 0
}

// recovered turns a panic into CodePanic; every export defers it:
//
//	defer recovered(&rc)
func recovered(rc *int32) {
	if r := recover(); r != nil {
		*rc = abi.CodePanic
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

// refuse records msg and returns CodeArgument.
//
//go:noinline
func refuse(msg string) int32 {
	setError(msg)
	return abi.CodeArgument
}

// boundsError reports an offset and length outside a buffer.
func boundsError(what string, off, n uint32, size int) int32 {
	b := errBuf[:0] // the text is short: it fits, and nothing is allocated
	b = append(b, "perfcalc: "...)
	b = append(b, what...)
	// One call of AppendUint for the three numbers: each call inlined
	// costs the module ~400 bytes.
	texts := [...]string{" at ", ", length ", " lies outside the buffer of "}
	for i, v := range [...]uint64{uint64(off), uint64(n), uint64(size)} {
		b = strconv.AppendUint(append(b, texts[i]...), v, 10)
	}
	b = append(b, " bytes"...)
	errLen = uint32(len(b))
	return abi.CodeBounds
}
