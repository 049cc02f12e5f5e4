// Package relog turns a perfmon binary log (.blg) into what Windows'
// relog prints for it: the same columns, rows and text as
// "relog IN.blg -f csv" (and -f tsv), a JSON form of the same rows, and
// per-counter statistics, on any operating system.
//
//	c, err := relog.New(f, size, relog.Options{})
//	if err != nil { … }
//	err = c.Write(w, relog.CSV)
//
// New reads the log once to find its columns, the number and range of the
// samples and the time zone; Write (or Next and Row, ReadRows, or
// Statistics) reads it a second time and computes every value with
// engine.Compute between consecutive kept samples, with options 0
// (relog's: values are neither capped at 100 nor scaled). Neither reading holds more than one sample of
// the log, so memory does not grow with the log's length (Statistics
// excepted, which keeps each column's raw series). The second reading
// rewinds the first's blg.Reader (blg.Reader.Rewind): the counter list is
// read once, and a Converter keeps at most 4 times its bytes (a 60 MB
// list of 394,736 entries: 283 MB of peak RSS in perfcalc stats, 1 GB
// before; TestCounterListMemory).
//
// # Speed
//
// A raw-record sample laid out as the one before it (the same counters and
// instances in the same order: nearly every sample) is computed with one
// engine.ComputeBatch, its columns known without looking instances up.
// With two or more CPUs, the first reading of a log of more than 8 MiB runs
// in parts, one goroutine each (blg.Reader.Split), and Write and ReadRows
// read the rows in one goroutine while others compute them (and, for
// Write, print them), in batches of about 1,000 values; the output is byte
// for byte the one of a single CPU. The WebAssembly module, on one thread,
// plans rows too but leaves the paths over several CPUs out (fast.go). make
// bench-compare measures
// perfcalc relog against an earlier build on the 42 MB log of
// doc/PERFORMANCE.md.
//
// # Columns
//
// Raw-record logs (Windows 7 and later, and any log written by relog or
// logman with explicit counters) have one column per counter-list entry,
// named by the path the log stores (blg.CounterInfo.Path); a wildcard entry
// such as \\HOST\Processor(*)\% Processor Time has one column per instance
// met in the log, named by the instance. An instance name that a
// multi-instance record repeats within one sample is numbered name#1,
// name#2, … as PDH numbers duplicates.
//
// Vista-era "whole object" logs store, per sample, one PERF_DATA_BLOCK per
// object. Every displayable counter of every instance becomes a column
// \\MACHINE\Object(instance)\Counter (\\MACHINE\Object\Counter for an
// object without instances): counter names come from the name table the
// log carries (blg.Reader.NameTable, decoded by package nametable; a title
// index missing from it is written in decimal), instance names are PDH's
// (perfdata.Namer: parent/name#n), base counters and the types without a
// value are not columns, and values are computed with perfdata's
// Object.Fill. Instances are matched across samples by full name: an
// instance that appears has no value in its first sample (NewData, a 2-
// sample type prints " "), one that is absent from a sample has an empty
// field.
//
// Column order: counter-list entries in list order; within an entry,
// counters in order of first appearance (definition order), and within a
// counter, instances in order of first appearance in the log — the order
// in which PDH expands \Object(*)\* (all instances of one counter, then the
// next counter). Options.Counters keeps the columns whose path matches
// one of its patterns.
//
// # Process identity
//
// Options.Identity identity.PID pairs Process and Thread instances by
// process (and thread) ID rather than by name: a series per process,
// named name:pid, and no value computed between two processes that PDH's
// renumbering gave the same name (see identity.Mode; IdentityBreaks counts
// where the two modes differ, IdentityNotes names the objects paired by
// name for want of their ID counters, and those whose instances share
// their IDs in a sample, told apart by their order). The default,
// identity.PDH, is relog's pairing, byte for byte.
//
// # Several logs
//
// Merge returns a Converter over up to 32 logs, merged as Windows' relog
// merges its inputs: the union of their columns, their samples in time
// order, a value only where the sample's log has the counter. Microsoft
// does not document more; the choices for duplicate samples, counters that
// several logs share, logs of other time zones and damaged logs are listed
// at Merge. Its Next, Write and Statistics hold one sample of each log.
//
// # Time stamps
//
// A row's time stamp is the sample event's FILETIME (blg.Sample.TimeStamp),
// which PDH writes in the logging machine's local time: in the real logs
// it equals the FILETIME of the sample's last raw record
// (Tx_BasicPerfCounters.blg, and PowerShell_BadCounterSamples.blg whose 26
// machines each have their own), and, in whole-object logs, the
// PERF_DATA_BLOCK's SystemTime and its PerfTime100nSec converted to local
// time with the log's zone (PAL_SamplePerfmonLog.blg). It is printed as is,
// MM/DD/YYYY HH:MM:SS.mmm, the milliseconds truncated. The log header's
// times are UTC.
//
// The CSV header names the logging machine's zone as it was when the log
// started (the log header's StartTime, UTC, through the zone's own rules):
// "(PDH-CSV 4.0) (Pacific Standard Time)(480)" for a log of February in
// California, "(Eastern Daylight Time)(240)" for one of August in New
// York. A real PDH CSV written in May in California (the PowerShell
// project's CorruptBlg.blg, a renamed CSV) reads "(Pacific Daylight
// Time)(420)": the bias printed is the one in force, daylight time
// included.
//
// # Text
//
// CSV and TSV quote every field, as PDH does; values print as Microsoft's
// C runtime prints %.20g (Options.Digits; %.17g before about 2020), the
// exponent with three digits (engine.AppendFloat), the HEX types included
// (relog writes the double PDH computes); a value without a Valid status
// prints as a single space,
// a column absent from the sample as an empty field. Lines end with CR LF,
// as Windows writes text files. JSON is described at the JSON constant.
//
// # Security
//
// The log is untrusted input, read by package blg (and perfdata and
// nametable for whole objects), which check every size, offset and count.
// A damaged log never panics: the rows before the damage are yielded and
// the damage is returned by Err, Write and Statistics. The number of
// columns is bounded by what the log holds, as is every allocation. The
// package imports neither fmt nor os, so that the WebAssembly module stays
// small.
package relog
