package main

import (
	"math"

	"github.com/perfcalc/perfcalc/engine"
)

// input is the engine.Input of compute; a package variable, so that the call
// allocates nothing whatever escape analysis decides.
var input engine.Input

// compute computes one value from scalar arguments, as engine.Compute does,
// and returns it; last_status then returns its engine.Status. flags bit 0
// (FlagHasOld) says the older sample is present; options are engine.Options
// bits. A reserved bit in flags or options gives 0 with the status
// StatusArgument. It allocates nothing.
//
//go:wasmexport compute
func compute(typ, flags, options uint32, scale int32, timeBase int64,
	oldCStatus uint32, oldFirst, oldSecond uint64, oldMulti uint32,
	newCStatus uint32, newFirst, newSecond uint64, newMulti uint32) (v float64) {
	defer func() {
		if r := recover(); r != nil {
			v, lastStatus = 0, StatusPanic
			setError("perfcalc: panic in compute")
		}
	}()
	lastDetail = 0
	if flags&^FlagHasOld != 0 || options&^OptionsMask != 0 {
		lastStatus = StatusArgument
		return 0
	}
	input = engine.Input{
		Counter: engine.Counter{Type: engine.CounterType(typ), Scale: scale, TimeBase: timeBase},
		HasOld:  flags&FlagHasOld != 0,
		Old:     engine.RawCounter{CStatus: oldCStatus, FirstValue: oldFirst, SecondValue: oldSecond, MultiCount: oldMulti},
		New:     engine.RawCounter{CStatus: newCStatus, FirstValue: newFirst, SecondValue: newSecond, MultiCount: newMulti},
	}
	r := engine.Compute(&input, engine.Options(options))
	lastStatus = uint32(r.Status)
	return r.Value
}

// computeBatch reads n request records (ReqSize bytes each) from the input
// buffer at inOff, computes each, and writes n result records (ResSize bytes
// each) to the output buffer at outOff. It returns n, or a negative error
// code: ErrBounds when a region lies outside its buffer, ErrArgument when a
// request has a reserved bit set (last_detail is its index; the results
// before it are written). It allocates nothing.
//
//go:wasmexport compute_batch
func computeBatch(inOff, n, outOff uint32) (rc int32) {
	defer recovered(&rc)
	clearError()
	if int(n) > len(inBuf)/ReqSize {
		return boundsError("compute_batch requests", inOff, n, len(inBuf))
	}
	req, ok := region(inBuf[:], inOff, n*ReqSize)
	if !ok {
		return boundsError("compute_batch requests", inOff, n*ReqSize, len(inBuf))
	}
	res, ok := region(outBuf[:], outOff, n*ResSize)
	if !ok {
		return boundsError("compute_batch results", outOff, n*ResSize, len(outBuf))
	}
	for i := uint32(0); i < n; i++ {
		q := req[i*ReqSize : i*ReqSize+ReqSize]
		r := res[i*ResSize : i*ResSize+ResSize]
		opts, ok := decodeRequest(&input, q)
		if !ok {
			lastDetail = i
			setError("perfcalc: compute_batch: reserved bits set in flags or options")
			return ErrArgument
		}
		out := engine.Compute(&input, opts)
		put64(r, resValue, math.Float64bits(out.Value))
		put32(r, resStatus, uint32(out.Status))
		put32(r, resPad, 0)
	}
	return int32(n)
}

// decodeRequest reads a request record into in and returns its options;
// false when a reserved bit is set.
func decodeRequest(in *engine.Input, q []byte) (engine.Options, bool) {
	_ = q[ReqSize-1]
	flags, opts := get32(q, reqFlags), get32(q, reqOptions)
	if flags&^FlagHasOld != 0 || opts&^OptionsMask != 0 {
		return 0, false
	}
	*in = engine.Input{
		Counter: engine.Counter{
			Type:     engine.CounterType(get32(q, reqType)),
			Scale:    int32(get32(q, reqScale)),
			TimeBase: int64(get64(q, reqTimeBase)),
		},
		HasOld: flags&FlagHasOld != 0,
		Old: engine.RawCounter{
			CStatus:     get32(q, reqOldCStatus),
			FirstValue:  get64(q, reqOldFirst),
			SecondValue: get64(q, reqOldSecond),
			MultiCount:  get32(q, reqOldMulti),
		},
		New: engine.RawCounter{
			CStatus:     get32(q, reqNewCStatus),
			FirstValue:  get64(q, reqNewFirst),
			SecondValue: get64(q, reqNewSecond),
			MultiCount:  get32(q, reqNewMulti),
		},
	}
	return engine.Options(opts), true
}

// encodeRequest writes in and opts as a request record: the inverse of
// decodeRequest, for tests and the native reference.
func encodeRequest(q []byte, in *engine.Input, opts engine.Options) {
	_ = q[ReqSize-1]
	var flags uint32
	if in.HasOld {
		flags = FlagHasOld
	}
	put32(q, reqType, uint32(in.Type))
	put32(q, reqScale, uint32(in.Scale))
	put64(q, reqTimeBase, uint64(in.TimeBase))
	put32(q, reqFlags, flags)
	put32(q, reqOptions, uint32(opts))
	put32(q, reqOldCStatus, in.Old.CStatus)
	put32(q, reqNewCStatus, in.New.CStatus)
	put64(q, reqOldFirst, in.Old.FirstValue)
	put64(q, reqOldSecond, in.Old.SecondValue)
	put64(q, reqNewFirst, in.New.FirstValue)
	put64(q, reqNewSecond, in.New.SecondValue)
	put32(q, reqOldMulti, in.Old.MultiCount)
	put32(q, reqNewMulti, in.New.MultiCount)
}
