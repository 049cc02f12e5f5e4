package relog

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
)

// Planned rows, in the native build and in the WebAssembly module alike
// (13 KB of module; relog's CSV of a 42 MB log took a third less time in
// it, host's BenchmarkModuleSpeed): a sample laid out as the one before it
// fills the same columns, without looking its instances up, and is
// computed with one engine.ComputeBatch.

// rowPlan is the layout of the last raw-record sample visit took the slow
// path for: its values' counters and instance names in order, and, in the
// second pass, the column each value filled (−1 for none). A sample of the
// same layout fills the same columns (instance numbering included: it
// depends on the names in the sample, in order), so visit can reuse them.
type rowPlan struct {
	valid    bool
	first    bool    // made in the first pass (no columns)
	at       int     // the blg.Sample.Index of the last sample laid out so
	counters []int   // per value: blg.Value.Counter
	ends     []int   // per value: the end of its instance name in names
	names    []byte  // the instance names, one after the other
	cols     []int32 // second pass: per value, the column it fills or −1
	filled   int     // second pass: the columns filled
	inOrder  bool    // second pass: value i fills column i, for every value
	ins      []engine.Input
	res      []engine.Result
	insCol   []int32 // the column of ins[k]
}

// start begins recording the layout of a sample of the given pass; a
// sample with whole objects (keep false) is not planned.
func (p *rowPlan) start(s *blg.Sample, first, keep bool) {
	p.valid, p.first, p.at = keep, first, s.Index
	p.counters, p.ends, p.names, p.cols = p.counters[:0], p.ends[:0], p.names[:0], p.cols[:0]
	p.filled, p.inOrder = 0, true
}

// forget drops the plan: the sample it was being made for is damaged.
func (p *rowPlan) forget() { p.valid = false }

// add records value v, which filled column col.
func (p *rowPlan) add(v *blg.Value, col int32) {
	p.counters = append(p.counters, v.Counter)
	p.names = append(p.names, v.Instance...)
	p.ends = append(p.ends, len(p.names))
	if col >= 0 {
		p.filled++
	}
	p.inOrder = p.inOrder && int(col) == len(p.cols)
	p.cols = append(p.cols, col)
}

// matches reports whether s (without whole objects) has the layout the
// plan was made for, in the same pass.
func (p *rowPlan) matches(s *blg.Sample, first bool) bool {
	if !p.valid || p.first != first || len(s.Values) != len(p.counters) {
		return false
	}
	if s.Repeat && s.Index == p.at+1 {
		// The reader says so: the sample repeats the one before it, which
		// was laid out so.
		p.at = s.Index
		return true
	}
	start := 0
	for i := range s.Values {
		v := &s.Values[i]
		end := p.ends[i]
		if v.Counter != p.counters[i] || string(v.Instance) != string(p.names[start:end]) {
			return false
		}
		start = end
	}
	p.at = s.Index
	return true
}

// computePlanned computes a sample that matches the plan: the inputs of
// every column it fills, one ComputeBatch, then the cells (all cleared
// first), as fill would. With out set (a row of a pipeline's batch), it
// only copies the raw values into out, in their columns, and marks them
// present: a worker computes the row (worker.compute), which takes that
// work off the one goroutine that reads the log.
func (c *Converter) computePlanned(s *blg.Sample, out *batchRow) {
	p := &c.plan
	kept := int32(c.kept)
	if out != nil {
		*out.computed = false
		if p.inOrder && p.filled == len(out.raws) {
			// Value i fills column i, every column: the most common plan.
			for i := range out.raws {
				out.raws[i] = s.Values[i].Raw
			}
			copy(c.prev, out.raws)
			for i := range out.present {
				out.present[i] = true
				c.last[i] = kept
			}
			return
		}
		clear(out.present)
		for i, col := range p.cols {
			if col < 0 {
				continue
			}
			out.raws[col] = s.Values[i].Raw
			out.present[col] = true
			c.prev[col] = s.Values[i].Raw
			c.last[col] = kept
		}
		return
	}
	if c.rawOnly {
		// The raw values alone, in their cells (Statistics).
		clear(c.row.Cells)
		for i, col := range p.cols {
			if col < 0 {
				continue
			}
			cell := &c.row.Cells[col]
			cell.Present, cell.Counter = true, c.counters[col]
			setRaw(&cell.Raw, &s.Values[i].Raw)
			setRaw(&c.prev[col], &cell.Raw)
			c.last[col] = kept
		}
		return
	}
	n := p.filled
	if cap(p.ins) < n {
		p.ins, p.res, p.insCol = make([]engine.Input, n), make([]engine.Result, n), make([]int32, n)
	}
	ins, res, insCol := p.ins[:n], p.res[:n], p.insCol[:n]
	k := 0
	for i, col := range p.cols {
		if col < 0 {
			continue
		}
		in := &ins[k]
		in.Counter = c.counters[col]
		in.HasOld = kept > 0 && c.last[col] == kept-1
		in.Old = c.prev[col]
		in.New = s.Values[i].Raw
		c.prev[col] = in.New
		insCol[k] = col
		k++
	}
	engine.ComputeBatch(ins, 0, res)
	clear(c.row.Cells)
	for k, col := range insCol {
		// Field by field: a Cell literal is built aside, then copied.
		cell := &c.row.Cells[col]
		cell.Present, cell.Counter, cell.Raw, cell.Result = true, ins[k].Counter, ins[k].New, res[k]
		c.last[col] = kept
	}
}

// batchRow is one row of a rowBatch, as next fills it.
type batchRow struct {
	raws     []engine.RawCounter
	present  []bool
	res      []engine.Result
	computed *bool
}

// setRaw sets *d to *s field by field: Go's WebAssembly code copies a
// struct of more than 16 bytes assigned whole with memory.copy, which
// wazero runs as a call to the host's memmove (statistics' rows copy
// two per value; relog's computed rows measured no faster this way).
func setRaw(d, s *engine.RawCounter) {
	d.CStatus, d.TimeStamp, d.FirstValue, d.SecondValue, d.MultiCount = s.CStatus, s.TimeStamp, s.FirstValue, s.SecondValue, s.MultiCount
}
