//go:build wasm

package blg

// repeats is false in the WebAssembly module: see repeat_native.go.
const repeats = false
