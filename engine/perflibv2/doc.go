// Package perflibv2 decodes the blobs of Windows' PerfLib V2 consumer
// functions (perflib.h, [MS-PCQ] §2.2.4), on every OS:
//
//   - PerfQueryCounterData results: a PERF_DATA_HEADER and its
//     PERF_COUNTER_HEADER blocks of the five kinds (PERF_ERROR_RETURN,
//     PERF_SINGLE_COUNTER, PERF_MULTIPLE_COUNTERS, PERF_MULTIPLE_INSTANCES,
//     PERF_COUNTERSET), walked by Parser, whose Blocks give Rows of Values;
//   - counterset registrations (PERF_COUNTERSET_REG_INFO and its
//     PERF_COUNTER_REG_INFO array), read by ParseRegInfo;
//   - instance enumerations (PERF_INSTANCE_HEADER arrays), walked by
//     InstanceParser;
//   - string buffers (PERF_STRING_BUFFER_HEADER), read by ParseStrings,
//     which tells which of the two documented readings of dwOffset the
//     buffer follows (Reading).
//
// Fill pairs a counter value with the counterset's registration and fills
// an engine.Input: the counter's value, its time stamp or base counter,
// its multi count and its time base, as doc/FORMATS.md §2.2 and
// doc/COUNTER-TYPES.md describe. Fill walks the result for each value; an Index
// walks it once and then fills each value in O(log n), with the same
// results, for callers that fill many values of one result.
//
// Decoding happens in place. The cursors (Parser, InstanceParser, Rows,
// Values) walk forward through the caller's bytes in the style of
// bufio.Scanner, like perfdata's and blg's: Next advances, Block,
// Instance, Row or Value returns a pointer to the current record (held by
// the cursor, valid until the next Next), and Err reports the error that
// stopped the walk. Rows and Values have no Err: they walk a block that
// Parser.Next has already checked, so they cannot fail.
//
//	for p.Next() {
//		rows := p.Block().Rows()
//		for rows.Next() {
//			vals := rows.Row().Values()
//			for vals.Next() {
//				v := vals.Value()
//				…
//			}
//		}
//	}
//	if err := p.Err(); err != nil {
//		…
//	}
//
// Names are wintype.Text views of the input. Views are valid while the input is.
// Walking blocks, rows, values, instances and strings allocates nothing.
//
// # Decisions
//
// Where the sources are silent: a result buffer longer than dwTotalSize is
// accepted (the rest is ignored), as are bytes between the last block and
// dwTotalSize, padding inside a block after its structures, and bytes after
// the last PERF_COUNTER_REG_INFO; PERF_COUNTER_DATA.dwSize must be at least
// 16 (as Microsoft's sample requires); a PERF_INSTANCE_HEADER of Size 8 has
// an empty name, a larger one must hold a NUL; an unknown dwType is
// reported as engine.ErrUnsupported; a repeated counter id in a block or
// in a registration resolves to its first occurrence.
//
// # Security
//
// All input is untrusted: PerfLib does not validate what providers write.
// Every dwSize, Size, dwTotalSize, offset and count is checked against the
// enclosing record before use, records are advanced by their own sizes,
// 8-byte alignment (sizes that are not multiples of 8) is reported, and no
// allocation is ever sized from the input. Work is linear in the input's
// size whatever its headers claim (building an Index: O(n log n), its
// storage sized by the records the input holds). Malformed input yields an
// *engine.FormatError with Format "perflibv2", the record's Windows name,
// its index, the field and the byte offset, for example
//
//	perflibv2: PERF_COUNTER_HEADER 2 at 0x70: dwSize 8 below 16
//
// and never a panic. The package imports neither fmt nor os.
package perflibv2
