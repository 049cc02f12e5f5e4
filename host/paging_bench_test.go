package host_test

import (
	"context"
	"os"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/host"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/cputime"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// rawModule drives a perfcalc.wasm through wazero directly, without
// package host (which speaks only the current ABI), so that a module of ABI
// version 1 can be measured beside this one.
type rawModule struct {
	mod api.Module
	ctx context.Context
}

// compileRaw compiles wasm in a runtime of its own with WASI.
func compileRaw(tb testing.TB, wasm []byte) (wazero.Runtime, wazero.CompiledModule) {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	tb.Cleanup(func() { r.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	cm, err := r.CompileModule(ctx, wasm)
	if err != nil {
		tb.Fatal(err)
	}
	return r, cm
}

// newRaw instantiates the compiled module (initialised), reserves its input
// buffer for log and copies it there.
func newRaw(tb testing.TB, r wazero.Runtime, cm wazero.CompiledModule, log []byte) *rawModule {
	ctx := context.Background()
	mod, err := r.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithStartFunctions("_initialize").WithName(""))
	if err != nil {
		tb.Fatal(err)
	}
	m := &rawModule{mod: mod, ctx: ctx}
	ptr := uint32(m.call(tb, "in_reserve", uint64(len(log))))
	if ptr == 0 || !mod.Memory().Write(ptr, log) {
		tb.Fatal("cannot place the log")
	}
	return m
}

// call calls the export name.
func (m *rawModule) call(tb testing.TB, name string, args ...uint64) uint64 {
	r, err := m.mod.ExportedFunction(name).Call(m.ctx, args...)
	if err != nil {
		tb.Fatal(err)
	}
	return r[0]
}

// header reads the page's header at out_ptr.
func (m *rawModule) header(tb testing.TB) abi.Header {
	b, ok := m.mod.Memory().Read(uint32(m.call(tb, "out_ptr")), abi.HeaderSize)
	if !ok {
		tb.Fatal("no header")
	}
	return abi.ReadHeader(b)
}

// decodeBlg decodes the log with decode_blg page by page and returns the
// records and the pages read: by version 1's protocol (each page decoded
// again from first = first + count; reserve: out_reserve(needed) after the
// first page, a second decode returning the rest) or version 2's
// (decode_next with the header's cursor).
func (m *rawModule) decodeBlg(tb testing.TB, n int, v1, reserve bool) (records, pages uint32) {
	rc := int32(m.call(tb, "decode_blg", 0, uint64(n), 0, 0, 0, 0, 0, 0))
	for {
		if rc < 0 && rc != abi.CodeSpace {
			tb.Fatalf("decode_blg: %d", rc)
		}
		h := m.header(tb)
		// Read the page's records as a host does (the bytes, not parsed).
		if _, ok := m.mod.Memory().Read(uint32(m.call(tb, "out_ptr"))+h.RecOff, h.Count*abi.RecordSize); !ok {
			tb.Fatal("records outside memory")
		}
		records, pages = records+h.Count, pages+1
		if h.Flags&abi.FlagMore == 0 {
			return records, pages
		}
		if h.Count == 0 {
			tb.Fatal("an empty page")
		}
		switch {
		case !v1:
			rc = int32(m.call(tb, "decode_next", uint64(h.Cursor)))
		default:
			if reserve && pages == 1 {
				m.call(tb, "out_reserve", uint64(h.Needed))
			}
			rc = int32(m.call(tb, "decode_blg", 0, uint64(n), 0, 0, 0, 0, 0, uint64(records)))
		}
	}
}

// BenchmarkPaging decodes the real Tx log repeated 40 times (15.7 MB,
// 240,400 records: about five pages of the 4 MiB output buffer) through
// wazero, by this module's continuation (v2-cursor: the log decoded once,
// pages of 4 MiB) and, when PERFCALC_BASE_WASM names a module of ABI
// version 1 (main's before the continuation:
//
//	git show c88f3f6:wasm/perfcalc.wasm > /tmp/base.wasm
//
// ), by version 1's paging: v1-pages decodes the log again for each page,
// v1-reserve reserves a buffer for every record after the first page and
// decodes twice (what host, JS and Python did). The three run side by side
// in one run; -benchtime 1x -count 3 is enough (a decode takes about a
// second). Read cpu-ns/decode on a busy machine.
func BenchmarkPaging(b *testing.B) {
	tx := readFile(b, corpus.Shared(b, "blg", "Tx_BasicPerfCounters.blg"))
	l, err := gencorpus.NewRepeatedLog(tx, 40)
	if err != nil {
		b.Fatal(err)
	}
	log := l.Bytes()
	want, err := host.Native{}.DecodeBlg(log, relog.Options{})
	if err != nil {
		b.Fatal(err)
	}
	type side struct {
		name        string
		wasm        []byte
		v1, reserve bool
	}
	sides := []side{{name: "v2-cursor", wasm: host.Module()}}
	if p := os.Getenv("PERFCALC_BASE_WASM"); p != "" {
		base := readFile(b, p)
		sides = append(sides, side{"v1-pages", base, true, false}, side{"v1-reserve", base, true, true})
	} else {
		b.Log("PERFCALC_BASE_WASM is not set: version 1's paging is not measured")
	}
	for _, s := range sides {
		r, cm := compileRaw(b, s.wasm)
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			var pages uint32
			t := cputime.Start(b)
			for i := 0; i < b.N; i++ {
				// A fresh instance (its default 4 MiB output buffer) with the
				// log in its input buffer: a few milliseconds of the time.
				m := newRaw(b, r, cm, log)
				var recs uint32
				recs, pages = m.decodeBlg(b, len(log), s.v1, s.reserve)
				if int(recs) != len(want.Records) {
					b.Fatalf("%d records, want %d", recs, len(want.Records))
				}
				m.mod.Close(m.ctx)
			}
			t.Report(b, float64(b.N), "decode")
			b.ReportMetric(float64(pages), "pages")
		})
	}
}
