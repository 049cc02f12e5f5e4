// Type declarations of @perfcalc/perfcalc (perfcalc.mjs).

/** The ABI version this package speaks. */
export const ABI_VERSION: 1;

/** A computed value's status, as Windows' PDH reports it. */
export type Status =
  | "Valid"
  | "NewData"
  | "NegativeDenominator"
  | "NegativeValue"
  | "InvalidData"
  | "NotDisplayable"
  | "UnknownType";

/** Status names indexed by the module's status numbers. */
export const STATUS: readonly Status[];

/** Option bits: cap100 1, scale 2, 1000 (times1000) 4, wrap32 8. */
export const OPTIONS: Readonly<Record<"cap100" | "scale" | "1000" | "times1000" | "wrap32", number>>;

/** winperf.h counter types by Windows name. */
export const COUNTER_TYPES: Readonly<Record<string, number>>;

/** A counter type: its number, its Windows name (PERF_ optional, any case) or "0x…". */
export type CounterType = number | string;

/**
 * A raw value: an exact integer from −2^63 to 2^64−1 (negative values are
 * int64 bit patterns, as PDH's LONGLONG). Numbers must be safe integers; pass
 * a BigInt (or a decimal or 0x string) beyond 2^53.
 */
export type Raw = number | bigint | string;

/** A sample: [FirstValue, SecondValue] or [FirstValue, SecondValue, MultiCount], or PDH_RAW_COUNTER's fields. */
export type Sample =
  | [Raw, Raw]
  | [Raw, Raw, number]
  | { first: Raw; second: Raw; multiCount?: number; cstatus?: number };

/**
 * Options: names, a comma-separated string ("cap100,scale=2": the syntax of
 * perfcalc calc --options, see parseOptions), or the bits. scale=S gives a
 * compute request its scale.
 */
export type Options = ReadonlyArray<"cap100" | "scale" | "1000" | "times1000" | "wrap32" | string> | string | number;

/** Reads options as perfcalc calc --options does: the bits, and the S of scale=S (null without one). */
export function parseOptions(o: Options | null | undefined): { options: number; scale: number | null };

/** One computation, as PdhFormatFromRawValue takes it. */
export interface Request {
  type: CounterType;
  /** The older sample; absent for a first sample (2-sample types answer NewData). */
  old?: Sample | null;
  new: Sample;
  /** F, the time base's frequency (ticks per second); defaults to 10,000,000 for 100 ns types, else 0. */
  timebase?: Raw;
  /** The counter's DefaultScale (−10..10), applied with the "scale" option. */
  scale?: number;
  options?: Options;
}

/** A computed value: never NaN or ±Inf; 0 unless status is "Valid". */
export interface Result {
  value: number;
  status: Status;
}

/**
 * The parts a counter path was formatted from (ABI.md, "Path parts"), so
 * that nothing splits a path: instance names hold \\, (, / and #. Records
 * of one column share one object.
 */
export interface PathParts {
  /** The machine without its leading \\; "" for none. */
  machine: string;
  object: string;
  /** The parent instance; null for none. */
  parent: string | null;
  /** The instance name without its parent and #n; null when the path names no instance. */
  instance: string | null;
  /** PDH's #n, 0 for the first instance of a name; null without an instance. */
  index: number | null;
  counter: string;
}

/** One decoded counter value. */
export interface DecodedRecord {
  /** The counter path, \\machine\object(parent/instance#n)\counter. */
  path: string;
  /** The path's parts. */
  parts: PathParts;
  value: number;
  status: Status;
  /** The counter type (a winperf.h number). */
  type: number;
  /** PDH_RAW_COUNTER.FirstValue (N). */
  first: bigint;
  /** PDH_RAW_COUNTER.SecondValue (D or B). */
  second: bigint;
  multiCount: number;
  /** PDH_CSTATUS_* of the source. */
  cstatus: number;
  /** F, ticks per second. */
  timeBase: bigint;
  /** The sample's FILETIME (V1, V2: PerfTime100nSec, UTC; blg: the logging machine's local time); its Date: filetimeToDate(time, bias ?? 0). */
  time: bigint;
  /** blg: the time-zone bias in force at the sample, in minutes (UTC = time + bias; the zone's daylight rules). */
  bias?: number;
  scale: number;
  /** V1: CounterNameTitleIndex; V2: CounterId; blg: the sample's index in the log. */
  aux: number;
  /** V1: the object's index; V2: the block's index; blg: the column's index. */
  column: number;
}

