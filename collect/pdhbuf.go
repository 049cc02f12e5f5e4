package collect

import (
	"encoding/binary"
	"errors"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// This file decodes what PDH writes into the collector's buffers, from the
// bytes: the PDH source (pdh_windows.go) hands them over with the address
// of their first byte, so that every pointer PDH stores is checked to lie
// inside the buffer before its string is read, and the same code runs and
// is fuzzed on every OS.

// PDH_RAW_COUNTER and PDH_RAW_COUNTER_ITEM_W (pdh.h; doc/FORMATS.md §2.1),
// the same on 32- and 64-bit Windows but for the width of the item's name
// pointer: the raw counter is 8-aligned.
const (
	rawCStatus     = 0  // PDH_RAW_COUNTER.CStatus
	rawTimeStamp   = 4  // PDH_RAW_COUNTER.TimeStamp: FILETIME, 4-aligned
	rawFirstValue  = 16 // PDH_RAW_COUNTER.FirstValue
	rawSecondValue = 24 // PDH_RAW_COUNTER.SecondValue
	rawMultiCount  = 32 // PDH_RAW_COUNTER.MultiCount
	rawCounterSize = 40 // sizeof(PDH_RAW_COUNTER)
	rawItemValue   = 8  // PDH_RAW_COUNTER_ITEM_W.RawValue (after szName)
	rawItemSize    = 48 // sizeof(PDH_RAW_COUNTER_ITEM_W)
)

// PDH_COUNTER_INFO_W (pdh.h): the fixed fields the collector reads. Its
// pointers follow dwUserData and dwQueryUserData (DWORD_PTRs).
const (
	infoType         = 4  // dwType
	infoDefaultScale = 20 // lDefaultScale
	infoUserData     = 24 // dwUserData: two pointer-sized fields, then szFullPath
)

// pdhBuffer is a buffer PDH has filled: its bytes, the address of its first
// byte (which PDH's pointers are relative to), and the width of a pointer
// (4 or 8).
type pdhBuffer struct {
	b       []byte
	base    uint64
	ptrSize int
}

// pdhBufferError reports a structure of a PDH buffer that cannot be read:
// "collect: PdhGetRawCounterArrayW item 2 at 0x60: szName 0x1234 is not
// inside the 4096-byte buffer".
type pdhBufferError struct {
	Func   string // the PDH function that filled the buffer
	Record string // the structure: "item 2", "PDH_COUNTER_INFO_W"
	Offset int    // where it starts in the buffer
	Field  string // the field that is wrong
	Reason string
}

func (e *pdhBufferError) Error() string {
	b := []byte("collect: ")
	b = append(b, e.Func...)
	b = append(b, ' ')
	b = append(b, e.Record...)
	b = append(b, " at 0x"...)
	b = strconv.AppendUint(b, uint64(e.Offset), 16)
	b = append(b, ": "...)
	b = append(b, e.Field...)
	b = append(b, ' ')
	b = append(b, e.Reason...)
	return string(b)
}

// errPDHBuffer is wrapped by every pdhBufferError.
var errPDHBuffer = errors.New("collect: a PDH buffer cannot be read")

func (e *pdhBufferError) Unwrap() error { return errPDHBuffer }

// ptr reads the pointer at offset off.
func (p *pdhBuffer) ptr(off int) uint64 {
	if p.ptrSize == 4 {
		return uint64(binary.LittleEndian.Uint32(p.b[off:]))
	}
	return binary.LittleEndian.Uint64(p.b[off:])
}

// str reads the NUL-terminated UTF-16 string that the pointer at offset
// off points to: "" for a null pointer; an error where it points outside
// the buffer, to an odd offset, or to a string without its NUL.
func (p *pdhBuffer) str(off int, fn, record string, recOff int, field string) (string, error) {
	addr := p.ptr(off)
	if addr == 0 {
		return "", nil
	}
	fail := func(reason string) (string, error) {
		return "", &pdhBufferError{Func: fn, Record: record, Offset: recOff, Field: field, Reason: reason}
	}
	if addr < p.base || addr-p.base >= uint64(len(p.b)) {
		return fail("0x" + strconv.FormatUint(addr, 16) + " is not inside the " + strconv.Itoa(len(p.b)) + "-byte buffer")
	}
	start := int(addr - p.base)
	if start%2 != 0 {
		return fail("points to the odd offset 0x" + strconv.FormatUint(uint64(start), 16))
	}
	for i := start; i+1 < len(p.b); i += 2 {
		if p.b[i] == 0 && p.b[i+1] == 0 {
			return wintype.Text(p.b[start:i]).String(), nil
		}
	}
	return fail("at 0x" + strconv.FormatUint(uint64(start), 16) + " has no NUL before the buffer's end")
}

// decodeRawItems appends the count PDH_RAW_COUNTER_ITEM_Ws at the start of
// the buffer that PdhGetRawCounterArrayW filled, their names read from
// the same buffer.
func decodeRawItems(dst []PDHItem, p *pdhBuffer, count uint32) ([]PDHItem, error) {
	const fn = "PdhGetRawCounterArrayW"
	if uint64(count)*rawItemSize > uint64(len(p.b)) {
		return dst, &pdhBufferError{Func: fn, Record: "item array", Field: "ItemCount",
			Reason: strconv.FormatUint(uint64(count), 10) + " items do not fit in the " + strconv.Itoa(len(p.b)) + "-byte buffer"}
	}
	for i := range int(count) {
		off := i * rawItemSize
		name, err := p.str(off, fn, "item "+strconv.Itoa(i), off, "szName")
		if err != nil {
			return dst, err
		}
		dst = append(dst, PDHItem{Instance: name, Raw: decodeRawCounter(p.b[off+rawItemValue:])})
	}
	return dst, nil
}

// decodeRawCounter reads a PDH_RAW_COUNTER (at least rawCounterSize bytes).
func decodeRawCounter(b []byte) engine.RawCounter {
	le := binary.LittleEndian
	_ = b[rawCounterSize-1]
	return engine.RawCounter{
		CStatus:     le.Uint32(b[rawCStatus:]),
		TimeStamp:   int64(le.Uint64(b[rawTimeStamp:])),
		FirstValue:  le.Uint64(b[rawFirstValue:]),
		SecondValue: le.Uint64(b[rawSecondValue:]),
		MultiCount:  le.Uint32(b[rawMultiCount:]),
	}
}

// decodeCounterInfo reads what the collector needs of the
// PDH_COUNTER_INFO_W that PdhGetCounterInfoW wrote at the start of the
// buffer, its full path from the strings after it.
func decodeCounterInfo(p *pdhBuffer) (PDHCounter, error) {
	const fn = "PdhGetCounterInfoW"
	fullPath := infoUserData + 2*p.ptrSize
	if len(p.b) < fullPath+p.ptrSize {
		return PDHCounter{}, &pdhBufferError{Func: fn, Record: "PDH_COUNTER_INFO_W", Field: "dwLength",
			Reason: "the buffer's " + strconv.Itoa(len(p.b)) + " bytes are shorter than the structure"}
	}
	path, err := p.str(fullPath, fn, "PDH_COUNTER_INFO_W", 0, "szFullPath")
	if err != nil {
		return PDHCounter{}, err
	}
	le := binary.LittleEndian
	return PDHCounter{
		FullPath:     path,
		Type:         engine.CounterType(le.Uint32(p.b[infoType:])),
		DefaultScale: int32(le.Uint32(p.b[infoDefaultScale:])),
	}, nil
}

// splitMultiSZ splits a REG_MULTI_SZ-style list of UTF-16 strings, each
// ended by a NUL, the list by an empty string (or the buffer's end), as
// PdhExpandWildCardPathW returns its paths.
func splitMultiSZ(buf []uint16) []string {
	var out []string
	for i := 0; i < len(buf) && buf[i] != 0; {
		j := i
		for j < len(buf) && buf[j] != 0 {
			j++
		}
		b := make([]byte, 0, 2*(j-i))
		for _, u := range buf[i:j] {
			b = binary.LittleEndian.AppendUint16(b, u)
		}
		out = append(out, wintype.Text(b).String())
		i = j + 1
	}
	return out
}

// hasInstanceWildcard reports whether a counter path has a wildcard in
// its instance (parent, name or #index): PDH then answers with an array of
// instances (PdhGetRawCounterArrayW). It reads the path as package
// counterpath does, so that the PDH source and NewPDH agree on it (a scan
// for "*" between the first "(" and the last ")" did not, for a machine
// or counter with parentheses); a path counterpath refuses has none.
func hasInstanceWildcard(path string) bool {
	p, err := counterpath.Parse(path)
	return err == nil && instanceWildcard(p)
}

// instanceWildcard reports whether p's parent, instance or index has a
// wildcard.
func instanceWildcard(p counterpath.Path) bool {
	return p.Index == counterpath.AnyIndex || strings.Contains(p.Parent, "*") || strings.Contains(p.Instance, "*")
}
