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
//
// Issue 21 item 1 (--identity pid: relog.Options.Identity, query's
// Config.PID) in the module: the exports identity and identity_breaks, and
// the mode's code, which the first build left out (+471 raw, +200 gzipped
// for the option alone, 2,651,050 -> 2,651,521). Its code took 74,567 raw
// as first written (relog about 46 KB and query 8.6 KB of code, 10 KB of
// them the runtime's map iteration and pointer-keyed maps it alone used,
// plus about 20 KB of data: function tables); without map iteration, a
// pointer-keyed map and the type assertions of an interface field, and
// with shared helpers (roleOf, missingID, one Fill and one AppendUint call
// site), 46,703; with the exports and the breaks through the ABI, +51,317
// raw, +12,343 gzipped in all (2,651,521 -> 2,702,838; 776,981 ->
// 789,324): relog's pairing about 25.6 KB of code, query's 8.7 KB, the ABI
// 1.6 KB, and about 15 KB of data. The budgets grew by as much.
//
// Issue 21 (names in any language) allows up to 12 KB raw more for the
// translation. relog.Options.Rename (the columns' objects and counters
// renamed in their paths, parts and -c matching) took +2,197 raw and
// +1,296 gzipped bytes in the module; the module has no export that sets
// it, so it was left out there (relog's const renames), on the module of
// 2,651,050 bytes (776,781 gzipped): +408 raw (the Options field), −19
// gzipped. A first translation export measured +38,449 raw.
//
// The translation in the module (names_load, names_unknown: the compact
// form's reader, translate.Builder, Table and Namer, and Options.Rename),
// allowed up to 40 KB raw, on the module of 2,651,458 bytes (776,762
// gzipped): +47,434 raw, +10,384 gzipped, over that allowance by 6,474 bytes
// (the lead decides; what was avoided: wasm/main.go's # Size). In
// unstripped builds (function bodies by name) it is 30.1 KB of code and
// 17.2 KB of data (the function table and type descriptors that the code
// brings, ~0.6 of the code here as in the rest of the module): the
// compact form's reader 6.9 KB (parseLine, ParseCompact, checkField,
// AddCompact), Builder 6.2 KB (put, Add, appendKey, markEnglish, init),
// Table's lookups 3.0 KB, Namer 6.6 KB (Rename, note, Unknown and its
// sort), relog's Rename 1.5 KB, the exports 5.8 KB. What was cut from the first
// measure of this design (+99,603 raw): name tables and the log's
// embedded table left out of the module (translate.Build, ~25 KB: the
// hosts pass the compact form), no sync.Mutex in Namer (6 KB), no
// string(rune) (runtime.intstring and encoderune, 1.7 KB), no equality
// functions for the package's structs (3 KB), one key builder for the
// Builder and the Table, shared lookups, one map of translations instead
// of three, strconv.Itoa not inlined.
//
// Issue 22 item 5, relog_text's FormatBin (the selection as a .blg log:
// relog.WriteBin and blg.Writer), on the module of 2,651,048 bytes
// (776,759 gzipped): +82,924 raw, +21,574 gzipped (2,733,972 and 798,333).
// Code +58,277 (the Writer 28.6 KB, rewriteEntries with WriteBin and
// numberInstances 14.7 KB, writeColumns for Vista-era logs 9.7 KB,
// internal/abi 1.8 KB, runtime.mapaccess1 and moveSliceNoCap 3.2 KB) and
// data +24,557 (the new functions' entries in the runtime's function
// table: names and pc tables). The Writer alone was 55 KB of code: each
// byte-wise store (b[0], b[1], … = and encoding/binary's Put) was a bounds
// check and a store per byte; le.PutUint16/32/64 (one store) and the
// fixed headers through array pointers (one bounds check each) halved it.
//
// Issue 21 item 1, a reused PID a series of its own (name:pid#1): relog's
// numbering per name:pid (a map per group; the column check it replaces
// gone: -120) and query's (unpairReused numbers, recall and remember carry
// the numbers from Run to Run in a slice: a map of strings there cost
// +13.7 KB, a sorted slice +19.6 KB): +3,519 raw, +980 gzipped
// (2,702,838 -> 2,706,357; 789,324 -> 790,304).
//
// The four branches of 2026-11-26 above (statistics' copies, identity,
// names, the .blg writer), each measured on the module before them,
// merged: 2,838,551 raw, 826,389 gzipped, +242 raw and +3,643 gzipped over
// the sum of their entries (the new code compresses less well together
// than apart). The budgets grew by as much. In all the module grew from
// 2,651,050 to 2,838,551 bytes (+7.1 %) and 776,781 to 826,389 gzipped
// for them.
//
// relog.ColumnEntry, the counter-list entry of a column written column by
// column, one function for WriteBin and perfcalc watch -f bin (its code
// was written twice, inlined in WriteBin): +494 raw, +664 gzipped.
//
// Issue 32 item 18, counterpath.SplitInstance's index read only as PDH's
// numbering writes it (no #0, no leading zero: instances named h#0 keep
// their names in the parts and the .blg written): +52 raw, −575 gzipped
// (2,839,045 -> 2,839,097; 827,052 -> 826,477).
//
// Issue 32 item 19, --identity pid's instances that share their IDs in a
// sample (the Idle threads, all 0/0) kept apart, numbered in their order:
// engine/internal/pidname (the naming relog and query share, and Dups),
// relog naming a sample's instances once (nameSample, its names kept from
// sample to sample by generation) and query's apart, on the module of
// 2,839,045 bytes (827,053 gzipped): +23,016 raw, +4,125 gzipped
// (2,862,061; 831,178). In unstripped builds, code +15.0 KB (query.apart
// 3.5 KB, pidname.AppendName 2.6 KB, relog's nameSample 2.1 KB, Dups.Next
// 2.0 KB, the rest relog's and query's identity code less what it
// replaced) and data +8.0 KB. What was cut from the first measure (+28,736
// raw): one naming function for both packages, no equality functions for
// the new structs, Dups' Unicode folding through package fold.
//
// Issue 32's branches merged: 2,862,101 raw, 831,187 gzipped, 9 gzipped
// over the sum of the entries above; the gzipped budget grew by as much.
//
// Issue 33 item 3, process identity in one home (engine/identity: the mode
// one type from the command to the ABI, pidname's naming moved there, its
// key not comparable so that no equality function is linked, relog's and
// query's notes from one function) and relog.Format's Bin (relog_text's
// format read as a relog.Format): 2,860,455 raw, 830,986 gzipped, −1,646
// raw and −201 gzipped; the budgets shrank to the module (−1,658 raw:
// the 12 bytes the budget had to spare go too).
const (
	maxModuleBytes     = 2_600_000 + 3_496 + 684 + 28_271 + 14_772 + 4_231 + 1_186 + 471 + 50_913 + 3_519 + 408 + 47_434 + 82_924 + 242 + 494 + 52 + 23_016 - 1_658
	maxModuleGzipBytes = 760_000 + 1_173 + 10_155 + 5_636 + 1_490 + 484 + 200 + 10_670 + 980 + 10_384 + 21_574 + 3_643 + 664 + 4_125 + 9 - 201
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