export interface DecodeOptions {
  /** "v1", "v2", "names" or "blg"; detected when absent (v2 when regInfo is given). */
  kind?: "v1" | "v2" | "names" | "blg";
  /** V1: the "Counter 009" name table (REG_MULTI_SZ, UTF-16LE). */
  names?: BufferSource;
  /** V2: the counterset's registration (PERF_COUNTERSET_REG_INFO and its counters). */
  regInfo?: BufferSource;
  /** V2: the counter name strings (PERF_STRING_BUFFER_HEADER block). */
  strings?: BufferSource;
  /** V2: the CounterId of each block position. */
  ids?: Iterable<number>;
  /** Options of the first-sample values (V1, V2). */
  options?: Options;
  /** blg: as for relog. */
  counters?: string | string[];
  begin?: Raw;
  end?: Raw;
  every?: number;
  maxColumns?: number;
  /** blg: as for relog. */
  part?: [number, number];
  /** blg: as for relog. */
  identity?: "pdh" | "pid";
  translate?: TranslateSources;
}

export interface DecodedV1 { kind: "v1"; machine: string; records: DecodedRecord[]; }
export interface DecodedV2 { kind: "v2"; counterSet: string; records: DecodedRecord[]; }
export interface DecodedNames { kind: "names"; names: { index: number; text: string }[]; }
export interface DecodedBlg {
  /** With translate: the names not translated, sorted ("object X", "counter Y (of Z)"), as perfcalc --names-lang lists them. */
  namesUnknown?: string[];
  kind: "blg";
  timeZone: string;
  /** Minutes, UTC = local + bias. */
  bias: number;
  columns: number;
  rows: number;
  /** Why the log ends early (a damage after its start), or null. */
  damage: string | null;
  /** Events the log's first reading skipped (not PDH's, or of an unknown type: a damaged event header, which may have taken a sample with it; perfcalc notes them); 0 for none. */
  skippedEvents: number;
  /** With identity "pid": the identity breaks, the PDH instance names that named another process than in the sample before (where PDH computes across two processes). */
  identityBreaks?: number;
  records: DecodedRecord[];
}
export type Decoded = DecodedV1 | DecodedV2 | DecodedNames | DecodedBlg;

export interface QueryOptions {
  /** The older capture; absent: a first sample. */
  older?: BufferSource;
  /** V1: the "Counter 009" name table. */
  names?: BufferSource;
  /** V2 captures: the registration, names, block ids and object name of paths. */
  regInfo?: BufferSource;
  strings?: BufferSource;
  ids?: Iterable<number>;
  counterSet?: string;
  /** Counter path patterns with wildcards; none: every counter. */
  counters?: string | string[];
  options?: Options;
  /** relog's text instead of values: "csv" or "tsv", as perfcalc values -f csv writes it. */
  format?: "csv" | "tsv";
  /** Significant digits of the text's values: 20 (the default, current Windows) or 17 (before about 2020), 1 to 20. */
  digits?: number;
  /** As for relog: "pid" pairs V1 Process and Thread instances by process; the breaks are then the instance's identityBreaks. */
  identity?: "pdh" | "pid";
}

export interface QueryValue {
  path: string;
  /** The path's parts. */
  parts: PathParts;
  value: number;
  status: Status;
  type: number;
  scale: number;
  detailLevel: number;
  /** Whether the instance was in the older capture. */
  hasOld: boolean;
  /** The newer capture's raw values: FirstValue (N), SecondValue (D or B), MultiCount, CStatus. */
  first: bigint;
  second: bigint;
  multiCount: number;
  cstatus: number;
  /** Their time stamp: the capture's PerfTime100nSec (V1) or PerfTime100NSec (V2), a UTC FILETIME (JSON: a decimal string). */
  time: bigint;
  /** time as a Date, to the millisecond (JSON: ISO 8601, UTC). */
  date: Date;
}

