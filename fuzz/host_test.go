package fuzz

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/host"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// hostEngine is the sandbox of the host fuzz targets: one per process (each
// fuzz worker compiles the module once, about a second), created outside
// f.Fuzz.
var hostEngine = sync.OnceValues(func() (*host.Engine, error) {
	return host.New(context.Background(), host.NewConfig().WithPoolSize(1))
})

func hostFor(f *testing.F) *host.Engine {
	e, err := hostEngine()
	if err != nil {
		f.Fatal(err)
	}
	return e
}

// FuzzHostCompute computes random requests of every counter type natively
// and in the WebAssembly module: the same value bits and status, for Compute
// and ComputeBatch.
func FuzzHostCompute(f *testing.F) {
	e := hostFor(f)
	for i, typ := range append(engine.Types(), 0x12345678) {
		f.Add(uint32(typ), i%3 != 0, uint32(i%16), int32(i%7-3), int64(10_000_000), uint32(0), uint64(1000), uint64(5000), uint32(2),
			uint32(i%2), uint64(1500+i), uint64(9000), uint32(2))
	}
	f.Add(uint32(engine.CounterMultiTimer), true, uint32(1), int32(0), int64(1), uint32(0), uint64(0), uint64(0), uint32(0),
		uint32(0), uint64(math.MaxUint64), uint64(math.MaxUint64), uint32(math.MaxUint32))
	f.Add(uint32(engine.CounterCounter), true, uint32(8), int32(0), int64(math.MaxInt64), uint32(1), uint64(0xFFFFFFF0), uint64(100), uint32(0),
		uint32(1), uint64(0x10), uint64(200), uint32(0))
	f.Fuzz(func(t *testing.T, typ uint32, hasOld bool, opts uint32, scale int32, tb int64,
		oc uint32, of, os uint64, om uint32, nc uint32, nf, ns uint64, nm uint32) {
		in := engine.Input{
			Counter: engine.Counter{Type: engine.CounterType(typ), Scale: scale, TimeBase: tb},
			HasOld:  hasOld,
			Old:     engine.RawCounter{CStatus: oc, FirstValue: of, SecondValue: os, MultiCount: om},
			New:     engine.RawCounter{CStatus: nc, FirstValue: nf, SecondValue: ns, MultiCount: nm},
		}
		want := engine.Compute(&in, engine.Options(opts))
		have, err := e.Compute(&in, engine.Options(opts))
		if err != nil || math.Float64bits(have.Value) != math.Float64bits(want.Value) || have.Status != want.Status {
			t.Fatalf("Compute: have %v %v (%v), want %v %v", have.Value, have.Status, err, want.Value, want.Status)
		}
		out := make([]engine.Result, 2)
		ins := []engine.Input{in, in}
		ins[1].HasOld = !in.HasOld
		if n, err := e.ComputeBatch(ins, engine.Options(opts), out); n != 2 || err != nil {
			t.Fatalf("ComputeBatch: %d, %v", n, err)
		}
		for i := range ins {
			w := engine.Compute(&ins[i], engine.Options(opts))
			if math.Float64bits(out[i].Value) != math.Float64bits(w.Value) || out[i].Status != w.Status {
				t.Fatalf("ComputeBatch[%d]: have %v, want %v", i, out[i], w)
			}
		}
	})
}

// hostCorpus is what FuzzHostDecode decodes the fuzzed bytes with: the
// project's name table, V2 registration and strings, and an older V1 capture.
type hostCorpus struct {
	names, reg, strs, older []byte
}

