// Text for people: numbers rounded for reading (the exact values stay in
// data attributes and in the module's relog text), times, durations, time
// zones, counter types and units. Pure functions, no DOM.

import { COUNTER_TYPES } from "../perfcalc.mjs";

/** The exact text of a value: JavaScript's shortest round-trip form ("-0" keeps its sign), "" for none. */
export const exact = (v) => (v === null || v === undefined ? "" : Object.is(v, -0) ? "-0" : String(v));

const nf = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 7 });

/** A value for people: 7 significant digits, an exponent outside 1e-4..1e15, "" for none. */
export function fmt(v) {
  if (v === null || v === undefined) return "";
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e15 || a < 1e-4)) return v.toExponential(4).replace("e+", "e");
  return nf.format(v);
}

const nfShort = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 5, maximumFractionDigits: 6, roundingPriority: "lessPrecision" });
const nfInt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * A value for a narrow column (the statistics table, whose twelve columns
 * fit 1360 px): 5 significant digits (at most 6 fraction digits), the
 * integer part whole, an exponent outside 1e-3..1e7; "" for none. Its
 * exact value is in the cell's title and data attributes.
 */
export function fmtShort(v) {
  if (v === null || v === undefined) return "";
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e7 || a < 1e-3)) return v.toExponential(3).replace("e+", "e");
  return a >= 1e5 ? nfInt.format(v) : nfShort.format(v);
}

/** An integer with thousands separators. */
export const fmtInt = (n) => n.toLocaleString("en-US");

/** Bytes for people: 10.6 MB. */
export function fmtBytes(n) {
  if (n < 1000) return `${n} bytes`;
  const units = ["kB", "MB", "GB"];
  let v = n, u = -1;
  while (v >= 1000 && u < units.length - 1) { v /= 1000; u++; }
  return `${v.toLocaleString("en-US", { maximumFractionDigits: 1 })} ${units[u]}`;
}

/** A FILETIME (BigInt, 100 ns since 1601) as milliseconds since 1970, for Date's UTC fields. */
export const fileTimeMs = (ft) => Number(BigInt(ft) / 10000n) - 11644473600000;

const pad = (n, w = 2) => String(n).padStart(w, "0");

const DAY = 86400000;
let dayCache = { day: NaN, text: "" };

/**
 * Milliseconds since 1970 as 2013-02-19T18:50:17.844 (the form of relog's
 * JSON), read as is (no time zone applied). The date is computed once per
 * day: a series of many samples is quick to write.
 */
export function isoMs(ms) {
  const day = Math.floor(ms / DAY);
  if (day !== dayCache.day) {
    const d = new Date(day * DAY);
    dayCache = { day, text: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T` };
  }
  let t = ms - day * DAY;
  const msPart = t % 1000; t = (t - msPart) / 1000;
  const s = t % 60; t = (t - s) / 60;
  const m = t % 60, hh = (t - m) / 60;
  return `${dayCache.text}${pad(hh)}:${pad(m)}:${pad(s)}.${pad(msPart, 3)}`;
}

/** Milliseconds since 1970 as relog's -b and -e take a time: 02/19/2013 18:50:17.844. */
export function relogTimeText(ms) {
  const [d, t] = isoMs(ms).split("T");
  const [y, m, dd] = d.split("-");
  return `${m}/${dd}/${y} ${t}`;
}

/** A FILETIME as 2013-02-19T18:50:17.844 (the form of relog's JSON), read as is (no time zone applied). */
export const isoTime = (ft) => isoMs(fileTimeMs(ft));

/** A FILETIME as 2013-02-19 18:50:17.844. */
export const showTime = (ft) => isoTime(ft).replace("T", " ");

/** A duration for people: "1.5 s", "10 min", "2 d 3 h 0 min". */
export function duration(ms) {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${(ms / 1000).toLocaleString("en-US", { maximumFractionDigits: 3 })} s`;
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  return [d && `${d} d`, (d || hh) && `${hh} h`, `${mm} min`, !d && ss && `${ss} s`].filter(Boolean).join(" ");
}

/** The UTC offset of a bias (minutes, UTC = local + bias): UTC−08:00. */
export function utcOffset(bias) {
  const off = -bias, a = Math.abs(off);
  return `UTC${off < 0 ? "−" : "+"}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

const TYPE_NAMES = new Map();
for (const [name, v] of Object.entries(COUNTER_TYPES)) if (!TYPE_NAMES.has(v)) TYPE_NAMES.set(v, name);

/** A counter type's Windows name, or its number in hexadecimal. */
export const typeName = (t) => TYPE_NAMES.get(t) ?? "0x" + t.toString(16).toUpperCase().padStart(8, "0");

/** The display suffix of a counter type (winperf.h PERF_DISPLAY_*): "/sec", "%", "s" or "". */
export const unitOf = (t) => ["", "/sec", "%", "s", ""][(t >>> 28) & 7] ?? "";

/**
 * A counter's unit for people, from its type's display suffix (winperf.h
 * PERF_DISPLAY_*) and, for sizes, its name (the type does not say bytes):
 * "%", "seconds", "bytes", "bytes/sec", "MB", "KB", "/sec" or "count".
 * A percentage or a time keeps its unit whatever the name; a rate of
 * bytes is "bytes/sec"; a counter without a suffix nor a size in its name
 * counts things.
 */
export function unitFor(type, counter = "") {
  const suffix = unitOf(type);
  if (suffix === "%") return "%";
  if (suffix === "s") return "seconds";
  const name = String(counter);
  const size = /\bMBytes\b|\bMB\b|Megabytes/i.test(name) ? "MB" : /\bKBytes\b|\bKB\b|Kilobytes/i.test(name) ? "KB" : /bytes?\b/i.test(name) ? "bytes" : "";
  if (suffix === "/sec") return size ? `${size}/sec` : "/sec";
  return size || "count";
}

/** A status name split into its words (NegativeDenominator → ["Negative", "Denominator"]), for line breaks. */
export const statusWords = (st) => st.split(/(?=[A-Z])/);
