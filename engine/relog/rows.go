package relog

import "github.com/perfcalc/perfcalc/engine"

// ComputedRow is one kept row as ReadRows passes it: what Next and Row
// give of it, by column.
type ComputedRow struct {
	// Index and Time are the row's Row.Index and Row.Time.
	Index int
	Time  int64
	// Present holds, per column (Converter.Columns order), the cell's
	// Present, and Results its Result: a zero Result where Present is
	// false.
	Present []bool
	Results []engine.Result
}

// ReadRows starts the second reading of the log, as Next would, and calls
// fn with every kept row, in the log's order, in the caller's goroutine.
// The row and its slices are valid until fn returns (they are reused). It
// returns fn's first error, which stops the reading (fn is not called
// again), or else Err: nil at the log's clean end, or the damage after
// the last row passed to fn. Call it once, instead of Next (or Write).
//
// With two or more CPUs (runtime.GOMAXPROCS), the reading runs in Write's
// pipeline: one goroutine reads the log into batches of rows, others
// compute them, and fn takes the rows in order while the next are read,
// with the same values as Next and Row; a few batches are in flight, so
// memory stays bounded. Every goroutine has stopped when ReadRows returns,
// and the goroutines stop when fn panics.
// The WebAssembly module reads on its one thread, through Next.
func (c *Converter) ReadRows(fn func(r *ComputedRow) error) error {
	if fast && c.pipelined() {
		return c.readBatches(fn)
	}
	return c.readSequential(fn)
}

// readSequential is ReadRows on the caller's goroutine, through Next and
// Row.
func (c *Converter) readSequential(fn func(r *ComputedRow) error) error {
	cells := c.row.Cells // made once, before the reading (layout, Merge)
	present, results := make([]bool, len(cells)), make([]engine.Result, len(cells))
	r := ComputedRow{Present: present, Results: results}
	for c.Next() {
		r.Index, r.Time = c.row.Index, c.row.Time
		for i := range cells {
			present[i], results[i] = cells[i].Present, cells[i].Result
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	return c.Err()
}
