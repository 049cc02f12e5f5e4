// Package palxml reads PAL's threshold files (PAL, Performance Analysis of
// Logs: XML files of analyses, counters and thresholds) into an
// analysis.Set, as doc/ANALYSIS.md §9 states their schema.
//
// Load reads a file and those it inherits, answers its questions from
// their defaults and the caller's values, and evaluates each threshold's
// and chart band's PowerShell with package psexpr. A threshold or band
// computed from the count of a datasource's instances (PAL's processor
// count, $CollectionOfProcessorPercentProcessorTime.Count - 1) gets an
// analysis.Count that analysis.Run evaluates with the log's count. What
// cannot be evaluated (hand-written loops, VBScript) is listed in
// Set.Unsupported with the reason, never dropped silently. Generated datasources of the recurring "ratio of two counters
// times a constant" form (network utilisation and PAL's SQL Server
// ratios) become an analysis.Formula; the others are listed.
//
// The package has its own small XML reader (Parse) rather than
// encoding/xml, and imports neither fmt nor os: the WebAssembly module
// links it.
//
// # Security
//
// Threshold files are untrusted input. Parse refuses a DOCTYPE, so no
// entity is ever declared or expanded (no billion laughs, no external
// entity), and bounds the document's size (MaxInput), nesting (MaxDepth),
// attributes per element (MaxAttrs) and elements (MaxElements); it never
// recurses on the document's structure. Load bounds the inherited files
// (MaxFiles) and their bytes together (MaxTotal), and ignores inheritance
// loops; LoadFiles loads a file of one identity once, whatever the names
// that reach it. Questions are found by a map, their variables made once
// for all analyses: a load takes time linear in the files' size. The
// evaluator runs no loop and bounds its work (psexpr.MaxTokens,
// psexpr.MaxDepth, and the bytes its strings go through: MaxWork across a
// load). Regular expressions are compiled by package objre, a bounded
// matcher that never backtracks.
package palxml
