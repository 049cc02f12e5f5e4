package abi

// This file is the ABI's layout: every constant that a host must know, and
// nothing else (no imports), so that tools/abigen can read it on its own.
// abigen writes the JS constants (web/abi.mjs) and the tables of
// wasm/ABI.md from it: a field's comment starts with its wasm type (u32,
// i32, u64, i64, f64), and the rest is its description in ABI.md. Run
// "go generate ./internal/abi" after changing it; a test fails while the
// generated files are stale.

// Version is the version of the ABI that wasm/ABI.md describes
// (abi_version). It changes whenever an export, a parameter, a record
// layout, a code or a meaning changes incompatibly; new exports, kinds and
// bits of reserved fields may be added without a change.
const Version = 2

// Error codes: the negative results of the exports.
const (
	CodePanic       = -1  // perfcalc panicked (a bug; please report the text); the instance is still usable
	CodeBounds      = -2  // an offset or length lies outside its buffer
	CodeArgument    = -3  // a reserved bit, an unknown format, `every` above 2^30
	CodeSpace       = -4  // the result does not fit the output buffer (paging, see Decode results)
	CodeTruncated   = -5  // the input is truncated
	CodeMalformed   = -6  // the input is malformed (a `.blg` that is not one, a bad signature, …)
	CodeUnsupported = -7  // well-formed input perfcalc does not decode
	CodeLimit       = -8  // the input asks for more than the module allows (more than 2,097,152 records: `MaxRecords`; a log of more columns than `max_columns` allows)
	CodeInput       = -9  // any other refusal: a bad counter path pattern, captures that do not pair
	CodeAbsent      = -10 // a V2 block does not name its counter and no ids were given
)

// Statuses that compute reports through last_status besides the engine's
// statuses 0 (Valid) to 6 (UnknownType).
const (
	StatusArgument = 0xFE // a reserved bit was set in flags or options (the value is 0)
	StatusPanic    = 0xFF // compute panicked (a bug in perfcalc)
)

// Option bits of compute, compute_batch's requests, decode_v1, decode_v2
// and query: the engine's options, applied after the formula in this
// order. 0 is relog's output.
const (
	OptCap100    = 1  // clamp percentages at 100 (PDH's default)
	OptScale     = 2  // multiply by 10^scale (PDH's default)
	OptTimes1000 = 4  // PDH_FMT_1000
	OptWrap32    = 8  // read a backwards step of a 4-byte counter as a 32-bit wrap
	OptionsMask  = 15 // every option bit; the others are reserved and refused
)

// FlagHasOld is bit 0 of compute's flags and of a request's flags: the
// older sample is present. The other bits are reserved.
const FlagHasOld = 1

// The request record of compute_batch (72 bytes, 8-aligned).
const (
	ReqSize = 72

	ReqType       = 0  // u32 counter type
	ReqScale      = 4  // i32 scale (DefaultScale, −10..10; applied with option 2)
	ReqTimeBase   = 8  // i64 timebase F
	ReqFlags      = 16 // u32 flags: bit 0 = has old; other bits reserved (0)
	ReqOptions    = 20 // u32 options (per request)
	ReqOldCStatus = 24 // u32 old CStatus
	ReqNewCStatus = 28 // u32 new CStatus
	ReqOldFirst   = 32 // u64 old FirstValue
	ReqOldSecond  = 40 // u64 old SecondValue
	ReqNewFirst   = 48 // u64 new FirstValue
	ReqNewSecond  = 56 // u64 new SecondValue
	ReqOldMulti   = 64 // u32 old MultiCount
	ReqNewMulti   = 68 // u32 new MultiCount
)

// The result record of compute_batch (16 bytes).
const (
	ResSize = 16

	ResValue  = 0  // f64 value
	ResStatus = 8  // u32 status
	ResPad    = 12 // u32 0
)

// Kinds of decode results (the header's kind).
const (
	KindV1      = 1 // `decode_v1`: a V1 `PERF_DATA_BLOCK`
	KindV2      = 2 // `decode_v2`: a PerfLib V2 `PerfQueryCounterData` result
	KindNames   = 3 // `decode_names`: a name table
	KindBlg     = 4 // `decode_blg`: a `.blg` log, as relog converts it
	KindQuery   = 5 // `query`: every counter between two captures
	KindStats   = 6 // `relog_stats`: the statistics of every column of a `.blg` log (statistics records)
	KindColumns = 7 // `relog_columns`: the columns of a `.blg` log and its kept samples' time range, without a value computed
)

