// The viewer's model: what is open and what is shown, as plain data and
// pure functions (no DOM, no module), shared by the page (viewer.mjs) and
// its worker (worker.mjs), and tested on their own (test/model.test.mjs).
//
//   - the counters as a tree machine → object → counter → instances, as
//     perfmon's "Add Counters" shows them, from the parts of their paths
//     that the module gives (nothing here splits a path);
//   - search: every word of the query in the path, case-insensitively, and
//     the tree's counts under it;
//   - the selection charted (ordered, at most MAX_SELECTED, one colour each);
//   - series: one column's values by sample, and several series on one
//     time axis (the samples where any of them is present);
//   - which files make what: a log, V1 or V2 captures with their tables.

import { exact, fileTimeMs, isoMs } from "./format.mjs";

/** The most counters the chart shows at once. */
export const MAX_SELECTED = 10;

/** The chart's colours, one per selected counter, in selection order. */
export const COLORS = ["#1f6fb4", "#d62728", "#2a9d3a", "#ef7f0e", "#8a5cc4", "#8c564b", "#d45fb3", "#139fb0", "#6f6f6f", "#a8a81c"];

/**
 * The instance of a path's parts (perfcalc.mjs's PathParts: the module
 * gives them; nothing here splits a path) as PDH writes it in a path,
 * "parent/name#n" (the parent and #n only where there are); null for none.
 */
export function instanceText(parts) {
  if (parts.instance === null) return null;
  return `${parts.parent === null ? "" : `${parts.parent}/`}${parts.instance}${parts.index > 0 ? `#${parts.index}` : ""}`;
}

/** The words of a search query, lower case; none for an empty query. */
export const searchWords = (query) => query.trim().toLowerCase().split(/\s+/).filter(Boolean);

/** Whether a lower-case path holds every word. */
export const matchesWords = (lowerPath, words) => words.every((w) => lowerPath.includes(w));

/**
 * The counters as a tree. Leaves are the counters in their order (their
 * index is the column's, or the value's); a counter of one instance, or of
 * none, is itself a leaf. Every node knows the leaves below it.
 *
 *   node: { key, kind: "machine" | "object" | "counter" | "instance", label,
 *           depth, parent, children: node[], leaf: index | -1, leaves: number[] }
 */
export class CounterTree {
  /**
   * paths: the counter paths; parts: their parts, as the module gives them
   * (perfcalc.mjs's PathParts: records', columns' and values' parts).
   */
  constructor(paths, parts) {
    if (parts.length !== paths.length) throw new RangeError(`CounterTree: ${parts.length} parts for ${paths.length} paths`);
    this.paths = paths;
    this.lower = paths.map((p) => p.toLowerCase());
    this.parts = parts.map((p) => ({ machine: p.machine, object: p.object, instance: instanceText(p), counter: p.counter }));
    this.machines = [...new Set(this.parts.map((p) => p.machine))];
    const multi = this.machines.length > 1;
    this.objects = new Set(this.parts.map((p) => `${p.machine}\\${p.object}`)).size;
    this.roots = [];
    this.nodes = new Map(); // key → node
    this.leafNodes = new Array(paths.length); // leaf index → its node
    const add = (parent, kind, label, key) => {
      let n = this.nodes.get(key);
      if (!n) {
        n = { key, kind, label, depth: parent ? parent.depth + 1 : 0, parent, children: [], leaf: -1, leaves: [] };
        this.nodes.set(key, n);
        (parent ? parent.children : this.roots).push(n);
      }
      return n;
    };
    // The instances of a counter whose only instance is none are the
    // counter itself: count the instances of each counter first.
    const counterKey = (p) => `${multi ? p.machine : ""}\\${p.object}\\${p.counter}`;
    const instances = new Map();
    for (const p of this.parts) {
      const k = counterKey(p);
      instances.set(k, (instances.get(k) ?? 0) + (p.instance === null ? 0 : 1));
    }
    this.parts.forEach((p, i) => {
      const m = multi ? add(null, "machine", p.machine || "(no machine)", `m\\${p.machine}`) : null;
      const o = add(m, "object", p.object, `o\\${multi ? p.machine : ""}\\${p.object}`);
      const ck = counterKey(p);
      let leaf;
      if (instances.get(ck) === 0) {
        leaf = add(o, "counter", p.counter, `c${ck}\\${i}`);
      } else {
        const c = add(o, "counter", p.counter, `c${ck}`);
        leaf = add(c, "instance", p.instance ?? "(none)", `i${i}`);
      }
      leaf.leaf = i;
      this.leafNodes[i] = leaf;
      for (let n = leaf; n; n = n.parent) n.leaves.push(i);
    });
    // As perfmon's "Add Counters" lists them: every level alphabetically
    // (the leaves' indexes keep the log's column order).
    const sortAll = (list) => { list.sort(compareNodes); for (const n of list) sortAll(n.children); };
    sortAll(this.roots);
  }

