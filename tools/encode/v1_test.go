package encode_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/describe"
	"github.com/perfcalc/perfcalc/tools/encode"
	"github.com/perfcalc/perfcalc/tools/importban"
)

func v1RoundTrip(t *testing.T, want encode.V1Blob) []byte {
	t.Helper()
	data, err := encode.EncodeV1(&want)
	if err != nil {
		t.Fatalf("EncodeV1: have error %v, want none", err)
	}
	have, err := describe.V1(data)
	if err != nil {
		t.Fatalf("decode: have error %v, want none", err)
	}
	describe.NormalizeV1(&want)
	describe.NormalizeV1(&have)
	if !reflect.DeepEqual(have, want) {
		t.Fatalf("round trip:\nhave %+v\nwant %+v", have, want)
	}
	return data
}

func TestV1RoundTripCases(t *testing.T) {
	rate := encode.V1Counter{CounterNameTitleIndex: 10, CounterHelpTitleIndex: 11, DetailLevel: 100, CounterType: engine.CounterCounter, CounterSize: 4}
	large := encode.V1Counter{CounterNameTitleIndex: 12, CounterHelpTitleIndex: 13, DefaultScale: -3, DetailLevel: 200, CounterType: engine.Timer100ns, CounterSize: 8}
	frac := encode.V1Counter{CounterNameTitleIndex: 14, CounterType: engine.RawFraction, CounterSize: 4}
	fracBase := encode.V1Counter{CounterNameTitleIndex: 14, CounterType: engine.RawBase, CounterSize: 4}
	multi := encode.V1Counter{CounterNameTitleIndex: 16, CounterType: engine.CounterMultiTimer, CounterSize: 8}
	multiBase := encode.V1Counter{CounterNameTitleIndex: 16, CounterType: engine.CounterMultiBase, CounterSize: 8}
	nodata := encode.V1Counter{CounterNameTitleIndex: 18, CounterType: engine.CounterNodata, CounterSize: 0}
	laid := func(cs ...encode.V1Counter) []encode.V1Counter {
		cs = append([]encode.V1Counter(nil), cs...)
		encode.V1Layout(cs)
		return cs
	}
	hdr := func(objs ...encode.V1Object) encode.V1Blob {
		return encode.V1Blob{
			SystemName: "ZACH-PC", SystemTime: wintype.SystemTime{Year: 2007, Month: 8, DayOfWeek: 4, Day: 2, Hour: 14, Minute: 15, Second: 40, Milliseconds: 659},
			DefaultObject: 238, PerfTime: 7178903079, PerfFreq: 3579545, PerfTime100nSec: 128315940386596596, Objects: objs,
		}
	}
	for _, tc := range []struct {
		name string
		blob encode.V1Blob
	}{
		{"empty", encode.V1Blob{}},
		{"no objects", hdr()},
		{"single instance", hdr(encode.V1Object{ObjectNameTitleIndex: 2, NumInstances: -1, DefaultCounter: -1, Counters: laid(rate, large), Instances: []encode.V1Instance{{UniqueID: -1, Values: []uint64{7, 1 << 40}}}})},
		{"zero instances", hdr(encode.V1Object{ObjectNameTitleIndex: 230, NumInstances: 0, Counters: laid(rate)})},
		{"metadata multiple", hdr(encode.V1Object{ObjectNameTitleIndex: 230, NumInstances: -2, Counters: laid(rate)})},
		{"metadata none", hdr(encode.V1Object{ObjectNameTitleIndex: 2, NumInstances: -3, Counters: laid(rate)})},
		{"instances", hdr(encode.V1Object{ObjectNameTitleIndex: 238, NumInstances: 3, PerfTime: 5, PerfFreq: 10_000_000, Counters: laid(rate, frac, fracBase, nodata), Instances: []encode.V1Instance{
			{Name: "0", UniqueID: -1, Values: []uint64{1, 2, 3, 0}},
			{Name: "1", UniqueID: 17, Values: []uint64{4, 5, 6, 0}},
			{Name: "_Total", UniqueID: -1, Values: []uint64{5, 7, 9, 0}},
		}})},
		{"unnamed instance", hdr(encode.V1Object{NumInstances: 1, Counters: laid(rate), Instances: []encode.V1Instance{{Values: []uint64{1}}}})},
		{"multi timers", hdr(encode.V1Object{NumInstances: 1, Counters: laid(multi, multiBase, multi), Instances: []encode.V1Instance{
			{Name: "a", Values: []uint64{100, 4, 200}, MultiCounts: []uint32{0, 0, 8}},
		}})},
		{"long counter block", hdr(encode.V1Object{NumInstances: 2, CounterBlockLength: 64, Counters: laid(rate), Instances: []encode.V1Instance{{Name: "a", Values: []uint64{1}}, {Name: "b", Values: []uint64{2}}}})},
		{"shared offsets", hdr(encode.V1Object{NumInstances: 1, Counters: func() []encode.V1Counter {
			cs := laid(large, large, rate)
			cs[1].CounterOffset = cs[0].CounterOffset
			return cs
		}(), Instances: []encode.V1Instance{{Name: "x", Values: []uint64{9, 9, 1}}}})},
		{"unaligned values", hdr(encode.V1Object{NumInstances: 1, Counters: []encode.V1Counter{
			{CounterType: engine.CounterRawcount, CounterSize: 4, CounterOffset: 5},
			{CounterType: engine.CounterLargeRawcount, CounterSize: 8, CounterOffset: 9},
		}, Instances: []encode.V1Instance{{Name: "u", Values: []uint64{0xdeadbeef, 0x0123456789abcdef}}}})},
		{"code pages", hdr(
			encode.V1Object{ObjectNameTitleIndex: 1, NumInstances: 2, CodePage: 1252, Counters: laid(rate), Instances: []encode.V1Instance{{Name: "Café €", Values: []uint64{1}}, {Name: "naïve “q”", Values: []uint64{2}}}},
			encode.V1Object{ObjectNameTitleIndex: 3, NumInstances: 1, CodePage: 65001, Counters: laid(rate), Instances: []encode.V1Instance{{Name: "日本語 🎉", Values: []uint64{1}}}},
			encode.V1Object{ObjectNameTitleIndex: 5, NumInstances: 1, CodePage: 0, Counters: laid(rate), Instances: []encode.V1Instance{{Name: "𝄞 astral", Values: []uint64{1}}}},
			encode.V1Object{ObjectNameTitleIndex: 7, NumInstances: 1, CodePage: 28591, Counters: laid(rate), Instances: []encode.V1Instance{{Name: "ÿ", Values: []uint64{1}}}},
			encode.V1Object{ObjectNameTitleIndex: 9, NumInstances: 1, CodePage: 20127, Counters: laid(rate), Instances: []encode.V1Instance{{Name: "plain", Values: []uint64{1}}}},
		)},
		{"parents", hdr(
			encode.V1Object{ObjectNameTitleIndex: 230, NumInstances: 2, Counters: laid(rate), Instances: []encode.V1Instance{{Name: "svchost", Values: []uint64{1}}, {Name: "svchost", Values: []uint64{2}}}},
			encode.V1Object{ObjectNameTitleIndex: 232, NumInstances: 2, Counters: laid(rate), Instances: []encode.V1Instance{
				{Name: "0", ParentObjectTitleIndex: 230, ParentObjectInstance: 0, Values: []uint64{1}},
				{Name: "0", ParentObjectTitleIndex: 230, ParentObjectInstance: 1, Values: []uint64{2}},
			}},
		)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := v1RoundTrip(t, tc.blob)
			if len(data)%8 != 0 {
				t.Errorf("length: have %d, want a multiple of 8", len(data))
			}
		})
	}
}

