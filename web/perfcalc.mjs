// perfcalc for JavaScript: Windows performance-counter values computed
// exactly as Windows' PDH computes them, and Windows performance-data
// decoders, from one WebAssembly module (perfcalc.wasm, Go's wasip1 target)
// behind an idiomatic API. Works in browsers and in Node >= 20; see
// ../wasm/ABI.md for the module's ABI.

import { createWASI } from "./wasi.mjs";
import * as abi from "./abi.mjs";

/** The ABI version this package speaks (abi_version of the module). */
export const ABI_VERSION = abi.VERSION;

/** Status names, indexed by the module's status numbers (engine.Status). */
export const STATUS = abi.STATUS_NAMES;

/** Option bits (engine.Options). */
export const OPTIONS = Object.freeze({ cap100: abi.OPT_CAP100, scale: abi.OPT_SCALE, 1000: abi.OPT_TIMES1000, times1000: abi.OPT_TIMES1000, wrap32: abi.OPT_WRAP32 });

/** The counter types of winperf.h by Windows name. */
export const COUNTER_TYPES = abi.COUNTER_TYPES;

/** An error the module reported: `code` is its negative error code, `kind` its name. */
export class PerfcalcError extends Error {
  constructor(code, message, detail = 0) {
    super(message || `perfcalc: error ${code}`);
    this.name = "PerfcalcError";
    this.code = code;
    this.kind = abi.CODE_NAMES[code] ?? "Unknown";
    this.detail = detail;
  }
}

const KINDS = { v1: abi.KIND_V1, v2: abi.KIND_V2, names: abi.KIND_NAMES, blg: abi.KIND_BLG };
const KIND_NAMES = Object.fromEntries(Object.entries(KINDS).map(([name, k]) => [k, name]));
const FORMATS = { csv: abi.FORMAT_CSV, tsv: abi.FORMAT_TSV, json: abi.FORMAT_JSON, bin: abi.FORMAT_BIN };
const FREQ_100NS = 10000000n;
const U64_MAX = (1n << 64n) - 1n, I64_MIN = -(1n << 63n);

const isNode = typeof process !== "undefined" && process.versions != null && process.versions.node != null;

/** Reads a counter type: a number, a Windows name (PERF_ optional, any case) or "0x…". */
export function parseCounterType(t) {
  if (typeof t === "number") {
    if (!Number.isInteger(t) || t < 0 || t > 0xffffffff) throw new RangeError(`perfcalc: counter type ${t} is not a u32`);
    return t >>> 0;
  }
  if (typeof t === "string") {
    const s = t.trim();
    if (/^(0x[0-9a-f]+|[0-9]+)$/i.test(s)) return parseCounterType(Number(s));
    const u = s.toUpperCase();
    const v = COUNTER_TYPES[u] ?? COUNTER_TYPES["PERF_" + u];
    if (v !== undefined) return v;
  }
  throw new RangeError(`perfcalc: unknown counter type ${String(t)}`);
}

// toU64 reads a raw value exactly: a safe-integer number, a BigInt or a
// decimal/0x string from −2^63 to 2^64−1 (negative values are int64 bit
// patterns, as PDH's LONGLONG). It returns the u64 value: a non-negative
// number when exact (the fast path), else a BigInt.
function toU64(x, what) {
  if (typeof x === "number") {
    if (!Number.isSafeInteger(x)) throw new RangeError(`perfcalc: ${what} ${x} is not an exact integer: pass a BigInt`);
    return x >= 0 ? x : BigInt.asUintN(64, BigInt(x));
  }
  let b;
  if (typeof x === "bigint") b = x;
  else if (typeof x === "string" && /^-?(0x[0-9a-f]+|[0-9]+)$/i.test(x.trim())) {
    const s = x.trim();
    b = s.startsWith("-") ? -BigInt(s.slice(1)) : BigInt(s);
  } else if (x === undefined || x === null) return 0;
  else throw new TypeError(`perfcalc: ${what} must be a number, a BigInt or an integer string`);
  if (b < I64_MIN || b > U64_MAX) throw new RangeError(`perfcalc: ${what} ${b} is outside -2^63..2^64-1`);
  return BigInt.asUintN(64, b);
}

// big returns a u64 from toU64 as a BigInt.
const big = (v) => (typeof v === "bigint" ? v : BigInt(v));

// setU64 writes a u64 from toU64 at p, little-endian, without a BigInt for numbers.
function setU64(dv, p, v) {
  if (typeof v === "number") {
    dv.setUint32(p, v % 4294967296, true);
    dv.setUint32(p + 4, Math.floor(v / 4294967296), true);
  } else dv.setBigUint64(p, v, true);
}

function toI64(x, what) { return BigInt.asIntN(64, big(toU64(x, what))); }

// toEnd reads opts.end: a FILETIME, or nothing (no end). FILETIME 0
// (1601-01-01) is an end too, before every sample, where the module reads
// 0 as none: it passes −1, as perfcalc relog -e 1601-01-01.
function toEnd(x) {
  if (x === undefined || x === null) return 0n;
  const end = toI64(x, "end");
  return end === 0n ? -1n : end;
}

function toU32(x, what) {
  if (x === undefined || x === null) return 0;
  const n = typeof x === "bigint" ? Number(x) : x;
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new RangeError(`perfcalc: ${what} ${x} is not a u32`);
  return n >>> 0;
}

// maxColumnsOf reads opts.maxColumns: the most columns (counters of
// distinct instances) of a log, 0 for no limit; absent (or null), perfcalc's
// --max-columns default, 1,000,000.
function maxColumnsOf(x) {
  return x === undefined || x === null ? abi.DEFAULT_MAX_COLUMNS : toU32(x, "maxColumns");
}

// identityOf reads opts.identity, how instances are paired from one
// sample to the next (the module's identity export, perfcalc --identity):
// "pdh" (by name, as PDH and relog; the default) or "pid" (Process and
// Thread instances by process and thread ID, named name:pid and
// process:pid/tid).
function identityOf(x) {
  if (x === undefined || x === null || x === "pdh") return abi.IDENTITY_PDH;
  if (x === "pid") return abi.IDENTITY_PID;
  throw new RangeError(`perfcalc: unknown identity ${typeof x === "string" ? JSON.stringify(x) : typeName(x)} (want "pdh" or "pid")`);
}

// COLUMNS_ERROR is the module's text of a log over maxColumns (relog's
// ColumnsError): the limit is its number.
const COLUMNS_ERROR = /^relog: more than (\d+) columns/;

// patterns reads opts.counters: a counter path pattern, an array of them,
// or nothing (every counter). Anything else throws a TypeError: a wrong
// type must not select every counter in silence.
function patterns(x) {
  if (x === undefined || x === null) return [];
  if (typeof x === "string") return [x];
  if (Array.isArray(x)) {
    x.forEach((p, i) => {
      if (typeof p !== "string") throw new TypeError(`perfcalc: counters[${i}] is ${typeName(p)}, not a string (a counter path pattern)`);
    });
    return x;
  }
  throw new TypeError(`perfcalc: counters is ${typeName(x)}: want a counter path pattern or an array of them`);
}

// partOf reads opts.part: [from, to], byte offsets of a .blg log (to 0:
// its end), the part whose rows decode and relog give (log_part); null when
// absent.
function partOf(x) {
  if (x === undefined || x === null) return null;
  if (!Array.isArray(x) || x.length !== 2) throw new TypeError(`perfcalc: part is ${typeName(x)}: want [from, to], byte offsets of the log (to 0: its end)`);
  return [toU32(x[0], "part[0]"), toU32(x[1], "part[1]")];
}

function typeName(x) { return x === null ? "null" : Array.isArray(x) ? "an array" : typeof x === "object" ? `a ${x.constructor?.name ?? "object"}` : `a ${typeof x}`; }

// The options each function takes (checkOptions).
const SELECT = ["counters", "begin", "end", "every", "maxColumns"];
const KNOWN = {
  decode: ["kind", "names", "regInfo", "strings", "ids", "options", ...SELECT, "part", "identity", "translate"],
  relog: [...SELECT, "format", "digits", "strict", "details", "part", "identity", "translate"],
  stats: [...SELECT, "percentiles", "identity", "translate"],
  columns: [...SELECT, "identity", "translate"],
  query: ["older", "names", "regInfo", "strings", "ids", "counterSet", "counters", "options", "format", "digits", "identity"],
  computeBatch: ["options"],
  analyze: ["thresholds", "include", "set", "interval", "palCompat", "identity", "translate"],
  load: ["stdout", "stderr", "analyzeModule"],
  request: ["type", "old", "new", "timebase", "timeBase", "scale", "options"],
  sample: ["first", "second", "multiCount", "cstatus", "FirstValue", "SecondValue", "MultiCount", "CStatus"],
};

/**
 * Throws a TypeError when opts, the options object of fn, has a property
 * that fn does not know (a misspelled counter: for counters: would else be
 * ignored in silence), naming it, the nearest known name, and the known
 * ones. A property set to undefined is absent, as everywhere in the
 * package. known: the names fn takes, or a key of KNOWN.
 * @param {object|undefined|null} opts
 * @param {string[]|string} known
 * @param {string} fn
 */
export function checkOptions(opts, known, fn) {
  if (opts === undefined || opts === null) return;
  const names = typeof known === "string" ? KNOWN[known] : known;
  if (typeof opts !== "object" || Array.isArray(opts)) throw new TypeError(`perfcalc: ${fn}: the options are ${typeName(opts)}: want an object {${names.join(", ")}}`);
  for (const k in opts) {
    if (opts[k] === undefined || names.includes(k)) continue;
    const near = nearest(k, names);
    throw new TypeError(`perfcalc: ${fn}: unknown option ${JSON.stringify(k)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}; ${fn} takes ${names.join(", ")}`);
  }
}

// nearest returns the name of names closest to k (in any case, at most 2
// edits away), or null.
function nearest(k, names) {
  let best = null, bestD = 3;
  for (const n of names) {
    const d = distance(k.toLowerCase(), n.toLowerCase());
    if (d < bestD) [best, bestD] = [n, d];
  }
  return best;
}

// distance is the Levenshtein distance of a and b (short option names).
function distance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

