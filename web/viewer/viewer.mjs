// The perfcalc viewer: opens a perfmon log (.blg) or one or two raw V1
// captures (with their name table) in the page, with perfcalc's WebAssembly
// module, and shows the machine, the time range, a searchable list of
// counters, a line chart of the selected counters and a table of values.
// Nothing leaves the page.
//
// The numbers shown are rounded; the exact ones are in data attributes
// (JavaScript's shortest round-trip text, "" where there is no value), for
// tests and for copying:
//   table rows  tr[data-path]: data-type, data-count, data-skipped, data-min,
//               data-max, data-mean, data-mean-status, data-last,
//               data-last-status (a .blg); data-value, data-status (captures)
//   chart       svg[data-times] (the samples' times, as relog's JSON writes
//               them), path.series[data-path][data-values] (a JSON array of
//               those texts, null where there is no value)
//   #app        data-state: loading, ready, busy, loaded, error; data-kind:
//               blg, pair, single

import { COUNTER_TYPES, load } from "../perfcalc.mjs";

const $ = (id) => document.getElementById(id);
const app = $("app");

const COLORS = ["#1f6fb4", "#d62728", "#2a9d3a", "#ef7f0e", "#8a5cc4", "#8c564b", "#d45fb3", "#139fb0", "#6f6f6f", "#a8a81c"];
const MAX_SELECTED = COLORS.length;
const TYPE_NAMES = new Map();
for (const [name, v] of Object.entries(COUNTER_TYPES)) if (!TYPE_NAMES.has(v)) TYPE_NAMES.set(v, name);

let pc = null; // the perfcalc instance
let view = null; // what is open (see openBlg, openCaptures)
let pendingCaptures = null; // the V1 captures open, to add a name table later
let chartWidth = 0; // the chart's width when it was drawn

// ---------------------------------------------------------------- helpers

function h(tag, attrs = {}, ...children) {
  const el = document.createElementNS(tag.startsWith("svg:") ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml", tag.replace(/^svg:/, ""));
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.setAttribute("class", v);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** The exact text of a value: JavaScript's shortest round-trip form ("-0" keeps its sign), "" for none. */
const exact = (v) => (v === null || v === undefined ? "" : Object.is(v, -0) ? "-0" : String(v));

const nf = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 7 });
/** A value for people: 7 significant digits, exponents outside 1e-4..1e15. */
function fmt(v) {
  if (v === null || v === undefined) return "";
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e15 || a < 1e-4)) return v.toExponential(4).replace("e+", "e");
  return nf.format(v);
}

const fmtInt = (n) => n.toLocaleString("en-US");

/** A FILETIME (BigInt, 100 ns since 1601) as milliseconds since 1970, for Date's UTC fields. */
const fileTimeMs = (ft) => Number(ft / 10000n) - 11644473600000;

const pad = (n, w = 2) => String(n).padStart(w, "0");
/** A FILETIME as 2013-02-19T18:50:17.844 (the form of relog's JSON), read as is (no time zone applied). */
function isoTime(ft) {
  const d = new Date(fileTimeMs(ft));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}
const showTime = (ft) => isoTime(ft).replace("T", " ");

