package perflibv2

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/internal/heapsort"
)

// Index pairs every counter value of one PerfQueryCounterData result with
// the counterset's registration, as Fill does, after walking the result
// once. Reset builds it; Fill then takes O(log n) time per value, so
// filling every value of a result takes time linear in the result's size
// (times a logarithm), where calling the package's Fill for each value
// takes time proportional to the values times the size.
//
// An Index refers to the data, registration and ids given to Reset (it
// does not copy them) and is valid while they are and unchanged. Its
// storage (a few slices sized by the records the result actually holds:
// blocks, rows, values, and the helper counters the registration names) is
// kept from one Reset to the next: once it has grown to the largest result
// seen, Reset allocates nothing. Fill and Lookup never allocate. The zero
// Index is empty: Fill reports false for every value. An Index is not safe
// for concurrent Resets; concurrent Fills are fine.
type Index struct {
	data []byte
	ids  []uint32
	reg  *RegInfo
	h    DataHeader
	err  error // the header's or block len(blocks)'s error, or nil
	hdr  bool  // the header is malformed

	blocks []indexBlock
	rows   []indexRow  // the rows of every block, block by block
	vals   []uint32    // the offset of every PERF_COUNTER_DATA, row by row
	cpos   []uint32    // per block with ids: the first position of each id, by id
	help   []helpEntry // the values of helper counters
	hord   []uint32    // help by key, block and row, the first row of each key and block
	regs   []uint32    // the registration's counters: the first index of each id, by id
	hids   []uint32    // the ids the registration names as helpers, sorted
}

// indexBlock is a block of an Index: what Fill needs of its
// PERF_COUNTER_HEADER and where its records start, in 36 bytes.
type indexBlock struct {
	status     uint32   // dwStatus
	typ        DataType // dwType
	ids        uint32   // the offset of its id list in the data
	counters   uint32   // values per row
	rows       uint32   // rows
	row, val   uint32   // its first row in rows, its first value in vals
	cpos, ncpo uint32   // its id positions: cpos[cpos : cpos+ncpo]
}

// hasIDs reports whether the block lists its counters' ids.
func (b *indexBlock) hasIDs() bool { return b.typ == MultipleCounters || b.typ == Counterset }

// indexRow is a row's instance: its id and name (an offset and a length
// into the data).
type indexRow struct {
	_       [0]func() // not comparable: no equality function in the WebAssembly module
	id      uint32
	nameOff uint32
	nameLen uint32
	inst    bool
}

// helpEntry records that counter id has a value for an instance key
// (inst, instID, name) at row of block, position pos.
type helpEntry struct {
	_                [0]func() // not comparable: no equality function in the WebAssembly module
	id               uint32
	instID           uint32
	nameOff, nameLen uint32
	block, row, pos  uint32
	inst             bool
}

// Reset builds the index of a PerfQueryCounterData result (data) for the
// counterset's registration (reg; nil is an empty registration) and the
// consumer's counter ids by block position (ids, as Selector.IDs). It
// checks data's blocks as Parser does and returns the first
// *engine.FormatError; the blocks before a malformed one stay indexed, as
// Fill reads them. Then it records each block's ids, rows and values, and
// sorts the values of the counters that reg names as helpers (base, time,
// frequency, multi count) by instance. The work is O(n log n) in the size
// of data and reg. The storage is sized from the blocks once they are
// checked: at most about 3 bytes per byte of data (for results of nothing
// but the smallest blocks or rows), about 1 for real results.
func (x *Index) Reset(data []byte, reg *RegInfo, ids []uint32) error {
	*x = Index{
		blocks: x.blocks[:0], rows: x.rows[:0], vals: x.vals[:0], cpos: x.cpos[:0],
		help: x.help[:0], hord: x.hord[:0], regs: x.regs[:0], hids: x.hids[:0],
		data: data, reg: reg, ids: ids,
	}
	x.indexReg()
	var p Parser
	h, err := p.Start(data)
	if err != nil {
		x.err, x.hdr = err, true
		return err
	}
	x.h = h
	// Check the blocks first, then size the storage from what they hold,
	// then walk them again to record it.
	p0 := p
	nblocks, nrows, nvals, nids := 0, 0, 0, 0
	for p.Next() {
		blk := p.Block()
		nblocks++
		nrows += blk.NumRows()
		nvals += blk.NumRows() * blk.NumCounters()
		nids += len(blk.ids) / 4
	}
	x.err = p.Err()
	x.blocks = slices.Grow(x.blocks, nblocks)
	x.rows = slices.Grow(x.rows, nrows)
	x.vals = slices.Grow(x.vals, nvals)
	x.cpos = slices.Grow(x.cpos, nids)
	for range nblocks {
		p0.Next() // checked above
		x.addBlock(p0.Block())
	}
	x.indexHelpers()
	return x.err
}

