package perflibv2

import (
	"encoding/binary"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// DataType mirrors perflib.h's PerfCounterDataType, PERF_COUNTER_HEADER.dwType:
// what follows a counter header.
type DataType uint32

// The block kinds of a PerfQueryCounterData result.
const (
	ErrorReturn       DataType = 0 // PERF_ERROR_RETURN: header only, dwStatus holds a Win32 error
	SingleCounter     DataType = 1 // PERF_SINGLE_COUNTER: one PERF_COUNTER_DATA
	MultipleCounters  DataType = 2 // PERF_MULTIPLE_COUNTERS: PERF_MULTI_COUNTERS and its values
	MultipleInstances DataType = 4 // PERF_MULTIPLE_INSTANCES: PERF_MULTI_INSTANCES, one value per instance
	Counterset        DataType = 6 // PERF_COUNTERSET: PERF_MULTI_COUNTERS, PERF_MULTI_INSTANCES, a row of values per instance
)

// String returns the perflib.h name of the block kind.
func (t DataType) String() string {
	switch t {
	case ErrorReturn:
		return "PERF_ERROR_RETURN"
	case SingleCounter:
		return "PERF_SINGLE_COUNTER"
	case MultipleCounters:
		return "PERF_MULTIPLE_COUNTERS"
	case MultipleInstances:
		return "PERF_MULTIPLE_INSTANCES"
	case Counterset:
		return "PERF_COUNTERSET"
	}
	return "PerfCounterDataType(" + strconv.FormatUint(uint64(t), 10) + ")"
}

// IsData reports whether data is a PerfQueryCounterData result: a
// PERF_DATA_HEADER with at least one counter whose blocks all decode. It is
// how perfcalc recognises a V2 capture (a V2 result has no signature); it
// reads the whole result.
func IsData(data []byte) bool {
	var p Parser
	h, err := p.Start(data)
	if err != nil || h.NumCounters == 0 {
		return false
	}
	for p.Next() {
	}
	return p.Err() == nil
}

// Parser walks a PerfQueryCounterData result block by block, in the style
// of bufio.Scanner: Start reads the PERF_DATA_HEADER, each Next decodes and
// checks one PERF_COUNTER_HEADER block in place, Block returns it and Err
// reports the error that stopped the walk. A Parser is a value, safe to
// copy (a copy resumes from the same block); it allocates nothing. The
// views it returns alias the input and are valid while it is.
type Parser struct {
	buf []byte // the input up to dwTotalSize
	off int    // offset of the next block
	i   int    // index of the next block
	n   int    // dwNumCounters
	err error  // what stopped Next
	cur Block  // the current block
}

// Start checks the PERF_DATA_HEADER at the start of b and returns it. A
// PerfQueryCounterData buffer may be larger than dwTotalSize; the bytes
// after it are ignored.
func (p *Parser) Start(b []byte) (DataHeader, error) {
	*p = Parser{}
	h, err := parseDataHeader(b)
	if err != nil {
		return h, err
	}
	*p = Parser{buf: b[:h.TotalSize:h.TotalSize], off: DataHeaderSize, n: int(h.NumCounters)}
	return h, nil
}

// Next decodes the next PERF_COUNTER_HEADER block, which Block then
// returns, checking its whole structure (every size, count and instance
// name). It returns false after dwNumCounters blocks, and at the first
// malformed one, which Err then reports; after that it returns false.
// Blocks are 8-aligned and advanced by their own dwSize; bytes after the
// last block, up to dwTotalSize, are ignored.
func (p *Parser) Next() bool {
	if p.err != nil || p.i >= p.n {
		return false
	}
	if err := parseBlock(p.buf, p.off, p.i, &p.cur); err != nil {
		p.err = err
		return false
	}
	p.off += int(p.cur.Size)
	p.i++
	return true
}

// Block returns the current block, held by the parser: it is valid until
// the next call to Next or Start (copy *Block to keep it).
func (p *Parser) Block() *Block { return &p.cur }

// Err returns the *engine.FormatError that stopped Next, or nil after the
// last block.
func (p *Parser) Err() error { return p.err }

// Block is one PERF_COUNTER_HEADER block, decoded in place by Parser.Next.
// Its views alias the input.
type Block struct {
	Index  int      // position among the result's blocks (PERF_COUNTER_IDENTIFIER.Index)
	Offset int      // byte offset of the PERF_COUNTER_HEADER in the input
	Status uint32   // dwStatus: a Win32 error code, 0 = success
	Type   DataType // dwType
	Size   uint32   // dwSize: header and data

	ids      []byte // PERF_MULTI_COUNTERS.CounterIds, 4 bytes each
	counters int    // values per row
	rows     int    // rows: 1, or the dwInstances of PERF_MULTI_INSTANCES
	inst     bool   // rows begin with a PERF_INSTANCE_HEADER
	data     []byte // the rows
	dataOff  int    // offset of data in the input
}

// NumCounters returns the number of values in each row: 1 for
// SingleCounter and MultipleInstances blocks, PERF_MULTI_COUNTERS.dwCounters
// for MultipleCounters and Counterset blocks, 0 for ErrorReturn.
func (b *Block) NumCounters() int { return b.counters }

// HasCounterIDs reports whether the block lists its counters' ids
// (MultipleCounters and Counterset blocks). SingleCounter and
// MultipleInstances blocks do not: their counter is the one the consumer
// added with the PERF_COUNTER_IDENTIFIER whose Index is the block's.
func (b *Block) HasCounterIDs() bool { return b.Type == MultipleCounters || b.Type == Counterset }

// CounterID returns PERF_MULTI_COUNTERS.CounterIds[i], 0 ≤ i < NumCounters,
// or false when the block has no id list.
func (b *Block) CounterID(i int) (uint32, bool) {
	if i < 0 || 4*i+4 > len(b.ids) {
		return 0, false
	}
	return le32(b.ids, 4*i), true
}

// counterPos returns the position of id in the block's id list, or −1.
func (b *Block) counterPos(id uint32) int {
	for i := 0; 4*i+4 <= len(b.ids); i++ {
		if le32(b.ids, 4*i) == id {
			return i
		}
	}
	return -1
}

// NumRows returns the number of rows of values: 1 for SingleCounter and
// MultipleCounters blocks, PERF_MULTI_INSTANCES.dwInstances for
// MultipleInstances and Counterset blocks, 0 for ErrorReturn.
func (b *Block) NumRows() int { return b.rows }

// HasInstances reports whether each row begins with a PERF_INSTANCE_HEADER
// (MultipleInstances and Counterset blocks).
func (b *Block) HasInstances() bool { return b.inst }

// Rows returns a cursor over the block's rows.
func (b *Block) Rows() Rows {
	return Rows{data: b.data, base: b.dataOff, n: b.rows, counters: b.counters, inst: b.inst}
}

// Rows is a cursor over the rows of a Block, in the style of
// bufio.Scanner without Err: the block was checked by Parser.Next, so the
// cursor cannot fail (on a hand-made Block whose rows do not fit, Next
// stops early).
type Rows struct {
	data      []byte
	base, off int
	i, n      int
	counters  int
	inst      bool
	cur       Row
}

// Row returns the current row, held by the cursor: it is valid until the
// next call to Next.
func (rs *Rows) Row() *Row { return &rs.cur }

// Next decodes the next row, which Row then returns, and reports whether
// there was one.
func (rs *Rows) Next() bool {
	if rs.i >= rs.n {
		return false
	}
	r := &rs.cur
	*r = Row{Index: rs.i, Offset: rs.base + rs.off, n: rs.counters}
	off := rs.off
	if rs.inst {
		if off+InstanceHeaderSize > len(rs.data) {
			rs.n = rs.i
			return false
		}
		size := int(le32(rs.data, off))
		if size < InstanceHeaderSize || size > len(rs.data)-off {
			rs.n = rs.i
			return false
		}
		r.HasInstance = true
		r.InstanceID = le32(rs.data, off+4)
		r.Name, _ = cstring(rs.data[off+InstanceHeaderSize : off+size])
		off += size
	}
	r.values = rs.data[off:]
	r.valuesOff = rs.base + off
	// Skip the row's values.
	for range rs.counters {
		if off+CounterDataSize > len(rs.data) {
			rs.n = rs.i
			return false
		}
		size := int(le32(rs.data, off+4))
		if size < 16 || size > len(rs.data)-off {
			rs.n = rs.i
			return false
		}
		off += size
	}
	r.values = r.values[:off-(r.valuesOff-rs.base)]
	rs.off = off
	rs.i++
	return true
}

// Row is one row of values of a block: the values of one instance (or of
// the single instance of a block without instances).
type Row struct {
	Index       int          // position in the block
	Offset      int          // byte offset of the row (its PERF_INSTANCE_HEADER, or its first PERF_COUNTER_DATA)
	HasInstance bool         // the row has a PERF_INSTANCE_HEADER
	InstanceID  uint32       // PERF_INSTANCE_HEADER.InstanceId
	Name        wintype.Text // the instance name, without its NUL (empty without an instance)

	values    []byte
	valuesOff int
	n         int
}

// NumValues returns the number of values in the row.
func (r *Row) NumValues() int { return r.n }

// Values returns a cursor over the row's PERF_COUNTER_DATA records.
func (r *Row) Values() Values { return Values{data: r.values, base: r.valuesOff, n: r.n} }

// Value returns the i-th value of the row (walking the i values before it).
func (r *Row) Value(i int) (Value, bool) {
	vs := r.Values()
	for vs.Next() {
		if v := vs.Value(); v.Index == i {
			return *v, true
		}
	}
	return Value{}, false
}

// Values is a cursor over the PERF_COUNTER_DATA records of a Row, in the
// style of bufio.Scanner without Err: like Rows, it cannot fail.
type Values struct {
	data      []byte
	base, off int
	i, n      int
	cur       Value
}

// Value returns the current value, held by the cursor: it is valid until
// the next call to Next.
func (vs *Values) Value() *Value { return &vs.cur }

// Next decodes the next value, which Value then returns, and reports
// whether there was one.
func (vs *Values) Next() bool {
	if vs.i >= vs.n || vs.off+CounterDataSize > len(vs.data) {
		return false
	}
	ds := int(le32(vs.data, vs.off))
	size := int(le32(vs.data, vs.off+4))
	if size < 16 || size > len(vs.data)-vs.off || ds > size-CounterDataSize {
		vs.n = vs.i
		return false
	}
	vs.cur = Value{Index: vs.i, Offset: vs.base + vs.off, Data: vs.data[vs.off+CounterDataSize : vs.off+CounterDataSize+ds : vs.off+CounterDataSize+ds]}
	vs.off += size
	vs.i++
	return true
}

// Value is one PERF_COUNTER_DATA record: a raw counter value.
type Value struct {
	Index  int    // position in the row; in a block with counter ids, the id is Block.CounterID(Index)
	Offset int    // byte offset of the PERF_COUNTER_DATA record
	Data   []byte // the dwDataSize bytes of the value
}

// Uint64 returns the value as an unsigned little-endian integer, for data
// sizes 1 to 8 (4 and 8 in practice); it reports false for other sizes.
func (v Value) Uint64() (uint64, bool) {
	switch len(v.Data) {
	case 4:
		return uint64(binary.LittleEndian.Uint32(v.Data)), true
	case 8:
		return binary.LittleEndian.Uint64(v.Data), true
	}
	if len(v.Data) == 0 || len(v.Data) > 8 {
		return 0, false
	}
	var x uint64
	for i := len(v.Data) - 1; i >= 0; i-- {
		x = x<<8 | uint64(v.Data[i])
	}
	return x, true
}

// parseBlock decodes and checks the block at off of buf (buf ends at
// dwTotalSize). The work is linear in the block's size.
func parseBlock(buf []byte, off, idx int, blk *Block) error {
	const rec = "PERF_COUNTER_HEADER"
	*blk = Block{Index: idx, Offset: off}
	if len(buf)-off < CounterHeaderSize {
		return fail(rec, idx, off, "", "needs 16 bytes, "+strconv.Itoa(len(buf)-off)+" left in dwTotalSize", engine.ErrTruncated)
	}
	blk.Status = le32(buf, off)
	blk.Type = DataType(le32(buf, off+4))
	blk.Size = le32(buf, off+8)
	switch {
	case blk.Size < CounterHeaderSize:
		return fail(rec, idx, off, "dwSize", u(blk.Size)+" below 16", engine.ErrMalformed)
	case blk.Size%8 != 0:
		return fail(rec, idx, off, "dwSize", u(blk.Size)+" not a multiple of 8 (misaligned)", engine.ErrMalformed)
	case uint64(blk.Size) > uint64(len(buf)-off):
		return fail(rec, idx, off, "dwSize", u(blk.Size)+" exceeds the "+strconv.Itoa(len(buf)-off)+" bytes left in dwTotalSize", engine.ErrMalformed)
	}
	end := off + int(blk.Size)
	p := off + CounterHeaderSize
	switch blk.Type {
	case ErrorReturn:
		return nil
	case SingleCounter:
		blk.counters, blk.rows = 1, 1
	case MultipleCounters, Counterset:
		ids, next, err := parseMultiCounters(buf[:end], p)
		if err != nil {
			return err
		}
		blk.ids, blk.counters, p = ids, len(ids)/4, next
		blk.rows = 1
	case MultipleInstances:
		blk.counters = 1
	default:
		return fail(rec, idx, off, "dwType", u(uint32(blk.Type))+" is not a PerfCounterDataType", engine.ErrUnsupported)
	}
	rowsEnd := end
	if blk.Type == MultipleInstances || blk.Type == Counterset {
		blk.inst = true
		n, next, miEnd, err := parseMultiInstances(buf[:end], p, blk.counters)
		if err != nil {
			return err
		}
		blk.rows, p, rowsEnd = n, next, miEnd
	}
	blk.data, blk.dataOff = buf[p:rowsEnd:rowsEnd], p
	return checkRows(buf[:rowsEnd], p, blk.rows, blk.counters, blk.inst)
}

// parseMultiCounters checks the PERF_MULTI_COUNTERS at off (within b) and
// returns its id list and the offset after it.
func parseMultiCounters(b []byte, off int) (ids []byte, next int, err error) {
	const rec = "PERF_MULTI_COUNTERS"
	if len(b)-off < MultiCountersSize {
		return nil, 0, fail(rec, -1, off, "", "needs 8 bytes, "+strconv.Itoa(len(b)-off)+" left in the block", engine.ErrTruncated)
	}
	size, n := le32(b, off), le32(b, off+4)
	switch {
	case size < MultiCountersSize:
		return nil, 0, fail(rec, -1, off, "dwSize", u(size)+" below 8", engine.ErrMalformed)
	case size%8 != 0:
		return nil, 0, fail(rec, -1, off, "dwSize", u(size)+" not a multiple of 8 (misaligned)", engine.ErrMalformed)
	case uint64(size) > uint64(len(b)-off):
		return nil, 0, fail(rec, -1, off, "dwSize", u(size)+" exceeds the "+strconv.Itoa(len(b)-off)+" bytes left in the block", engine.ErrMalformed)
	case uint64(n) > uint64(size-MultiCountersSize)/4:
		return nil, 0, fail(rec, -1, off+4, "dwCounters", u(n)+" ids cannot fit in dwSize "+u(size), engine.ErrMalformed)
	}
	e := off + MultiCountersSize + 4*int(n)
	return b[off+MultiCountersSize : e : e], off + int(size), nil
}

// parseMultiInstances checks the PERF_MULTI_INSTANCES at off (within b),
// whose rows hold counters values each, and returns dwInstances, the
// offset of the first row and the end of the instance data.
func parseMultiInstances(b []byte, off, counters int) (n, next, end int, err error) {
	const rec = "PERF_MULTI_INSTANCES"
	if len(b)-off < MultiInstancesSize {
		return 0, 0, 0, fail(rec, -1, off, "", "needs 8 bytes, "+strconv.Itoa(len(b)-off)+" left in the block", engine.ErrTruncated)
	}
	size, cnt := le32(b, off), le32(b, off+4)
	// The smallest row: an instance header and its values.
	minRow := uint64(InstanceHeaderSize) + 16*uint64(counters)
	switch {
	case size < MultiInstancesSize:
		return 0, 0, 0, fail(rec, -1, off, "dwTotalSize", u(size)+" below 8", engine.ErrMalformed)
	case size%8 != 0:
		return 0, 0, 0, fail(rec, -1, off, "dwTotalSize", u(size)+" not a multiple of 8 (misaligned)", engine.ErrMalformed)
	case uint64(size) > uint64(len(b)-off):
		return 0, 0, 0, fail(rec, -1, off, "dwTotalSize", u(size)+" exceeds the "+strconv.Itoa(len(b)-off)+" bytes left in the block", engine.ErrMalformed)
	case uint64(cnt) > uint64(size-MultiInstancesSize)/minRow:
		return 0, 0, 0, fail(rec, -1, off+4, "dwInstances", u(cnt)+" instances cannot fit in dwTotalSize "+u(size), engine.ErrMalformed)
	}
	return int(cnt), off + MultiInstancesSize, off + int(size), nil
}

// checkRows checks n rows of counters values each from off (within b).
func checkRows(b []byte, off, n, counters int, inst bool) error {
	for i := range n {
		if inst {
			size, err := checkInstanceHeader(b, off, i, "PERF_MULTI_INSTANCES")
			if err != nil {
				return err
			}
			off += size
		}
		for j := range counters {
			size, err := checkCounterData(b, off, j)
			if err != nil {
				return err
			}
			off += size
		}
	}
	return nil
}

// checkCounterData checks the PERF_COUNTER_DATA at off (within b) and
// returns its dwSize.
func checkCounterData(b []byte, off, idx int) (int, error) {
	const rec = "PERF_COUNTER_DATA"
	if len(b)-off < CounterDataSize {
		return 0, fail(rec, idx, off, "", "needs 8 bytes, "+strconv.Itoa(len(b)-off)+" left", engine.ErrTruncated)
	}
	ds, size := le32(b, off), le32(b, off+4)
	switch {
	case size < 16:
		return 0, fail(rec, idx, off, "dwSize", u(size)+" below 16", engine.ErrMalformed)
	case size%8 != 0:
		return 0, fail(rec, idx, off, "dwSize", u(size)+" not a multiple of 8 (misaligned)", engine.ErrMalformed)
	case uint64(size) > uint64(len(b)-off):
		return 0, fail(rec, idx, off, "dwSize", u(size)+" exceeds the "+strconv.Itoa(len(b)-off)+" bytes left", engine.ErrMalformed)
	case ds > size-CounterDataSize:
		return 0, fail(rec, idx, off, "dwDataSize", u(ds)+" exceeds dwSize "+u(size)+" minus 8", engine.ErrMalformed)
	}
	return int(size), nil
}
