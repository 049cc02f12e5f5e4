//go:build !wasm

package relog

import (
	"io"
	"runtime"
	"sync"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/logtext"
)

// This file holds what makes relog fast on a machine with several CPUs,
// which the WebAssembly module (one thread) has no use for (fast_wasm.go
// stands in for it there): Write's pipeline over the CPUs, and the first
// reading in parts. None of it changes any output: the tests compare each
// with the general path. Planned rows (plan.go) are in both.

// fast enables the paths of this file.
const fast = true

// cpus returns how many CPUs Write and the first reading may use.
func cpus() int { return runtime.GOMAXPROCS(0) }

// rowBatch holds consecutive rows for the pipeline (batches), as compact
// as the consumers need them (a batch stays in the CPU's caches between
// the goroutine that fills it, the one that computes it and the one that
// uses it): per row, its index and time and, per column, whether the
// sample has it, its raw value and its result. The rows that the reading
// goroutine computed (not planned) have their results from it; a planned
// row is computed by a worker (worker.compute), against the row before
// it: the batch carries the raw values and presence of the row before its
// first.
type rowBatch struct {
	rows, cols int
	index      []int               // per row: Row.Index
	times      []int64             // per row: Row.Time
	raws       []engine.RawCounter // rows × columns, row-major
	present    []bool              // rows × columns
	computed   []bool              // per row: fillBatch computed it (res holds its results)
	res        []engine.Result     // rows × columns
	carryRaw   []engine.RawCounter // the row before the first: its raw values
	carryHas   []bool              // and whether it had each column
	text       []byte              // Write: the rows as text
	done       chan struct{}       // the worker is done with the batch
}

// batchValues is about how many values a batch holds: about 24 KiB of CSV
// at 20 digits, 40 KiB of raw values.
const batchValues = 1024

// newRowBatch returns a batch for rows of cols columns, holding at most
// rows rows (the log's kept samples: a small log needs no large batches).
func newRowBatch(cols, rows int) *rowBatch {
	n := max(1, min(batchValues/max(cols, 1), rows))
	return &rowBatch{cols: cols, index: make([]int, n), times: make([]int64, n), raws: make([]engine.RawCounter, n*cols),
		present: make([]bool, n*cols), computed: make([]bool, n), res: make([]engine.Result, n*cols),
		carryRaw: make([]engine.RawCounter, cols), carryHas: make([]bool, cols), done: make(chan struct{}, 1)}
}

// row returns row r of b.
func (b *rowBatch) row(r int) batchRow {
	i, j := r*b.cols, (r+1)*b.cols
	return batchRow{raws: b.raws[i:j:j], present: b.present[i:j:j], res: b.res[i:j:j], computed: &b.computed[r]}
}

// fillBatch fills b with the next rows, as many as it holds, and reports
// whether it holds any. A planned row goes straight into the batch, to be
// computed by a worker (next's direct path); another is Next's row, copied
// with its results.
func (c *Converter) fillBatch(b *rowBatch) bool {
	b.rows = 0
	if c.merge == nil { // a merge's rows are never planned (next)
		copy(b.carryRaw, c.prev)
		for col := range b.carryHas {
			b.carryHas[col] = c.kept > 0 && c.last[col] == int32(c.kept-1)
		}
	}
	for b.rows < len(b.times) {
		row := b.row(b.rows)
		ok, direct := c.next(&row)
		if !ok {
			break
		}
		if !direct {
			*row.computed = true
			for i := range c.row.Cells {
				cell := &c.row.Cells[i]
				row.present[i], row.raws[i], row.res[i] = cell.Present, cell.Raw, cell.Result
			}
		}
		b.index[b.rows], b.times[b.rows] = c.row.Index, c.row.Time
		b.rows++
	}
	return b.rows > 0
}

// worker is what one computing goroutine of the pipeline reuses: the
// inputs and results of a planned row, and Write's time stamps.
type worker struct {
	ins    []engine.Input
	res    []engine.Result
	insCol []int32
	day    logtext.Times
}

