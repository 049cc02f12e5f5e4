package blg

// le reads the log's little-endian integers (le_native.go, le_wasm.go).
var le leOrder
