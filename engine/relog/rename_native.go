//go:build !wasm

package relog

// renames enables Options.Rename, which the WebAssembly module leaves out
// (rename_wasm.go): its size budget, and it has no export that sets it.
const renames = true