function duration(ms) {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${(ms / 1000).toLocaleString("en-US", { maximumFractionDigits: 3 })} s`;
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  return [d && `${d} d`, (d || hh) && `${hh} h`, `${mm} min`, !d && ss && `${ss} s`].filter(Boolean).join(" ");
}

/** UTC offset of a bias (minutes, UTC = local + bias): UTC−08:00. */
function utcOffset(bias) {
  const off = -bias, a = Math.abs(off);
  return `UTC${off < 0 ? "−" : "+"}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

const typeName = (t) => TYPE_NAMES.get(t) ?? "0x" + t.toString(16).toUpperCase().padStart(8, "0");
/** The display suffix of a counter type (winperf.h PERF_DISPLAY_*). */
const unitOf = (t) => ["", "/sec", "%", "s", ""][(t >>> 28) & 7] ?? "";

/** \\MACHINE\Object(instance)\Counter → { machine, rest: Object(instance)\Counter }. */
/** A status name with line-break opportunities between its words (Negative·Denominator). */
function statusText(st) {
  const out = [];
  st.split(/(?=[A-Z])/).forEach((w, k) => { if (k > 0) out.push(h("wbr")); out.push(w); });
  return out;
}

/** A path as text nodes with a line-break opportunity after each backslash. */
function breakable(text) {
  const out = [];
  text.split("\\").forEach((part, k) => { if (k > 0) out.push("\\", h("wbr")); out.push(part); });
  return out;
}

function splitPath(p) {
  const m = /^\\\\([^\\]*)(\\.*)$/.exec(p);
  return m ? { machine: m[1], rest: m[2].slice(1) } : { machine: "", rest: p };
}

// ---------------------------------------------------------------- messages and state

function setState(s) { app.dataset.state = s; }

function showMessage(kind, title, text, hint = "") {
  const m = $("message");
  m.className = "message " + kind;
  m.replaceChildren(h("strong", {}, title), text ? h("span", { class: "message-text" }, text) : "", hint ? h("span", { class: "message-hint" }, hint) : "");
  m.hidden = false;
}

function clearMessage() { $("message").hidden = true; }

// hintFor says what a decoder error usually means, for people.
function hintFor(err, kind) {
  if (!err || err.name !== "PerfcalcError") return "";
  if (err.kind === "Limit") return "The file is too large for the page (more than 1 GiB, or more than 2,097,152 values in all); the native command (perfcalc relog, stats) reads logs of any size.";
  if (kind === "blg") return "Is it a perfmon binary log (.blg)? Logs saved as CSV, TSV or SQL, and logs damaged at their start, cannot be read.";
  if (kind === "v1") return "A capture must be a whole V1 HKEY_PERFORMANCE_DATA blob (a PERF_DATA_BLOCK), and a pair must come from the same machine.";
  return "";
}

function fail(title, err, hint = "") {
  if (err && err.name === "PerfcalcError") console.warn(err); // the file's fault, shown on the page
  else console.error(err);
  view = null;
  pendingCaptures = null;
  $("summary").hidden = true;
  $("view").hidden = true;
  $("intro").hidden = false;
  delete app.dataset.kind;
  const text = err instanceof Error ? err.message : String(err);
  showMessage("error", title, text, hint);
  setState("error");
}

// ---------------------------------------------------------------- files

/**
 * What a file holds: "v1", "v2", "names" or "blg", as the module tells from
 * its bytes (its first 64 KiB for a large file: enough for all but V2), or
 * by a .multisz name, or else a log.
 */
function sniff(bytes, name) {
  return pc.sniff(bytes.length <= 1 << 20 ? bytes : bytes.subarray(0, 1 << 16)) ?? (/\.multisz$/i.test(name) ? "names" : "blg");
}

/**
 * PERF_DATA_BLOCK.PerfTime100nSec of a V1 capture, for ordering a pair: at
 * offset 72, after Signature[4] (0), LittleEndian, Version, Revision,
 * TotalByteLength, HeaderLength, NumObjectTypes, DefaultObject (8..32),
 * SystemTime (36, 16 bytes), PerfTime (56) and PerfFreq (64).
 */
function v1Time(b) {
  if (b.length < 80) return 0n;
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getBigInt64(72, true);
}

async function openFiles(fileList) {
  const files = Array.from(fileList);
  if (files.length === 0) return;
  if (!pc) return fail("The perfcalc module is not loaded", "Reload the page; the message above says why it failed.");
  setState("busy");
  clearMessage();
  const what = files.map((f) => f.name).join(", ");
  let read;
  try {
    read = await Promise.all(files.map(async (f) => {
      const bytes = new Uint8Array(await f.arrayBuffer());
      return { name: f.name, bytes, kind: sniff(bytes, f.name) };
    }));
  } catch (err) {
    return fail(`Could not read ${what}`, err);
  }
  const blgs = read.filter((f) => f.kind === "blg"), caps = read.filter((f) => f.kind === "v1"), names = read.filter((f) => f.kind === "names");
  try {
    const v2 = read.find((f) => f.kind === "v2");
    if (v2) throw new Error(`${v2.name} is a PerfLib V2 capture: the viewer opens .blg logs and V1 captures (perfcalc values reads V2 captures with their registration).`);
    if (blgs.length > 0) {
      if (read.length > 1) throw new Error(`Open one .blg log at a time (got ${read.length} files: ${what}).`);
      openBlg(blgs[0]);
    } else if (caps.length > 0 || (names.length > 0 && pendingCaptures)) {
      if (caps.length > 2) throw new Error(`Give one or two captures (V1 blobs), not ${caps.length}.`);
      if (names.length > 1) throw new Error(`Give at most one name table, not ${names.length}.`);
      const c = caps.length > 0 ? caps : pendingCaptures.caps;
      const n = names[0] ?? (caps.length > 0 ? null : pendingCaptures.names);
      openCaptures(c, n);
    } else {
      throw new Error("A name table alone has nothing to show: open one or two captures (V1 blobs) with it, or a .blg log.");
    }
  } catch (err) {
    return fail(`Could not open ${what}`, err, hintFor(err, blgs.length ? "blg" : "v1"));
  }
  setState("loaded");
}

// ---------------------------------------------------------------- a .blg log

function openBlg(file) {
  const d = pc.decode(file.bytes, { kind: "blg" });
  if (d.records.length === 0) throw new Error("The log holds no sample.");
  // Rows in the log's order (aux is the sample's index), columns by index.
  const rowOf = new Map(), times = [];
  const cols = [];
  for (const r of d.records) {
    let row = rowOf.get(r.aux);
    if (row === undefined) {
      row = times.length;
      rowOf.set(r.aux, row);
      times.push(r.time);
    }
    let c = cols[r.column];
    if (c === undefined) c = cols[r.column] = { path: r.path, column: r.column, cells: [] };
    c.cells.push({ row, r });
  }
  const counters = cols.filter(Boolean);
  for (const c of counters) {
    c.values = new Array(times.length).fill(null);
    for (const { row, r } of c.cells) c.values[row] = r.status === "Valid" ? r.value : null;
    const lastCell = c.cells[c.cells.length - 1].r;
    c.type = lastCell.type;
    c.last = lastCell.status === "Valid" ? lastCell.value : null;
    c.lastStatus = lastCell.status;
  }
  // Each column's count, skipped, min, max and mean, as perfcalc stats and
  // PDH's PdhComputeCounterStatistics give them, computed by the module.
  const st = pc.stats(file.bytes).stats;
  for (const c of counters) c.stats = st[c.column];
  const machines = [...new Set(counters.map((c) => splitPath(c.path).machine))];
  view = {
    kind: "blg", file: file.name, machines, times, counters, timeZone: d.timeZone, bias: d.bias, damage: d.damage,
    selected: new Set(defaultSelection(counters)),
  };
  pendingCaptures = null;
  render();
  if (d.damage) showMessage("warning", "The log is damaged after its start: the samples before the damage are shown.", d.damage);
}

// defaultSelection picks up to four counters with values: the processors'
// % Processor Time first (_Total first), then other processor times, then
// the first counters.
function defaultSelection(counters) {
  const rank = (p) => (/\\Processor\(_Total\)\\% Processor Time$/i.test(p) ? 0
    : /\\Processor(\([^)]*\))?\\% Processor Time$/i.test(p) ? 1 : /\\% Processor Time$/i.test(p) ? 2 : 3);
  const withValues = counters.map((c, i) => ({ i, r: rank(c.path) })).filter(({ i }) => counters[i].stats.count > 0);
  withValues.sort((a, b) => a.r - b.r || a.i - b.i);
  return withValues.slice(0, 4).map(({ i }) => i);
}