/**
 * Translation sources (perfcalc --names-lang en --names-file): compact forms
 * (doc/FORMATS.md §3.4, what `perfcalc names --compact CounterLang.xml`
 * writes; names.mjs's compactFromCounterLang in a browser), as text, bytes,
 * or {name, data} (the name the names not translated give a source), in
 * order of precedence. The module translates object and counter names to
 * English, and counters patterns match the English names.
 */
export type TranslateSource = string | BufferSource | { name: string; data: string | BufferSource };
export type TranslateSources = TranslateSource | TranslateSource[];

export interface RelogOptions {
  /** Translate names to English (see TranslateSources); the result's namesUnknown lists the names not translated (text: with details). */
  translate?: TranslateSources;
  /** Counter path patterns (relog -c), with wildcards. */
  counters?: string | string[];
  /** Local FILETIMEs bounding the samples kept (relog -b, -e), both included. begin 0 or
   * absent: open. end absent (or null): open; end 0 is FILETIME 0 (1601-01-01), an end
   * before every sample, as perfcalc relog -e 1601-01-01. */
  begin?: Raw;
  end?: Raw;
  /** Keep one sample in every (relog -t). */
  every?: number;
  /** Return relog's text instead of rows; "bin": the selection as a .blg log (the bytes of perfcalc relog -f bin -o OUT.blg; digits and part do not apply). */
  format?: "csv" | "tsv" | "json" | "bin";
  /** With format csv or tsv: the significant digits of values, 1 to 20 (%.<digits>g); 0 or absent: 20, as current Windows writes (17: Windows before about 2020). */
  digits?: number;
  /**
   * With format: when the log is damaged after its start, throw a PerfcalcError
   * whose message is the damage (perfcalc relog's message) and whose partial is
   * the text of the rows before it. Without strict, that text is returned and
   * the damage is not reported: decode, relog's rows, stats and columns give it
   * as their damage.
   */
  strict?: boolean;
  /** With format: return {text, damage, skippedEvents} (RelogText) instead of the text alone. */
  details?: boolean;
  /**
   * The most columns (counters of distinct instances) of the log, as perfcalc's
   * --max-columns: 1,000,000 when absent, 0 for no limit. A log of more throws a
   * PerfcalcError (code CODE_LIMIT, kind "Limit") before its columns take memory.
   */
  maxColumns?: number;
  /**
   * Only the rows of one part of the log: the kept samples whose records begin at
   * byte offsets from to to − 1 ([from, to]; to 0: the log's end), as the whole
   * log's reading gives them (the module's log_part; ABI.md, "Parts"). The parts'
   * records, rows or texts one after the other are the log's; the CSV and TSV
   * header is in the part that begins at 0. A pool (createPool) reads a log so,
   * a part per worker.
   */
  part?: [number, number];
  /**
   * How instances are paired from one sample to the next, as perfcalc --identity:
   * "pdh" (the default: by name, as PDH and relog) or "pid" (Process instances by
   * ID Process and Creating Process ID, named name:pid; Thread instances by ID
   * Process and ID Thread, named process:pid/tid; no value computed across two
   * processes). A pool reads a log in pid mode in one piece.
   */
  identity?: "pdh" | "pid";
}

/** relog's text with details: what perfcalc relog writes, and what it says on standard error. */
export interface RelogText {
  /** With translate: the names not translated, sorted ("object X", "counter Y (of Z)"), as perfcalc --names-lang lists them. */
  namesUnknown?: string[];
  text: string;
  /** Why the log ends early (a damage after its start; the text holds the rows before it), or null. */
  damage: string | null;
  /** Events the log's first reading skipped (a damaged event header: perfcalc's note); 0 for none. */
  skippedEvents: number;
  /** With identity "pid": the identity breaks, the PDH instance names that named another process than in the sample before (where PDH computes across two processes). */
  identityBreaks?: number;
}

