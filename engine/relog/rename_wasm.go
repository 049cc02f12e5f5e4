//go:build wasm

package relog

// renames is false in the WebAssembly module: Options.Rename is ignored
// there (rename_native.go).
const renames = false
