package engine

import (
	"math"
	"testing"
)

// TestKernelsMatchCompute runs every type's kernel over a run of realistic
// inputs of that type, every seventh of them not plainly valid (perturb),
// and compares every value's bits and status with compute's.
func TestKernelsMatchCompute(t *testing.T) {
	for _, typ := range Types() {
		t.Run(typ.String(), func(t *testing.T) {
			var ins []Input
			if typ.Displayable() {
				ins = perturb(typedInputs(typ, 700, 11))
			} else {
				ins = perturb(typedInputs(CounterCounter, 70, 11))
				for i := range ins {
					ins[i].Type = typ
				}
			}
			// Large deltas, for Cap100 and the inverse timers' negative values.
			for i := 3; i < len(ins); i += 11 {
				ins[i].New.FirstValue += ins[i].New.SecondValue - ins[i].Old.SecondValue
			}
			for _, opts := range []Options{0, Cap100, Scale, Times1000, Cap100 | Scale | Times1000 | Wrap32} {
				out := make([]Result, len(ins))
				ComputeBatch(ins, opts, out)
				valid := 0
				for i := range ins {
					want := compute(&ins[i], opts)
					if out[i].Status != want.Status || math.Float64bits(out[i].Value) != math.Float64bits(want.Value) {
						t.Fatalf("options %b, input %d %+v: have %v, want %v", opts, i, ins[i], out[i], want)
					}
					if want.Status == Valid {
						valid++
					}
				}
				if typ.Displayable() && valid < len(ins)/2 {
					t.Errorf("options %b: only %d of %d inputs Valid: the kernel's fast path is barely tested", opts, valid, len(ins))
				}
			}
		})
	}
}
