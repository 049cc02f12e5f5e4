//go:build wasm

package relog

import (
	"io"

	"github.com/perfcalc/perfcalc/engine/blg"
)

// The WebAssembly module leaves out the paths of fast.go, which need
// several threads: it reads every sample on its one thread, with the same
// output. These stand-ins are never called.

const fast = false

func cpus() int { return 1 }

func (c *Converter) pipeline(t *text, w io.Writer) error { return nil }

func (c *Converter) readBatches(fn func(r *ComputedRow) error) error { return nil }

func (c *Converter) scanParts(parts []*blg.Reader) {}
