package nametable

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/internal/fold"
	"github.com/perfcalc/perfcalc/engine/internal/heapsort"
	"github.com/perfcalc/perfcalc/engine/internal/text"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// record is the Windows name of the structure in FormatErrors.
const record = "REG_MULTI_SZ"

// entry is one pair of the table: its index and where its text lies in the
// input. It costs 12 bytes per pair actually present.
type entry struct {
	index uint32
	off   uint32 // byte offset of the text in the input
	n     uint32 // byte length of the text, without its NUL
}

// Table is a parsed name table: the pairs of a "Counter <lang>" or
// "Help <lang>" REG_MULTI_SZ value, indexed for lookups by index and by name.
// It aliases the bytes given to Parse and is valid while they are. A Table
// is immutable and safe for concurrent use.
type Table struct {
	data  []byte
	pairs int     // pairs read, repeated indexes included
	byIdx []entry // one entry per distinct index, sorted by index

	// byName holds positions in byIdx sorted by folded name, then index,
	// sorted on the first LookupName: sorting names is most of Parse's
	// work, and most readers only look indexes up (relog of a Vista-era
	// log spent a third of its time there).
	byName atomic.Pointer[[]uint32]
}

// IsTable reports whether data begins as a name table does: with an index,
// a decimal digit in UTF-16LE ("1\x00" of "1 1847 …"). It is how perfcalc
// tells a name table from a capture or a log by its first bytes; Parse
// checks the rest.
func IsTable(data []byte) bool {
	return len(data) >= 4 && data[0] >= '0' && data[0] <= '9' && data[1] == 0
}

// Parse reads a name table: UTF-16LE strings "index\0text\0…\0\0", as
// doc/FORMATS.md §3.1 describes. It allocates the index once (12 bytes per
// distinct index, sized by the pairs actually present, and 4 per name on
// the first LookupName); lookups then allocate nothing.
//
// Parse accepts an empty input (an empty table) and, as a tolerance, a
// table whose final extra NUL is missing (the data ends right after the
// last text's NUL). After the final NUL only zero bytes may follow. When an
// index appears more than once, the last pair wins: Lookup, Pair and
// LookupName see only the last text given for that index, as a loader that
// fills an array by index would. Names need not be unique.
//
// Malformed input (an odd length, a string without its NUL, an index that
// is not a decimal number or exceeds 32 bits, an index without a text,
// non-zero bytes after the final NUL) is reported as an *engine.FormatError
// with Format "nametable" and the byte offset of the string at fault.
func Parse(b []byte) (*Table, error) {
	n, err := scan(b, nil)
	if err != nil {
		return nil, err
	}
	es := make([]entry, 0, n)
	scan(b, &es)
	t := &Table{data: b, pairs: n}
	// The input is usually sorted already. Sorting by index and offset
	// keeps the data order of repeated indexes (scan appends in data
	// order), so that the last one can win.
	if !slices.IsSortedFunc(es, cmpIndex) {
		heapsort.Sort(len(es), func(i, j int) bool {
			if es[i].index != es[j].index {
				return es[i].index < es[j].index
			}
			return es[i].off < es[j].off
		}, func(i, j int) { es[i], es[j] = es[j], es[i] })
	}
	// Keep the last of each run of equal indexes.
	w := 0
	for i := range es {
		if i+1 < len(es) && es[i+1].index == es[i].index {
			continue
		}
		es[w] = es[i]
		w++
	}
	t.byIdx = es[:w:w]
	return t, nil
}

