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
// Issue 24 allowed the analyze export 200 KB more; it took about 750 KB
// (the analysis packages of 2026-11-26), so it is in a module of its own,
// perfcalc-analyze.wasm (size_analyze_test.go holds it to its budget and
// checks that this module does not export analyze), and these budgets
// stay.
//
// Issue 26 allowed 4,000 raw and 1,500 gzipped bytes more for three of its
// items in the module: runs of "*" in counter path patterns cut (a pattern
// of 2,000 stars costs what one star costs), the skipped-event count
// (blg.Reader.Skipped, which counted nothing in the module) in the header
// of decode_blg, relog_stats and relog_columns and in relog_text's
// last_detail, and max_columns (relog.Options.MaxColumns, CodeLimit). They
// took 3,496 raw and 1,173 gzipped bytes (2,599,408 -> 2,602,904 raw,
// 759,652 -> 760,825 gzipped): the budgets grew by as much. Item 4's V2
// instance names that keep every code unit (wintype.Text.AppendName in
// query's V2 rows) took 684 raw bytes more (2,602,904 -> 2,603,588; gzip
// 760,716, less).
//
// Issue 25 (item 1) allows up to 150 KB raw more for measured speed (host's
// BenchmarkModuleSpeed: relog's CSV, decode_blg and relog_stats of a 42 MB
// log beside the native code on one core; doc/PERFORMANCE.md). Its
// additions, each measured alone on the module before it (2,603,588 bytes,
// 760,716 gzipped):
//
//   - the fast exact formatter, engine.formatG: +7,720 bytes (relog's CSV
//     1.6× faster);
//   - blg.Sample.Repeat's decoding of a repeated sample by its raw data:
//     +7,681 (CSV and stats about 1.15×);
//   - relog's planned rows (engine/relog/plan.go): +13,410 (CSV and stats
//     about 1.4×);
//   - statistics rows with raw values only (Converter.rawOnly): +442, and
//     +797 for its planned rows (stats about 1.1× and 1.06×);
//   - the log's integers read with one load (engine/blg/le_wasm.go): −261
//     (CSV 1.07×, stats 1.12×);
//   - together: Compute straight to the reference computation, formatG's
//     8-byte stores as one store and in place in the text, no float min
//     (runtime.fmin64 calls): −1,371 (stats 1.15×, CSV 1.1×).
//
// In all 2,603,588 -> 2,631,859 raw (+28,271), 760,716 -> 770,871 gzipped
// (+10,155): the budgets grew by as much.
//
// Issue 25 item 4, the statistics people need (not PDH's), on the module
// of 2,631,999 bytes (770,913 gzipped): the fold's invalid count and the
// valid values' mean (engine.StatisticsFold): +1,414; relog_stats' flag
// StatsPercentiles and its percentiles records (every Valid value kept:
// relog.StatisticsPercentiles; abi.Builder.stats and the records' writer,
// 3.3 KB of code): +10,463; the percentiles' own selection of the largest
// tenth and heapsort of float64s (relog's percentiles, 4 KB of code)
// instead of the engine's heapsort.Sort with closures: +2,895, for
// relog_stats with percentiles about 2.5 times as fast (42 MB log in
// Node: 0.6-0.8 s over stats' 0.25-0.35 s, now 0.1-0.15 s over it). In
// all +14,772 raw, +5,636 gzipped: the budgets grew by as much.
//
// Issue 25 item 2, a log read in parts by several instances at once
// (log_part; relog.Options.PartFrom and PartTo: the second reading of one
// part, from the last kept sample before it; blg.Reader.SeekSample and
// its stop at a byte offset), on the module of 2,631,999 bytes: +4,231
// raw, +1,490 gzipped; the budgets grew by as much.
//
// Issue 25 item 1, continued, on the module of 2,651,050 bytes (776,781
// gzipped): statistics' samples copied field by field, not as whole
// RawCounters (engine.StatisticsFold.AddRaw, its input in a scratch
// variable, and relog's raw-only rows; Go's WebAssembly code copies a
// struct of more than 16 bytes with memory.copy and clears one with
// memory.fill, each a call to the host in wazero): +1,186 raw, +484
// gzipped (relog_stats about 1.13x faster; doc/PERFORMANCE.md). The
// budgets grew by as much.
const (
	maxModuleBytes     = 2_600_000 + 3_496 + 684 + 28_271 + 14_772 + 4_231 + 1_186
	maxModuleGzipBytes = 760_000 + 1_173 + 10_155 + 5_636 + 1_490 + 484
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