func loadHostCorpus(f *testing.F) hostCorpus {
	read := func(name string) []byte {
		b, err := os.ReadFile(corpus.Project(f, name))
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	return hostCorpus{read("counter-009.multisz"), read("v2-reginfo.bin"), read("v2-strings.bin"), read("global-1.bin")}
}

// The decoders FuzzHostDecode's first argument selects.
const (
	hdV1 = iota
	hdV1Named
	hdNames
	hdV2
	hdBlg
	hdQuery
	hdRelog
	hdStats
	hdCount
)

// FuzzHostDecode decodes random and corpus bytes with every decoder of the
// ABI natively (host.Native) and in the module: the same records, value bits
// included, or the same error code and text.
func FuzzHostDecode(f *testing.F) {
	e := hostFor(f)
	hc := loadHostCorpus(f)
	for _, kind := range []gencorpus.Kind{gencorpus.KindV1, gencorpus.KindNameTable, gencorpus.KindV2Data} {
		seeds, err := gencorpus.Seeds(kind)
		if err != nil {
			f.Fatal(err)
		}
		for _, s := range seeds {
			switch kind {
			case gencorpus.KindV1:
				f.Add(uint8(hdV1Named), s, uint8(1))
				f.Add(uint8(hdQuery), s, uint8(3))
			case gencorpus.KindNameTable:
				f.Add(uint8(hdNames), s, uint8(0))
			case gencorpus.KindV2Data:
				f.Add(uint8(hdV2), s, uint8(2))
			}
		}
	}
	for i, b := range pdSeedBlobs(f) {
		f.Add(uint8(hdV1), b, uint8(i))
	}
	real := pdRealBlocks(f)
	for i := 0; i < len(real); i += 8 { // one block of each sample
		f.Add(uint8(hdV1), real[i], uint8(0))
	}
	if root := corpus.Root(); root != "" {
		logs, _ := filepath.Glob(filepath.Join(filepath.Dir(root), "shared", "corpus", "blg", "PowerShell_CorruptBlg.blg"))
		for _, l := range logs {
			b, err := os.ReadFile(l)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(hdBlg), b, uint8(0))
			f.Add(uint8(hdRelog), b, uint8(1))
			f.Add(uint8(hdStats), b, uint8(0))
		}
	}
	f.Add(uint8(hdBlg), []byte("not a log"), uint8(0))
	pat, err := counterpath.Parse(`\*(*)\*`)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte, opt uint8) {
		var native host.Native
		opts := engine.Options(opt & 15)
		switch kind % hdCount {
		case hdV1, hdV1Named:
			names := hc.names
			if kind%hdCount == hdV1 {
				names = nil
			}
			have, herr := e.DecodeV1(data, names, opts)
			want, werr := native.DecodeV1(data, names, opts)
			compareDecoded(t, have, herr, want, werr)
		case hdNames:
			have, herr := e.DecodeNames(data)
			want, werr := native.DecodeNames(data)
			compareDecoded(t, have, herr, want, werr)
		case hdV2:
			cs := host.V2Counterset{RegInfo: hc.reg, Strings: hc.strs}
			if opt&16 != 0 {
				cs.IDs = []uint32{0, 1, 2, 3}
			}
			have, herr := e.DecodeV2(data, cs, opts)
			want, werr := native.DecodeV2(data, cs, opts)
			compareDecoded(t, have, herr, want, werr)
		case hdBlg:
			sel := relog.Options{Every: int(opt >> 6)}
			if opt&32 != 0 {
				sel.Counters = []counterpath.Path{pat}
			}
			have, herr := e.DecodeBlg(data, sel)
			want, werr := native.DecodeBlg(data, sel)
			compareDecoded(t, have, herr, want, werr)
		case hdQuery:
			cfg := host.QueryConfig{Names: hc.names, Options: opts}
			older := hc.older
			if opt&16 != 0 {
				older = nil
			}
			have, herr := e.Query(nil, &cfg, older, data)
			want, werr := native.Query(nil, &cfg, older, data)
			compareErrors(t, herr, werr)
			if len(have) != len(want) {
				t.Fatalf("query: have %d values, want %d", len(have), len(want))
			}
			for i := range want {
				h, w := have[i], want[i]
				if string(h.Path) != string(w.Path) || math.Float64bits(h.Value) != math.Float64bits(w.Value) ||
					h.Status != w.Status || h.Type != w.Type || h.Scale != w.Scale || h.DetailLevel != w.DetailLevel || h.HasOld != w.HasOld {
					t.Fatalf("query value %d: have %+v, want %+v", i, h, w)
				}
			}
		case hdStats:
			sel := relog.Options{Every: int(opt >> 6)}
			if opt&32 != 0 {
				sel.Counters = []counterpath.Path{pat}
			}
			have, herr := e.RelogStats(data, sel)
			want, werr := native.RelogStats(data, sel)
			compareDecoded(t, have, herr, want, werr)
		case hdRelog:
			format := relog.Format(opt % 3)
			have, herr := e.RelogText(data, relog.Options{}, format)
			want, werr := native.RelogText(data, relog.Options{}, format)
			if host.ErrorCode(herr) == host.CodeSpace && len(want) > abi.OutCap {
				return // longer than the module's output buffer: documented
			}
			if (herr == nil) != (werr == nil) || (herr != nil && herr.Error() != werr.Error()) || string(have) != string(want) {
				t.Fatalf("relog text: have %d bytes (%v), want %d bytes (%v)", len(have), herr, len(want), werr)
			}
		}
	})
}

