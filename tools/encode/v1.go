package encode

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// V1Blob describes a V1 HKEY_PERFORMANCE_DATA blob: the PERF_DATA_BLOCK's
// fields and its objects. EncodeV1 computes every length, offset and count;
// LittleEndian, Version and Revision are always written as 1.
type V1Blob struct {
	SystemName      string             // PERF_DATA_BLOCK system name; "" writes SystemNameLength 0
	SystemTime      wintype.SystemTime // PERF_DATA_BLOCK.SystemTime
	DefaultObject   int32              // PERF_DATA_BLOCK.DefaultObject
	PerfTime        int64              // PERF_DATA_BLOCK.PerfTime
	PerfFreq        int64              // PERF_DATA_BLOCK.PerfFreq
	PerfTime100nSec int64              // PERF_DATA_BLOCK.PerfTime100nSec
	Objects         []V1Object
}

// V1Object describes a PERF_OBJECT_TYPE with its counters and instances.
//
// NumInstances is written as given and must agree with Instances: a count n
// ≥ 0 needs n instances; −1 (PERF_NO_INSTANCES) needs exactly one, of which
// only Values and MultiCounts are written (as the single counter block);
// −2 and −3 (metadata) need none.
type V1Object struct {
	ObjectNameTitleIndex uint32
	ObjectHelpTitleIndex uint32
	DetailLevel          uint32
	DefaultCounter       int32
	NumInstances         int32
	CodePage             uint32 // 0 or 1200 (UTF-16LE), 1252, 20127, 28591 or 65001
	PerfTime             int64
	PerfFreq             int64
	// CounterBlockLength is the ByteLength of every counter block; 0 means
	// the smallest multiple of 8 that holds every value (V1MinCounterBlock).
	// Windows sometimes writes longer blocks; a value below the minimum is
	// an error.
	CounterBlockLength uint32
	Counters           []V1Counter
	Instances          []V1Instance
}

// V1Counter describes a PERF_COUNTER_DEFINITION. CounterOffset is written as
// given (V1Layout assigns offsets), so that several definitions can share
// raw data; it must be at least 4, past the counter block's ByteLength.
type V1Counter struct {
	CounterNameTitleIndex uint32
	CounterHelpTitleIndex uint32
	DefaultScale          int32
	DetailLevel           uint32
	CounterType           engine.CounterType
	CounterSize           uint32 // 4 or 8; 0 only for PERF_SIZE_ZERO types (nothing is written)
	CounterOffset         uint32
}

// V1Instance describes a PERF_INSTANCE_DEFINITION, its name and its counter
// block.
type V1Instance struct {
	Name                   string // encoded in the object's code page; "" writes NameLength 0
	ParentObjectTitleIndex uint32
	ParentObjectInstance   uint32
	UniqueID               int32
	// Values holds one raw value per counter definition, in definition
	// order. Definitions that share bytes must be given equal values.
	Values []uint64
	// MultiCounts is nil, or holds one entry per counter definition: the
	// DWORD written right after the value of a multi timer that is not
	// followed by a PERF_COUNTER_MULTI_BASE definition (V1TrailingCount),
	// and 0 for every other definition.
	MultiCounts []uint32
}

// V1TrailingCount reports whether counter i of counters is a multi timer
// without a PERF_COUNTER_MULTI_BASE definition after it, whose item count is
// then the DWORD that follows its value in the counter block.
func V1TrailingCount(counters []V1Counter, i int) bool {
	base, ok := counters[i].CounterType.Base()
	if !ok || base != engine.CounterMultiBase {
		return false
	}
	return i+1 >= len(counters) || counters[i+1].CounterType != engine.CounterMultiBase
}

// V1MinCounterBlock returns the smallest counter block that holds every
// value of counters (and the trailing DWORDs of multi timers): a multiple
// of 8, at least 8 bytes. It is the ByteLength that EncodeV1 writes when
// V1Object.CounterBlockLength is 0.
func V1MinCounterBlock(counters []V1Counter) uint32 {
	return uint32(min(minCounterBlock(counters), math.MaxUint32&^7))
}

func minCounterBlock(counters []V1Counter) uint64 {
	end := uint64(4)
	for i, c := range counters {
		e := uint64(c.CounterOffset) + uint64(c.CounterSize)
		if V1TrailingCount(counters, i) {
			e += 4
		}
		end = max(end, e)
	}
	return (end + 7) &^ 7
}

