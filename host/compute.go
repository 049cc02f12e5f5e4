package host

import (
	"github.com/tetratelabs/wazero/api"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// optionsMask is the engine.Options bits that the engine reads (and the ABI
// accepts); the others mean nothing to engine.Compute, and are cleared so
// that the module does not refuse them.
const optionsMask = engine.Options(abi.OptionsMask)

// Compute returns what engine.Compute(in, opts) returns, computed inside
// the module. Option bits that the engine does not define are ignored, as
// engine.Compute ignores them. The error is a *FaultError (the instance
// failed and was replaced), an *Error with CodePanic, or ErrClosed.
//
// # Notes
//
//   - It allocates nothing (without Config.WithCallTimeout): the request
//     goes as scalar parameters through a stack owned by the instance.
//   - Measured on two shared cores: about 0.5 µs against 35 ns natively.
//     The two calls into the module (compute, last_status) cost about
//     30 ns each; the rest is engine.Compute compiled to WebAssembly, which
//     runs about 13 times slower than natively. Prefer ComputeBatch for
//     many values.
func (e *Engine) Compute(in *engine.Input, opts engine.Options) (engine.Result, error) {
	inst, err := e.get()
	if err != nil {
		return engine.Result{}, err
	}
	defer e.put(inst)
	var flags uint64
	if in.HasOld {
		flags = abi.FlagHasOld
	}
	s := &inst.stack
	s[0] = uint64(uint32(in.Type))
	s[1] = flags
	s[2] = uint64(opts & optionsMask)
	s[3] = api.EncodeI32(in.Scale)
	s[4] = uint64(in.TimeBase)
	s[5] = uint64(in.Old.CStatus)
	s[6] = in.Old.FirstValue
	s[7] = in.Old.SecondValue
	s[8] = uint64(in.Old.MultiCount)
	s[9] = uint64(in.New.CStatus)
	s[10] = in.New.FirstValue
	s[11] = in.New.SecondValue
	s[12] = uint64(in.New.MultiCount)
	if err := e.call(inst, fnCompute); err != nil {
		return engine.Result{}, err
	}
	v := api.DecodeF64(s[0])
	if err := e.call(inst, fnLastStatus); err != nil {
		return engine.Result{}, err
	}
	status := uint32(s[0])
	if status > uint32(engine.UnknownType) {
		return engine.Result{}, inst.computeError(e, "compute", status)
	}
	return engine.Result{Value: v, Status: engine.Status(status)}, nil
}

// computeError turns compute's StatusPanic or StatusArgument into an error.
// A panic marks the instance for replacement.
func (inst *instance) computeError(e *Engine, op string, status uint32) error {
	err := &Error{Op: op, Code: CodeArgument}
	if status != abi.StatusArgument {
		err.Code = CodePanic
		inst.fault = true
	}
	err.Text = inst.errorText(e)
	return err
}

// ComputeBatch computes in[i] into out[i] for every i below the shorter of
// the two lengths, as engine.ComputeBatch does, inside the module, and
// returns how many it computed. On an error, the results before the
// returned count are computed.
//
// # Notes
//
//   - It allocates nothing (without Config.WithCallTimeout): requests are
//     written into the module's input buffer and results read from its
//     output buffer, up to 116,508 per call into the module.
//   - Measured on two shared cores by the CPU time of the calling thread,
//     per counter of a 10,000-counter batch (BenchmarkComputeBatch):
//     about 180 ns for realistic rates, inverse timers or a mix of types,
//     against 5 ns (one type) to 17 ns (the mix) for engine.ComputeBatch.
//     Writing the requests and reading the results costs the host about
//     8 ns per counter; the rest is the module's own loop (Go compiled to
//     WebAssembly, which runs the engine's general path: its per-formula
//     kernels, 19 KB of module, measured no faster on a log's rows).
func (e *Engine) ComputeBatch(in []engine.Input, opts engine.Options, out []engine.Result) (int, error) {
	n := min(len(in), len(out))
	if n == 0 {
		if e.closed.Load() {
			return 0, ErrClosed
		}
		return 0, nil
	}
	inst, err := e.get()
	if err != nil {
		return 0, err
	}
	defer e.put(inst)
	chunk := int(min(inst.inCap/abi.ReqSize, inst.outCap/abi.ResSize))
	opt := uint32(opts & optionsMask)
	done := 0
	for done < n {
		k := min(chunk, n-done)
		reqs, ok := inst.mem.Read(inst.in, uint32(k*abi.ReqSize))
		if !ok {
			return done, inst.violation("compute_batch", "the input buffer lies outside memory")
		}
		for i := range k {
			abi.PutRequest(reqs[i*abi.ReqSize:], &in[done+i], opt)
		}
		s := &inst.stack
		s[0], s[1], s[2] = 0, uint64(k), 0
		if err := e.call(inst, fnComputeBatch); err != nil {
			return done, err
		}
		if rc := int32(uint32(s[0])); rc != int32(k) {
			if rc >= 0 {
				return done, inst.violation("compute_batch", "compute_batch returned another count than asked")
			}
			return done, inst.guestError(e, "compute_batch", rc)
		}
		res, ok := inst.mem.Read(inst.out, uint32(k*abi.ResSize))
		if !ok {
			return done, inst.violation("compute_batch", "the output buffer lies outside memory")
		}
		for i := range k {
			v, st := abi.ReadResult(res[i*abi.ResSize:])
			if st > uint32(engine.UnknownType) {
				return done + i, inst.violation("compute_batch", "a result has an unknown status")
			}
			out[done+i] = engine.Result{Value: v, Status: engine.Status(st)}
		}
		done += k
	}
	return done, nil
}

// errorText reads the module's last error text (err_ptr, err_len).
func (inst *instance) errorText(e *Engine) string {
	if inst.fault && inst.mod.IsClosed() {
		return ""
	}
	if err := e.call(inst, fnErrLen); err != nil {
		return ""
	}
	n := uint32(inst.stack[0])
	if n == 0 || n > abi.ErrCap {
		return ""
	}
	b, ok := inst.mem.Read(inst.errPtr, n)
	if !ok {
		return ""
	}
	return string(b)
}

// lastDetail reads last_detail.
func (inst *instance) lastDetail(e *Engine) uint32 {
	if err := e.call(inst, fnLastDetail); err != nil {
		return 0
	}
	return uint32(inst.stack[0])
}

// guestError builds the *Error of a negative result code. ErrPanic marks
// the instance for replacement (the ABI says it stays usable; a panic is a
// bug, and a new instance is cheap).
func (inst *instance) guestError(e *Engine, op string, rc int32) error {
	err := &Error{Op: op, Code: Code(rc)}
	err.Text = inst.errorText(e)
	err.Detail = inst.lastDetail(e)
	if rc == int32(CodePanic) {
		inst.fault = true
	}
	return err
}
