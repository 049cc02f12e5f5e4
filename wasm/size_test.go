//go:build !wasip1

package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// Size budget of the shipped module, perfcalc.wasm: the issue asks for about
// 2.5 MB raw and 750 KB gzipped (the Go runtime alone is ~1.8 MB / 540 KB).
// compress/gzip at BestCompression writes about 1 % more than gzip -9: the
// 2,595,115-byte module of 2026-11-21 is 754,237 bytes with it, 745,881 with
// gzip -9. A change that crosses a limit must win the bytes back (see
// "Size" in the package documentation) or raise it on purpose.
//
// Issue 24 allows the analyze export 200 KB more; it takes 767,212 (the
// analysis packages of 2026-11-26), so the shipped module leaves it out
// (the build tag perfcalcanalyze, see TestAnalyzeBudget) and these budgets
// stay: raise them by at most 200,000 raw bytes when analyze fits.
const (
	maxModuleBytes     = 2_600_000
	maxModuleGzipBytes = 760_000
)

func TestModuleSize(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("module", "perfcalc.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("perfcalc.wasm: %d bytes, %d gzipped", len(b), z.Len())
	if len(b) > maxModuleBytes {
		t.Errorf("perfcalc.wasm is %d bytes, over the budget of %d", len(b), maxModuleBytes)
	}
	if z.Len() > maxModuleGzipBytes {
		t.Errorf("perfcalc.wasm gzips to %d bytes, over the budget of %d", z.Len(), maxModuleGzipBytes)
	}
}