// noMatch is the error of counter path patterns that select no counter,
// worded as perfcalc's (perfcalc relog -c PATTERN exits with it): an empty
// selection is a mistake to report, not an empty result. what: "the log"
// or "the newer capture"; hint: what lists the counters.
function noMatch(pats, what, hint) {
  return new PerfcalcError(abi.CODE_INPUT, `perfcalc: no counter of ${what} matches ${pats.join(" ")}${hint}`);
}

const NO_MATCH_HINT = " (columns() lists the log's counters)";

/** The FILETIME of 1970-01-01 00:00 UTC (100 ns units since 1601-01-01). */
const UNIX_EPOCH_FILETIME = 116444736000000000n;

/**
 * The Date of a FILETIME (100 ns units since 1601-01-01): a UTC FILETIME as
 * it is; a local one (a .blg sample's) with the time-zone bias in force,
 * in minutes (UTC = local + bias). Dates hold whole milliseconds: the
 * FILETIME's last four digits are dropped (rounded down).
 * @param {bigint|number|string} filetime
 * @param {number} [bias]
 */
export function filetimeToDate(filetime, bias = 0) {
  const t = BigInt.asIntN(64, big(toU64(filetime, "filetime"))) - UNIX_EPOCH_FILETIME;
  const ms = t / 10000n - (t % 10000n < 0n ? 1n : 0n);
  return new Date(Number(ms) + bias * 60000);
}

// bigintsAsText is the toJSON of the results that hold BigInts (raw
// values, FILETIMEs): JSON.stringify cannot write a BigInt, so these are
// written as decimal strings, exact; everything else as it is (Dates as
// ISO 8601 UTC).
function bigintsAsText() {
  const o = {};
  for (const k of Object.keys(this)) {
    const v = this[k];
    o[k] = typeof v === "bigint" ? v.toString() : v;
  }
  return o;
}

// recordsAsText is the toJSON of decode's result: its records as
// bigintsAsText writes them. The records themselves have none: giving each
// of a large log's records one took about 15% of decode's time.
function recordsAsText() {
  const o = bigintsAsText.call(this);
  if (Array.isArray(this.records)) o.records = this.records.map((r) => (r && typeof r === "object" ? bigintsAsText.call(r) : r));
  return o;
}

// withJSON gives o a toJSON (bigintsAsText unless told), not enumerable:
// the object's fields, comparisons and copies stay as they are.
function withJSON(o, toJSON = bigintsAsText) {
  return Object.defineProperty(o, "toJSON", { value: toJSON, configurable: true, writable: true });
}

/**
 * Gives the results of decode, query, relog (rows) and columns their toJSON
 * back after a structured clone (postMessage drops it): the worker helper
 * calls it. Returns result.
 */
export function restoreJSON(result) {
  if (Array.isArray(result)) {
    for (const r of result) if (r !== null && typeof r === "object") withJSON(r);
  } else if (result !== null && typeof result === "object") {
    if (Array.isArray(result.rows)) for (const r of result.rows) withJSON(r);
    else if (Array.isArray(result.records)) withJSON(result, recordsAsText);
    else if (Object.values(result).some((v) => typeof v === "bigint")) withJSON(result);
  }
  return result;
}

// sample reads [first, second, multi?] or {first, second, multiCount, cstatus}.
function sample(s, what) {
  if (Array.isArray(s)) {
    if (s.length < 2 || s.length > 3) throw new RangeError(`perfcalc: ${what} is [FirstValue, SecondValue] or [FirstValue, SecondValue, MultiCount]`);
    return { first: toU64(s[0], what + "[0]"), second: toU64(s[1], what + "[1]"), multi: toU32(s[2], what + "[2]"), cstatus: 0 };
  }
  if (s && typeof s === "object") {
    checkOptions(s, KNOWN.sample, what);
    return {
      first: toU64(s.first ?? s.FirstValue, what + ".first"), second: toU64(s.second ?? s.SecondValue, what + ".second"),
      multi: toU32(s.multiCount ?? s.MultiCount, what + ".multiCount"), cstatus: toU32(s.cstatus ?? s.CStatus, what + ".cstatus"),
    };
  }
  throw new TypeError(`perfcalc: ${what} must be an array or an object`);
}

/**
 * Reads an options text as engine.ParseOptions does, the one syntax of
 * perfcalc calc and values --options (its cases: testdata/options.json):
 * names separated by commas, in any order and ASCII case, spaces around
 * them ignored: cap100, scale, scale=S (S −10 to 10), 1000 (or
 * times1000), wrap32. Also takes the names as an array, or the bits. It
 * returns the bits and the S of scale=S (null without one).
 */
export function parseOptions(o) {
  if (o === undefined || o === null) return { options: 0, scale: null };
  if (typeof o === "number") return { options: toU32(o, "options"), scale: null };
  const names = typeof o === "string" ? (/^[ \t]*$/.test(o) ? [] : o.split(",")) : Array.from(o, String);
  let bits = 0, scale = null;
  for (const raw of names) {
    const name = raw.replace(/^[ \t]+|[ \t]+$/g, "");
    const key = name.toLowerCase();
    const b = /^[\x20-\x7e]*$/.test(name) && Object.hasOwn(OPTIONS, key) ? OPTIONS[key] : undefined;
    if (b !== undefined) { bits |= b; continue; }
    if (/^scale=/i.test(name)) {
      const m = /^scale=([+-]?[0-9]{1,2})$/i.exec(name);
      if (!m || Math.abs(Number(m[1])) > 10) throw new RangeError(`perfcalc: ${JSON.stringify(name)}: the scale is a power of ten from -10 to 10`);
      bits |= abi.OPT_SCALE;
      scale = Number(m[1]);
      continue;
    }
    throw new RangeError(`perfcalc: unknown option ${JSON.stringify(name)} (want cap100, scale, 1000 or wrap32)`);
  }
  return { options: bits, scale };
}

// options reads options that apply to counters whose DefaultScale comes
// with them (the decode and query exports): scale=S is refused.
function options(o) {
  const p = parseOptions(o);
  if (p.scale !== null) throw new RangeError(`perfcalc: scale=${p.scale}: the counters' DefaultScale comes from the data: write scale`);
  return p.options;
}

// request normalises a compute request.
function request(r, extraOptions = 0) {
  if (r === null || typeof r !== "object") throw new TypeError(`perfcalc: a request is ${typeName(r)}: want an object {${KNOWN.request.join(", ")}}`);
  checkOptions(r, KNOWN.request, "request");
  const type = parseCounterType(r.type);
  const hasOld = r.old !== undefined && r.old !== null;
  const old = hasOld ? sample(r.old, "old") : { first: 0, second: 0, multi: 0, cstatus: 0 };
  const nw = sample(r.new, "new");
  let timeBase;
  if (r.timebase !== undefined || r.timeBase !== undefined) timeBase = toI64(r.timebase ?? r.timeBase, "timebase");
  else timeBase = ((type >>> 20) & 3) === 1 ? FREQ_100NS : 0n; // PERF_TIMER_100NS: F is always 10^7
  const o = parseOptions(r.options); // scale=S gives the request's scale
  if (o.scale !== null && r.scale !== undefined && r.scale !== null && r.scale !== o.scale) {
    throw new RangeError(`perfcalc: scale ${r.scale} and the option scale=${o.scale} disagree`);
  }
  const scale = o.scale ?? r.scale ?? 0;
  if (!Number.isInteger(scale) || scale < -0x80000000 || scale > 0x7fffffff) throw new RangeError(`perfcalc: scale ${scale} is not an i32`);
  return { type, hasOld, old, nw, timeBase, scale, options: o.options | extraOptions };
}

/** The 64-bit words of one request of computeBatchArrays (compute_batch's 72-byte request record). */
export const REQUEST_WORDS = abi.REQ_SIZE / 8;

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Writes request r (as compute takes it: type, old, new, timebase, scale,
 * options) at index i of words, for computeBatchArrays: words[REQUEST_WORDS
 * · i …] as compute_batch's request record, little-endian (wasm/ABI.md):
 * type | scale << 32, the time base, flags | options << 32, old CStatus |
 * new CStatus << 32, the old and new FirstValue and SecondValue, old
 * MultiCount | new MultiCount << 32.
 * @param {BigUint64Array} words
 * @param {number} i
 * @param {import("./perfcalc").Request} r
 */
export function packRequest(words, i, r) {
  const q = request(r);
  const w = i * REQUEST_WORDS;
  const pair = (lo, hi) => BigInt(lo >>> 0) | (BigInt(hi >>> 0) << 32n);
  words[w + abi.REQ_TYPE / 8] = pair(q.type, q.scale);
  words[w + abi.REQ_TIME_BASE / 8] = BigInt.asUintN(64, q.timeBase);
  words[w + abi.REQ_FLAGS / 8] = pair(q.hasOld ? abi.FLAG_HAS_OLD : 0, q.options);
  words[w + abi.REQ_OLD_CSTATUS / 8] = pair(q.old.cstatus, q.nw.cstatus);
  words[w + abi.REQ_OLD_FIRST / 8] = big(q.old.first);
  words[w + abi.REQ_OLD_SECOND / 8] = big(q.old.second);
  words[w + abi.REQ_NEW_FIRST / 8] = big(q.nw.first);
  words[w + abi.REQ_NEW_SECOND / 8] = big(q.nw.second);
  words[w + abi.REQ_OLD_MULTI / 8] = pair(q.old.multi, q.nw.multi);
}

async function bytesOf(source) {
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  throw new TypeError("perfcalc: not bytes");
}

// compiled caches the compiled module by URL and by bytes (the object the
// caller passed), so that load() compiles once per process or page:
// compiling the module takes tens of milliseconds, instantiating it a few.
const compiledByURL = new Map();
const compiledByBytes = new WeakMap();

function cached(map, key, make) {
  let p = map.get(key);
  if (p === undefined) {
    p = make();
    map.set(key, p);
    p.catch(() => map.delete(key)); // a failure is not kept
  }
  return p;
}