/** relog's .blg log (format "bin") with details. */
export interface RelogBin {
  /** The .blg log: the bytes of perfcalc relog -f bin -o OUT.blg. */
  bytes: Uint8Array;
  /** Why the input ends early (a damage after its start; the log holds the samples before it), or null. */
  damage: string | null;
  /** Events the input's first reading skipped; 0 for none. */
  skippedEvents: number;
}

export interface RelogRows {
  /** With translate: the names not translated, sorted ("object X", "counter Y (of Z)"), as perfcalc --names-lang lists them. */
  namesUnknown?: string[];
  timeZone: string;
  bias: number;
  /** Column paths, in relog's order. */
  columns: (string | undefined)[];
  rows: {
    /** The sample's index in the log. */
    index: number;
    /** The logging machine's local FILETIME (JSON: a decimal string). */
    time: bigint;
    /** The sample's instant: time with the time-zone bias in force at the sample (UTC = local + bias), to the millisecond (JSON: ISO 8601, UTC). */
    date: Date;
    /** Per column: the value, null when it has none (status not Valid), undefined when absent from the sample. */
    values: (number | null | undefined)[];
    statuses: (Status | undefined)[];
  }[];
  damage: string | null;
  /** Events the log's first reading skipped (a damaged event header: perfcalc's note); 0 for none. */
  skippedEvents: number;
  /** With identity "pid": the identity breaks, the PDH instance names that named another process than in the sample before (where PDH computes across two processes). */
  identityBreaks?: number;
}

/** One column's statistics, as perfcalc stats and PdhComputeCounterStatistics give them. */
export interface ColumnStatistics {
  /** The column's counter path. */
  path: string;
  /** The path's parts. */
  parts: PathParts;
  /** The counter type (a winperf.h number). */
  type: number;
  /** Valid values. */
  count: number;
  /** Samples (or pairs of samples) without a valid value. */
  skipped: number;
  /** null when count is 0. */
  min: number | null;
  max: number | null;
  /** PDH's mean. A rate, timer or average: its value from the first to the last good sample; other counters: the mean of their values. null unless meanStatus is "Valid". */
  mean: number | null;
  meanStatus: Status;
  /** Not PDH's (perfcalc stats --valid): the samples with a bad status, an absent instance included. */
  invalid: number;
  /** Not PDH's (perfcalc stats --valid): the arithmetic mean of the valid values; null when count is 0. */
  validMean: number | null;
  /** With the option percentiles (perfcalc stats --percentiles): the 90th, 95th and 99th percentiles of the valid values by the nearest rank; null when count is 0. */
  p90?: number | null;
  p95?: number | null;
  p99?: number | null;
  /** The column's index, in relog's order. */
  column: number;
}

/** The options of stats: relog's selection, and percentiles. */
export interface StatsOptions extends Omit<RelogOptions, "format" | "strict" | "digits" | "details"> {
  /** Also compute p90, p95 and p99 (every valid value is kept until the end: 8 bytes each). */
  percentiles?: boolean;
}

export interface LogStatistics {
  /** With translate: the names not translated, sorted ("object X", "counter Y (of Z)"), as perfcalc --names-lang lists them. */
  namesUnknown?: string[];
  timeZone: string;
  /** Minutes, UTC = local + bias. */
  bias: number;
  /** The samples of the log. */
  rows: number;
  /** Why the log ends early (a damage after its start), or null. */
  damage: string | null;
  /** Events the log's first reading skipped (a damaged event header: perfcalc's note); 0 for none. */
  skippedEvents: number;
  /** With identity "pid": the identity breaks, the PDH instance names that named another process than in the sample before (where PDH computes across two processes). */
  identityBreaks?: number;
  stats: ColumnStatistics[];
}

/** One column of a .blg log, as relog -q lists it. */
export interface LogColumn {
  /** The column's counter path. */
  path: string;
  /** The path's parts. */
  parts: PathParts;
  /** The counter type (a winperf.h number). */
  type: number;
  /** The log's counter-list entry that the column comes from. */
  entry: number;
  /** The column's index, in relog's order. */
  column: number;
}