// ---------------------------------------------------------------- V1 captures

function openCaptures(caps, names) {
  const list = caps.slice().map((c, i) => ({ ...c, time: v1Time(c.bytes), order: i }));
  list.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.order - b.order));
  const newer = list[list.length - 1], older = list.length === 2 ? list[0] : null;
  const opts = names ? { names: names.bytes } : {};
  const decode = (f) => {
    try {
      return pc.decode(f.bytes, { kind: "v1", ...opts });
    } catch (err) {
      err.message = `${f.name}: ${err.message}`;
      throw err;
    }
  };
  const dn = decode(newer), dold = older ? decode(older) : null;
  const values = pc.query(newer.bytes, { older: older?.bytes, ...opts });
  const counters = values.map((v) => ({ path: v.path, type: v.type, value: v.status === "Valid" ? v.value : null, status: v.status, hasOld: v.hasOld }));
  const timeOf = (d, f) => (d.records.length ? d.records[0].time : v1Time(f.bytes));
  view = {
    kind: older ? "pair" : "single", machines: [dn.machine], counters, names: names?.name ?? null,
    newer: { name: newer.name, time: timeOf(dn, newer) }, older: older ? { name: older.name, time: timeOf(dold, older) } : null,
    selected: new Set(),
  };
  pendingCaptures = { caps, names };
  render();
}

