package perflibv2_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/encode"
	"github.com/perfcalc/perfcalc/tools/importban"
)

// wantFormatError checks that err is a *engine.FormatError of the package
// with the given record, offset, field and sentinel.
func wantFormatError(t *testing.T, err error, record string, offset int64, field string, sentinel error) {
	t.Helper()
	var fe *engine.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("have error %v, want a *engine.FormatError", err)
	}
	if fe.Format != "perflibv2" || fe.Record != record || fe.Offset != offset || fe.Field != field || !errors.Is(err, sentinel) {
		t.Errorf("have %q (%+v), want Format perflibv2, Record %s, Offset 0x%x, Field %q, Err %v", err, *fe, record, offset, field, sentinel)
	}
	if !strings.Contains(err.Error(), "at 0x"+strconv.FormatInt(offset, 16)+":") {
		t.Errorf("Error(): have %q, want the offset 0x%x", err, offset)
	}
}

// mustEncode encodes d or fails the test.
func mustEncode(t testing.TB, d *encode.V2Data) []byte {
	t.Helper()
	b, err := encode.EncodeV2Data(d)
	if err != nil {
		t.Fatalf("EncodeV2Data: %v", err)
	}
	return b
}

func TestDataHeader(t *testing.T) {
	d := &encode.V2Data{
		PerfTimeStamp: 123456789, PerfTime100NSec: 133_000_000_000_000_000, PerfFreq: 10_000_000,
		SystemTime: wintype.SystemTime{Year: 2026, Month: 11, DayOfWeek: 6, Day: 21, Hour: 12, Minute: 39, Second: 19, Milliseconds: 999},
	}
	b := mustEncode(t, d)
	if len(b) != perflibv2.DataHeaderSize {
		t.Fatalf("empty result: have %d bytes, want %d", len(b), perflibv2.DataHeaderSize)
	}
	var p perflibv2.Parser
	h, err := p.Start(b)
	if err != nil {
		t.Fatal(err)
	}
	want := perflibv2.DataHeader{TotalSize: 48, PerfTimeStamp: 123456789, PerfTime100NSec: 133_000_000_000_000_000, PerfFreq: 10_000_000,
		SystemTime: wintype.SystemTime{Year: 2026, Month: 11, DayOfWeek: 6, Day: 21, Hour: 12, Minute: 39, Second: 19, Milliseconds: 999}}
	if h != want {
		t.Errorf("have %+v, want %+v", h, want)
	}
	if p.Next() || p.Err() != nil {
		t.Errorf("Next on an empty result: have a block or %v; want none", p.Err())
	}
	// A longer buffer than dwTotalSize is accepted.
	if _, err := p.Start(append(b, 0xFF, 0xFF, 0xFF)); err != nil {
		t.Errorf("longer buffer: have %v, want nil", err)
	}
}

func TestDataHeaderErrors(t *testing.T) {
	valid := mustEncode(t, &encode.V2Data{})
	set := func(off int, v uint32) []byte {
		b := append([]byte(nil), valid...)
		b[off], b[off+1], b[off+2], b[off+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		return b
	}
	for _, tc := range []struct {
		name   string
		in     []byte
		offset int64
		field  string
		err    error
	}{
		{"empty", nil, 0, "", engine.ErrTruncated},
		{"47 bytes", valid[:47], 0, "", engine.ErrTruncated},
		{"dwTotalSize zero", set(0, 0), 0, "dwTotalSize", engine.ErrMalformed},
		{"dwTotalSize below 48", set(0, 40), 0, "dwTotalSize", engine.ErrMalformed},
		{"dwTotalSize misaligned", set(0, 52), 0, "dwTotalSize", engine.ErrMalformed},
		{"dwTotalSize outside", set(0, 56), 0, "dwTotalSize", engine.ErrTruncated},
		{"dwTotalSize huge", set(0, 0xFFFFFFF8), 0, "dwTotalSize", engine.ErrTruncated},
		{"dwNumCounters larger than the buffer", set(4, 1), 4, "dwNumCounters", engine.ErrMalformed},
		{"dwNumCounters huge", set(4, 0xFFFFFFFF), 4, "dwNumCounters", engine.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p perflibv2.Parser
			_, err := p.Start(tc.in)
			wantFormatError(t, err, "PERF_DATA_HEADER", tc.offset, tc.field, tc.err)
		})
	}
}

// TestImportBan: the package imports only the standard library (without fmt
// and os, which would bloat the WebAssembly module) and perfcalc's engine.
func TestImportBan(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

// TestSizes asserts the record sizes of doc/FORMATS.md §2.1 against the
// package's constants and the encoder's output.
func TestSizes(t *testing.T) {
	data := mustEncode(t, &encode.V2Data{Blocks: []encode.V2CounterBlock{{Type: encode.V2ErrorReturn}}})
	var p perflibv2.Parser
	p.Start(data)
	p.Next()
	blk := p.Block()
	inst, _ := encode.EncodeV2Instances([]encode.V2Instance{{Name: ""}})
	reg0, _ := encode.EncodeV2RegInfo(&encode.V2CounterSet{})
	reg1, _ := encode.EncodeV2RegInfo(&encode.V2CounterSet{Counters: make([]encode.V2CounterRegInfo, 1)})
	str0, _ := encode.EncodeV2Strings(&encode.V2Strings{})
	str1, _ := encode.EncodeV2Strings(&encode.V2Strings{Strings: []encode.V2String{{None: true}}})
	for _, tc := range []struct {
		name        string
		have, want  int
		constant, c int
	}{
		{"PERF_DATA_HEADER", len(data) - int(blk.Size), 48, perflibv2.DataHeaderSize, 48},
		{"PERF_COUNTER_HEADER", int(blk.Size), 16, perflibv2.CounterHeaderSize, 16},
		{"PERF_INSTANCE_HEADER + NUL + pad", len(inst), 16, perflibv2.InstanceHeaderSize, 8},
		{"PERF_COUNTERSET_REG_INFO", len(reg0), 32, perflibv2.CountersetRegInfoSize, 32},
		{"PERF_COUNTER_REG_INFO", len(reg1) - len(reg0), 48, perflibv2.CounterRegInfoSize, 48},
		{"PERF_STRING_BUFFER_HEADER", len(str0), 8, perflibv2.StringBufferHeaderSize, 8},
		{"PERF_STRING_COUNTER_HEADER", len(str1) - len(str0), 8, perflibv2.StringCounterHeaderSize, 8},
		{"PERF_MULTI_COUNTERS", perflibv2.MultiCountersSize, 8, perflibv2.MultiCountersSize, 8},
		{"PERF_MULTI_INSTANCES", perflibv2.MultiInstancesSize, 8, perflibv2.MultiInstancesSize, 8},
		{"PERF_COUNTER_DATA", perflibv2.CounterDataSize, 8, perflibv2.CounterDataSize, 8},
	} {
		if tc.have != tc.want || tc.constant != tc.c {
			t.Errorf("%s: have %d bytes (constant %d), want %d (constant %d)", tc.name, tc.have, tc.constant, tc.want, tc.c)
		}
	}
}
