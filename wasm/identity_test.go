//go:build !perfcalcanalyze

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/blgedit"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// palExitCSV is the SHA-256 of relog's CSV of the PAL sample log with
// svchost#2 exiting at sample 5, as the build before --identity wrote it
// (cmd/perfcalc's and engine/relog's identity tests pin the same).
const palExitCSV = "13303bc9f26ca1f1d8cfa34f14fd658610ce2c2513a18424e47755e2e8635dda"

// TestIdentity: the identity export makes decode_blg, relog_text and
// relog_stats pair Process and Thread instances by process, as relog's
// Options.Identity does natively (the same text, columns, statistics and
// break count: identity_breaks), on the PAL sample log (one break:
// rundll32#1) and its variant with svchost#2 exiting mid-log (11 breaks);
// pdh mode stays the earlier build's CSV byte for byte and reports no
// break; an unknown mode is refused and changes nothing. Before, the
// module paired by name whatever the host wanted.
func TestIdentity(t *testing.T) {
	defer setIdentity(abi.IdentityPDH)
	pal := mustRead(t, filepath.Join(corpus.Shared(t, "blg"), "PAL_SamplePerfmonLog.blg"))
	exit, changed, err := blgedit.ExitInstance(pal, "Process", "svchost#2", 5)
	if err != nil || changed != 6 {
		t.Fatalf("ExitInstance: %d samples changed, %v", changed, err)
	}
	for _, tc := range []struct {
		name   string
		log    []byte
		breaks int64
	}{{"pal", pal, 1}, {"exit", exit, 11}} {
		offs, lens := load(t, tc.log)
		for _, mode := range []uint32{abi.IdentityPDH, abi.IdentityPID} {
			if rc := setIdentity(mode); rc != 0 {
				t.Fatalf("identity(%d): %d", mode, rc)
			}
			opts := relog.Options{Identity: identity.Mode(mode)}
			want := tc.breaks
			if mode == abi.IdentityPDH {
				want = 0
			}
			// relog_text: the native Converter's CSV.
			c, err := relog.New(bytes.NewReader(tc.log), int64(len(tc.log)), opts)
			if err != nil {
				t.Fatal(err)
			}
			var native bytes.Buffer
			if err := c.Write(&native, relog.CSV); err != nil {
				t.Fatal(err)
			}
			text, _ := readText(t, relogText(offs[0], lens[0], 0, 0, 0, 0, 0, abi.FormatCSV), nil)
			header, _, _ := strings.Cut(string(text), "\r\n")
			switch {
			case !bytes.Equal(text, native.Bytes()):
				t.Errorf("%s, identity %d: relog_text's CSV differs from relog's", tc.name, mode)
			case c.IdentityBreaks() != want || identityBreaksExport() != want:
				t.Errorf("%s, identity %d: identity_breaks %d, relog's %d, want %d", tc.name, mode, identityBreaksExport(), c.IdentityBreaks(), want)
			case mode == abi.IdentityPID && (!strings.Contains(header, `\Process(rundll32:580)\% Processor Time"`) || strings.Contains(header, `\Process(svchost#`)):
				t.Errorf("%s, pid: the CSV header names processes by name", tc.name)
			}
			if sum := sha256.Sum256(text); tc.name == "exit" && mode == abi.IdentityPDH && hex.EncodeToString(sum[:]) != palExitCSV {
				t.Errorf("exit, pdh: the CSV differs from the earlier build's")
			}
			// decode_blg: the columns and the cells of relog's rows.
			d := readAll(t, func(first uint32) int32 { return decodeBlg(offs[0], lens[0], 0, 0, 0, 0, 0, first) })
			cols := c.Columns()
			if int(d.head.Columns) != len(cols) || identityBreaksExport() != want {
				t.Errorf("%s, identity %d: decode_blg: %d columns, %d breaks; want %d, %d", tc.name, mode, d.head.Columns, identityBreaksExport(), len(cols), want)
			}
			cells := 0
			for i, r := range d.recs {
				if d.paths[i] != cols[r.Column].Path {
					t.Fatalf("%s, identity %d: record %d: %s, column %d is %s", tc.name, mode, i, d.paths[i], r.Column, cols[r.Column].Path)
				}
				cells++
			}
			// relog_stats: relog's statistics, column by column.
			cs, err := relog.New(bytes.NewReader(tc.log), int64(len(tc.log)), opts)
			if err != nil {
				t.Fatal(err)
			}
			st, _ := cs.Statistics()
			s := readAll(t, func(first uint32) int32 { return relogStats(offs[0], lens[0], 0, 0, 0, 0, 0, 0) })
			if len(s.stats) != len(st) || identityBreaksExport() != want {
				t.Fatalf("%s, identity %d: relog_stats: %d records, %d breaks; want %d, %d", tc.name, mode, len(s.stats), identityBreaksExport(), len(st), want)
			}
			for i := range st {
				if s.stats[i].Count != st[i].Count || s.stats[i].Mean != st[i].Mean || s.paths[i] != cols[i].Path {
					t.Errorf("%s, identity %d: statistics of %s: %+v, relog's %+v", tc.name, mode, s.paths[i], s.stats[i], st[i])
				}
			}
			if cells == 0 {
				t.Errorf("%s, identity %d: decode_blg gave no record", tc.name, mode)
			}
		}
	}
	if rc := setIdentity(2); rc != abi.CodeArgument || !strings.Contains(string(errBuf[:errLen]), "identity") || identityMode != abi.IdentityPID {
		t.Errorf("identity(2): rc %d, %q, mode %d; want CodeArgument and the mode kept", rc, errBuf[:errLen], identityMode)
	}
}

