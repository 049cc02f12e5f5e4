//go:build wasm

package blg

// splits is false in the WebAssembly module: see split_native.go.
const splits = false
