package collect

import (
	"errors"
	"strconv"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/perfcalc/perfcalc/engine/perflibv2"
)

var (
	advapi32                                = windows.NewLazySystemDLL("advapi32.dll")
	procPerfEnumerateCounterSet             = advapi32.NewProc("PerfEnumerateCounterSet")
	procPerfQueryCounterSetRegistrationInfo = advapi32.NewProc("PerfQueryCounterSetRegistrationInfo")
	procPerfOpenQueryHandle                 = advapi32.NewProc("PerfOpenQueryHandle")
	procPerfAddCounters                     = advapi32.NewProc("PerfAddCounters")
	procPerfQueryCounterData                = advapi32.NewProc("PerfQueryCounterData")
	procPerfCloseQueryHandle                = advapi32.NewProc("PerfCloseQueryHandle")
)

// perfCall calls a PerfLib V2 function, whose result is a Win32 error.
func perfCall(p *windows.LazyProc, args ...uintptr) error {
	if err := p.Find(); err != nil {
		return errors.New("collect: " + p.Name + " is not available on this system: " + err.Error())
	}
	r, _, _ := p.Call(args...)
	if r != 0 {
		return windows.Errno(r)
	}
	return nil
}

// perfLib is the live PerfLibSource.
type perfLib struct{}

// OpenPerfLib returns the live PerfLib V2 source of this machine (the
// consumer functions of advapi32, Windows 10 1607 and later).
func OpenPerfLib() (PerfLibSource, error) {
	for _, p := range []*windows.LazyProc{procPerfEnumerateCounterSet, procPerfQueryCounterSetRegistrationInfo,
		procPerfOpenQueryHandle, procPerfAddCounters, procPerfQueryCounterData, procPerfCloseQueryHandle} {
		if err := p.Find(); err != nil {
			return nil, errors.New("collect: PerfLib V2 consumer functions are not available on this system: " + err.Error())
		}
	}
	return perfLib{}, nil
}

// CounterSets runs PerfEnumerateCounterSet, growing its buffer on
// ERROR_NOT_ENOUGH_MEMORY.
func (perfLib) CounterSets() ([]perflibv2.GUID, error) {
	var n uint32
	err := perfCall(procPerfEnumerateCounterSet, 0, 0, 0, uintptr(unsafe.Pointer(&n)))
	for tries := 0; ; tries++ {
		if err != nil && err != windows.ERROR_NOT_ENOUGH_MEMORY {
			return nil, err
		}
		if err == nil && n == 0 {
			return nil, nil
		}
		if n > maxPerfLibBytes/16 || tries > 8 {
			return nil, errors.New("collect: PerfEnumerateCounterSet: unusable count " + strconv.FormatUint(uint64(n), 10))
		}
		out := make([]perflibv2.GUID, n)
		m := n
		err = perfCall(procPerfEnumerateCounterSet, 0, uintptr(unsafe.Pointer(&out[0])), uintptr(n), uintptr(unsafe.Pointer(&m)))
		if err == nil {
			return out[:min(m, n)], nil
		}
		n = max(m, 2*n)
	}
}

// RegInfo runs PerfQueryCounterSetRegistrationInfo.
func (perfLib) RegInfo(set perflibv2.GUID, code RegInfoCode, lang uint32) ([]byte, error) {
	return sizedCall(func(buf *byte, size uint32, actual *uint32) error {
		return perfCall(procPerfQueryCounterSetRegistrationInfo, 0, uintptr(unsafe.Pointer(&set)),
			uintptr(code), uintptr(lang), uintptr(unsafe.Pointer(buf)), uintptr(size), uintptr(unsafe.Pointer(actual)))
	}, nil, tooSmall)
}

// Open opens a query handle and adds every counter of set (and every
// instance when the set has several).
func (perfLib) Open(set perflibv2.GUID, multiInstance bool) (PerfLibQuery, error) {
	var h windows.Handle
	if err := perfCall(procPerfOpenQueryHandle, 0, uintptr(unsafe.Pointer(&h))); err != nil {
		return nil, err
	}
	id := counterIdentifier(set, multiInstance)
	if err := perfCall(procPerfAddCounters, uintptr(h), uintptr(unsafe.Pointer(&id[0])), uintptr(len(id))); err != nil {
		perfCall(procPerfCloseQueryHandle, uintptr(h))
		return nil, err
	}
	if st := identifierStatus(id); st != 0 {
		perfCall(procPerfCloseQueryHandle, uintptr(h))
		return nil, errors.New("collect: PerfAddCounters: " + windows.Errno(st).Error())
	}
	return &perfQuery{h: h}, nil
}

// perfQuery is one open PerfLib V2 query.
type perfQuery struct{ h windows.Handle }

// Data runs PerfQueryCounterData into dst's array.
func (q *perfQuery) Data(dst []byte) ([]byte, error) {
	return sizedCall(func(buf *byte, size uint32, actual *uint32) error {
		return perfCall(procPerfQueryCounterData, uintptr(q.h), uintptr(unsafe.Pointer(buf)), uintptr(size), uintptr(unsafe.Pointer(actual)))
	}, dst, tooSmall)
}

// tooSmall reports whether a PerfLib call failed for want of room
// (ERROR_NOT_ENOUGH_MEMORY or ERROR_MORE_DATA).
func tooSmall(err error) bool {
	return err == windows.ERROR_NOT_ENOUGH_MEMORY || err == windows.ERROR_MORE_DATA
}

// Close runs PerfCloseQueryHandle.
func (q *perfQuery) Close() error {
	if q.h == 0 {
		return nil
	}
	err := perfCall(procPerfCloseQueryHandle, uintptr(q.h))
	q.h = 0
	return err
}

func (perfLib) Close() error { return nil }