// TestIdentityQuery: with identity pid, query pairs the PAL log's real V1
// Process captures of samples 6 and 7 by process (rundll32#1 changes
// process there: one break, and rundll32:580 is new), as query's
// Config.Identity pid does; with pdh, by name (no break).
func TestIdentityQuery(t *testing.T) {
	defer setIdentity(abi.IdentityPDH)
	dir := filepath.Join(corpus.Root(), "..", "shared", "corpus", "v1")
	older, err0 := os.ReadFile(filepath.Join(dir, "s06_obj230.bin"))
	newer, err1 := os.ReadFile(filepath.Join(dir, "s07_obj230.bin"))
	names, err2 := os.ReadFile(filepath.Join(dir, "pal_counter_009.multisz"))
	if err0 != nil || err1 != nil || err2 != nil {
		t.Skip("no V1 corpus (../shared/corpus/v1): a clone without ../shared")
	}
	desc := make([]byte, abi.QuerySize)
	pat := []byte(`\Process(rundll32*)\% Processor Time`)
	offs, lens := load(t, desc, older, newer, names, pat)
	for f, i := range map[int]int{abi.QueryOlder: 1, abi.QueryNewer: 2, abi.QueryNames: 3, abi.QueryPaths: 4} {
		abi.PutRegion(inBuf[offs[0]:], f, offs[i], lens[i])
	}
	for _, mode := range []uint32{abi.IdentityPDH, abi.IdentityPID} {
		setIdentity(mode)
		d := readAll(t, func(first uint32) int32 { return runQuery(offs[0], 0, first) })
		paths := strings.Join(d.paths, " ")
		var want int64
		if mode == abi.IdentityPID {
			want = 1
			if !strings.Contains(paths, `Process(rundll32:580)`) || strings.Contains(paths, `Process(rundll32#1)`) {
				t.Errorf("pid: paths %s", paths)
			}
			for i, p := range d.paths {
				if strings.Contains(p, "rundll32:580") && d.recs[i].Column != 0 {
					t.Errorf("pid: %s paired with an older instance", p)
				}
			}
		} else if !strings.Contains(paths, `Process(rundll32#1)`) {
			t.Errorf("pdh: paths %s", paths)
		}
		if identityBreaksExport() != want {
			t.Errorf("identity %d: query: %d breaks, want %d", mode, identityBreaksExport(), want)
		}
		rc := queryText(offs[0], 0, abi.FormatCSV)
		if rc < 0 || identityBreaksExport() != want {
			t.Errorf("identity %d: query_text: rc %d, %d breaks, want %d", mode, rc, identityBreaksExport(), want)
		}
	}
}
