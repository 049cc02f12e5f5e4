package abi

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/detect"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// pageRecord reads record i of the page b and its path.
func pageRecord(b []byte, h *Header, i int) (Record, string) {
	r := b[int(h.RecOff)+i*int(h.RecSize):]
	off, n := RecordPath(r)
	s := b[h.StrOff : h.StrOff+h.StrLen]
	return ReadRecord(r), string(s[off : off+n])
}

// summary is the Summary of fill's result.
func summary() *Summary {
	return &Summary{Kind: KindBlg, Info: "info", Keys: 3, Columns: 3, Rows: 17, Bias: -60}
}

// fill writes 50 records of the result s, every other one with a path
// shared by a third of them (key i%6/2), the others with their own, and
// returns s.
func fill(w *Writer, s *Summary) *Summary {
	w.Begin(s)
	for i := 0; i < 50; i++ {
		r := Record{Value: float64(i), Aux: uint32(i), Raw: engine.RawCounter{FirstValue: math.MaxUint64 - uint64(i)}}
		key := -1
		path := "own path " + strconv.Itoa(i)
		if i%2 == 0 {
			key, path = i%6/2, "shared path "+strconv.Itoa(i%6/2)
		}
		w.Record(&r, []byte(path), nil, key)
	}
	return s
}

// TestWriterPaging checks that a result that does not fit is returned page
// by page through Pause and NextPage (a continuation), with shared strings
// written once per page and the info string in every page, that the pages
// together equal the result in one page, that a growing Writer gives that
// one page, and that a Writer without Pause drops what does not fit.
func TestWriterPaging(t *testing.T) {
	big := make([]byte, 1<<16)
	var w Writer
	w.Reset(big)
	n, more, needed := w.Finish(fill(&w, summary()))
	h := ReadHeader(big)
	if more || h.Count != 50 || h.Total != 50 || h.Needed != uint32(n) || needed != uint32(n) || h.Flags != 0 || h.Cursor != 0 {
		t.Fatalf("one page: %d records, needed %d (%d), wrote %d, more %v", h.Count, h.Needed, needed, n, more)
	}
	if h.Magic != Magic || h.Version != Version || h.Kind != KindBlg || h.Columns != 3 || h.Rows != 17 || h.Bias != -60 {
		t.Fatalf("one page: header %+v", h)
	}
	var all []string
	for i := 0; i < 50; i++ {
		_, p := pageRecord(big, &h, i)
		all = append(all, p)
	}

	g := NewGrowing()
	gn, gmore, _ := g.Finish(fill(g, summary()))
	if gmore || !bytes.Equal(g.Bytes(), big[:n]) || gn != n {
		t.Errorf("a growing Writer differs from one page (%d bytes, more %v; want %d)", gn, gmore, n)
	}

	small := make([]byte, HeaderSize+8*RecordSize+60)
	var got []string
	pages := 0
	s := summary()
	// page reads the page in small, checks its header and returns it.
	page := func(more bool) Header {
		h := ReadHeader(small)
		if string(small[h.StrOff+h.InfoOff:h.StrOff+h.InfoOff+h.InfoLen]) != "info" || h.Total != h.First+h.Count || h.First != uint32(len(got)) {
			t.Fatalf("page %d: info, first %d or total %d wrong", pages, h.First, h.Total)
		}
		if more != (h.Flags&FlagMore != 0) || more != (h.Cursor == 7) {
			t.Fatalf("page %d: more %v, flags %d, cursor %d", pages, more, h.Flags, h.Cursor)
		}
		for i := 0; i < int(h.Count); i++ {
			r, p := pageRecord(small, &h, i)
			if r.Aux != h.First+uint32(i) || r.Raw.FirstValue != math.MaxUint64-uint64(h.First)-uint64(i) {
				t.Fatalf("page %d record %d: %+v", pages, i, r)
			}
			got = append(got, p)
		}
		pages++
		return h
	}
	w.Reset(small)
	w.Cursor = 7
	w.Pause = func() bool {
		_, more, needed := w.Finish(s)
		h := page(more)
		// The next record's path is a shared one (14 bytes) or its own (10 to 11).
		if h.Count == 0 || needed != h.Needed || needed < HeaderSize+RecordSize+4+10 || needed > HeaderSize+RecordSize+4+14 {
			t.Fatalf("page %d: %d records, needed %d (%d)", pages, h.Count, h.Needed, needed)
		}
		w.NextPage(small)
		return true
	}
	_, more, _ = w.Finish(fill(&w, s))
	if h := page(more); more || h.Total != 50 || pages < 4 {
		t.Fatalf("last page %d: more %v, total %d", pages, more, h.Total)
	}
	if strings.Join(got, "|") != strings.Join(all, "|") {
		t.Errorf("paged paths differ:\n%q\n%q", got, all)
	}

	// Without Pause: the first page, and the rest dropped.
	w.Reset(small)
	if _, more, _ := w.Finish(fill(&w, summary())); !more {
		t.Fatal("without Pause: more is false")
	}
	if h := ReadHeader(small); h.Flags != FlagMore || h.Count == 0 || h.Count != h.Total || h.Cursor != 0 {
		t.Errorf("without Pause: header %+v", h)
	}
}