// ---------------------------------------------------------------- rendering

function render() {
  app.dataset.kind = view.kind;
  $("intro").hidden = true;
  renderSummary();
  $("search").value = "";
  $("normalize").checked = false;
  $("view").hidden = false;
  const blg = view.kind === "blg";
  $("chart-section").hidden = !blg;
  $("clear-selection").hidden = !blg;
  renderList();
  renderTable();
  if (blg) renderChart();
}

function renderSummary() {
  const s = $("summary");
  const items = [];
  const item = (k, ...v) => items.push(h("div", { class: "item" }, h("dt", {}, k), h("dd", {}, ...v)));
  item("Machine", h("span", { id: "machine" }, view.machines.join(", ") || "(unnamed)"));
  if (view.kind === "blg") {
    const t = view.times, first = t[0], last = t[t.length - 1];
    item("File", view.file);
    item("Time range", h("span", { id: "time-range", "data-begin": isoTime(first), "data-end": isoTime(last) }, `${showTime(first)} → ${showTime(last)}`),
      h("span", { class: "sub" }, `local time of the log, ${utcOffset(view.bias)} (${view.timeZone})`));
    item("Samples", `${fmtInt(t.length)}`, h("span", { class: "sub" },
      t.length > 1 ? `over ${duration(fileTimeMs(last) - fileTimeMs(first))}, every ${duration((fileTimeMs(last) - fileTimeMs(first)) / (t.length - 1))} on average` : "one sample: no value yet"));
    item("Counters", fmtInt(view.counters.length));
  } else {
    const n = view.newer, o = view.older;
    item(o ? "Captures" : "Capture", o ? `${o.name} → ${n.name}` : n.name,
      h("span", { class: "sub" }, view.names ? `names from ${view.names}` : "no name table: objects and counters are named by their index (#238); add the Counter 009 table"));
    item("Time range", h("span", { id: "time-range", "data-begin": isoTime(o ? o.time : n.time), "data-end": isoTime(n.time) },
      o ? `${showTime(o.time)} → ${showTime(n.time)}` : showTime(n.time)), h("span", { class: "sub" }, "UTC (PerfTime100nSec)"));
    item("Interval", o ? duration(fileTimeMs(n.time) - fileTimeMs(o.time)) : "none",
      h("span", { class: "sub" }, o ? "one value per counter" : "one capture: counters that need two samples have no value yet (NewData); add the older capture"));
    item("Counters", fmtInt(view.counters.length));
  }
  s.replaceChildren(h("dl", {}, items));
  s.hidden = false;
}

