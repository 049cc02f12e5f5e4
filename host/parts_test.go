package host_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/host"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestParts reads logs in parts with several instances at once
// (DecodeBlgParts, RelogTextParts) and compares them with one instance's
// reading and with host.Native's, record for record and byte for byte; a
// damaged log ends at its damage.
func TestParts(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	defer host.SetMinPartBytes(64 << 10)()
	tx := readFile(t, filepath.Join(dir, "Tx_BasicPerfCounters.blg"))
	logs := map[string][]byte{
		"tx":  tx,
		"pal": readFile(t, filepath.Join(dir, "PAL_SamplePerfmonLog.blg")),
		"cut": tx[:len(tx)*2/3+1000], // damaged: truncated inside a buffer
	}
	total, err := counterpath.Parse(`\Processor(_Total)\% Processor Time`)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, host.NewConfig().WithPoolSize(3))
	for name, log := range logs {
		for _, sel := range []relog.Options{{}, {Counters: []counterpath.Path{total}}, {Every: 2}} {
			for _, n := range []int{2, 3} {
				parts, _ := host.LogParts(int64(len(log)), n, sel)
				if len(parts) < 2 {
					t.Fatalf("%s: %d parts of %d", name, len(parts), n)
				}
				want, err := host.Native{}.DecodeBlg(log, sel)
				if err != nil {
					t.Fatal(err)
				}
				one, err := e.DecodeBlg(log, sel)
				if err != nil {
					t.Fatal(err)
				}
				got, err := e.DecodeBlgParts(log, sel, n)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got.Records, want.Records) || !reflect.DeepEqual(got.Records, one.Records) || len(got.Records) == 0 {
					t.Errorf("%s, %d parts: %d records, want Native's %d", name, n, len(got.Records), len(want.Records))
				}
				if got.Rows != one.Rows || got.Columns != one.Columns || (got.Damage == nil) != (want.Damage == nil) ||
					errText(got.Damage) != errText(one.Damage) {
					t.Errorf("%s, %d parts: %d rows, %d columns, damage %v; want %d, %d, %v", name, n, got.Rows, got.Columns, got.Damage, one.Rows, one.Columns, one.Damage)
				}
				for _, f := range []relog.Format{relog.CSV, relog.JSON} {
					wantText, wantErr := host.Native{}.RelogText(log, sel, f)
					text, err := e.RelogTextParts(log, sel, f, n)
					var ge *host.Error
					if err != nil && !(errors.As(err, &ge) && ge.Code == 0) {
						t.Fatal(err)
					}
					if !bytes.Equal(text, wantText) || (err == nil) != (wantErr == nil) {
						t.Errorf("%s, %d parts, format %d: %d bytes (damage %v), want Native's %d (%v)", name, n, f, len(text), err, len(wantText), wantErr)
					}
				}
			}
		}
	}
	if _, err := e.DecodeBlgParts(tx, relog.Options{PartFrom: 1}, 2); err == nil {
		t.Error("DecodeBlgParts with a part of its own: no error")
	}
}

// errText returns err's text, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