// Header flags.
const (
	FlagDamaged = 1 // the input is damaged after the records returned (blg, stats, columns); the damage's text is at `err_ptr`/`err_len`
	FlagMore    = 2 // more records follow: call decode_next with the header's cursor
)

// The header of a decode result (80 bytes).
const (
	Magic      = 0x31524350 // the bytes "PCR1"
	HeaderSize = 80

	HdrMagic   = 0  // u32 magic `0x31524350` (the bytes `P C R 1`)
	HdrVersion = 4  // u32 ABI version (2)
	HdrKind    = 8  // u32 kind (see Kinds)
	HdrFlags   = 12 // u32 flags: bit 0 = the input is damaged after the records returned (blg, stats, columns; the damage's text is at `err_ptr`/`err_len`), bit 1 = more records follow (paging)
	HdrTotal   = 16 // u32 total: first + count, the records so far; without flag 2, the records of the whole result
	HdrFirst   = 20 // u32 first: the index of this page's first record (the records of the pages before it)
	HdrCount   = 24 // u32 count: the records in this page
	HdrRecSize = 28 // u32 record size (80)
	HdrRecOff  = 32 // u32 records offset (80)
	HdrStrOff  = 36 // u32 string area offset (from the start of the output buffer)
	HdrStrLen  = 40 // u32 string area length
	HdrNeeded  = 44 // u32 needed: without flag 2, the bytes written; with flag 2, the bytes of a page holding only the next record (what `out_reserve` needs when count is 0)
	HdrColumns = 48 // u32 columns: V1 objects, V2 blocks, name-table indexes, blg, stats and columns: the log's columns, query values
	HdrRows    = 52 // u32 rows: 1 (V1, V2, query), pairs read (name table), kept samples (blg, stats, columns)
	HdrBias    = 56 // i32 bias: blg, stats and columns, the log's time-zone bias in minutes (UTC = local + bias); query, the bias found between the newer capture's `SystemTime` and its UTC time stamp, rounded to the quarter hour (0 when none lies within 14 hours); else 0
	HdrInfoOff = 60 // u32 info offset (in the string area)
	HdrInfoLen = 64 // u32 info length: V1 the machine name, V2 the counterset's GUID, blg, stats and columns the time zone's name (as relog prints it), else 0
	HdrCursor  = 68 // u32 cursor: with flag 2, the continuation that `decode_next` takes (never 0); else 0
	HdrLocal   = 72 // i64 local: query, the newer capture's `SystemTime` (its local time) as a FILETIME, 0 when it is not a valid time; blg, stats and columns, the events that the log's first reading skipped (not PDH's, or of an unknown type: a damaged event header, which may have taken a sample with it); else 0
)

// The record of a decode result (80 bytes): one counter value.
const (
	RecordSize = 80

	RecPathOff  = 0  // u32 path offset (in the string area)
	RecPathLen  = 4  // u32 path length (UTF-8 bytes, no NUL)
	RecValue    = 8  // f64 value
	RecStatus   = 16 // u32 status
	RecType     = 20 // u32 counter type
	RecFirst    = 24 // u64 FirstValue (N); columns: the local time stamp (FILETIME) of the log's first kept sample
	RecSecond   = 32 // u64 SecondValue (D or B); columns: the local time stamp of the log's last kept sample
	RecMulti    = 40 // u32 MultiCount
	RecCStatus  = 44 // u32 CStatus
	RecTimeBase = 48 // i64 timebase F
	RecTime     = 56 // i64 time: a FILETIME (V1: `PerfTime100nSec`; V2: the header's `PerfTime100NSec`; query: the newer capture's; blg: the sample's local time stamp)
	RecScale    = 64 // i32 scale (DefaultScale)
	RecAux      = 68 // u32 aux: V1 `CounterNameTitleIndex`; V2 `CounterId`; name table: the index; blg: the sample's index in the log; query: the counter's `DetailLevel`; columns: the index of the log's counter-list entry that the column comes from
	RecColumn   = 72 // u32 column: V1 the object's index; V2 the block's index; blg and columns the column's index; query 1 when the instance was in the older capture
	RecBias     = 76 // i32 bias: blg, the time-zone bias in force at the sample in minutes (UTC = time + bias; the zone's daylight rules, blg.Clock); else 0
)

