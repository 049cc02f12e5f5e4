// Command wasm is perfcalc's WebAssembly facade: the engine and its decoders
// as one WASI preview-1 reactor module, perfcalc.wasm, whose functions are
// exported with //go:wasmexport for any host (a browser or Node with a WASI
// shim, wazero, wasmtime, …). ABI.md beside this file is the contract: the
// exports, the memory layout of every record, the status and error codes and
// the calling sequence (_initialize first).
//
// The exports are thin shims over package internal/abi, which holds the
// layout (the constants of ABI.md's tables, from which the JS constants and
// those tables are generated), the records' readers and writers and one
// record builder per input kind; package host reads the module's results
// through the same package, and its Native runs the same builders.
//
// Build it reproducibly with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath \
//		-ldflags="-s -w -buildid=" -buildvcs=false -o wasm/module/perfcalc.wasm ./wasm
//
// The same package built with the tag perfcalcanalyze is the second
// module, perfcalc-analyze.wasm (make wasm builds both): the analyze export
// (analyze.go) with the buffers, errors and paging of main.go and calls.go,
// and neither compute.go nor decode.go. Analysis is a module of its own,
// loaded only when analysis is asked for, because its packages would grow
// perfcalc.wasm by about 750 KB (doc/ANALYSIS.md).
//
// The exported functions also compile natively, where //go:wasmexport is
// ignored: the package's tests call them directly. The reference that the
// hosts' tests compare the module with, the same builders run natively on
// files, is a tool outside the facade (tools/wasmref).
// The tests also run as WebAssembly, in wazero (make wasm-test):
//
//	go build -o /tmp/wasip1exec ./tools/wasip1exec
//	GOOS=wasip1 GOARCH=wasm go test -exec /tmp/wasip1exec ./wasm
//
// # Memory
//
// The module owns two buffers: an input buffer that the host fills, and an
// output buffer that the exports write. They start as static buffers of
// abi.InCap and abi.OutCap bytes; in_reserve and out_reserve replace them
// with larger ones (up to abi.MaxReserve bytes) for larger inputs and
// results. The
// host learns their addresses after _initialize, and after each reserve,
// from in_ptr and out_ptr; every other export takes offsets and lengths
// within them, checked before use. The compute exports allocate nothing; the
// decode exports allocate in proportion to their input, which the input
// buffer bounds.
//
// # Security
//
// The host and its data are untrusted: every offset and length is checked
// against the buffers, every export recovers panics and returns an error
// code, and no export's memory use grows with anything but its input or its
// output, which are at most the buffers' sizes (a decode whose result does
// not fit returns it page by page), and those grow only when the host asks,
// up to abi.MaxReserve.
//
// # Size
//
// The module imports only the standard library (neither fmt nor os),
// perfcalc's engine packages and internal/abi, to stay small; size_test.go holds it to a
// budget of 2.6 MB raw and 760 KB gzipped (about 2.5 MB / 750 KB with gzip
// -9). The Go runtime is 1.8 MB of that. What else keeps the rest small,
// measured on this module (raw bytes saved):
//
//   - no errors.Is or errors.As in code the module reaches: they link
//     internal/reflectlite (~40 KB); follow Unwrap chains by hand (abi.CodeOf);
//   - no strconv.Quote, ParseInt or ParseUint: quoting and NumError bring
//     strconv's printability tables (~20 KB); engine/internal/quote and
//     small digit loops do instead;
//   - no package-slices sorts: each element type is another copy of
//     pdqsort (~20 KB); engine/internal/heapsort serves all;
//   - no functions that consult Unicode's property tables where ASCII is
//     what is meant (strings.ToLower on a DLL name, bytes.TrimSpace on a
//     line: ~25 KB each);
//   - error constructors and number formatters on error paths marked
//     //go:noinline: inlined at hundreds of call sites they cost ~45 KB.
//   - no runtime.ReadMemStats: the mallocs export that counts a call's
//     allocations for the hosts' tests is in the debug build only
//     (debug.go; 13.7 KB).
//
// wasm-opt -Oz (binaryen 108) would take another 4 % off the raw size but
// only 0.4 % off the gzipped size; the build does not use it.
package main

import (
	"unsafe"

	"github.com/perfcalc/perfcalc/internal/abi"
)