/**
 * The places where compile() and load() look for a module file of this
 * package (name: "perfcalc.wasm" by default) when they are given none, in
 * order: beside this file (the npm package's copy, made by npm pack), then
 * ../wasm/module/NAME (a clone of the repository, where the module is
 * committed: npm install ./web links the clone's folder).
 * @param {string} [name]
 * @returns {URL[]}
 */
export function moduleURLs(name = "perfcalc.wasm") {
  // The literal URL lets bundlers find (and copy) the default module; the
  // clone's place is computed, so that they do not look for it.
  const beside = name === "perfcalc.wasm" ? new URL("./perfcalc.wasm", import.meta.url) : new URL(`./${name}`, import.meta.url);
  return [beside, new URL(CLONE_MODULES + name, import.meta.url)];
}

const CLONE_MODULES = "../wasm/module/";

// compileNamed compiles the module file name from the first of
// moduleURLs(name) that exists (a file in Node, a URL not answered 404
// elsewhere); without one it throws an Error (code "ENOENT") naming every
// place it looked.
async function compileNamed(name) {
  const places = [];
  for (const url of moduleURLs(name)) {
    if (url.protocol === "file:" && isNode) {
      const { readFile } = await import("node:fs/promises");
      let bytes;
      try {
        bytes = await readFile(url);
      } catch (err) {
        if (err?.code !== "ENOENT" && err?.code !== "ENOTDIR") throw err;
        places.push((await import("node:url")).fileURLToPath(url));
        continue;
      }
      return WebAssembly.compile(bytes);
    }
    const resp = await fetch(url);
    if (resp.status === 404) {
      places.push(url.href);
      continue;
    }
    return compileResponse(resp);
  }
  const err = new Error(`perfcalc: ${name} is in neither ${places[0]} (the npm package's copy, made by npm pack) nor ${places[1]} (a clone of the repository; make wasm builds it): give load() the module's URL or bytes`);
  err.code = "ENOENT";
  throw err;
}

/**
 * Compiles the module once: a URL, bytes, a Response or a
 * WebAssembly.Module (returned as is); without a source, perfcalc.wasm
 * from the first of moduleURLs() that exists. A URL or the same bytes
 * again give the module compiled the first time. Give the result to load()
 * for each instance, or to workers (createWorker does).
 */
export async function compile(source) {
  if (source === undefined) return cached(compiledByURL, "perfcalc:default", () => compileNamed("perfcalc.wasm"));
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return cached(compiledByBytes, source, async () => WebAssembly.compile(await bytesOf(source)));
  }
  if (typeof source === "string") source = new URL(source, typeof location !== "undefined" ? location.href : import.meta.url);
  if (source instanceof URL) {
    const url = source;
    return cached(compiledByURL, url.href, async () => {
      if (url.protocol === "file:" && isNode) {
        const { readFile } = await import("node:fs/promises");
        return WebAssembly.compile(await readFile(url));
      }
      return compileResponse(fetch(url));
    });
  }
  return compileResponse(source);
}

async function compileResponse(source) {
  const resp = await source; // a Response or a Promise of one
  if (typeof Response !== "undefined" && resp instanceof Response) {
    if (!resp.ok) throw new Error(`perfcalc: fetching the module: HTTP ${resp.status}`);
    if (WebAssembly.compileStreaming && (resp.headers.get("content-type") || "").startsWith("application/wasm")) {
      return WebAssembly.compileStreaming(resp);
    }
    return WebAssembly.compile(await resp.arrayBuffer());
  }
  throw new TypeError("perfcalc: load() takes a URL, bytes, a Response or a WebAssembly.Module");
}

/**
 * One instance of the module. Not re-entrant; after any trap (a bug, or
 * memory exhausted) it refuses further calls: load a new one.
 */
export class Perfcalc {
  /** @private use load() */
  constructor(instance) {
    this.exports = instance.exports;
    this._memory = instance.exports.memory;
    this._buf = null;
    this._broken = null;
    /** The identity breaks of the last log call or query (its opts.identity "pid"; 0 by name). */
    this.identityBreaks = 0;
    const e = this.exports;
    this.inPtr = e.in_ptr() >>> 0;
    this.inCap = e.in_cap() >>> 0;
    this.outPtr = e.out_ptr() >>> 0;
    this.outCap = e.out_cap() >>> 0;
  }

  // _view returns DataView and Uint8Array views of memory, re-created when a
  // call grew memory (which replaces memory.buffer).
  _views() {
    if (this._buf !== this._memory.buffer) {
      this._buf = this._memory.buffer;
      this._dv = new DataView(this._buf);
      this._u8 = new Uint8Array(this._buf);
    }
    return this._dv;
  }

  _call(name, ...args) {
    if (this._broken) throw new Error("perfcalc: this instance trapped earlier and cannot be used: load a new one", { cause: this._broken });
    try {
      return this.exports[name](...args);
    } catch (err) {
      this._broken = err;
      throw err;
    }
  }

  _errorText() {
    const n = this.exports.err_len() >>> 0;
    if (n === 0) return "";
    this._views();
    return new TextDecoder().decode(this._u8.subarray(this.exports.err_ptr() >>> 0, (this.exports.err_ptr() >>> 0) + n));
  }

  _throw(code) {
    throw new PerfcalcError(code, this._errorText(), this.exports.last_detail() >>> 0);
  }

  /**
   * The Go runtime's count of heap allocations in the guest
   * (runtime.MemStats.Mallocs). Only a debug build of the module (-tags
   * perfcalcdebug, for tests) exports it; the shipped one throws
   * CODE_UNSUPPORTED.
   */
  mallocs() {
    if (typeof this.exports.mallocs !== "function") {
      throw new PerfcalcError(abi.CODE_UNSUPPORTED, "perfcalc: mallocs: only a debug build of perfcalc.wasm (-tags perfcalcdebug) exports it");
    }
    return BigInt.asUintN(64, this._call("mallocs"));
  }

  /**
   * Computes one value, as PDH's PdhFormatFromRawValue (PDH_FMT_DOUBLE) would.
   * @param {import("./perfcalc").Request} req
   * @returns {import("./perfcalc").Result}
   */
  compute(req) {
    const q = request(req);
    const v = this._call("compute", q.type, q.hasOld ? abi.FLAG_HAS_OLD : 0, q.options, q.scale, q.timeBase,
      q.old.cstatus, BigInt.asIntN(64, big(q.old.first)), BigInt.asIntN(64, big(q.old.second)), q.old.multi,
      q.nw.cstatus, BigInt.asIntN(64, big(q.nw.first)), BigInt.asIntN(64, big(q.nw.second)), q.nw.multi);
    const s = this.exports.last_status() >>> 0;
    if (s >= STATUS.length) throw new PerfcalcError(s === abi.STATUS_ARGUMENT ? abi.CODE_ARGUMENT : abi.CODE_PANIC, this._errorText() || "perfcalc: compute: reserved option bits");
    return { value: v, status: STATUS[s] };
  }

  /**
   * Computes many values in few calls into the module.
   * @param {Iterable<import("./perfcalc").Request>} requests
   * @param {{options?: import("./perfcalc").Options}} [opts] options added to every request's
   * @returns {import("./perfcalc").Result[]}
   */
  computeBatch(requests, opts = {}) {
    checkOptions(opts, "computeBatch", "computeBatch");
    const reqs = Array.from(requests, (r) => request(r, options(opts.options)));
    const out = new Array(reqs.length);
    const chunk = Math.min(Math.floor(this.inCap / abi.REQ_SIZE), Math.floor(this.outCap / abi.RES_SIZE));
    for (let start = 0; start < reqs.length; start += chunk) {
      const n = Math.min(chunk, reqs.length - start);
      let dv = this._views();
      for (let i = 0; i < n; i++) {
        const q = reqs[start + i], p = this.inPtr + i * abi.REQ_SIZE;
        dv.setUint32(p + abi.REQ_TYPE, q.type, true);
        dv.setInt32(p + abi.REQ_SCALE, q.scale, true);
        dv.setBigInt64(p + abi.REQ_TIME_BASE, q.timeBase, true);
        dv.setUint32(p + abi.REQ_FLAGS, q.hasOld ? abi.FLAG_HAS_OLD : 0, true);
        dv.setUint32(p + abi.REQ_OPTIONS, q.options, true);
        dv.setUint32(p + abi.REQ_OLD_CSTATUS, q.old.cstatus, true);
        dv.setUint32(p + abi.REQ_NEW_CSTATUS, q.nw.cstatus, true);
        setU64(dv, p + abi.REQ_OLD_FIRST, q.old.first);
        setU64(dv, p + abi.REQ_OLD_SECOND, q.old.second);
        setU64(dv, p + abi.REQ_NEW_FIRST, q.nw.first);
        setU64(dv, p + abi.REQ_NEW_SECOND, q.nw.second);
        dv.setUint32(p + abi.REQ_OLD_MULTI, q.old.multi, true);
        dv.setUint32(p + abi.REQ_NEW_MULTI, q.nw.multi, true);
      }
      const rc = this._call("compute_batch", 0, n, 0);
      if (rc < 0) this._throw(rc);
      dv = this._views();
      for (let i = 0; i < n; i++) {
        const p = this.outPtr + i * abi.RES_SIZE;
        out[start + i] = { value: dv.getFloat64(p + abi.RES_VALUE, true), status: STATUS[dv.getUint32(p + abi.RES_STATUS, true)] };
      }
    }
    return out;
  }

