package perflibv2

import (
	"encoding/binary"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// Sizes of the fixed records of perflib.h, in bytes.
const (
	DataHeaderSize          = 48 // PERF_DATA_HEADER
	CounterHeaderSize       = 16 // PERF_COUNTER_HEADER
	MultiInstancesSize      = 8  // PERF_MULTI_INSTANCES
	MultiCountersSize       = 8  // PERF_MULTI_COUNTERS
	CounterDataSize         = 8  // PERF_COUNTER_DATA, without its value
	InstanceHeaderSize      = 8  // PERF_INSTANCE_HEADER, without its name
	CountersetRegInfoSize   = 32 // PERF_COUNTERSET_REG_INFO
	CounterRegInfoSize      = 48 // PERF_COUNTER_REG_INFO
	StringBufferHeaderSize  = 8  // PERF_STRING_BUFFER_HEADER (_STRING_BUFFER_HEADER)
	StringCounterHeaderSize = 8  // PERF_STRING_COUNTER_HEADER (_STRING_COUNTER_HEADER)
)

// DataHeader mirrors PERF_DATA_HEADER, the 48-byte header of a
// PerfQueryCounterData result.
type DataHeader struct {
	TotalSize       uint32             // dwTotalSize: header and every PERF_COUNTER_HEADER block
	NumCounters     uint32             // dwNumCounters: number of PERF_COUNTER_HEADER blocks
	PerfTimeStamp   int64              // PerfTimeStamp: QueryPerformanceCounter ticks
	PerfTime100NSec int64              // PerfTime100NSec: 100 ns since 1601 UTC
	PerfFreq        int64              // PerfFreq: QueryPerformanceCounter ticks per second
	SystemTime      wintype.SystemTime // SystemTime: collection time (see wintype.SystemTime)
}

func le32(b []byte, off int) uint32 { return binary.LittleEndian.Uint32(b[off:]) }
func le64(b []byte, off int) uint64 { return binary.LittleEndian.Uint64(b[off:]) }

// parseDataHeader decodes and checks the PERF_DATA_HEADER at the start of b.
func parseDataHeader(b []byte) (DataHeader, error) {
	var h DataHeader
	if len(b) < DataHeaderSize {
		return h, fail("PERF_DATA_HEADER", -1, 0, "", "needs 48 bytes, input has "+strconv.Itoa(len(b)), engine.ErrTruncated)
	}
	h.TotalSize = le32(b, 0)
	h.NumCounters = le32(b, 4)
	h.PerfTimeStamp = int64(le64(b, 8))
	h.PerfTime100NSec = int64(le64(b, 16))
	h.PerfFreq = int64(le64(b, 24))
	h.SystemTime = wintype.ParseSystemTime(b[32:48])
	switch {
	case h.TotalSize < DataHeaderSize:
		return h, fail("PERF_DATA_HEADER", -1, 0, "dwTotalSize", u(h.TotalSize)+" below 48", engine.ErrMalformed)
	case h.TotalSize%8 != 0:
		return h, fail("PERF_DATA_HEADER", -1, 0, "dwTotalSize", u(h.TotalSize)+" not a multiple of 8", engine.ErrMalformed)
	case uint64(h.TotalSize) > uint64(len(b)):
		return h, fail("PERF_DATA_HEADER", -1, 0, "dwTotalSize", u(h.TotalSize)+" exceeds the input's "+strconv.Itoa(len(b))+" bytes", engine.ErrTruncated)
	case uint64(h.NumCounters) > uint64(h.TotalSize-DataHeaderSize)/CounterHeaderSize:
		return h, fail("PERF_DATA_HEADER", -1, 4, "dwNumCounters", u(h.NumCounters)+" blocks cannot fit in dwTotalSize "+u(h.TotalSize), engine.ErrMalformed)
	}
	return h, nil
}

// itoa formats an int in decimal, out of line like u and fail: they build
// error texts, and inlining them at each of their many call sites made the
// WebAssembly module larger.
//
//go:noinline
func itoa(v int) string { return strconv.Itoa(v) }

// u formats a DWORD in decimal.
//
//go:noinline
func u(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

// fail builds the package's FormatError.
//
//go:noinline
func fail(rec string, idx, off int, field, detail string, err error) error {
	return &engine.FormatError{Format: "perflibv2", Record: rec, Index: idx, Offset: int64(off), Field: field, Detail: detail, Err: err}
}
