package relog

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/tools/hostile"
	"github.com/perfcalc/perfcalc/tools/memtest"
)

// TestMaxColumns: a log of more columns than Options.MaxColumns fails New
// and Merge with a *ColumnsError, read in one piece or in parts; one of
// as many columns as the limit, or with no limit, converts as before.
func TestMaxColumns(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	log := hostile.NewInstancesLog(3, 400, 5) // 6,000 columns
	const n = 3 * 400 * 5
	open := func(opts Options) (*Converter, error) {
		return New(bytes.NewReader(log), int64(len(log)), opts)
	}
	csv := func(c *Converter) string {
		var b bytes.Buffer
		if err := c.Write(&b, CSV); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	all, err := open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Columns()) != n {
		t.Fatalf("%d columns, want %d", len(all.Columns()), n)
	}
	want := csv(all)
	for _, seq := range []bool{false, true} {
		sequentialScan = seq
		for _, max := range []int{1, 100, n - 1} {
			_, err := open(Options{MaxColumns: max})
			var ce *ColumnsError
			if !errors.As(err, &ce) || ce.Max != max {
				t.Errorf("sequential %v, MaxColumns %d: error %v, want a *ColumnsError", seq, max, err)
			}
		}
		for _, max := range []int{n, n + 1, 0} {
			c, err := open(Options{MaxColumns: max})
			if err != nil {
				t.Fatalf("sequential %v, MaxColumns %d: %v", seq, max, err)
			}
			if got := csv(c); got != want {
				t.Errorf("sequential %v, MaxColumns %d: the CSV differs", seq, max)
			}
		}
		// A filter counts only the columns it keeps.
		p, err := counterpath.Parse(`\\*\Process(*)\Counter 1`)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := open(Options{MaxColumns: n / 3, Counters: []counterpath.Path{p}}); err != nil {
			t.Errorf("sequential %v: a filter keeping %d columns under MaxColumns %d: %v", seq, n/3, n/3, err)
		}
	}
	sequentialScan = false
	in := []Input{{bytes.NewReader(log), int64(len(log)), "a.blg"}, {bytes.NewReader(log), int64(len(log)), "b.blg"}}
	var ce *ColumnsError
	// Merge counts the columns of its logs together: each log holds its
	// own.
	for _, max := range []int{n - 1, n, 2*n - 1} {
		if _, err := Merge(in, Options{MaxColumns: max}); !errors.As(err, &ce) {
			t.Errorf("Merge of two logs of %d columns, MaxColumns %d: error %v, want a *ColumnsError", n, max, err)
		}
	}
	if _, err := Merge(in, Options{MaxColumns: 2 * n}); err != nil {
		t.Errorf("Merge of two logs of %d columns under MaxColumns %d: %v", n, 2*n, err)
	}
}

// TestWideLogMemory: a Converter over a log whose samples each bring new
// instances holds at most 900 bytes a column through New and Write (CSV),
// not counting the log's bytes (it held about 1,390 when Write's pipeline
// kept its batches and formatters for rows of every column).
func TestWideLogMemory(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	log := hostile.NewInstancesLog(4, 1000, 10) // 40,000 columns
	const n = 4 * 1000 * 10
	var cols int
	peak := memtest.PeakHeap(func() {
		c, err := New(bytes.NewReader(log), int64(len(log)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Write(io.Discard, CSV); err != nil {
			t.Fatal(err)
		}
		cols = len(c.Columns())
	})
	if cols != n {
		t.Fatalf("%d columns, want %d", cols, n)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	per := (float64(peak) - float64(ms.HeapInuse)) / n
	t.Logf("%d columns: peak heap %d, %.0f bytes a column beyond the heap after", n, peak, per)
	if per > 900 {
		t.Errorf("%.0f bytes a column, want at most 900", per)
	}
	runtime.KeepAlive(log)
}

// TestMaxColumnsStopsEarly: the first reading stops at the column after
// the limit, before the memory of the log's columns is spent: refusing a
// log of 40,000 columns at 100 allocates under 1 MB in all (reading its
// columns allocates over 8 MB), read in one piece or in parts.
func TestMaxColumnsStopsEarly(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	log := hostile.NewInstancesLog(4, 1000, 10)
	allocated := func(max int) (uint64, error) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := New(bytes.NewReader(log), int64(len(log)), Options{MaxColumns: max})
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, err
	}
	for _, seq := range []bool{false, true} {
		sequentialScan = seq
		all, err := allocated(0)
		if err != nil || all < 8<<20 {
			t.Fatalf("sequential %v: reading every column allocated %d bytes (%v), want over 8 MB", seq, all, err)
		}
		n, err := allocated(100)
		var ce *ColumnsError
		if !errors.As(err, &ce) {
			t.Fatalf("sequential %v: error %v, want a *ColumnsError", seq, err)
		}
		t.Logf("sequential %v: %d bytes allocated while refusing, %d reading every column", seq, n, all)
		if n > 1<<20 {
			t.Errorf("sequential %v: %d bytes allocated while refusing, want under 1 MB", seq, n)
		}
	}
	sequentialScan = false
}
