package perflibv2_test

import (
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/tools/describe"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// allKinds is a result with every block kind.
func allKinds() *encode.V2Data {
	return &encode.V2Data{
		PerfTimeStamp: 1_000_000, PerfTime100NSec: 133_500_000_000_000_000, PerfFreq: 3_579_545,
		Blocks: []encode.V2CounterBlock{
			{Status: 0x000010DA, Type: encode.V2ErrorReturn}, // a Win32 error
			{Type: encode.V2SingleCounter, Rows: []encode.V2Row{{Values: []encode.V2Value{{Size: 8, Value: 42}}}}},
			{Type: encode.V2MultipleCounters, CounterIDs: []uint32{1, 2, 3},
				Rows: []encode.V2Row{{Values: []encode.V2Value{{Size: 4, Value: 7}, {Size: 8, Value: 1 << 40}, {Size: 4, Value: 0xFFFFFFFF}}}}},
			{Type: encode.V2MultipleInstances, Rows: []encode.V2Row{
				{InstanceID: 0, Name: "0", Values: []encode.V2Value{{Size: 8, Value: 100}}},
				{InstanceID: 1, Name: "_Total", Values: []encode.V2Value{{Size: 8, Value: 200}}},
				{InstanceID: 1, Name: "_Total", Values: []encode.V2Value{{Size: 8, Value: 300}}}, // duplicates are tolerated
			}},
			{Type: encode.V2Counterset, CounterIDs: []uint32{0, 1}, Rows: []encode.V2Row{
				{InstanceID: 4, Name: "svchost", Values: []encode.V2Value{{Size: 8, Value: 5}, {Size: 4, Value: 6}}},
				{InstanceID: 9, Name: "Intel(R) Ethernet ünïcødé \U0001F600", Values: []encode.V2Value{{Size: 8, Value: 8}, {Size: 4, Value: 9}}},
				{InstanceID: 10, Name: "", Values: []encode.V2Value{{Size: 8, Value: 10}, {Size: 4, Value: 11}}},
			}},
			{Type: encode.V2Counterset, CounterIDs: []uint32{}, Rows: []encode.V2Row{{InstanceID: 1, Name: "no counters"}}},
			{Type: encode.V2MultipleInstances},
			{Status: 5, Type: encode.V2SingleCounter, Rows: []encode.V2Row{{Values: []encode.V2Value{{Size: 4, Value: 1}}}}},
		},
	}
}

func TestBlockKinds(t *testing.T) {
	want := allKinds()
	b := mustEncode(t, want)
	have, err := describe.V2Data(b)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("round trip:\nhave %+v\nwant %+v", have, want)
	}
	var p perflibv2.Parser
	if _, err := p.Start(b); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		typ            perflibv2.DataType
		name           string
		status         uint32
		counters, rows int
		ids, inst      bool
	}{
		{perflibv2.ErrorReturn, "PERF_ERROR_RETURN", 0x10DA, 0, 0, false, false},
		{perflibv2.SingleCounter, "PERF_SINGLE_COUNTER", 0, 1, 1, false, false},
		{perflibv2.MultipleCounters, "PERF_MULTIPLE_COUNTERS", 0, 3, 1, true, false},
		{perflibv2.MultipleInstances, "PERF_MULTIPLE_INSTANCES", 0, 1, 3, false, true},
		{perflibv2.Counterset, "PERF_COUNTERSET", 0, 2, 3, true, true},
		{perflibv2.Counterset, "PERF_COUNTERSET", 0, 0, 1, true, true},
		{perflibv2.MultipleInstances, "PERF_MULTIPLE_INSTANCES", 0, 1, 0, false, true},
		{perflibv2.SingleCounter, "PERF_SINGLE_COUNTER", 5, 1, 1, false, false},
	} {
		if !p.Next() {
			t.Fatalf("Next: have false, %v; want a block", p.Err())
		}
		blk := p.Block()
		if blk.Type != tc.typ || blk.Type.String() != tc.name || blk.Status != tc.status || blk.NumCounters() != tc.counters ||
			blk.NumRows() != tc.rows || blk.HasCounterIDs() != tc.ids || blk.HasInstances() != tc.inst || blk.Size%8 != 0 {
			t.Errorf("block %d: have %v %s status %d counters %d rows %d ids %v inst %v size %d; want %+v",
				blk.Index, blk.Type, blk.Type, blk.Status, blk.NumCounters(), blk.NumRows(), blk.HasCounterIDs(), blk.HasInstances(), blk.Size, tc)
		}
	}
	if have := perflibv2.DataType(3).String(); have != "PerfCounterDataType(3)" {
		t.Errorf("DataType(3).String(): have %q", have)
	}
}

