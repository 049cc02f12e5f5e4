// Package module embeds perfcalc.wasm, the WebAssembly module that
// "make wasm" builds from package wasm (the //go:wasmexport facade, a main
// package that cannot be imported) and commits here: the one copy in the
// repository. Package host runs it; the JS package's tests and the viewer's
// server read the file, and the npm and Python packages copy it when they
// are packed or installed ("make wasm-check" checks that it equals a fresh
// build).
package module

import _ "embed"

//go:embed perfcalc.wasm
var wasm []byte

// Bytes returns the bytes of perfcalc.wasm. They are shared: do not
// change them.
func Bytes() []byte { return wasm }
