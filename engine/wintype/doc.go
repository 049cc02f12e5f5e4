// Package wintype holds the Windows data types that more than one of
// perfcalc's decoders reads: SYSTEMTIME (SystemTime: in a V1
// PERF_DATA_BLOCK, a V2 PERF_DATA_HEADER and a .blg log's
// TIME_ZONE_INFORMATION) and UTF-16LE text as Windows stores names (Text:
// name-table entries, V2 instance names and string buffers). One copy of
// each, so that the decoders, the command and the WebAssembly module speak
// of the same values.
//
// Like the rest of the engine, it imports only the standard library and
// never fmt or os.
//
// # Security
//
// The values are read from untrusted input. ParseSystemTime reads a fixed
// 16 bytes and leaves their validation to the caller (a SYSTEMTIME in a
// capture may hold any eight WORDs). A Text is a view of the caller's bytes:
// its methods never read past its end, decode malformed UTF-16 (unpaired
// surrogates) as U+FFFD, and allocate only what their result needs.
package wintype