// TestWriterStop checks that a Builder whose Writer's Pause abandons the
// result stops with ErrStopped at the next record.
func TestWriterStop(t *testing.T) {
	table, err := os.ReadFile(corpus.Project(t, "counter-009.multisz"))
	if err != nil {
		t.Fatal(err)
	}
	var w Writer
	w.Reset(make([]byte, 4*HeaderSize))
	pauses := 0
	w.Pause = func() bool { pauses++; return false }
	b := Builder{W: &w}
	if err := b.Names(table); err != ErrStopped || pauses != 1 || b.n != int(w.count)+1 {
		t.Errorf("Names: %v after %d pauses and %d records (%d written), want ErrStopped after 1 pause, at the record after the one that did not fit", err, pauses, b.n, w.count)
	}
}

// TestMaxRecords checks that a Builder stops at MaxRecords, with the ABI's
// text.
func TestMaxRecords(t *testing.T) {
	b := Builder{W: NewGrowing()}
	var err error
	for i := 0; i <= MaxRecords && err == nil; i++ {
		err = b.count()
	}
	if err != ErrTooMany || b.n != MaxRecords {
		t.Errorf("have %v after %d records, want ErrTooMany after %d", err, b.n, MaxRecords)
	}
	if want := "perfcalc: the input holds more than " + strconv.Itoa(MaxRecords) + " records"; err.Error() != want || CodeOf(err) != CodeLimit {
		t.Errorf("have %q (%d), want %q (CodeLimit)", err, CodeOf(err), want)
	}
}

// TestStatisticRoundTrip checks that ReadStatistic reads what the Writer
// writes, and that a statistics record shares a record's path, value,
// status and type fields.
func TestStatisticRoundTrip(t *testing.T) {
	if StatSize != RecordSize || StatPathOff != RecPathOff || StatPathLen != RecPathLen || StatMean != RecValue ||
		StatMeanStatus != RecStatus || StatType != RecType || StatColumn != RecColumn {
		t.Fatal("a statistics record's common fields are not a record's")
	}
	want := Statistic{Statistics: engine.Statistics{Count: 7, Skipped: 1 << 40, Min: -1.5, Max: math.MaxFloat64, Mean: 3, MeanStatus: engine.Valid},
		Type: engine.Timer100nsInv, Column: 9}
	w := NewGrowing()
	w.Begin(&Summary{Kind: KindStats})
	w.Statistic(&want, []byte("path"), nil)
	w.Finish(&Summary{})
	b := w.Bytes()
	h := ReadHeader(b)
	r := b[h.RecOff:]
	if have := ReadStatistic(r); !reflect.DeepEqual(have, want) {
		t.Errorf("have %+v, want %+v", have, want)
	}
	if off, n := RecordPath(r); string(b[h.StrOff+off:h.StrOff+off+n]) != "path" {
		t.Errorf("path at %d, %d", off, n)
	}
}

