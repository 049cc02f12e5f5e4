// Package engine computes Windows performance counter values from raw
// samples, exactly as Windows' Performance Data Helper (PDH) does.
//
// A counter's raw values (the numbers in an HKEY_PERFORMANCE_DATA blob, a
// PerfLib V2 query result or a perfmon .blg log) become readable values
// through a formula chosen by the counter's type, a time base, often a base
// counter, and usually two samples. This package knows every counter type of
// winperf.h (CounterType), computes one value (Compute) or many (ComputeBatch)
// with PDH's formulas, arithmetic order and statuses, summarises a series
// (ComputeStatistics), and prints values exactly as PDH writes them in its
// logs (AppendValue, AppendFloat: %.20g as current Windows, %.17g as before
// about 2020, exponents with three digits).
//
// The decoders of the raw formats live in sub-packages and report malformed
// input with a FormatError.
//
// # Exactness
//
// Values are bit-identical with relog's output: integer deltas are taken in
// uint64 before one conversion to float64, rates divide the time delta by
// the frequency first, and percentages form the fraction before multiplying
// by 100 (see Compute). The same code gives the same bits when built for
// WebAssembly. One deliberate exception: a multi timer whose exact fraction
// ΔN / (B1·ΔD) is at most 1 is clamped to 1 when float64 rounding of deltas
// above 2^53 would push it past 1, so that its value stays within [0, 100].
//
// # Speed
//
// Computation and formatting allocate nothing. A type's formula and status
// rules are data in a table indexed by a perfect hash of the type (the
// reference computation, compute.go); values that are plainly valid go
// through a loop specialised to their formula instead (kernel.go), which
// does only that formula's arithmetic, in the same order. ComputeBatch
// costs about what a plain hand-written loop for the type does: a run of
// one type a few nanoseconds per counter, a random mix of types about
// three times that (doc/PERFORMANCE.md has the figures).
// AppendFloat computes the correctly rounded digits of %.17g and %.20g with
// 128-bit integer arithmetic (formatdigits.go), exactly, in about a
// quarter of strconv's time at 20 digits.
//
// # Security
//
// Every input is accepted: any type value, any raw values, zero or negative
// time deltas and frequencies, missing samples. The result is a value and a
// Status, never NaN, ±Inf or a panic; an unknown type is UnknownType.
//
// The package imports nothing outside the standard library, and neither fmt
// nor os, so that the WebAssembly module stays small.
package engine
