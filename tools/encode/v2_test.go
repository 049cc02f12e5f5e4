package encode_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/describe"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// v2Normalize makes empty slices nil, ids excepted, as the decoder builds
// them.
func v2Normalize(d *encode.V2Data) {
	if len(d.Blocks) == 0 {
		d.Blocks = nil
	}
	for i := range d.Blocks {
		b := &d.Blocks[i]
		if b.Type == encode.V2MultipleCounters || b.Type == encode.V2Counterset {
			if b.CounterIDs == nil {
				b.CounterIDs = []uint32{}
			}
		}
		if len(b.Rows) == 0 {
			b.Rows = nil
		}
		for j := range b.Rows {
			if len(b.Rows[j].Values) == 0 {
				b.Rows[j].Values = nil
			}
		}
	}
}

func v2RandName(r *rand.Rand) string {
	if r.IntN(5) == 0 {
		return ""
	}
	return ntRandText(r)
}

// v2RandData returns a random description with every block kind.
func v2RandData(r *rand.Rand) *encode.V2Data {
	d := &encode.V2Data{
		PerfTimeStamp: int64(r.Uint64()), PerfTime100NSec: int64(r.Uint64()), PerfFreq: int64(r.Uint64()),
		SystemTime: wintype.SystemTime{Year: uint16(r.Uint32()), Month: uint16(r.Uint32()), DayOfWeek: uint16(r.Uint32()), Day: uint16(r.Uint32()),
			Hour: uint16(r.Uint32()), Minute: uint16(r.Uint32()), Second: uint16(r.Uint32()), Milliseconds: uint16(r.Uint32())},
	}
	value := func() encode.V2Value {
		size := uint32(r.IntN(9))
		if r.IntN(2) == 0 {
			size = 4 + 4*uint32(r.IntN(2))
		}
		x := r.Uint64()
		if size < 8 {
			x &= 1<<(8*size) - 1
		}
		return encode.V2Value{Size: size, Value: x}
	}
	values := func(n int) []encode.V2Value {
		vs := make([]encode.V2Value, n)
		for i := range vs {
			vs[i] = value()
		}
		return vs
	}
	ids := func() []uint32 {
		ids := make([]uint32, r.IntN(6))
		for i := range ids {
			ids[i] = r.Uint32()
		}
		return ids
	}
	for range r.IntN(8) {
		b := encode.V2CounterBlock{Status: 0}
		if r.IntN(4) == 0 {
			b.Status = r.Uint32()
		}
		switch r.IntN(5) {
		case 0:
			b.Type = encode.V2ErrorReturn
		case 1:
			b.Type = encode.V2SingleCounter
			b.Rows = []encode.V2Row{{Values: values(1)}}
		case 2:
			b.Type = encode.V2MultipleCounters
			b.CounterIDs = ids()
			b.Rows = []encode.V2Row{{Values: values(len(b.CounterIDs))}}
		case 3:
			b.Type = encode.V2MultipleInstances
			for range r.IntN(5) {
				b.Rows = append(b.Rows, encode.V2Row{InstanceID: r.Uint32(), Name: v2RandName(r), Values: values(1)})
			}
		default:
			b.Type = encode.V2Counterset
			b.CounterIDs = ids()
			for range r.IntN(5) {
				b.Rows = append(b.Rows, encode.V2Row{InstanceID: r.Uint32(), Name: v2RandName(r), Values: values(len(b.CounterIDs))})
			}
		}
		d.Blocks = append(d.Blocks, b)
	}
	return d
}

func TestV2DataRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := range 500 {
		want := v2RandData(r)
		b, err := encode.EncodeV2Data(want)
		if err != nil {
			t.Fatalf("iteration %d: encode: %v", iter, err)
		}
		if len(b)%8 != 0 {
			t.Fatalf("iteration %d: %d bytes, want a multiple of 8", iter, len(b))
		}
		have, err := describe.V2Data(b)
		if err != nil {
			t.Fatalf("iteration %d: decode: %v", iter, err)
		}
		v2Normalize(want)
		if !reflect.DeepEqual(have, want) {
			t.Fatalf("iteration %d: round trip:\nhave %+v\nwant %+v", iter, have, want)
		}
	}
}