// TestRequestRoundTrip checks that ReadRequest reads what PutRequest
// writes, for random inputs, and refuses reserved bits.
func TestRequestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q [ReqSize]byte
	for i := 0; i < 1000; i++ {
		in := engine.Input{
			Counter: engine.Counter{Type: engine.CounterType(rng.Uint32()), Scale: int32(rng.Uint32()), TimeBase: int64(rng.Uint64())},
			HasOld:  rng.IntN(2) == 1,
			Old:     engine.RawCounter{CStatus: rng.Uint32(), FirstValue: rng.Uint64(), SecondValue: rng.Uint64(), MultiCount: rng.Uint32()},
			New:     engine.RawCounter{CStatus: rng.Uint32(), FirstValue: rng.Uint64(), SecondValue: rng.Uint64(), MultiCount: rng.Uint32()},
		}
		opts := rng.Uint32() & OptionsMask
		PutRequest(q[:], &in, opts)
		var have engine.Input
		hopts, ok := ReadRequest(&have, q[:])
		if !ok || have != in || uint32(hopts) != opts {
			t.Fatalf("round trip: have %+v %v %v, want %+v %v", have, hopts, ok, in, opts)
		}
	}
	for _, bad := range []struct{ at, bit int }{{ReqFlags, 2}, {ReqOptions, 16}, {ReqOptions + 3, 0x80}} {
		PutRequest(q[:], &engine.Input{}, 0)
		q[bad.at] |= byte(bad.bit)
		if _, ok := ReadRequest(new(engine.Input), q[:]); ok {
			t.Errorf("a reserved bit at byte %d (%#x) was accepted", bad.at, bad.bit)
		}
	}
}

// TestOptionBits checks that the ABI's option bits are the engine's.
func TestOptionBits(t *testing.T) {
	for _, tc := range []struct {
		abi    uint32
		engine engine.Options
	}{{OptCap100, engine.Cap100}, {OptScale, engine.Scale}, {OptTimes1000, engine.Times1000}, {OptWrap32, engine.Wrap32},
		{OptionsMask, engine.Cap100 | engine.Scale | engine.Times1000 | engine.Wrap32}} {
		if tc.abi != uint32(tc.engine) {
			t.Errorf("option %#x is the engine's %#x", tc.abi, uint32(tc.engine))
		}
	}
	if FormatCSV != uint32(relog.CSV) || FormatTSV != uint32(relog.TSV) || FormatJSON != uint32(relog.JSON) || MaxDigits != engine.MaxDigits {
		t.Error("the formats or the digits are not relog's and the engine's")
	}
}

// TestCodeOf checks the codes of the builders' errors.
func TestCodeOf(t *testing.T) {
	wrapped := errors.Join(errors.New("x"), &engine.FormatError{Err: engine.ErrTruncated})
	for _, tc := range []struct {
		err  error
		want int32
	}{
		{nil, 0},
		{ErrTooMany, CodeLimit},
		{ErrEvery, CodeArgument},
		{&Error{Code: CodeAbsent, Detail: 3}, CodeAbsent},
		{&engine.FormatError{Err: engine.ErrMalformed}, CodeMalformed},
		{wrapped, CodeTruncated},
		{&engine.FormatError{Err: engine.ErrUnsupported}, CodeUnsupported},
		{&query.MismatchError{What: "machine"}, CodeInput},
		{query.ErrNotV1, CodeInput},
		{errors.New("other"), CodeInput},
	} {
		if have := CodeOf(tc.err); have != tc.want {
			t.Errorf("CodeOf(%v) = %d, want %d", tc.err, have, tc.want)
		}
	}
	if DetailOf(&Error{Detail: 3}) != 3 || DetailOf(errors.New("x")) != 0 {
		t.Error("DetailOf")
	}
}

// TestPatterns checks ParsePatterns and AppendPatterns.
func TestPatterns(t *testing.T) {
	ps, err := ParsePatterns([]byte(" \\\\*\\Processor(_Total)\\% Processor Time\r\n\n\t\\Memory\\*  \n"))
	if err != nil || len(ps) != 2 {
		t.Fatalf("have %v, %v", ps, err)
	}
	text := AppendPatterns(nil, ps)
	if string(text) != "\\\\*\\Processor(_Total)\\% Processor Time\n\\Memory\\*" {
		t.Errorf("AppendPatterns: %q", text)
	}
	again, err := ParsePatterns(text)
	if err != nil || len(again) != 2 || !reflect.DeepEqual(again, ps) {
		t.Errorf("round trip: %v, %v", again, err)
	}
	if _, err := ParsePatterns([]byte(`\\x\y(`)); err == nil {
		t.Error("a bad pattern was accepted")
	}
	if ps, err := ParsePatterns(nil); ps != nil || err != nil {
		t.Errorf("no pattern: %v, %v", ps, err)
	}
}

