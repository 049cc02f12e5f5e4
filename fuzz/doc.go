// Package fuzz holds perfcalc's native Go fuzz targets, one file per area:
// every decoder of untrusted bytes, the counter-path parser, the encoders'
// round trips, and the live collector's sources (collect_test.go). Targets
// that need unexported code live beside their package (collect's PDH and
// PerfLib buffers, perfcalc watch's -si and text). Plain "go test" runs
// their seed corpora; "make fuzz" fuzzes each target for FUZZTIME.
//
// The invariant checked on every input: no panic, bounded time, and every
// error a decoder returns names where the problem is.
package fuzz
