//go:build !wasm

package abi

import "encoding/binary"

// Little-endian reads and writes at fixed offsets of records whose bounds
// the caller has checked once: package host and the native build of the
// facade (the module uses le_wasm.go).

func get32(b []byte, off int) uint32 { return binary.LittleEndian.Uint32(b[off:]) }

func get64(b []byte, off int) uint64 { return binary.LittleEndian.Uint64(b[off:]) }

func put32(b []byte, off int, v uint32) { binary.LittleEndian.PutUint32(b[off:], v) }

func put64(b []byte, off int, v uint64) { binary.LittleEndian.PutUint64(b[off:], v) }
