package query_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/encode"
)

const none = perflibv2.NoCounter

// v2Reg is a counterset with a rate, a raw fraction and its base, and a
// 100 ns timer.
func v2Reg(t testing.TB) (*perflibv2.RegInfo, *perflibv2.StringBuffer) {
	t.Helper()
	c := func(id uint32, typ engine.CounterType, base uint32, scale int32) encode.V2CounterRegInfo {
		return encode.V2CounterRegInfo{CounterID: id, Type: typ, DetailLevel: 100, DefaultScale: scale,
			BaseCounterID: base, PerfTimeID: none, PerfFreqID: none, MultiID: none}
	}
	regData, err := encode.EncodeV2RegInfo(&encode.V2CounterSet{
		GUID: [16]byte{1, 2, 3, 4}, DetailLevel: 100, InstanceType: perflibv2.CountersetMultiInstances,
		Counters: []encode.V2CounterRegInfo{
			c(1, engine.CounterCounter, none, -1),
			c(2, engine.RawFraction, 3, 0),
			c(3, engine.RawBase, none, 0),
			c(4, engine.Timer100ns, none, 0),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := perflibv2.ParseRegInfo(regData)
	if err != nil {
		t.Fatal(err)
	}
	strData, err := encode.EncodeV2Strings(&encode.V2Strings{Strings: []encode.V2String{
		{CounterID: 1, Text: "Requests/sec"}, {CounterID: 2, Text: "% Hit"}, {CounterID: 3, Text: "% Hit Base"}, {CounterID: 4, Text: "% Busy"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	strs, err := perflibv2.ParseStrings(strData)
	if err != nil {
		t.Fatal(err)
	}
	return &reg, &strs
}

type v2inst struct {
	name                   string
	requests, hit, busy100 uint64
}

// v2Data encodes a PERF_COUNTERSET block of every counter for the
// instances, at time sec (1000 QPC ticks per second).
func v2Data(t testing.TB, sec int64, insts []v2inst) []byte {
	t.Helper()
	blk := encode.V2CounterBlock{Type: encode.V2Counterset, CounterIDs: []uint32{1, 2, 3, 4}}
	for i, in := range insts {
		blk.Rows = append(blk.Rows, encode.V2Row{InstanceID: uint32(i), Name: in.name, Values: []encode.V2Value{
			{Size: 4, Value: in.requests}, {Size: 4, Value: in.hit}, {Size: 4, Value: 8}, {Size: 8, Value: in.busy100},
		}})
	}
	data, err := encode.EncodeV2Data(&encode.V2Data{PerfTimeStamp: sec * 1000, PerfFreq: 1000, PerfTime100NSec: sec * secondIn100n,
		Blocks: []encode.V2CounterBlock{blk}})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestV2(t *testing.T) {
	reg, strs := v2Reg(t)
	older := v2Data(t, 10, []v2inst{{"w3wp", 100, 1, 0}, {"gone", 0, 0, 0}, {"W3WP", 50, 1, 0}})
	newer := v2Data(t, 12, []v2inst{{"new", 1, 2, 3}, {"w3wp", 300, 2, 5_000_000}, {"w3wp", 50, 4, 0}})
	rate := func(d uint64) float64 { return f(float64(d)) / (f(2000) / f(1000)) }
	busy := func(d uint64) float64 { return (f(float64(d)) / f(2*secondIn100n)) * 100 }
	hit := func(n uint64) float64 { return (f(float64(n)) / f(8)) * 100 }
	q := query.New(query.Config{RegInfo: reg, Strings: strs, CounterSet: "Web"})
	vals, err := q.Run(nil, older, newer)
	if err != nil {
		t.Fatal(err)
	}
	checkValues(t, vals, []result{
		{`\Web(new)\Requests/sec`, 0, engine.NewData},
		{`\Web(new)\% Hit`, hit(2), engine.Valid},
		{`\Web(new)\% Busy`, 0, engine.NewData},
		{`\Web(w3wp)\Requests/sec`, rate(200), engine.Valid},
		{`\Web(w3wp)\% Hit`, hit(2), engine.Valid},
		{`\Web(w3wp)\% Busy`, busy(5_000_000), engine.Valid},
		{`\Web(w3wp#1)\Requests/sec`, rate(0), engine.Valid},
		{`\Web(w3wp#1)\% Hit`, hit(4), engine.Valid},
		{`\Web(w3wp#1)\% Busy`, busy(0), engine.Valid},
	})
	if vals[0].Scale != -1 || vals[0].DetailLevel != 100 || vals[0].Type != engine.CounterCounter {
		t.Errorf("have scale %d detail %d type %v, want -1 100 PERF_COUNTER_COUNTER", vals[0].Scale, vals[0].DetailLevel, vals[0].Type)
	}

	// Selection, the GUID as the object's name, ids as counter names.
	q = query.New(query.Config{RegInfo: reg, Paths: mustPaths(t, `\{04030201-0000-0000-0000-000000000000}(w3wp*)\#1`)})
	if vals, err = q.Run(nil, older, newer); err != nil {
		t.Fatal(err)
	}
	checkValues(t, vals, []result{
		{`\{04030201-0000-0000-0000-000000000000}(w3wp)\#1`, rate(200), engine.Valid},
		{`\{04030201-0000-0000-0000-000000000000}(w3wp#1)\#1`, rate(0), engine.Valid},
	})
}

// TestV2SingleCounter checks blocks that do not name their counter: they
// need Config.IDs.
func TestV2SingleCounter(t *testing.T) {
	reg, strs := v2Reg(t)
	enc := func(sec int64, n uint64) []byte {
		data, err := encode.EncodeV2Data(&encode.V2Data{PerfTimeStamp: sec * 1000, PerfFreq: 1000, PerfTime100NSec: sec * secondIn100n,
			Blocks: []encode.V2CounterBlock{
				{Type: encode.V2MultipleInstances, Rows: []encode.V2Row{{Name: "a", Values: []encode.V2Value{{Size: 4, Value: n}}}}},
				{Type: encode.V2ErrorReturn, Status: 2},
			}})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	older, newer := enc(1, 10), enc(3, 30)
	for _, ids := range [][]uint32{nil, {none, none}} {
		q := query.New(query.Config{RegInfo: reg, IDs: ids})
		vals, err := q.Run(nil, older, newer)
		if err != nil {
			t.Fatal(err)
		}
		if len(vals) != 0 || q.Unnamed() != 2 {
			t.Errorf("IDs %v: have %d values and %d blocks left out, want 0 and 2", ids, len(vals), q.Unnamed())
		}
	}
	q := query.New(query.Config{RegInfo: reg, Strings: strs, CounterSet: "Web", IDs: []uint32{1, 4}})
	vals, err := q.Run(nil, older, newer)
	if err != nil {
		t.Fatal(err)
	}
	if q.Unnamed() != 0 {
		t.Errorf("have %d blocks left out, want 0", q.Unnamed())
	}
	checkValues(t, vals, []result{
		{`\Web(a)\Requests/sec`, f(20) / (f(2000) / f(1000)), engine.Valid},
		{`\Web\% Busy`, 0, engine.InvalidData},
	})
}

// TestV2ErrorBlock checks that a block that failed in one sample pairs
// with the same block of the other sample, whose values are then
// InvalidData.
func TestV2ErrorBlock(t *testing.T) {
	reg, strs := v2Reg(t)
	enc := func(sec int64, failed bool) []byte {
		b := encode.V2CounterBlock{Type: encode.V2MultipleCounters, CounterIDs: []uint32{1}, Rows: []encode.V2Row{{Values: []encode.V2Value{{Size: 4, Value: uint64(sec)}}}}}
		if failed {
			b = encode.V2CounterBlock{Type: encode.V2ErrorReturn, Status: 0x1069}
		}
		data, err := encode.EncodeV2Data(&encode.V2Data{PerfTimeStamp: sec * 1000, PerfFreq: 1000, Blocks: []encode.V2CounterBlock{b}})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, tc := range []struct {
		name         string
		older, newer []byte
		want         []result
	}{
		{"failed in the older", enc(1, true), enc(2, false), []result{{`\Web\Requests/sec`, 0, engine.InvalidData}}},
		{"failed in the newer", enc(1, false), enc(2, true), []result{{`\Web\Requests/sec`, 0, engine.InvalidData}}},
		{"both good", enc(1, false), enc(3, false), []result{{`\Web\Requests/sec`, f(2) / (f(2000) / f(1000)), engine.Valid}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals, err := query.New(query.Config{RegInfo: reg, Strings: strs, CounterSet: "Web", IDs: []uint32{1}}).Run(nil, tc.older, tc.newer)
			if err != nil {
				t.Fatal(err)
			}
			checkValues(t, vals, tc.want)
		})
	}
}

func TestV2Errors(t *testing.T) {
	reg, _ := v2Reg(t)
	one := v2Data(t, 1, []v2inst{{"a", 1, 1, 1}})
	other, err := encode.EncodeV2Data(&encode.V2Data{PerfFreq: 1000, Blocks: []encode.V2CounterBlock{
		{Type: encode.V2MultipleCounters, CounterIDs: []uint32{1}, Rows: []encode.V2Row{{Values: []encode.V2Value{{Size: 4}}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	two, err := encode.EncodeV2Data(&encode.V2Data{PerfFreq: 1000, Blocks: []encode.V2CounterBlock{
		{Type: encode.V2MultipleCounters, CounterIDs: []uint32{1}, Rows: []encode.V2Row{{Values: []encode.V2Value{{Size: 4}}}}},
		{Type: encode.V2MultipleCounters, CounterIDs: []uint32{1}, Rows: []encode.V2Row{{Values: []encode.V2Value{{Size: 4}}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	v1 := v1Blob(t, "HOST", 1, nil, nil)
	for _, tc := range []struct {
		name         string
		older, newer []byte
		wantIs       error
		wantText     string
	}{
		{"different blocks", one, other, query.ErrMismatch,
			`query: the captures do not match: block "0 PERF_COUNTERSET" in the older, "0 PERF_MULTIPLE_COUNTERS" in the newer`},
		{"different numbers of blocks", other, two, query.ErrMismatch,
			`query: the captures do not match: number of blocks "1" in the older, "2" in the newer`},
		{"V1 and V2", v1, one, query.ErrMismatch,
			`query: the captures do not match: format "V1" in the older, "V2" in the newer`},
		{"V2 and V1", one, v1, query.ErrMismatch,
			`query: the captures do not match: format "not V1" in the older, "V1" in the newer`},
		{"truncated", one, one[:60], engine.ErrTruncated, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := query.New(query.Config{RegInfo: reg}).Run(nil, tc.older, tc.newer)
			if !errors.Is(err, tc.wantIs) {
				t.Fatalf("have error %v, want %v", err, tc.wantIs)
			}
			if tc.wantText != "" && err.Error() != tc.wantText {
				t.Errorf("have %q, want %q", err, tc.wantText)
			}
		})
	}
}

// TestV2SurrogateInstances: two V2 instances whose names differ only in an
// unpaired surrogate (x + U+D800 and x + U+DC00: Windows allows any 16-bit
// units) keep their own columns, escaped as doc/FORMATS.md §3.3 writes
// them, when they swap places between the two samples; before, both read
// "x\uFFFD", were numbered by position and swapped their values.
func TestV2SurrogateInstances(t *testing.T) {
	reg, strs := v2Reg(t)
	// The encoder takes UTF-8 names: "xA" and "xB" become x+D800 and
	// x+DC00 in the UTF-16 data.
	surrogates := func(b []byte) []byte {
		for _, r := range [][3]byte{{'A', 0x00, 0xD8}, {'B', 0x00, 0xDC}} {
			k := bytes.Index(b, []byte{'x', 0, r[0], 0, 0, 0})
			if k < 0 {
				t.Fatalf("no name x%c in the data", r[0])
			}
			b[k+2], b[k+3] = r[1], r[2]
		}
		return b
	}
	older := surrogates(v2Data(t, 10, []v2inst{{"xA", 100, 0, 0}, {"xB", 1000, 0, 0}}))
	newer := surrogates(v2Data(t, 12, []v2inst{{"xB", 3000, 0, 0}, {"xA", 300, 0, 0}}))
	rate := func(d uint64) float64 { return f(float64(d)) / (f(2000) / f(1000)) }
	q := query.New(query.Config{RegInfo: reg, Strings: strs, CounterSet: "Web", Paths: mustPaths(t, `\Web(*)\Requests/sec`)})
	vals, err := q.Run(nil, older, newer)
	if err != nil {
		t.Fatal(err)
	}
	checkValues(t, vals, []result{
		{"\\Web(x\uFFFDdc00)\\Requests/sec", rate(2000), engine.Valid},
		{"\\Web(x\uFFFDd800)\\Requests/sec", rate(200), engine.Valid},
	})
}