// indexReg sorts the registration's counters by id and collects the helper
// ids they name.
func (x *Index) indexReg() {
	if x.reg == nil {
		return
	}
	x.regs = slices.Grow(x.regs, x.reg.Len())
	x.hids = slices.Grow(x.hids, 4*x.reg.Len())
	for i := range x.reg.Len() {
		c := x.reg.Counter(i)
		x.regs = append(x.regs, uint32(i))
		for _, id := range [4]uint32{c.BaseCounterID, c.PerfTimeID, c.PerfFreqID, c.MultiID} {
			if id != NoCounter {
				x.hids = append(x.hids, id)
			}
		}
	}
	x.regs = sortFirst(x.regs, x.regID)
	sortUint32s(x.hids, cmp.Compare[uint32])
	x.hids = compactUint32s(x.hids, func(a, b uint32) bool { return a == b })
}

// regID returns the CounterId of the registration's i-th counter.
func (x *Index) regID(i uint32) uint32 { return le32(x.reg.counters, CounterRegInfoSize*int(i)) }

// sortFirst sorts the positions s by id(position) and position, and keeps
// the first position of each id. (All the Index's sorts sort []uint32 with
// a comparison function, with sortUint32s.)
func sortFirst(s []uint32, id func(uint32) uint32) []uint32 {
	sortUint32s(s, func(a, b uint32) int {
		if c := cmp.Compare(id(a), id(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return compactUint32s(s, func(a, b uint32) bool { return id(a) == id(b) })
}

// sortUint32s sorts s by cmp with the engine's one heapsort (a sort from
// package slices would add its own copy to the WebAssembly module).
func sortUint32s(s []uint32, cmp func(a, b uint32) int) {
	heapsort.Sort(len(s), func(i, j int) bool { return cmp(s[i], s[j]) < 0 }, func(i, j int) { s[i], s[j] = s[j], s[i] })
}

// compactUint32s keeps the first of each run of elements of s that same
// finds equal, as slices.CompactFunc does (without another generic
// instantiation in the WebAssembly module), and zeroes the tail.
func compactUint32s(s []uint32, same func(a, b uint32) bool) []uint32 {
	if len(s) < 2 {
		return s
	}
	w := 1
	for i := 1; i < len(s); i++ {
		if !same(s[w-1], s[i]) {
			s[w] = s[i]
			w++
		}
	}
	clear(s[w:])
	return s[:w]
}

// findID returns the position p in s (sorted by sortFirst) whose id,
// le32(ids, stride·p), is want, or −1.
func findID(s []uint32, ids []byte, stride int, want uint32) int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if le32(ids, stride*int(s[m])) < want {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s) && le32(ids, stride*int(s[lo])) == want {
		return int(s[lo])
	}
	return -1
}

// blockIDs returns b's id list (empty for blocks without one).
func (x *Index) blockIDs(b *indexBlock) []byte {
	if !b.hasIDs() {
		return nil
	}
	return x.data[b.ids : b.ids+4*b.counters]
}

// counterPos returns the first position of id in b's id list, or −1.
func (x *Index) counterPos(b *indexBlock, id uint32) int {
	return findID(x.cpos[b.cpos:b.cpos+b.ncpo], x.blockIDs(b), 4, id)
}

// addBlock records the ids, rows and values of a checked block.
func (x *Index) addBlock(blk *Block) {
	b := indexBlock{status: blk.Status, typ: blk.Type, counters: uint32(blk.counters), rows: uint32(blk.rows),
		row: uint32(len(x.rows)), val: uint32(len(x.vals)), cpos: uint32(len(x.cpos))}
	if blk.HasCounterIDs() {
		// The ids follow the PERF_COUNTER_HEADER and PERF_MULTI_COUNTERS.
		b.ids = uint32(blk.Offset + CounterHeaderSize + MultiCountersSize)
	}
	for i := range len(blk.ids) / 4 {
		x.cpos = append(x.cpos, uint32(i))
	}
	ids := blk.ids
	s := sortFirst(x.cpos[b.cpos:], func(pos uint32) uint32 { return le32(ids, 4*int(pos)) })
	x.cpos = x.cpos[:int(b.cpos)+len(s)]
	b.ncpo = uint32(len(s))
	x.blocks = append(x.blocks, b)
	rs := blk.Rows()
	for rs.Next() {
		r := rs.Row()
		ir := indexRow{id: r.InstanceID, inst: r.HasInstance}
		if r.HasInstance {
			ir.nameOff, ir.nameLen = uint32(r.Offset+InstanceHeaderSize), uint32(len(r.Name))
		}
		x.rows = append(x.rows, ir)
		vs := r.Values()
		for vs.Next() {
			x.vals = append(x.vals, uint32(vs.Value().Offset))
		}
	}
}

// indexHelpers records, for every value of a helper counter, its instance
// key, then sorts them by key and keeps the first row of each block.
func (x *Index) indexHelpers() {
	n := 0
	x.eachHelper(func(_ int, b *indexBlock, _, _ uint32) { n += int(b.rows) })
	x.help = slices.Grow(x.help, n)
	x.hord = slices.Grow(x.hord, n)
	x.eachHelper(x.addHelper)
	sortUint32s(x.hord, x.compareHelp)
	x.hord = compactUint32s(x.hord, func(i, j uint32) bool {
		a, b := &x.help[i], &x.help[j]
		return a.block == b.block && x.compareKey(a, b) == 0
	})
}

// eachHelper calls f for each block (but error returns) and helper
// counter id in it, with the id's position.
func (x *Index) eachHelper(f func(bi int, b *indexBlock, id, pos uint32)) {
	for bi := range x.blocks {
		b := &x.blocks[bi]
		if b.typ == ErrorReturn {
			continue
		}
		if b.hasIDs() {
			ids := x.blockIDs(b)
			for _, pos := range x.cpos[b.cpos : b.cpos+b.ncpo] {
				id := le32(ids, 4*int(pos))
				if _, ok := slices.BinarySearch(x.hids, id); ok {
					f(bi, b, id, pos)
				}
			}
		} else if bi < len(x.ids) {
			if _, ok := slices.BinarySearch(x.hids, x.ids[bi]); ok {
				f(bi, b, x.ids[bi], 0)
			}
		}
	}
}

// addHelper records the values of counter id at position pos of b's rows.
func (x *Index) addHelper(bi int, b *indexBlock, id, pos uint32) {
	for r := range b.rows {
		ir := &x.rows[b.row+r]
		x.hord = append(x.hord, uint32(len(x.help)))
		x.help = append(x.help, helpEntry{id: id, instID: ir.id, nameOff: ir.nameOff, nameLen: ir.nameLen,
			block: uint32(bi), row: r, pos: pos, inst: ir.inst})
	}
}

// compareKey orders helper entries by instance kind, counter id,
// instance id and name.
func (x *Index) compareKey(a, b *helpEntry) int {
	if a.inst != b.inst {
		if !a.inst {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(a.id, b.id); c != 0 {
		return c
	}
	if c := cmp.Compare(a.instID, b.instID); c != 0 {
		return c
	}
	return bytes.Compare(x.data[a.nameOff:a.nameOff+a.nameLen], x.data[b.nameOff:b.nameOff+b.nameLen])
}

// compareHelp orders helper entries (indexes into help) by key, block and
// row.
func (x *Index) compareHelp(i, j uint32) int {
	a, b := &x.help[i], &x.help[j]
	if c := x.compareKey(a, b); c != 0 {
		return c
	}
	if c := cmp.Compare(a.block, b.block); c != 0 {
		return c
	}
	return cmp.Compare(a.row, b.row)
}

// Lookup returns the registration's first counter whose CounterId is id,
// as RegInfo.Lookup does, in O(log n) time.
func (x *Index) Lookup(id uint32) (CounterRegInfo, bool) {
	if x.reg == nil {
		return CounterRegInfo{}, false
	}
	i := findID(x.regs, x.reg.counters, CounterRegInfoSize, id)
	if i < 0 {
		return CounterRegInfo{}, false
	}
	return x.reg.Counter(i), true
}

// Fill is the package's Fill for the value of counter counterID in row
// row of block block of the indexed result, with the ids given to Reset:
// it sets the same in.Counter and in.New and reports the same found and
// error (for a malformed result, the error of the first malformed block
// when the selected block is that one or a later one). It takes O(log n)
// time and allocates nothing.
func (x *Index) Fill(in *engine.Input, block, row int, counterID uint32) (bool, error) {
	if x.hdr || block < 0 || block >= len(x.blocks) {
		return false, x.err
	}
	b := &x.blocks[block]
	ci, ok := x.Lookup(counterID)
	if !ok {
		return false, nil
	}
	if !b.hasIDs() && block < len(x.ids) && x.ids[block] != counterID {
		return false, nil // the block holds another counter
	}
	bad := b.status != 0 || b.typ == ErrorReturn
	var first uint64
	if b.typ != ErrorReturn {
		if row < 0 || row >= int(b.rows) {
			return false, nil
		}
		pos := 0
		if b.hasIDs() {
			pos = x.counterPos(b, counterID)
		}
		if pos < 0 {
			return false, nil
		}
		var okv bool
		first, okv = x.value(b, row, pos)
		bad = bad || !okv
	}
	pair(in, &x.h, &ci, bad, first, func(id uint32) (uint64, bool) { return x.helper(block, b, row, id) })
	return true, nil
}

// value returns the value at position pos of row of b.
func (x *Index) value(b *indexBlock, row, pos int) (uint64, bool) {
	off := int(x.vals[int(b.val)+row*int(b.counters)+pos])
	ds := int(le32(x.data, off))
	return Value{Data: x.data[off+CounterDataSize : off+CounterDataSize+ds]}.Uint64()
}

// helper is the package's helper for row of b, block bi: the value of counter id in
// the same row, or in the first other block that has it for the row's
// instance.
func (x *Index) helper(bi int, b *indexBlock, row int, id uint32) (uint64, bool) {
	if id == NoCounter {
		return 0, false
	}
	if b.hasIDs() && b.status == 0 {
		if pos := x.counterPos(b, id); pos >= 0 {
			return x.value(b, row, pos)
		}
	}
	ir := &x.rows[int(b.row)+row]
	key := helpEntry{id: id, instID: ir.id, nameOff: ir.nameOff, nameLen: ir.nameLen, inst: ir.inst}
	i, _ := slices.BinarySearchFunc(x.hord, &key, func(e uint32, k *helpEntry) int { return x.compareKey(&x.help[e], k) })
	for ; i < len(x.hord) && x.compareKey(&x.help[x.hord[i]], &key) == 0; i++ {
		e := &x.help[x.hord[i]]
		if int(e.block) == bi {
			continue // at most one entry per block
		}
		hb := &x.blocks[e.block]
		if hb.status != 0 {
			return 0, false
		}
		return x.value(hb, int(e.row), int(e.pos))
	}
	return 0, false
}
