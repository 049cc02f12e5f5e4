//go:build !perfcalcanalyze

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// threeColumnLog returns a log of three counters (three columns) and three
// samples; damaged, the second sample's event header names another
// provider, so that the reader skips it (a sample lost to a damaged event
// header).
func threeColumnLog(t *testing.T, damaged bool) []byte {
	t.Helper()
	const start = 130_057_734_178_440_000
	l := blgbuild.New(64<<10, start)
	var cs []blgbuild.Counter
	for _, name := range []string{"A", "B", "C"} {
		cs = append(cs, blgbuild.Counter{Type: 0x10000, Machine: `\\M`, Object: "Memory", Counter: name})
	}
	l.Record(blgbuild.EventCounterList, start, blgbuild.AppendCounterList(nil, cs...), blgbuild.MaxEventData)
	for i := range 3 {
		ts := start + int64(i)*10_000_000
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, 1, 2, 3), blgbuild.MaxEventData)
	}
	log := l.Bytes()
	if !damaged {
		return log
	}
	pdh := []byte{0xb3, 0x3b, 0x3f, 0x93, 0x3e, 0x94, 0x0d, 0x49, 0x9c, 0xed, 0x3c, 0xbb, 0x14, 0xc1, 0x44, 0x79}
	var at []int // the PDH events' provider GUIDs: the counter list, then the samples
	for i := 0; ; {
		j := bytes.Index(log[i:], pdh)
		if j < 0 {
			break
		}
		at, i = append(at, i+j), i+j+1
	}
	if len(at) != 4 {
		t.Fatalf("the log has %d PDH events, want 4", len(at))
	}
	bad := append([]byte(nil), log...)
	bad[at[2]+3] = 0
	return bad
}

// TestSkippedEventsReported: decode_blg, relog_stats and relog_columns
// report in the header's local field, and relog_text in last_detail, the
// events that the log's first reading skipped (a sample lost to a damaged
// event header, which the command notes); an intact log reports none.
// Before, the hosts had no way to know: the count was 0 everywhere.
func TestSkippedEventsReported(t *testing.T) {
	for _, damaged := range []bool{false, true} {
		want, rows := int64(0), uint32(3)
		if damaged {
			want, rows = 1, 2
		}
		offs, lens := load(t, threeColumnLog(t, damaged))
		for _, e := range []struct {
			name string
			call func(inOff, n, patOff, patLen uint32, begin, end int64, every, first uint32) int32
		}{{"decode_blg", decodeBlg}, {"relog_stats", relogStats}, {"relog_columns", relogColumns}} {
			d := readAll(t, func(first uint32) int32 { return e.call(offs[0], lens[0], 0, 0, 0, 0, 0, first) })
			if d.head.Local != want || d.head.Rows != rows || d.head.Flags&abi.FlagDamaged != 0 {
				t.Errorf("%s, damaged %v: %d skipped, %d rows, flags %d; want %d skipped, %d rows, not damaged", e.name, damaged, d.head.Local, d.head.Rows, d.head.Flags, want, rows)
			}
		}
		rc := relogText(offs[0], lens[0], 0, 0, 0, 0, 0, abi.FormatCSV)
		if text := string(outBuf[:max(rc, 0)]); rc < 0 || strings.Count(text, "\n") != int(rows)+1 || int64(lastDetail) != want || errLen != 0 {
			t.Errorf("relog_text, damaged %v: rc %d, last_detail %d, err_len %d, text %q; want %d rows and %d skipped", damaged, rc, lastDetail, errLen, text, rows, want)
		}
	}
}

// TestMaxColumns: the log exports refuse a log of more columns than
// max_columns allows (abi.DefaultMaxColumns, perfcalc's --max-columns
// default, until a host sets it; 0 for no limit) with CodeLimit and
// relog's *ColumnsError text, as the command does; before, the module
// ignored the limit.
func TestMaxColumns(t *testing.T) {
	defer setMaxColumns(abi.DefaultMaxColumns)
	if maxColumns != abi.DefaultMaxColumns || abi.DefaultMaxColumns != 1_000_000 {
		t.Fatalf("max_columns starts at %d (abi.DefaultMaxColumns %d), want 1,000,000", maxColumns, abi.DefaultMaxColumns)
	}
	offs, lens := load(t, threeColumnLog(t, false))
	calls := map[string]func() int32{
		"decode_blg":    func() int32 { return decodeBlg(offs[0], lens[0], 0, 0, 0, 0, 0, 0) },
		"relog_stats":   func() int32 { return relogStats(offs[0], lens[0], 0, 0, 0, 0, 0, 0) },
		"relog_columns": func() int32 { return relogColumns(offs[0], lens[0], 0, 0, 0, 0, 0, 0) },
		"relog_text":    func() int32 { return relogText(offs[0], lens[0], 0, 0, 0, 0, 0, abi.FormatCSV) },
	}
	for name, call := range calls {
		for _, n := range []uint32{2, 1} {
			setMaxColumns(n)
			rc := call()
			want := "relog: more than " + string(rune('0'+n)) + " columns (counter instances)"
			if rc != abi.CodeLimit || string(errBuf[:errLen]) != want {
				t.Errorf("%s, max_columns %d: rc %d, %q; want CodeLimit and %q", name, n, rc, errBuf[:errLen], want)
			}
		}
		for _, n := range []uint32{3, 0, abi.DefaultMaxColumns} {
			setMaxColumns(n)
			if rc := call(); rc < 0 {
				t.Errorf("%s, max_columns %d: rc %d, %s", name, n, rc, errBuf[:errLen])
			}
		}
	}
	// A pattern that keeps two of the three columns fits a limit of two.
	setMaxColumns(2)
	offs, lens = load(t, threeColumnLog(t, false), []byte(`\\M\Memory\A`+"\n"+`\\M\Memory\B`))
	if d := readAll(t, func(first uint32) int32 { return decodeBlg(offs[0], lens[0], offs[1], lens[1], 0, 0, 0, first) }); d.head.Columns != 2 {
		t.Errorf("two columns selected under a limit of 2: %d columns", d.head.Columns)
	}
}
