//go:build !wasip1

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/perfcalc/perfcalc/internal/abi"
)

// Size budget of the analyze module, perfcalc-analyze.wasm (the build tag
// perfcalcanalyze: analyze.go and the exports of main.go and calls.go, the
// buffers, errors and decode_next; neither compute.go nor decode.go). It
// holds the Go runtime (~1.8 MB), the .blg decoder and relog's converter
// and merge, and the analysis packages: analysis (~154 KB of code),
// analysis/palxml (~119 KB), analysis/psexpr (~94 KB), analysis/objre
// (~29 KB), and their share of the data segment (pclntab grows with code).
// Issue 24 allowed perfcalc.wasm 200 KB more for analyze; it took 750 KB
// (3,353,467 bytes with every export), so analyze is a module of its own,
// loaded only when analysis is asked for, and perfcalc.wasm does not grow
// (doc/ANALYSIS.md). Measured on 2026-11-26 when it was split off:
// 3,007,882 bytes, 877,455 gzipped here (compress/gzip at BestCompression;
// 865,049 with gzip -9). Then, the same day: thresholds computed from the
// processor count, palxml's error types, alerts' ids and datasources and
// the Available Bytes coverage (+42,005 bytes); the values spilled beyond a
// budget, the reports written in pieces and the series' statistics
// computed in parallel with relog's ReadRows (about +30 KB, sync among
// them); the hot paths that perfcalc.wasm took in too (the exact
// formatter, repeat decoding, planned rows: about +28 KB,
// wasm/size_test.go): 3,139,969 bytes, 911,569 gzipped. Then the logs of
// several machines grouped as the command groups them, with the fleet
// JSON, and the missing inherited file's name as data (+17,793 bytes), and
// issue 25 item 2's parts of a log (relog.Options.PartFrom, which this
// module links through relog.New and Next, though it reads no part:
// +3,458 raw, +2,670 gzipped). The budgets leave about 4 KB raw and 2.5 KB
// gzipped. (With every export, the superset, it would be about 350 KB
// more.) Issue 21's --identity (relog.Options.Identity, the mode itself
// left out as in perfcalc.wasm, and the report's identity and
// identityBreaks): +1,871 raw, +48 gzipped (3,161,371 -> 3,163,242),
// within that margin: the budgets stay. The mode's code then came into the
// module (relog's pairing, as in perfcalc.wasm, and analyze's flag
// AnalyzePID): +38,504 raw (3,163,242 -> 3,201,746; 930,938 gzipped); the
// budgets grew by what exceeded them, +36,288 raw and +7,268 gzipped.
//
// Issue 21: the translation of names (names_load, names_unknown and the
// analyze request's Rename; size_test.go says what it is made of), on the
// module of 3,161,816 bytes (919,385 gzipped): +47,364 raw, +12,778
// gzipped.
//
// The branches of 2026-11-26 merged (identity, names, the .blg writer's
// longer error text, statistics' copies): 3,249,618 raw, 940,969 gzipped,
// 508 raw over the sum of the entries above; the budget grew by as much.
//
// Issue 32, item 14: the text summary's names escaped for a terminal
// (engine/termtext; Report.AppendText is linked though the module writes
// no text): +8 raw, -3 gzipped (3,249,626 bytes, 940,966 gzipped); the raw
// budget grew by as much.
//
// Issue 32 item 18, counterpath.SplitInstance's index read only as PDH's
// numbering writes it: +40 raw, +36 gzipped (3,249,618 -> 3,249,658;
// 940,968 -> 941,004), within the gzipped budget.
//
// Issue 32, items 5 to 10 (threshold files loaded and evaluated in linear
// time): psexpr's scopes and bounded string work (+9,039 raw), palxml's
// question map and files by identity (+4,519), the log's columns by
// object (+6,343), the datasources' and instances' maps (+9,798) and the
// generated datasources' order computed (+8,182): +36,607 raw, 3,286,225
// bytes, 951,185 gzipped here; the budgets grew by what exceeded them,
// +36,607 raw and +7,469 gzipped.
//
// Issue 32 item 19, --identity pid's instances that share their IDs kept
// apart (size_test.go says what it is made of): +18,471 raw, +3,197
// gzipped over the budgets (3,268,089; 946,913 gzipped).
//
// Issue 32's branches merged: 3,304,760 raw, 956,400 gzipped, 16 raw and
// 2,018 gzipped over the sum of the entries above; the budgets grew by as
// much.
//
// Issue 33 item 3, process identity in one home (engine/identity;
// size_test.go says what it is made of): 3,304,064 raw, 956,195 gzipped,
// −696 raw and −205 gzipped; the budgets shrank by as much.
const (
	maxAnalyzeModuleBytes     = 3_162_000 + 3_458 + 36_288 + 47_364 + 508 + 8 + 40 + 36_607 + 18_471 + 16 - 696
	maxAnalyzeModuleGzipBytes = 921_000 + 2_670 + 7_268 + 12_778 + 7_469 + 3_197 + 2_018 - 205
)

