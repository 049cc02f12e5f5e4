// Package query computes every counter of two raw Windows performance-data
// snapshots: the values that perfmon, typeperf and relog show between two
// samples.
//
// A Query takes the older and the newer capture of the same machine — two V1
// HKEY_PERFORMANCE_DATA blobs (package perfdata), or two PerfLib V2
// PerfQueryCounterData results with the counterset's registration (package
// perflibv2) — pairs each counter of each instance of the newer capture with
// the same counter of the same instance in the older one, and computes it
// with engine.Compute: the right time base, base counter and multi count come
// from perfdata's and perflibv2's Fill. The selection is a list of PDH
// counter paths with wildcards (package counterpath); no selection means
// every counter. Base counters are not listed: they feed the counter before
// them.
//
// # Names
//
// Objects and counters are named through a name table (package nametable,
// the "Counter 009" value) for V1, and through the counterset's counter name
// strings for V2. Without a table, or for an index the table lacks, a name
// is the index written as "#238", and paths may use that form:
// \Process(*)\#6. Instances are named as PDH names them, `parent/name#n`
// (perfdata.Namer); V2 instance names get the same "#n" numbering of
// duplicates.
//
// # Instances across samples
//
// Instances are matched by their full name (parent/name#n), compared
// case-insensitively, wherever they are in each capture: an instance that
// swapped places keeps its pair; one that appeared in the newer capture has
// no older sample (2-sample types answer engine.NewData); one that
// disappeared is dropped. A process restarted under a reused name keeps its
// name, so its counters went backwards, and the engine answers
// engine.NegativeValue rather than a garbage rate.
//
// With Config.Identity identity.PID, Process instances are paired by their
// "ID Process" (and "Creating Process ID": a reused PID is a new process,
// name:pid#1, …) and named name:pid,
// Thread instances by "ID Process" and "ID Thread", named process:pid/tid,
// so that a process renumbered by another's exit (chrome#3 becoming
// chrome#2) keeps its pair and no value is computed between two processes;
// instances that share their IDs in a capture (the Idle process's threads,
// all 0/0) are numbered in their order as PDH numbers duplicate names;
// Query.IdentityBreaks counts the names that changed process,
// Query.IdentityNotes names the objects paired by name for want of their
// ID counters, and those whose instances share their IDs (identity.go).
//
// Captures of different machines, with different objects, or with an object
// whose counter definitions changed, are refused with a *MismatchError.
//
// # Speed
//
// Run appends to a caller's slice and reuses the Query's buffers; names of
// objects, counters and instances are kept from one run to the next. Once
// the buffers have grown, a query of captures like the previous ones
// allocates nothing at all, whatever the number of counters (a test pins
// this with testing.AllocsPerRun).
//
// # Security
//
// Both captures are untrusted. They are decoded by perfdata and perflibv2,
// which check every length and offset and report a *engine.FormatError for
// malformed input; a query never panics and never sizes an allocation from a
// count in the input (buffers grow with the records actually decoded). Time
// is linear in the size of V1 captures (plus a sort of the instance names);
// for V2, each capture is indexed once (perflibv2.Index), and a value is
// paired in O(log n).
//
// A selection (Config.Paths) never hides a damage: the objects, instances
// and values it leaves out are decoded and checked as well, only not
// computed, so that a capture gives the same error whatever is selected.
//
// The package imports neither fmt nor os.
package query
