// Package fuzz holds perfcalc's native Go fuzz targets, one file per area:
// every decoder of untrusted bytes, the counter-path parser, and the
// encoders' round trips. Plain "go test" runs their seed corpora; "make
// fuzz" fuzzes each target for FUZZTIME.
//
// The invariant checked on every input: no panic, bounded time, and every
// error a decoder returns names where the problem is.
package fuzz