function matches(c) {
  const q = $("search").value.trim().toLowerCase();
  if (!q) return true;
  const p = c.path.toLowerCase();
  return q.split(/\s+/).every((w) => p.includes(w));
}

function colorOf(i) {
  const order = [...view.selected];
  const k = order.indexOf(i);
  return k >= 0 ? COLORS[k % COLORS.length] : null;
}

function toggle(i) {
  if (view.kind !== "blg") return;
  if (view.selected.has(i)) view.selected.delete(i);
  else {
    if (view.selected.size >= MAX_SELECTED) {
      showMessage("info", `The chart shows at most ${MAX_SELECTED} counters.`, "Clear one before adding another.");
      return;
    }
    view.selected.add(i);
  }
  renderList();
  renderTable();
  renderChart();
}

function renderList() {
  const ul = $("counter-list");
  const blg = view.kind === "blg";
  const shown = [];
  view.counters.forEach((c, i) => { if (matches(c)) shown.push(i); });
  const multi = view.machines.length > 1;
  const items = shown.map((i) => {
    const c = view.counters[i];
    const label = multi ? c.path : splitPath(c.path).rest;
    const color = colorOf(i);
    const sel = view.selected.has(i);
    return h("li", { "data-path": c.path, class: sel ? "selected" : "", title: c.path },
      blg ? h("label", {},
        h("input", { type: "checkbox", checked: sel, onchange: () => toggle(i), "aria-label": c.path }),
        h("span", { class: "swatch", style: color ? `background:${color}` : "" }),
        h("span", { class: "path" }, breakable(label)))
        : h("span", { class: "path", onclick: () => showRow(c.path) }, breakable(label)));
  });
  ul.replaceChildren(...items);
  $("counter-count").textContent = shown.length === view.counters.length
    ? `${fmtInt(view.counters.length)} counters` : `${fmtInt(shown.length)} of ${fmtInt(view.counters.length)} counters`;
  $("counter-count").dataset.shown = String(shown.length);
}

// showRow scrolls the table to a counter's row and marks it (captures: the list does not chart).
function showRow(path) {
  for (const tr of document.querySelectorAll("#values tbody tr.marked")) tr.classList.remove("marked");
  const tr = [...document.querySelectorAll("#values tbody tr[data-path]")].find((r) => r.dataset.path === path);
  if (!tr) return;
  tr.classList.add("marked");
  tr.scrollIntoView({ block: "center" });
}

