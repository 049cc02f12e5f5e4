package collect

import (
	"errors"
	"strconv"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/perfcalc/perfcalc/engine"
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
	pdhCounterInfoMaxSize = 64 << 10   // bound of a PDH_COUNTER_INFO_W with its strings
)

// pdhRawCounter mirrors PDH_RAW_COUNTER (40 bytes on 64-bit Windows).
type pdhRawCounter struct {
	CStatus     uint32
	TimeStamp   windows.Filetime
	FirstValue  int64
	SecondValue int64
	MultiCount  uint32
}

// pdhRawCounterItem mirrors PDH_RAW_COUNTER_ITEM_W (48 bytes).
type pdhRawCounterItem struct {
	Name     *uint16
	RawValue pdhRawCounter
}

// pdhFmtCounterValue mirrors PDH_FMT_COUNTERVALUE with the double of its
// union (16 bytes).
type pdhFmtCounterValue struct {
	CStatus     uint32
	DoubleValue float64
}

// pdhCounterInfo mirrors PDH_COUNTER_INFO_W (112 bytes without its
// strings).
type pdhCounterInfo struct {
	Length         uint32
	Type           uint32
	CVersion       uint32
	CStatus        uint32
	Scale          int32
	DefaultScale   int32
	UserData       uintptr
	QueryUserData  uintptr
	FullPath       *uint16
	MachineName    *uint16
	ObjectName     *uint16
	InstanceName   *uint16
	ParentInstance *uint16
	InstanceIndex  uint32
	CounterName    *uint16
	ExplainText    *uint16
	DataBuffer     [1]uint32
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
		var out []string
		for i := 0; i < len(buf) && buf[i] != 0; {
			j := i
			for j < len(buf) && buf[j] != 0 {
				j++
			}
			out = append(out, windows.UTF16ToString(buf[i:j]))
			i = j + 1
		}
		return out, nil
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

// hasInstanceWildcard reports whether a path's instance part has a "*".
func hasInstanceWildcard(path string) bool {
	open, close := -1, -1
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case '(':
			if open < 0 {
				open = i
			}
		case ')':
			close = i
		}
	}
	if open < 0 || close < open {
		return false
	}
	for i := open; i < close; i++ {
		if path[i] == '*' {
			return true
		}
	}
	return false
}

// counterInfo reads a counter's PDH_COUNTER_INFO_W.
func counterInfo(h uintptr) (PDHCounter, error) {
	var n uint32
	err := pdhCall(procPdhGetCounterInfoW, h, 0, uintptr(unsafe.Pointer(&n)), 0)
	if pe, ok := err.(*pdhError); err != nil && !(ok && pe.status == pdhMoreData) {
		return PDHCounter{}, err
	}
	if n < uint32(unsafe.Sizeof(pdhCounterInfo{})) || n > pdhCounterInfoMaxSize {
		n = pdhCounterInfoMaxSize
	}
	buf := make([]uint64, (n+7)/8)
	if err := pdhCall(procPdhGetCounterInfoW, h, 0, uintptr(unsafe.Pointer(&n)), uintptr(unsafe.Pointer(&buf[0]))); err != nil {
		return PDHCounter{}, err
	}
	ci := (*pdhCounterInfo)(unsafe.Pointer(&buf[0]))
	return PDHCounter{
		FullPath:     utf16Ptr(ci.FullPath),
		Type:         engine.CounterType(ci.Type),
		DefaultScale: ci.DefaultScale,
	}, nil
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
		var raw pdhRawCounter
		var typ uint32
		if err := pdhCall(procPdhGetRawCounterValue, h, uintptr(unsafe.Pointer(&typ)), uintptr(unsafe.Pointer(&raw))); err != nil {
			return dst, err
		}
		return append(dst, PDHItem{Raw: raw.engine()}), nil
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
		itemSize := unsafe.Sizeof(pdhRawCounterItem{})
		if uintptr(count)*itemSize > uintptr(len(q.buf)*8) {
			return dst, errors.New("collect: PdhGetRawCounterArrayW reported more items than its buffer holds")
		}
		for i := uintptr(0); i < uintptr(count); i++ {
			it := (*pdhRawCounterItem)(unsafe.Pointer(uintptr(unsafe.Pointer(&q.buf[0])) + i*itemSize))
			dst = append(dst, PDHItem{Instance: utf16Ptr(it.Name), Raw: it.RawValue.engine()})
		}
		return dst, nil
	}
}

// engine converts a PDH_RAW_COUNTER into the engine's RawCounter.
func (r *pdhRawCounter) engine() engine.RawCounter {
	return engine.RawCounter{
		CStatus:     r.CStatus,
		TimeStamp:   int64(r.TimeStamp.HighDateTime)<<32 | int64(r.TimeStamp.LowDateTime),
		FirstValue:  uint64(r.FirstValue),
		SecondValue: uint64(r.SecondValue),
		MultiCount:  r.MultiCount,
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