func TestV1EncodeErrors(t *testing.T) {
	rate := encode.V1Counter{CounterType: engine.CounterCounter, CounterSize: 4, CounterOffset: 8}
	for _, tc := range []struct {
		name string
		obj  encode.V1Object
		want string
	}{
		{"count mismatch", encode.V1Object{NumInstances: 2, Counters: []encode.V1Counter{rate}, Instances: []encode.V1Instance{{Values: []uint64{1}}}}, "NumInstances 2 but 1 instances"},
		{"single needs one", encode.V1Object{NumInstances: -1}, "NumInstances -1 but 0 instances"},
		{"metadata has none", encode.V1Object{NumInstances: -3, Instances: []encode.V1Instance{{}}}, "NumInstances -3 but 1 instances"},
		{"bad NumInstances", encode.V1Object{NumInstances: -4}, "neither a count"},
		{"bad size", encode.V1Object{NumInstances: 0, Counters: []encode.V1Counter{{CounterSize: 3, CounterOffset: 8}}}, "CounterSize 3"},
		{"size zero", encode.V1Object{NumInstances: 0, Counters: []encode.V1Counter{{CounterType: engine.CounterRawcount, CounterOffset: 8}}}, "PERF_SIZE_ZERO"},
		{"offset overlaps", encode.V1Object{NumInstances: 0, Counters: []encode.V1Counter{{CounterType: engine.CounterRawcount, CounterSize: 4}}}, "overlaps"},
		{"values count", encode.V1Object{NumInstances: 1, Counters: []encode.V1Counter{rate}, Instances: []encode.V1Instance{{}}}, "0 values for 1 counters"},
		{"value too large", encode.V1Object{NumInstances: 1, Counters: []encode.V1Counter{rate}, Instances: []encode.V1Instance{{Values: []uint64{1 << 32}}}}, "does not fit"},
		{"shared conflict", encode.V1Object{NumInstances: 1, Counters: []encode.V1Counter{rate, rate}, Instances: []encode.V1Instance{{Values: []uint64{1, 2}}}}, "conflicts"},
		{"short counter block", encode.V1Object{NumInstances: 0, CounterBlockLength: 8, Counters: []encode.V1Counter{{CounterType: engine.CounterBulkCount, CounterSize: 8, CounterOffset: 8}}}, "CounterBlockLength 8 is below the 16 bytes"},
		{"stray multi count", encode.V1Object{NumInstances: 1, Counters: []encode.V1Counter{rate}, Instances: []encode.V1Instance{{Values: []uint64{1}, MultiCounts: []uint32{3}}}}, "no trailing DWORD"},
		{"name in 1252", encode.V1Object{NumInstances: 1, CodePage: 1252, Counters: []encode.V1Counter{rate}, Instances: []encode.V1Instance{{Name: "日本", Values: []uint64{1}}}}, "cannot encode"},
		{"name NUL", encode.V1Object{NumInstances: 1, Counters: []encode.V1Counter{rate}, Instances: []encode.V1Instance{{Name: "a\x00b", Values: []uint64{1}}}}, "NUL"},
		{"code page", encode.V1Object{NumInstances: 1, CodePage: 932, Counters: []encode.V1Counter{rate}, Instances: []encode.V1Instance{{Name: "a", Values: []uint64{1}}}}, "code page 932"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := []byte("keep")
			out, err := encode.AppendV1(dst, &encode.V1Blob{Objects: []encode.V1Object{tc.obj}})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error: have %v, want one containing %q", err, tc.want)
			}
			if !bytes.Equal(out, []byte("keep")) {
				t.Errorf("dst after an error: have %q, want %q", out, "keep")
			}
		})
	}
}

