//go:build !wasm

package engine

import "encoding/binary"

// putLE64 stores v little-endian at the start of b: encoding/binary's,
// which the native compilers turn into one store.
func putLE64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }
