package host_test

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/host"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestRelogStatsPercentiles compares the module's statistics with
// percentiles (relog_stats with StatsPercentiles) with host.Native's and
// with relog.Converter.StatisticsPercentiles (what perfcalc stats
// --percentiles prints), column by column; without percentiles they are
// RelogStats'.
func TestRelogStatsPercentiles(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	tx := readFile(t, filepath.Join(dir, "Tx_BasicPerfCounters.blg"))
	logs := map[string][]byte{
		"tx":         tx,
		"pal":        readFile(t, filepath.Join(dir, "PAL_SamplePerfmonLog.blg")),
		"powershell": readFile(t, filepath.Join(dir, "PowerShell_BadCounterSamples.blg")),
		"cut":        tx[:len(tx)*2/3+1000], // damaged: the statistics of the rows before the damage
	}
	total, err := counterpath.Parse(`\Processor(_Total)\% Processor Time`)
	if err != nil {
		t.Fatal(err)
	}
	var native host.Native
	withPct := 0
	for name, log := range logs {
		for _, sel := range []relog.Options{{}, {Every: 3}, {Counters: []counterpath.Path{total}}} {
			have, herr := shared.RelogStatsPercentiles(log, sel)
			want, werr := native.RelogStatsPercentiles(log, sel)
			sameError(t, name, herr, werr)
			if werr != nil {
				continue
			}
			if !reflect.DeepEqual(have.Statistics, want.Statistics) || have.Rows != want.Rows || have.Columns != want.Columns ||
				(have.Damage == nil) != (want.Damage == nil) {
				t.Fatalf("%s %+v: the module's statistics with percentiles differ from Native's:\nhave %+v\nwant %+v", name, sel, have, want)
			}
			if (want.Damage != nil) != (name == "cut") {
				t.Errorf("%s: damage %v", name, want.Damage)
			}
			c, err := relog.New(bytes.NewReader(log), int64(len(log)), sel)
			if err != nil {
				t.Fatal(err)
			}
			st, pc, _ := c.StatisticsPercentiles()
			if len(st) != len(want.Statistics) || len(st) == 0 {
				t.Fatalf("%s: %d statistics, relog has %d", name, len(want.Statistics), len(st))
			}
			plain, err := shared.RelogStats(log, sel)
			if err != nil && plain == nil {
				t.Fatal(err)
			}
			for i := range st {
				w := &want.Statistics[i]
				if w.Percentiles == nil || *w.Percentiles != pc[i] || !reflect.DeepEqual(w.Statistics, st[i]) || w.Path != c.Columns()[i].Path {
					t.Fatalf("%s: column %d: %+v %+v, relog %+v %+v", name, i, *w, w.Percentiles, st[i], pc[i])
				}
				p := plain.Statistics[i]
				if p.Percentiles != nil || !reflect.DeepEqual(p.Statistics, w.Statistics) || p.Path != w.Path {
					t.Fatalf("%s: column %d: RelogStats %+v, RelogStatsPercentiles %+v", name, i, p, *w)
				}
				if w.Count > 0 {
					withPct++
					if !(w.Min <= w.Percentiles.P90 && w.Percentiles.P90 <= w.Percentiles.P95 && w.Percentiles.P95 <= w.Percentiles.P99 && w.Percentiles.P99 <= w.Max) {
						t.Errorf("%s: %s: percentiles %+v outside min %v and max %v", name, w.Path, *w.Percentiles, w.Min, w.Max)
					}
				}
			}
		}
	}
	if withPct < 100 {
		t.Errorf("only %d columns with percentiles compared", withPct)
	}
}

// TestMaxColumns checks that relog.Options.MaxColumns reaches the module
// (max_columns) in every log call: a log of more columns is refused as
// host.Native refuses it (CodeLimit, the same text), 0 is the default
// limit (1,000,000) and a negative one none, and an instance set to one
// limit goes back to another in the next call.
func TestMaxColumns(t *testing.T) {
	tx := readFile(t, corpus.Shared(t, "blg", "Tx_BasicPerfCounters.blg")) // 10 columns
	defer host.SetMinPartBytes(64 << 10)()
	var native host.Native
	e := newEngine(t, host.NewConfig().WithPoolSize(1)) // one instance: each call sets its limit anew
	disk, err := counterpath.Parse(`\PhysicalDisk(*)\*`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sel     relog.Options
		refused bool
	}{
		{relog.Options{}, false},
		{relog.Options{MaxColumns: 9}, true},
		{relog.Options{MaxColumns: -1}, false},
		{relog.Options{MaxColumns: 10}, false},
		{relog.Options{MaxColumns: 1}, true},
		{relog.Options{MaxColumns: 5, Counters: []counterpath.Path{disk}}, false}, // the columns the patterns keep: 5
		{relog.Options{MaxColumns: 4, Counters: []counterpath.Path{disk}}, true},
		{relog.Options{MaxColumns: 1 << 40}, false},
	} {
		what := func(call string) string { return call + " with MaxColumns " + strconv.Itoa(tc.sel.MaxColumns) }
		have, herr := e.DecodeBlg(tx, tc.sel)
		want, werr := native.DecodeBlg(tx, tc.sel)
		sameError(t, what("DecodeBlg"), herr, werr)
		if (werr != nil) != tc.refused || (tc.refused && host.ErrorCode(werr) != host.CodeLimit) {
			t.Fatalf("%s: %v, want refused %v with CodeLimit", what("Native.DecodeBlg"), werr, tc.refused)
		}
		if werr == nil && !reflect.DeepEqual(have.Records, want.Records) {
			t.Fatalf("%s: %d records, Native %d", what("DecodeBlg"), len(have.Records), len(want.Records))
		}
		hs, herr := e.RelogStats(tx, tc.sel)
		ws, werr := native.RelogStats(tx, tc.sel)
		sameError(t, what("RelogStats"), herr, werr)
		if werr == nil && !reflect.DeepEqual(hs.Statistics, ws.Statistics) {
			t.Fatalf("%s: statistics differ", what("RelogStats"))
		}
		hp, herr := e.RelogStatsPercentiles(tx, tc.sel)
		wp, werr := native.RelogStatsPercentiles(tx, tc.sel)
		sameError(t, what("RelogStatsPercentiles"), herr, werr)
		if werr == nil && !reflect.DeepEqual(hp.Statistics, wp.Statistics) {
			t.Fatalf("%s: statistics differ", what("RelogStatsPercentiles"))
		}
		ht, herr := e.RelogText(tx, tc.sel, relog.CSV)
		wt, werr := native.RelogText(tx, tc.sel, relog.CSV)
		sameError(t, what("RelogText"), herr, werr)
		if !bytes.Equal(ht, wt) {
			t.Fatalf("%s: %d bytes, Native %d", what("RelogText"), len(ht), len(wt))
		}
		// In parts, by instances of their own: each is refused as one.
		pt, perr := e.RelogTextParts(tx, tc.sel, relog.CSV, 2)
		if (perr != nil) != tc.refused || !bytes.Equal(pt, wt) {
			t.Fatalf("%s: %d bytes (%v), Native %d (%v)", what("RelogTextParts"), len(pt), perr, len(wt), werr)
		}
	}
}
