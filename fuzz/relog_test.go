package fuzz

import (
	"bytes"
	"io"
	"math"
	"testing"

	"github.com/perfcalc/perfcalc/engine/relog"
)

// FuzzRelog: converting any input to relog's CSV and JSON and computing
// its statistics never panics and ends; the rows agree with what the first
// reading counted, no value is NaN or ±Inf, and both readings end with the
// same error. The seeds are those of FuzzBLG (hand-made logs, and the real
// logs' first buffers where ../shared/corpus is present).
func FuzzRelog(f *testing.F) {
	for _, s := range blgHandMadeSeeds() {
		f.Add(s)
	}
	for _, s := range blgCorpusSeeds() {
		f.Add(s)
	}
	for _, s := range blgHostileSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := relog.New(bytes.NewReader(data), int64(len(data)), relog.Options{})
		if err != nil {
			return
		}
		checkRows(t, c)
		for _, format := range []relog.Format{relog.CSV, relog.JSON} {
			c, err := relog.New(bytes.NewReader(data), int64(len(data)), relog.Options{Every: 2})
			if err != nil {
				t.Fatalf("a second New failed: %v", err)
			}
			if err := c.Write(io.Discard, format); (err == nil) != (c.ScanErr() == nil) {
				t.Fatalf("Write: %v, first reading: %v", err, c.ScanErr())
			}
		}
		c, _ = relog.New(bytes.NewReader(data), int64(len(data)), relog.Options{})
		st, _ := c.Statistics()
		if len(st) != len(c.Columns()) {
			t.Fatalf("%d statistics for %d columns", len(st), len(c.Columns()))
		}
	})
}

// FuzzRelogMerge: merging any two inputs never panics and ends; the rows
// agree with what the first reading counted, no value is NaN or ±Inf,
// both readings end with the same error, and a log merged with itself
// gives the log's own CSV. The inputs are specs (fromSpec) over
// blgSmallSeeds: a small log picked and edited, or any bytes. Seeded with
// pairs of them, unedited.
func FuzzRelogMerge(f *testing.F) {
	seeds := blgSmallSeeds()
	for i := range seeds {
		f.Add([]byte{byte(i)}, []byte{byte((i + 1) % len(seeds))})
		f.Add([]byte{byte(i)}, []byte{byte(i)})
	}
	f.Fuzz(func(t *testing.T, specA, specB []byte) {
		a, b := fromSpec(seeds, specA), fromSpec(seeds, specB)
		in := func(d []byte, name string) relog.Input {
			return relog.Input{R: bytes.NewReader(d), Size: int64(len(d)), Name: name}
		}
		c, err := relog.Merge([]relog.Input{in(a, "a"), in(b, "b")}, relog.Options{})
		if err != nil {
			return
		}
		checkRows(t, c)
		one, err := relog.New(bytes.NewReader(a), int64(len(a)), relog.Options{})
		if err != nil {
			t.Fatalf("Merge accepted a, New refused it: %v", err)
		}
		var want, have bytes.Buffer
		if err := one.Write(&want, relog.CSV); err != nil {
			return
		}
		self, err := relog.Merge([]relog.Input{in(a, "a"), in(a, "a")}, relog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := self.Write(&have, relog.CSV); err != nil || !bytes.Equal(have.Bytes(), want.Bytes()) {
			t.Fatalf("a merged with itself differs from a alone (error %v):\n%q\n%q", err, have.String(), want.String())
		}
	})
}

// checkRows reads every row of c: each has one cell per column and no NaN
// or ±Inf, their number is what the first reading counted, and both
// readings end with the same error.
func checkRows(t *testing.T, c *relog.Converter) {
	t.Helper()
	n, _, _ := c.Samples()
	rows := 0
	for c.Next() {
		rows++
		row := c.Row()
		if len(row.Cells) != len(c.Columns()) {
			t.Fatalf("row %d has %d cells for %d columns", row.Index, len(row.Cells), len(c.Columns()))
		}
		for _, cell := range row.Cells {
			if v := cell.Result.Value; math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("row %d: value %v", row.Index, v)
			}
		}
	}
	if rows != n {
		t.Fatalf("%d rows, the first reading counted %d", rows, n)
	}
	if (c.Err() == nil) != (c.ScanErr() == nil) || c.Err() != nil && c.Err().Error() != c.ScanErr().Error() {
		t.Fatalf("the readings end differently: %v, %v", c.Err(), c.ScanErr())
	}
}
