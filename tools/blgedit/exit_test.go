package blgedit

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

func TestExitInstance(t *testing.T) {
	log, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), "PAL_SamplePerfmonLog.blg"))
	if err != nil {
		t.Fatal(err)
	}
	out, n, err := ExitInstance(log, "Process", "svchost#2", 5)
	if err != nil || n != 6 || len(out) != len(log) {
		t.Fatalf("%d samples changed (want 6 of 11), %d bytes of %d, %v", n, len(out), len(log), err)
	}
	// Every svchost instance is in the first five samples; from the sixth,
	// the last number is gone (one less).
	c, err := relog.New(bytes.NewReader(out), int64(len(out)), relog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := -1
	for i, col := range c.Columns() {
		if col.Path == `\\ZACH-PC\Process(svchost#12)\ID Process` {
			last = i
		}
	}
	if last < 0 {
		t.Fatal("no svchost#12")
	}
	for r := 0; c.Next(); r++ {
		if got := c.Row().Cells[last].Present; got != (r < 5) {
			t.Errorf("row %d: svchost#12 present %v", r, got)
		}
	}
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ExitInstance(log, "Process", "nosuch", 0); err != nil {
		t.Fatal(err)
	}
}

func TestSetCounter(t *testing.T) {
	log, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), "PAL_SamplePerfmonLog.blg"))
	if err != nil {
		t.Fatal(err)
	}
	out, n, err := SetCounter(log, "Process", "svchost#2", "ID Process", 732, 4)
	if err != nil || n != 7 || len(out) != len(log) {
		t.Fatalf("%d samples changed (want 7 of 11), %d bytes of %d, %v", n, len(out), len(log), err)
	}
	c, err := relog.New(bytes.NewReader(out), int64(len(out)), relog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, cl := range c.Columns() {
		if cl.Path == `\\ZACH-PC\Process(svchost#2)\ID Process` {
			col = i
		}
	}
	if col < 0 {
		t.Fatal("no svchost#2")
	}
	for r := 0; c.Next(); r++ {
		want := uint64(760)
		if r >= 4 {
			want = 732
		}
		if got := c.Row().Cells[col].Raw.FirstValue; got != want {
			t.Errorf("row %d: svchost#2's ID Process %d, want %d", r, got, want)
		}
	}
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	if _, n, err := SetCounter(log, "Process", "svchost#2", "No Such Counter", 1, 0); err != nil || n != 0 {
		t.Fatalf("an absent counter: %d samples changed, %v", n, err)
	}
}
