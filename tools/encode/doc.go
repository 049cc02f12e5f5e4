// Package encode builds raw Windows performance data from plain Go
// descriptions: V1 HKEY_PERFORMANCE_DATA blobs (EncodeV1 and the V1* types),
// PerfLib V2 blobs and name tables. It is the inverse of the decoders in
// engine's sub-packages: decoding what it encodes gives back every field of
// the description. Tests, fuzz targets, benchmarks and the project's own
// generated captures use it, since real multi-object and V2 captures are
// not publicly available.
//
// The encoders lay records out the way Windows does (doc/FORMATS.md): 8-byte
// aligned records, names padded to 8 bytes, lengths and offsets computed
// from the description. Values the description asks for explicitly (counter
// offsets, so that counters can share raw data) are written as given.
//
// # Security
//
// The descriptions are trusted (they come from the caller, not from the
// wire), but they are still checked: a description that the format cannot
// represent (a value too large for its CounterSize, an instance count that
// contradicts NumInstances, a name that the code page cannot encode, …) is
// an error, never a panic or a silently different blob. Sizes are checked
// against the 32-bit length fields before anything is written.
//
// The package is a test tool (tools/): a fixture encoder for perfcalc's own tests,
// fuzz targets and generated corpus (tools/gencorpus), not an API. The
// WebAssembly module links none of it (wasm's import test checks the
// module's graph).
package encode
