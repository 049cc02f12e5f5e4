package perfdata_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// firstObject parses data and returns its first object and the first
// instance's counter block.
func firstObject(t *testing.T, data []byte) (perfdata.Object, perfdata.CounterBlock) {
	t.Helper()
	blk, err := perfdata.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	objs := blk.Objects()
	if !objs.Next() {
		t.Fatal(objs.Err())
	}
	o := objs.Object()
	is := o.Instances()
	if !is.Next() {
		t.Fatal(is.Err())
	}
	in := is.Instance()
	return *o, in.CounterBlock
}

// TestFill checks the engine input of each kind of counter: time bases,
// bases, multi counts, missing and wrong bases.
func TestFill(t *testing.T) {
	const (
		blockTime, blockFreq, block100ns = 1000, 100, 5_000_000
		objTime, objFreq                 = 777, 50
	)
	c := func(t engine.CounterType, size uint32) encode.V1Counter {
		return encode.V1Counter{CounterType: t, CounterSize: size}
	}
	counters := laid(
		encode.V1Counter{CounterType: engine.CounterCounter, CounterSize: 4, DefaultScale: -2}, // 0
		c(engine.Timer100ns, 8),          // 1
		c(engine.ObjTimeTimer, 8),        // 2
		c(engine.ElapsedTime, 8),         // 3
		c(engine.RawFraction, 4),         // 4
		c(engine.RawBase, 4),             // 5
		c(engine.AverageTimer, 4),        // 6: 4 bytes, as in real data
		c(engine.AverageBase, 4),         // 7
		c(engine.Precision100nsTimer, 8), // 8
		c(engine.PrecisionTimestamp, 8),  // 9
		c(engine.CounterMultiTimer, 8),   // 10
		c(engine.CounterMultiBase, 8),    // 11
		c(engine.MultiTimer100ns, 8),     // 12: trailing DWORD
		c(engine.LargeRawFraction, 8),    // 13: followed by a non-base
		c(engine.CounterRawcount, 4),     // 14
		c(engine.CounterNodata, 0),       // 15
		c(engine.SampleFraction, 4),      // 16: last, no base
	)
	values := []uint64{11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 25, 26, 0, 27}
	multi := make([]uint32, len(counters))
	multi[12] = 24
	data := mustEncode(t, encode.V1Blob{PerfTime: blockTime, PerfFreq: blockFreq, PerfTime100nSec: block100ns, Objects: []encode.V1Object{{
		NumInstances: 1, PerfTime: objTime, PerfFreq: objFreq, Counters: counters,
		Instances: []encode.V1Instance{{Name: "x", Values: values, MultiCounts: multi}},
	}}})
	o, cb := firstObject(t, data)
	bad := engine.CStatusInvalidData
	for _, tc := range []struct {
		i      int
		tb     int64
		second uint64
		mc     uint32
		status uint32
		scale  int32
	}{
		{0, blockFreq, blockTime, 0, 0, -2},
		{1, 10_000_000, block100ns, 0, 0, 0},
		{2, objFreq, objTime, 0, 0, 0},
		{3, objFreq, objTime, 0, 0, 0},
		{4, blockFreq, 16, 0, 0, 0},
		{5, blockFreq, blockTime, 0, 0, 0},
		{6, blockFreq, 18, 0, 0, 0},
		{8, 10_000_000, 20, 0, 0, 0},
		{10, blockFreq, blockTime, 22, 0, 0},
		{12, 10_000_000, block100ns, 24, 0, 0},
		{13, blockFreq, 0, 0, bad, 0},
		{15, 0, 0, 0, 0, 0},
		{16, blockFreq, 0, 0, bad, 0},
	} {
		def, err := o.Counter(tc.i)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(def.CounterType.String(), func(t *testing.T) {
			in := engine.Input{HasOld: true, Old: engine.RawCounter{FirstValue: 1}}
			if err := o.Fill(&in, &def, cb); err != nil {
				t.Fatal(err)
			}
			want := engine.Input{
				Counter: engine.Counter{Type: def.CounterType, Scale: tc.scale, TimeBase: tc.tb},
				HasOld:  true, Old: engine.RawCounter{FirstValue: 1},
				New: engine.RawCounter{CStatus: tc.status, TimeStamp: block100ns, FirstValue: values[tc.i], SecondValue: tc.second, MultiCount: tc.mc},
			}
			if def.CounterType == engine.CounterNodata {
				want.TimeBase, want.New.SecondValue = blockFreq, blockTime
			}
			if in != want {
				t.Errorf("input:\nhave %+v\nwant %+v", in, want)
			}
		})
	}

	// A raw fraction computes from its base: 15/16 = 93.75 %.
	def, _ := o.Counter(4)
	var in engine.Input
	if err := o.Fill(&in, &def, cb); err != nil {
		t.Fatal(err)
	}
	if r := engine.Compute(&in, 0); r.Status != engine.Valid || r.Value != 93.75 {
		t.Errorf("raw fraction: have %v %v, want 93.75 Valid", r.Value, r.Status)
	}
	// A missing base gives InvalidData.
	def, _ = o.Counter(16)
	if err := o.Fill(&in, &def, cb); err != nil {
		t.Fatal(err)
	}
	in.HasOld, in.Old = true, in.New
	if r := engine.Compute(&in, 0); r.Status != engine.InvalidData {
		t.Errorf("missing base: have %v, want InvalidData", r.Status)
	}
}