// compute computes the planned rows of b into their results, as Next
// would (a column the row does not have gets a zero Result). The counters
// are those of the columns.
func (wk *worker) compute(b *rowBatch, counters []engine.Counter) {
	for r := range b.rows {
		row := b.row(r)
		if *row.computed {
			continue
		}
		oldRaws, oldHas := b.carryRaw, b.carryHas
		if r > 0 {
			prev := b.row(r - 1)
			oldRaws, oldHas = prev.raws, prev.present
		}
		k := 0
		for col, ok := range row.present {
			if !ok {
				row.res[col] = engine.Result{}
				continue
			}
			in := &wk.ins[k]
			in.Counter = counters[col]
			in.HasOld = oldHas[col]
			in.Old = oldRaws[col]
			in.New = row.raws[col]
			wk.insCol[k] = int32(col)
			k++
		}
		if k == len(row.res) {
			// Every column, in order: the results go straight in.
			engine.ComputeBatch(wk.ins, 0, row.res)
			continue
		}
		engine.ComputeBatch(wk.ins[:k], 0, wk.res[:k])
		for j, col := range wk.insCol[:k] {
			row.res[col] = wk.res[j]
		}
	}
}

// text prints every row of b (computed) into b.text.
func (wk *worker) text(t *text, b *rowBatch) {
	b.text = b.text[:0]
	for r := range b.rows {
		row := b.row(r)
		b.text = t.appendRow(b.text, &wk.day, b.times[r], row.present, row.res)
	}
}

// batches runs the second reading as a pipeline: a goroutine fills
// batches (fillBatch), workers in goroutines of their own (one per CPU, at
// most 4: the reading goroutine leaves most of its CPU to them) compute
// each batch's planned rows and then run work on it (when set), and the
// caller's goroutine passes the batches to use in the log's order. A few
// batches are in flight, so memory stays bounded whatever the log's
// length. When use returns an error, the pipeline stops (use is not called
// again) and batches returns that error, after every goroutine has
// stopped; else nil (Err then tells a damage from the log's end). When use
// panics, the goroutines stop too.
func (c *Converter) batches(work func(wk *worker, b *rowBatch), use func(b *rowBatch) error) error {
	workers := min(max(cpus(), 1), 4)
	inFlight := 2 * (workers + 1)
	free := make(chan *rowBatch, inFlight)
	queue := make(chan *rowBatch, inFlight) // to the workers
	order := make(chan *rowBatch, inFlight) // to use, in the log's order
	stop := make(chan struct{})
	// No more batches than the log's rows fill (a small log needs one);
	// more rows than counted only cycle the batches more often.
	b := newRowBatch(len(c.columns), c.samples)
	free <- b
	for range min(inFlight, (c.samples+len(b.times)-1)/len(b.times)) - 1 {
		free <- newRowBatch(len(c.columns), c.samples)
	}
	go func() {
		defer close(order)
		defer close(queue)
		for {
			var b *rowBatch
			select {
			case <-stop:
				return
			default:
			}
			select {
			case b = <-free:
			case <-stop:
				return
			}
			if !c.fillBatch(b) {
				return
			}
			order <- b // neither send blocks: at most inFlight batches exist
			queue <- b
		}
	}()
	var working sync.WaitGroup
	for range workers {
		working.Add(1)
		go func() {
			defer working.Done()
			n := len(c.columns)
			wk := worker{ins: make([]engine.Input, n), res: make([]engine.Result, n), insCol: make([]int32, n)}
			for b := range queue {
				wk.compute(b, c.counters)
				if work != nil {
					work(&wk, b)
				}
				b.done <- struct{}{}
			}
		}()
	}
	var err error
	stopped := false
	defer func() {
		if !stopped {
			close(stop) // use panicked: the goroutines end all the same
		}
	}()
	for b := range order {
		<-b.done
		if err == nil {
			if err = use(b); err != nil {
				close(stop) // the filler stops at its next batch; order is drained
				stopped = true
			}
		}
		free <- b
	}
	working.Wait()
	return err
}