// TestAnalyzeModuleSize holds perfcalc-analyze.wasm to its budget.
func TestAnalyzeModuleSize(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("module", "perfcalc-analyze.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	z := gzipLen(t, b)
	t.Logf("perfcalc-analyze.wasm: %d bytes, %d gzipped", len(b), z)
	if len(b) > maxAnalyzeModuleBytes {
		t.Errorf("perfcalc-analyze.wasm is %d bytes, over the budget of %d", len(b), maxAnalyzeModuleBytes)
	}
	if z > maxAnalyzeModuleGzipBytes {
		t.Errorf("perfcalc-analyze.wasm gzips to %d bytes, over the budget of %d", z, maxAnalyzeModuleGzipBytes)
	}
}

// TestModuleExports checks the committed modules' exports against the
// ABI: perfcalc-analyze.wasm has exactly abi.AnalyzeModuleExports (and
// _initialize and its memory); perfcalc.wasm has every other export of
// abi.Exports and not analyze, so that the analysis packages cannot slip
// into it (they would grow it by 750 KB).
func TestModuleExports(t *testing.T) {
	for _, tc := range []struct {
		file     string
		analysis bool
	}{{"perfcalc.wasm", false}, {"perfcalc-analyze.wasm", true}} {
		m, err := os.ReadFile(filepath.Join("module", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, x := range abi.Exports {
			inAnalyze, inMain := abi.InAnalyzeModule(x.Name)
			if tc.analysis && inAnalyze || !tc.analysis && inMain {
				want = append(want, x.Name)
			}
		}
		want = append(want, "_initialize", "memory")
		have := exportNames(t, m)
		slices.Sort(want)
		slices.Sort(have)
		if !slices.Equal(have, want) {
			t.Errorf("%s exports %q, want %q", tc.file, have, want)
		}
		if slices.Contains(have, "analyze") != tc.analysis {
			t.Errorf("%s: analyze exported: %v, want %v", tc.file, !tc.analysis, tc.analysis)
		}
	}
}

func gzipLen(t *testing.T, b []byte) int {
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Len()
}

// exportNames returns the names of the WebAssembly module m's exports (its
// export section, id 7).
func exportNames(t *testing.T, m []byte) []string {
	t.Helper()
	uleb := func(b []byte, p *int) int {
		if *p >= len(b) {
			t.Fatalf("the module ends at %d, in a LEB128", *p)
		}
		v, n := binary.Uvarint(b[*p:])
		if n <= 0 {
			t.Fatalf("a bad LEB128 at %d", *p)
		}
		*p += n
		return int(v)
	}
	for p := 8; p < len(m); {
		id := m[p]
		p++
		size := uleb(m, &p)
		if id != 7 {
			p += size
			continue
		}
		sec, q := m[p:p+size], 0
		var names []string
		for n := uleb(sec, &q); n > 0; n-- {
			l := uleb(sec, &q)
			names = append(names, string(sec[q:q+l]))
			q += l + 1 // the name, then its kind
			uleb(sec, &q)
		}
		return names
	}
	t.Fatal("the module has no export section")
	return nil
}
