package fuzz

import (
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/describe"
	"github.com/perfcalc/perfcalc/tools/encode"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// v2SeedData returns encoded results with every block kind.
func v2SeedData(f *testing.F) [][]byte {
	v := func(size uint32, x uint64) encode.V2Value { return encode.V2Value{Size: size, Value: x} }
	ds := []*encode.V2Data{
		{},
		{PerfTimeStamp: 5_000_000, PerfTime100NSec: 133_500_000_000_000_000, PerfFreq: 3_579_545, Blocks: []encode.V2CounterBlock{
			{Status: 0x10DA, Type: encode.V2ErrorReturn},
			{Type: encode.V2SingleCounter, Rows: []encode.V2Row{{Values: []encode.V2Value{v(8, 42)}}}},
			{Type: encode.V2MultipleCounters, CounterIDs: []uint32{1, 2}, Rows: []encode.V2Row{{Values: []encode.V2Value{v(4, 30), v(4, 120)}}}},
			{Type: encode.V2MultipleInstances, Rows: []encode.V2Row{
				{InstanceID: 0, Name: "0", Values: []encode.V2Value{v(8, 1)}},
				{InstanceID: 1, Name: "_Total", Values: []encode.V2Value{v(8, 2)}},
			}},
			{Type: encode.V2Counterset, CounterIDs: []uint32{0, 1, 2, 3, 4}, Rows: []encode.V2Row{
				{InstanceID: 7, Name: "svchost", Values: []encode.V2Value{v(8, 1), v(4, 2), v(4, 3), v(8, 4), v(8, 5)}},
			}},
		}},
	}
	var out [][]byte
	for _, d := range ds {
		b, err := encode.EncodeV2Data(d)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// v2FuzzReg is a registration whose counters use every kind of helper, for
// Fill on fuzzed results.
func v2FuzzReg(f *testing.F) perflibv2.RegInfo {
	const none = perflibv2.NoCounter
	b, err := encode.EncodeV2RegInfo(&encode.V2CounterSet{Counters: []encode.V2CounterRegInfo{
		{CounterID: 0, Type: engine.Timer100ns, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none},
		{CounterID: 1, Type: engine.RawFraction, BaseCounterID: 2, PerfTimeID: none, PerfFreqID: none, MultiID: none},
		{CounterID: 2, Type: engine.RawBase, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none},
		{CounterID: 3, Type: engine.ObjTimeTimer, BaseCounterID: none, PerfTimeID: 4, PerfFreqID: 2, MultiID: none},
		{CounterID: 4, Type: engine.MultiTimer100ns, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: 2},
	}})
	if err != nil {
		f.Fatal(err)
	}
	r, err := perflibv2.ParseRegInfo(b)
	if err != nil {
		f.Fatal(err)
	}
	return r
}

// FuzzV2Data: walking any input and pairing its values never panics, and
// every error is a FormatError with an offset.
func FuzzV2Data(f *testing.F) {
	addProjectSeeds(f, gencorpus.KindV2Data)
	for _, b := range v2SeedData(f) {
		f.Add(b)
	}
	reg := v2FuzzReg(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		var p perflibv2.Parser
		if _, err := p.Start(b); err != nil {
			ntCheckErr(t, err, "perflibv2")
			return
		}
		blocks := 0
		for p.Next() {
			blk := p.Block()
			blocks++
			if blk.Size%8 != 0 || blk.Size < 16 || blk.Offset+int(blk.Size) > len(b) {
				t.Fatalf("block %d: Size %d at %d in %d bytes", blk.Index, blk.Size, blk.Offset, len(b))
			}
			rows := blk.Rows()
			n := 0
			for rows.Next() {
				r := rows.Row()
				n++
				vs := r.Values()
				m := 0
				for vs.Next() {
					v := vs.Value()
					m++
					v.Uint64()
				}
				if m != blk.NumCounters() {
					t.Fatalf("block %d row %d: %d values, want %d", blk.Index, r.Index, m, blk.NumCounters())
				}
			}
			if n != blk.NumRows() {
				t.Fatalf("block %d: %d rows, want %d", blk.Index, n, blk.NumRows())
			}
		}
		if err := p.Err(); err != nil {
			ntCheckErr(t, err, "perflibv2")
		}
		ids := []uint32{0, 1, 2, 3, 4}
		for bi := range min(blocks, 4) {
			for id := range uint32(5) {
				var in engine.Input
				if _, err := perflibv2.Fill(&in, b, &reg, perflibv2.Selector{Block: bi, CounterID: id, IDs: ids}); err != nil {
					ntCheckErr(t, err, "perflibv2")
				}
				engine.Compute(&in, 0)
			}
		}
	})
}

// FuzzV2RegInfo: any input parses or fails with a FormatError; every
// counter of a parsed registration is readable and found by its id.
func FuzzV2RegInfo(f *testing.F) {
	addProjectSeeds(f, gencorpus.KindV2RegInfo)
	b, _ := encode.EncodeV2RegInfo(&encode.V2CounterSet{DetailLevel: 100, Counters: make([]encode.V2CounterRegInfo, 2)})
	f.Add(b)
	full, _ := encode.EncodeV2RegInfo(&encode.V2CounterSet{InstanceType: 2, Counters: []encode.V2CounterRegInfo{
		{CounterID: 1, Type: engine.RawFraction, BaseCounterID: 2}, {CounterID: 2, Type: engine.RawBase},
	}})
	f.Add(full)
	f.Fuzz(func(t *testing.T, b []byte) {
		reg, err := perflibv2.ParseRegInfo(b)
		if err != nil {
			ntCheckErr(t, err, "perflibv2")
			return
		}
		if int(reg.Header.NumCounters) != reg.Len() || 32+48*reg.Len() > len(b) {
			t.Fatalf("NumCounters %d, Len %d, %d bytes", reg.Header.NumCounters, reg.Len(), len(b))
		}
		for i := range reg.Len() {
			c := reg.Counter(i)
			if _, ok := reg.Lookup(c.CounterID); !ok {
				t.Fatalf("Lookup(%d) misses counter %d", c.CounterID, i)
			}
		}
	})
}

// FuzzV2Instances: walking any input never panics; errors are
// FormatErrors; records stay inside the input.
func FuzzV2Instances(f *testing.F) {
	addProjectSeeds(f, gencorpus.KindV2Instances)
	b, _ := encode.EncodeV2Instances([]encode.V2Instance{{InstanceID: 0, Name: "0"}, {InstanceID: 1, Name: "_Total"}, {InstanceID: 2, Name: ""}})
	f.Add(b)
	f.Add([]byte{8, 0, 0, 0, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var p perflibv2.InstanceParser
		p.Start(b)
		end := 0
		for p.Next() {
			inst := p.Instance()
			if inst.Offset != end || inst.Size < 8 || inst.Size%8 != 0 || 2*inst.Name.Len()+8 > int(inst.Size) {
				t.Fatalf("instance %d: %+v after %d", inst.Index, inst, end)
			}
			end += int(inst.Size)
		}
		if err := p.Err(); err != nil {
			ntCheckErr(t, err, "perflibv2")
			return
		}
		if end != len(b) {
			t.Fatalf("walk ended at %d of %d bytes without an error", end, len(b))
		}
	})
}

// FuzzV2Strings: any input parses (under a reading that passes its
// checks) or fails with a FormatError.
func FuzzV2Strings(f *testing.F) {
	addProjectSeeds(f, gencorpus.KindV2Strings)
	for _, s := range []*encode.V2Strings{
		{},
		{Strings: []encode.V2String{{CounterID: 1, Text: "% Processor Time"}, {CounterID: 2, None: true}, {CounterID: 3}}},
		{Strings: []encode.V2String{{CounterID: 1, Text: "% Processor Time"}, {CounterID: 2, Text: "x"}}, MSPCQ: true},
	} {
		b, err := encode.EncodeV2Strings(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// Found by fuzzing: a repeated counter id whose first record has no
	// string (Lookup answers for the first record).
	f.Add([]byte("H\x00\x00\x00\x03\x00\x00\x000000 \x00\x00\x000001\xff\xff\xff\xff00010\x00\x00\x0000000000000000000000000000000000000000\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := perflibv2.ParseStrings(b)
		if err != nil {
			ntCheckErr(t, err, "perflibv2")
		} else {
			r := s.Reading()
			if r != perflibv2.ReadingSDK && r != perflibv2.ReadingMSPCQ && r != perflibv2.ReadingAmbiguous {
				t.Fatalf("Reading %v", r)
			}
			if r == perflibv2.ReadingAmbiguous {
				r = perflibv2.ReadingSDK
			}
			if _, err := perflibv2.ParseStringsAs(b, r); err != nil {
				t.Fatalf("ParseStrings chose %v, but ParseStringsAs(%v) fails: %v", s.Reading(), r, err)
			}
			for i := range s.Len() {
				id, text, _ := s.At(i)
				// Lookup answers for the first record with the id.
				first := 0
				for fid, _, _ := s.At(first); fid != id; fid, _, _ = s.At(first) {
					first++
				}
				_, ft, fok := s.At(first)
				if lt, lok := s.Lookup(id); lok != fok || string(lt) != string(ft) {
					t.Fatalf("Lookup(%d): have %v, want record %d's %v", id, lok, first, fok)
				}
				if len(text) > int(s.Size) {
					t.Fatalf("At(%d): %d bytes in a %d-byte block", i, len(text), s.Size)
				}
			}
		}
		for _, r := range []perflibv2.Reading{perflibv2.ReadingSDK, perflibv2.ReadingMSPCQ} {
			if _, err := perflibv2.ParseStringsAs(b, r); err != nil {
				ntCheckErr(t, err, "perflibv2")
			}
		}
	})
}

// v2Gen builds descriptions from fuzzer bytes: each read consumes input,
// and an exhausted input reads zeros.
type v2Gen struct{ b []byte }

func (g *v2Gen) byte() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

func (g *v2Gen) u32() uint32 {
	return uint32(g.byte()) | uint32(g.byte())<<8 | uint32(g.byte())<<16 | uint32(g.byte())<<24
}

func (g *v2Gen) u64() uint64 { return uint64(g.u32()) | uint64(g.u32())<<32 }

// text returns a valid UTF-8 string without NUL and without surrogates.
func (g *v2Gen) text() string {
	var s []byte
	for range int(g.byte() % 12) {
		r := rune(g.byte()) | rune(g.byte()&0x1F)<<8
		if r == 0 || !utf8.ValidRune(r) || 0xD800 <= r && r < 0xE000 {
			r = 'x'
		}
		s = utf8.AppendRune(s, r)
	}
	return string(s)
}

// FuzzEncodeV2RoundTrip: descriptions built from the fuzzer's bytes encode,
// and decoding gives every field back, for all four blob kinds.
func FuzzEncodeV2RoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x05\x01\x02\x03\x04\x05\x06\x07\x08\x01\x04\x02\x03\x06\x02\x05abc\x04\x00\x01"))
	for _, b := range v2SeedData(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		g := &v2Gen{b: in}
		d := &encode.V2Data{PerfTimeStamp: int64(g.u64()), PerfTime100NSec: int64(g.u64()), PerfFreq: int64(g.u64()),
			SystemTime: wintype.SystemTime{Year: uint16(g.u32()), Milliseconds: uint16(g.u32())}}
		value := func() encode.V2Value {
			size := uint32(g.byte() % 9)
			x := g.u64()
			if size < 8 {
				x &= 1<<(8*size) - 1
			}
			return encode.V2Value{Size: size, Value: x}
		}
		for range int(g.byte() % 6) {
			b := encode.V2CounterBlock{Status: g.u32() & 0xFF}
			kind := g.byte() % 5
			nIDs := int(g.byte() % 4)
			nRows := int(g.byte() % 4)
			switch kind {
			case 0:
				b.Type = encode.V2ErrorReturn
			case 1, 2:
				b.Type = encode.V2SingleCounter
				if kind == 2 {
					b.Type = encode.V2MultipleCounters
				}
				nRows = 1
			case 3:
				b.Type = encode.V2MultipleInstances
			default:
				b.Type = encode.V2Counterset
			}
			if b.Type == encode.V2MultipleCounters || b.Type == encode.V2Counterset {
				b.CounterIDs = []uint32{}
				for range nIDs {
					b.CounterIDs = append(b.CounterIDs, g.u32())
				}
			}
			if b.Type != encode.V2ErrorReturn {
				perRow := 1
				if b.CounterIDs != nil {
					perRow = len(b.CounterIDs)
				}
				for range nRows {
					var r encode.V2Row
					if b.Type == encode.V2MultipleInstances || b.Type == encode.V2Counterset {
						r.InstanceID, r.Name = g.u32(), g.text()
					}
					for range perRow {
						r.Values = append(r.Values, value())
					}
					b.Rows = append(b.Rows, r)
				}
			}
			d.Blocks = append(d.Blocks, b)
		}
		blob, err := encode.EncodeV2Data(d)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		have, err := describe.V2Data(blob)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if !reflect.DeepEqual(have, d) {
			t.Fatalf("data round trip:\nhave %+v\nwant %+v", have, d)
		}

		// Instances, registration and strings from the same bytes.
		var insts []encode.V2Instance
		var strs encode.V2Strings
		strs.MSPCQ = g.byte()%2 == 1
		cs := &encode.V2CounterSet{CounterSetType: g.u32(), DetailLevel: g.u32(), InstanceType: g.u32()}
		for i := range cs.GUID {
			cs.GUID[i] = g.byte()
		}
		for range int(g.byte() % 5) {
			insts = append(insts, encode.V2Instance{InstanceID: g.u32(), Name: g.text()})
			strs.Strings = append(strs.Strings, encode.V2String{CounterID: g.u32(), Text: g.text(), None: g.byte()%3 == 0})
			cs.Counters = append(cs.Counters, encode.V2CounterRegInfo{CounterID: g.u32(), Type: engine.CounterType(g.u32()), Attrib: g.u64(),
				DetailLevel: g.u32(), DefaultScale: int32(g.u32()), BaseCounterID: g.u32(), PerfTimeID: g.u32(), PerfFreqID: g.u32(),
				MultiID: g.u32(), AggregateFunc: g.u32(), Reserved: g.u32()})
		}
		ib, err := encode.EncodeV2Instances(insts)
		if err != nil {
			t.Fatal(err)
		}
		var ip perflibv2.InstanceParser
		ip.Start(ib)
		i := 0
		for ; ip.Next(); i++ {
			inst := ip.Instance()
			if i >= len(insts) || inst.InstanceID != insts[i].InstanceID || inst.Name.String() != insts[i].Name {
				t.Fatalf("instance %d: have %+v", i, *inst)
			}
		}
		if err := ip.Err(); err != nil {
			t.Fatal(err)
		}
		if i != len(insts) {
			t.Fatalf("instances: have %d, want %d", i, len(insts))
		}
		rb, err := encode.EncodeV2RegInfo(cs)
		if err != nil {
			t.Fatal(err)
		}
		reg, err := perflibv2.ParseRegInfo(rb)
		if err != nil || reg.Header.CounterSetGUID != perflibv2.GUID(cs.GUID) || reg.Header.DetailLevel != cs.DetailLevel || reg.Len() != len(cs.Counters) {
			t.Fatalf("reg info: have %+v, %v", reg.Header, err)
		}
		for i, c := range cs.Counters {
			if encode.V2CounterRegInfo(reg.Counter(i)) != c {
				t.Fatalf("reg counter %d: have %+v, want %+v", i, reg.Counter(i), c)
			}
		}
		sb, err := encode.EncodeV2Strings(&strs)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := perflibv2.ParseStrings(sb)
		if err != nil {
			t.Fatalf("strings: %v", err)
		}
		for i, w := range strs.Strings {
			id, text, ok := sp.At(i)
			if id != w.CounterID || ok == w.None || ok && text.String() != w.Text {
				t.Fatalf("string %d (%v reading): have %d %q %v, want %+v", i, sp.Reading(), id, text.String(), ok, w)
			}
		}
	})
}
