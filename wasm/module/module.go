// Package module embeds the WebAssembly modules that "make wasm" builds
// from package wasm (the //go:wasmexport facade, a main package that cannot
// be imported) and commits here, the one copy of each in the repository:
// perfcalc.wasm, every export but analyze, and perfcalc-analyze.wasm,
// analyze alone (the build tag perfcalcanalyze; doc/ANALYSIS.md says why it
// is a module of its own). Package host runs them; the JS package's tests
// and the viewer's server read the files, and the npm and Python packages
// copy them when they are packed or installed ("make wasm-check" checks
// that they equal a fresh build).
//
// # Size
//
// A program carries perfcalc-analyze.wasm (3 MB) only when it calls
// AnalyzeBytes, directly or through host.Engine's Analyze: the linker
// drops an embedded variable that no reachable code reads (a program
// that calls an Engine's methods by name through package reflect, as
// text/template does, keeps them all, and so the module).
package module

import _ "embed"

var (
	//go:embed perfcalc.wasm
	wasm []byte

	//go:embed perfcalc-analyze.wasm
	analyzeWasm []byte
)

// Bytes returns the bytes of perfcalc.wasm. They are shared: do not
// change them.
func Bytes() []byte { return wasm }

// AnalyzeBytes returns the bytes of perfcalc-analyze.wasm, the module with
// the analyze export. They are shared: do not change them.
func AnalyzeBytes() []byte { return analyzeWasm }