// TestU32s checks AppendU32s and ReadU32s.
func TestU32s(t *testing.T) {
	ids := []uint32{0, 1, 0xFFFFFFFF, 7}
	b := AppendU32s(nil, ids)
	if string(b[8:12]) != "\xff\xff\xff\xff" || string(b[12:]) != "\x07\x00\x00\x00" {
		t.Errorf("AppendU32s: % x", b)
	}
	have := ReadU32s(append(b, 1, 2)) // a partial u32 at the end is left out
	if len(have) != 4 || have[2] != 0xFFFFFFFF || have[3] != 7 || ReadU32s(nil) != nil {
		t.Errorf("ReadU32s: %v", have)
	}
}

// TestRelogTextDigits checks relog_text's format argument: the digits in
// bits 8 to 15 (0: relog.Options.Digits, else the default), and refusals.
func TestRelogTextDigits(t *testing.T) {
	for _, tc := range []struct {
		format uint32
		digits int
		want   error
	}{
		{FormatCSV, 0, nil}, {FormatCSV | 17<<DigitsShift, 0, nil}, {FormatTSV | 20<<DigitsShift, 17, nil},
		{FormatBin + 1, 0, ErrFormat}, {FormatBin, 0, nil}, {21 << DigitsShift, 0, ErrDigits}, {1 << 16, 0, ErrDigits},
		{FormatCSV, -1, ErrDigits}, {FormatCSV, 21, ErrDigits},
	} {
		var text bytes.Buffer
		_, _, _, err := RelogText(&text, []byte("not a log"), relog.Options{Digits: tc.digits}, tc.format)
		_, refused := err.(*Error) // the ABI's refusal, not the log's error
		if tc.want != nil && err != tc.want || tc.want == nil && (err == nil || refused) {
			t.Errorf("format %#x, digits %d: have %v, want %v", tc.format, tc.digits, err, tc.want)
		}
	}
}

// TestSniffKinds: Sniff returns detect's kinds as they are, so the ABI's
// kinds must have their values.
func TestSniffKinds(t *testing.T) {
	for _, tc := range []struct {
		abi    uint32
		detect detect.Kind
	}{{KindV1, detect.V1}, {KindV2, detect.V2}, {KindNames, detect.Names}, {KindBlg, detect.Blg}} {
		if tc.abi != uint32(tc.detect) {
			t.Errorf("kind %d: detect's value is %d", tc.abi, tc.detect)
		}
	}
}