// names returns the positions in byIdx sorted by folded name, then index,
// sorting them on the first call.
func (t *Table) names() []uint32 {
	if p := t.byName.Load(); p != nil {
		return *p
	}
	byName := make([]uint32, len(t.byIdx))
	for i := range byName {
		byName[i] = uint32(i)
	}
	// Sort by folded name, each name folded once (into UTF-8, whose byte
	// order is the folded runes' order, which LookupName's binary search
	// compares): folding in every comparison took 97% of the time of a
	// 10^6-pair table.
	keys, ends := t.foldedKeys()
	key := func(pos uint32) []byte {
		start := uint32(0)
		if pos > 0 {
			start = ends[pos-1]
		}
		return keys[start:ends[pos]]
	}
	heapsort.Sort(len(byName), func(i, j int) bool {
		x, y := byName[i], byName[j]
		if c := bytes.Compare(key(x), key(y)); c != 0 {
			return c < 0
		}
		return t.byIdx[x].index < t.byIdx[y].index
	}, func(i, j int) { byName[i], byName[j] = byName[j], byName[i] })
	// Goroutines that ask at once may each sort; the first to store wins,
	// and all the sorts are the same.
	t.byName.CompareAndSwap(nil, &byName)
	return *t.byName.Load()
}

// foldedKeys returns every name of byIdx folded and encoded in UTF-8, one
// after the other, and where each ends. It allocates once for each: at
// most 1.5 times the names' bytes (3 UTF-8 bytes per UTF-16 code unit) and
// 4 bytes per name.
func (t *Table) foldedKeys() ([]byte, []uint32) {
	n := 0
	for i := range t.byIdx {
		n += int(t.byIdx[i].n)
	}
	keys := make([]byte, 0, n+n/2)
	ends := make([]uint32, len(t.byIdx))
	var name []byte
	for i := range t.byIdx {
		name = t.text(uint32(i)).AppendUTF8(name[:0])
		keys = fold.Append(keys, string(name))
		ends[i] = uint32(len(keys))
	}
	return keys, ends
}

func cmpIndex(a, b entry) int { return cmpUint32(a.index, b.index) }

func cmpUint32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// scan validates b and returns the number of pairs; when es is not nil it
// also appends every pair to *es. Its work is linear in len(b).
func scan(b []byte, es *[]entry) (int, error) {
	if len(b)%2 != 0 {
		return 0, fail(-1, int64(len(b)-1), "", "odd length "+strconv.Itoa(len(b)), engine.ErrMalformed)
	}
	if uint64(len(b)) > 0xFFFFFFFF {
		return 0, fail(-1, 0, "", "table larger than 4 GiB", engine.ErrUnsupported)
	}
	pairs := 0
	off := 0
	for off < len(b) {
		// The index string, or the empty string that ends the list.
		end := nul(b, off)
		if end < 0 {
			return 0, fail(pairs, int64(off), "index", "without its NUL", engine.ErrTruncated)
		}
		if end == off {
			// The final extra NUL: only zero bytes may follow.
			for i := end + 2; i < len(b); i++ {
				if b[i] != 0 {
					return 0, fail(-1, int64(i), "", "non-zero byte after the final NUL", engine.ErrMalformed)
				}
			}
			return pairs, nil
		}
		idx, ok, overflow := parseIndex(b[off:end])
		if !ok {
			d := "not a decimal number"
			if overflow {
				d = "overflows 32 bits"
			}
			return 0, fail(pairs, int64(off), "index", d, engine.ErrMalformed)
		}
		toff := end + 2
		if toff >= len(b) {
			return 0, fail(pairs, int64(toff), "text", "missing", engine.ErrTruncated)
		}
		tend := nul(b, toff)
		if tend < 0 {
			return 0, fail(pairs, int64(toff), "text", "without its NUL", engine.ErrTruncated)
		}
		if tend == toff {
			return 0, fail(pairs, int64(toff), "text", "empty: index "+strconv.FormatUint(uint64(idx), 10)+" has no text", engine.ErrMalformed)
		}
		if es != nil {
			*es = append(*es, entry{index: idx, off: uint32(toff), n: uint32(tend - toff)})
		}
		pairs++
		off = tend + 2
	}
	// The data ends right after a text's NUL: the final extra NUL is
	// missing, which Parse tolerates.
	return pairs, nil
}

// nul returns the byte offset of the first NUL code unit at or after off
// (off even), or −1.
func nul(b []byte, off int) int {
	for i := off; i+1 < len(b); i += 2 {
		if b[i] == 0 && b[i+1] == 0 {
			return i
		}
	}
	return -1
}

