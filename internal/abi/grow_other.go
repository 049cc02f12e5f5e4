//go:build !wasm

package abi

// canGrow is true outside the module: a Writer made by NewGrowing grows its
// buffer (host.Native).
const canGrow = true
