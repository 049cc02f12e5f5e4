package collect

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// The fuzz targets of the collector's own decoders (unexported, hence
// here rather than in fuzz/, whose targets drive the collector through its
// exported sources). make fuzz runs them; plain go test runs their seeds.

// encodeRawItems lays items out as PdhGetRawCounterArrayW fills its buffer
// at address base: the PDH_RAW_COUNTER_ITEM_Ws, then their names, UTF-16
// with a NUL each, szName pointing to them (null for an empty name).
func encodeRawItems(items []PDHItem, base uint64, ptrSize int) []byte {
	le := binary.LittleEndian
	b := make([]byte, len(items)*rawItemSize)
	for i, it := range items {
		off := i * rawItemSize
		if it.Instance != "" {
			putPtr(b[off:], base+uint64(len(b)), ptrSize)
			b = appendUTF16z(b, it.Instance)
		}
		r := b[off+rawItemValue:]
		le.PutUint32(r[rawCStatus:], it.Raw.CStatus)
		le.PutUint64(r[rawTimeStamp:], uint64(it.Raw.TimeStamp))
		le.PutUint64(r[rawFirstValue:], it.Raw.FirstValue)
		le.PutUint64(r[rawSecondValue:], it.Raw.SecondValue)
		le.PutUint32(r[rawMultiCount:], it.Raw.MultiCount)
	}
	return b
}

func putPtr(b []byte, p uint64, ptrSize int) {
	if ptrSize == 4 {
		binary.LittleEndian.PutUint32(b, uint32(p))
	} else {
		binary.LittleEndian.PutUint64(b, p)
	}
}

func appendUTF16z(b []byte, s string) []byte {
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return append(b, 0, 0)
}

