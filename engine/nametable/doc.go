// Package nametable reads Windows performance-counter name tables: the
// "Counter <lang>" and "Help <lang>" REG_MULTI_SZ values (HKEY_PERFORMANCE_DATA
// "Counter 009", the registry's Perflib\009 "Counter" value), which map the
// title indexes of PERF_OBJECT_TYPE and PERF_COUNTER_DEFINITION records to
// names and help texts.
//
// Parse validates a table once and builds a compact index over it: a slice
// sorted by title index, sized by the pairs actually present, and, on the
// first name lookup, a slice sorted by case-folded name (sorting names is
// most of the work, and readers that only look indexes up never pay it).
// Table.Lookup (index → text) and Table.LookupName (name → every index
// with that name; names are not unique) then allocate nothing. Texts are returned as wintype.Text views of the
// caller's UTF-16LE bytes, with helpers that decode them into a caller
// buffer (AppendUTF8, AppendUTF16) or a string.
//
// The first pair of a Counter table, "1" → "<Base Index>" (1847 on Vista
// and Windows 10), is data like every other pair and is kept.
//
// # Decisions
//
// A repeated index keeps its last text. A missing final extra NUL is
// tolerated; zero bytes after the final NUL are ignored, other bytes are an
// error. An empty text cannot be represented (an empty string ends a
// REG_MULTI_SZ), so an index followed by an empty string is an error.
// Names compare case-insensitively by Unicode simple case mapping: each
// rune is folded to the lower case of its upper case, so "Pages/sec" and
// "Pages/Sec" match; unpaired surrogates compare as U+FFFD.
//
// # Security
//
// A name table is untrusted input. Parse checks every string against the
// input's end before use, never sizes an allocation from an index value
// (only from the number of pairs it has counted in the input), does work
// linear in the input's size (plus the sorts, O(n log n) in the pairs, by
// names folded once each, not in every comparison: a 10^6-pair table of
// non-ASCII names went from about 8 s to 2 s), keeps at most twice the
// input's bytes (12 bytes per pair read and 4 per distinct index; the
// smallest pair is 8 bytes) and allocates at most 4 times them in all
// (TestTableMemory), and
// reports malformed input as an *engine.FormatError naming the string's
// byte offset; it never panics on any input. The package imports neither
// fmt nor os.
package nametable
