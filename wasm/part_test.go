//go:build !perfcalcanalyze

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestLogParts divides real logs into equal byte ranges and reads each
// part with log_part, decode_blg and relog_text, as one instance per part would: the
// parts' records and texts, one after the other, are the whole log's, byte
// for byte (a part's records have the whole log's header but for their
// count).
func TestLogParts(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	defer logPart(0, 0)
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		offs, lens := load(t, b)
		logPart(0, 0)
		whole := readAll(t, func(first uint32) int32 { return decodeBlg(offs[0], lens[0], 0, 0, 0, 0, 0, first) })
		wantText, _ := readText(t, relogText(offs[0], lens[0], 0, 0, 0, 0, 0, abi.FormatCSV), nil)
		for _, n := range []uint32{2, 3, 7} {
			bounds := []uint32{0} // equal byte ranges: anywhere in buffers and records
			for i := uint32(1); i < n; i++ {
				bounds = append(bounds, lens[0]*i/n)
			}
			bounds = append(bounds, 0)
			k := len(bounds) - 1
			var recs []abi.Record
			var paths []string
			var text []byte
			for i := 0; i < k; i++ {
				logPart(bounds[i], bounds[i+1])
				d := readAll(t, func(first uint32) int32 { return decodeBlg(offs[0], lens[0], 0, 0, 0, 0, 0, first) })
				if d.head.Rows != whole.head.Rows || d.head.Columns != whole.head.Columns || d.info != whole.info {
					t.Errorf("%s part %d of %d: header %+v, want the whole log's %+v", name, i, k, d.head, whole.head)
				}
				recs, paths = append(recs, d.recs...), append(paths, d.paths...)
				part, _ := readText(t, relogText(offs[0], lens[0], 0, 0, 0, 0, 0, abi.FormatCSV), nil)
				text = append(text, part...)
			}
			if !reflect.DeepEqual(recs, whole.recs) || !reflect.DeepEqual(paths, whole.paths) {
				t.Errorf("%s in %d parts: %d records, want the whole log's %d", name, k, len(recs), len(whole.recs))
			}
			if !bytes.Equal(text, wantText) {
				t.Errorf("%s in %d parts: %d bytes of CSV, want the whole log's %d", name, k, len(text), len(wantText))
			}
		}
	}
}
