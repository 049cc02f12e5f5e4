package encode

import (
	"encoding/binary"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// V2Data describes a PerfQueryCounterData result: the PERF_DATA_HEADER's
// time stamps and its PERF_COUNTER_HEADER blocks, written in order (the
// order of the PERF_COUNTER_IDENTIFIER Index values). EncodeV2Data
// computes every size and count.
type V2Data struct {
	PerfTimeStamp   int64              // PERF_DATA_HEADER.PerfTimeStamp (QPC ticks)
	PerfTime100NSec int64              // PERF_DATA_HEADER.PerfTime100NSec
	PerfFreq        int64              // PERF_DATA_HEADER.PerfFreq
	SystemTime      wintype.SystemTime // PERF_DATA_HEADER.SystemTime
	Blocks          []V2CounterBlock
}

// The PerfCounterDataType values of V2CounterBlock.Type.
const (
	V2ErrorReturn       = 0 // PERF_ERROR_RETURN
	V2SingleCounter     = 1 // PERF_SINGLE_COUNTER
	V2MultipleCounters  = 2 // PERF_MULTIPLE_COUNTERS
	V2MultipleInstances = 4 // PERF_MULTIPLE_INSTANCES
	V2Counterset        = 6 // PERF_COUNTERSET
)

// V2CounterBlock describes one PERF_COUNTER_HEADER block. What it must
// hold depends on Type:
//
//   - V2ErrorReturn: no CounterIDs, no Rows (Status is the Win32 error);
//   - V2SingleCounter: no CounterIDs, one Row without instance, one Value;
//   - V2MultipleCounters: CounterIDs, one Row without instance, one Value
//     per id;
//   - V2MultipleInstances: no CounterIDs, one Row per instance, one Value
//     each;
//   - V2Counterset: CounterIDs, one Row per instance, one Value per id.
//
// "Without instance" means InstanceID 0 and Name "".
type V2CounterBlock struct {
	Status     uint32   // dwStatus
	Type       uint32   // dwType
	CounterIDs []uint32 // PERF_MULTI_COUNTERS.CounterIds
	Rows       []V2Row
}

// V2Row is one row of values: a PERF_INSTANCE_HEADER (in blocks with
// instances) and its PERF_COUNTER_DATA records.
type V2Row struct {
	InstanceID uint32 // PERF_INSTANCE_HEADER.InstanceId
	Name       string // the instance name: valid UTF-8 without NUL
	Values     []V2Value
}

// V2Value is one PERF_COUNTER_DATA: Value written little-endian on Size
// bytes (dwDataSize, 0 to 8; 4 and 8 in practice). Value must fit in Size
// bytes.
type V2Value struct {
	Size  uint32
	Value uint64
}

// EncodeV2Data returns the blob that d describes (see AppendV2Data).
func EncodeV2Data(d *V2Data) ([]byte, error) { return AppendV2Data(nil, d) }

// AppendV2Data appends the PerfQueryCounterData result that d describes to
// dst: a 48-byte PERF_DATA_HEADER, then each block with its
// PERF_MULTI_COUNTERS (ids padded to 8 bytes), PERF_MULTI_INSTANCES,
// PERF_INSTANCE_HEADER records (names padded to 8 bytes) and
// PERF_COUNTER_DATA records (values padded to 8 bytes, dwSize at least
// 16). Padding is zero. It returns an error naming the block, row or value
// at fault when d cannot be encoded, and then leaves dst as it was.
func AppendV2Data(dst []byte, d *V2Data) ([]byte, error) {
	start := len(dst)
	le := binary.LittleEndian
	dst = append(dst, make([]byte, 48)...)
	h := dst[start:]
	le.PutUint32(h[4:], uint32(len(d.Blocks)))
	le.PutUint64(h[8:], uint64(d.PerfTimeStamp))
	le.PutUint64(h[16:], uint64(d.PerfTime100NSec))
	le.PutUint64(h[24:], uint64(d.PerfFreq))
	st := d.SystemTime
	for i, v := range [8]uint16{st.Year, st.Month, st.DayOfWeek, st.Day, st.Hour, st.Minute, st.Second, st.Milliseconds} {
		le.PutUint16(h[32+2*i:], v)
	}
	if uint64(len(d.Blocks)) > 0xFFFFFFFF {
		return dst[:start], errors.New("encode: V2 data: too many blocks")
	}
	for i := range d.Blocks {
		var err error
		if dst, err = v2AppendBlock(dst, &d.Blocks[i], i); err != nil {
			return dst[:start], err
		}
	}
	total := len(dst) - start
	if uint64(total) > 0xFFFFFFFF {
		return dst[:start], errors.New("encode: V2 data: larger than 4 GiB")
	}
	le.PutUint32(dst[start:], uint32(total))
	return dst, nil
}

// v2Err reports a V2 description that cannot be encoded.
func v2Err(what string, i int, sub string, j int, detail string) error {
	s := "encode: V2 " + what + " " + strconv.Itoa(i)
	if sub != "" {
		s += " " + sub + " " + strconv.Itoa(j)
	}
	return errors.New(s + ": " + detail)
}

func v2AppendBlock(dst []byte, b *V2CounterBlock, bi int) ([]byte, error) {
	le := binary.LittleEndian
	var ids, inst bool
	switch b.Type {
	case V2ErrorReturn:
		if len(b.CounterIDs) != 0 || len(b.Rows) != 0 {
			return dst, v2Err("block", bi, "", 0, "PERF_ERROR_RETURN has no counter ids or rows")
		}
	case V2SingleCounter:
	case V2MultipleCounters:
		ids = true
	case V2MultipleInstances:
		inst = true
	case V2Counterset:
		ids, inst = true, true
	default:
		return dst, v2Err("block", bi, "", 0, "Type "+strconv.FormatUint(uint64(b.Type), 10)+" is not a PerfCounterDataType")
	}
	perRow := 1
	if ids {
		perRow = len(b.CounterIDs)
	} else if len(b.CounterIDs) != 0 {
		return dst, v2Err("block", bi, "", 0, "this Type has no counter ids")
	}
	if b.Type != V2ErrorReturn && !inst && len(b.Rows) != 1 {
		return dst, v2Err("block", bi, "", 0, "a block without instances has exactly one row, not "+strconv.Itoa(len(b.Rows)))
	}
	start := len(dst)
	dst = append(dst, make([]byte, 16)...)
	le.PutUint32(dst[start:], b.Status)
	le.PutUint32(dst[start+4:], b.Type)
	if ids {
		ms := 8 + v2Pad8(4*len(b.CounterIDs))
		p := len(dst)
		dst = append(dst, make([]byte, ms)...)
		le.PutUint32(dst[p:], uint32(ms))
		le.PutUint32(dst[p+4:], uint32(len(b.CounterIDs)))
		for k, id := range b.CounterIDs {
			le.PutUint32(dst[p+8+4*k:], id)
		}
	}
	mi := -1
	if inst {
		mi = len(dst)
		dst = append(dst, make([]byte, 8)...)
		le.PutUint32(dst[mi+4:], uint32(len(b.Rows)))
	}
	for r := range b.Rows {
		row := &b.Rows[r]
		if len(row.Values) != perRow {
			return dst, v2Err("block", bi, "row", r, "has "+strconv.Itoa(len(row.Values))+" values, want "+strconv.Itoa(perRow))
		}
		if inst {
			var err error
			if dst, err = v2AppendInstance(dst, row.InstanceID, row.Name); err != nil {
				return dst, v2Err("block", bi, "row", r, err.Error())
			}
		} else if row.InstanceID != 0 || row.Name != "" {
			return dst, v2Err("block", bi, "row", r, "has an instance, but the block's Type has none")
		}
		for k, v := range row.Values {
			if v.Size > 8 || v.Size < 8 && v.Value>>(8*v.Size) != 0 {
				return dst, v2Err("block", bi, "row "+strconv.Itoa(r)+" value", k, "Value does not fit in Size "+strconv.FormatUint(uint64(v.Size), 10))
			}
			size := 8 + max(8, v2Pad8(int(v.Size)))
			p := len(dst)
			dst = append(dst, make([]byte, size)...)
			le.PutUint32(dst[p:], v.Size)
			le.PutUint32(dst[p+4:], uint32(size))
			for k := range int(v.Size) {
				dst[p+8+k] = byte(v.Value >> (8 * k))
			}
		}
	}
	if mi >= 0 {
		le.PutUint32(dst[mi:], uint32(len(dst)-mi))
	}
	le.PutUint32(dst[start+8:], uint32(len(dst)-start))
	return dst, nil
}

// v2Pad8 rounds n up to a multiple of 8.
func v2Pad8(n int) int { return (n + 7) &^ 7 }

// v2AppendInstance appends a PERF_INSTANCE_HEADER with its NUL-terminated
// name padded to 8 bytes.
func v2AppendInstance(dst []byte, id uint32, name string) ([]byte, error) {
	if !utf8.ValidString(name) {
		return dst, errors.New("instance name is not valid UTF-8")
	}
	for i := 0; i < len(name); i++ {
		if name[i] == 0 {
			return dst, errors.New("instance name holds a NUL")
		}
	}
	p := len(dst)
	dst = append(dst, make([]byte, 8)...)
	dst = ntAppendUTF16(dst, name)
	dst = append(dst, 0, 0)
	for (len(dst)-p)%8 != 0 {
		dst = append(dst, 0)
	}
	binary.LittleEndian.PutUint32(dst[p:], uint32(len(dst)-p))
	binary.LittleEndian.PutUint32(dst[p+4:], id)
	return dst, nil
}

// V2Instance is one PERF_INSTANCE_HEADER of an instance enumeration.
type V2Instance struct {
	InstanceID uint32 // InstanceId
	Name       string // valid UTF-8 without NUL
}

// EncodeV2Instances returns the PerfEnumerateCounterSetInstances result
// that insts describe: one PERF_INSTANCE_HEADER per instance, each with its
// NUL-terminated UTF-16LE name padded to 8 bytes with zeros.
func EncodeV2Instances(insts []V2Instance) ([]byte, error) {
	var dst []byte
	for i, in := range insts {
		var err error
		if dst, err = v2AppendInstance(dst, in.InstanceID, in.Name); err != nil {
			return nil, v2Err("instance", i, "", 0, err.Error())
		}
	}
	return dst, nil
}

// V2CounterSet describes a PerfQueryCounterSetRegistrationInfo result of
// type PERF_REG_COUNTERSET_STRUCT: a PERF_COUNTERSET_REG_INFO and its
// counters; NumCounters is len(Counters).
type V2CounterSet struct {
	GUID           [16]byte // CounterSetGuid, as stored
	CounterSetType uint32
	DetailLevel    uint32
	InstanceType   uint32
	Counters       []V2CounterRegInfo
}

// V2CounterRegInfo describes a PERF_COUNTER_REG_INFO; every field is
// written as given (use 0xFFFFFFFF for "no counter").
type V2CounterRegInfo struct {
	CounterID     uint32
	Type          engine.CounterType
	Attrib        uint64
	DetailLevel   uint32
	DefaultScale  int32
	BaseCounterID uint32
	PerfTimeID    uint32
	PerfFreqID    uint32
	MultiID       uint32
	AggregateFunc uint32
	Reserved      uint32
}

// EncodeV2RegInfo returns the 32-byte PERF_COUNTERSET_REG_INFO and the
// 48-byte PERF_COUNTER_REG_INFO records that s describes.
func EncodeV2RegInfo(s *V2CounterSet) ([]byte, error) {
	if uint64(len(s.Counters)) > (0xFFFFFFFF-32)/48 {
		return nil, errors.New("encode: V2 counter set: too many counters")
	}
	le := binary.LittleEndian
	dst := make([]byte, 32+48*len(s.Counters))
	copy(dst, s.GUID[:])
	le.PutUint32(dst[16:], s.CounterSetType)
	le.PutUint32(dst[20:], s.DetailLevel)
	le.PutUint32(dst[24:], uint32(len(s.Counters)))
	le.PutUint32(dst[28:], s.InstanceType)
	for i, c := range s.Counters {
		b := dst[32+48*i:]
		le.PutUint32(b[0:], c.CounterID)
		le.PutUint32(b[4:], uint32(c.Type))
		le.PutUint64(b[8:], c.Attrib)
		le.PutUint32(b[16:], c.DetailLevel)
		le.PutUint32(b[20:], uint32(c.DefaultScale))
		le.PutUint32(b[24:], c.BaseCounterID)
		le.PutUint32(b[28:], c.PerfTimeID)
		le.PutUint32(b[32:], c.PerfFreqID)
		le.PutUint32(b[36:], c.MultiID)
		le.PutUint32(b[40:], c.AggregateFunc)
		le.PutUint32(b[44:], c.Reserved)
	}
	return dst, nil
}

// V2Strings describes a PERF_STRING_BUFFER_HEADER block, as
// PerfQueryCounterSetRegistrationInfo returns for counter name and help
// strings.
type V2Strings struct {
	Strings []V2String
	// MSPCQ writes dwOffset from the end of the PERF_STRING_COUNTER_HEADER
	// array, as [MS-PCQ] reads it, instead of from the start of the block
	// (the SDK reading, the default).
	MSPCQ bool
}

// V2String is one PERF_STRING_COUNTER_HEADER and its string.
type V2String struct {
	CounterID uint32 // dwCounterId
	Text      string // valid UTF-8 without NUL; may be empty
	None      bool   // no string: dwOffset 0xFFFFFFFF, Text ignored
}

// EncodeV2Strings returns the string buffer that s describes: the 8-byte
// header, one 8-byte PERF_STRING_COUNTER_HEADER per string, then the
// NUL-terminated UTF-16LE strings in order, the block padded with zeros to
// a multiple of 8 bytes (dwSize includes the padding).
func EncodeV2Strings(s *V2Strings) ([]byte, error) {
	le := binary.LittleEndian
	n := len(s.Strings)
	head := 8 + 8*n
	dst := make([]byte, head, head+16*n)
	le.PutUint32(dst[4:], uint32(n))
	for i, str := range s.Strings {
		le.PutUint32(dst[8+8*i:], str.CounterID)
		if str.None {
			le.PutUint32(dst[12+8*i:], 0xFFFFFFFF)
			continue
		}
		if !utf8.ValidString(str.Text) {
			return nil, v2Err("string", i, "", 0, "text is not valid UTF-8")
		}
		for k := 0; k < len(str.Text); k++ {
			if str.Text[k] == 0 {
				return nil, v2Err("string", i, "", 0, "text holds a NUL")
			}
		}
		off := len(dst)
		if s.MSPCQ {
			off -= head
		}
		le.PutUint32(dst[12+8*i:], uint32(off))
		dst = ntAppendUTF16(dst, str.Text)
		dst = append(dst, 0, 0)
	}
	for len(dst)%8 != 0 {
		dst = append(dst, 0)
	}
	if uint64(len(dst)) > 0xFFFFFFFF {
		return nil, errors.New("encode: V2 strings: larger than 4 GiB")
	}
	le.PutUint32(dst, uint32(len(dst)))
	return dst, nil
}
