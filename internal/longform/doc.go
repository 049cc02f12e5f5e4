// Package longform is perfcalc's long table of counter samples: one row per
// sample and counter instance, the shape that analytics engines (DuckDB,
// pandas, Spark, Polars) query best. perfcalc's Parquet output (relog,
// values and convert with -f parquet) writes it, and the Python package's
// Arrow tables (issue 16) have the same columns, names and types: Fields
// (columns.go) is the one place that defines them, and make generate
// (tools/abigen) writes the table below, the Python package's schemas
// and the external checks' from it.
//
// # Columns
//
// In this order (Arrow types; the Parquet physical and logical types in
// brackets). This table is generated from Fields (make generate):
//
//	time            timestamp[us, tz=UTC]  not null  [INT64 TIMESTAMP(isAdjustedToUTC=true, unit=MICROS)]
//	    the sample's instant in UTC, to the microsecond
//	local_time      timestamp[us]          not null  [INT64 TIMESTAMP(isAdjustedToUTC=false, unit=MICROS)]
//	    the logging machine's wall-clock time of the sample, as relog prints
//	    it in its CSV ("02/19/2013 18:50:17.844"); local_time − time is the
//	    zone's offset in force
//	machine         string (dictionary)    not null  [BYTE_ARRAY STRING, dictionary]
//	    the machine of the counter path, without the leading \\ ("" when the
//	    path has none)
//	object          string (dictionary)    not null  [BYTE_ARRAY STRING, dictionary]
//	    the performance object (counter set): "Processor"
//	instance        string (dictionary)    null      [BYTE_ARRAY STRING, dictionary]
//	    the instance name without parent and #index ("_Total", "svchost");
//	    null for an object without instances
//	parent          string (dictionary)    null      [BYTE_ARRAY STRING, dictionary]
//	    the parent instance ("0" in Thread(0/12)); null where there is none
//	instance_index  int32                  null      [INT32 INT(32, true)]
//	    PDH's #n numbering of instances that share a name: 0 for the first
//	    (written without #), 1 for name#1, …; null for an object without
//	    instances
//	counter         string (dictionary)    not null  [BYTE_ARRAY STRING, dictionary]
//	    the counter's name: "% Processor Time"
//	path            string (dictionary)    not null  [BYTE_ARRAY STRING, dictionary]
//	    the full counter path exactly as relog's CSV header prints it,
//	    \\MACHINE\Object(parent/instance#n)\Counter: the column's identity
//	counter_type    string (dictionary)    not null  [BYTE_ARRAY STRING, dictionary]
//	    the Windows name of the counter type (PERF_100NSEC_TIMER; a type
//	    that winperf.h does not define prints as 0x…)
//	value           double                 null      [DOUBLE]
//	    the value PDH computes (relog's: not capped at 100, not scaled),
//	    bit-identical to relog's CSV; null unless status is "Valid"
//	status          string (dictionary)    not null  [BYTE_ARRAY STRING, dictionary]
//	    why there is or is not a value: Valid, NewData, NegativeDenominator,
//	    NegativeValue, InvalidData, NotDisplayable or UnknownType
//	    (engine.Status)
//	raw_status      uint32                 null      [INT32 INT(32, false)]
//	    the raw sample's PDH_CSTATUS_* (0 valid, 1 new data, 0x800007D0 no
//	    machine, …)
//	raw_first       uint64                 null      [INT64 INT(64, false)]
//	    PDH_RAW_COUNTER.FirstValue: the counter's raw value N
//	raw_second      uint64                 null      [INT64 INT(64, false)]
//	    PDH_RAW_COUNTER.SecondValue: its time stamp D or base B
//	raw_multi       uint32                 null      [INT32 INT(32, false)]
//	    PDH_RAW_COUNTER.MultiCount: the item count of the multi timers
//	pid             uint32                 null      [INT32 INT(32, false)]
//	    the process ID of a Process, Process V2 or Thread instance whose
//	    name carries it: name:pid (Process with --identity pid, Process V2
//	    always) or process:pid/tid (Thread with --identity pid); null
//	    elsewhere
//
// Every row fills the four raw columns with its sample's raw record: a
// .blg log's, and for perfcalc values (and the Python package's values) the
// newer capture's, from which the value was computed (query.Value.Raw).
//
// # Rows
//
// A row exists for every sample of the log and every column of relog's CSV
// that the sample holds: a cell relog prints as " " (no valid value) is a
// row with a null value and its status; a cell relog leaves empty (the
// instance is absent from that sample) is no row. Rows come in the log's
// order: sample by sample, and within a sample in the CSV's column order.
//
// perfcalc values writes one sample, the newer capture's: a row for every
// column of values -f csv (a null value where it prints " "), local_time
// the capture's SYSTEMTIME and time that plus the zone offset found
// between it and the capture's PerfTime100nSec (rounded to the quarter
// hour, as values' CSV header prints it).
//
// # Time
//
// A .blg log stores local times. time is local_time converted with the
// log header's time zone (blg.TimeZone, its own daylight rules): UTC =
// local + the bias in force. Where a local time is ambiguous (the hour that
// repeats when daylight time ends), Clock picks the earliest reading not
// before the previous sample's, so a log that runs through the change
// keeps increasing instants; a local time that daylight time skips is read
// with the standard bias. Both columns keep microseconds (the log's
// FILETIMEs have 100 ns ticks; relog prints milliseconds).
//
// # Security
//
// The package turns already-decoded rows into rows; it reads no bytes of
// its own. It imports neither fmt nor os, so that the WebAssembly module
// can link it.
package longform