func TestRowAccessors(t *testing.T) {
	b := mustEncode(t, allKinds())
	var p perflibv2.Parser
	p.Start(b)
	for range 5 {
		p.Next()
	}
	blk := p.Block()
	if blk.Type != perflibv2.Counterset {
		t.Fatalf("block 4: have %v, want PERF_COUNTERSET", blk.Type)
	}
	if id, ok := blk.CounterID(1); !ok || id != 1 {
		t.Errorf("CounterID(1): have %d %v, want 1 true", id, ok)
	}
	if _, ok := blk.CounterID(2); ok {
		t.Error("CounterID(2): have ok, want false (out of range)")
	}
	if _, ok := blk.CounterID(-1); ok {
		t.Error("CounterID(-1): have ok, want false")
	}
	rows := blk.Rows()
	rows.Next()
	rows.Next()
	r := rows.Row()
	if r.Index != 1 || !r.HasInstance || r.InstanceID != 9 || r.Name.String() != "Intel(R) Ethernet ünïcødé \U0001F600" || r.NumValues() != 2 {
		t.Errorf("row 1: have %+v %q", r, r.Name.String())
	}
	if v, ok := r.Value(1); !ok || len(v.Data) != 4 || binary.LittleEndian.Uint32(v.Data) != 9 {
		t.Errorf("Value(1): have %+v %v, want 4 bytes of 9", v, ok)
	}
	if _, ok := r.Value(2); ok {
		t.Error("Value(2): have ok, want false")
	}
	if have, want := r.Name.Len(), len([]rune("Intel(R) Ethernet ünïcødé "))+2; have != want {
		t.Errorf("Name.Len(): have %d, want %d", have, want)
	}
	if have := r.Name.AppendUTF16(nil); len(have) != r.Name.Len() {
		t.Errorf("AppendUTF16: have %d units, want %d", len(have), r.Name.Len())
	}
	for _, tc := range []struct {
		data []byte
		want uint64
		ok   bool
	}{
		{nil, 0, false}, {[]byte{1}, 1, true}, {[]byte{1, 2}, 0x201, true}, {[]byte{1, 2, 3}, 0x30201, true},
		{[]byte{1, 2, 3, 4}, 0x4030201, true}, {[]byte{1, 2, 3, 4, 5, 6, 7, 8}, 0x0807060504030201, true},
		{make([]byte, 9), 0, false},
	} {
		if have, ok := (perflibv2.Value{Data: tc.data}).Uint64(); have != tc.want || ok != tc.ok {
			t.Errorf("Uint64(% x): have %#x %v, want %#x %v", tc.data, have, ok, tc.want, tc.ok)
		}
	}
}

// put32 returns a copy of b with the DWORD at off set to v.
func put32(b []byte, off int, v uint32) []byte {
	c := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(c[off:], v)
	return c
}

// walk decodes every block, row and value of b.
func walk(b []byte) (int, error) {
	var p perflibv2.Parser
	if _, err := p.Start(b); err != nil {
		return 0, err
	}
	n := 0
	for p.Next() {
		rows := p.Block().Rows()
		for rows.Next() {
			vs := rows.Row().Values()
			for vs.Next() {
				n++
			}
		}
	}
	return n, p.Err()
}