// v1RandomBlob derives a random description that EncodeV1 can encode.
func v1RandomBlob(r *rand.Rand) encode.V1Blob {
	types := engine.Types()
	alphabet := []rune("abcXYZ09_ #/()-.éü€“日本🎉")
	ansi := []rune("abcXYZ09_ #/()-.")
	cps := []uint32{0, 1200, 1252, 28591, 20127, 65001}
	word := func(letters []rune) string {
		n := r.IntN(8)
		var b strings.Builder
		for range n {
			b.WriteRune(letters[r.IntN(len(letters))])
		}
		return b.String()
	}
	b := encode.V1Blob{
		SystemName: word(alphabet), DefaultObject: r.Int32() - 1<<30,
		SystemTime: wintype.SystemTime{Year: uint16(r.Uint32()), Month: uint16(r.IntN(13)), Day: uint16(r.IntN(32)), Milliseconds: uint16(r.IntN(1000))},
		PerfTime:   r.Int64(), PerfFreq: r.Int64(), PerfTime100nSec: r.Int64(),
	}
	for range r.IntN(5) {
		o := encode.V1Object{
			ObjectNameTitleIndex: uint32(r.IntN(20) * 2), ObjectHelpTitleIndex: r.Uint32(), DetailLevel: uint32(100 * (1 + r.IntN(4))),
			DefaultCounter: int32(r.IntN(5)) - 1, CodePage: cps[r.IntN(len(cps))], PerfTime: r.Int64(), PerfFreq: r.Int64(),
		}
		for range r.IntN(7) {
			t := types[r.IntN(len(types))]
			size := uint32(4 << r.IntN(2))
			if t&0x300 == 0x200 {
				size = 0
			}
			o.Counters = append(o.Counters, encode.V1Counter{
				CounterNameTitleIndex: r.Uint32(), CounterHelpTitleIndex: r.Uint32(), DefaultScale: int32(r.IntN(21)) - 10,
				DetailLevel: r.Uint32(), CounterType: t, CounterSize: size,
			})
		}
		encode.V1Layout(o.Counters)
		// Some definitions share the bytes of an earlier one of the same size.
		shared := make([]int, len(o.Counters))
		for i := range o.Counters {
			shared[i] = -1
			if i > 0 && r.IntN(4) == 0 {
				k := r.IntN(i)
				if o.Counters[k].CounterSize == o.Counters[i].CounterSize && o.Counters[i].CounterSize != 0 &&
					!encode.V1TrailingCount(o.Counters, i) && !encode.V1TrailingCount(o.Counters, k) {
					o.Counters[i].CounterOffset = o.Counters[k].CounterOffset
					shared[i] = k
				}
			}
		}
		trailing := false
		for i := range o.Counters {
			trailing = trailing || encode.V1TrailingCount(o.Counters, i)
		}
		n := r.IntN(6) - 3
		if n == 2 {
			n = r.IntN(40)
		}
		o.NumInstances = int32(n)
		count := max(n, 0)
		if n == -1 {
			count = 1
		}
		for range count {
			in := encode.V1Instance{UniqueID: -1}
			if n >= 0 {
				letters := alphabet
				if o.CodePage == 1252 || o.CodePage == 28591 || o.CodePage == 20127 {
					letters = ansi
				}
				in.Name = word(letters)
				in.UniqueID = r.Int32() - 1<<30
				if r.IntN(3) == 0 {
					in.ParentObjectTitleIndex, in.ParentObjectInstance = uint32(r.IntN(20)*2), uint32(r.IntN(4))
				}
			}
			for i, c := range o.Counters {
				var v uint64
				switch {
				case shared[i] >= 0:
					v = in.Values[shared[i]]
				case c.CounterSize == 4:
					v = uint64(r.Uint32())
				case c.CounterSize == 8:
					v = r.Uint64()
				}
				in.Values = append(in.Values, v)
			}
			if trailing {
				in.MultiCounts = make([]uint32, len(o.Counters))
				for i := range o.Counters {
					if encode.V1TrailingCount(o.Counters, i) {
						in.MultiCounts[i] = r.Uint32()
					}
				}
			}
			o.Instances = append(o.Instances, in)
		}
		b.Objects = append(b.Objects, o)
	}
	return b
}

