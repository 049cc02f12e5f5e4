//go:build perfcalcdebug

package main

import (
	"runtime"

	"github.com/perfcalc/perfcalc/internal/abi"
)

// This file is TEST-ONLY. It is compiled only with -tags perfcalcdebug and is
// never part of the shipped perfcalc.wasm (make wasm and make wasm-check build
// ./wasm without tags, and wasm-check compares the bytes). It exists so that a
// host's tests can force the failures that the shipped ABI cannot provoke on
// purpose: every shipped export recovers its panics, and no export's work is
// unbounded (see ABI.md, "Debug build", and host/debug_test.go).

// The kinds of debug_fault.
const (
	DebugPanic     = 0 // a Go panic that no deferred recover catches: the module traps
	DebugRecovered = 1 // a Go panic recovered as every export does: abi.CodePanic
	DebugAlloc     = 2 // allocate without bound until the Go runtime runs out of memory
	DebugSpin      = 3 // loop forever
)

// debugSink keeps debug_fault's allocations reachable, so that the garbage
// collector cannot reclaim them.
var debugSink [][]byte

// debugSpins is the counter that debug_fault's endless loop increments (a
// global, so the loop has an effect).
var debugSpins uint64

// debugFault fails on purpose, as kind says (DebugPanic, DebugRecovered,
// DebugAlloc, DebugSpin); another kind returns abi.CodeArgument. Only
// DebugRecovered and an unknown kind return.
//
// TEST-ONLY: this export exists only in a build with -tags perfcalcdebug,
// never in the shipped module.
//
//go:wasmexport debug_fault
func debugFault(kind uint32) int32 {
	clearError()
	switch kind {
	case DebugPanic:
		// No deferred recover on this path: the panic reaches the
		// runtime, which prints it on stderr and traps.
		panic("perfcalc debug: forced panic (debug_fault 0)")
	case DebugRecovered:
		return debugRecoveredPanic()
	case DebugAlloc:
		for {
			debugSink = append(debugSink, make([]byte, 1<<20))
		}
	case DebugSpin:
		for {
			debugSpins++
		}
	}
	setError("perfcalc debug: debug_fault: unknown kind")
	return abi.CodeArgument
}

// debugRecoveredPanic panics under the facade's usual recover (recovered):
// it returns abi.CodePanic with the panic's text at err_ptr.
func debugRecoveredPanic() (rc int32) {
	defer recovered(&rc)
	panic("perfcalc debug: forced panic (debug_fault 1)")
}

// memStats is mallocs' runtime.MemStats (a package variable: reading it
// allocates nothing).
var memStats runtime.MemStats

// mallocs returns the Go runtime's count of heap allocations so far
// (runtime.MemStats.Mallocs), so that a host's tests can measure what a
// call allocates in the guest (web/test's compute test does).
//
// TEST-ONLY: this export exists only in a build with -tags perfcalcdebug:
// runtime.ReadMemStats costs the shipped module about 13.7 KB.
//
//go:wasmexport mallocs
func mallocs() uint64 {
	runtime.ReadMemStats(&memStats)
	return memStats.Mallocs
}
