//go:build !wasm

package blg

// splits enables Split's checks in the reading loop; the WebAssembly
// module, which never splits a log, leaves them out (its size budget).
const splits = true