// parseIndex reads a decimal UTF-16LE number of at most 32 bits.
func parseIndex(s []byte) (v uint32, ok, overflow bool) {
	var x uint64
	for i := 0; i+1 < len(s); i += 2 {
		u := binary.LittleEndian.Uint16(s[i:])
		if u < '0' || u > '9' {
			return 0, false, false
		}
		x = x*10 + uint64(u-'0')
		if x > 0xFFFFFFFF {
			return 0, false, true
		}
	}
	return uint32(x), true, false
}

//go:noinline
func fail(pair int, off int64, field, detail string, err error) error {
	return &engine.FormatError{Format: "nametable", Record: record, Index: pair, Offset: off, Field: field, Detail: detail, Err: err}
}

func (t *Table) text(pos uint32) wintype.Text {
	e := t.byIdx[pos]
	return wintype.Text(t.data[e.off : e.off+e.n : e.off+e.n])
}

// Pairs returns the number of index/text pairs read, repeated indexes
// included.
func (t *Table) Pairs() int { return t.pairs }

// Len returns the number of distinct indexes.
func (t *Table) Len() int { return len(t.byIdx) }

// Pair returns the i-th pair in increasing index order, 0 ≤ i < Len.
func (t *Table) Pair(i int) (index uint32, text wintype.Text) {
	return t.byIdx[i].index, t.text(uint32(i))
}

// Lookup returns the text of an index. It allocates nothing and takes
// O(log Len) time.
func (t *Table) Lookup(index uint32) (wintype.Text, bool) {
	lo, hi := 0, len(t.byIdx)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.byIdx[m].index < index {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t.byIdx) && t.byIdx[lo].index == index {
		return t.text(uint32(lo)), true
	}
	return nil, false
}

// Matches is the result of LookupName: the indexes whose text equals a
// name, in increasing order. It is a view of the Table.
type Matches struct {
	t      *Table
	lo, hi int
}

// Len returns the number of matching indexes.
func (m Matches) Len() int { return m.hi - m.lo }

// Index returns the i-th matching index, 0 ≤ i < Len, in increasing order.
func (m Matches) Index(i int) uint32 {
	if i < 0 || i >= m.hi-m.lo {
		panic("nametable: Matches.Index out of range")
	}
	return m.t.byIdx[m.t.names()[m.lo+i]].index
}

// Text returns the text of the i-th match (as stored, with its own case).
func (m Matches) Text(i int) wintype.Text {
	if i < 0 || i >= m.hi-m.lo {
		panic("nametable: Matches.Text out of range")
	}
	return m.t.text(m.t.names()[m.lo+i])
}

// AppendIndexes appends every matching index to dst.
func (m Matches) AppendIndexes(dst []uint32) []uint32 {
	byName := m.t.names()
	for i := m.lo; i < m.hi; i++ {
		dst = append(dst, m.t.byIdx[byName[i]].index)
	}
	return dst
}

// AppendName appends the name of an index as PDH writes it in a counter
// path: its text (UTF-8), or "#<index>" when the table lacks the index or
// t is nil (no table).
func (t *Table) AppendName(dst []byte, index uint32) []byte {
	if t != nil {
		if s, ok := t.Lookup(index); ok {
			return s.AppendUTF8(dst)
		}
	}
	return text.AppendIndexName(dst, index)
}

// LookupName returns every index whose text equals name case-insensitively
// (see the package documentation for the folding), in increasing index
// order. Names are not unique. It takes O(log Len · len(name)) time and
// allocates nothing, but for its first call on a Table, which sorts the
// names (O(Len log Len), 4 bytes per name).
func (t *Table) LookupName(name string) Matches {
	byName := t.names()
	cmp := func(pos uint32) int { return t.text(pos).CompareFold(name) }
	lo, hi := 0, len(byName)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmp(byName[m]) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	first := lo
	hi = len(byName)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmp(byName[m]) <= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return Matches{t: t, lo: first, hi: lo}
}