// The parts of a counter path (24 bytes, then the parts' bytes): in the
// string area right after the path of every record and statistics record
// of a counter (every kind but names), at path offset + path length: the
// lengths of the machine, the object, the parent, the instance and the
// counter, the index, then the five parts' UTF-8 bytes one after the other
// in that order. They are the parts the decoder formatted the path from,
// so a host never splits a path.
const (
	PartsSize = 24

	PartsMachine  = 0  // u32 machine length (UTF-8 bytes), the name without its leading `\\`; 0 for none
	PartsObject   = 4  // u32 object length
	PartsParent   = 8  // u32 parent instance length; 0 for none
	PartsInstance = 12 // u32 instance length: the name without its parent and `#n`
	PartsCounter  = 16 // u32 counter length
	PartsIndex    = 20 // i32 instance index: PDH's `#n` (0 for the first instance of a name); −1 when the path names no instance
)

// The statistics record of relog_stats (80 bytes): one column's
// statistics, as PdhComputeCounterStatistics and perfcalc stats give them,
// with the invalid samples and the mean of the valid values of perfcalc
// stats --valid (not PDH's; added within version 2 in fields that were
// reserved). Its path, mean, mean status and type are where a record has
// its path, value, status and type.
const (
	StatSize = 80

	StatPathOff    = 0  // u32 path offset (in the string area)
	StatPathLen    = 4  // u32 path length (UTF-8 bytes, no NUL)
	StatMean       = 8  // f64 mean (0 unless the mean status is Valid)
	StatMeanStatus = 16 // u32 the mean's status
	StatType       = 20 // u32 counter type
	StatMin        = 24 // f64 smallest Valid value (0 when count is 0)
	StatMax        = 32 // f64 largest Valid value (0 when count is 0)
	StatCount      = 40 // u64 count: the Valid values
	StatSkipped    = 48 // u64 skipped: the samples or pairs without a Valid value
	StatInvalid    = 56 // u64 invalid: the samples with a bad status (an absent instance included; not PDH's)
	StatValidMean  = 64 // f64 the arithmetic mean of the Valid values (0 when count is 0; not PDH's)
	StatColumn     = 72 // u32 the column's index
	StatRecord     = 76 // u32 what the record holds: 0 statistics (`StatRecStats`), 1 the percentiles of the column of the record before (`StatRecPercentiles`)
)

// The percentiles record of relog_stats with the flag `StatsPercentiles`
// (80 bytes): after each column's statistics record, the 90th, 95th and
// 99th percentiles of its Valid values by the nearest rank (each one of
// the values), as perfcalc stats --percentiles gives them; 0 when count is
// 0. Its path, column and record kind are where the statistics record has
// them; the other fields are 0.
const (
	PctSize = 80

	PctPathOff   = 0  // u32 path offset (in the string area), as the statistics record's
	PctPathLen   = 4  // u32 path length (UTF-8 bytes, no NUL)
	PctP90       = 8  // f64 90th percentile
	PctP95       = 16 // f64 95th percentile
	PctP99       = 24 // f64 99th percentile
	PctReserved0 = 32 // u64 0 (reserved)
	PctReserved1 = 40 // u64 0 (reserved)
	PctReserved2 = 48 // u64 0 (reserved)
	PctReserved3 = 56 // u64 0 (reserved)
	PctReserved4 = 64 // u64 0 (reserved)
	PctColumn    = 72 // u32 the column's index
	PctRecord    = 76 // u32 1 (`StatRecPercentiles`)
)

// The kinds of relog_stats' records (at StatRecord).
const (
	StatRecStats       = 0 // a statistics record
	StatRecPercentiles = 1 // a percentiles record
)

// relog_stats' flags. Other bits are reserved and refused.
const (
	StatsPercentiles = 1 // follow each statistics record with a percentiles record (every Valid value is kept until the end: 8 bytes each)
)

// The query descriptor (64 bytes): eight (u32 offset, u32 length) pairs,
// each a region of the input buffer; a length of 0 is absent. Each field
// is the offset of its pair.
const (
	QuerySize = 64

	QueryOlder   = 0  // region the older capture (absent: a first sample)
	QueryNewer   = 8  // region the newer capture
	QueryNames   = 16 // region V1: the `Counter 009` name table
	QueryRegInfo = 24 // region V2: the counterset registration (present = V2 captures)
	QueryStrings = 32 // region V2: the counter name strings
	QueryIDs     = 40 // region V2: the block counter ids, u32 each (the length is in bytes)
	QuerySet     = 48 // region V2: the object name of paths, UTF-8 (absent: the GUID)
	QueryPaths   = 56 // region counter path patterns, UTF-8, one per line (absent: every counter)
)