// pipeline is Write's pipeline (batches): the workers print the batches'
// rows, and the caller's goroutine writes the texts to w in order. It
// returns w's first error.
func (c *Converter) pipeline(t *text, w io.Writer) error {
	return c.batches(func(wk *worker, b *rowBatch) { wk.text(t, b) }, func(b *rowBatch) error {
		if len(b.text) == 0 {
			return nil
		}
		_, err := w.Write(b.text)
		return err
	})
}

// readBatches is ReadRows' pipeline (batches): the caller's goroutine
// passes the computed rows to fn, in order.
func (c *Converter) readBatches(fn func(r *ComputedRow) error) error {
	var r ComputedRow
	err := c.batches(nil, func(b *rowBatch) error {
		for i := range b.rows {
			row := b.row(i)
			r.Index, r.Time, r.Present, r.Results = b.index[i], b.times[i], row.present, row.res
			if err := fn(&r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return c.Err()
}

// scanParts reads the parts of a log in parallel, part 0 into c and each
// other into a Converter of its own, then takes in what those met, in
// order.
func (c *Converter) scanParts(parts []*blg.Reader) {
	helpers := make([]*Converter, len(parts))
	var wg sync.WaitGroup
	for k := 1; k < len(parts); k++ {
		h := &Converter{opts: c.opts, infos: c.infos, names: c.names, entries: newEntries(c.infos)}
		helpers[k] = h
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.scanPart(parts[k])
		}()
	}
	c.scanPart(parts[0])
	wg.Wait()
	c.skipped = parts[0].Skipped()
	for k, h := range helpers[1:] {
		if c.scanErr != nil {
			break // the samples after a damage are not the log's
		}
		if h.scanErr != nil {
			// A damage in a later part names its sample by its index in
			// the part: read the log again in one piece, for the log's
			// numbering (damaged logs only).
			c.entries, c.scratch, c.plan = newEntries(c.infos), scratch{}, rowPlan{}
			c.samples, c.begin, c.end, c.scanErr = 0, 0, 0, nil
			if err := parts[0].Rewind(); err != nil {
				c.scanErr = err
				return
			}
			c.scanPart(parts[0])
			c.skipped = parts[0].Skipped() // the events up to the damage
			return
		}
		c.absorb(h)
		c.skipped += parts[1+k].Skipped()
	}
}

// absorb takes in what the first pass met in a later part of the log (h):
// its samples, and its counters, instances and columns that c has not met,
// after c's own in their order of first appearance.
func (c *Converter) absorb(h *Converter) {
	if h.samples > 0 {
		if c.samples == 0 {
			c.begin = h.begin
		}
		c.end = h.end
		c.samples += h.samples
	}
	c.scanErr = h.scanErr
	c.over = c.over || h.over
	for i := range h.entries {
		e, he := &c.entries[i], &h.entries[i]
		if !e.multi() {
			// One counter of one instance: no maps (see newEntries).
			if e.single == 0 {
				e.single = he.single
			}
			continue
		}
		cis := make([]int32, len(he.counters)) // a wildcard's one counter: 0
		for ci, name := range he.counters {
			if !e.whole {
				break
			}
			k, ok := e.byCounter[name]
			if !ok {
				k = int32(len(e.counters))
				e.counters = append(e.counters, name)
				e.types = append(e.types, he.types[ci])
				e.byCounter[name] = k
			}
			cis[ci] = k
		}
		for title, ci := range he.byTitle {
			if _, ok := e.byTitle[title]; !ok {
				e.byTitle[title] = cis[ci]
			}
		}
		iis := make([]int32, len(he.insts))
		for ii, name := range he.insts {
			k, ok := e.byInst[name]
			if !ok {
				k = int32(len(e.insts))
				e.insts = append(e.insts, name)
				e.instGen = append(e.instGen, 0)
				e.byInst[name] = k
			}
			iis[ii] = k
		}
		for pair, keep := range he.pairs {
			k := [2]int32{cis[pair[0]], iis[pair[1]]}
			if _, ok := e.pairs[k]; !ok {
				e.pairs[k] = keep
			}
		}
	}
}
