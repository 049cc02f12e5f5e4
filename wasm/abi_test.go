//go:build !perfcalcanalyze

package main

import (
	"math"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// edgeInputs are computations that cover every counter type and the edges of
// the arithmetic: 2^64−1, zero deltas, first samples, 32-bit wraps, bad
// statuses, zero and negative time bases, and every option.
func edgeInputs() []struct {
	in   engine.Input
	opts engine.Options
} {
	var out []struct {
		in   engine.Input
		opts engine.Options
	}
	add := func(in engine.Input, opts engine.Options) {
		out = append(out, struct {
			in   engine.Input
			opts engine.Options
		}{in, opts})
	}
	const max = math.MaxUint64
	samples := []struct{ old, new engine.RawCounter }{
		{engine.RawCounter{FirstValue: 1843201, SecondValue: 7178903079, MultiCount: 2}, engine.RawCounter{FirstValue: 1851877, SecondValue: 7393676247, MultiCount: 2}},
		{engine.RawCounter{FirstValue: 0, SecondValue: 0}, engine.RawCounter{FirstValue: max, SecondValue: max, MultiCount: math.MaxUint32}},
		{engine.RawCounter{FirstValue: 5, SecondValue: 10}, engine.RawCounter{FirstValue: 5, SecondValue: 10, MultiCount: 1}},
		{engine.RawCounter{FirstValue: 0xFFFFFFF0, SecondValue: 0xFFFFFF00}, engine.RawCounter{FirstValue: 0x10, SecondValue: 0x100, MultiCount: 3}},
		{engine.RawCounter{FirstValue: 100, SecondValue: 50}, engine.RawCounter{FirstValue: 50, SecondValue: 100, MultiCount: 4}},
		{engine.RawCounter{FirstValue: 1, SecondValue: 1, CStatus: engine.CStatusNoMachine}, engine.RawCounter{FirstValue: 2, SecondValue: 4}},
		{engine.RawCounter{FirstValue: max - 1, SecondValue: 1 << 63}, engine.RawCounter{FirstValue: max, SecondValue: 1<<63 + 12345, CStatus: engine.CStatusNewData}},
	}
	types := append(engine.Types(), 0x12345678, 0xFFFFFFFF)
	for _, typ := range types {
		for si, s := range samples {
			for _, tb := range []int64{3579545, engine.Frequency100NS, 0, -1, math.MaxInt64} {
				in := engine.Input{Counter: engine.Counter{Type: typ, TimeBase: tb, Scale: int32(si%5) - 2}, HasOld: si != 2, Old: s.old, New: s.new}
				add(in, engine.Options(si*3+int(tb&7))&engine.Options(abi.OptionsMask))
			}
		}
	}
	return out
}

// TestComputeBatch checks that compute_batch and compute return what
// engine.Compute returns, bit for bit.
func TestComputeBatch(t *testing.T) {
	cases := edgeInputs()
	n := uint32(len(cases))
	for i := range cases {
		abi.PutRequest(inBuf[i*abi.ReqSize:], &cases[i].in, uint32(cases[i].opts))
	}
	if rc := computeBatch(0, n, 0); rc != int32(n) {
		t.Fatalf("compute_batch returned %d, want %d (%s)", rc, n, errBuf[:errLen])
	}
	for i := range cases {
		c := &cases[i]
		want := engine.Compute(&c.in, c.opts)
		bv, bst := abi.ReadResult(outBuf[i*abi.ResSize:])
		have := engine.Result{Value: bv, Status: engine.Status(bst)}
		if math.Float64bits(have.Value) != math.Float64bits(want.Value) || have.Status != want.Status {
			t.Errorf("case %d (%v): batch have %v %v, want %v %v", i, c.in.Type, have.Value, have.Status, want.Value, want.Status)
		}
		var flags uint32
		if c.in.HasOld {
			flags = abi.FlagHasOld
		}
		v := compute(uint32(c.in.Type), flags, uint32(c.opts), c.in.Scale, c.in.TimeBase,
			c.in.Old.CStatus, c.in.Old.FirstValue, c.in.Old.SecondValue, c.in.Old.MultiCount,
			c.in.New.CStatus, c.in.New.FirstValue, c.in.New.SecondValue, c.in.New.MultiCount)
		if math.Float64bits(v) != math.Float64bits(want.Value) || lastStatus != uint32(want.Status) {
			t.Errorf("case %d (%v): compute have %v %v, want %v %v", i, c.in.Type, v, lastStatus, want.Value, want.Status)
		}
	}
	if string(outBuf[abi.ResPad:abi.ResPad+4]) != "\x00\x00\x00\x00" {
		t.Errorf("result padding is not 0")
	}
}

// TestReservedBits checks that reserved flag and option bits are refused.
func TestReservedBits(t *testing.T) {
	in := engine.Input{Counter: engine.Counter{Type: engine.RawFraction}, New: engine.RawCounter{FirstValue: 1, SecondValue: 2}}
	for i := 0; i < 3; i++ {
		abi.PutRequest(inBuf[i*abi.ReqSize:], &in, uint32(0))
	}
	inBuf[2*abi.ReqSize+abi.ReqFlags] = 2
	if rc := computeBatch(0, 3, 0); rc != abi.CodeArgument || lastDetail != 2 {
		t.Errorf("reserved flag bit: have %d (detail %d), want %d (detail 2)", rc, lastDetail, abi.CodeArgument)
	}
	inBuf[2*abi.ReqSize+abi.ReqFlags] = 0
	inBuf[1*abi.ReqSize+abi.ReqOptions] = 16
	if rc := computeBatch(0, 3, 0); rc != abi.CodeArgument || lastDetail != 1 {
		t.Errorf("reserved option bit: have %d (detail %d), want %d (detail 1)", rc, lastDetail, abi.CodeArgument)
	}
	if v := compute(uint32(engine.RawFraction), 0, 1<<7, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0); v != 0 || lastStatus != abi.StatusArgument {
		t.Errorf("compute with a reserved option: have %v %#x, want 0 %#x", v, lastStatus, abi.StatusArgument)
	}
	if v := compute(uint32(engine.RawFraction), 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0); v != 50 || lastStatus != 0 {
		t.Errorf("compute after the error: have %v %d, want 50 Valid", v, lastStatus)
	}
}

// TestBounds checks that every offset and length a host passes is checked,
// overflowing sums included.
func TestBounds(t *testing.T) {
	const max = math.MaxUint32
	for _, tc := range []struct {
		name string
		call func() int32
	}{
		{"batch past the input", func() int32 { return computeBatch(abi.InCap-abi.ReqSize+1, 1, 0) }},
		{"batch count overflowing", func() int32 { return computeBatch(0, max/abi.ReqSize+1, 0) }},
		{"batch count too large", func() int32 { return computeBatch(0, abi.InCap/abi.ReqSize+1, 0) }},
		{"batch offset overflowing", func() int32 { return computeBatch(max, 1, 0) }},
		{"batch results past the output", func() int32 { return computeBatch(0, 2, abi.OutCap-abi.ResSize) }},
		{"batch results offset overflowing", func() int32 { return computeBatch(0, 1, max-4) }},
		{"v1 input", func() int32 { return decodeV1(1, abi.InCap, 0, 0, 0, 0) }},
		{"v1 names", func() int32 { return decodeV1(0, 8, max, 2, 0, 0) }},
		{"v2 data", func() int32 { return decodeV2(max, max, 0, 0, 0, 0, 0, 0, 0, 0) }},
		{"v2 ids", func() int32 { return decodeV2(0, 0, 0, 0, 0, 0, abi.InCap-4, 2, 0, 0) }},
		{"v2 ids overflowing", func() int32 { return decodeV2(0, 0, 0, 0, 0, 0, 0, max/4+1, 0, 0) }},
		{"names", func() int32 { return decodeNames(abi.InCap, 1, 0) }},
		{"blg", func() int32 { return decodeBlg(0, abi.InCap+1, 0, 0, 0, 0, 0, 0) }},
		{"blg patterns", func() int32 { return decodeBlg(0, 0, abi.InCap, 1, 0, 0, 0, 0) }},
		{"relog text", func() int32 { return relogText(max, 2, 0, 0, 0, 0, 0, 0) }},
		{"relog stats", func() int32 { return relogStats(0, 1, abi.InCap, 1, 0, 0, 0, 0) }},
		{"sniff", func() int32 { return sniff(abi.InCap, 1) }},
		{"relog columns", func() int32 { return relogColumns(abi.InCap, 1, 0, 0, 0, 0, 0, 0) }},
		{"query descriptor", func() int32 { return runQuery(abi.InCap-abi.QuerySize+8, 0, 0) }},
		{"query part", func() int32 {
			clear(inBuf[:abi.QuerySize])
			abi.PutRegion(inBuf, abi.QueryNewer, abi.InCap-4, 8)
			return runQuery(0, 0, 0)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rc := tc.call(); rc != abi.CodeBounds {
				t.Errorf("have %d (%s), want abi.CodeBounds %d", rc, errBuf[:errLen], abi.CodeBounds)
			}
			if !strings.Contains(string(errBuf[:errLen]), "outside") {
				t.Errorf("error text %q does not say what is outside", errBuf[:errLen])
			}
		})
	}
}

// TestRecovered checks that a panic in an export becomes abi.CodePanic with a text.
func TestRecovered(t *testing.T) {
	f := func() (rc int32) {
		defer recovered(&rc)
		var m map[string]int
		//lint:ignore SA5000 the panic is what the test recovers
		m["x"] = 1 // panics: assignment to entry in nil map
		return 0
	}
	if rc := f(); rc != abi.CodePanic {
		t.Fatalf("have %d, want abi.CodePanic", rc)
	}
	if msg := string(errBuf[:errLen]); !strings.Contains(msg, "panic") || !strings.Contains(msg, "nil map") {
		t.Errorf("error text %q does not name the panic", msg)
	}
}

// TestAllocs pins the compute paths at zero allocations.
func TestAllocs(t *testing.T) {
	cases := edgeInputs()
	n := uint32(len(cases))
	for i := range cases {
		abi.PutRequest(inBuf[i*abi.ReqSize:], &cases[i].in, uint32(cases[i].opts))
	}
	if a := testing.AllocsPerRun(100, func() { computeBatch(0, n, 0) }); a != 0 {
		t.Errorf("compute_batch: %v allocations per call, want 0", a)
	}
	if a := testing.AllocsPerRun(100, func() {
		compute(uint32(engine.CounterCounter), abi.FlagHasOld, 0, 0, 3579545, 0, 1, 0, 0, 0, 101, 3579545, 0)
	}); a != 0 {
		t.Errorf("compute: %v allocations per call, want 0", a)
	}
	if a := testing.AllocsPerRun(100, func() { computeBatch(abi.InCap, 1, 0) }); a != 0 {
		t.Errorf("compute_batch out of bounds: %v allocations per call, want 0", a)
	}
}

// TestBufferExports checks the buffer exports against the buffers.
func TestBufferExports(t *testing.T) {
	if inCap() != uint32(len(inBuf)) || outCap() != uint32(len(outBuf)) || abiVersion() != abi.Version {
		t.Errorf("in_cap %d, out_cap %d, abi_version %d", inCap(), outCap(), abiVersion())
	}
	if inPtr() == outPtr() || inPtr() == 0 || errPtr() == 0 {
		t.Errorf("buffer addresses: in %#x, out %#x, err %#x", inPtr(), outPtr(), errPtr())
	}
	// The getters of the last call's outcome.
	in := engine.Input{Counter: engine.Counter{Type: engine.RawFraction}, New: engine.RawCounter{FirstValue: 1, SecondValue: 2}}
	abi.PutRequest(inBuf, &in, 1<<9)
	if rc := computeBatch(0, 1, 0); rc != abi.CodeArgument || errLength() != errLen || errLength() == 0 || lastDetailExport() != 0 {
		t.Errorf("compute_batch with a reserved bit: %d, err_len %d, last_detail %d", rc, errLength(), lastDetailExport())
	}
	compute(uint32(engine.RawFraction), 0, 1<<9, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0)
	if lastStatusExport() != abi.StatusArgument {
		t.Errorf("last_status after a reserved option: %#x", lastStatusExport())
	}
}

// TestReserve checks in_reserve and out_reserve: the static buffers up to
// their sizes, a larger buffer that in_ptr/in_cap then report and bounds
// checks then use, a refused request over abi.MaxReserve that leaves the buffer
// as it was, and the return to the static buffers.
func TestReserve(t *testing.T) {
	defer inReserve(0)
	defer outReserve(0)
	static := inPtr()
	if p := inReserve(abi.InCap); p != static || inCap() != abi.InCap {
		t.Fatalf("in_reserve(abi.InCap) = %#x, cap %d; want the static buffer %#x", p, inCap(), static)
	}
	p := inReserve(abi.InCap + 1)
	if p == 0 || p != inPtr() || inCap() != abi.InCap+64<<10 || len(inBuf) != abi.InCap+64<<10 {
		t.Fatalf("in_reserve(abi.InCap+1) = %#x, in_ptr %#x, in_cap %d", p, inPtr(), inCap())
	}
	if q := inReserve(abi.InCap + 2); q != p {
		t.Errorf("in_reserve of a size the buffer holds moved it: %#x, was %#x", q, p)
	}
	// The offset just past the static buffer is now inside.
	if rc := computeBatch(abi.InCap, 1, 0); rc != 1 {
		t.Errorf("compute_batch at abi.InCap of a larger buffer = %d: %s", rc, errBuf[:errLen])
	}
	if rc := computeBatch(inCap()-abi.ReqSize+1, 1, 0); rc != abi.CodeBounds {
		t.Errorf("compute_batch past the larger buffer = %d, want abi.CodeBounds", rc)
	}
	if q := inReserve(abi.MaxReserve + 1); q != 0 || inPtr() != p || !strings.Contains(string(errBuf[:errLen]), "largest buffer") {
		t.Errorf("in_reserve(abi.MaxReserve+1) = %#x, in_ptr %#x, error %q", q, inPtr(), errBuf[:errLen])
	}
	if q := inReserve(0); q != static || inCap() != abi.InCap {
		t.Errorf("in_reserve(0) = %#x, cap %d; want the static buffer %#x", q, inCap(), static)
	}
	o := outReserve(abi.OutCap * 2)
	if o == 0 || o != outPtr() || outCap() != abi.OutCap*2 {
		t.Errorf("out_reserve(2·abi.OutCap) = %#x, out_ptr %#x, out_cap %d", o, outPtr(), outCap())
	}
}