// TestFillMissingTrailingCount moves a multi timer's value to the end of its
// counter block, so that its trailing DWORD is missing.
func TestFillMissingTrailingCount(t *testing.T) {
	data := mustEncode(t, encode.V1Blob{Objects: []encode.V1Object{{
		NumInstances: 1, Counters: []encode.V1Counter{{CounterType: engine.MultiTimer100nsInv, CounterSize: 8, CounterOffset: 8}},
		Instances: []encode.V1Instance{{Name: "x", Values: []uint64{5}, MultiCounts: []uint32{3}}},
	}}})
	o, cb := firstObject(t, data)
	def, _ := o.Counter(0)
	for _, tc := range []struct {
		name   string
		offset uint32
		mc     uint32
		status uint32
	}{
		{"present", 8, 3, 0},
		{"missing", cb.ByteLength - 8, 0, engine.CStatusInvalidData},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := append([]byte(nil), data...)
			binary.LittleEndian.PutUint32(b[def.Offset+36:], tc.offset)
			o, cb := firstObject(t, b)
			def, _ := o.Counter(0)
			var in engine.Input
			if err := o.Fill(&in, &def, cb); err != nil {
				t.Fatal(err)
			}
			if in.New.MultiCount != tc.mc || in.New.CStatus != tc.status {
				t.Errorf("have MultiCount %d CStatus %#x, want %d %#x", in.New.MultiCount, in.New.CStatus, tc.mc, tc.status)
			}
		})
	}
}

// TestValue reads 4- and 8-byte values, aligned or not, and refuses other
// sizes and values outside the block.
func TestValue(t *testing.T) {
	data := mustEncode(t, encode.V1Blob{Objects: []encode.V1Object{{
		NumInstances: 1, Counters: []encode.V1Counter{
			{CounterType: engine.CounterRawcount, CounterSize: 4, CounterOffset: 8},
			{CounterType: engine.CounterLargeRawcount, CounterSize: 8, CounterOffset: 16},
			{CounterType: engine.CounterRawcount, CounterSize: 4, CounterOffset: 25},
			{CounterType: engine.CounterLargeRawcount, CounterSize: 8, CounterOffset: 29},
		},
		Instances: []encode.V1Instance{{Name: "x", Values: []uint64{0xA1B2C3D4, 0x0102030405060708, 0xCAFEBABE, 0xFFEEDDCCBBAA9988}}},
	}}})
	o, cb := firstObject(t, data)
	for i, want := range []uint64{0xA1B2C3D4, 0x0102030405060708, 0xCAFEBABE, 0xFFEEDDCCBBAA9988} {
		def, _ := o.Counter(i)
		have, err := cb.Value(&def)
		if err != nil || have != want {
			t.Errorf("value %d: have %#x, %v; want %#x", i, have, err, want)
		}
	}
	for _, tc := range []struct {
		name         string
		size, offset uint32
		err          error
	}{
		{"size 2", 2, 8, engine.ErrUnsupported},
		{"size 16", 16, 8, engine.ErrUnsupported},
		{"size 0", 0, 8, engine.ErrUnsupported},
		{"past the end", 8, cb.ByteLength - 4, engine.ErrMalformed},
		{"far outside", 4, 1 << 31, engine.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			def, _ := o.Counter(0)
			def.CounterSize, def.CounterOffset = tc.size, tc.offset
			_, err := cb.Value(&def)
			checkFormatError(t, err)
			if !errors.Is(err, tc.err) {
				t.Errorf("error: have %v, want %v", err, tc.err)
			}
		})
	}
}