// V1Layout assigns each counter its own CounterOffset, in order, as a
// provider would: the first value at 8 when any value is 8 bytes long
// (else at 4), 8-byte values 8-aligned, room for a multi timer's trailing
// DWORD. It returns the counter block's ByteLength (a multiple of 8).
func V1Layout(counters []V1Counter) uint32 {
	off := uint32(4)
	for i := range counters {
		size := counters[i].CounterSize
		if size == 8 {
			off = (off + 7) &^ 7
		}
		counters[i].CounterOffset = off
		off += size
		if V1TrailingCount(counters, i) {
			off += 4
		}
	}
	return (off + 7) &^ 7
}

// v1Err reports a description that EncodeV1 cannot encode.
func v1Err(obj, sub int, what, detail string) error {
	s := "encode: V1"
	if obj >= 0 {
		s += " object " + strconv.Itoa(obj)
	}
	if sub >= 0 {
		s += " " + what + " " + strconv.Itoa(sub)
	}
	return errors.New(s + ": " + detail)
}

// EncodeV1 returns the V1 blob that b describes (see AppendV1).
func EncodeV1(b *V1Blob) ([]byte, error) { return AppendV1(nil, b) }

// AppendV1 appends the V1 blob that b describes to dst: a PERF_DATA_BLOCK
// with the system name after it, then each object with 64-byte header,
// 40-byte counter definitions, and its instances (each name padded to 8
// bytes) or its single counter block. Every record is a multiple of 8
// bytes. It returns an error, naming the object, counter or instance at
// fault, when b cannot be encoded, and then leaves dst as it was.
func AppendV1(dst []byte, b *V1Blob) ([]byte, error) {
	start := len(dst)
	le := binary.LittleEndian
	name, err := encodeName(b.SystemName, 0)
	if err != nil {
		return dst, v1Err(-1, -1, "", "SystemName: "+err.Error())
	}
	hdrLen := pad8(88 + len(name))
	dst = append(dst, make([]byte, hdrLen)...)
	h := dst[start:]
	copy(h, "P\x00E\x00R\x00F\x00")
	le.PutUint32(h[8:], 1)
	le.PutUint32(h[12:], 1)
	le.PutUint32(h[16:], 1)
	le.PutUint32(h[24:], uint32(hdrLen))
	if uint64(len(b.Objects)) > math.MaxUint32 {
		return dst[:start], v1Err(-1, -1, "", "too many objects")
	}
	le.PutUint32(h[28:], uint32(len(b.Objects)))
	le.PutUint32(h[32:], uint32(b.DefaultObject))
	st := b.SystemTime
	for i, v := range [8]uint16{st.Year, st.Month, st.DayOfWeek, st.Day, st.Hour, st.Minute, st.Second, st.Milliseconds} {
		le.PutUint16(h[36+2*i:], v)
	}
	le.PutUint64(h[56:], uint64(b.PerfTime))
	le.PutUint64(h[64:], uint64(b.PerfFreq))
	le.PutUint64(h[72:], uint64(b.PerfTime100nSec))
	le.PutUint32(h[80:], uint32(len(name)))
	le.PutUint32(h[84:], 88)
	copy(h[88:], name)
	for i := range b.Objects {
		if dst, err = appendV1Object(dst, &b.Objects[i], i); err != nil {
			return dst[:start], err
		}
	}
	if uint64(len(dst)-start) > math.MaxUint32 {
		return dst[:start], v1Err(-1, -1, "", "the blob exceeds 4 GiB")
	}
	le.PutUint32(dst[start+20:], uint32(len(dst)-start))
	return dst, nil
}

