// Package translate turns localized performance-object and counter names
// into English: \Prozessor(_Total)\Prozessorzeit (%) into
// \Processor(_Total)\% Processor Time. Machine and instance names are
// never translated.
//
// A Table is built (Builder) from sources, each given a rank by the order
// in which it is added (the first added wins where two sources disagree):
//
//   - a pair of Windows name tables, English "Counter 009" and a localized
//     "Counter 007", "Counter 00C", …: the texts of one index are one name
//     in two languages (AddTables). Name tables do not say which object a
//     counter belongs to, so their pairs translate any object or counter;
//   - the compact form (AddCompact, doc/FORMATS.md §3.4): UTF-8 lines of
//     tab-separated fields, made outside the engine from PAL's
//     CounterLang.xml (perfcalc names --compact) or written by hand. Its
//     counters are scoped by their English object, as CounterLang's are.
//
// Names compare case-insensitively (PDH's simple case folding). A name that
// is already English (an English name of some source, in the same scope) is
// kept as it is. A localized name that one source maps to two different
// English names is ambiguous: it is not translated, and Table.Ambiguities
// lists it. A counter is looked up in its object's scope first (the
// object's English name), then among the name-table pairs and the counters
// of every object.
//
// Build builds a Table from the sources of perfcalc --names-lang (name
// tables, the compact form, entries read from CounterLang.xml elsewhere)
// in the command's order of precedence; a Namer renames a run's columns
// (relog.Options.Rename) and lists the names not translated (Unknown).
// The WebAssembly module reads the compact form with AddCompact and
// translates with the same Table and Namer (wasm/ABI.md, "Names").
//
// # Security
//
// The compact form is untrusted input: AddCompact checks every line's
// fields, refuses names longer than counterpath.MaxLength and fields with
// control characters, and reports the first bad line as an
// *engine.FormatError (Format "translate", Record "line", Index the line
// number, Offset its byte offset). Memory is proportional to the input. The
// package imports neither fmt nor os.
package translate
