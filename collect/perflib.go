package collect

import (
	"encoding/binary"
	"errors"
	"unsafe"

	"github.com/perfcalc/perfcalc/engine/perflibv2"
)

// This file holds what the PerfLib V2 source (perflib_windows.go) builds
// and reads in its buffers, portable so that it is tested and fuzzed on
// every OS.

// Sizes and constants of the PerfLib V2 consumer interface (perflib.h).
const (
	perfCounterIdentifierSize = 40         // sizeof(PERF_COUNTER_IDENTIFIER)
	perfWildcardCounter       = 0xFFFFFFFF // PERF_WILDCARD_COUNTER
	perfWildcardInstanceID    = 0xFFFFFFFF // any InstanceId
	maxPerfLibBytes           = 512 << 20  // bound of a registration or data buffer
)

// perfCounterIdentifier mirrors PERF_COUNTER_IDENTIFIER (40 bytes, then
// the optional instance name).
type perfCounterIdentifier struct {
	CounterSetGUID perflibv2.GUID
	Status         uint32
	Size           uint32
	CounterID      uint32
	InstanceID     uint32
	Index          uint32
	Reserved       uint32
}

// counterIdentifier builds the PERF_COUNTER_IDENTIFIER of every counter
// of set: PERF_WILDCARD_COUNTER and, for a multi-instance set, the
// instance name "*" after the structure (Size padded to 8 bytes).
func counterIdentifier(set perflibv2.GUID, multiInstance bool) []byte {
	size := perfCounterIdentifierSize
	if multiInstance {
		size += 8 // L"*\0" and padding
	}
	b := alignedBytes(size)
	le := binary.LittleEndian
	copy(b, set[:])
	le.PutUint32(b[20:], uint32(size))
	le.PutUint32(b[24:], perfWildcardCounter)
	le.PutUint32(b[28:], perfWildcardInstanceID)
	if multiInstance {
		le.PutUint16(b[40:], '*')
	}
	return b
}

// identifierStatus returns the Status that PerfAddCounters wrote into an
// identifier that counterIdentifier built.
func identifierStatus(id []byte) uint32 { return binary.LittleEndian.Uint32(id[16:]) }

// sizedCall runs a call that reports the size it needs with an error that
// tooSmall recognises (ERROR_NOT_ENOUGH_MEMORY, ERROR_MORE_DATA), into dst's
// array (8-byte aligned when it is allocated here). It calls at most 18
// times and never allocates more than maxPerfLibBytes.
func sizedCall(call func(buf *byte, size uint32, actual *uint32) error, dst []byte, tooSmall func(error) bool) ([]byte, error) {
	dst = dst[:cap(dst)]
	if len(dst) < 4096 {
		dst = alignedBytes(4096)
	}
	for tries := 0; ; tries++ {
		var actual uint32
		err := call(&dst[0], uint32(len(dst)), &actual)
		if err == nil {
			if int(actual) > len(dst) {
				return dst[:0], errors.New("collect: a PerfLib call reported more bytes than its buffer holds")
			}
			return dst[:actual], nil
		}
		if !tooSmall(err) {
			return dst[:0], err
		}
		want := max(int(actual), 2*len(dst))
		if want > maxPerfLibBytes || tries > 16 {
			return dst[:0], errors.New("collect: a PerfLib call needs more than 512 MiB")
		}
		dst = alignedBytes(want)
	}
}

// alignedBytes returns n bytes starting on an 8-byte boundary: PerfLib's
// structures begin on 8-byte boundaries.
func alignedBytes(n int) []byte {
	words := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)
}
