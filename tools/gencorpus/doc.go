// Package gencorpus builds the project's own generated captures, the files
// of testdata/corpus, with the project's encoder (tools/encode): a
// multi-object "Global" V1 snapshot pair of a made-up machine
// PERFCALC-DEMO, its "Counter 009" and "Help 009" name tables, a PerfLib V2
// counterset (registration, counter names, instances and a
// PerfQueryCounterData pair), and a small perfmon log (sample.blg, written
// by tools/blgbuild) for trying the packages without the shared corpus.
//
// Real multi-object and V2 captures are not publicly available, so the
// data imitates real Windows captures (title indexes, names, counter types,
// sizes, scales, detail levels, value magnitudes) with values chosen so that
// many computed results are exact numbers; testdata/corpus/README.md lists
// them. Every file is built deterministically: Build gives the same bytes on
// every run and every OS, and a test checks that the committed files equal
// a fresh build.
//
// Regenerate the files with "make corpus", that is
//
//	go run ./tools/gencorpus/cmd/gencorpus -o testdata/corpus
//
// or with go generate in this package.
//
// # Security
//
// The package reads no input: everything it encodes is a constant
// description in its own source.
//
//go:generate go run ./cmd/gencorpus -o ../../testdata/corpus
package gencorpus
