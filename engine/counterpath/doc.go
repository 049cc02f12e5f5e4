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
// (PDH_MAX_COUNTER_PATH) are refused before any work, and Match runs in
// O(len(pattern)·len(name)) time without recursion, so hostile patterns
// cannot make it hang.
package counterpath