/** The columns of a .blg log and its kept samples, without a value computed. */
export interface LogColumns {
  /** With translate: the names not translated, sorted ("object X", "counter Y (of Z)"), as perfcalc --names-lang lists them. */
  namesUnknown?: string[];
  timeZone: string;
  /** Minutes, UTC = local + bias. */
  bias: number;
  /** The kept samples. */
  samples: number;
  /** The local FILETIMEs of the first and the last kept sample (relog's Time Begin and Time End); null without samples. */
  begin: bigint | null;
  end: bigint | null;
  /** Why the log ends early (a damage after its start), or null. */
  damage: string | null;
  /** Events the log's first reading skipped (a damaged event header: perfcalc's note); 0 for none. */
  skippedEvents: number;
  columns: LogColumn[];
}

/** An error the module reported. */
export class PerfcalcError extends Error {
  /** The module's negative error code (ABI.md). */
  code: number;
  /** Its name: "Panic", "Bounds", "Argument", "Space", "Truncated", "Malformed", "Unsupported", "Limit", "Input", "Absent". */
  kind: string;
  /** The index of the offending request, or the bytes a result needs. */
  detail: number;
  /** relog with format and strict, on a log damaged after its start: the text of the rows before the damage (format "bin": the .blg log of the samples before it). */
  partial?: string | Uint8Array;
  /** relog with format and strict, on a log damaged after its start: the events its first reading skipped. */
  skippedEvents?: number;
  /** analyze: the threshold file that an INHERITANCE names and that was not given (as it names it, resolved against the inheriting file's folder). */
  missingFile?: string;
}

/** One instance of the module (not re-entrant; unusable after a trap). */
export class Perfcalc {
  private constructor();
  readonly exports: WebAssembly.Exports;
  readonly inPtr: number;
  readonly inCap: number;
  readonly outPtr: number;
  readonly outCap: number;
  /** The identity breaks of the last log call or query (its identity "pid"; 0 by name). */
  readonly identityBreaks: number;
  compute(req: Request): Result;
  computeBatch(reqs: Iterable<Request>, opts?: { options?: Options }): Result[];
  /**
   * The fast batch path: requests packed REQUEST_WORDS words each (packRequest)
   * in, values and statuses (STATUS indexes) out, no object per value.
   */
  computeBatchArrays(words: BigUint64Array, out?: { values?: Float64Array; statuses?: Uint8Array }): BatchArrays;
  decode(bytes: BufferSource, opts: DecodeOptions & { kind: "v1" }): DecodedV1;
  decode(bytes: BufferSource, opts: DecodeOptions & { kind: "v2" }): DecodedV2;
  decode(bytes: BufferSource, opts: DecodeOptions & { kind: "names" }): DecodedNames;
  decode(bytes: BufferSource, opts: DecodeOptions & { kind: "blg" }): DecodedBlg;
  decode(bytes: BufferSource, opts?: DecodeOptions): Decoded;
  query(newer: BufferSource, opts: QueryOptions & { format: "csv" | "tsv" }): string;
  query(newer: BufferSource, opts?: QueryOptions): QueryValue[];
  relog(bytes: BufferSource, opts: RelogOptions & { format: "bin"; details: true }): RelogBin;
  relog(bytes: BufferSource, opts: RelogOptions & { format: "csv" | "tsv" | "json"; details: true }): RelogText;
  relog(bytes: BufferSource, opts: RelogOptions & { format: "bin" }): Uint8Array;
  relog(bytes: BufferSource, opts: RelogOptions & { format: "csv" | "tsv" | "json" }): string;
  relog(bytes: BufferSource, opts?: RelogOptions): RelogRows;
  /** What bytes are: "v1", "v2", "names", "blg" or null (the module's sniff, as the perfcalc command tells). */
  sniff(bytes: BufferSource): "v1" | "v2" | "names" | "blg" | null;
  /** The statistics of every column of a .blg log (relog's selection options apply). */
  stats(bytes: BufferSource, opts?: StatsOptions): LogStatistics;
  /** The columns of a .blg log without computing a value (relog's selection options apply). */
  columns(bytes: BufferSource, opts?: Omit<RelogOptions, "format" | "strict" | "digits" | "details">): LogColumns;
  /**
   * perfcalc analyze over a .blg log (or logs, grouped by machine as the
   * command groups them), in the analyze module (perfcalc-analyze.wasm,
   * loaded by the first call: loadAnalyzer): the report parsed, its JSON
   * text (byte for byte perfcalc analyze -f json's) and the log's damage.
   * Without thresholds, perfcalc's own default analyses. An inherited file
   * not given rejects with a PerfcalcError whose missingFile names it.
   */
  analyze(log: BufferSource | BufferSource[], opts?: AnalyzeOptions): Promise<Analyzed>;
  /**
   * Loads the analyze module once (LoadOptions.analyzeModule, or
   * perfcalc-analyze.wasm beside perfcalc.wasm) and resolves to its
   * instance; analyze calls it.
   */
  loadAnalyzer(): Promise<Perfcalc>;
  /** The guest's heap allocations so far (runtime.MemStats.Mallocs); only a debug build of the module (-tags perfcalcdebug) has them: otherwise a PerfcalcError CODE_UNSUPPORTED. */
  mallocs(): bigint;
}

