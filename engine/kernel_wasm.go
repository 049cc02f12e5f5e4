//go:build wasm

package engine

// kernels is false: the module computes through compute alone.
const kernels = false

// runKernel computes a run of inputs through compute alone: the
// WebAssembly module does without the kernels, which add about 20 KB to it
// (13 KB of code and their tables), more than its size budget has left
// (wasm/size_test.go). The results are the same bits either way; the
// module's differential tests (properties/host_test.go) compare this path
// with the native kernels.
func runKernel(_ formula, in []Input, o batchOptions, out []Result) {
	out = out[:len(in)]
	for i := range in {
		out[i] = compute(&in[i], o.opts)
	}
}