  /**
   * The objects under a parent (a machine's node, or null for the top
   * level of a log of one machine) in the order a search shows them: the
   * objects whose own name holds more of the query's words first (a search
   * for "processor time" lists Processor before Process), then
   * alphabetically. Other levels keep their order.
   */
  objectOrder(parent, words) {
    const list = parent ? parent.children : this.roots;
    if (words.length === 0 || list.length === 0 || list[0].kind !== "object") return list;
    const rank = (n) => { const l = n.label.toLowerCase(); return words.filter((w) => l.includes(w)).length; };
    const ranked = list.map((n, k) => ({ n, k, r: rank(n) }));
    ranked.sort((a, b) => b.r - a.r || a.k - b.k);
    return ranked.map((x) => x.n);
  }

  /**
   * Leaf indexes (in the log's order) in the order a search lists them:
   * the counters whose object's name holds more of the query's words
   * first, as objectOrder orders the tree; the log's order otherwise.
   */
  rankLeaves(indexes, words) {
    if (words.length === 0) return indexes;
    const rank = new Map();
    const of = (i) => {
      const o = this.parts[i].object;
      let r = rank.get(o);
      if (r === undefined) { const l = o.toLowerCase(); r = words.filter((w) => l.includes(w)).length; rank.set(o, r); }
      return r;
    };
    return indexes.map((i) => ({ i, r: of(i) })).sort((a, b) => b.r - a.r || a.i - b.i).map((x) => x.i);
  }

  /** The number of leaves. */
  get size() { return this.paths.length; }

  /**
   * The leaves that match a query: a Uint8Array (1 = shown) and their
   * count. An empty query shows every leaf.
   */
  match(query) {
    const words = searchWords(query);
    const mask = new Uint8Array(this.size);
    let count = 0;
    for (let i = 0; i < this.size; i++) {
      if (words.length === 0 || matchesWords(this.lower[i], words)) { mask[i] = 1; count++; }
    }
    return { mask, count, words };
  }

  /** The number of a node's leaves that the mask shows. */
  static shown(node, mask) {
    let n = 0;
    for (const i of node.leaves) n += mask[i];
    return n;
  }

  /** The leaf indexes the mask shows, in order. */
  static indexes(mask) {
    const out = [];
    for (let i = 0; i < mask.length; i++) if (mask[i]) out.push(i);
    return out;
  }