func appendV1Object(dst []byte, o *V1Object, oi int) ([]byte, error) {
	le := binary.LittleEndian
	switch n := o.NumInstances; {
	case n >= 0 && int64(len(o.Instances)) != int64(n),
		n == -1 && len(o.Instances) != 1,
		(n == -2 || n == -3) && len(o.Instances) != 0:
		return dst, v1Err(oi, -1, "", "NumInstances "+strconv.Itoa(int(n))+" but "+strconv.Itoa(len(o.Instances))+" instances")
	case n < -3:
		return dst, v1Err(oi, -1, "", "NumInstances "+strconv.Itoa(int(n))+" is neither a count nor -1, -2 or -3")
	}
	// The counter block's size and the checks of the definitions.
	for i, c := range o.Counters {
		switch {
		case c.CounterSize != 0 && c.CounterSize != 4 && c.CounterSize != 8:
			return dst, v1Err(oi, i, "counter", "CounterSize "+strconv.Itoa(int(c.CounterSize))+" is neither 0, 4 nor 8")
		case c.CounterSize == 0 && c.CounterType&0x300 != 0x200:
			return dst, v1Err(oi, i, "counter", "CounterSize 0 needs a PERF_SIZE_ZERO type")
		case c.CounterOffset < 4 && c.CounterSize != 0:
			return dst, v1Err(oi, i, "counter", "CounterOffset "+strconv.Itoa(int(c.CounterOffset))+" overlaps the counter block's ByteLength")
		}
	}
	cbLen := minCounterBlock(o.Counters)
	if cbLen > math.MaxUint32 {
		return dst, v1Err(oi, -1, "", "the counter block exceeds 4 GiB")
	}
	if o.CounterBlockLength != 0 {
		if uint64(o.CounterBlockLength) < cbLen {
			return dst, v1Err(oi, -1, "", "CounterBlockLength "+strconv.Itoa(int(o.CounterBlockLength))+" is below the "+strconv.FormatUint(cbLen, 10)+" bytes the values need")
		}
		cbLen = uint64(o.CounterBlockLength)
	}
	start := len(dst)
	defLen := 64 + 40*len(o.Counters)
	dst = append(dst, make([]byte, defLen)...)
	h := dst[start:]
	le.PutUint32(h[4:], uint32(defLen))
	le.PutUint32(h[8:], 64)
	le.PutUint32(h[12:], o.ObjectNameTitleIndex)
	le.PutUint32(h[20:], o.ObjectHelpTitleIndex)
	le.PutUint32(h[28:], o.DetailLevel)
	le.PutUint32(h[32:], uint32(len(o.Counters)))
	le.PutUint32(h[36:], uint32(o.DefaultCounter))
	le.PutUint32(h[40:], uint32(o.NumInstances))
	le.PutUint32(h[44:], o.CodePage)
	le.PutUint64(h[48:], uint64(o.PerfTime))
	le.PutUint64(h[56:], uint64(o.PerfFreq))
	for i, c := range o.Counters {
		d := h[64+40*i:]
		le.PutUint32(d[0:], 40)
		le.PutUint32(d[4:], c.CounterNameTitleIndex)
		le.PutUint32(d[12:], c.CounterHelpTitleIndex)
		le.PutUint32(d[20:], uint32(c.DefaultScale))
		le.PutUint32(d[24:], c.DetailLevel)
		le.PutUint32(d[28:], uint32(c.CounterType))
		le.PutUint32(d[32:], c.CounterSize)
		le.PutUint32(d[36:], c.CounterOffset)
	}
	var err error
	for j := range o.Instances {
		in := &o.Instances[j]
		if o.NumInstances >= 0 {
			name, err := encodeName(in.Name, o.CodePage)
			if err != nil {
				return dst, v1Err(oi, j, "instance", "Name: "+err.Error())
			}
			p := len(dst)
			bl := 24 + pad8(len(name))
			dst = append(dst, make([]byte, bl)...)
			d := dst[p:]
			le.PutUint32(d[0:], uint32(bl))
			le.PutUint32(d[4:], in.ParentObjectTitleIndex)
			le.PutUint32(d[8:], in.ParentObjectInstance)
			le.PutUint32(d[12:], uint32(in.UniqueID))
			le.PutUint32(d[16:], 24)
			le.PutUint32(d[20:], uint32(len(name)))
			copy(d[24:], name)
		}
		if dst, err = appendCounterBlock(dst, o, in, int(cbLen), oi, j); err != nil {
			return dst, err
		}
	}
	total := len(dst) - start
	if uint64(total) > math.MaxUint32 {
		return dst, v1Err(oi, -1, "", "the object exceeds 4 GiB")
	}
	le.PutUint32(dst[start:], uint32(total))
	return dst, nil
}