/** The results of computeBatchArrays: one value and one status (an index into STATUS) per request. */
export interface BatchArrays {
  values: Float64Array;
  statuses: Uint8Array;
}

/** The 64-bit words of one request of computeBatchArrays (9: compute_batch's 72-byte request record). */
export const REQUEST_WORDS: number;
/** Writes request r at index i of words, for computeBatchArrays. */
export function packRequest(words: BigUint64Array, i: number, r: Request): void;

/** A source of the module: by default perfcalc.wasm beside perfcalc.mjs, or in a clone of the repository ../wasm/module/perfcalc.wasm (moduleURLs). */
export type ModuleSource =
  | URL
  | string
  | ArrayBuffer
  | ArrayBufferView
  | Response
  | Promise<Response>
  | WebAssembly.Module;

export interface LoadOptions {
  stdout?: (line: string) => void;
  stderr?: (line: string) => void;
  /**
   * The analyze module (perfcalc-analyze.wasm), loaded by the first analyze;
   * by default analyzeModuleURL(source).
   */
  analyzeModule?: ModuleSource;
}

/** The analyze module's file name. */
export const ANALYZE_MODULE: "perfcalc-analyze.wasm";
/** Where the analyze module is looked for when not given: beside the module when source is its URL; undefined otherwise (compileAnalyzer then looks where moduleURLs(ANALYZE_MODULE) says). */
export function analyzeModuleURL(source?: ModuleSource): URL | undefined;
/** Compiles the analyze module once: source as compile() takes it; without one, perfcalc-analyze.wasm from the first of moduleURLs(ANALYZE_MODULE) that exists. */
export function compileAnalyzer(source?: ModuleSource): Promise<WebAssembly.Module>;

/** Where compile() and load() look for a module file of the package when given none, in order: beside perfcalc.mjs (the npm package's copy), then ../wasm/module/NAME (a clone of the repository, installed with npm install ./web). */
export function moduleURLs(name?: string): URL[];
/**
 * The Date of a FILETIME (100 ns units since 1601-01-01): a UTC one as it is, a local one
 * (a .blg sample's) with the time-zone bias in force in minutes (UTC = local + bias). Whole
 * milliseconds, rounded down.
 */
export function filetimeToDate(filetime: bigint | number | string, bias?: number): Date;
/**
 * Throws a TypeError when opts has a property (not undefined) that fn does not take: it names the
 * option, the nearest known name and the known ones. Every function of the package that takes
 * options checks them so.
 */
