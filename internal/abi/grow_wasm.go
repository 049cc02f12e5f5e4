//go:build wasm

package abi

// canGrow is false in the module, whose output buffer is fixed (the host
// reserves a larger one): the growing code is left out of it.
const canGrow = false