func appendCounterBlock(dst []byte, o *V1Object, in *V1Instance, cbLen, oi, j int) ([]byte, error) {
	le := binary.LittleEndian
	if len(in.Values) != len(o.Counters) {
		return dst, v1Err(oi, j, "instance", strconv.Itoa(len(in.Values))+" values for "+strconv.Itoa(len(o.Counters))+" counters")
	}
	if in.MultiCounts != nil && len(in.MultiCounts) != len(o.Counters) {
		return dst, v1Err(oi, j, "instance", strconv.Itoa(len(in.MultiCounts))+" multi counts for "+strconv.Itoa(len(o.Counters))+" counters")
	}
	p := len(dst)
	dst = append(dst, make([]byte, cbLen)...)
	cb := dst[p:]
	le.PutUint32(cb, uint32(cbLen))
	for pass := 0; pass < 2; pass++ { // write, then read back to catch conflicting shared bytes
		for i, c := range o.Counters {
			v, off := in.Values[i], c.CounterOffset
			switch c.CounterSize {
			case 0:
				if v != 0 {
					return dst, v1Err(oi, j, "instance", "value "+strconv.Itoa(i)+" is not 0 but CounterSize is 0")
				}
			case 4:
				if v > math.MaxUint32 {
					return dst, v1Err(oi, j, "instance", "value "+strconv.Itoa(i)+" does not fit CounterSize 4")
				}
				if pass == 0 {
					le.PutUint32(cb[off:], uint32(v))
				} else if uint64(le.Uint32(cb[off:])) != v {
					return dst, v1Err(oi, j, "instance", "value "+strconv.Itoa(i)+" conflicts with another counter sharing its bytes")
				}
			case 8:
				if pass == 0 {
					le.PutUint64(cb[off:], v)
				} else if le.Uint64(cb[off:]) != v {
					return dst, v1Err(oi, j, "instance", "value "+strconv.Itoa(i)+" conflicts with another counter sharing its bytes")
				}
			}
			var m uint32
			if in.MultiCounts != nil {
				m = in.MultiCounts[i]
			}
			if !V1TrailingCount(o.Counters, i) {
				if m != 0 {
					return dst, v1Err(oi, j, "instance", "multi count "+strconv.Itoa(i)+" is set but counter "+strconv.Itoa(i)+" has no trailing DWORD")
				}
				continue
			}
			moff := off + c.CounterSize
			if pass == 0 {
				le.PutUint32(cb[moff:], m)
			} else if le.Uint32(cb[moff:]) != m {
				return dst, v1Err(oi, j, "instance", "multi count "+strconv.Itoa(i)+" conflicts with a counter sharing its bytes")
			}
		}
	}
	return dst, nil
}

// encodeName encodes s, NUL-terminated, in code page cp; "" gives nil.
func encodeName(s string, cp uint32) ([]byte, error) {
	if s == "" {
		return nil, nil
	}
	var b []byte
	for _, r := range s {
		if r == 0 {
			return nil, errors.New("contains NUL")
		}
	}
	switch cp {
	case 0, 1200:
		if !utf8.ValidString(s) {
			return nil, errors.New("is not valid UTF-8")
		}
		for _, r := range s {
			if r >= 0x10000 {
				r1, r2 := utf16.EncodeRune(r)
				b = binary.LittleEndian.AppendUint16(b, uint16(r1))
				b = binary.LittleEndian.AppendUint16(b, uint16(r2))
				continue
			}
			b = binary.LittleEndian.AppendUint16(b, uint16(r))
		}
		return append(b, 0, 0), nil
	case 65001:
		if !utf8.ValidString(s) {
			return nil, errors.New("is not valid UTF-8")
		}
		return append([]byte(s), 0), nil
	case 1252, 28591, 20127:
		for _, r := range s {
			c, ok := singleByte(r, cp)
			if !ok {
				return nil, errors.New("has " + strconv.QuoteRune(r) + ", which code page " + strconv.Itoa(int(cp)) + " cannot encode")
			}
			b = append(b, c)
		}
		return append(b, 0), nil
	}
	return nil, errors.New("code page " + strconv.Itoa(int(cp)) + " is not supported")
}

// cp1252High is Windows-1252's 0x80–0x9F (the undefined bytes map to the C1
// control of the same value, as MultiByteToWideChar does).
var cp1252High = [32]rune{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}

func singleByte(r rune, cp uint32) (byte, bool) {
	switch {
	case r < 0x80:
		return byte(r), true
	case cp == 20127:
		return 0, false
	case cp == 28591:
		return byte(r), r <= 0xFF
	case r >= 0xA0 && r <= 0xFF:
		return byte(r), true
	}
	for i, x := range cp1252High {
		if x == r {
			return byte(0x80 + i), true
		}
	}
	return 0, false
}

func pad8(n int) int { return (n + 7) &^ 7 }
