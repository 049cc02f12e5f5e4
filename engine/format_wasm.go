//go:build wasm

package engine

// fastFormat: the WebAssembly module prints every value through
// AppendFloat's exact strconv path, which gives the same text. The fast
// path, formatG, adds about 7.7 KB to the module (its 128-bit arithmetic
// takes many more instructions in WebAssembly), more than the module's size
// budget has left (wasm/size_test.go); set this to true when it has room.
const fastFormat = false