func TestV2DataLayout(t *testing.T) {
	b, err := encode.EncodeV2Data(&encode.V2Data{Blocks: []encode.V2CounterBlock{
		{Type: encode.V2Counterset, CounterIDs: []uint32{5}, Rows: []encode.V2Row{
			{InstanceID: 3, Name: "ab", Values: []encode.V2Value{{Size: 4, Value: 0x11223344}}},
		}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{
		96, 0, 0, 0, 1, 0, 0, 0, // PERF_DATA_HEADER: dwTotalSize, dwNumCounters
	}
	want = append(want, make([]byte, 40)...)
	want = append(want,
		0, 0, 0, 0, 6, 0, 0, 0, 48, 0, 0, 0, 0, 0, 0, 0, // PERF_COUNTER_HEADER: status, type, dwSize, reserved
		16, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, // PERF_MULTI_COUNTERS: dwSize, dwCounters, id, pad
		40, 0, 0, 0, 1, 0, 0, 0, // PERF_MULTI_INSTANCES: dwTotalSize (8+16+16), dwInstances
		16, 0, 0, 0, 3, 0, 0, 0, 'a', 0, 'b', 0, 0, 0, 0, 0, // PERF_INSTANCE_HEADER: Size, InstanceId, name, pad
		4, 0, 0, 0, 16, 0, 0, 0, 0x44, 0x33, 0x22, 0x11, 0, 0, 0, 0, // PERF_COUNTER_DATA: dwDataSize, dwSize, value, pad
	)
	// PERF_COUNTER_HEADER.dwSize covers 16+16+8+16+16 = 72 bytes.
	want[48+8] = 72
	want[0] = 48 + 72
	if !slices.Equal(b, want) {
		t.Errorf("have % x\nwant % x", b, want)
	}
}

func TestV2DataEncodeErrors(t *testing.T) {
	one := []encode.V2Row{{Values: []encode.V2Value{{Size: 4, Value: 1}}}}
	for _, tc := range []struct {
		name string
		blk  encode.V2CounterBlock
		want string
	}{
		{"unknown type", encode.V2CounterBlock{Type: 3}, "encode: V2 block 1: Type 3 is not a PerfCounterDataType"},
		{"error block with rows", encode.V2CounterBlock{Type: encode.V2ErrorReturn, Rows: one}, "encode: V2 block 1: PERF_ERROR_RETURN has no counter ids or rows"},
		{"single counter with ids", encode.V2CounterBlock{Type: encode.V2SingleCounter, CounterIDs: []uint32{1}, Rows: one}, "encode: V2 block 1: this Type has no counter ids"},
		{"single counter, two rows", encode.V2CounterBlock{Type: encode.V2SingleCounter, Rows: append(one, one...)}, "encode: V2 block 1: a block without instances has exactly one row, not 2"},
		{"single counter, no row", encode.V2CounterBlock{Type: encode.V2SingleCounter}, "encode: V2 block 1: a block without instances has exactly one row, not 0"},
		{"multiple counters, value count", encode.V2CounterBlock{Type: encode.V2MultipleCounters, CounterIDs: []uint32{1, 2}, Rows: one}, "encode: V2 block 1 row 0: has 1 values, want 2"},
		{"instance on a block without", encode.V2CounterBlock{Type: encode.V2SingleCounter, Rows: []encode.V2Row{{Name: "x", Values: one[0].Values}}}, "encode: V2 block 1 row 0: has an instance, but the block's Type has none"},
		{"value too large", encode.V2CounterBlock{Type: encode.V2SingleCounter, Rows: []encode.V2Row{{Values: []encode.V2Value{{Size: 4, Value: 1 << 32}}}}}, "encode: V2 block 1 row 0 value 0: Value does not fit in Size 4"},
		{"value size 9", encode.V2CounterBlock{Type: encode.V2SingleCounter, Rows: []encode.V2Row{{Values: []encode.V2Value{{Size: 9}}}}}, "encode: V2 block 1 row 0 value 0: Value does not fit in Size 9"},
		{"NUL in a name", encode.V2CounterBlock{Type: encode.V2MultipleInstances, Rows: []encode.V2Row{{Name: "a\x00", Values: one[0].Values}}}, "encode: V2 block 1 row 0: instance name holds a NUL"},
		{"invalid UTF-8 name", encode.V2CounterBlock{Type: encode.V2MultipleInstances, Rows: []encode.V2Row{{Name: "\xff", Values: one[0].Values}}}, "encode: V2 block 1 row 0: instance name is not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := []byte{7}
			have, err := encode.AppendV2Data(dst, &encode.V2Data{Blocks: []encode.V2CounterBlock{{Type: encode.V2ErrorReturn}, tc.blk}})
			if err == nil || err.Error() != tc.want {
				t.Errorf("error: have %v, want %q", err, tc.want)
			}
			if !slices.Equal(have, []byte{7}) {
				t.Errorf("dst: have % x, want it unchanged", have)
			}
		})
	}
}

func TestV2RegInfoRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for iter := range 200 {
		want := &encode.V2CounterSet{CounterSetType: r.Uint32(), DetailLevel: r.Uint32(), InstanceType: r.Uint32()}
		for i := range want.GUID {
			want.GUID[i] = byte(r.Uint32())
		}
		for range r.IntN(10) {
			want.Counters = append(want.Counters, encode.V2CounterRegInfo{
				CounterID: r.Uint32(), Type: engine.CounterType(r.Uint32()), Attrib: r.Uint64(), DetailLevel: r.Uint32(),
				DefaultScale: int32(r.Uint32()), BaseCounterID: r.Uint32(), PerfTimeID: r.Uint32(), PerfFreqID: r.Uint32(),
				MultiID: r.Uint32(), AggregateFunc: r.Uint32(), Reserved: r.Uint32(),
			})
		}
		b, err := encode.EncodeV2RegInfo(want)
		if err != nil {
			t.Fatal(err)
		}
		reg, err := perflibv2.ParseRegInfo(b)
		if err != nil {
			t.Fatalf("iteration %d: %v", iter, err)
		}
		have := &encode.V2CounterSet{GUID: reg.Header.CounterSetGUID, CounterSetType: reg.Header.CounterSetType,
			DetailLevel: reg.Header.DetailLevel, InstanceType: reg.Header.InstanceType}
		for i := range reg.Len() {
			have.Counters = append(have.Counters, encode.V2CounterRegInfo(reg.Counter(i)))
		}
		if !reflect.DeepEqual(have, want) {
			t.Fatalf("iteration %d: round trip:\nhave %+v\nwant %+v", iter, have, want)
		}
	}
}

func TestV2InstancesRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for iter := range 200 {
		var want []encode.V2Instance
		for range r.IntN(10) {
			want = append(want, encode.V2Instance{InstanceID: r.Uint32(), Name: v2RandName(r)})
		}
		b, err := encode.EncodeV2Instances(want)
		if err != nil {
			t.Fatal(err)
		}
		var p perflibv2.InstanceParser
		p.Start(b)
		var have []encode.V2Instance
		for p.Next() {
			inst := p.Instance()
			have = append(have, encode.V2Instance{InstanceID: inst.InstanceID, Name: inst.Name.String()})
		}
		if err := p.Err(); err != nil {
			t.Fatalf("iteration %d: %v", iter, err)
		}
		if !slices.Equal(have, want) {
			t.Fatalf("iteration %d: round trip:\nhave %+v\nwant %+v", iter, have, want)
		}
	}
	if _, err := encode.EncodeV2Instances([]encode.V2Instance{{Name: "ok"}, {Name: "a\x00"}}); err == nil || err.Error() != "encode: V2 instance 1: instance name holds a NUL" {
		t.Errorf("NUL in a name: have %v", err)
	}
}

func TestV2StringsRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for iter := range 300 {
		want := &encode.V2Strings{MSPCQ: r.IntN(2) == 0}
		present := false
		for range r.IntN(8) {
			s := encode.V2String{CounterID: r.Uint32()}
			if r.IntN(4) == 0 {
				s.None = true
			} else if r.IntN(5) != 0 {
				s.Text = ntRandText(r)
			}
			present = present || !s.None
			want.Strings = append(want.Strings, s)
		}
		b, err := encode.EncodeV2Strings(want)
		if err != nil {
			t.Fatal(err)
		}
		sb, err := perflibv2.ParseStrings(b)
		if err != nil {
			t.Fatalf("iteration %d: %v", iter, err)
		}
		wantReading := perflibv2.ReadingSDK
		switch {
		case !present:
			wantReading = perflibv2.ReadingAmbiguous
		case want.MSPCQ:
			wantReading = perflibv2.ReadingMSPCQ
		}
		if sb.Reading() != wantReading {
			t.Fatalf("iteration %d: Reading: have %v, want %v", iter, sb.Reading(), wantReading)
		}
		have := &encode.V2Strings{MSPCQ: want.MSPCQ}
		for i := range sb.Len() {
			id, text, ok := sb.At(i)
			have.Strings = append(have.Strings, encode.V2String{CounterID: id, Text: text.String(), None: !ok})
		}
		if len(have.Strings) == 0 {
			have.Strings = nil
		}
		if !reflect.DeepEqual(have, want) {
			t.Fatalf("iteration %d: round trip:\nhave %+v\nwant %+v", iter, have, want)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"a\x00", "encode: V2 string 0: text holds a NUL"},
		{"\xfe", "encode: V2 string 0: text is not valid UTF-8"},
	} {
		if _, err := encode.EncodeV2Strings(&encode.V2Strings{Strings: []encode.V2String{{Text: tc.text}}}); err == nil || err.Error() != tc.want {
			t.Errorf("EncodeV2Strings(%q): have %v, want %q", tc.text, err, tc.want)
		}
	}
}

