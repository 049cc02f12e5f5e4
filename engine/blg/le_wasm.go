//go:build wasm

package blg

import "unsafe"

// leOrder reads (and the Writer writes) the log's little-endian integers
// with one load (store) each, after
// the same bounds check as encoding/binary's: WebAssembly is little-endian
// and allows unaligned access, but Go's wasm backend does not combine
// encoding/binary's byte-wise loads (as internal/abi's le_wasm.go), which
// cost the module about a tenth of its time in relog and stats of a
// 42 MB log (host's BenchmarkModuleSpeed).
type leOrder struct{}

func (leOrder) Uint16(b []byte) uint16 {
	_ = b[1]
	return *(*uint16)(unsafe.Pointer(&b[0]))
}

func (leOrder) Uint32(b []byte) uint32 {
	_ = b[3]
	return *(*uint32)(unsafe.Pointer(&b[0]))
}

func (leOrder) Uint64(b []byte) uint64 {
	_ = b[7]
	return *(*uint64)(unsafe.Pointer(&b[0]))
}

// The Writer's stores, one each: the byte-wise stores of encoding/binary
// (or of b[0], b[1], … =) cost the module about 40 KB of code in the
// Writer alone (a bounds check and a store per byte).

func (leOrder) PutUint16(b []byte, v uint16) {
	_ = b[1]
	*(*uint16)(unsafe.Pointer(&b[0])) = v
}

func (leOrder) PutUint32(b []byte, v uint32) {
	_ = b[3]
	*(*uint32)(unsafe.Pointer(&b[0])) = v
}

func (leOrder) PutUint64(b []byte, v uint64) {
	_ = b[7]
	*(*uint64)(unsafe.Pointer(&b[0])) = v
}
