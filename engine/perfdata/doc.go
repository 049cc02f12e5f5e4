// Package perfdata decodes V1 Windows performance data: the blob that
// RegQueryValueEx(HKEY_PERFORMANCE_DATA, …) returns and that perfmon's
// "whole object" .blg records embed.
//
// A blob is a PERF_DATA_BLOCK (Parse) followed by PERF_OBJECT_TYPEs
// (Block.Objects), each with its PERF_COUNTER_DEFINITIONs (Object.Counters)
// and either instances, each a PERF_INSTANCE_DEFINITION with a name and a
// PERF_COUNTER_BLOCK (Object.Instances), or a single counter block
// (NumInstances −1, PERF_NO_INSTANCES). The decoded records keep winperf.h's
// field names.
//
// Decoding is zero-copy, in the style of golang.org/x/net/dns/dnsmessage:
// the cursors (ObjectCursor, CounterCursor, InstanceCursor) are values that
// walk forward in the style of bufio.Scanner — Next advances, Object,
// Counter or Instance returns the current record, Err the error that
// stopped the walk —, the records are views of the caller's bytes, valid
// while the input is, and walking every object, counter, instance and raw
// value allocates nothing:
//
//	objs := blk.Objects()
//	for objs.Next() {
//		o := objs.Object()
//		…
//	}
//	if err := objs.Err(); err != nil {
//		…
//	}
//
// Instance names are raw views (Instance.NameBytes) decoded on demand into a
// caller's buffer (Instance.AppendName) or a string (Instance.Name), from
// UTF-16LE or from the object's code page (see SupportedCodePage).
//
// Object.Fill turns a counter definition and an instance's counter block
// into the engine's input: the raw value, its base (the next definition, or
// a multi timer's trailing DWORD) and its time base, so that engine.Compute
// gives PDH's value. Object.Plan does Fill's per-definition work once per
// object, so that Plan.Fill fills all of an instance's inputs at the cost of
// a load and a few stores per value (about 1.7 GB/s on a real Process block
// against 1.2 GB/s calling Fill per value: make bench-walk). Namer names instances as PDH does in counter paths:
// `parent/name#n`.
//
// # Security
//
// The input is untrusted. Every length, offset and count is checked against
// the buffer and against its parent record before use, so that malformed
// input yields a *engine.FormatError (Format "perfdata") naming the
// structure, its index, the byte offset and the field, and wrapping
// engine.ErrTruncated, engine.ErrMalformed or engine.ErrUnsupported — never
// a panic or an out-of-range read. Zero lengths that would loop forever,
// lengths that point outside their parent and counts larger than the bytes
// that could hold them are errors, and no allocation is sized by a field of
// the input, so work and memory are linear in the blob's size whatever
// NumObjectTypes, NumCounters or NumInstances claim.
//
// The package imports neither fmt nor os, to keep the WebAssembly build
// small.
package perfdata