export function checkOptions(opts: object | null | undefined, known: string[], fn: string): void;
/** Gives results that crossed a structured clone (postMessage) their toJSON back (the worker helper does). */
export function restoreJSON<T>(result: T): T;
/** Compiles the module once, for load() or workers. */
export function compile(source?: ModuleSource): Promise<WebAssembly.Module>;
/** Parses a counter type. */
export function parseCounterType(t: CounterType): number;
/** Loads and initialises a new instance; a URL (the default included) or the same bytes are compiled once per process or page. */
export function load(source?: ModuleSource, opts?: LoadOptions): Promise<Perfcalc>;
/** Loads the shared instance of the functions below. */
export function init(source?: ModuleSource, opts?: LoadOptions): Promise<Perfcalc>;
export function compute(req: Request): Result;
export function computeBatch(reqs: Iterable<Request>, opts?: { options?: Options }): Result[];
export function computeBatchArrays(words: BigUint64Array, out?: { values?: Float64Array; statuses?: Uint8Array }): BatchArrays;
export function decode(bytes: BufferSource, opts?: DecodeOptions): Decoded;
export function query(newer: BufferSource, opts: QueryOptions & { format: "csv" | "tsv" }): string;
export function query(newer: BufferSource, opts?: QueryOptions): QueryValue[];
export function relog(bytes: BufferSource, opts: RelogOptions & { format: "bin"; details: true }): RelogBin;
export function relog(bytes: BufferSource, opts: RelogOptions & { format: "csv" | "tsv" | "json"; details: true }): RelogText;
export function relog(bytes: BufferSource, opts: RelogOptions & { format: "bin" }): Uint8Array;
export function relog(bytes: BufferSource, opts: RelogOptions & { format: "csv" | "tsv" | "json" }): string;
export function relog(bytes: BufferSource, opts?: RelogOptions): RelogRows;
export function stats(bytes: BufferSource, opts?: StatsOptions): LogStatistics;
export function sniff(bytes: BufferSource): "v1" | "v2" | "names" | "blg" | null;
export function columns(bytes: BufferSource, opts?: Omit<RelogOptions, "format" | "strict" | "digits" | "details">): LogColumns;

// ---- analyze (issue 24) ----

/** A PAL threshold file: its name (the one INHERITANCE names it by) and its bytes. */
export interface ThresholdFile {
  name: string;
  bytes: BufferSource;
}

/** The options of perfcalc analyze. */
export interface AnalyzeOptions {
  /** Translate names to English before the analyses (see TranslateSources), as perfcalc analyze --names-lang en. */
  translate?: TranslateSources;
  /** Threshold files whose analyses run, in order, joined; none: perfcalc's own default analyses. */
  thresholds?: ThresholdFile | ThresholdFile[];
  /** Threshold files there only for the INHERITANCE of others (matched by name, ASCII case and folders ignored). */
  include?: ThresholdFile | ThresholdFile[];
  /** Question variables' values, as --set NAME=VALUE. */
  set?: Record<string, string | number | boolean>;
  /** The slices' length in seconds; 0 or "auto" (the default): the log's duration ÷ 30. */
  interval?: number | bigint | "auto";
  /** PAL's numbers, its quirks included (--pal-compat). */
  palCompat?: boolean;
  /** As for relog (--identity pid): the report's parameters.identity and identityBreaks say so. */
  identity?: "pdh" | "pid";
}

/** What analyze returns. */
export interface Analyzed {
  /** With translate: the names not translated, sorted ("object X", "counter Y (of Z)"), as perfcalc --names-lang lists them. */
  namesUnknown?: string[];
  /** The report: JSON.parse(json); its schema is perfcalc analyze -f json's (top-level alerts, slices, analyses, unsupported, parameters; for logs of several machines, alerts and machines: a report per machine). */
  report: { alerts: Array<Record<string, unknown>>; [key: string]: unknown };
  /** The report's JSON text, byte for byte perfcalc analyze -f json's. */
  json: string;
  /** Why the log ends early (the report covers the samples before), or null. */
  damage: string | null;
}

/** analyze on the instance of init(). */
export function analyze(log: BufferSource | BufferSource[], opts?: AnalyzeOptions): Promise<Analyzed>;