// txLog opens ../shared/corpus/blg/Tx_BasicPerfCounters.blg, a PDH log of
// raw values of a real machine, or returns nil where it is absent.
func txLog(tb testing.TB) *relog.Converter {
	root := corpus.Root()
	if root == "" {
		return nil
	}
	log, err := os.ReadFile(filepath.Join(filepath.Dir(root), "shared", "corpus", "blg", "Tx_BasicPerfCounters.blg"))
	if err != nil {
		return nil
	}
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// txRawItems returns PDH raw counter arrays of a real machine: for the
// first samples of the Tx log, each counter's instances with their raw
// values, as PdhGetRawCounterArrayW returned them when the log was
// written. None where the corpus is absent.
func txRawItems(tb testing.TB) [][]PDHItem {
	c := txLog(tb)
	if c == nil {
		return nil
	}
	var out [][]PDHItem
	for n := 0; n < 3 && c.Next(); n++ {
		byCounter := map[string][]PDHItem{}
		var order []string
		for i, col := range c.Columns() {
			cell := &c.Row().Cells[i]
			p, err := counterpath.Parse(col.Path)
			if err != nil || !cell.Present {
				continue
			}
			name := p.Instance
			if p.Parent != "" {
				name = p.Parent + "/" + name
			}
			key := p.Object + `\` + p.Counter
			if _, ok := byCounter[key]; !ok {
				order = append(order, key)
			}
			byCounter[key] = append(byCounter[key], PDHItem{Instance: name, Raw: cell.Raw})
		}
		for _, k := range order {
			out = append(out, byCounter[k])
		}
	}
	return out
}

// txCounters returns the counters of the Tx log as PdhGetCounterInfoW
// described them: full path, type, default scale.
func txCounters(tb testing.TB) []PDHCounter {
	c := txLog(tb)
	if c == nil {
		return nil
	}
	var out []PDHCounter
	for i, col := range c.Columns() {
		out = append(out, PDHCounter{FullPath: col.Path, Type: col.Type, DefaultScale: int32(i%3) - 1})
	}
	return out
}

// checkBufferError checks an error of a pdhbuf.go decoder: a
// *pdhBufferError naming the function, the structure, its offset inside
// the buffer and the field.
func checkBufferError(t *testing.T, err error, fn string, size int) {
	t.Helper()
	var be *pdhBufferError
	if !errors.As(err, &be) || !errors.Is(err, errPDHBuffer) {
		t.Fatalf("error %v (%T) is not a *pdhBufferError", err, err)
	}
	if be.Func != fn || be.Record == "" || be.Field == "" || be.Offset < 0 || be.Offset > size ||
		!strings.HasPrefix(err.Error(), "collect: "+fn+" ") {
		t.Fatalf("error %q does not name the function, the structure, its offset and the field", err)
	}
}

// FuzzPDHRawArray decodes any bytes as the buffer PdhGetRawCounterArrayW
// filled: no panic; an error names the item, its offset and the field; a
// decoded array, laid out again, decodes to the same items (names are
// UTF-8), with 4- and 8-byte pointers.
func FuzzPDHRawArray(f *testing.F) {
	const base = 0x7ff0_0000_1000
	for _, items := range txRawItems(f) {
		f.Add(encodeRawItems(items, base, 8), uint64(base), uint32(len(items)), true)
		f.Add(encodeRawItems(items, base, 4), uint64(base), uint32(len(items)), false)
	}
	f.Add(encodeRawItems([]PDHItem{{Instance: "_Total", Raw: engine.RawCounter{FirstValue: 1, SecondValue: 2}}, {}}, base, 8), uint64(base), uint32(2), true)
	f.Add([]byte{}, uint64(0), uint32(1), true)
	f.Fuzz(func(t *testing.T, b []byte, base uint64, count uint32, ptr64 bool) {
		ptrSize := 4
		if ptr64 {
			ptrSize = 8
		}
		items, err := decodeRawItems(nil, &pdhBuffer{b: b, base: base, ptrSize: ptrSize}, count)
		if err != nil {
			checkBufferError(t, err, "PdhGetRawCounterArrayW", len(b))
			return
		}
		if len(items) != int(count) {
			t.Fatalf("%d items for ItemCount %d", len(items), count)
		}
		for _, it := range items {
			if !utf8.ValidString(it.Instance) {
				t.Fatalf("name %q is not UTF-8", it.Instance)
			}
		}
		again := encodeRawItems(items, base, ptrSize)
		have, err := decodeRawItems(nil, &pdhBuffer{b: again, base: base, ptrSize: ptrSize}, count)
		if err != nil || !reflect.DeepEqual(have, items) {
			t.Fatalf("round trip: %v\nhave %+v\nwant %+v", err, have, items)
		}
	})
}

// encodeCounterInfo lays out a PDH_COUNTER_INFO_W at address base with
// its full path after it, as PdhGetCounterInfoW fills its buffer.
func encodeCounterInfo(c PDHCounter, base uint64, ptrSize int) []byte {
	le := binary.LittleEndian
	fixed := infoUserData + 9*ptrSize + 8 // the pointers, dwInstanceIndex, DataBuffer
	b := make([]byte, fixed)
	le.PutUint32(b[0:], uint32(fixed))
	le.PutUint32(b[infoType:], uint32(c.Type))
	le.PutUint32(b[infoDefaultScale:], uint32(c.DefaultScale))
	if c.FullPath != "" {
		putPtr(b[infoUserData+2*ptrSize:], base+uint64(len(b)), ptrSize)
		b = appendUTF16z(b, c.FullPath)
	}
	return b
}

// FuzzPDHCounterInfo decodes any bytes as a PDH_COUNTER_INFO_W buffer: no
// panic; an error names the structure and the field; a decoded counter,
// laid out again, decodes to the same.
func FuzzPDHCounterInfo(f *testing.F) {
	const base = 0x1_0000
	for _, c := range append(txCounters(f), []PDHCounter{
		{FullPath: `\\GEORGIS3\Processor(*)\% Processor Time`, Type: engine.Timer100nsInv},
		{FullPath: `\\GEORGIS3\PhysicalDisk(0 C:)\Avg. Disk sec/Transfer`, Type: engine.AverageTimer, DefaultScale: 3},
		{Type: engine.CounterRawcount, DefaultScale: -1},
	}...) {
		f.Add(encodeCounterInfo(c, base, 8), uint64(base), true)
		f.Add(encodeCounterInfo(c, base, 4), uint64(base), false)
	}
	f.Fuzz(func(t *testing.T, b []byte, base uint64, ptr64 bool) {
		ptrSize := 4
		if ptr64 {
			ptrSize = 8
		}
		c, err := decodeCounterInfo(&pdhBuffer{b: b, base: base, ptrSize: ptrSize})
		if err != nil {
			checkBufferError(t, err, "PdhGetCounterInfoW", len(b))
			return
		}
		if !utf8.ValidString(c.FullPath) {
			t.Fatalf("path %q is not UTF-8", c.FullPath)
		}
		have, err := decodeCounterInfo(&pdhBuffer{b: encodeCounterInfo(c, base, ptrSize), base: base, ptrSize: ptrSize})
		if err != nil || have != c {
			t.Fatalf("round trip: %v\nhave %+v\nwant %+v", err, have, c)
		}
	})
}

// FuzzPDHPathText fuzzes the text the PDH source reads: the paths of
// PdhExpandWildCardPathW's list (split, then split again after being laid
// out anew: the same paths, UTF-8, none empty) and the reading of a path's
// instance wildcard (an array of items or one value), the same for the
// path printed again by counterpath.
func FuzzPDHPathText(f *testing.F) {
	for _, s := range []string{`\Processor(*)\% Processor Time`, `\\HOST\Process(svchost#*)\ID Process`,
		`\Thread(notepad/*)\Context Switches/sec`, `\Network Interface(Intel(R) PRO_1000)\Bytes Total/sec`,
		`\Memory\Available Bytes`, `\Process(a)\*`, `\LogicalDisk(C:)\% Free Space`, `\\m(*)\Obj\C`, `\Obj(a)\C (x*)`} {
		f.Add(s, appendUTF16z(appendUTF16z(nil, s), `\Processor(_Total)\% Idle Time`))
	}
	for _, items := range txRawItems(f) {
		var list []byte
		for _, it := range items {
			list = appendUTF16z(list, `\Processor(`+it.Instance+`)\% Processor Time`)
		}
		f.Add(`\PhysicalDisk(*)\Avg. Disk sec/Transfer`, append(list, 0, 0))
	}
	f.Fuzz(func(t *testing.T, path string, list []byte) {
		if p, err := counterpath.Parse(path); err == nil {
			if have, want := hasInstanceWildcard(p.String()), hasInstanceWildcard(path); have != want {
				t.Fatalf("%q: instance wildcard %v, but %v for the path printed again, %q", path, want, have, p.String())
			}
		} else if hasInstanceWildcard(path) {
			t.Fatalf("%q: counterpath refuses it, but it has an instance wildcard", path)
		}
		u := make([]uint16, len(list)/2)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(list[2*i:])
		}
		paths := splitMultiSZ(u)
		var again []uint16
		for _, p := range paths {
			if p == "" || strings.ContainsRune(p, 0) || !utf8.ValidString(p) {
				t.Fatalf("path %q: empty, with a NUL, or not UTF-8", p)
			}
			again = append(append(again, utf16.Encode([]rune(p))...), 0)
		}
		if have := splitMultiSZ(append(again, 0)); !reflect.DeepEqual(have, paths) && len(paths) > 0 {
			t.Fatalf("round trip: have %q, want %q", have, paths)
		}
	})
}

// FuzzSubBlob cuts every object out of any bytes read as a registry blob,
// as the registry source does before computing it: each cut is a
// PERF_DATA_BLOCK that perfdata reads, holding the object (the same
// bytes) and the objects its instances name as parents; its query runs
// without a panic.
func FuzzSubBlob(f *testing.F) {
	for _, blob := range v1Seeds(f) {
		f.Add(blob)
	}
	f.Fuzz(func(t *testing.T, blob []byte) {
		blk, err := perfdata.Parse(blob)
		if err != nil {
			return
		}
		b := &v1Backend{}
		cur := blk.Objects()
		for cur.Next() {
			b.objBuf = append(b.objBuf, *cur.Object())
		}
		var sub []byte
		for i := range b.objBuf {
			sub = b.subBlob(sub[:0], &blk, i)
			sb, err := perfdata.Parse(sub)
			if err != nil {
				t.Fatalf("object %d: the cut block does not parse: %v", i, err)
			}
			c := sb.Objects()
			found := 0
			for c.Next() {
				o := c.Object()
				if bytes.Equal(o.Bytes(), b.objBuf[i].Bytes()) {
					found++
				}
			}
			if err := c.Err(); err != nil {
				t.Fatalf("object %d: an object of the cut block does not parse: %v", i, err)
			}
			if found == 0 {
				t.Fatalf("object %d is not in its cut block", i)
			}
		}
	})
}

// v1Seeds returns registry blobs: the project's generated Global pair and,
// where ../shared/corpus/v1 is present, each real object's first two
// samples alone and merged into one block per sample (as a query of
// several objects returns them).
func v1Seeds(tb testing.TB) [][]byte {
	seeds, err := gencorpus.Seeds(gencorpus.KindV1)
	if err != nil {
		tb.Fatal(err)
	}
	root := corpus.Root()
	if root == "" {
		return seeds
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "shared", "corpus", "v1")); err != nil {
		return seeds
	}
	c := loadV1Corpus(tb)
	for _, s := range c.samples[:2] {
		var blobs [][]byte
		for _, t := range c.titles {
			seeds = append(seeds, s[t])
			blobs = append(blobs, s[t])
		}
		seeds = append(seeds, mergeBlobs(blobs))
	}
	return seeds
}
