//go:build wasm

package blg

// splits is false in the WebAssembly module: see split_native.go.
const splits = false

// skip counts nothing in the WebAssembly module (its size budget), which
// has no SkippedEvents: see skipped_native.go.
func (r *Reader) skip() {}
