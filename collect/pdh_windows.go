package collect

import (
	"errors"
	"strconv"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	pdhDLL                       = windows.NewLazySystemDLL("pdh.dll")
	procPdhOpenQueryW            = pdhDLL.NewProc("PdhOpenQueryW")
	procPdhAddEnglishCounterW    = pdhDLL.NewProc("PdhAddEnglishCounterW")
	procPdhCollectQueryData      = pdhDLL.NewProc("PdhCollectQueryData")
	procPdhGetRawCounterValue    = pdhDLL.NewProc("PdhGetRawCounterValue")
	procPdhGetRawCounterArrayW   = pdhDLL.NewProc("PdhGetRawCounterArrayW")
	procPdhGetCounterInfoW       = pdhDLL.NewProc("PdhGetCounterInfoW")
	procPdhGetCounterTimeBase    = pdhDLL.NewProc("PdhGetCounterTimeBase")
	procPdhExpandWildCardPathW   = pdhDLL.NewProc("PdhExpandWildCardPathW")
	procPdhGetFormattedCounterVa = pdhDLL.NewProc("PdhGetFormattedCounterValue")
	procPdhCloseQuery            = pdhDLL.NewProc("PdhCloseQuery")
)

// PDH return values and flags (pdh.h, pdhmsg.h).
const (
	pdhMoreData           = 0x800007D2 // PDH_MORE_DATA
	pdhNoExpandInstances  = 0x2        // PDH_NOEXPANDINSTANCES
	pdhFmtDouble          = 0x200      // PDH_FMT_DOUBLE
	pdhFmtNoScale         = 0x1000     // PDH_FMT_NOSCALE
	pdhFmtNoCap100        = 0x8000     // PDH_FMT_NOCAP100
	maxPDHBytes           = 64 << 20   // bound of the array and expansion buffers
	pdhCounterInfoSize    = 112        // sizeof(PDH_COUNTER_INFO_W) without its strings (64-bit)
	pdhCounterInfoMaxSize = 64 << 10   // bound of a PDH_COUNTER_INFO_W with its strings
)

// pdhFmtCounterValue mirrors PDH_FMT_COUNTERVALUE with the double of its
// union (16 bytes).
type pdhFmtCounterValue struct {
	CStatus     uint32
	DoubleValue float64
}

// pdhError is a PDH_STATUS other than ERROR_SUCCESS.
type pdhError struct {
	fn     string
	status uint32
}

func (e *pdhError) Error() string {
	return e.fn + " returned 0x" + strconv.FormatUint(uint64(e.status), 16)
}

// pdhCall calls a PDH function and turns its status into an error.
func pdhCall(p *windows.LazyProc, args ...uintptr) error {
	if err := p.Find(); err != nil {
		return err
	}
	r, _, _ := p.Call(args...)
	if uint32(r) != 0 {
		return &pdhError{p.Name, uint32(r)}
	}
	return nil
}

// pdhQuery is the live PDHSource: one PDH query.
type pdhQuery struct {
	query    uintptr
	counters []uintptr
	wild     []bool
	buf      []uint64 // PdhGetRawCounterArrayW's buffer, 8-aligned
}

// OpenPDH opens a PDH query of this machine's live data (PdhOpenQueryW).
func OpenPDH() (PDHSource, error) {
	q := &pdhQuery{}
	if err := pdhCall(procPdhOpenQueryW, 0, 0, uintptr(unsafe.Pointer(&q.query))); err != nil {
		return nil, err
	}
	return q, nil
}

// Expand runs PdhExpandWildCardPathW with PDH_NOEXPANDINSTANCES.
func (q *pdhQuery) Expand(path string) ([]string, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	var n uint32
	err = pdhCall(procPdhExpandWildCardPathW, 0, uintptr(unsafe.Pointer(p)), 0, uintptr(unsafe.Pointer(&n)), pdhNoExpandInstances)
	if pe, ok := err.(*pdhError); err != nil && !(ok && pe.status == pdhMoreData) {
		return nil, err
	}
	for {
		if n == 0 || n > maxPDHBytes/2 {
			return nil, errors.New("PdhExpandWildCardPathW: unusable size " + strconv.FormatUint(uint64(n), 10))
		}
		buf := make([]uint16, n+1)
		m := n
		err = pdhCall(procPdhExpandWildCardPathW, 0, uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&m)), pdhNoExpandInstances)
		if pe, ok := err.(*pdhError); ok && pe.status == pdhMoreData {
			n *= 2
			continue
		}
		if err != nil {
			return nil, err
		}
		return splitMultiSZ(buf[:min(int(m), len(buf))]), nil
	}
}

