//go:build wasm

package engine

import "unsafe"

// putLE64 stores v little-endian at the start of b with one store, after
// the same bounds check as encoding/binary's: Go's wasm backend does not
// combine encoding/binary's eight byte stores (formatG makes five per
// value).
func putLE64(b []byte, v uint64) {
	_ = b[7]
	*(*uint64)(unsafe.Pointer(&b[0])) = v
}