  /**
   * A label for a leaf in tables and legends: the path without its machine
   * unless several machines are open, and without its object when there is
   * only one.
   */
  label(i) {
    const p = this.parts[i];
    if (this.machines.length > 1) return this.paths[i];
    return `${this.objects > 1 ? p.object : ""}${p.instance === null ? "" : `(${p.instance})`}\\${p.counter}`;
  }
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/**
 * The order of the tree's nodes, as perfmon's "Add Counters" lists them:
 * alphabetically, case-insensitively (digits by their number: 2 before
 * 10), and an instance _Total first among its counter's instances.
 */
export function compareNodes(a, b) {
  if (a.kind === "instance" && b.kind === "instance") {
    const ta = a.label === "_Total", tb = b.label === "_Total";
    if (ta !== tb) return ta ? -1 : 1;
  }
  return collator.compare(a.label, b.label) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
}

/**
 * The counters charted: an ordered set of leaf indexes, at most
 * MAX_SELECTED, each with its colour (by its place in the order).
 */
export class Selection {
  constructor(items = []) { this.items = [...items]; }
  has(i) { return this.items.includes(i); }
  get size() { return this.items.length; }
  get full() { return this.items.length >= MAX_SELECTED; }
  /** Adds or removes i; false when adding to a full selection. */
  toggle(i) {
    const k = this.items.indexOf(i);
    if (k >= 0) { this.items.splice(k, 1); return true; }
    if (this.full) return false;
    this.items.push(i);
    return true;
  }
  clear() { this.items = []; }
  colorOf(i) {
    const k = this.items.indexOf(i);
    return k < 0 ? null : COLORS[k % COLORS.length];
  }
}

/**
 * Up to four counters to chart when a log opens: the processors' %
 * Processor Time (_Total first), then other processor times, then the
 * first counters.
 */
export function defaultSelection(paths, count = 4) {
  const rank = (p) => (/\\Processor\(_Total\)\\% Processor Time$/i.test(p) ? 0
    : /\\Processor(\([^)]*\))?\\% Processor Time$/i.test(p) ? 1 : /\\% Processor Time$/i.test(p) ? 2 : 3);
  return paths.map((p, i) => ({ i, r: rank(p) })).sort((a, b) => a.r - b.r || a.i - b.i).slice(0, count).map(({ i }) => i);
}

/** The status names of a series' statuses (the module's status numbers). */
export const SERIES_STATUS = ["Valid", "NewData", "NegativeDenominator", "NegativeValue", "InvalidData", "NotDisplayable", "UnknownType"];

/**
 * One column's series from decode's records, in typed arrays (the worker
 * transfers them to the page without a copy): the samples that have it
 * (rows: their index in the log; times: their local time stamp in
 * milliseconds since 1970, truncated as relog prints it), its value there
 * (NaN where it has none: the module never gives NaN) and the status
 * (index in SERIES_STATUS). Records of other paths (a pattern may match
 * more than the path it was made of) are left out.
 */
export function seriesOf(records, path) {
  let n = 0;
  for (const r of records) if (r.path === path) n++;
  const rows = new Uint32Array(n), times = new Float64Array(n), values = new Float64Array(n), statuses = new Uint8Array(n);
  let k = 0;
  for (const r of records) {
    if (r.path !== path) continue;
    rows[k] = r.aux;
    times[k] = fileTimeMs(r.time);
    values[k] = r.status === "Valid" ? r.value : NaN;
    statuses[k] = Math.max(0, SERIES_STATUS.indexOf(r.status));
    k++;
  }
  return { path, rows, times, values, statuses };
}

/** Values as exact JSON: JavaScript's shortest texts (relog's JSON reads back the same), null for none (NaN), -0 kept. */
export function valuesJSON(values) {
  const list = Array.from(values, (v) => (Number.isNaN(v) ? null : v));
  if (!list.some((v) => Object.is(v, -0))) return JSON.stringify(list);
  return JSON.stringify(list.map((v) => (v === null ? null : exact(v))));
}

/**
 * The exact texts of a series, as the chart's data attributes hold them:
 * its samples' times as relog's JSON writes them, their indexes and the
 * values (valuesJSON). The worker writes them, off the page's thread.
 */
export function seriesTexts(s) {
  return { times: JSON.stringify(Array.from(s.times, isoMs)), rows: JSON.stringify(Array.from(s.rows)), values: valuesJSON(s.values) };
}

/** The buffers of a series, to transfer them. */
export const seriesBuffers = (s) => [s.rows.buffer, s.times.buffer, s.values.buffer, s.statuses.buffer];