func TestV1RoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 3))
	for i := range 500 {
		b := v1RandomBlob(r)
		t.Run(strconv.Itoa(i), func(t *testing.T) { v1RoundTrip(t, b) })
	}
}

// TestV1RealBlocks re-encodes every real block from its decoded description
// and checks that decoding gives the same description, that the new blob has
// the real one's size, and that it differs only where Windows left garbage.
func TestV1RealBlocks(t *testing.T) {
	dir := corpus.Shared(t, "v1")
	files, err := filepath.Glob(filepath.Join(dir, "s*_obj*.bin"))
	if err != nil || len(files) != 88 {
		t.Fatalf("real blocks: have %d (%v), want 88", len(files), err)
	}
	same := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := describe.V1(data)
		if err != nil {
			t.Fatalf("%s: decode: %v", f, err)
		}
		enc := v1RoundTrip(t, want)
		if len(enc) != len(data) {
			t.Errorf("%s: re-encoded length: have %d, want %d", filepath.Base(f), len(enc), len(data))
		}
		if bytes.Equal(enc, data) {
			same++
			continue
		}
		// Windows leaves garbage in padding and in unreferenced bytes of
		// counter blocks; the encoder writes zeros there and nothing else
		// may differ.
		for i := range min(len(enc), len(data)) {
			if enc[i] != data[i] && enc[i] != 0 {
				t.Errorf("%s: byte 0x%x: have 0x%02x, want 0x%02x", filepath.Base(f), i, enc[i], data[i])
				break
			}
		}
	}
	if same < 68 {
		t.Errorf("byte-identical re-encodings: have %d of %d, want at least 68 (the blocks without garbage in padding)", same, len(files))
	}
}

