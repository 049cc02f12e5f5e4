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

// dayCache prints every time in full (fast.go caches the date).
type dayCache struct{}

func (*dayCache) appendTime(dst []byte, ft int64, iso bool) []byte {
	if iso {
		return AppendISOTime(dst, ft)
	}
	return AppendTime(dst, ft)
}

// appendFixed is appendDigits (the module keeps one of the two).
func appendFixed(dst []byte, v int64, width int) []byte { return appendDigits(dst, v, width) }

func (c *Converter) scanParts(parts []*blg.Reader) {}

// jsonKeys is nil: the module's JSON keys are the paths, repeated where a
// path is (the native jsonKeys costs the module about 1.6 KB).
func jsonKeys(cols []Column) []string { return nil }