function renderTable() {
  const t = $("values");
  const blg = view.kind === "blg";
  const multi = view.machines.length > 1;
  const rows = [];
  view.counters.forEach((c, i) => {
    if (!matches(c)) return;
    const label = multi ? c.path : splitPath(c.path).rest;
    const color = colorOf(i);
    const unit = unitOf(c.type);
    if (blg) {
      const s = c.stats;
      const num = (v, cls = "num") => h("td", { class: cls, title: v === null ? null : exact(v) }, fmt(v));
      rows.push(h("tr", {
        "data-path": c.path, "data-type": typeName(c.type), "data-count": s.count, "data-skipped": s.skipped,
        "data-min": exact(s.min), "data-max": exact(s.max), "data-mean": exact(s.mean), "data-mean-status": s.meanStatus,
        "data-last": exact(c.last), "data-last-status": c.lastStatus, class: color ? "selected" : "", onclick: () => toggle(i),
      },
      h("td", { class: "path", title: `${c.path}\n${typeName(c.type)}` }, h("div", { class: "cell" }, h("span", { class: "swatch", style: color ? `background:${color}` : "" }), h("span", {}, breakable(label)))),
      h("td", { class: "unit" }, unit),
      c.last === null ? h("td", { class: "num status", title: "no value: " + c.lastStatus }, statusText(c.lastStatus)) : num(c.last),
      num(s.min), num(s.max),
      s.mean === null ? h("td", { class: "num status", title: "no mean: " + s.meanStatus }, statusText(s.meanStatus)) : num(s.mean),
      h("td", { class: "num" }, fmtInt(s.count)), h("td", { class: "num dim" }, fmtInt(s.skipped))));
    } else {
      rows.push(h("tr", { "data-path": c.path, "data-type": typeName(c.type), "data-value": exact(c.value), "data-status": c.status },
        h("td", { class: "path", title: c.path }, breakable(label)),
        h("td", { class: "unit" }, unit),
        h("td", { class: "num", title: c.value === null ? null : exact(c.value) }, c.value === null ? "" : fmt(c.value)),
        h("td", { class: c.status === "Valid" ? "dim" : "status" }, c.status),
        h("td", { class: "type dim" }, typeName(c.type))));
    }
  });
  const head = blg
    ? ["Counter", "Unit", "Last", "Min", "Max", "Mean", "Values", "Skipped"]
    : ["Counter", "Unit", "Value", "Status", "Type"];
  const numeric = blg ? [2, 3, 4, 5, 6, 7] : [2];
  const titles = blg ? {
    Last: "the value at the last sample that has this counter",
    Mean: "a rate, timer or average: its value from the first to the last good sample (PdhComputeCounterStatistics); other counters: the mean of their values",
    Values: "number of valid values", Skipped: "samples without a valid value (no value yet, bad data, instance absent)",
  } : { Status: "Valid, or why there is no value" };
  t.replaceChildren(
    h("thead", {}, h("tr", {}, head.map((x, k) => h("th", { class: numeric.includes(k) ? "num" : "", title: titles[x] }, x)))),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: head.length, class: "empty" }, "No counter matches the search."))));
  $("table-title").textContent = blg ? "Statistics of each counter" : view.kind === "pair" ? "Values over the interval" : "Values of the capture";
  $("table-hint").textContent = blg
    ? "Click a row or tick a counter to chart it. Hover a number for its exact value."
    : view.kind === "pair"
      ? "Two captures give one interval, so one value per counter: there is no chart. Hover a number for its exact value."
      : "One capture is a first sample: there is no chart.";
}

// ---------------------------------------------------------------- the chart

function niceStep(span, count) {
  const raw = span / count;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
}

function timeTicks(t0, t1, width) {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800].map((s) => s * 1000);
  const want = Math.max(2, Math.floor(width / 110));
  const step = steps.find((s) => (t1 - t0) / s <= want) ?? steps[steps.length - 1];
  const ticks = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) ticks.push(t);
  return { ticks, step };
}