func TestV1LayoutAlignment(t *testing.T) {
	cs := []encode.V1Counter{
		{CounterType: engine.CounterCounter, CounterSize: 4},
		{CounterType: engine.CounterBulkCount, CounterSize: 8},
		{CounterType: engine.CounterMultiTimer, CounterSize: 8},
		{CounterType: engine.CounterRawcount, CounterSize: 4},
	}
	haveLen := encode.V1Layout(cs)
	var have []uint32
	for _, c := range cs {
		have = append(have, c.CounterOffset)
	}
	if want := []uint32{4, 8, 16, 28}; !reflect.DeepEqual(have, want) {
		t.Errorf("offsets: have %v, want %v", have, want)
	}
	if haveLen != 32 {
		t.Errorf("block length: have %d, want 32", haveLen)
	}
}

func TestV1EncodeErrorIsPlain(t *testing.T) {
	_, err := encode.EncodeV1(&encode.V1Blob{SystemName: "\xff"})
	if err == nil || !strings.HasPrefix(err.Error(), "encode: V1: SystemName") {
		t.Fatalf("have %v, want an error about SystemName", err)
	}
	var fe *engine.FormatError
	if errors.As(err, &fe) {
		t.Errorf("have a FormatError %v, want a description error", fe)
	}
}

// TestV1ImportBan: the package imports only the standard library (without fmt
// and os, which would bloat the WebAssembly module) and perfcalc's engine.
func TestV1ImportBan(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

// Encode a one-object blob, as RegQueryValueEx(HKEY_PERFORMANCE_DATA, "238")
// would return it, and read it back.
func ExampleEncodeV1() {
	counters := []encode.V1Counter{
		{CounterNameTitleIndex: 6, CounterType: engine.Timer100nsInv, CounterSize: 8},
		{CounterNameTitleIndex: 148, CounterType: engine.CounterCounter, CounterSize: 4},
	}
	blockLen := encode.V1Layout(counters)
	data, err := encode.EncodeV1(&encode.V1Blob{
		SystemName: "HOST", PerfFreq: 10_000_000,
		Objects: []encode.V1Object{{ObjectNameTitleIndex: 238, NumInstances: 2, Counters: counters, Instances: []encode.V1Instance{
			{Name: "0", UniqueID: -1, Values: []uint64{4_000_000, 1000}},
			{Name: "_Total", UniqueID: -1, Values: []uint64{4_000_000, 1000}},
		}}},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(data), "bytes; counter offsets", counters[0].CounterOffset, counters[1].CounterOffset, "in a", blockLen, "byte block")
	blk, err := perfdata.Parse(data)
	if err != nil {
		panic(err)
	}
	objs := blk.Objects()
	objs.Next()
	o := objs.Object()
	is := o.Instances()
	for is.Next() {
		name, _ := is.Instance().Name()
		fmt.Println(blk.SystemName(), o.ObjectNameTitleIndex, name)
	}
	// Output:
	// 368 bytes; counter offsets 8 16 in a 24 byte block
	// HOST 238 0
	// HOST 238 _Total
}