/**
 * Several series on one time axis: the samples where any of them is
 * present, in the log's order. Each series' values are aligned to those
 * samples (NaN where it has no value or is absent), and joined[k] says that
 * sample k follows, in the series, the sample just before it in the log:
 * a line is not drawn across a sample that lacks the counter. text holds
 * the exact texts of the chart's data attributes when the series' own
 * (seriesTexts, as s.text) serve unchanged.
 */
export function alignSeries(series) {
  // The union of the series' samples (each series' rows increase).
  let total = 0;
  for (const s of series) total += s.rows.length;
  const all = new Uint32Array(total);
  let at = 0;
  for (const s of series) { all.set(s.rows, at); at += s.rows.length; }
  all.sort();
  let n = 0;
  for (let k = 0; k < all.length; k++) if (k === 0 || all[k] !== all[k - 1]) all[n++] = all[k];
  const rows = all.slice(0, n), times = new Float64Array(n);
  const lines = series.map((s) => {
    const values = new Float64Array(n).fill(NaN), present = new Uint8Array(n), joined = new Uint8Array(n);
    for (let k = 0, j = 0; k < s.rows.length; k++) {
      while (rows[j] !== s.rows[k]) j++;
      values[j] = s.values[k];
      present[j] = 1;
      times[j] = s.times[k];
      if (k > 0 && s.rows[k - 1] === s.rows[k] - 1) joined[j] = 1;
    }
    return { path: s.path, values, present, joined };
  });
  // Every series on every sample (the usual log): the series' own texts
  // are the chart's, and need not be written again.
  const same = series.length > 0 && series.every((s) => s.rows.length === n && s.text);
  const text = same ? { times: series[0].text.times, rows: series[0].text.rows, values: series.map((s) => s.text.values) } : undefined;
  return { rows, times, lines, text };
}

/**
 * What a set of opened files makes, from each file's kind ("blg", "v1",
 * "v2", "names", or null when the module cannot tell) and the captures
 * already open (a name table or V2 tables added to them): one of
 *   { open: "blg", log }
 *   { open: "v1", captures, names }       (one or two captures)
 *   { open: "v2", captures, tables }      (tables: the files to try as the registration and the strings)
 * or { error } saying why not. A file of unknown kind without V2
 * captures is read as a log, so that its decoder says what is wrong.
 */
export function classifyFiles(files, open = null) {
  const by = (k) => files.filter((f) => f.kind === k);
  const v1 = by("v1"), v2 = by("v2"), names = by("names"), unknown = by(null), logs = by("blg");
  if (v2.length > 0 || (open?.open === "v2" && v1.length === 0 && logs.length === 0 && names.length === 0 && unknown.length > 0)) {
    const captures = v2.length > 0 ? v2 : open.captures;
    if (captures.length > 2) return { error: `Give one or two V2 captures, not ${captures.length}.` };
    if (v1.length > 0 || logs.length > 0) return { error: "Open V2 captures apart from V1 captures and logs." };
    const tables = unknown.length > 0 ? unknown : v2.length > 0 ? [] : open.tables;
    if (tables.length === 0) {
      return { error: "V2 captures need their counterset's registration (PERF_COUNTERSET_REG_INFO, as perfcalc values --reginfo takes it): open it with the captures, and the counter names (--strings) if you have them." };
    }
    if (tables.length > 2) return { error: `Give the registration and the counter names of the V2 captures (two files at most), not ${tables.length} other files.` };
    return { open: "v2", captures, tables };
  }
  const asLogs = [...logs, ...unknown];
  if (asLogs.length > 0) {
    if (files.length > 1) return { error: `Open one .blg log at a time (got ${files.length} files: ${files.map((f) => f.name).join(", ")}).` };
    return { open: "blg", log: asLogs[0] };
  }
  if (v1.length > 2) return { error: `Give one or two captures (V1 blobs), not ${v1.length}.` };
  if (names.length > 1) return { error: `Give at most one name table, not ${names.length}.` };
  if (v1.length > 0) return { open: "v1", captures: v1, names: names[0] ?? null };
  if (names.length > 0 && open?.open === "v1") return { open: "v1", captures: open.captures, names: names[0] };
  return { error: "A name table alone has nothing to show: open one or two captures (V1 blobs) with it, or a .blg log." };
}

