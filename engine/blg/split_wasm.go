//go:build wasm

package blg

// splits is false in the WebAssembly module: see split_native.go.
const splits = false

// skip counts an event that the Reader skips, for Skipped alone: the
// WebAssembly module has no SkippedEvents (see skipped_native.go).
func (r *Reader) skip() { r.skips++ }
