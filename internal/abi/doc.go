// Package abi is the ABI of perfcalc's WebAssembly module (wasm/ABI.md) in
// one place: its layout (layout.go: versions, codes, limits, the offsets of
// every record), the readers and writers of its records, the Writer that
// lays a decode result out page by page, and one record builder per input
// kind (Builder: V1, V2, names, .blg, query, statistics, a log's columns;
// RelogText).
//
// The module's //go:wasmexport functions (package wasm) are thin shims
// over it: they check the host's offsets and lengths, run a Builder into
// the Writer and turn its error into a code. Package host reads the same
// records through the same layout, and its Native runs the same Builders
// into a growing Writer and reads the result with the same reader, so the
// two cannot differ. The JS constants
// (web/abi.mjs) and the tables of wasm/ABI.md are generated from layout.go
// by tools/abigen (go generate); a test fails while they are stale.
//
// The package is linked into the module: it imports only the standard
// library and perfcalc's engine, and neither fmt nor os, nor errors.Is
// (see the module's size notes in package wasm).
//
// # Security
//
// The Builders take the decoders' untrusted input as it is and return
// their errors; no allocation is sized by a count read from the input, and
// a result is bounded by MaxRecords. The readers (ReadHeader, ReadRecord,
// …) check nothing beyond the fixed size of what they read: a host checks
// the module's header against its memory before it trusts it.
package abi

//go:generate go run ../../tools/abigen
