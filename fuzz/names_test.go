package fuzz

import (
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"io"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/longform"
	"github.com/perfcalc/perfcalc/internal/openmetrics"
	"github.com/perfcalc/perfcalc/internal/parquetlog"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// collisionNames are the instance names FuzzNameCollisions draws from, as
// UTF-16 code units: names that differ only in case, unpaired surrogates
// (that U+FFFD alone would merge), U+FFFD itself, a valid pair, and names
// that sanitising merges.
var collisionNames = [][]uint16{
	{'S', 'v', 'c'}, {'s', 'v', 'c'}, {'S', 'V', 'C'},
	{'x', 0xD800}, {'x', 0xDC00}, {'x', 0xFFFD}, {'x', 0xD83D, 0xDE00}, {'x', 0xDBFF},
	{'a', ' ', 'b'}, {'a', '_', 'b'},
}

// collisionEntries are the counter-list entries it draws from: wildcard
// entries of objects and counters that differ only in case or collide
// once sanitised, and counters without instances.
var collisionEntries = []blgbuild.Counter{
	{Flags: 1, Machine: `\\H`, Object: "Svc", Instance: "*", Counter: "X Bytes"},
	{Flags: 1, Machine: `\\H`, Object: "svc", Instance: "*", Counter: "x bytes"},
	{Flags: 1, Machine: `\\H`, Object: "Svc", Instance: "*", Counter: "X-Bytes"},
	{Machine: `\\H`, Object: "Mem", Counter: "Free Bytes"},
	{Machine: `\\H`, Object: "mem", Counter: "free bytes"},
}

// collisionLog is a log drawn from the fuzzer's bytes: its entries (1 to 3
// of collisionEntries, repeats allowed), then 1 to 4 samples, each with a
// set of distinct instance names per wildcard entry in an order of its
// own, in 1 KiB buffers (a record of many names may be split across them).
// Every value is unique and names where it comes from: cells[v] is
// the entry and the instance name of value v. The samples start at second
// from.
type collisionLog struct {
	log     []byte
	entries []int
	cells   map[uint64]collisionCell
	samples int
}

type collisionCell struct {
	entry int      // index in the log's entries
	name  []uint16 // nil for an entry without instances
}

func (c collisionCell) key() string {
	return strconv.Itoa(c.entry) + ":" + string(utf16Bytes(c.name))
}

func utf16Bytes(units []uint16) []byte {
	b := make([]byte, 0, 2*len(units))
	for _, u := range units {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

// nextByte returns the next byte of data, 0 past its end.
func nextByte(data *[]byte) byte {
	if len(*data) == 0 {
		return 0
	}
	b := (*data)[0]
	*data = (*data)[1:]
	return b
}

const collisionLocal = 130057734178440000 // 02/19/2013 18:50:17.844, Pacific

func buildCollisionLog(data *[]byte, logIndex, from int) collisionLog {
	cl := collisionLog{cells: map[uint64]collisionCell{}}
	n := 1 + int(nextByte(data))%3
	var cs []blgbuild.Counter
	for range n {
		e := int(nextByte(data)) % len(collisionEntries)
		cl.entries = append(cl.entries, e)
		c := collisionEntries[e]
		c.Type = 0x00010100 // PERF_COUNTER_LARGE_RAWCOUNT: the value is FirstValue
		cs = append(cs, c)
	}
	l := blgbuild.New(1024, collisionLocal+8*3600*10_000_000)
	l.Record(blgbuild.EventCounterList, collisionLocal, blgbuild.AppendCounterList(nil, cs...), 8000)
	cl.samples = 1 + int(nextByte(data))%4
	for k := range cl.samples {
		ts := int64(collisionLocal + (from+k)*10_000_000)
		rec := []byte{'B', 'L', 3, 0, 0, 0, 0, 0}
		for ei, e := range cl.entries {
			base := uint64((((logIndex*8+k)*4+ei)*16)+1) * 1000
			if collisionEntries[e].Flags == 0 {
				v := base
				cl.cells[v] = collisionCell{entry: ei}
				sub := make([]byte, 48)
				copy(sub, []byte{'B', 'L', 3, 1})
				binary.LittleEndian.PutUint32(sub[4:], 48)
				binary.LittleEndian.PutUint64(sub[12:], uint64(ts))
				binary.LittleEndian.PutUint64(sub[24:], v)
				binary.LittleEndian.PutUint32(sub[40:], 1)
				rec = append(rec, sub...)
				continue
			}
			// A set of names (a bit mask over collisionNames) in an
			// order drawn by rotating and swapping.
			mask := uint16(nextByte(data)) | uint16(nextByte(data))<<8
			var picks []int
			for i := range collisionNames {
				if mask&(1<<i) != 0 {
					picks = append(picks, i)
				}
			}
			if len(picks) > 0 {
				rot := int(nextByte(data)) % len(picks)
				picks = append(picks[rot:], picks[:rot]...)
				if s := nextByte(data); len(picks) > 1 {
					i, j := int(s)%len(picks), int(s>>4)%len(picks)
					picks[i], picks[j] = picks[j], picks[i]
				}
			}
			names := make([][]uint16, len(picks))
			values := make([]uint64, len(picks))
			for i, p := range picks {
				names[i], values[i] = collisionNames[p], base+uint64(p)
				cl.cells[values[i]] = collisionCell{entry: ei, name: collisionNames[p]}
			}
			rec = append(rec, blgbuild.MultiSubRecord(ts, names, values)...)
		}
		binary.LittleEndian.PutUint32(rec[4:], uint32(len(rec)))
		l.Record(blgbuild.EventSample, ts, rec, 8000)
	}
	cl.log = l.Bytes()
	return cl
}

// nameText is the text perfcalc gives an instance name: UTF-8, an unpaired
// surrogate and U+FFFD as U+FFFD and four lower-case hex digits.
func nameText(units []uint16) string {
	var b strings.Builder
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch {
		case u >= 0xD800 && u < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] < 0xE000:
			b.WriteRune(utf16.DecodeRune(rune(u), rune(units[i+1])))
			i++
		case u >= 0xD800 && u < 0xE000 || u == 0xFFFD:
			b.WriteString("\uFFFD" + strconv.FormatUint(uint64(u), 16))
		default:
			b.WriteRune(rune(u))
		}
	}
	return b.String()
}

// cellPath is the column path of a cell of a log.
func cellPath(cl *collisionLog, c collisionCell) string {
	e := collisionEntries[cl.entries[c.entry]]
	if c.name == nil {
		return e.Machine + `\` + e.Object + `\` + e.Counter
	}
	return e.Machine + `\` + e.Object + "(" + nameText(c.name) + `)\` + e.Counter
}

// csvCells reads relog's CSV (or TSV) text: the header paths and, per row,
// the value of each non-empty cell with its column.
func csvCells(t testing.TB, text string, sep rune) (head []string, rows []map[uint64]int) {
	t.Helper()
	r := csv.NewReader(strings.NewReader(text))
	r.Comma = sep
	recs, err := r.ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("the text does not read back: %v\n%.500q", err, text)
	}
	head = recs[0][1:]
	for _, rec := range recs[1:] {
		if len(rec) != len(head)+1 {
			t.Fatalf("a row of %d fields under %d columns", len(rec), len(head))
		}
		row := map[uint64]int{}
		for j, cell := range rec[1:] {
			if cell == "" {
				continue
			}
			v, err := strconv.ParseUint(cell, 10, 64)
			if err != nil {
				t.Fatalf("cell %q is not one of the values", cell)
			}
			if _, dup := row[v]; dup {
				t.Fatalf("value %d twice in one row", v)
			}
			row[v] = j
		}
		rows = append(rows, row)
	}
	return head, rows
}

// FuzzNameCollisions: logs whose names collide under case folding, under
// U+FFFD for unpaired surrogates, or once sanitised, with instances that
// change places from sample to sample. In every output format every value
// is written once, under its own column: for one log, CSV and TSV put
// each value under the path of its entry and instance name (unpaired
// surrogates kept, nameText) and never two instances of one entry in one
// column; JSON rows have unique keys and every value; Parquet has a row
// per value; OpenMetrics writes every value, in valid UTF-8, each family
// with a UNIT ending in it. Two such logs merged keep every value of both,
// each log's instance in one column across its samples and two instances
// of one log in different columns, whose paths equal the instance's under
// PDH's case folding. Everything is in memory, and an input checks one of
// the formats (the byte after the logs' bytes picks it: CSV, TSV, JSON or
// OpenMetrics, and Parquet besides in one input in sixteen, the slow part)
// besides the merge: every seed is run in each format.
func FuzzNameCollisions(f *testing.F) {
	collisionSeed(f, []byte{0, 0, 3, 0xff, 0x03, 1, 0x21, 0x18, 0x00, 0, 0x33})
	collisionSeed(f, []byte{2, 0, 1, 3, 2, 0x38, 0, 2, 0x12, 0x38, 0, 1, 0x10, 1, 1, 0, 2, 0x07, 0, 0, 0x01})
	collisionSeed(f, []byte{1, 0, 4, 1, 1, 0x03, 0, 1, 0x10, 0x03, 0, 0, 0, 1, 4, 1, 0x07, 0, 2, 0x21})
	collisionSeed(f, []byte{2, 0, 0, 3, 0, 0x1f, 0x03, 7, 0x31})
	collisionSeed(f, []byte{0, 1, 1, 0xff, 0xff, 3, 0x51, 0, 2, 0, 0x18, 0, 0, 0, 0, 0, 0, 0, 0, 7})
	// Svc in one log, Svc and svc in the other (merged, svc lost its values).
	collisionSeed(f, []byte{0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0x03, 0, 0, 0, 0})
	// One path twice (JSON repeated its key; OpenMetrics left one out).
	collisionSeed(f, []byte{1, 3, 3, 0, 0, 3, 0, 0})
	// X Bytes and X-Bytes: one family name once sanitised (the number went
	// after the unit).
	collisionSeed(f, []byte{1, 0, 2, 0, 0x01, 0, 0, 0, 0x02, 0, 0, 0, 0, 3, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) { nameCollisions(t, data) })
}

// collisionSeed adds a seed to f once per format byte (formatCSV …
// formatOpenMetrics, then OpenMetrics with Parquet): the seed's bytes, as
// many zeros as its logs read past its end, then the format byte.
func collisionSeed(f *testing.F, seed []byte) {
	padded := append(append([]byte(nil), seed...), make([]byte, 64)...)
	rest := padded
	a := buildCollisionLog(&rest, 0, 0)
	buildCollisionLog(&rest, 1, a.samples)
	logs := padded[:len(padded)-len(rest)]
	for _, format := range []byte{formatCSV, formatTSV, formatJSON, formatOpenMetrics, formatOpenMetrics | withParquet} {
		f.Add(append(append([]byte(nil), logs...), format))
	}
}

// The format byte of FuzzNameCollisions' inputs: its low two bits pick the
// format of the log alone, and withParquet (one byte value in sixteen) adds
// Parquet.
const (
	formatCSV         = 0
	formatTSV         = 1
	formatJSON        = 2
	formatOpenMetrics = 3
	withParquet       = 15 << 2
)

// nameCollisions is FuzzNameCollisions' body.
func nameCollisions(t testing.TB, data []byte) {
	a := buildCollisionLog(&data, 0, 0)
	b := buildCollisionLog(&data, 1, a.samples)
	format := nextByte(&data)
	checkOneLog(t, &a, format&3, format&withParquet == withParquet)
	checkMerged(t, &a, &b)
}

// BenchmarkNameCollisions runs FuzzNameCollisions' body on its seeds and
// on random inputs of the seeds' lengths (ns/op is per input):
//
//	go test -run '^$' -bench NameCollisions -cpuprofile cpu.out ./fuzz/
func BenchmarkNameCollisions(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	inputs := make([][]byte, 64)
	for i := range inputs {
		inputs[i] = make([]byte, 8+rng.Intn(24))
		rng.Read(inputs[i])
	}
	b.ReportAllocs()
	for i := range b.N {
		nameCollisions(b, inputs[i%len(inputs)])
	}
}

func checkOneLog(t testing.TB, cl *collisionLog, format byte, withParquet bool) {
	open := func() *relog.Converter {
		c, err := relog.New(bytes.NewReader(cl.log), int64(len(cl.log)), relog.Options{})
		if err != nil {
			t.Fatalf("the log does not open: %v", err)
		}
		return c
	}
	if withParquet {
		checkCollisionParquet(t, cl, open())
	}
	switch format {
	case formatCSV, formatTSV:
		var text bytes.Buffer
		f, sep := relog.CSV, ','
		if format == formatTSV {
			f, sep = relog.TSV, '\t'
		}
		c := open()
		cols := c.Columns()
		if err := c.Write(&text, f); err != nil {
			t.Fatal(err)
		}
		head, rows := csvCells(t, text.String(), sep)
		colOf := map[string]int{}
		owner := map[int]string{}
		want := 0
		for _, row := range rows {
			for v, j := range row {
				c, ok := cl.cells[v]
				if !ok {
					t.Fatalf("value %d was never logged", v)
				}
				if p := cellPath(cl, c); head[j] != p || cols[j].Entry != c.entry {
					t.Fatalf("value %d (%s of entry %d) under column %d %q of entry %d", v, p, c.entry, j, head[j], cols[j].Entry)
				}
				if prev, ok := colOf[c.key()]; ok && prev != j {
					t.Fatalf("%s: columns %d and %d", cellPath(cl, c), prev, j)
				}
				if o, ok := owner[j]; ok && o != c.key() {
					t.Fatalf("column %d holds two instances", j)
				}
				colOf[c.key()], owner[j] = j, c.key()
				want++
			}
		}
		if want != len(cl.cells) {
			t.Fatalf("%d of %d values written", want, len(cl.cells))
		}
	case formatJSON:
		checkJSON(t, cl, open())
	default:
		checkOpenMetrics(t, cl, open())
	}
}

// checkJSON checks a log's JSON: unique keys, every value.
func checkJSON(t testing.TB, cl *collisionLog, c *relog.Converter) {
	var js bytes.Buffer
	if err := c.Write(&js, relog.JSON); err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(js.Bytes()) {
		t.Fatalf("the JSON is not valid UTF-8")
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSuffix(js.String(), "\n"), "\n") {
		if line == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		keys := map[string]bool{}
		depth := 0
		isKey := false
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("JSON %q: %v", line, err)
			}
			switch tok := tok.(type) {
			case json.Delim:
				if tok == '{' {
					depth++
					isKey = true
				} else if tok == '}' {
					depth--
				}
				continue
			case string:
				if depth == 2 && isKey {
					if keys[tok] {
						t.Fatalf("JSON key %q twice in %q", tok, line)
					}
					keys[tok] = true
					isKey = false
					continue
				}
			case json.Number, float64:
				if depth == 2 {
					n++
				}
			}
			isKey = depth == 2
		}
	}
	if n != len(cl.cells) {
		t.Fatalf("JSON: %d of %d values", n, len(cl.cells))
	}
}

// checkCollisionParquet checks a log's Parquet: a row per value, and parquet-go
// opens the file.
func checkCollisionParquet(t testing.TB, cl *collisionLog, c *relog.Converter) {
	var pq bytes.Buffer
	pst, err := parquetlog.Write(&pq, longform.FromConverter(c), parquetlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if pf, err := parquet.OpenFile(bytes.NewReader(pq.Bytes()), int64(pq.Len())); err != nil || pst.Rows != int64(len(cl.cells)) || pf.NumRows() != pst.Rows {
		t.Fatalf("Parquet: %d rows written of %d values (%v)", pst.Rows, len(cl.cells), err)
	}
}

// checkOpenMetrics checks a log's OpenMetrics: every value, valid UTF-8,
// units at the ends of names.
func checkOpenMetrics(t testing.TB, cl *collisionLog, c *relog.Converter) {
	var om bytes.Buffer
	st, err := openmetrics.Write(&om, longform.FromConverter(c), openmetrics.Options{Budget: 4096}) // no 8 MB window: these logs fit
	if err != nil {
		t.Fatal(err)
	}
	if st.Samples != int64(len(cl.cells)) || !utf8.Valid(om.Bytes()) {
		t.Fatalf("OpenMetrics: %d of %d values (valid UTF-8: %v)\n%s", st.Samples, len(cl.cells), utf8.Valid(om.Bytes()), om.Bytes())
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(om.String(), "\n") {
		if u, ok := strings.CutPrefix(line, "# UNIT "); ok {
			name, unit, _ := strings.Cut(u, " ")
			if !strings.HasSuffix(name, "_"+unit) {
				t.Fatalf("family %s does not end in its unit %s", name, unit)
			}
		}
		if line == "" || line[0] == '#' {
			continue
		}
		metric := line[:strings.LastIndexByte(line[:strings.LastIndexByte(line, ' ')], ' ')]
		ts := line[strings.LastIndexByte(line, ' '):]
		if seen[metric+ts] {
			t.Fatalf("two samples of %s at %s", metric, ts)
		}
		seen[metric+ts] = true
	}
}

func checkMerged(t testing.TB, a, b *collisionLog) {
	in := func(cl *collisionLog, name string) relog.Input {
		return relog.Input{R: bytes.NewReader(cl.log), Size: int64(len(cl.log)), Name: name}
	}
	c, err := relog.Merge([]relog.Input{in(a, "a"), in(b, "b")}, relog.Options{})
	if err != nil {
		t.Fatalf("Merge: %v", err)
	}
	var text bytes.Buffer
	if err := c.Write(&text, relog.CSV); err != nil {
		t.Fatal(err)
	}
	head, rows := csvCells(t, text.String(), ',')
	colOf := map[string]int{}
	owner := map[string]string{} // log and column → the series
	n := 0
	for k, row := range rows {
		cl, log := a, "a"
		if k >= a.samples {
			cl, log = b, "b"
		}
		for v, j := range row {
			cell, ok := cl.cells[v]
			if !ok {
				t.Fatalf("row %d: value %d is not of log %s", k, v, log)
			}
			if p := cellPath(cl, cell); !strings.EqualFold(head[j], p) {
				t.Fatalf("log %s: value %d (%s) under column %q", log, v, p, head[j])
			}
			key := log + cell.key()
			if prev, ok := colOf[key]; ok && prev != j {
				t.Fatalf("log %s: %s in columns %d and %d", log, cellPath(cl, cell), prev, j)
			}
			if o, ok := owner[log+strconv.Itoa(j)]; ok && o != key {
				t.Fatalf("log %s: column %d %q holds two of its series", log, j, head[j])
			}
			colOf[key], owner[log+strconv.Itoa(j)] = j, key
			n++
		}
	}
	if n != len(a.cells)+len(b.cells) {
		t.Fatalf("merged: %d of %d values written", n, len(a.cells)+len(b.cells))
	}
}
