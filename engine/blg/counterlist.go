package blg

import (
	"encoding/binary"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/internal/text"
)

// Counter list layout (event type 0x20): an 8-byte list header
// (u32 0x000006FF, u16 HeaderLength = 8, u16 2 in every real log), then one
// entry per counter, each advancing by its own Size.
const (
	counterListHeaderSize  = 8
	counterEntryHeaderSize = 52
	noString               = 0xFFFFFFFF
)

// CounterInfo is one entry of the log's counter list: a counter path that
// was logged, its type, time base and scale. Sample records hold one
// sub-record per entry, in this order.
//
// The entry's fixed part (52 bytes, offsets from the entry's start):
//
//	+0  u32 Size            entry size, strings included
//	+4  u32 Flags           observed: 0 one counter, 1 wildcard instance (multi-instance records), 0x10 whole object
//	+8  u32 UserData        observed: 0
//	+12 u32 CounterType     winperf.h counter type (0x10 in whole-object entries)
//	+16 i64 TimeBase        frequency of SecondValue: QPC frequency, or 10,000,000 for 100 ns types
//	+24 i32 DefaultScale
//	+28 u32 MachineOffset   string offsets are from +52, the start of the strings;
//	+32 u32 ObjectOffset    each string is NUL-terminated UTF-16LE
//	+36 u32 InstanceOffset  0xFFFFFFFF: no instance
//	+40 u32 ParentOffset    0xFFFFFFFF: no parent
//	+44 u32 InstanceIndex   the #n of duplicate instance names
//	+48 u32 CounterOffset
type CounterInfo struct {
	_ [0]func() // not comparable: no equality function in the module

	Index         int    // position in the counter list
	Offset        int64  // file offset of the entry (relative to the list for ParseCounterList)
	Flags         uint32 // see the layout above
	UserData      uint32
	Type          engine.CounterType
	TimeBase      int64
	DefaultScale  int32
	Machine       string // as stored, with its leading \\ (e.g. `\\GEORGIS3`); "" when empty
	Object        string
	Instance      string // "" when the entry has none; "*" for a wildcard (as text.AppendUTF16Name decodes it: every code unit kept)
	Parent        string // "" when the entry has none (decoded as Instance)
	InstanceIndex uint32
	Counter       string // "*" for whole-object entries
	Path          string // the full counter path, as relog prints it in its CSV header
}

// Engine returns what the engine needs to know of the counter: its type,
// its scale and the frequency of its time base.
func (c *CounterInfo) Engine() engine.Counter {
	return engine.Counter{Type: c.Type, Scale: c.DefaultScale, TimeBase: c.TimeBase}
}

// Wildcard reports whether the entry's instance is the wildcard "*": its
// sample sub-records list every instance, each its own series.
func (c *CounterInfo) Wildcard() bool { return c.Instance == "*" }

// AppendPath appends the counter's path to dst: PDH's
// \\machine\object(parent/instance#index)\counter. A non-nil instance (an
// item name from a multi-instance record, which already includes any
// parent) replaces the entry's parent, instance and index.
func (c *CounterInfo) AppendPath(dst []byte, instance []byte) []byte {
	if c.Machine != "" {
		dst = append(dst, c.Machine...)
	}
	dst = append(dst, '\\')
	dst = append(dst, c.Object...)
	switch {
	case instance != nil:
		dst = append(dst, '(')
		dst = append(dst, instance...)
		dst = append(dst, ')')
	case c.Instance != "":
		dst = append(dst, '(')
		if c.Parent != "" {
			dst = append(dst, c.Parent...)
			dst = append(dst, '/')
		}
		dst = append(dst, c.Instance...)
		if c.InstanceIndex > 0 {
			dst = append(dst, '#')
			dst = strconv.AppendUint(dst, uint64(c.InstanceIndex), 10)
		}
		dst = append(dst, ')')
	}
	dst = append(dst, '\\')
	return append(dst, c.Counter...)
}

// ParseCounterList decodes a counter-list record (the data of event type
// 0x20, reassembled). Offsets in errors are relative to the record.
func ParseCounterList(record []byte) ([]CounterInfo, error) {
	return parseCounterList(record, &locator{})
}

