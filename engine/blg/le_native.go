//go:build !wasm

package blg

import "encoding/binary"

// leOrder reads (and the Writer writes) the log's little-endian integers: encoding/binary's, which
// the native compilers turn into one load (store) each.
type leOrder struct{}

func (leOrder) Uint16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }
func (leOrder) Uint32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
func (leOrder) Uint64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func (leOrder) PutUint16(b []byte, v uint16) { binary.LittleEndian.PutUint16(b, v) }
func (leOrder) PutUint32(b []byte, v uint32) { binary.LittleEndian.PutUint32(b, v) }
func (leOrder) PutUint64(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }
