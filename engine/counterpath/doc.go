// Package counterpath parses, formats and matches PDH counter paths:
//
//	\\machine\object(parent/instance#index)\counter
//
// as PdhParseCounterPath, PdhMakeCounterPath and PdhExpandWildCardPath treat
// them. The machine, the instance part, the parent and the index are
// optional; "#0" is never written (the first occurrence of a name has no
// index). Names match case-insensitively, and the wildcard "*" may stand
// for, or inside, the parent, the instance and the counter ("pro*"), and for
// the index ("#*").
//
// # Security
//
// Parse accepts any string: a malformed path is an *Error naming the byte
// position of the problem, never a panic. Paths longer than MaxLength
// (PDH_MAX_COUNTER_PATH) are refused before any work. Match runs in time
// linear in the pattern plus the name, without recursion, whatever both
// hold (a 1,000-letter near miss against a 10^6-character name takes
// milliseconds; a backtracking matcher took seconds to minutes), and
// allocates only for a piece between stars longer than 32 runes.
//
// Instance names are capped at MaxInstanceName (PDH_MAX_INSTANCE_NAME,
// 1,024 UTF-16 characters): the decoders refuse a longer instance or parent
// name with an *engine.FormatError wrapping engine.ErrUnsupported that
// names the record, its index, the field and the byte offset — a V1
// PERF_INSTANCE_DEFINITION whose NameLength exceeds 2,050 bytes (perfdata),
// a V2 PERF_INSTANCE_HEADER (perflibv2), a .blg counter-list entry or
// multi-instance item (blg; the log's rows before it are kept, as for any
// damage). Counter paths, which hold the names, are capped by MaxLength.
package counterpath
