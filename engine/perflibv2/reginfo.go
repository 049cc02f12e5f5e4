package perflibv2

import "github.com/perfcalc/perfcalc/engine"

// GUID is a Windows GUID as stored: Data1 (4 bytes), Data2 and Data3 (2
// bytes each) little-endian, then Data4 (8 bytes).
type GUID [16]byte

// String returns the GUID in registry form, {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}.
func (g GUID) String() string { return string(g.AppendText(make([]byte, 0, 38))) }

// AppendText appends the registry form of the GUID to dst.
func (g GUID) AppendText(dst []byte) []byte {
	const hex = "0123456789abcdef"
	// The bytes in the order they are printed: Data1, Data2 and Data3 are
	// little-endian, Data4 a byte array. (A loop: the module is about 2 KB
	// smaller than with a digit writer per field.)
	order := [16]byte{3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15}
	dst = append(dst, '{')
	for i, j := range order {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hex[g[j]>>4], hex[g[j]&15])
	}
	return append(dst, '}')
}

// Counterset instance types (PERF_COUNTERSET_REG_INFO.InstanceType).
const (
	CountersetSingleInstance         = 0    // PERF_COUNTERSET_SINGLE_INSTANCE
	CountersetMultiInstances         = 2    // PERF_COUNTERSET_MULTI_INSTANCES
	CountersetSingleAggregate        = 4    // PERF_COUNTERSET_SINGLE_AGGREGATE
	CountersetMultiAggregate         = 6    // PERF_COUNTERSET_MULTI_AGGREGATE
	CountersetSingleAggregateHistory = 0x0C // PERF_COUNTERSET_SINGLE_AGGREGATE_HISTORY
	CountersetInstanceAggregate      = 0x16 // PERF_COUNTERSET_INSTANCE_AGGREGATE
)

// NoCounter is the value of PERF_COUNTER_REG_INFO's BaseCounterId,
// PerfTimeId, PerfFreqId and MultiId that names no counter.
const NoCounter = 0xFFFFFFFF

// CountersetRegInfo mirrors PERF_COUNTERSET_REG_INFO (32 bytes).
type CountersetRegInfo struct {
	CounterSetGUID GUID   // CounterSetGuid
	CounterSetType uint32 // CounterSetType (reserved, 0)
	DetailLevel    uint32 // DetailLevel: PERF_DETAIL_NOVICE 100 or PERF_DETAIL_ADVANCED 200
	NumCounters    uint32 // NumCounters: PERF_COUNTER_REG_INFO records that follow
	InstanceType   uint32 // InstanceType: PERF_COUNTERSET_* (CountersetSingleInstance, …)
}

// CounterRegInfo mirrors PERF_COUNTER_REG_INFO (48 bytes).
type CounterRegInfo struct {
	CounterID     uint32             // CounterId
	Type          engine.CounterType // Type: a winperf.h counter type
	Attrib        uint64             // Attrib: PERF_ATTRIB_* flags
	DetailLevel   uint32             // DetailLevel
	DefaultScale  int32              // DefaultScale: a power of ten
	BaseCounterID uint32             // BaseCounterId: the base of fraction, average and precision types, or NoCounter
	PerfTimeID    uint32             // PerfTimeId: the time stamp of PERF_OBJECT_TIMER types, or NoCounter
	PerfFreqID    uint32             // PerfFreqId: the frequency of PERF_OBJECT_TIMER types, or NoCounter
	MultiID       uint32             // MultiId: the item count of the multi timers, or NoCounter
	AggregateFunc uint32             // AggregateFunc: PERF_AGGREGATE_*
	Reserved      uint32             // Reserved
}

// RegInfo is a PerfQueryCounterSetRegistrationInfo result of type
// PERF_REG_COUNTERSET_STRUCT: a PERF_COUNTERSET_REG_INFO followed by its
// PERF_COUNTER_REG_INFO array. It aliases the input and is valid while it
// is; its methods allocate nothing.
type RegInfo struct {
	Header   CountersetRegInfo
	counters []byte
}

// ParseRegInfo checks and decodes the counterset registration in b. The
// input may be longer than the records (a buffer larger than the result);
// the bytes after the last PERF_COUNTER_REG_INFO are ignored.
func ParseRegInfo(b []byte) (RegInfo, error) {
	const rec = "PERF_COUNTERSET_REG_INFO"
	var r RegInfo
	if len(b) < CountersetRegInfoSize {
		return r, fail(rec, -1, 0, "", "needs 32 bytes, input has "+itoa(len(b)), engine.ErrTruncated)
	}
	copy(r.Header.CounterSetGUID[:], b[:16])
	r.Header.CounterSetType = le32(b, 16)
	r.Header.DetailLevel = le32(b, 20)
	r.Header.NumCounters = le32(b, 24)
	r.Header.InstanceType = le32(b, 28)
	if uint64(r.Header.NumCounters) > uint64(len(b)-CountersetRegInfoSize)/CounterRegInfoSize {
		return r, fail(rec, -1, 24, "NumCounters", u(r.Header.NumCounters)+" PERF_COUNTER_REG_INFO records (48 bytes each) exceed the input's "+itoa(len(b)-CountersetRegInfoSize)+" bytes after the header", engine.ErrTruncated)
	}
	end := CountersetRegInfoSize + CounterRegInfoSize*int(r.Header.NumCounters)
	r.counters = b[CountersetRegInfoSize:end:end]
	return r, nil
}

// Len returns the number of counters.
func (r *RegInfo) Len() int { return len(r.counters) / CounterRegInfoSize }

// Counter returns the i-th PERF_COUNTER_REG_INFO, 0 ≤ i < Len.
func (r *RegInfo) Counter(i int) CounterRegInfo {
	b := r.counters[i*CounterRegInfoSize : (i+1)*CounterRegInfoSize]
	return CounterRegInfo{
		CounterID:     le32(b, 0),
		Type:          engine.CounterType(le32(b, 4)),
		Attrib:        le64(b, 8),
		DetailLevel:   le32(b, 16),
		DefaultScale:  int32(le32(b, 20)),
		BaseCounterID: le32(b, 24),
		PerfTimeID:    le32(b, 28),
		PerfFreqID:    le32(b, 32),
		MultiID:       le32(b, 36),
		AggregateFunc: le32(b, 40),
		Reserved:      le32(b, 44),
	}
}

// Lookup returns the first counter whose CounterId is id. It takes time
// linear in Len.
func (r *RegInfo) Lookup(id uint32) (CounterRegInfo, bool) {
	for off := 0; off+CounterRegInfoSize <= len(r.counters); off += CounterRegInfoSize {
		if le32(r.counters, off) == id {
			return r.Counter(off / CounterRegInfoSize), true
		}
	}
	return CounterRegInfo{}, false
}