/**
 * The captures in time order (older first), from each one's time (a
 * FILETIME BigInt, or null when unknown: such captures keep the order
 * given, after the others).
 */
export function orderCaptures(caps) {
  const list = caps.map((c, order) => ({ ...c, order }));
  list.sort((a, b) => {
    if (a.time === null || b.time === null) return (a.time === null) - (b.time === null) || a.order - b.order;
    return a.time < b.time ? -1 : a.time > b.time ? 1 : a.order - b.order;
  });
  return list;
}

/** Reads the V2 counter ids as perfcalc values --ids takes them: comma-separated, * (or -) for a block that names its counters. */
export function parseIds(text, noCounter = 0xffffffff) {
  const t = text.trim();
  if (t === "") return [];
  return t.split(",").map((f) => {
    const s = f.trim();
    if (s === "*" || s === "-") return noCounter;
    if (!/^(0x[0-9a-f]+|[0-9]+)$/i.test(s) || Number(s) > 0xffffffff) throw new Error(`${JSON.stringify(s)} is not a counter id (or * for a block that names its counters)`);
    return Number(s);
  });
}

/** Milliseconds since 1970 (a chart's local time) as a FILETIME (BigInt, 100 ns since 1601). */
export const msFileTime = (ms) => (BigInt(ms) + 11644473600000n) * 10000n;

/**
 * The selection options (the JS package's begin and end, FILETIMEs; as
 * perfcalc relog -b and -e) of a zoomed time range {from, to} (whole ms,
 * the log's local time), or none for the whole log. The statistics and
 * the CSV of a zoomed chart are those of this range: everything that
 * follows the zoom takes its options from here.
 */
export function rangeOptions(range) {
  if (!range) return {};
  return { begin: msFileTime(range.from), end: msFileTime(range.to) };
}

/**
 * The samples of sorted times (ms) within a range {from, to}, both ends
 * kept: the first index, the index after the last, and their number.
 */
export function samplesIn(times, range) {
  let a = 0;
  while (a < times.length && times[a] < range.from) a++;
  let e = a;
  while (e < times.length && times[e] <= range.to) e++;
  return { first: a, end: e, count: e - a };
}

/**
 * The statistics of a log's columns (stats' records, each with its path)
 * by the index of the column in paths (the whole log's columns): those of
 * a time range cover the columns of its samples only, and a column absent
 * from the range has none (undefined).
 */
export function statsByColumn(records, paths) {
  const at = new Map(paths.map((p, i) => [p, i]));
  const out = new Array(paths.length);
  for (const r of records) {
    const i = at.get(r.path);
    if (i !== undefined) out[i] = r;
  }
  return out;
}

/** The name of a saved .blg selection: the log's name with ".selection", e.g. Tx.selection.blg. */
export const blgName = (file) => `${file.replace(/\.[^.]*$/, "")}.selection.blg`;

/** The name of a saved CSV: the log's name with the digits, e.g. Tx.20digits.csv. */
export const csvName = (file, digits) => `${file.replace(/\.[^.]*$/, "")}.${digits}digits.csv`;

/** What a decoder's error usually means, for people; "" when nothing helps. */
export function hintFor(err, kind) {
  if (!err || err.name !== "PerfcalcError") return "";
  if (err.kind === "Limit") return "The file is too large for the page (more than 1 GiB, or more than 2,097,152 values of one counter); the native command (perfcalc relog, stats) reads logs of any size.";
  if (kind === "blg") return "Is it a perfmon binary log (.blg)? Logs saved as CSV, TSV or SQL, and logs damaged at their start, cannot be read.";
  if (kind === "v1") return "A capture must be a whole V1 HKEY_PERFORMANCE_DATA blob (a PERF_DATA_BLOCK), and a pair must come from the same machine.";
  if (kind === "v2") return "V2 captures are PerfQueryCounterData results, read with their counterset's registration (and counter names); a pair must come from the same counterset.";
  return "";
}