// Add runs PdhAddEnglishCounterW, PdhGetCounterInfoW and
// PdhGetCounterTimeBase.
func (q *pdhQuery) Add(path string) (PDHCounter, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return PDHCounter{}, err
	}
	var h uintptr
	if err := pdhCall(procPdhAddEnglishCounterW, q.query, uintptr(unsafe.Pointer(p)), 0, uintptr(unsafe.Pointer(&h))); err != nil {
		return PDHCounter{}, err
	}
	info, err := counterInfo(h)
	if err != nil {
		return PDHCounter{}, err
	}
	var tb int64
	if err := pdhCall(procPdhGetCounterTimeBase, h, uintptr(unsafe.Pointer(&tb))); err != nil {
		// PDH_INVALID_ARGUMENT: the type has no time base. Any other
		// failure leaves F at 0 too, and the types that divide by F then
		// answer NegativeDenominator rather than a wrong value.
		tb = 0
	}
	info.TimeBase = tb
	info.ID = len(q.counters)
	if info.FullPath == "" {
		info.FullPath = path
	}
	q.counters = append(q.counters, h)
	q.wild = append(q.wild, hasInstanceWildcard(path))
	return info, nil
}

// counterInfo reads a counter's PDH_COUNTER_INFO_W.
func counterInfo(h uintptr) (PDHCounter, error) {
	var n uint32
	err := pdhCall(procPdhGetCounterInfoW, h, 0, uintptr(unsafe.Pointer(&n)), 0)
	if pe, ok := err.(*pdhError); err != nil && !(ok && pe.status == pdhMoreData) {
		return PDHCounter{}, err
	}
	if n < pdhCounterInfoSize || n > pdhCounterInfoMaxSize {
		n = pdhCounterInfoMaxSize
	}
	buf := make([]uint64, (n+7)/8)
	size := uint32(len(buf) * 8)
	if err := pdhCall(procPdhGetCounterInfoW, h, 0, uintptr(unsafe.Pointer(&size)), uintptr(unsafe.Pointer(&buf[0]))); err != nil {
		return PDHCounter{}, err
	}
	return decodeCounterInfo(wordBuffer(buf))
}

// wordBuffer is a buffer of uint64 words that PDH filled, as bytes with
// their address, for the decoders of pdhbuf.go.
func wordBuffer(words []uint64) *pdhBuffer {
	b := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)
	return &pdhBuffer{b: b, base: uint64(uintptr(unsafe.Pointer(&words[0]))), ptrSize: int(unsafe.Sizeof(uintptr(0)))}
}

// Collect runs PdhCollectQueryData.
func (q *pdhQuery) Collect() error { return pdhCall(procPdhCollectQueryData, q.query) }

// Raw reads a counter's raw values: PdhGetRawCounterArrayW for a path
// with an instance wildcard, PdhGetRawCounterValue otherwise.
func (q *pdhQuery) Raw(id int, dst []PDHItem) ([]PDHItem, error) {
	if id < 0 || id >= len(q.counters) {
		return dst, errors.New("collect: no PDH counter " + strconv.Itoa(id))
	}
	h := q.counters[id]
	if !q.wild[id] {
		var raw [rawCounterSize / 8]uint64 // a PDH_RAW_COUNTER, 8-aligned
		var typ uint32
		if err := pdhCall(procPdhGetRawCounterValue, h, uintptr(unsafe.Pointer(&typ)), uintptr(unsafe.Pointer(&raw[0]))); err != nil {
			return dst, err
		}
		return append(dst, PDHItem{Raw: decodeRawCounter(wordBuffer(raw[:]).b)}), nil
	}
	for {
		size := uint32(len(q.buf) * 8)
		var count uint32
		var p uintptr
		if len(q.buf) > 0 {
			p = uintptr(unsafe.Pointer(&q.buf[0]))
		}
		err := pdhCall(procPdhGetRawCounterArrayW, h, uintptr(unsafe.Pointer(&size)), uintptr(unsafe.Pointer(&count)), p)
		if pe, ok := err.(*pdhError); ok && pe.status == pdhMoreData {
			// The size reported is not reliable when the buffer was not
			// empty: take the larger of it and twice the buffer.
			want := max(int(size), 2*len(q.buf)*8, 4096)
			if want > maxPDHBytes {
				return dst, errors.New("collect: PdhGetRawCounterArrayW needs more than 64 MiB")
			}
			q.buf = make([]uint64, (want+7)/8)
			continue
		}
		if err != nil {
			return dst, err
		}
		if len(q.buf) == 0 {
			return dst, nil // no instance: PDH wrote nothing
		}
		return decodeRawItems(dst, wordBuffer(q.buf), count)
	}
}

// formatted returns PdhGetFormattedCounterValue of counter id as a double
// with the given PDH_FMT_* flags besides PDH_FMT_DOUBLE: the cross-check
// of perfcalc's own value.
func (q *pdhQuery) formatted(id int, flags uint32) (float64, uint32, error) {
	var v pdhFmtCounterValue
	var typ uint32
	err := pdhCall(procPdhGetFormattedCounterVa, q.counters[id], uintptr(pdhFmtDouble|flags), uintptr(unsafe.Pointer(&typ)), uintptr(unsafe.Pointer(&v)))
	return v.DoubleValue, v.CStatus, err
}

// Close runs PdhCloseQuery.
func (q *pdhQuery) Close() error {
	if q.query == 0 {
		return nil
	}
	err := pdhCall(procPdhCloseQuery, q.query)
	q.query = 0
	return err
}