// relog_text's and query_text's format argument: the format in bits 0 to
// 7 (query_text: CSV or TSV), and in bits 8 to 15 the significant digits of
// CSV and TSV values (%.<digits>g): 0 is the default, 20, as current
// Windows writes; 17 as Windows wrote before about 2020; any of 1 to 20. A
// host of ABI version 1 that passes the format alone gets the default.
// Other bits are reserved. The formats are relog.Format's values:
// tools/abigen writes their names and numbers from it (make generate),
// each keeping its comment here.
const (
	FormatCSV   = 0 // relog's CSV (PDH-CSV 4.0)
	FormatTSV   = 1 // relog's TSV
	FormatJSON  = 2 // JSON lines (shortest exact numbers: the digits do not apply)
	FormatBin   = 3 // a .blg log of the selection's raw values (perfcalc relog -f bin; the digits do not apply, log_part neither)
	FormatMask  = 0xFF
	DigitsShift = 8  // format = FormatCSV | 17<<DigitsShift: CSV with 17 digits
	MaxDigits   = 20 // the most digits relog_text prints
)

// The pairings that the identity export sets (identity.Mode's values;
// IdentityMode converts them), as perfcalc --identity: how decode_blg,
// relog_text, relog_stats, relog_columns, query and query_text pair the
// instances of one sample with those of the sample before it.
const (
	IdentityPDH = 0 // by name, as PDH and relog do (the default; relog's CSV and TSV byte for byte)
	IdentityPID = 1 // Process instances by ID Process (and Creating Process ID: a reused PID), named name:pid; Thread instances by ID Process and ID Thread, named process:pid/tid; objects without those counters by name
)

// analyze's flags. Other bits are reserved and refused.
const (
	AnalyzePALCompat = 1 // reproduce PAL's numbers, its defects included (perfcalc analyze --pal-compat)
	AnalyzeLogs      = 2 // log_off and log_len name a table of logs: log_len / 8 (u32 offset, u32 length) regions of the input buffer: the logs of one machine merged, of several machines a report each in the fleet JSON (as perfcalc analyze)
	AnalyzePID       = 4 // pair Process and Thread instances by process and thread ID (perfcalc analyze --identity pid: the report's parameters.identity and identityBreaks; added within version 2)
	AnalyzeFlagsMask = 7 // every flag of analyze
)

// A threshold file of analyze (24 bytes): the table at analyze's files_off
// holds files_count of them. Each names two regions of the input buffer.
const (
	ThrSize = 24

	ThrName     = 0  // region the file's name, UTF-8: the one INHERITANCE elements name it by (folders and ASCII case ignored)
	ThrData     = 8  // region the file's bytes (PAL's threshold file XML)
	ThrFlags    = 16 // u32 flags: bit 0 = run its analyses (as `perfcalc analyze --thresholds`); clear: there only for the INHERITANCE of others
	ThrReserved = 20 // u32 0 (reserved)
)

// ThrRun is bit 0 of a threshold file's flags: its analyses are run.
const ThrRun = 1

// Limits.
const (
	InCap      = 8 << 20 // the static input buffer (8 MiB)
	OutCap     = 4 << 20 // the static output buffer (4 MiB)
	MaxReserve = 1 << 30 // the largest buffer in_reserve and out_reserve grant (1 GiB)
	ErrCap     = 1 << 10 // the buffer of the last error's text (1 KiB)
	MaxRecords = 1 << 21 // the records of one decode result, whatever its input claims (2,097,152)
	MaxEvery   = 1 << 30 // the largest every of decode_blg, relog_text, relog_stats and relog_columns

	// DefaultMaxColumns is max_columns until a host sets it: the most
	// columns (counters of distinct instances) of a log that decode_blg,
	// relog_text, relog_stats and relog_columns accept, as perfcalc's
	// --max-columns default (CodeLimit above it).
	DefaultMaxColumns = 1_000_000
)

// MinPartBytes is the least part of a log that a host reading a log in
// parts (log_part) should give an instance (4 MiB): below it, an instance
// costs more than it saves.
const MinPartBytes = 4 << 20
