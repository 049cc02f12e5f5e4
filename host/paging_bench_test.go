package host_test

import (
	"bytes"
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

// relogText converts the log with relog_text in format and returns the
// text, as a host reads it: by this module's pages (decode_next with the
// cursor in last_detail; pages), or by the protocol before text pages:
// CodeSpace with the text's length in last_detail, out_reserve and a second
// conversion (guess > 0: after out_reserve(guess), Python's 4n + 1 MiB, one
// conversion).
func (m *rawModule) relogText(tb testing.TB, n int, format uint64, pages bool, guess uint64) []byte {
	if guess > 0 {
		m.call(tb, "out_reserve", guess)
	}
	rc := int32(m.call(tb, "relog_text", 0, uint64(n), 0, 0, 0, 0, 0, format))
	var text []byte
	for rc == abi.CodeSpace {
		detail := m.call(tb, "last_detail")
		if !pages {
			m.call(tb, "out_reserve", detail)
			rc = int32(m.call(tb, "relog_text", 0, uint64(n), 0, 0, 0, 0, 0, format))
			break
		}
		b, ok := m.mod.Memory().Read(uint32(m.call(tb, "out_ptr")), uint32(m.call(tb, "out_cap")))
		if !ok {
			tb.Fatal("a page outside memory")
		}
		text = append(text, b...)
		rc = int32(m.call(tb, "decode_next", detail))
	}
	if rc < 0 {
		tb.Fatalf("relog_text: %d", rc)
	}
	b, ok := m.mod.Memory().Read(uint32(m.call(tb, "out_ptr")), uint32(rc))
	if !ok {
		tb.Fatal("the text outside memory")
	}
	return append(text, b...)
}

// BenchmarkTextPaging converts the real Tx log repeated 40 times (15.7 MB)
// to relog's JSON and CSV (text-MB; pages of the 4 MiB output buffer)
// through wazero: by this module's pages
// (pages: the log converted once, the output buffer left at 4 MiB) and,
// when PERFCALC_BASE_WASM names a module before text pages (the commit
// before them:
//
//	git show 81e238d:wasm/module/perfcalc.wasm > /tmp/base.wasm
//
// ), by its protocol: twice converts, then reserves the text's length and
// converts again (what host and JS did); guess reserves 4n + 1 MiB first
// and converts once (what Python did). mem-MB is the instance's memory
// after the text, B/op what the host allocates (wazero's memory
// included). -benchtime 1x -count 3 is enough; read cpu-ns/text on a
// busy machine.
func BenchmarkTextPaging(b *testing.B) {
	tx := readFile(b, corpus.Shared(b, "blg", "Tx_BasicPerfCounters.blg"))
	l, err := gencorpus.NewRepeatedLog(tx, 40)
	if err != nil {
		b.Fatal(err)
	}
	log := l.Bytes()
	type side struct {
		name   string
		wasm   []byte
		pages  bool
		guess  uint64
		format relog.Format
	}
	var sides []side
	base := os.Getenv("PERFCALC_BASE_WASM")
	if base == "" {
		b.Log("PERFCALC_BASE_WASM is not set: the text without pages is not measured")
	}
	for _, f := range []relog.Format{relog.JSON, relog.CSV} {
		name := map[relog.Format]string{relog.JSON: "json", relog.CSV: "csv"}[f]
		sides = append(sides, side{name + "/pages", host.Module(), true, 0, f})
		if base != "" {
			w := readFile(b, base)
			sides = append(sides, side{name + "/twice", w, false, 0, f}, side{name + "/guess", w, false, uint64(min(4*len(log)+1<<20, abi.MaxReserve)), f})
		}
	}
	for _, s := range sides {
		want, err := host.Native{}.RelogText(log, relog.Options{}, s.format)
		if err != nil {
			b.Fatal(err)
		}
		r, cm := compileRaw(b, s.wasm)
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			var mem uint32
			t := cputime.Start(b)
			for i := 0; i < b.N; i++ {
				m := newRaw(b, r, cm, log)
				text := m.relogText(b, len(log), uint64(s.format), s.pages, s.guess)
				if !bytes.Equal(text, want) {
					b.Fatalf("%d bytes of text, want %d identical bytes", len(text), len(want))
				}
				mem = m.mod.Memory().Size()
				m.mod.Close(m.ctx)
			}
			t.Report(b, float64(b.N), "text")
			b.ReportMetric(float64(mem)/(1<<20), "mem-MB")
			b.ReportMetric(float64(len(want))/1e6, "text-MB")
		})
	}
}
