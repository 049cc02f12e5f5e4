//go:build !wasm

package blg

import "encoding/binary"

// leOrder reads the log's little-endian integers: encoding/binary's, which
// the native compilers turn into one load each.
type leOrder struct{}

func (leOrder) Uint16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }
func (leOrder) Uint32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
func (leOrder) Uint64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }
