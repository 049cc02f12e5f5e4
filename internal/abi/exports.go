package abi

import "strings"

// Export is one export of the module: its name, its parameters and
// results ("name type" pairs, the types u32, i32, u64, i64 and f64) and
// what it does (ABI.md's table of exports is generated from Exports).
type Export struct {
	Name, Params, Results, Doc string
}

// Exports are the module's exports, in ABI.md's order. A host checks
// their signatures (Export.Signature) when it loads the module.
var Exports = []Export{
	{"abi_version", "", "u32", "`2`"},
	{"in_ptr", "", "u32", "address of the input buffer (8 MiB, or what `in_reserve` granted)"},
	{"in_cap", "", "u32", "size of the input buffer"},
	{"out_ptr", "", "u32", "address of the output buffer (4 MiB, or what `out_reserve` granted)"},
	{"out_cap", "", "u32", "size of the output buffer"},
	{"in_reserve", "n u32", "u32", "make the input buffer hold at least `n` bytes; returns its address (see below), or 0 when `n` exceeds 1 GiB"},
	{"out_reserve", "n u32", "u32", "the same for the output buffer"},
	{"err_ptr", "", "u32", "address of the last error's text (UTF-8, at most 1 KiB)"},
	{"err_len", "", "u32", "length of the last error's text; 0 after a call that succeeded"},
	{"last_status", "", "u32", "the status of the last `compute`"},
	{"last_detail", "", "u32", "completes the last error code (see Errors)"},
	{"compute", "type u32, flags u32, options u32, scale i32, timebase i64, old_cstatus u32, old_first u64, old_second u64, old_multi u32, new_cstatus u32, new_first u64, new_second u64, new_multi u32", "f64",
		"one value; its status via `last_status`"},
	{"compute_batch", "in_off u32, n u32, out_off u32", "i32",
		"`n` request records at `in_off` of the input buffer → `n` result records at `out_off` of the output buffer; returns `n` or an error"},
	{"decode_v1", "off u32, len u32, names_off u32, names_len u32, options u32, reserved u32", "i32", "a V1 `PERF_DATA_BLOCK`"},
	{"decode_v2", "data_off u32, data_len u32, reg_off u32, reg_len u32, str_off u32, str_len u32, ids_off u32, ids_count u32, options u32, reserved u32", "i32",
		"a PerfLib V2 `PerfQueryCounterData` result"},
	{"decode_names", "off u32, len u32, reserved u32", "i32", "a name table (`Counter 009`)"},
	{"decode_blg", "off u32, len u32, pat_off u32, pat_len u32, begin i64, end i64, every u32, reserved u32", "i32", "a `.blg` log, as relog computes it"},
	{"query", "desc_off u32, options u32, reserved u32", "i32", "every counter between two V1 or V2 captures"},
	{"relog_text", "off u32, len u32, pat_off u32, pat_len u32, begin i64, end i64, every u32, format u32", "i32",
		"relog's CSV (0), TSV (1) or JSON lines (2) text of a `.blg` log, or (3, added within version 2) the selection as a `.blg` log"},
	{"sniff", "off u32, len u32", "i32",
		"what the bytes are: the kind of their decode result (1 V1, 2 V2, 3 name table, 4 blg), or 0"},
	{"relog_stats", "off u32, len u32, pat_off u32, pat_len u32, begin i64, end i64, every u32, flags u32", "i32",
		"count, min, max and mean of every column of a `.blg` log, as `perfcalc stats` (statistics records); flags `StatsPercentiles` adds a percentiles record after each (the flag added within version 2; a module before it ignored the argument)"},
	{"relog_columns", "off u32, len u32, pat_off u32, pat_len u32, begin i64, end i64, every u32, reserved u32", "i32",
		"the columns of a `.blg` log and its kept samples' count and range, as `relog -q` lists them, without computing a value (column records)"},
	{"decode_next", "cursor u32", "i32",
		"the next page of the result or text whose last page carried `cursor` (a header's; a text's `last_detail`), resumed where that page ended (see Paging); `cursor` 0 ends the result"},
	{"query_text", "desc_off u32, options u32, format u32", "i32",
		"relog's CSV (0) or TSV (1) text of `query`'s counters, as `perfcalc values -f csv` writes it"},
	{"max_columns", "n u32", "",
		"the most columns (counters of distinct instances) of a log that `decode_blg`, `relog_text`, `relog_stats` and `relog_columns` accept from then on, as `perfcalc --max-columns`: 1,000,000 until set, 0 for no limit; a log of more is refused with `CodeLimit` before its columns take memory (added within version 2: hosts check that it exists)"},
	{"log_part", "from u32, to u32", "",
		"makes `decode_blg` and `relog_text` give from then on only the rows of one part of the log, the kept samples whose records begin at the log's byte offsets `from` to `to` − 1 (`to` 0: the log's end), as the whole log's reading gives them; `log_part(0, 0)` gives every row again (added within version 2: see Parts)"},
	{"identity", "mode u32", "i32",
		"how `decode_blg`, `relog_text`, `relog_stats`, `relog_columns`, `query` and `query_text` pair instances from one sample to the next from then on, as `perfcalc --identity`: `IdentityPDH` (0, by name, until set) or `IdentityPID` (1, by process and thread ID); returns 0, or `CodeArgument` for another mode (added within version 2: hosts check that it exists)"},
	{"identity_breaks", "", "u64",
		"the identity breaks that the last of those calls met with `IdentityPID` (after its result's last page): the PDH instance names that named another process or thread than in the sample before, where PDH's pairing computes across two processes; 0 with `IdentityPDH`"},
	{"analyze", "log_off u32, log_len u32, files_off u32, files_count u32, set_off u32, set_len u32, interval i64, flags u32", "i32",
		"`perfcalc analyze -f json`'s report of a `.blg` log: PAL threshold files or perfcalc's own analyses, as JSON text (see analyze)"},
	// Names in any language (issue 21; both modules).
	{"names_load", "name_off u32, name_len u32, off u32, len u32", "i32",
		"adds a translation source, the compact form (doc/FORMATS.md §3.4) at `off` of the input buffer, named by the UTF-8 text at `name_off`: from then on the log exports (and `analyze`) translate object and counter names to English and match counter patterns against the English names, as `perfcalc --names-lang en --names-file`; returns the number of sources, or an error (a malformed source drops every source); `len` 0 drops every source (added within version 2: see Names)"},
	{"names_unknown", "", "i32",
		"writes into the output buffer the names the last log export met and did not translate, one per line, sorted, as `perfcalc --names-lang` lists them; returns the bytes written (added within version 2)"},
}

// AnalyzeModuleExports are the exports of the analyze module,
// perfcalc-analyze.wasm (the build tag perfcalcanalyze): analyze and what a
// host needs to call it (the buffers, errors and paging). It is a module of
// its own, loaded only when analysis is asked for, because the analysis
// packages would grow perfcalc.wasm by about 750 KB; perfcalc.wasm has
// every other export and not analyze.
var AnalyzeModuleExports = []string{
	"abi_version", "in_ptr", "in_cap", "out_ptr", "out_cap", "in_reserve", "out_reserve",
	"err_ptr", "err_len", "last_status", "last_detail", "decode_next", "analyze",
	"names_load", "names_unknown",
}

// InAnalyzeModule reports whether the export name is in the analyze module
// (AnalyzeModuleExports), and inMain whether it is in perfcalc.wasm.
func InAnalyzeModule(name string) (inAnalyze, inMain bool) {
	for _, x := range AnalyzeModuleExports {
		if x == name {
			return true, name != "analyze"
		}
	}
	return false, true
}

// Signature returns e's parameter and result types as wasm value types,
// one letter each: 'i' i32, 'I' i64, 'F' f64.
func (e Export) Signature() (params, results string) {
	return valueTypes(e.Params), valueTypes(e.Results)
}

func valueTypes(list string) string {
	var b strings.Builder
	for _, f := range strings.Split(list, ",") {
		fs := strings.Fields(f)
		if len(fs) == 0 {
			continue
		}
		switch fs[len(fs)-1] {
		case "u32", "i32":
			b.WriteByte('i')
		case "u64", "i64":
			b.WriteByte('I')
		case "f64":
			b.WriteByte('F')
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}
