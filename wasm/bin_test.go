//go:build !perfcalcanalyze

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestRelogTextBin checks relog_text's FormatBin against relog.WriteBin
// (what perfcalc relog -f bin writes to a pipe), byte for byte, on the real
// logs, without a selection and with counter patterns, a time range and
// every, in pages of a small output buffer too; and that the log written
// reads back to the CSV of the selection.
func TestRelogTextBin(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	defer func() { outBuf = outStatic[:] }()
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		c, err := relog.New(bytes.NewReader(b), int64(len(b)), relog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cols := c.Columns()
		var times []int64
		for c.Next() {
			times = append(times, c.Row().Time)
		}
		pats := cols[0].Path + "\n" + `\\*\` + cols[len(cols)-1].Parts.Object + `(*)\*`
		for _, sel := range []struct {
			name       string
			pats       string
			begin, end int64
			every      uint32
		}{
			{"all", "", 0, 0, 0},
			{"patterns", pats, 0, 0, 0},
			{"range", "", times[len(times)/3], times[2*len(times)/3], 0},
			{"every", pats, 0, 0, 2},
		} {
			t.Run(name+"/"+sel.name, func(t *testing.T) {
				opts := relog.Options{Begin: sel.begin, End: sel.end, Every: int(sel.every)}
				if sel.pats != "" {
					ps, err := abi.ParsePatterns([]byte(sel.pats))
					if err != nil {
						t.Fatal(err)
					}
					opts.Counters = ps
				}
				open := func(o relog.Options) (*relog.Converter, error) {
					return relog.New(bytes.NewReader(b), int64(len(b)), o)
				}
				want, wantCSV := nativeBin(t, b, opts, open)
				offs, lens := load(t, b, []byte(sel.pats))
				for _, size := range []int{len(outStatic), 64 << 10} {
					outBuf = outStatic[:size]
					rc := relogText(offs[0], lens[0], offs[1], lens[1], sel.begin, sel.end, sel.every, abi.FormatBin)
					got, _ := readText(t, rc, nil)
					if !bytes.Equal(got, want) {
						t.Fatalf("relog_text FormatBin (buffer of %d): %d bytes, want the %d bytes of relog.WriteBin", size, len(got), len(want))
					}
				}
				back, err := relog.New(bytes.NewReader(want), int64(len(want)), relog.Options{})
				if err != nil {
					t.Fatal(err)
				}
				var csv bytes.Buffer
				if err := back.Write(&csv, relog.CSV); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(csv.Bytes(), wantCSV) || len(wantCSV) == 0 {
					t.Errorf("the log written reads to another CSV than the selection's (%d bytes, want %d)", csv.Len(), len(wantCSV))
				}
			})
		}
	}
}

// nativeBin returns relog.WriteBin's log of the selection opts of b and
// the selection's CSV.
func nativeBin(t *testing.T, b []byte, opts relog.Options, open func(relog.Options) (*relog.Converter, error)) (log, csv []byte) {
	t.Helper()
	c, err := open(opts)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := relog.BinSource{Inputs: []relog.Input{{R: bytes.NewReader(b), Size: int64(len(b))}}, C: c, Open: open}
	if damage, err := relog.WriteBin(&out, in, opts, nil); err != nil && err != damage {
		t.Fatal(err)
	}
	c, _ = open(opts)
	var text bytes.Buffer
	c.Write(&text, relog.CSV) // a damaged log: the rows before the damage
	if _, err := blg.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len())); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), text.Bytes()
}
