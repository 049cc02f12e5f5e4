//go:build !wasm

package engine

// kernels is true: runKernel runs the formulas' kernels.
const kernels = true

// runKernel computes a run of inputs of one type (formula f) through the
// formula's kernel, and every input the kernel leaves through compute.
//
// It picks the kernel with a switch rather than from a table of functions:
// an indirect call would make the caller's slices escape (the compiler
// cannot see what the callee keeps), and a ComputeBatch over arrays on the
// caller's stack would allocate.
func runKernel(f formula, in []Input, o batchOptions, out []Result) {
	for {
		var done int
		switch f {
		case fRaw:
			done = kernelRaw(in, o, out)
		case fDelta:
			done = kernelDelta(in, o, out)
		case fRate:
			done = kernelRate(in, o, out)
		case fQueuelen, fAverageBulk:
			done = kernelQuotient(in, o, out)
		case fTimer, fPrecision, fSampleFraction:
			done = kernelPercent(in, o, out)
		case fTimerInv:
			done = kernelInverse(in, o, out)
		case fMultiTimer:
			done = kernelMulti(in, o, out)
		case fMultiTimerInv:
			done = kernelMultiInverse(in, o, out)
		case fRawFraction:
			done = kernelRawFraction(in, o, out)
		case fAverageTimer:
			done = kernelAverageTimer(in, o, out)
		case fElapsed:
			done = kernelElapsed(in, o, out)
		}
		// fUnknown and fNone, and every input a kernel leaves, go to
		// compute.
		if done >= len(in) {
			return
		}
		out[done] = compute(&in[done], o.opts)
		in, out = in[done+1:], out[done+1:]
	}
}