// TestV2EncodedTruncation: every cut of an encoded blob of every kind
// fails with a FormatError (or, for arrays that may end anywhere between
// records, parses), never panics.
func TestV2EncodedTruncation(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var d *encode.V2Data
	for d == nil || len(d.Blocks) < 5 {
		d = v2RandData(r)
	}
	data, _ := encode.EncodeV2Data(d)
	reg, _ := encode.EncodeV2RegInfo(&encode.V2CounterSet{Counters: make([]encode.V2CounterRegInfo, 3)})
	insts, _ := encode.EncodeV2Instances([]encode.V2Instance{{Name: "abc"}, {Name: "_Total"}})
	strs, _ := encode.EncodeV2Strings(&encode.V2Strings{Strings: []encode.V2String{{Text: "abc"}, {Text: "de"}}})
	isFE := func(err error) bool {
		var fe *engine.FormatError
		return errors.As(err, &fe) && strings.Contains(err.Error(), " at 0x")
	}
	for n := range len(data) {
		if _, err := describe.V2Data(data[:n]); !isFE(err) {
			t.Errorf("data cut at %d: have %v, want a FormatError", n, err)
		}
	}
	for n := range len(reg) {
		if _, err := perflibv2.ParseRegInfo(reg[:n]); !isFE(err) {
			t.Errorf("reg info cut at %d: have %v, want a FormatError", n, err)
		}
	}
	for n := range len(strs) {
		if _, err := perflibv2.ParseStrings(strs[:n]); !isFE(err) {
			t.Errorf("strings cut at %d: have %v, want a FormatError", n, err)
		}
	}
	for n := range len(insts) {
		var p perflibv2.InstanceParser
		p.Start(insts[:n])
		for p.Next() {
		}
		err := p.Err()
		if n%16 != 0 && !isFE(err) || n == 16 && err != nil {
			t.Errorf("instances cut at %d: have %v", n, err)
		}
	}
}

func ExampleEncodeV2Data() {
	b, err := encode.EncodeV2Data(&encode.V2Data{
		PerfFreq: 10_000_000,
		Blocks: []encode.V2CounterBlock{{
			Type: encode.V2MultipleInstances,
			Rows: []encode.V2Row{{InstanceID: 0, Name: "_Total", Values: []encode.V2Value{{Size: 8, Value: 42}}}},
		}},
	})
	if err != nil {
		panic(err)
	}
	var p perflibv2.Parser
	h, _ := p.Start(b)
	p.Next()
	blk := p.Block()
	fmt.Println(len(b), h.TotalSize, blk.Type, blk.Size)
	// Output:
	// 112 112 PERF_MULTIPLE_INSTANCES 64
}