  /**
   * Computes many values from requests packed in a BigUint64Array, into a
   * Float64Array of values and a Uint8Array of statuses (STATUS indexes):
   * the fast path, with no object per value. Each request takes
   * REQUEST_WORDS words, laid out as compute_batch's request record
   * (packRequest writes one); the options are each request's own.
   * @param {BigUint64Array} words
   * @param {{values?: Float64Array, statuses?: Uint8Array}} [out] arrays to fill (at least one element per request), reused
   * @returns {{values: Float64Array, statuses: Uint8Array}}
   */
  computeBatchArrays(words, out = {}) {
    if (!(words instanceof BigUint64Array)) throw new TypeError("perfcalc: computeBatchArrays takes a BigUint64Array");
    checkOptions(out, ["values", "statuses"], "computeBatchArrays");
    out ??= {};
    if (words.length % REQUEST_WORDS !== 0) throw new RangeError(`perfcalc: ${words.length} words are not whole requests of ${REQUEST_WORDS} words`);
    const n = words.length / REQUEST_WORDS;
    const values = out.values ?? new Float64Array(n);
    const statuses = out.statuses ?? new Uint8Array(n);
    if (!(values instanceof Float64Array) || values.length < n) throw new TypeError(`perfcalc: out.values must be a Float64Array of at least ${n} elements`);
    if (!(statuses instanceof Uint8Array) || statuses.length < n) throw new TypeError(`perfcalc: out.statuses must be a Uint8Array of at least ${n} elements`);
    const chunk = Math.min(Math.floor(this.inCap / abi.REQ_SIZE), Math.floor(this.outCap / abi.RES_SIZE));
    const aligned = littleEndian && this.inPtr % 8 === 0 && this.outPtr % 8 === 0;
    for (let start = 0; start < n; start += chunk) {
      const k = Math.min(chunk, n - start);
      const src = words.subarray(start * REQUEST_WORDS, (start + k) * REQUEST_WORDS);
      let dv = this._views();
      if (aligned) new BigUint64Array(this._buf, this.inPtr, k * REQUEST_WORDS).set(src);
      else for (let i = 0; i < src.length; i++) dv.setBigUint64(this.inPtr + 8 * i, src[i], true);
      const rc = this._call("compute_batch", 0, k, 0);
      if (rc < 0) this._throw(rc);
      dv = this._views();
      if (aligned) {
        const f = new Float64Array(this._buf, this.outPtr, 2 * k);
        const u = new Uint32Array(this._buf, this.outPtr, 4 * k);
        for (let i = 0; i < k; i++) {
          values[start + i] = f[2 * i];
          statuses[start + i] = u[4 * i + 2];
        }
      } else {
        for (let i = 0; i < k; i++) {
          const p = this.outPtr + i * abi.RES_SIZE;
          values[start + i] = dv.getFloat64(p + abi.RES_VALUE, true);
          statuses[start + i] = dv.getUint32(p + abi.RES_STATUS, true);
        }
      }
    }
    return { values, statuses };
  }

  // _reserve makes the module's input ("in") or output ("out") buffer hold
  // at least n bytes (in_reserve/out_reserve), and reads its new place.
  _reserve(which, n) {
    if (n > abi.MAX_RESERVE) throw new PerfcalcError(abi.CODE_LIMIT, `perfcalc: ${n} bytes is more than the module's largest ${which === "in" ? "input" : "output"} buffer (${abi.MAX_RESERVE} bytes)`);
    const p = this._call(which + "_reserve", n) >>> 0;
    if (p === 0) throw new PerfcalcError(abi.CODE_LIMIT, this._errorText());
    if (which === "in") {
      this.inPtr = p;
      this.inCap = this.exports.in_cap() >>> 0;
    } else {
      this.outPtr = p;
      this.outCap = this.exports.out_cap() >>> 0;
    }
  }

  // _input copies byte parts into the input buffer, 8-aligned, and returns
  // their [offset, length] pairs. A larger input than the buffer holds gets
  // a larger buffer (up to 1 GiB).
  _input(parts) {
    let total = 0;
    for (const p of parts) if (p !== undefined && p !== null) total = (total + p.byteLength + 7) & ~7;
    if (total > this.inCap) this._reserve("in", total);
    let off = 0;
    const placed = [];
    for (const p of parts) {
      if (p === undefined || p === null) { placed.push([0, 0]); continue; }
      const len = p.byteLength;
      this._views();
      this._u8.set(p, this.inPtr + off);
      placed.push([off, len]);
      off = (off + len + 7) & ~7;
    }
    return placed;
  }

  // _pages calls a decode export (call(0): its last argument, first, is
  // reserved) and then decode_next with each page's cursor, and returns the
  // header of the last page (the result's columns, rows, bias and damage are
  // complete there), with the info string, and every record. Each page
  // resumes where the one before it ended: the module decodes the input
  // once. Only when the output buffer cannot hold the next record (a page
  // without records) is it made to hold it (the header's "needed").
  _pages(call) {
    const records = [];
    let info = null;
    for (let rc = call(0); ;) {
      if (rc < 0 && rc !== abi.CODE_SPACE) this._throw(rc);
      const dv = this._views();
      const o = this.outPtr;
      if (dv.getUint32(o + abi.HDR_MAGIC, true) !== abi.MAGIC) throw new PerfcalcError(abi.CODE_PANIC, "perfcalc: the module wrote no result header");
      const u32 = (off) => dv.getUint32(o + off, true);
      const h = {
        kind: u32(abi.HDR_KIND), flags: u32(abi.HDR_FLAGS), total: u32(abi.HDR_TOTAL),
        count: u32(abi.HDR_COUNT), recSize: u32(abi.HDR_REC_SIZE), recOff: u32(abi.HDR_REC_OFF),
        strOff: u32(abi.HDR_STR_OFF), strLen: u32(abi.HDR_STR_LEN), columns: u32(abi.HDR_COLUMNS),
        rows: u32(abi.HDR_ROWS), bias: dv.getInt32(o + abi.HDR_BIAS, true),
        infoOff: u32(abi.HDR_INFO_OFF), infoLen: u32(abi.HDR_INFO_LEN), needed: u32(abi.HDR_NEEDED),
        cursor: u32(abi.HDR_CURSOR), local: dv.getBigInt64(o + abi.HDR_LOCAL, true),
      };
      const dec = new TextDecoder();
      const strs = this._u8.subarray(o + h.strOff, o + h.strOff + h.strLen);
      if (info === null) info = dec.decode(strs.subarray(h.infoOff, h.infoOff + h.infoLen));
      const cache = new Map(); // path offset → [path length, path, parts]
      for (let i = 0; i < h.count; i++) {
        const r = o + h.recOff + i * h.recSize;
        const po = dv.getUint32(r + abi.REC_PATH_OFF, true), pl = dv.getUint32(r + abi.REC_PATH_LEN, true);
        let c = cache.get(po);
        if (c === undefined || c[0] !== pl) {
          const path = dec.decode(strs.subarray(po, po + pl));
          c = [pl, path, h.kind === abi.KIND_NAMES ? null : parts(dv, o + h.strOff, strs, po + pl, dec)];
          cache.set(po, c);
        }
        const rec = h.kind === abi.KIND_STATS ? statistic(dv, r, c[1]) : record(dv, r, c[1]);
        if (h.kind === abi.KIND_BLG) rec.bias = dv.getInt32(r + abi.REC_BIAS, true);
        if (c[2] !== null) rec.parts = c[2];
        records.push(rec);
      }
      if (!(h.flags & abi.FLAG_MORE)) {
        h.info = info;
        h.damage = h.flags & abi.FLAG_DAMAGED ? this._errorText() : null;
        return { head: h, records };
      }
      if (rc !== abi.CODE_SPACE || h.cursor === 0) throw new PerfcalcError(abi.CODE_PANIC, "perfcalc: more records announced without CodeSpace and a cursor");
      if (h.count === 0) {
        if (h.needed <= this.outCap || h.needed > abi.MAX_RESERVE) {
          this._call("decode_next", 0);
          throw new PerfcalcError(abi.CODE_SPACE, "perfcalc: a record does not fit the module's output buffer");
        }
        this._reserve("out", h.needed);
      }
      rc = this._call("decode_next", h.cursor);
    }
  }

  /**
   * Decodes Windows performance data: a V1 PERF_DATA_BLOCK ("v1"), a PerfLib
   * V2 PerfQueryCounterData result ("v2", needs opts.regInfo), a name table
   * ("names") or a .blg log ("blg"). The kind is detected unless opts.kind
   * names it. See perfcalc.d.ts for the result.
   */
  decode(bytes, opts = {}) {
    checkOptions(opts, "decode", "decode");
    const [out, unknown] = this._translated(opts.translate, () => this._decode(bytes, opts));
    if (unknown !== null) out.namesUnknown = unknown;
    return out.records ? withJSON(out, recordsAsText) : out;
  }

  // _decode is decode without its check of the options and its result's
  // toJSON (relog's rows are made from its records).
  _decode(bytes, opts) {
    const data = toBytes(bytes, "bytes");
    // The kind: named, or V2 with a registration, or what the module tells
    // from the first 64 KiB (a .blg log when it cannot tell).
    const kind = opts.kind ?? (opts.regInfo ? "v2" : this.sniff(data.subarray(0, 1 << 16)) ?? "blg");
    const k = KINDS[kind];
    if (k === undefined) throw new RangeError(`perfcalc: unknown kind ${kind} (want v1, v2, names or blg)`);
    const opt = options(opts.options);
    let res;
    switch (kind) {
      case "v1": {
        const [[d, dn], [t, tn]] = this._input([data, opts.names && toBytes(opts.names, "names")]);
        res = this._pages((first) => this._call("decode_v1", d, dn, t, tn, opt, first));
        break;
      }
      case "v2": {
        if (!opts.regInfo) throw new TypeError("perfcalc: decoding V2 data needs opts.regInfo (the counterset's PERF_COUNTERSET_REG_INFO)");
        const ids = opts.ids ? new Uint8Array(Uint32Array.from(opts.ids, (x) => toU32(x, "ids[]")).buffer) : null;
        if (ids && new Uint16Array(new Uint8Array([1, 0]).buffer)[0] !== 1) throw new Error("perfcalc: big-endian hosts are not supported");
        const [[d, dn], [r, rn], [s, sn], [i, iN]] = this._input([data, toBytes(opts.regInfo, "regInfo"),
          opts.strings && toBytes(opts.strings, "strings"), ids]);
        res = this._pages((first) => this._call("decode_v2", d, dn, r, rn, s, sn, i, iN / 4, opt, first));
        break;
      }
      case "names": {
        const [[d, dn]] = this._input([data]);
        res = this._pages((first) => this._call("decode_names", d, dn, first));
        return { kind, names: res.records.map((r) => ({ index: r.aux, text: r.path })) };
      }
      case "blg": {
        const { parts, args, max, pats, id } = this._relogArgs(data, opts);
        const [[d, dn], [p, pn]] = this._input(parts);
        const part = partOf(opts.part);
        res = this._columnsLimit(max, () => this._inPart(part, () => this._pages((first) => this._call("decode_blg", d, dn, p, pn, ...args, first))), id);
        res.breaks = this.identityBreaks;
        this._checkSelection(res.head.columns, res.head.damage, pats, data, opts);
        break;
      }
    }
    const h = res.head;
    const out = { kind, records: res.records };
    if (kind === "v1") out.machine = h.info;
    if (kind === "v2") out.counterSet = h.info;
    if (kind === "blg") Object.assign(out, { timeZone: h.info, bias: h.bias, columns: h.columns, rows: h.rows, damage: h.damage, skippedEvents: Number(h.local) });
    if (kind === "blg" && identityOf(opts.identity) === abi.IDENTITY_PID) out.identityBreaks = res.breaks;
    return out;
  }

