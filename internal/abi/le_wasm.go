//go:build wasm

package abi

import "unsafe"

// Little-endian reads and writes at fixed offsets of records whose bounds
// the caller has checked once. WebAssembly is little-endian and allows
// unaligned access, so each is one load or store; Go's wasm backend does not
// combine byte-wise loads (le_other.go), which made the batch path several
// times slower.

func get32(b []byte, off int) uint32 {
	_ = b[off+3]
	return *(*uint32)(unsafe.Pointer(&b[off]))
}

func get64(b []byte, off int) uint64 {
	_ = b[off+7]
	return *(*uint64)(unsafe.Pointer(&b[off]))
}

func put32(b []byte, off int, v uint32) {
	_ = b[off+3]
	*(*uint32)(unsafe.Pointer(&b[off])) = v
}

func put64(b []byte, off int, v uint64) {
	_ = b[off+7]
	*(*uint64)(unsafe.Pointer(&b[off])) = v
}
