//go:build wasm

package engine

// foldRaw is how a StatisticsFold holds a sample: in the WebAssembly module,
// the RawCounter itself (the native build's compact copy costs about 1 KB of
// module, more than its size budget has left).
type foldRaw = RawCounter

func toFold(r *RawCounter) foldRaw { return *r }

func (r *RawCounter) raw() RawCounter { return *r }
