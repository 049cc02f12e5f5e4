//go:build wasm

package engine

// foldRaw is how a StatisticsFold holds a sample: in the WebAssembly module,
// the RawCounter itself (the native build's compact copy costs about 1 KB of
// module, more than its size budget has left).
type foldRaw = RawCounter

func (r *RawCounter) raw() RawCounter { return *r }

// set makes r the sample s, field by field (setRaw).
func (r *RawCounter) set(s *RawCounter) { setRaw(r, s) }

// old sets the older sample of a computation, d, to r (setRaw).
func (r *RawCounter) old(d *RawCounter) { setRaw(d, r) }

// foldScratch is true: StatisticsFold.AddRaw computes in scratchInput, not
// in an Input on its stack, which Go's WebAssembly code clears with a
// memory.fill (a call to the host in wazero) for every value. The module
// has one thread, and AddRaw does not yield while it uses it.
const foldScratch = true

// scratchInput is AddRaw's input in the module.
var scratchInput Input