func TestBlockErrors(t *testing.T) {
	// Offsets in the encoding of blocks: header 48; a single counter block
	// (32 bytes) at 0x30; a counterset block at 0x50.
	single := encode.V2CounterBlock{Type: encode.V2SingleCounter, Rows: []encode.V2Row{{Values: []encode.V2Value{{Size: 8, Value: 1}}}}}
	cset := encode.V2CounterBlock{Type: encode.V2Counterset, CounterIDs: []uint32{7, 8}, Rows: []encode.V2Row{
		{InstanceID: 1, Name: "abc", Values: []encode.V2Value{{Size: 8, Value: 1}, {Size: 4, Value: 2}}},
	}}
	multi := encode.V2CounterBlock{Type: encode.V2MultipleInstances, Rows: []encode.V2Row{
		{InstanceID: 1, Name: "x", Values: []encode.V2Value{{Size: 8, Value: 1}}},
	}}
	b := mustEncode(t, &encode.V2Data{Blocks: []encode.V2CounterBlock{single, single, cset, multi}})
	// Layout: 0x30 block 0 (32), 0x50 block 1 (32), 0x70 block 2:
	// header 0x70, PERF_MULTI_COUNTERS 0x80 (16), PERF_MULTI_INSTANCES 0x90,
	// PERF_INSTANCE_HEADER 0x98 (16), values 0xa8 (16) and 0xb8 (16); block
	// 3 at 0xc8: MULTI_INSTANCES 0xd8, instance 0xe0, value 0xf0.
	if have, err := walk(b); err != nil || have != 5 {
		t.Fatalf("valid blob: have %d values, %v; want 5, nil", have, err)
	}
	for _, tc := range []struct {
		name   string
		in     []byte
		record string
		offset int64
		field  string
		err    error
		text   string
	}{
		{"dwSize below 16", put32(b, 0x70+8, 8), "PERF_COUNTER_HEADER", 0x70, "dwSize", engine.ErrMalformed,
			"perflibv2: PERF_COUNTER_HEADER 2 at 0x70: dwSize 8 below 16"},
		{"dwSize zero", put32(b, 0x30+8, 0), "PERF_COUNTER_HEADER", 0x30, "dwSize", engine.ErrMalformed, ""},
		{"dwSize misaligned", put32(b, 0x50+8, 36), "PERF_COUNTER_HEADER", 0x50, "dwSize", engine.ErrMalformed, ""},
		{"dwSize outside", put32(b, 0x70+8, 0x1000), "PERF_COUNTER_HEADER", 0x70, "dwSize", engine.ErrMalformed, ""},
		{"dwSize huge", put32(b, 0x30+8, 0xFFFFFFF8), "PERF_COUNTER_HEADER", 0x30, "dwSize", engine.ErrMalformed, ""},
		{"dwType unknown", put32(b, 0x30+4, 3), "PERF_COUNTER_HEADER", 0x30, "dwType", engine.ErrUnsupported, ""},
		{"single counter dwSize too small for its value", put32(b, 0x30+8, 16), "PERF_COUNTER_DATA", 0x40, "", engine.ErrTruncated, ""},
		{"counter data dwSize outside", put32(b, 0x40+4, 24), "PERF_COUNTER_DATA", 0x40, "dwSize", engine.ErrMalformed, ""},
		{"counter data dwSize zero", put32(b, 0x40+4, 0), "PERF_COUNTER_DATA", 0x40, "dwSize", engine.ErrMalformed, ""},
		{"counter data dwSize 8", put32(b, 0x40+4, 8), "PERF_COUNTER_DATA", 0x40, "dwSize", engine.ErrMalformed, ""},
		{"counter data misaligned", put32(b, 0x40+4, 12), "PERF_COUNTER_DATA", 0x40, "dwSize", engine.ErrMalformed, ""},
		{"counter data dwDataSize outside", put32(b, 0x40, 9), "PERF_COUNTER_DATA", 0x40, "dwDataSize", engine.ErrMalformed, ""},
		{"multi counters dwSize zero", put32(b, 0x80, 0), "PERF_MULTI_COUNTERS", 0x80, "dwSize", engine.ErrMalformed, ""},
		{"multi counters dwSize misaligned", put32(b, 0x80, 12), "PERF_MULTI_COUNTERS", 0x80, "dwSize", engine.ErrMalformed, ""},
		{"multi counters dwSize outside", put32(b, 0x80, 0x800), "PERF_MULTI_COUNTERS", 0x80, "dwSize", engine.ErrMalformed, ""},
		{"multi counters count larger than dwSize", put32(b, 0x84, 3), "PERF_MULTI_COUNTERS", 0x84, "dwCounters", engine.ErrMalformed, ""},
		{"multi counters count huge", put32(b, 0x84, 0xFFFFFFFF), "PERF_MULTI_COUNTERS", 0x84, "dwCounters", engine.ErrMalformed, ""},
		{"multi instances dwTotalSize zero", put32(b, 0x90, 0), "PERF_MULTI_INSTANCES", 0x90, "dwTotalSize", engine.ErrMalformed, ""},
		{"multi instances misaligned", put32(b, 0x90, 12), "PERF_MULTI_INSTANCES", 0x90, "dwTotalSize", engine.ErrMalformed, ""},
		{"multi instances outside", put32(b, 0x90, 0x400), "PERF_MULTI_INSTANCES", 0x90, "dwTotalSize", engine.ErrMalformed, ""},
		{"multi instances count larger", put32(b, 0x94, 2), "PERF_MULTI_INSTANCES", 0x94, "dwInstances", engine.ErrMalformed, ""},
		{"multi instances count huge", put32(b, 0x94, 0x7FFFFFFF), "PERF_MULTI_INSTANCES", 0x94, "dwInstances", engine.ErrMalformed, ""},
		{"instance Size zero", put32(b, 0x98, 0), "PERF_INSTANCE_HEADER", 0x98, "Size", engine.ErrMalformed, ""},
		{"instance Size misaligned", put32(b, 0x98, 20), "PERF_INSTANCE_HEADER", 0x98, "Size", engine.ErrMalformed, ""},
		{"instance Size outside", put32(b, 0x98, 0x100), "PERF_INSTANCE_HEADER", 0x98, "Size", engine.ErrMalformed, ""},
		{"instance name without NUL", put32(put32(b, 0xa0, 0x00620061), 0xa4, 0x00640063), "PERF_INSTANCE_HEADER", 0xa0, "Name", engine.ErrMalformed, ""},
		{"instance Size swallows the values", put32(b, 0x98, 48), "PERF_COUNTER_DATA", 0xc8, "", engine.ErrTruncated, ""},
		{"second instance block value outside", put32(b, 0xf0+4, 0x20), "PERF_COUNTER_DATA", 0xf0, "dwSize", engine.ErrMalformed, ""},
		{"dwNumCounters beyond the blocks", put32(b, 4, 5), "PERF_COUNTER_HEADER", 0x100, "", engine.ErrTruncated, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := walk(tc.in)
			wantFormatError(t, err, tc.record, tc.offset, tc.field, tc.err)
			if tc.text != "" && err.Error() != tc.text {
				t.Errorf("Error(): have %q, want %q", err, tc.text)
			}
		})
	}
	// After an error, Next reports the end and Err keeps the error.
	var p perflibv2.Parser
	p.Start(put32(b, 0x30+8, 0))
	if p.Next() || p.Err() == nil {
		t.Fatalf("Next: have a block or no error (%v), want an error", p.Err())
	}
	first := p.Err()
	if p.Next() || p.Err() != first {
		t.Errorf("Next after an error: have a block or %v, want false and %v", p.Err(), first)
	}
}

