//go:build wasm

package relog

import (
	"io"

	"github.com/perfcalc/perfcalc/engine/blg"
)

// The WebAssembly module leaves out the paths of fast.go, to keep within
// its size budget: it reads every sample through the general path, on its
// one thread, with the same output. These stand-ins are never called.

const fast = false

func cpus() int { return 1 }

type rowPlan struct{}

func (*rowPlan) start(s *blg.Sample, first, keep bool)     {}
func (*rowPlan) add(v *blg.Value, col int32)               {}
func (*rowPlan) matches(s *blg.Sample, first bool) bool    { return false }
func (*rowPlan) forget()                                   {}
func (c *Converter) computePlanned(*blg.Sample, *batchRow) {}

// batchRow is fast.go's; the module never fills one.
type batchRow struct{}

func (c *Converter) pipeline(t *text, w io.Writer) error { return nil }

func (c *Converter) readBatches(fn func(r *ComputedRow) error) error { return nil }

func (c *Converter) scanParts(parts []*blg.Reader) {}