  /**
   * Tells what bytes are, as the perfcalc command does (the module's
   * sniff): "v1" (a V1 PERF_DATA_BLOCK), "v2" (a PerfLib V2 result whose
   * blocks all decode), "names" (a name table), "blg" (a perfmon log), or
   * null. A few KiB tell V1, logs and name tables apart; V2 needs the whole
   * result.
   */
  sniff(bytes) {
    if (typeof this.exports.sniff !== "function") throw new PerfcalcError(abi.CODE_UNSUPPORTED, "perfcalc: this perfcalc.wasm lacks sniff (it is older than this package)");
    const [[d, dn]] = this._input([toBytes(bytes, "bytes")]);
    const k = this._call("sniff", d, dn);
    if (k < 0) this._throw(k);
    return KIND_NAMES[k] ?? null;
  }

  /**
   * Computes every counter between two captures (package query): two V1
   * PERF_DATA_BLOCKs, or two PerfLib V2 results with opts.regInfo. Without
   * opts.older the newer capture is a first sample. Each value carries the
   * newer capture's raw values (first, second, multiCount, cstatus and
   * their time stamp, a UTC FILETIME). With opts.format "csv" or "tsv" it
   * returns relog's text instead, byte for byte what perfcalc values -f
   * csv writes, with opts.digits significant digits (20; 17 as Windows
   * before about 2020).
   */
  query(newer, opts = {}) {
    checkOptions(opts, "query", "query");
    let format = null;
    if (opts.format !== undefined) {
      format = { csv: abi.FORMAT_CSV, tsv: abi.FORMAT_TSV }[String(opts.format).toLowerCase()];
      if (format === undefined) throw new RangeError(`perfcalc: unknown format ${opts.format} (want csv or tsv)`);
      format |= digitsBits(opts.digits);
      if (typeof this.exports.query_text !== "function") {
        throw new PerfcalcError(abi.CODE_UNSUPPORTED, "perfcalc: this perfcalc.wasm lacks query_text (it is older than this package)");
      }
    }
    const ids = opts.ids ? new Uint8Array(Uint32Array.from(opts.ids, (x) => toU32(x, "ids[]")).buffer) : null;
    const pats = patterns(opts.counters);
    const enc = new TextEncoder();
    const parts = [opts.older && toBytes(opts.older, "older"), toBytes(newer, "newer"), opts.names && toBytes(opts.names, "names"),
      opts.regInfo && toBytes(opts.regInfo, "regInfo"), opts.strings && toBytes(opts.strings, "strings"), ids,
      opts.counterSet ? enc.encode(opts.counterSet) : null, pats.length ? enc.encode(pats.join("\n")) : null];
    const placed = this._input([...parts, new Uint8Array(abi.QUERY_SIZE)]);
    const descOff = placed[placed.length - 1][0];
    const dv = this._views();
    const fields = [abi.QUERY_OLDER, abi.QUERY_NEWER, abi.QUERY_NAMES, abi.QUERY_REG_INFO, abi.QUERY_STRINGS, abi.QUERY_IDS, abi.QUERY_SET, abi.QUERY_PATHS];
    fields.forEach((field, i) => {
      const [off, len] = placed[i];
      dv.setUint32(this.inPtr + descOff + field, off, true);
      dv.setUint32(this.inPtr + descOff + field + 4, len, true);
    });
    const opt = options(opts.options);
    const id = identityOf(opts.identity);
    // No counter selected: the error perfcalc values gives (with its hint
    // for a V1 capture named by index).
    const none = () => noMatch(pats, "the newer capture", !opts.regInfo && !opts.names && pats.some((p) => /^(\\\\[^\\]*)?\\[^#\\]/.test(p))
      ? ": without names, objects and counters are named by their index, as in \\#238(*)\\*; give the name table as names" : "");
    if (format !== null) {
      const text = this._withIdentity(id, () => this._text(() => this._call("query_text", descOff, opt, format)));
      if (pats.length && /^"[^"]*"\r?\n/.test(text)) throw none(); // a header without a column
      return text;
    }
    const res = this._withIdentity(id, () => this._pages((first) => this._call("query", descOff, opt, first)));
    if (pats.length && res.records.length === 0) throw none();
    return res.records.map((r) => withJSON({
      path: r.path, parts: r.parts, value: r.value, status: r.status, type: r.type, scale: r.scale, detailLevel: r.aux, hasOld: r.column === 1,
      first: r.first, second: r.second, multiCount: r.multiCount, cstatus: r.cstatus, time: r.time, date: filetimeToDate(r.time),
    }));
  }

  // _text calls a text export (relog_text, query_text) and returns its
  // text. A text longer than the output buffer comes in pages (CodeSpace:
  // the whole buffer, and the cursor in last_detail), each resumed by
  // decode_next where the one before it ended: the module produces the
  // text once, and no size is guessed. Pages may end inside a UTF-8
  // sequence: the decoder streams across them.
  _text(call) {
    const dec = new TextDecoder();
    let text = "";
    for (let rc = call(); ;) {
      if (rc < 0 && rc !== abi.CODE_SPACE) this._throw(rc);
      const more = rc === abi.CODE_SPACE;
      this._views();
      text += dec.decode(this._u8.subarray(this.outPtr, this.outPtr + (more ? this.outCap : rc)), { stream: more });
      if (!more) return text;
      const cursor = this.exports.last_detail() >>> 0;
      if (cursor === 0) throw new PerfcalcError(abi.CODE_PANIC, "perfcalc: a page of text without a cursor");
      rc = this._call("decode_next", cursor);
    }
  }

  // _relogBin is relog with format "bin": relog_text's FORMAT_BIN, its
  // pages as bytes, the header finished as perfcalc relog -f bin -o
  // finishes a file (finishLog).
  _relogBin(data, opts) {
    if (opts.digits !== undefined && opts.digits !== 0) throw new RangeError("perfcalc: digits do not apply to format bin (raw values are written as read)");
    if (opts.part !== undefined && opts.part !== null) throw new RangeError("perfcalc: part does not apply to format bin (the log is written whole)");
    if (typeof this.exports.max_columns !== "function") throw new PerfcalcError(abi.CODE_UNSUPPORTED, "perfcalc: this perfcalc.wasm cannot write .blg logs (it is older than this package)");
    const { parts, args, max, pats, id } = this._relogArgs(data, opts);
    const [[d, dn], [p, pn]] = this._input(parts);
    const log = this._columnsLimit(max, () => this._bytePages(() => this._call("relog_text", d, dn, p, pn, ...args, abi.FORMAT_BIN)), id);
    const damage = this._errorText();
    const skippedEvents = this.exports.last_detail() >>> 0;
    finishLog(log, data);
    if (pats.length && !damage) {
      this._checkSelection(this._logExport("relog_columns", data, { counters: opts.counters, begin: opts.begin, end: opts.end, every: opts.every, maxColumns: opts.maxColumns }, false).records.length, null, pats, data, opts);
    }
    if (damage && opts.strict) {
      const err = new PerfcalcError(abi.CODE_MALFORMED, damage);
      err.partial = log;
      err.skippedEvents = skippedEvents;
      throw err;
    }
    return opts.details ? { bytes: log, damage: damage || null, skippedEvents } : log;
  }

  // _bytePages collects the bytes of a text export's pages (as _text, as
  // bytes).
  _bytePages(call) {
    const chunks = [];
    let n = 0;
    for (let rc = call(); ;) {
      if (rc < 0 && rc !== abi.CODE_SPACE) this._throw(rc);
      const more = rc === abi.CODE_SPACE;
      this._views();
      const page = this._u8.slice(this.outPtr, this.outPtr + (more ? this.outCap : rc));
      chunks.push(page);
      n += page.length;
      if (!more) break;
      const cursor = this.exports.last_detail() >>> 0;
      if (cursor === 0) throw new PerfcalcError(abi.CODE_PANIC, "perfcalc: a page without a cursor");
      rc = this._call("decode_next", cursor);
    }
    const out = new Uint8Array(n);
    let at = 0;
    for (const c of chunks) { out.set(c, at); at += c.length; }
    return out;
  }

  // _inPart runs call, a call of decode_blg or relog_text, on the part of
  // the log (log_part; null: the whole log), and sets the whole log again.
  _inPart(part, call) {
    const has = typeof this.exports.log_part === "function";
    if (part === null) return call();
    if (!has) throw new PerfcalcError(abi.CODE_UNSUPPORTED, "perfcalc: this perfcalc.wasm lacks log_part (it is older than this package)");
    this.exports.log_part(part[0], part[1]);
    try {
      return call();
    } finally {
      this.exports.log_part(0, 0);
    }
  }

  // _translated runs call, a call of log exports, with the translation
  // sources srcs (opts.translate: compact forms, doc/FORMATS.md §3.4, as
  // strings, bytes or {name, data}, in order of precedence) loaded into
  // the module (names_load), and drops them afterwards. It returns call's
  // result and the names not translated (names_unknown), or null for them
  // without sources.
  _translated(srcs, call) {
    if (srcs === undefined || srcs === null) return [call(), null];
    if (typeof this.exports.names_load !== "function") {
      throw new PerfcalcError(abi.CODE_UNSUPPORTED, "perfcalc: this perfcalc.wasm lacks names_load (it is older than this package)");
    }
    const list = Array.isArray(srcs) ? srcs : [srcs];
    if (list.length === 0) throw new TypeError("perfcalc: translate is an empty array: give compact forms (perfcalc names --compact)");
    const enc = new TextEncoder();
    this._call("names_load", 0, 0, 0, 0);
    try {
      list.forEach((s, i) => {
        const named = s !== null && typeof s === "object" && !ArrayBuffer.isView(s) && !(s instanceof ArrayBuffer);
        const data = named ? s.data : s;
        const bytes = typeof data === "string" ? enc.encode(data) : toBytes(data, `translate[${i}]`);
        const [[no, nl], [d, dn]] = this._input([enc.encode(named && s.name ? String(s.name) : `translate[${i}]`), bytes]);
        const rc = this._call("names_load", no, nl, d, dn);
        if (rc < 0) this._throw(rc);
      });
      const value = call();
      const rc = this._call("names_unknown");
      if (rc < 0) this._throw(rc);
      this._views();
      const text = new TextDecoder().decode(this._u8.subarray(this.outPtr, this.outPtr + rc));
      return [value, text === "" ? [] : text.slice(0, -1).split("\n")];
    } finally {
      this._call("names_load", 0, 0, 0, 0);
    }
  }

  _relogArgs(data, opts) {
    const pats = patterns(opts.counters);
    const patBytes = pats.length ? new TextEncoder().encode(pats.join("\n")) : null;
    const every = toU32(opts.every ?? 0, "every");
    return { parts: [data, patBytes], args: [toI64(opts.begin ?? 0, "begin"), toEnd(opts.end), every], max: maxColumnsOf(opts.maxColumns), pats, id: identityOf(opts.identity) };
  }

  // _withIdentity runs call, a log export or a query, with the pairing id
  // (the identity export; IDENTITY_PDH again after it), and keeps the
  // identity breaks it met in this.identityBreaks (0 by name). A module
  // without the identity export (older than this package) pairs by name:
  // only IDENTITY_PDH is accepted there.
  _withIdentity(id, call) {
    if (typeof this.exports.identity !== "function") {
      if (id !== abi.IDENTITY_PDH) throw new PerfcalcError(abi.CODE_UNSUPPORTED, "perfcalc: this perfcalc.wasm lacks identity (it is older than this package)");
      this.identityBreaks = 0;
      return call();
    }
    const rc = this.exports.identity(id);
    if (rc !== 0) this._throw(rc);
    try {
      const out = call();
      this.identityBreaks = Number(this.exports.identity_breaks());
      return out;
    } finally {
      if (id !== abi.IDENTITY_PDH) this.exports.identity(abi.IDENTITY_PDH);
    }
  }

  // _columnsLimit runs call, a log export, under the limit max of the
  // log's columns (max_columns), and words the module's refusal of a log
  // over it as perfcalc does (CODE_LIMIT). A module without max_columns
  // (older than this package) has no limit: only the default is accepted.
  // id is the pairing of instances (_withIdentity).
  _columnsLimit(max, call, id = abi.IDENTITY_PDH) {
    if (typeof this.exports.max_columns !== "function") {
      if (max !== abi.DEFAULT_MAX_COLUMNS) {
        throw new PerfcalcError(abi.CODE_UNSUPPORTED, "perfcalc: this perfcalc.wasm lacks max_columns (it is older than this package)");
      }
      return this._withIdentity(id, call);
    }
    this.exports.max_columns(max);
    try {
      return this._withIdentity(id, call);
    } catch (e) {
      const m = e instanceof PerfcalcError && e.code === abi.CODE_LIMIT ? COLUMNS_ERROR.exec(e.message) : null;
      if (m === null) throw e;
      throw new PerfcalcError(abi.CODE_LIMIT, `perfcalc: more than ${m[1]} columns (counters of distinct instances, about 1-2 KB of memory each): refused before memory runs out; maxColumns raises the limit (0: none)`, e.detail);
    }
  }

  // _logExport calls an export over a .blg log added within ABI version 1
  // (relog_stats, relog_columns), with relog's selection options, page by
  // page. Patterns that select no column throw (check false: they do not).
  // flags is relog_stats' last argument (first, 0, for the others).
  _logExport(name, bytes, opts, check = true, flags = 0) {
    if (typeof this.exports[name] !== "function") {
      throw new PerfcalcError(abi.CODE_UNSUPPORTED, `perfcalc: this perfcalc.wasm lacks ${name} (it is older than this package)`);
    }
    const data = toBytes(bytes, "bytes");
    const { parts, args, max, pats, id } = this._relogArgs(data, opts);
    const [[d, dn], [p, pn]] = this._input(parts);
    const res = this._columnsLimit(max, () => this._pages((first) => this._call(name, d, dn, p, pn, ...args, first | flags)), id);
    res.breaks = this.identityBreaks;
    if (check) this._checkSelection(res.records.length, res.head.damage, pats, data, opts);
    return res;
  }

  // _checkSelection throws, as perfcalc relog -c does, when the patterns
  // pats select no column of the log data: columns is the number a call
  // kept, 0 too when begin and end keep no sample (a log's columns are
  // those of its kept samples); then relog_columns without them tells. A
  // damaged log reports its damage instead.
  _checkSelection(columns, damage, pats, data, opts) {
    if (columns > 0 || pats.length === 0 || damage) return;
    const timed = toI64(opts.begin ?? 0, "begin") !== 0n || toEnd(opts.end) !== 0n;
    if (timed && this._logExport("relog_columns", data, { counters: opts.counters, maxColumns: opts.maxColumns, identity: opts.identity }, false).records.length > 0) return;
    throw noMatch(pats, "the log", NO_MATCH_HINT);
  }

  /**
   * The statistics of every column of a .blg log, as perfcalc stats and
   * PDH's PdhComputeCounterStatistics compute them (relog_stats): count,
   * skipped, min, max and mean, in relog's column order, with the selection
   * options of relog (counters, begin, end, every); and, not PDH's, as
   * perfcalc stats --valid: invalid (the samples with a bad status) and
   * validMean (the mean of the valid values, null without one). With
   * opts.percentiles true, as perfcalc stats --percentiles: p90, p95 and
   * p99 of the valid values (nearest rank; null without one), every valid
   * value kept until the end.
   */
  stats(bytes, opts = {}) {
    checkOptions(opts, "stats", "stats");
    const { percentiles, ...sel } = opts ?? {};
    if (percentiles !== undefined && typeof percentiles !== "boolean") throw new TypeError(`perfcalc: percentiles is ${typeName(percentiles)}, not a boolean`);
    const [res, unknown] = this._translated(opts.translate, () => this._logExport("relog_stats", bytes, sel, true, percentiles ? abi.STATS_PERCENTILES : 0));
    const h = res.head;
    let stats = res.records;
    if (percentiles) {
      // Each column's percentiles record follows its statistics record.
      stats = [];
      for (const r of res.records) {
        if (r.pct === undefined) { stats.push(r); continue; }
        const s = stats[stats.length - 1];
        if (s === undefined || s.column !== r.column) throw new PerfcalcError(abi.CODE_PANIC, `perfcalc: a percentiles record of column ${r.column} follows no statistics record of it`);
        [s.p90, s.p95, s.p99] = s.count > 0 ? r.pct : [null, null, null];
      }
      if (stats.length * 2 !== res.records.length) throw new PerfcalcError(abi.CODE_UNSUPPORTED, "perfcalc: this perfcalc.wasm computes no percentiles (it is older than this package)");
    }
    const out = { timeZone: h.info, bias: h.bias, rows: h.rows, damage: h.damage, skippedEvents: Number(h.local), stats };
    if (identityOf(sel.identity) === abi.IDENTITY_PID) out.identityBreaks = res.breaks;
    if (unknown !== null) out.namesUnknown = unknown;
    return out;
  }

  /**
   * The columns of a .blg log, as relog -q lists them, without computing a
   * value (relog_columns): a fraction of decode's or stats' time, and one
   * entry per column whatever the log's length. With the selection options
   * of relog (counters, begin, end, every). samples is the number of kept
   * samples, begin and end the local FILETIMEs of the first and the last
   * (relog's Time Begin and Time End; null without samples). Decode the
   * columns you need with decode or relog and their paths as counters (a
   * pattern selects what it matches: compare the paths).
   */
  columns(bytes, opts = {}) {
    checkOptions(opts, "columns", "columns");
    const [res, unknown] = this._translated(opts.translate, () => this._logExport("relog_columns", bytes, opts));
    // Every record holds the kept samples' first and last time stamps (first, second).
    const h = res.head, r0 = res.records[0];
    const range = h.rows > 0 && r0 ? [BigInt.asIntN(64, r0.first), BigInt.asIntN(64, r0.second)] : [null, null];
    const out = {
      timeZone: h.info, bias: h.bias, samples: h.rows, damage: h.damage, skippedEvents: Number(h.local), begin: range[0], end: range[1],
      columns: res.records.map(({ path, parts, type, aux, column }) => ({ path, parts, type, entry: aux, column })),
    };
    if (unknown !== null) out.namesUnknown = unknown;
    return withJSON(out);
  }

  /**
   * Converts a .blg log as Windows' relog does. With opts.format "csv", "tsv"
   * or "json" it returns relog's text; with "bin" the selection as a .blg
   * log (a Uint8Array: the bytes of perfcalc relog -f bin -o OUT.blg);
   * otherwise the columns and the rows.
   */
  relog(bytes, opts = {}) {
    checkOptions(opts, "relog", "relog");
    const [out, unknown] = this._translated(opts.translate, () => this._relog(bytes, opts));
    if (unknown === null) return out;
    if (typeof out === "string") return out; // the names not translated: opts.details
    out.namesUnknown = unknown;
    return out;
  }

  // _relog is relog within _translated.
  _relog(bytes, opts) {
    const data = toBytes(bytes, "bytes");
    if (opts.format !== undefined) {
      let f = FORMATS[String(opts.format).toLowerCase()];
      if (f === undefined) throw new RangeError(`perfcalc: unknown format ${opts.format} (want csv, tsv, json or bin)`);
      if (f === abi.FORMAT_BIN) return this._relogBin(data, opts);
      f |= digitsBits(opts.digits);
      const { parts, args, max, pats, id } = this._relogArgs(data, opts);
      const [[d, dn], [p, pn]] = this._input(parts);
      const part = partOf(opts.part);
      const text = this._columnsLimit(max, () => this._inPart(part, () => this._text(() => this._call("relog_text", d, dn, p, pn, ...args, f))), id);
      const identityBreaks = this.identityBreaks;
      const damage = this._errorText();
      // After the text's last page, last_detail is the events the log's first reading
      // skipped (a module with max_columns: one older than this package says nothing).
      const skippedEvents = typeof this.exports.max_columns === "function" ? this.exports.last_detail() >>> 0 : 0;
      // No column selected: a CSV or TSV header of the first field alone,
      // JSON lines of no value; without a sample (no line), relog_columns says.
      if (pats.length && !damage) {
        if ((f & 0xff) !== abi.FORMAT_JSON) {
          if (/^"[^"]*"\r?\n/.test(text)) this._checkSelection(0, null, pats, data, opts);
        } else if (text === "" || /^\{"time":"[^"]*","values":\{\}\}\n/.test(text)) {
          this._checkSelection(this._logExport("relog_columns", data, opts, false).records.length, null, pats, data, opts);
        }
      }
      if (damage && opts.strict) {
        // As perfcalc relog: the rows before the damage, and the damage's message.
        const err = new PerfcalcError(abi.CODE_MALFORMED, damage);
        err.partial = text;
        err.skippedEvents = skippedEvents;
        throw err;
      }
      if (!opts.details) return text;
      const out = { text, damage: damage || null, skippedEvents };
      if (id === abi.IDENTITY_PID) out.identityBreaks = identityBreaks;
      return out;
    }
    const d = this._decode(data, { kind: "blg", counters: opts.counters, begin: opts.begin, end: opts.end, every: opts.every, maxColumns: opts.maxColumns, part: opts.part, identity: opts.identity });
    const columns = new Array(d.columns).fill(undefined);
    const rows = [];
    let row = null;
    for (const r of d.records) {
      columns[r.column] ??= r.path;
      if (row === null || row.index !== r.aux) {
        row = withJSON({
          index: r.aux, time: r.time, date: filetimeToDate(r.time, r.bias),
          values: new Array(d.columns).fill(undefined), statuses: new Array(d.columns).fill(undefined),
        });
        rows.push(row);
      }
      row.values[r.column] = r.status === "Valid" ? r.value : null;
      row.statuses[r.column] = r.status;
    }
    const out = { timeZone: d.timeZone, bias: d.bias, columns, rows, damage: d.damage, skippedEvents: d.skippedEvents };
    if (d.identityBreaks !== undefined) out.identityBreaks = d.identityBreaks;
    return out;
  }
}

// ---- analyze (issue 24): perfcalc analyze in the module ----

// thresholdFiles reads analyze's threshold files: one {name, bytes} or an
// array of them (what: the option's name for errors).
function thresholdFiles(x, what) {
  if (x === undefined || x === null) return [];
  const list = Array.isArray(x) ? x : [x];
  return list.map((f, i) => {
    if (f === null || typeof f !== "object" || typeof f.name !== "string") {
      throw new TypeError(`perfcalc: ${what}[${i}] must be {name: string, bytes}, not ${typeName(f)}`);
    }
    return { name: f.name, bytes: toBytes(f.bytes, `${what}[${i}].bytes`) };
  });
}

// questionValues returns analyze's question values ({NAME: VALUE}) as the
// module reads them: one NAME=VALUE per line.
function questionValues(set) {
  if (set === undefined || set === null) return "";
  if (typeof set !== "object" || Array.isArray(set)) throw new TypeError(`perfcalc: set must be an object {NAME: VALUE}, not ${typeName(set)}`);
  const lines = [];
  for (const [k, v0] of Object.entries(set)) {
    const v = String(v0);
    // A line the module would read otherwise: no line breaks, a name
    // without "=", nothing the module's trimming of a line would change.
    if (k === "" || k.includes("=") || /[\r\n]/.test(k + v) || k.trimStart() !== k || v.trimEnd() !== v) {
      throw new RangeError(`perfcalc: set ${JSON.stringify(k)}: ${JSON.stringify(v)} is not NAME=VALUE on one line`);
    }
    lines.push(`${k}=${v}`);
  }
  return lines.join("\n");
}

// analyzeInterval reads analyze's interval: seconds, 0 or "auto" for
// automatic.
function analyzeInterval(x) {
  if (x === undefined || x === null || x === "auto") return 0n;
  const n = typeof x === "bigint" ? x : Number.isSafeInteger(x) ? BigInt(x) : null;
  if (n === null || n < 0n) throw new RangeError(`perfcalc: interval ${x} is not a whole number of seconds ≥ 0 (0 or "auto": automatic)`);
  return n;
}

/** The analyze module's file name: beside perfcalc.wasm, wherever that is. */
export const ANALYZE_MODULE = "perfcalc-analyze.wasm";

/**
 * Where load() and createWorker look for the analyze module when not told:
 * perfcalc-analyze.wasm beside the module when source (as load() takes it)
 * is its URL; undefined otherwise, for compileAnalyzer's lookup (beside
 * this file, then in a clone, as perfcalc.wasm itself: moduleURLs).
 * @returns {URL|undefined}
 */
export function analyzeModuleURL(source) {
  if (source instanceof URL) return new URL(ANALYZE_MODULE, source);
  if (typeof source === "string") return new URL(ANALYZE_MODULE, new URL(source, typeof location !== "undefined" ? location.href : import.meta.url));
  return undefined;
}

/**
 * Compiles the analyze module once: source as compile() takes it; without
 * one, perfcalc-analyze.wasm from the first of moduleURLs(ANALYZE_MODULE)
 * that exists.
 * @returns {Promise<WebAssembly.Module>}
 */
export function compileAnalyzer(source) {
  if (source === undefined) return cached(compiledByURL, "perfcalc:analyze-default", () => compileNamed(ANALYZE_MODULE));
  return compile(source);
}

Object.assign(Perfcalc.prototype, {
  /**
   * Loads the analyze module (perfcalc-analyze.wasm: the analyze export,
   * which perfcalc.wasm leaves out to stay small) for this instance, once:
   * load()'s opts.analyzeModule, or the file beside perfcalc.wasm. analyze
   * calls it; call it to load the module ahead of the first analysis. It
   * returns the instance of the analyze module (this instance itself when
   * its module has analyze).
   * @returns {Promise<Perfcalc>}
   */
  loadAnalyzer() {
    if (typeof this.exports.analyze === "function") return Promise.resolve(this);
    if (!this._analyzer) {
      const source = this._analyzeSource;
      const what = source instanceof URL ? `the analyze module ${source.href}` : source === undefined ? ANALYZE_MODULE : "the analyze module";
      this._analyzer = compileAnalyzer(source).then((m) => load(m, this._loadOptions ?? {})).then((a) => {
        if (typeof a.exports.analyze !== "function") throw new PerfcalcError(abi.CODE_UNSUPPORTED, `perfcalc: ${what} lacks the analyze export`);
        return a;
      }, (err) => {
        throw new Error(`perfcalc: loading ${what}: ${err?.message ?? err}`, { cause: err });
      });
      this._analyzer.catch(() => { this._analyzer = null; }); // a failure is not kept
    }
    return this._analyzer;
  },

  /**
   * Runs perfcalc analyze over a .blg log, or an array of logs grouped
   * by machine as the command groups them (the logs of one machine merged;
   * of several machines, the fleet object: {alerts, machines}, a report
   * per machine), in the analyze module (loaded by the first call, see
   * loadAnalyzer), and resolves to {report, json, damage}: the report
   * parsed, its JSON text (byte for byte what perfcalc analyze -f json
   * writes for the same logs, files and options), and why a log ends early
   * (null when none does). An INHERITANCE of a file given neither in
   * thresholds nor in include rejects with a PerfcalcError (CODE_INPUT)
   * whose missingFile is that file's name.
   * opts.thresholds: PAL threshold files whose analyses run ({name, bytes}
   * or an array; none: perfcalc's own default analyses); opts.include:
   * files there only for the INHERITANCE of others (matched by name, ASCII
   * case and folders ignored); opts.set: question values {NAME: VALUE}
   * (--set); opts.interval: the slices' length in seconds (0 or "auto":
   * automatic); opts.palCompat: PAL's numbers, its quirks included.
   */
  async analyze(log, opts = {}) {
    checkOptions(opts, "analyze", "analyze");
    let a = await this.loadAnalyzer();
    if (a._broken && a !== this) {
      // A trap left the analyze module's instance unusable: a new one.
      this._analyzer = null;
      a = await this.loadAnalyzer();
    }
    return analyzeIn(a, log, opts);
  },
});

// analyzeIn runs analyze (see Perfcalc.analyze) on pc, an instance of a
// module with the analyze export.
function analyzeIn(pc, log, opts) {
  const [out, unknown] = pc._translated(opts.translate, () => analyzeRun(pc, log, opts));
  if (unknown !== null) out.namesUnknown = unknown;
  return out;
}

// analyzeRun is analyzeIn within the translation of opts.translate.
function analyzeRun(pc, log, opts) {
  const logs = Array.isArray(log) ? log.map((l, i) => toBytes(l, `log[${i}]`)) : [toBytes(log, "log")];
  const run = thresholdFiles(opts.thresholds, "thresholds"), include = thresholdFiles(opts.include, "include");
  const interval = analyzeInterval(opts.interval);
  const flags = abi.ANALYZE_LOGS | (opts.palCompat ? abi.ANALYZE_PAL_COMPAT : 0) | (identityOf(opts.identity) === abi.IDENTITY_PID ? abi.ANALYZE_PID : 0);
  const enc = new TextEncoder();
  const files = [...run.map((f) => ({ ...f, flags: abi.THR_RUN })), ...include.map((f) => ({ ...f, flags: 0 }))];
  // The parts: the values, each file's name and bytes, each log, then
  // one table: the logs' regions, then the files' entries.
  const parts = [enc.encode(questionValues(opts.set))];
  for (const f of files) parts.push(enc.encode(f.name), f.bytes);
  const first = parts.length;
  parts.push(...logs);
  const nl = 8 * logs.length;
  parts.push(new Uint8Array(nl + files.length * abi.THR_SIZE));
  const placed = pc._input(parts.map((p) => (p.byteLength ? p : null)));
  const table = pc.inPtr + placed[placed.length - 1][0];
  const dv = pc._views();
  logs.forEach((_, i) => {
    const [o, n] = placed[first + i];
    dv.setUint32(table + 8 * i, o, true);
    dv.setUint32(table + 8 * i + 4, n, true);
  });
  files.forEach((f, i) => {
    const e = table + nl + i * abi.THR_SIZE;
    const [no, nn] = placed[1 + 2 * i], [d, dn] = placed[2 + 2 * i];
    dv.setUint32(e + abi.THR_NAME, no, true);
    dv.setUint32(e + abi.THR_NAME + 4, nn, true);
    dv.setUint32(e + abi.THR_DATA, d, true);
    dv.setUint32(e + abi.THR_DATA + 4, dn, true);
    dv.setUint32(e + abi.THR_FLAGS, f.flags, true);
    dv.setUint32(e + abi.THR_RESERVED, 0, true);
  });
  const tableOff = placed[placed.length - 1][0], [so, sn] = placed[0];
  let json;
  try {
    json = pc._text(() => pc._call("analyze", tableOff, nl, tableOff + nl, files.length, so, sn, interval, flags));
  } catch (e) {
    // An inherited file not given: its name, as data (CODE_INPUT with
    // last_detail = n > 0: the output buffer's first n bytes; ABI.md).
    if (e instanceof PerfcalcError && e.code === abi.CODE_INPUT && e.detail > 0 && e.detail <= pc.outCap) {
      e.missingFile = new TextDecoder().decode(new Uint8Array(pc._views().buffer, pc.outPtr, e.detail));
    }
    throw e;
  }
  const damage = pc._errorText() || null;
  return { report: JSON.parse(json), json, damage };
}

/** analyze on the instance of init(). */
export function analyze(log, opts) { return instance().analyze(log, opts); }

// ---- end of analyze ----

// digitsBits returns the digits option of relog_text's and query_text's
// format (bits 8 to 15): 1 to 20, or 0 (absent) for the default, 20.
// finishLog sets what a streamed .blg log (relog_text's FORMAT_BIN) leaves
// 0 in its header and perfcalc relog -f bin -o sets when it closes the file
// (ABI.md, relog_text): EndTime, the input log's, and BuffersWritten, the
// log's length over its buffer size.
function finishLog(log, input) {
  if (log.length < 0x90 || input.length < 0x80) return;
  const dv = new DataView(log.buffer, log.byteOffset, log.byteLength);
  const size = dv.getUint32(0, true);
  if (size > 0) dv.setUint32(0x8c, log.length / size, true);
  log.set(input.subarray(0x78, 0x80), 0x78);
}

function digitsBits(digits = 0) {
  if (!Number.isInteger(digits) || digits < 0 || digits > abi.MAX_DIGITS) throw new RangeError(`perfcalc: digits ${digits} is not 1 to ${abi.MAX_DIGITS} (0: the default, 20)`);
  return digits << abi.DIGITS_SHIFT;
}

// parts reads the parts of a counter's path that follow it in the string
// area strs (at strOff in the output buffer), at the path's end (ABI.md,
// "Path parts"): parent and instance null, and index null, without an
// instance; parent null without one.
function parts(dv, strOff, strs, at, dec) {
  const len = (field) => dv.getUint32(strOff + at + field, true);
  const index = dv.getInt32(strOff + at + abi.PARTS_INDEX, true);
  let p = at + abi.PARTS_SIZE;
  const next = (field) => {
    const n = len(field);
    if (p + n > strs.length) throw new PerfcalcError(abi.CODE_PANIC, "perfcalc: a path's parts lie outside the module's strings");
    return dec.decode(strs.subarray(p, p += n));
  };
  if (at + abi.PARTS_SIZE > strs.length) throw new PerfcalcError(abi.CODE_PANIC, "perfcalc: a path's parts lie outside the module's strings");
  const machine = next(abi.PARTS_MACHINE), object = next(abi.PARTS_OBJECT), parent = next(abi.PARTS_PARENT);
  const instance = next(abi.PARTS_INSTANCE), counter = next(abi.PARTS_COUNTER);
  return index < 0
    ? { machine, object, parent: null, instance: null, index: null, counter }
    : { machine, object, parent: parent === "" ? null : parent, instance, index, counter };
}

// record reads the record at r (its path read by the caller).
function record(dv, r, path) {
  return {
    path,
    value: dv.getFloat64(r + abi.REC_VALUE, true),
    status: STATUS[dv.getUint32(r + abi.REC_STATUS, true)],
    type: dv.getUint32(r + abi.REC_TYPE, true),
    first: dv.getBigUint64(r + abi.REC_FIRST, true),
    second: dv.getBigUint64(r + abi.REC_SECOND, true),
    multiCount: dv.getUint32(r + abi.REC_MULTI, true),
    cstatus: dv.getUint32(r + abi.REC_CSTATUS, true),
    timeBase: dv.getBigInt64(r + abi.REC_TIME_BASE, true),
    time: dv.getBigInt64(r + abi.REC_TIME, true),
    scale: dv.getInt32(r + abi.REC_SCALE, true),
    aux: dv.getUint32(r + abi.REC_AUX, true),
    column: dv.getUint32(r + abi.REC_COLUMN, true),
  };
}

// statistic reads the statistics record at r (its path read by the
// caller): min, max and validMean are null without a valid value, mean
// without a Valid mean. A percentiles record reads as its column and pct,
// [p90, p95, p99].
function statistic(dv, r, path) {
  const column = dv.getUint32(r + abi.STAT_COLUMN, true);
  if (dv.getUint32(r + abi.STAT_RECORD, true) === abi.STAT_REC_PERCENTILES) {
    return { column, pct: [abi.PCT_P90, abi.PCT_P95, abi.PCT_P99].map((o) => dv.getFloat64(r + o, true)) };
  }
  const count = Number(dv.getBigUint64(r + abi.STAT_COUNT, true));
  const meanStatus = STATUS[dv.getUint32(r + abi.STAT_MEAN_STATUS, true)];
  return {
    path,
    type: dv.getUint32(r + abi.STAT_TYPE, true),
    count,
    skipped: Number(dv.getBigUint64(r + abi.STAT_SKIPPED, true)),
    min: count > 0 ? dv.getFloat64(r + abi.STAT_MIN, true) : null,
    max: count > 0 ? dv.getFloat64(r + abi.STAT_MAX, true) : null,
    mean: meanStatus === "Valid" ? dv.getFloat64(r + abi.STAT_MEAN, true) : null,
    meanStatus,
    invalid: Number(dv.getBigUint64(r + abi.STAT_INVALID, true)),
    validMean: count > 0 ? dv.getFloat64(r + abi.STAT_VALID_MEAN, true) : null,
    column,
  };
}

function toBytes(b, what) {
  if (b instanceof Uint8Array) return b;
  if (b instanceof ArrayBuffer) return new Uint8Array(b);
  if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  throw new TypeError(`perfcalc: ${what} must be a Uint8Array, an ArrayBuffer or a typed array`);
}


/**
 * Loads and initialises a new instance of the module.
 * @param {URL|string|ArrayBuffer|ArrayBufferView|Response|Promise<Response>|WebAssembly.Module} [source]
 *   the module; by default perfcalc.wasm beside this file, or in a clone of
 *   the repository ../wasm/module/perfcalc.wasm (moduleURLs).
 * @param {{stdout?: (line: string) => void, stderr?: (line: string) => void, analyzeModule?: URL|string|ArrayBuffer|ArrayBufferView|Response|WebAssembly.Module}} [opts]
 *   analyzeModule: the analyze module (perfcalc-analyze.wasm), as source is
 *   given, loaded by the first analyze; by default the file beside the
 *   module when source is its URL, else perfcalc-analyze.wasm where
 *   moduleURLs looks (compileAnalyzer).
 */
export async function load(source, opts = {}) {
  checkOptions(opts, "load", "load");
  const { analyzeModule, ...wasiOpts } = opts ?? {};
  const module = await compile(source);
  const wasi = createWASI(wasiOpts);
  const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.imports });
  wasi.bind(instance);
  instance.exports._initialize(); // the Go runtime and package initialisation; required first
  const v = instance.exports.abi_version() >>> 0;
  if (v !== ABI_VERSION) throw new Error(`perfcalc: the module speaks ABI ${v}, this package ${ABI_VERSION}`);
  const pc = new Perfcalc(instance);
  // The analyze module, loaded by the first analyze (loadAnalyzer).
  pc._analyzeSource = analyzeModule ?? analyzeModuleURL(source);
  pc._loadOptions = wasiOpts;
  return pc;
}

let shared = null;

/** Loads the module once for the functions below (compute, computeBatch, decode, query, relog, stats). */
export async function init(source, opts) {
  shared = await load(source, opts);
  return shared;
}

function instance() {
  if (shared === null) throw new Error("perfcalc: call await init() first");
  return shared;
}

/** compute on the instance of init(). */
export function compute(req) { return instance().compute(req); }
/** computeBatch on the instance of init(). */
export function computeBatch(reqs, opts) { return instance().computeBatch(reqs, opts); }
/** computeBatchArrays on the instance of init(). */
export function computeBatchArrays(words, out) { return instance().computeBatchArrays(words, out); }
/** decode on the instance of init(). */
export function decode(bytes, opts) { return instance().decode(bytes, opts); }
/** query on the instance of init(). */
export function query(newer, opts) { return instance().query(newer, opts); }
/** relog on the instance of init(). */
export function relog(bytes, opts) { return instance().relog(bytes, opts); }
/** stats on the instance of init(). */
export function stats(bytes, opts) { return instance().stats(bytes, opts); }
/** sniff on the instance of init(). */
export function sniff(bytes) { return instance().sniff(bytes); }
/** columns on the instance of init(). */
export function columns(bytes, opts) { return instance().columns(bytes, opts); }
