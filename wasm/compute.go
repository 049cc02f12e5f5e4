//go:build !perfcalcanalyze

package main

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// input is the engine.Input of compute; a package variable, so that the call
// allocates nothing whatever escape analysis decides.
var input engine.Input

// compute computes one value from scalar arguments, as engine.Compute does,
// and returns it; last_status then returns its engine.Status. flags bit 0
// (abi.FlagHasOld) says the older sample is present; options are engine.Options
// bits. A reserved bit in flags or options gives 0 with the status
// abi.StatusArgument. It allocates nothing.
//
//go:wasmexport compute
func compute(typ, flags, options uint32, scale int32, timeBase int64,
	oldCStatus uint32, oldFirst, oldSecond uint64, oldMulti uint32,
	newCStatus uint32, newFirst, newSecond uint64, newMulti uint32) (v float64) {
	defer func() {
		if r := recover(); r != nil {
			v, lastStatus = 0, abi.StatusPanic
			setError("perfcalc: panic in compute")
		}
	}()
	lastDetail = 0
	if flags&^abi.FlagHasOld != 0 || options&^abi.OptionsMask != 0 {
		lastStatus = abi.StatusArgument
		return 0
	}
	input = engine.Input{
		Counter: engine.Counter{Type: engine.CounterType(typ), Scale: scale, TimeBase: timeBase},
		HasOld:  flags&abi.FlagHasOld != 0,
		Old:     engine.RawCounter{CStatus: oldCStatus, FirstValue: oldFirst, SecondValue: oldSecond, MultiCount: oldMulti},
		New:     engine.RawCounter{CStatus: newCStatus, FirstValue: newFirst, SecondValue: newSecond, MultiCount: newMulti},
	}
	r := engine.Compute(&input, engine.Options(options))
	lastStatus = uint32(r.Status)
	return r.Value
}

// computeBatch reads n request records (abi.ReqSize bytes each) from the input
// buffer at inOff, computes each, and writes n result records (abi.ResSize bytes
// each) to the output buffer at outOff. It returns n, or a negative error
// code: ErrBounds when a region lies outside its buffer, ErrArgument when a
// request has a reserved bit set (last_detail is its index; the results
// before it are written). It allocates nothing.
//
//go:wasmexport compute_batch
func computeBatch(inOff, n, outOff uint32) (rc int32) {
	defer recovered(&rc)
	clearError()
	if int(n) > len(inBuf)/abi.ReqSize {
		return boundsError("compute_batch requests", inOff, n, len(inBuf))
	}
	req, ok := region(inBuf[:], inOff, n*abi.ReqSize)
	if !ok {
		return boundsError("compute_batch requests", inOff, n*abi.ReqSize, len(inBuf))
	}
	res, ok := region(outBuf[:], outOff, n*abi.ResSize)
	if !ok {
		return boundsError("compute_batch results", outOff, n*abi.ResSize, len(outBuf))
	}
	for i := uint32(0); i < n; i++ {
		q := req[i*abi.ReqSize : i*abi.ReqSize+abi.ReqSize]
		r := res[i*abi.ResSize : i*abi.ResSize+abi.ResSize]
		opts, ok := abi.ReadRequest(&input, q)
		if !ok {
			lastDetail = i
			setError("perfcalc: compute_batch: reserved bits set in flags or options")
			return abi.CodeArgument
		}
		abi.PutResult(r, engine.Compute(&input, opts))
	}
	return int32(n)
}