// TestCounterNonUniform reads definitions longer than 40 bytes by index.
func TestCounterNonUniform(t *testing.T) {
	data := mustEncode(t, encode.V1Blob{Objects: []encode.V1Object{{
		NumInstances: 0, Counters: laid(
			encode.V1Counter{CounterNameTitleIndex: 10, CounterType: engine.CounterRawcount, CounterSize: 4},
			encode.V1Counter{CounterNameTitleIndex: 12, CounterType: engine.CounterRawcount, CounterSize: 4},
			encode.V1Counter{CounterNameTitleIndex: 14, CounterType: engine.CounterRawcount, CounterSize: 4},
		),
	}}})
	// Rebuild the object with an 8-byte tail after the first definition.
	blk, _ := perfdata.Parse(data)
	objs := blk.Objects()
	objs.Next()
	o := objs.Object()
	d0 := o.Offset + int(o.HeaderLength)
	b := append([]byte(nil), data[:d0+40]...)
	b = append(b, make([]byte, 8)...)
	b = append(b, data[d0+40:]...)
	le := binary.LittleEndian
	le.PutUint32(b[20:], le.Uint32(b[20:])+8)
	le.PutUint32(b[o.Offset:], o.TotalByteLength+8)
	le.PutUint32(b[o.Offset+4:], o.DefinitionLength+8)
	le.PutUint32(b[d0:], 48)
	blk, err := perfdata.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	objs = blk.Objects()
	if !objs.Next() {
		t.Fatal(objs.Err())
	}
	o = objs.Object()
	for i, want := range []uint32{10, 12, 14} {
		c, err := o.Counter(i)
		if err != nil || c.CounterNameTitleIndex != want {
			t.Errorf("counter %d: have %d, %v; want %d", i, c.CounterNameTitleIndex, err, want)
		}
	}
	if _, err := o.Counter(3); err == nil {
		t.Error("counter 3 of 3: have no error, want one")
	}
}

// TestFillPairing checks which definitions after a fraction count as its
// base.
func TestFillPairing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		next   engine.CounterType
		size   uint32
		status uint32
	}{
		{"own base", engine.RawBase, 4, 0},
		{"another base type", engine.LargeRawBase, 8, 0},
		{"average base", engine.AverageBase, 4, 0},
		{"multi base", engine.CounterMultiBase, 8, engine.CStatusInvalidData},
		{"not a base", engine.CounterRawcount, 4, engine.CStatusInvalidData},
		{"unknown type", engine.CounterType(0x40030404), 4, engine.CStatusInvalidData},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := mustEncode(t, encode.V1Blob{Objects: []encode.V1Object{{
				NumInstances: 1, Counters: laid(encode.V1Counter{CounterType: engine.RawFraction, CounterSize: 4}, encode.V1Counter{CounterType: tc.next, CounterSize: tc.size}),
				Instances: []encode.V1Instance{{Name: "x", Values: []uint64{3, 4}}},
			}}})
			o, cb := firstObject(t, data)
			def, _ := o.Counter(0)
			var in engine.Input
			if err := o.Fill(&in, &def, cb); err != nil {
				t.Fatal(err)
			}
			wantB := uint64(4)
			if tc.status != 0 {
				wantB = 0
			}
			if in.New.CStatus != tc.status || in.New.SecondValue != wantB {
				t.Errorf("have CStatus %#x B %d, want %#x %d", in.New.CStatus, in.New.SecondValue, tc.status, wantB)
			}
		})
	}
}
