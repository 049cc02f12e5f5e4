//go:build !wasm

package blg

// repeats enables Sample.Repeat and the decoding of a sample laid out as
// the one before it by its raw data alone (repeat.go); the WebAssembly
// module leaves them out (its size budget) and decodes every sample in
// full.
const repeats = true