// TestTruncationEverywhere cuts an encoded result at every byte: as the
// input (dwTotalSize then exceeds it) and with dwTotalSize rewritten to the
// cut rounded down to 8 bytes, so that the cut falls inside the blocks.
func TestTruncationEverywhere(t *testing.T) {
	b := mustEncode(t, allKinds())
	for n := range len(b) {
		if _, err := walk(b[:n]); err == nil {
			t.Errorf("cut at %d: have no error", n)
		} else if !isFormatError(err) {
			t.Errorf("cut at %d: have %v, want a FormatError with an offset", n, err)
		}
		m := n &^ 7
		if m < 48 {
			continue
		}
		c := put32(b[:m], 0, uint32(m))
		if _, err := walk(c); err == nil {
			t.Errorf("dwTotalSize %d: have no error", m)
		} else if !isFormatError(err) {
			t.Errorf("dwTotalSize %d: have %v, want a FormatError with an offset", m, err)
		}
	}
}

func isFormatError(err error) bool {
	var fe *engine.FormatError
	return errors.As(err, &fe) && strings.Contains(err.Error(), " at 0x")
}

// TestCorruptEveryField writes hostile values into every DWORD of an
// encoded result: decoding must end (with or without an error), never
// panic, and every error must be a FormatError.
func TestCorruptEveryField(t *testing.T) {
	b := mustEncode(t, allKinds())
	for off := 0; off+4 <= len(b); off += 4 {
		for _, v := range []uint32{0, 1, 7, 8, 15, 16, 24, 0x7FFFFFFF, 0x80000000, 0xFFFFFFF8, 0xFFFFFFFF} {
			if _, err := walk(put32(b, off, v)); err != nil && !isFormatError(err) {
				t.Fatalf("DWORD at 0x%x = %#x: have %v, want a FormatError", off, v, err)
			}
		}
	}
}

func TestWalkAllocs(t *testing.T) {
	b := mustEncode(t, allKinds())
	var sum uint64
	allocs := testing.AllocsPerRun(100, func() {
		var p perflibv2.Parser
		if _, err := p.Start(b); err != nil {
			panic(err)
		}
		for p.Next() {
			blk := p.Block()
			id, _ := blk.CounterID(0)
			sum += uint64(id)
			rows := blk.Rows()
			for rows.Next() {
				r := rows.Row()
				sum += uint64(r.InstanceID) + uint64(r.Name.Len())
				vs := r.Values()
				for vs.Next() {
					v := vs.Value()
					x, _ := v.Uint64()
					sum += x
				}
			}
		}
		if err := p.Err(); err != nil {
			panic(err)
		}
	})
	if allocs != 0 {
		t.Errorf("walking a result: have %v allocs per run, want 0", allocs)
	}
	if sum == 0 {
		t.Error("walk read nothing")
	}
}