// TestSniff checks that Sniff tells each of the project's files apart, and
// that a few bytes are enough for all but V2.
func TestSniff(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "corpus")
	for _, tc := range []struct {
		file string
		want uint32
	}{
		{"global-1.bin", KindV1}, {"v2-data-1.bin", KindV2}, {"counter-009.multisz", KindNames},
		{"help-009.multisz", KindNames}, {"v2-reginfo.bin", 0}, {"v2-strings.bin", 0},
	} {
		b, err := os.ReadFile(filepath.Join(root, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if have := Sniff(b); have != tc.want {
			t.Errorf("%s: have %d, want %d", tc.file, have, tc.want)
		}
		if tc.want != KindV2 && len(b) > 80 {
			if have := Sniff(b[:80]); have != tc.want {
				t.Errorf("%s, 80 bytes: have %d, want %d", tc.file, have, tc.want)
			}
		}
	}
	if b, err := os.ReadFile(corpus.Shared(t, "blg", "Tx_BasicPerfCounters.blg")); err == nil {
		if Sniff(b) != KindBlg || Sniff(b[:80]) != KindBlg || Sniff(b[:70]) != 0 {
			t.Errorf("a .blg log: %d, 80 bytes %d, 70 bytes %d", Sniff(b), Sniff(b[:80]), Sniff(b[:70]))
		}
	}
	for _, b := range [][]byte{nil, []byte("PERF"), []byte("hello world, not a capture")} {
		if have := Sniff(b); have != 0 {
			t.Errorf("%q: have %d, want 0", b, have)
		}
	}
}

// TestPartsRoundTrip checks that ReadParts reads the parts that a Writer
// writes after a record's path, and refuses parts cut short.
func TestPartsRoundTrip(t *testing.T) {
	// The Writer writes the lengths in this order.
	if PartsMachine != 0 || PartsObject != 4 || PartsParent != 8 || PartsInstance != 12 || PartsCounter != 16 || PartsIndex != 20 || PartsSize != 24 {
		t.Fatal("the parts' fields moved: change Writer.slot")
	}
	for _, p := range []counterpath.Path{
		{Machine: "HOST", Object: "Thread", HasInstance: true, Parent: "svchost", Instance: "0", Index: 3, Counter: "% Processor Time"},
		{Object: "Memory", Counter: "Available Bytes"},
		{Machine: "M", Object: "o", HasInstance: true, Counter: "c"},
		{Object: `odd(1)`, HasInstance: true, Instance: `\??\C:\x`, Counter: `a\b`},
	} {
		w := NewGrowing()
		w.Begin(&Summary{Kind: KindQuery})
		w.Record(&Record{}, []byte("the path"), &p, -1)
		w.Finish(&Summary{Kind: KindQuery})
		out := w.Bytes()
		h := ReadHeader(out)
		off, n := RecordPath(out[h.RecOff:])
		strs := out[h.StrOff : h.StrOff+h.StrLen]
		if string(strs[off:off+n]) != "the path" {
			t.Fatalf("path %q", strs[off:off+n])
		}
		parts := strs[off+n:]
		have, ok := ReadParts(parts)
		if !ok || !reflect.DeepEqual(have, p) {
			t.Errorf("have %+v (%v), want %+v", have, ok, p)
		}
		for k := range len(parts) {
			if _, ok := ReadParts(parts[:k]); ok {
				t.Errorf("%+v: %d of its bytes read", p, k)
			}
		}
	}
}

// TestRecordParts checks that the records of a log (decode_blg, the
// columns, the statistics) carry after each path the parts that
// counterpath.Parse reads from it, and so do those of a V1 capture and of
// a query.
func TestRecordParts(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), "Tx_BasicPerfCounters.blg"))
	if err != nil {
		t.Fatal(err)
	}
	v1, err := os.ReadFile(filepath.Join(corpus.Shared(t, "v1"), "s00_obj230.bin"))
	if err != nil {
		t.Fatal(err)
	}
	names, err := os.ReadFile(filepath.Join(corpus.Shared(t, "v1"), "pal_counter_009.multisz"))
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range []func(*Builder) error{
		func(b *Builder) error { return b.Blg(data, relog.Options{}) },
		func(b *Builder) error { return b.LogColumns(data, relog.Options{}) },
		func(b *Builder) error { return b.Stats(data, relog.Options{}) },
		func(b *Builder) error { return b.V1(v1, names, 0) },
		func(b *Builder) error { return b.Query(nil, v1, &Query{Names: names}) },
	} {
		b := &Builder{W: NewGrowing()}
		if err := run(b); err != nil {
			t.Fatal(err)
		}
		b.W.Finish(&b.Summary)
		out := b.W.Bytes()
		h := ReadHeader(out)
		strs := out[h.StrOff : h.StrOff+h.StrLen]
		withInstance := 0
		for i := 0; i < int(h.Count); i++ {
			off, n := RecordPath(out[int(h.RecOff)+i*int(h.RecSize):])
			want, err := counterpath.Parse(string(strs[off : off+n]))
			if err != nil {
				t.Fatal(err)
			}
			have, ok := ReadParts(strs[off+n:])
			if !ok || !reflect.DeepEqual(have, want) {
				t.Fatalf("kind %d record %d: have parts %+v (%v), want %+v", h.Kind, i, have, ok, want)
			}
			if have.HasInstance {
				withInstance++
			}
		}
		if h.Count < 10 || withInstance == 0 {
			t.Errorf("kind %d: %d records, %d with an instance: the test checks too little", h.Kind, h.Count, withInstance)
		}
	}
}