// compareErrors fails unless both errors are nil, or both carry the same
// module error code and text.
func compareErrors(t *testing.T, have, want error) {
	t.Helper()
	if (have == nil) != (want == nil) || host.ErrorCode(have) != host.ErrorCode(want) || (have != nil && have.Error() != want.Error()) {
		t.Fatalf("error: have %v (%v), want %v (%v)", have, host.ErrorCode(have), want, host.ErrorCode(want))
	}
}

// compareDecoded fails unless both decodes give the same records (value
// bits included) and header fields, or the same error.
func compareDecoded(t *testing.T, have *host.Decoded, herr error, want *host.Decoded, werr error) {
	t.Helper()
	compareErrors(t, herr, werr)
	if werr != nil {
		return
	}
	if have.Kind != want.Kind || have.Columns != want.Columns || have.Rows != want.Rows || have.Info != want.Info || have.Bias != want.Bias {
		t.Fatalf("header: have %v %d %d %q %d, want %v %d %d %q %d", have.Kind, have.Columns, have.Rows, have.Info, have.Bias,
			want.Kind, want.Columns, want.Rows, want.Info, want.Bias)
	}
	if (have.Damage == nil) != (want.Damage == nil) || (have.Damage != nil && have.Damage.Error() != want.Damage.Error()) {
		t.Fatalf("damage: have %v, want %v", have.Damage, want.Damage)
	}
	if len(have.Records) != len(want.Records) || len(have.Statistics) != len(want.Statistics) {
		t.Fatalf("have %d records and %d statistics, want %d and %d", len(have.Records), len(have.Statistics), len(want.Records), len(want.Statistics))
	}
	for i := range want.Statistics {
		h, w := have.Statistics[i], want.Statistics[i]
		for _, v := range [][2]float64{{h.Min, w.Min}, {h.Max, w.Max}, {h.Mean, w.Mean}} {
			if math.Float64bits(v[0]) != math.Float64bits(v[1]) {
				t.Fatalf("statistics %d (%s): %v, want %v", i, w.Path, h, w)
			}
		}
		if !reflect.DeepEqual(h, w) {
			t.Fatalf("statistics %d:\nhave %+v\nwant %+v", i, h, w)
		}
	}
	for i := range want.Records {
		h, w := have.Records[i], want.Records[i]
		if math.Float64bits(h.Value) != math.Float64bits(w.Value) {
			t.Fatalf("record %d (%s): value bits %#x, want %#x", i, w.Path, math.Float64bits(h.Value), math.Float64bits(w.Value))
		}
		h.Value, w.Value = 0, 0
		if !reflect.DeepEqual(h, w) {
			t.Fatalf("record %d:\nhave %+v\nwant %+v", i, h, w)
		}
	}
}