func parseCounterList(b []byte, loc *locator) ([]CounterInfo, error) {
	const rec = "counter list"
	if len(b) < counterListHeaderSize {
		return nil, errf(rec, -1, loc.at(0), "", engine.ErrTruncated, "needs %d bytes, have %d", counterListHeaderSize, int64(len(b)))
	}
	hl := int(binary.LittleEndian.Uint16(b[4:]))
	if hl < counterListHeaderSize || hl > len(b) {
		return nil, errf(rec, -1, loc.at(4), "HeaderLength", engine.ErrMalformed, "%u outside %d..%d", int64(hl), counterListHeaderSize, int64(len(b)))
	}
	// Count the entries first, to allocate the list once: the list's
	// memory then is its entries' and their strings', never a doubling
	// slice's spare room.
	n := 0
	for p := hl; p+4 <= len(b); n++ {
		size := int(binary.LittleEndian.Uint32(b[p:]))
		if size < counterEntryHeaderSize {
			break // parseCounterEntry reports it
		}
		p += size
	}
	list := make([]CounterInfo, 0, n+1)
	for p := hl; p < len(b); {
		c, size, err := parseCounterEntry(b[p:], len(list), p, loc)
		if err != nil {
			return nil, err
		}
		list = append(list, c)
		p += size
	}
	return list, nil
}

func parseCounterEntry(b []byte, index, p int, loc *locator) (CounterInfo, int, error) {
	const rec = "counter list entry"
	le := binary.LittleEndian
	if len(b) < counterEntryHeaderSize {
		return CounterInfo{}, 0, errf(rec, index, loc.at(p), "", engine.ErrTruncated, "needs %d bytes, have %d", counterEntryHeaderSize, int64(len(b)))
	}
	size := le.Uint32(b[0:])
	if size < counterEntryHeaderSize || uint64(size) > uint64(len(b)) {
		return CounterInfo{}, 0, errf(rec, index, loc.at(p), "Size", engine.ErrMalformed, "%u outside %d..%d (the bytes left in the list)", int64(size), counterEntryHeaderSize, int64(len(b)))
	}
	c := CounterInfo{
		Index:         index,
		Offset:        loc.at(p),
		Flags:         le.Uint32(b[4:]),
		UserData:      le.Uint32(b[8:]),
		Type:          engine.CounterType(le.Uint32(b[12:])),
		TimeBase:      int64(le.Uint64(b[16:])),
		DefaultScale:  int32(le.Uint32(b[24:])),
		InstanceIndex: le.Uint32(b[44:]),
	}
	strs := b[counterEntryHeaderSize:size]
	var err error
	str := func(field string, at int, optional bool) string {
		if err != nil {
			return ""
		}
		o := le.Uint32(b[at:])
		if optional && o == noString {
			return ""
		}
		if uint64(o) >= uint64(len(strs)) {
			err = errf(rec, index, loc.at(p+at), field, engine.ErrMalformed, "%x outside the entry's %d bytes of strings", int64(o), int64(len(strs)))
			return ""
		}
		n, ok := text.UTF16Len(strs[o:])
		if !ok {
			err = errf(rec, index, loc.at(p+at), field, engine.ErrMalformed, "string at %x has no NUL before the end of the entry", int64(o))
			return ""
		}
		if optional && n > 2*counterpath.MaxInstanceName { // the instance and its parent
			err = newError(rec, index, loc.at(p+at), field, "name exceeds PDH_MAX_INSTANCE_NAME (1024 characters)", engine.ErrUnsupported)
			return ""
		}
		// The instance and its parent keep every code unit (AppendUTF16Name).
		return string(text.AppendUTF16Units(make([]byte, 0, n/2), strs[o:o+uint32(n)], optional))
	}
	c.Machine = str("MachineOffset", 28, false)
	c.Object = str("ObjectOffset", 32, false)
	c.Instance = str("InstanceOffset", 36, true)
	c.Parent = str("ParentOffset", 40, true)
	c.Counter = str("CounterOffset", 48, false)
	if err != nil {
		return CounterInfo{}, 0, err
	}
	c.Path = string(c.AppendPath(nil, nil))
	return c, int(size), nil
}