// The module's static buffers. They are zero-filled BSS: they cost memory
// pages, not bytes of the .wasm file. inBuf and outBuf are the buffers in
// use: the static ones, or larger ones that in_reserve and out_reserve
// allocated.
var (
	inStatic  [abi.InCap]byte
	outStatic [abi.OutCap]byte
	inBuf     = inStatic[:]
	outBuf    = outStatic[:]

	errBuf [abi.ErrCap]byte
	errLen uint32

	// lastStatus is the status of the last compute call.
	lastStatus uint32
	// lastDetail is a number that completes the last error code: the
	// index of the offending request, or the bytes a result needs.
	lastDetail uint32
)

// addr returns the linear-memory address of p (a 32-bit value in wasm; the
// low 32 bits of the address natively, where it is meaningless).
func addr(p *byte) uint32 { return uint32(uintptr(unsafe.Pointer(p))) }

// abiVersion returns abi.Version.
//
//go:wasmexport abi_version
func abiVersion() uint32 { return abi.Version }

// inPtr returns the address of the input buffer in linear memory.
//
//go:wasmexport in_ptr
func inPtr() uint32 { return addr(&inBuf[0]) }

// inCap returns the size of the input buffer in bytes.
//
//go:wasmexport in_cap
func inCap() uint32 { return uint32(len(inBuf)) }

// outPtr returns the address of the output buffer in linear memory.
//
//go:wasmexport out_ptr
func outPtr() uint32 { return addr(&outBuf[0]) }

// outCap returns the size of the output buffer in bytes.
//
//go:wasmexport out_cap
func outCap() uint32 { return uint32(len(outBuf)) }

// inReserve makes the input buffer hold at least n bytes and returns its
// address, which in_ptr and in_cap then report; see reserve.
//
//go:wasmexport in_reserve
func inReserve(n uint32) uint32 { return reserve(&inBuf, inStatic[:], n, "in_reserve") }

// outReserve makes the output buffer hold at least n bytes and returns its
// address, which out_ptr and out_cap then report; see reserve.
//
//go:wasmexport out_reserve
func outReserve(n uint32) uint32 { return reserve(&outBuf, outStatic[:], n, "out_reserve") }

// reserve gives *buf at least n bytes. Up to the static buffer's size it is
// the static buffer again (a larger one is let go, for the garbage
// collector); a buffer that is already large enough is kept; otherwise a new
// one of n bytes, rounded up to 64 KiB, replaces it. The contents of a
// replaced buffer are not kept. Over abi.MaxReserve it returns 0 and leaves the
// buffer as it is, with the reason at err_ptr. (An allocation the host's
// memory limit refuses traps, as any out-of-memory does. Nothing else in it
// can panic, so unlike the other exports it needs no recover.)
func reserve(buf *[]byte, static []byte, n uint32, what string) (ptr uint32) {
	clearError()
	switch {
	case n > abi.MaxReserve:
		setError("perfcalc: " + what + ": more than the largest buffer, 1 GiB")
		return 0
	case int(n) <= len(static):
		*buf = static
	case int(n) > len(*buf):
		*buf = nil // let the old one go before the new one is allocated
		*buf = make([]byte, (int(n)+0xffff)&^0xffff)
	}
	return addr(&(*buf)[0])
}

// errPtr returns the address of the last error's text (UTF-8, errLen bytes).
//
//go:wasmexport err_ptr
func errPtr() uint32 { return addr(&errBuf[0]) }

// errLength returns the length in bytes of the last error's text; 0 after a
// call that succeeded.
//
//go:wasmexport err_len
func errLength() uint32 { return errLen }

// lastStatusExport returns the Status of the last compute call.
//
//go:wasmexport last_status
func lastStatusExport() uint32 { return lastStatus }

// lastDetailExport returns the number that completes the last error code
// (see ABI.md).
//
//go:wasmexport last_detail
func lastDetailExport() uint32 { return lastDetail }

// setError records the text of the last error (cut to abi.ErrCap bytes).
//
//go:noinline
func setError(msg string) {
	errLen = uint32(copy(errBuf[:], msg))
}

// clearError forgets the last error.
func clearError() {
	errLen = 0
	lastDetail = 0
}