function renderChart() {
  const box = $("chart");
  const sel = [...view.selected];
  const hint = $("chart-hint");
  $("legend").replaceChildren(...sel.map((i) => {
    const c = view.counters[i];
    return h("li", { "data-path": c.path }, h("span", { class: "swatch", style: `background:${colorOf(i)}` }),
      h("span", { class: "path" }, view.machines.length > 1 ? c.path : splitPath(c.path).rest), unitOf(c.type) && h("span", { class: "dim" }, ` (${unitOf(c.type)})`),
      h("button", { type: "button", class: "remove", title: "Remove from the chart", "aria-label": `Remove ${c.path} from the chart`, onclick: () => toggle(i) }, "×"));
  }));
  const times = view.times.map(fileTimeMs);
  const norm = $("normalize").checked;
  hint.textContent = sel.length === 0
    ? "Tick counters in the list (or click rows of the table) to chart them."
    : norm ? "Each counter is drawn between its own minimum (0 %) and maximum (100 %)." : `Times are the log's local time (${utcOffset(view.bias)}).`;
  chartWidth = box.clientWidth;
  const W = Math.max(360, box.clientWidth || 800), H = 300;
  const M = { l: 70, r: 16, t: 12, b: 34 };
  const iw = W - M.l - M.r, ih = H - M.t - M.b;
  let t0 = times[0], t1 = times[times.length - 1];
  if (t1 === t0) { t0 -= 1000; t1 += 1000; }
  let lo = Infinity, hi = -Infinity;
  const ranges = new Map();
  for (const i of sel) {
    let a = Infinity, b = -Infinity;
    for (const v of view.counters[i].values) if (v !== null) { if (v < a) a = v; if (v > b) b = v; }
    ranges.set(i, [a, b]);
    if (a < lo) lo = a;
    if (b > hi) hi = b;
  }
  const spans = [...ranges.values()].filter(([a, b]) => a <= b).map(([a, b]) => Math.max(Math.abs(a), Math.abs(b))).filter((x) => x > 0);
  if (!norm && spans.length > 1 && Math.max(...spans) > 50 * Math.min(...spans)) {
    hint.textContent = "These counters differ in size by more than 50 times: tick “Scale each counter to its own range” to see the small ones.";
  }
  if (norm) { lo = 0; hi = 100; }
  if (!(lo <= hi)) { lo = 0; hi = 1; }
  if (lo > 0) lo = 0;
  if (hi === lo) hi = lo + 1;
  const step = niceStep(hi - lo, 5);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const x = (t) => M.l + ((t - t0) / (t1 - t0)) * iw;
  const y = (v) => M.t + ih - ((v - lo) / (hi - lo)) * ih;
  const svg = h("svg:svg", {
    width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "Line chart of the selected counters over time",
    "data-times": JSON.stringify(view.times.map(isoTime)),
  });
  // Grid and axes.
  const grid = h("svg:g", { class: "grid" });
  for (let v = lo; v <= hi + step / 2; v += step) {
    const yy = y(v);
    grid.append(h("svg:line", { x1: M.l, x2: M.l + iw, y1: yy, y2: yy }),
      h("svg:text", { x: M.l - 8, y: yy + 4, class: "ylabel" }, norm ? `${Math.round(v)} %` : fmt(Number(v.toPrecision(12)))));
  }
  const { ticks, step: tstep } = timeTicks(t0, t1, iw);
  const multiDay = new Date(t0).getUTCDate() !== new Date(t1).getUTCDate();
  for (const t of ticks) {
    const d = new Date(t);
    const label = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${tstep < 60000 ? ":" + pad(d.getUTCSeconds()) : ""}`;
    grid.append(h("svg:line", { x1: x(t), x2: x(t), y1: M.t, y2: M.t + ih, class: "vgrid" }),
      h("svg:text", { x: x(t), y: M.t + ih + 16, class: "xlabel" }, label),
      multiDay && (d.getUTCHours() === 0 && d.getUTCMinutes() === 0 || t === ticks[0])
        ? h("svg:text", { x: x(t), y: M.t + ih + 29, class: "xlabel sub" }, `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`) : null);
  }
  grid.append(h("svg:rect", { x: M.l, y: M.t, width: iw, height: ih, class: "frame" }));
  svg.append(grid);
  // Series: lines broken where there is no value; dots when the points are few.
  const few = times.length <= 80;
  for (const i of sel) {
    const c = view.counters[i];
    const [a, b] = ranges.get(i);
    const yv = norm ? (v) => y(b > a ? ((v - a) / (b - a)) * 100 : 50) : y;
    let d = "", open = false;
    const dots = [];
    c.values.forEach((v, k) => {
      if (v === null) { open = false; return; }
      const px = x(times[k]).toFixed(1), py = yv(v).toFixed(1);
      d += `${open ? "L" : "M"}${px},${py}`;
      const isolated = !open && (k + 1 >= c.values.length || c.values[k + 1] === null);
      if (few || isolated) dots.push(h("svg:circle", { cx: px, cy: py, r: few ? 2.5 : 2, fill: colorOf(i) }));
      open = true;
    });
    svg.append(h("svg:path", { class: "series", d, stroke: colorOf(i), "data-path": c.path, "data-values": JSON.stringify(c.values.map((v) => (v === null ? null : exact(v)))) }), ...dots);
  }
  // Hover: a cursor and the values at the nearest sample.
  const cursor = h("svg:line", { class: "cursor", y1: M.t, y2: M.t + ih, visibility: "hidden" });
  const overlay = h("svg:rect", { x: M.l, y: M.t, width: iw, height: ih, class: "overlay" });
  svg.append(cursor, overlay);
  const tip = h("div", { class: "tip", hidden: true });
  overlay.addEventListener("mousemove", (e) => {
    if (sel.length === 0) return;
    const r = svg.getBoundingClientRect();
    const t = t0 + ((e.clientX - r.left - M.l) / iw) * (t1 - t0);
    let k = 0;
    for (let j = 1; j < times.length; j++) if (Math.abs(times[j] - t) < Math.abs(times[k] - t)) k = j;
    cursor.setAttribute("x1", x(times[k]));
    cursor.setAttribute("x2", x(times[k]));
    cursor.setAttribute("visibility", "visible");
    tip.replaceChildren(h("div", { class: "tip-time" }, showTime(view.times[k])),
      ...sel.map((i) => {
        const v = view.counters[i].values[k];
        return h("div", {}, h("span", { class: "swatch", style: `background:${colorOf(i)}` }),
          h("span", { class: "tip-val" }, v === null ? "no value" : fmt(v)), " ", splitPath(view.counters[i].path).rest);
      }));
    tip.hidden = false;
    const px = x(times[k]);
    tip.style.left = `${px + 12 + 340 > W ? Math.max(0, px - 352) : px + 12}px`;
    tip.style.top = `${M.t + 4}px`;
  });
  overlay.addEventListener("mouseleave", () => { cursor.setAttribute("visibility", "hidden"); tip.hidden = true; });
  box.replaceChildren(svg, tip);
}

// ---------------------------------------------------------------- wiring

function wire() {
  const input = $("files"), drop = $("drop");
  input.addEventListener("change", () => { openFiles(input.files); input.value = ""; });
  for (const ev of ["dragenter", "dragover"]) {
    document.addEventListener(ev, (e) => { e.preventDefault(); drop.classList.add("over"); });
  }
  // dragleave fires at every child; relatedTarget is null only when the drag leaves the window.
  document.addEventListener("dragleave", (e) => { if (!e.relatedTarget) drop.classList.remove("over"); });
  document.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); });
  document.addEventListener("drop", (e) => { if (e.dataTransfer?.files?.length) openFiles(e.dataTransfer.files); });
  $("search").addEventListener("input", () => { if (view) { renderList(); renderTable(); } });
  $("clear-selection").addEventListener("click", () => { if (view?.kind === "blg") { view.selected.clear(); renderList(); renderTable(); renderChart(); } });
  $("normalize").addEventListener("change", () => { if (view?.kind === "blg") renderChart(); });
  let pending = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(pending);
    // Only a change of the chart's width needs a new drawing (a taller window does not).
    pending = requestAnimationFrame(() => { if (view?.kind === "blg" && $("chart").clientWidth !== chartWidth) renderChart(); });
  });
  window.addEventListener("error", (e) => fail("Something went wrong in the viewer", e.error ?? e.message));
  window.addEventListener("unhandledrejection", (e) => fail("Something went wrong in the viewer", e.reason));
}

wire();
try {
  pc = await load();
  $("module-status").textContent = "Ready: the perfcalc module is loaded in this page.";
  $("module-status").classList.add("ok");
  setState("ready");
} catch (err) {
  $("module-status").textContent = "";
  fail("The perfcalc module could not be loaded", err);
}
