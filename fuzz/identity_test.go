package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// identityLog is a small raw-record log of processes for the identity
// targets: \Process(*) and \Thread(*) entries with their ID counters,
// processes that share names, one that exits (the next renumbered) and a
// reused PID; threads reports whether the Thread entries are there, ids
// whether the ID counters are (without: the fallback).
func identityLog(threads, ids bool) []byte {
	const local = 130057734178440000
	l := blgbuild.New(1<<14, local)
	type entry struct{ object, counter string }
	entries := []entry{{"Process", "% Processor Time"}}
	if ids {
		entries = append(entries, entry{"Process", "ID Process"}, entry{"Process", "Creating Process ID"})
	}
	if threads {
		entries = append(entries, entry{"Thread", "Context Switches/sec"})
		if ids {
			entries = append(entries, entry{"Thread", "ID Process"}, entry{"Thread", "ID Thread"})
		}
	}
	var list []byte
	for _, e := range entries {
		typ := uint32(0x00010000)
		if e.counter[0] == '%' || e.counter[0] == 'C' && e.object == "Thread" {
			typ = 0x20510500
		}
		list = blgbuild.AppendCounterList(list, blgbuild.Counter{Flags: 1, Type: typ, TimeBase: 10_000_000, Machine: `\\HOST`, Object: e.object, Instance: "*", Counter: e.counter})
	}
	l.Record(blgbuild.EventCounterList, local, list, 8000)
	type proc struct{ pid, creator uint64 }
	samples := [][]proc{{{10, 1}, {20, 1}, {30, 1}}, {{10, 1}, {20, 1}, {30, 1}}, {{10, 1}, {30, 1}}, {{10, 7}, {30, 1}}}
	for s, ps := range samples {
		ts := int64(local + s*10_000_000)
		rec := []byte{'B', 'L', 3, 0, 0, 0, 0, 0}
		for _, e := range entries {
			var names [][]uint16
			var vals []uint64
			for _, p := range ps {
				name := "chrome"
				if e.object == "Thread" {
					name += "/0"
				}
				var u []uint16
				for _, c := range name {
					u = append(u, uint16(c))
				}
				names = append(names, u)
				switch e.counter {
				case "ID Process":
					vals = append(vals, p.pid)
				case "Creating Process ID":
					vals = append(vals, p.creator)
				case "ID Thread":
					vals = append(vals, p.pid+1)
				default:
					vals = append(vals, p.pid*uint64(s)*100_000)
				}
			}
			rec = append(rec, blgbuild.MultiSubRecord(ts, names, vals)...)
		}
		binary.LittleEndian.PutUint32(rec[4:], uint32(len(rec)))
		l.Record(blgbuild.EventSample, ts, rec, 8000)
	}
	return l.Bytes()
}

// FuzzRelogIdentity: converting any input with Identity PID never panics
// and ends; the rows agree with the first reading, no value is NaN or
// ±Inf, the CSV is written, and the breaks are never negative. The inputs
// are specs (fromSpec) over identityLog's logs and blgSmallSeeds.
func FuzzRelogIdentity(f *testing.F) {
	bases := [][]byte{identityLog(true, true), identityLog(false, true), identityLog(true, false)}
	bases = append(bases, blgSmallSeeds()...)
	for i := range bases {
		f.Add([]byte{byte(i)})
	}
	f.Fuzz(func(t *testing.T, spec []byte) {
		data := fromSpec(bases, spec)
		opts := relog.Options{Identity: identity.PID}
		c, err := relog.New(bytes.NewReader(data), int64(len(data)), opts)
		if err != nil {
			return
		}
		checkRows(t, c)
		if c.IdentityBreaks() < 0 {
			t.Fatalf("%d breaks", c.IdentityBreaks())
		}
		c, err = relog.New(bytes.NewReader(data), int64(len(data)), opts)
		if err != nil {
			t.Fatalf("a second New failed: %v", err)
		}
		if err := c.Write(io.Discard, relog.CSV); (err == nil) != (c.ScanErr() == nil) {
			t.Fatalf("Write: %v, first reading: %v", err, c.ScanErr())
		}
	})
}

// TestIdentityLogSeeds: the identity target's seed logs pair by PID as
// they are meant to (2 breaks: chrome#1 from PID 20 to 30, PID 10
// reused), and the one without IDs falls back with notes.
func TestIdentityLogSeeds(t *testing.T) {
	for _, tc := range []struct {
		log    []byte
		breaks int64
		notes  int
	}{
		{identityLog(true, true), 2 + 1, 0}, // the threads' chrome/0#1 too
		{identityLog(false, true), 2, 0},
		{identityLog(true, false), 0, 2},
	} {
		c, err := relog.New(bytes.NewReader(tc.log), int64(len(tc.log)), relog.Options{Identity: identity.PID})
		if err != nil {
			t.Fatal(err)
		}
		checkRows(t, c)
		if c.IdentityBreaks() != tc.breaks || len(c.IdentityNotes()) != tc.notes {
			t.Errorf("breaks %d, notes %q; want %d and %d notes", c.IdentityBreaks(), c.IdentityNotes(), tc.breaks, tc.notes)
		}
	}
}

// FuzzQueryPID: a query with Config.Identity pid of two mutated captures never
// panics; every error is a *engine.FormatError or one of the query's own,
// every value finite, the breaks no more than the instances. The captures
// are specs over the PAL log's real Process blocks with its name table
// (../shared/corpus/v1, where present: Process recognised, ID Process
// read) and the project's global captures.
func FuzzQueryPID(f *testing.F) {
	var blocks [][]byte
	var names *nametable.Table
	if root := corpus.Root(); root != "" {
		dir := filepath.Join(filepath.Dir(root), "shared", "corpus", "v1")
		if b, err := os.ReadFile(filepath.Join(dir, "pal_counter_009.multisz")); err == nil {
			names, _ = nametable.Parse(b)
		}
		for s := 5; s <= 8; s++ {
			if b, err := os.ReadFile(filepath.Join(dir, "s0"+strconv.Itoa(s)+"_obj230.bin")); err == nil {
				blocks = append(blocks, b)
			}
		}
	}
	for _, p := range querySeedPairs(f) {
		blocks = append(blocks, p[0], p[1])
	}
	for i := range blocks {
		f.Add([]byte{byte(i)}, []byte{byte(i + 1)})
	}
	f.Fuzz(func(t *testing.T, olderSpec, newerSpec []byte) {
		older, newer := fromSpec(blocks, olderSpec), fromSpec(blocks, newerSpec)
		q := query.New(query.Config{Names: names, Identity: identity.PID})
		vals, err := q.Run(nil, older, newer)
		var fe *engine.FormatError
		switch {
		case err == nil:
		case errors.As(err, &fe), errors.Is(err, query.ErrMismatch), errors.Is(err, query.ErrNotV1):
			return
		default:
			t.Fatalf("unexpected error %T: %v", err, err)
		}
		for _, v := range vals {
			if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
				t.Fatalf("%s: have %v", v.Path, v.Value)
			}
		}
		if b := q.IdentityBreaks(); b < 0 || b > len(vals) {
			t.Fatalf("%d breaks for %d values", b, len(vals))
		}
	})
}
