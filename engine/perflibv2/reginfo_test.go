package perflibv2_test

import (
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// processorSet is a counterset registration with every helper id kind.
func processorSet() *encode.V2CounterSet {
	const none = perflibv2.NoCounter
	return &encode.V2CounterSet{
		GUID:         [16]byte{0x78, 0x56, 0x34, 0x12, 0xbc, 0x9a, 0xf0, 0xde, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef},
		DetailLevel:  100,
		InstanceType: perflibv2.CountersetMultiInstances,
		Counters: []encode.V2CounterRegInfo{
			{CounterID: 0, Type: engine.Timer100ns, DetailLevel: 100, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none},
			{CounterID: 1, Type: engine.RawFraction, Attrib: 0x8, DetailLevel: 200, DefaultScale: -2, BaseCounterID: 2, PerfTimeID: none, PerfFreqID: none, MultiID: none, AggregateFunc: 2},
			{CounterID: 2, Type: engine.RawBase, Attrib: 0x2, DetailLevel: 200, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none},
			{CounterID: 3, Type: engine.ObjTimeTimer, DetailLevel: 100, BaseCounterID: none, PerfTimeID: 4, PerfFreqID: 5, MultiID: none},
			{CounterID: 4, Type: engine.CounterLargeRawcount, Attrib: 0x2, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none},
			{CounterID: 5, Type: engine.CounterLargeRawcount, Attrib: 0x2, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none},
			{CounterID: 6, Type: engine.MultiTimer100ns, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: 7, AggregateFunc: 1, Reserved: 9},
			{CounterID: 7, Type: engine.CounterRawcount, Attrib: 0x2, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none},
			{CounterID: 8, Type: engine.CounterCounter, DefaultScale: 10, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none},
			{CounterID: 9, Type: engine.ElapsedTime, DefaultScale: -10, BaseCounterID: none, PerfTimeID: 4, PerfFreqID: 5, MultiID: none},
			{CounterID: 10, Type: engine.AverageTimer, BaseCounterID: 11, PerfTimeID: none, PerfFreqID: none, MultiID: none},
			{CounterID: 11, Type: engine.AverageBase, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none},
			{CounterID: 12, Type: engine.RawFraction, BaseCounterID: 99, PerfTimeID: none, PerfFreqID: none, MultiID: none}, // base not in the data
		},
	}
}

func mustRegInfo(t testing.TB, s *encode.V2CounterSet) []byte {
	t.Helper()
	b, err := encode.EncodeV2RegInfo(s)
	if err != nil {
		t.Fatalf("EncodeV2RegInfo: %v", err)
	}
	return b
}

func TestRegInfo(t *testing.T) {
	want := processorSet()
	b := mustRegInfo(t, want)
	if have, wantLen := len(b), perflibv2.CountersetRegInfoSize+perflibv2.CounterRegInfoSize*len(want.Counters); have != wantLen {
		t.Fatalf("encoded size: have %d, want %d", have, wantLen)
	}
	r, err := perflibv2.ParseRegInfo(b)
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header
	if h.CounterSetGUID != perflibv2.GUID(want.GUID) || h.CounterSetType != 0 || h.DetailLevel != 100 ||
		h.NumCounters != uint32(len(want.Counters)) || h.InstanceType != perflibv2.CountersetMultiInstances {
		t.Errorf("header: have %+v", h)
	}
	if have, wantS := h.CounterSetGUID.String(), "{12345678-9abc-def0-0123-456789abcdef}"; have != wantS {
		t.Errorf("GUID: have %s, want %s", have, wantS)
	}
	if r.Len() != len(want.Counters) {
		t.Fatalf("Len: have %d, want %d", r.Len(), len(want.Counters))
	}
	for i, w := range want.Counters {
		wc := perflibv2.CounterRegInfo(w)
		if have := r.Counter(i); have != wc {
			t.Errorf("Counter(%d): have %+v, want %+v", i, have, wc)
		}
		if have, ok := r.Lookup(w.CounterID); !ok || have != wc {
			t.Errorf("Lookup(%d): have %+v %v, want %+v", w.CounterID, have, ok, wc)
		}
	}
	if _, ok := r.Lookup(1000); ok {
		t.Error("Lookup(1000): have ok, want false")
	}
	// A longer buffer is accepted.
	if _, err := perflibv2.ParseRegInfo(append(b, 1, 2, 3)); err != nil {
		t.Errorf("longer buffer: have %v, want nil", err)
	}
}

func TestRegInfoErrors(t *testing.T) {
	b := mustRegInfo(t, processorSet())
	for _, tc := range []struct {
		name   string
		in     []byte
		offset int64
		field  string
		err    error
	}{
		{"empty", nil, 0, "", engine.ErrTruncated},
		{"31 bytes", b[:31], 0, "", engine.ErrTruncated},
		{"one counter short", b[:len(b)-1], 24, "NumCounters", engine.ErrTruncated},
		{"count larger than the buffer", put32(b, 24, 14), 24, "NumCounters", engine.ErrTruncated},
		{"count huge", put32(b, 24, 0xFFFFFFFF), 24, "NumCounters", engine.ErrTruncated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := perflibv2.ParseRegInfo(tc.in)
			wantFormatError(t, err, "PERF_COUNTERSET_REG_INFO", tc.offset, tc.field, tc.err)
		})
	}
	for n := range len(b) {
		if _, err := perflibv2.ParseRegInfo(b[:n]); !isFormatError(err) {
			t.Errorf("cut at %d: have %v, want a FormatError", n, err)
		}
	}
}

func TestRegInfoAllocs(t *testing.T) {
	b := mustRegInfo(t, processorSet())
	var sum uint32
	allocs := testing.AllocsPerRun(100, func() {
		r, err := perflibv2.ParseRegInfo(b)
		if err != nil {
			panic(err)
		}
		for i := range r.Len() {
			sum += r.Counter(i).BaseCounterID
		}
		c, _ := r.Lookup(9)
		sum += c.PerfTimeID
	})
	if allocs != 0 {
		t.Errorf("reading a registration: have %v allocs per run, want 0", allocs)
	}
	if sum == 0 {
		t.Error("read nothing")
	}
}
