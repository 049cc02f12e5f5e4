// Package blg reads perfmon binary logs (.blg), the files that Windows'
// Performance Monitor, logman and relog write since Windows Vista, on any
// operating system.
//
// Microsoft does not document the format. Everything here comes from
// Microsoft's public ETW structures (the WMI buffer header,
// EVENT_TRACE_HEADER, TRACE_LOGFILE_HEADER, TIME_ZONE_INFORMATION,
// SYSTEMTIME, PDH_RAW_COUNTER) and from observing real logs; see "Observed
// structure" below.
//
// # Reading a log
//
// NewReader opens a log through an io.ReaderAt and its size, NewStreamReader
// through an io.Reader read once from start to end. Both read the log
// header (Header: the logging machine's Windows version, start and end
// times, QPC frequency and time zone), the counter list (Counters: machine,
// object, instance, parent, counter, type, time base, default scale, and
// the full counter path relog prints) and, in Vista-era logs, the name table
// (NameTable). Then
//
//	for r.Next() {
//		s := r.Sample()
//		…
//	}
//	if err := r.Err(); err != nil { … }
//
// yields the samples in order; Rewind (NewReader's readers only) goes back
// to the first sample without reading the header and counter list again. A
// sample holds, per counter-list entry, either raw values (Sample.Values: an engine.RawCounter each, with its
// CStatus kept; an item of a multi-instance record also names its
// instance) or, in Vista-era "whole object" logs, one PERF_DATA_BLOCK per
// object (Sample.Blocks, as bytes for the perfdata decoder). A counter's
// engine.Counter is CounterInfo.Engine. Sample time stamps are as the log
// stores them; TimeZone.ToLocal converts a UTC FILETIME to the logging
// machine's local time with the zone's own daylight-time rules, and
// ResolveName turns "@tzres.dll,-212" into "Pacific Standard Time".
//
// # Writing a log
//
// NewWriter starts a log on an io.Writer from a WriterConfig (ConfigOf
// gives a log's own: its header, log GUID and counter list), WriteSample
// adds a sample's raw values (as Sample.Values holds them) and Close ends
// it. The layout is that of the PDH raw-counter logs of Windows 8 and
// later (Tx_BasicPerfCounters.blg): rewriting a real raw-counter log
// gives its bytes but for the fields that say when and by what it was
// written (doc/FORMATS.md §5.1). The Writer holds one buffer and writes
// whole buffers only, so a log cut short reads up to its last whole
// buffer.
//
// # Memory and speed
//
// The reader holds one buffer of the log (64 KiB in every real log), the
// largest record met (split records are reassembled into one reused slice),
// the counter list and the name table, never the whole log: a 1 GB log
// needs about as much memory as a 1 MB one. After the first samples, Next
// allocates nothing; a sample's slices alias the reader's buffers and are
// valid until the next call to Next. Reading runs at about 1.5–2 GB/s on
// the real logs.
//
// The counter list costs at most 3 times its bytes (a CounterInfo of 152
// bytes per entry, whose smallest possible size is 56 bytes, and the
// entries' strings, decoded once): it is allocated once, from the entries
// counted in the record, and a reassembled record larger than 1 MiB is let
// go once read (TestCounterListMemory). While the list is read, its record
// is held too, in a buffer grown as its parts arrive (at most twice the
// record).
//
// # Observed structure
//
// What doc/FORMATS.md §5 summarises, in detail, from the four public
// logs (PAL_SamplePerfmonLog.blg: Vista, 32-bit system header,
// whole-object records split into 3 parts; Tx_BasicPerfCounters.blg:
// Windows 8, 64-bit header, single and multi-instance raw records;
// PowerShell_BadCounterSamples.blg: Server 2003-era provider version,
// 26 machines, bad statuses):
//
//   - The log is a sequence of buffers of BufferSize bytes (the first
//     buffer's header and the TRACE_LOGFILE_HEADER agree; every buffer must
//     have the same size). Of the WMI buffer header only BufferSize (+0x00)
//     and Offset (+0x30, the bytes in use) are reliable: SavedOffset and
//     CurrentOffset hold unrelated values in saved logs (0, the fill, a
//     sequence number, or values beyond the buffer). Events fill
//     [0x48, Offset); the rest of the buffer is 0xFF.
//   - The first event is a 32-byte SYSTEM_TRACE_HEADER (marker byte 2 = 1
//     for 4-byte pointers, 2 for 8-byte, byte 3 has 0xC0; Size at +4)
//     followed by TRACE_LOGFILE_HEADER with Microsoft's layout: with 4-byte
//     pointers TimeZone is at +0x40 and the fixed part is 0x110 bytes, with
//     8-byte pointers +0x48 and 0x118 (LARGE_INTEGERs are 8-aligned);
//     LoggerName and LogFileName follow as NUL-terminated UTF-16LE.
//     PointerSize agrees with the marker in every log; a disagreement is
//     refused.
//   - Every other event has a 48-byte EVENT_TRACE_HEADER (HeaderType 0x0A
//     or 0x14, the 32- and 64-bit "full" headers, same layout), is
//     8-aligned, and its alignment padding is not zeroed. Only events of
//     PDH's provider {933F3BB3-943E-490D-9CED-3CBB14C14479} are read; others
//     are skipped, as are further system events.
//   - A PDH event's data starts with the log GUID (16 bytes, the same in
//     every event of a log), a 1-based part index and a part count. Split
//     records (PAL: every sample, 3 parts of about 8 KB) have consecutive
//     parts, which may cross buffers.
//   - Time stamps: the buffer headers and TRACE_LOGFILE_HEADER (StartTime,
//     EndTime) are UTC; the PDH events' TimeStamp and the FILETIME of every
//     raw record are the logging machine's local time (Tx: UTC − 8 h in
//     February, Pacific; PAL: UTC − 4 h in August, Eastern daylight time;
//     PowerShell: UTC − 3 h, "SA Eastern Standard Time", a zone stored by
//     name rather than as a tzres.dll reference, with no daylight rules).
//     The 100 ns counters' SecondValue is UTC: in Tx, ToLocal(SecondValue)
//     matches the record's time stamp to within a millisecond.
//   - The counter list (event 0x20) starts with 8 bytes FF 06 00 00 08 00
//     02 00; this package reads bytes 4–5 as the header length (8). Its
//     entries have 52 fixed bytes (see CounterInfo); the field at +28, which
//     could be taken for a constant 0, is the machine name's offset (0 in
//     Win8 logs, 4 in the Vista log, whose strings start with 4 zero
//     bytes). Flags at +4 is 0 for a single counter, 1 for a wildcard
//     instance, 0x10 for whole-object entries (whose CounterType is 0x10
//     and TimeBase 0). No full path is stored: relog's path is composed
//     from the parts.
//   - A sample record (event 0x22) is "BL" 03 00 + u32 size, then one
//     sub-record per counter-list entry, in list order: this package
//     requires exactly as many as there are entries. Byte 2 of every "BL"
//     header is 3; byte 3 is the kind (0 sample, 1 PDH_RAW_COUNTER, 2 multi-
//     instance, 5 whole object). Sizes include the 8-byte header.
//   - In a multi-instance sub-record the body starts with its own size
//     (equal to the sub-record's size − 8), the items' second u32 is their
//     MultiCount (0 in Tx, whereas the single records carry 1), and the
//     CStatus and FILETIME of the header apply to every item.
//   - A whole-object sub-record holds exactly one PERF_DATA_BLOCK of one
//     object, TotalByteLength = sub-record size − 8; the 88 blocks of the
//     PAL log are byte-identical to the stand-alone blocks in corpus/v1.
//   - The name-table chunks (event 0x24, Vista) each start with the machine
//     name and hold whole "index\0name\0" pairs; their pairs in order plus a
//     final NUL are byte-identical to the machine's "Counter 009" value.
//   - The trailer (event 0x23, Vista only) holds the first and last sample
//     time stamps (as the events carry them), the sample count, the object
//     count, its own size and an unknown u32, then "BL" 03 05 sub-records
//     summarising each object's counters (kept as bytes).
//   - The sampling interval is not stored anywhere found; Interval derives
//     it from the first two samples' time stamps.
//
// # Decisions where nothing was observed
//
// Buffer sizes are accepted from 1 KiB to 1 MiB in 1 KiB steps (ETW counts
// them in KiB). A record of unknown event type is skipped; a sub-record of
// unknown kind is ErrUnsupported. A second counter list (counters changed
// while logging) is ErrUnsupported. A sample record before the counter list
// is ErrMalformed. SYSTEMTIME rules with a non-zero year apply to that year
// only; rules that are out of range (month 13, week 6, …) are treated as "no
// daylight time" with the standard bias.
//
// # Security
//
// A log is untrusted input. Every size, offset and count is checked against
// the bytes that hold it before it is used; nothing is allocated from an
// unchecked field: the buffer size is bounded (MaxBufferSize) before the
// buffer is allocated, a split record grows only as its parts arrive and is
// capped at MaxRecordSize bytes and MaxRecordParts parts, the name table at
// MaxRecordSize, and item counts are bounded by the bytes that would hold
// them; the names of a multi-instance record's items must fit, one per
// item, in the record (items sharing one name would make a small record
// decode into a huge one). A log shorter than its header's BuffersWritten
// says is damage (ErrTruncated), even when it ends between two buffers.
// Instance names longer than PDH_MAX_INSTANCE_NAME (counterpath) are
// refused with ErrUnsupported. Every loop advances by at least 8 bytes, so reading ends. Malformed
// input yields an *engine.FormatError (Format "blg") that names the
// structure, the field and the byte offset in the file, wrapping
// engine.ErrTruncated, engine.ErrMalformed or engine.ErrUnsupported, never a
// panic; the samples before the damage have been returned by then. I/O
// errors of the underlying reader are returned unchanged.
//
// The package imports only the standard library and perfcalc's engine, and
// neither fmt nor os.
package blg
