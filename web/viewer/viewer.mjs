// The perfcalc viewer's page: opens a perfmon log (.blg), or one or two V1
// or V2 captures with their tables, with perfcalc's WebAssembly module in
// Web Workers (the page never blocks: a large log decodes in the
// background, and Cancel stops it), and shows the machine, the time range,
// the counters as a tree, a chart of the selected ones, a table of values
// and relog's CSV of what the chart shows. Nothing leaves the page.
//
// The modules: model.mjs (what is open and shown, pure), format.mjs
// (text), tree.mjs, table.mjs and chart.mjs (the views), analysisview.mjs
// and analysis.mjs (a log's Analysis view, perfcalc analyze), worker.mjs
// (the worker's methods); this file wires them to the page.
//
// Exact values are in data attributes (JavaScript's shortest round-trip
// text, "" where there is no value), for tests and for copying:
//   table rows  tr[data-index][data-path]: data-type and, for a log,
//               data-count, data-skipped, data-min, data-max, data-mean,
//               data-mean-status (PDH's mean), data-valid-mean,
//               data-invalid, data-p90, data-p95, data-p99 (not PDH's:
//               perfcalc stats --valid --percentiles)
//               (data-stats="pending" until computed); for
//               captures, data-value, data-status
//   chart       see chart.mjs
//   #app        data-state: loading, ready, busy, loaded, error; data-kind:
//               blg, pair, single; data-stats: pending, ready, cancelled;
//               data-series: pending, ready; data-series-parts: the parts
//               the last charted counters were read in (pool.mjs);
//               data-tab: counters, analysis;
//               data-zoom: the zoomed range (ISO local times "from/to"),
//               absent for the whole log
//   summary     #zoom-range[data-begin][data-end] (relog -b and -e's times)
//   export      #export-status[data-parts]: the parts the last CSV was read in
//   analysis    see analysisview.mjs

import { ANALYZE_MODULE, moduleURLs } from "../perfcalc.mjs";
import { compactFromCounterLang } from "../names.mjs";
import { createPool, createWorker } from "../worker.mjs";
import { viewerWorker } from "./pool.mjs";
import { drawChart } from "./chart.mjs";
import { AnalysisView } from "./analysisview.mjs";
import { $, breakable, h } from "./dom.mjs";
import { duration, exact, fileTimeMs, fmt, fmtBytes, fmtInt, fmtShort, isoMs, isoTime, relogTimeText, showTime, statusWords, typeName, unitFor, utcOffset } from "./format.mjs";
import { CounterTree, MAX_SELECTED, Selection, alignSeries, blgName, classifyFiles, csvName, defaultSelection, hintFor, orderCaptures, parseIds, rangeOptions, samplesIn, statsByColumn } from "./model.mjs";
import { VirtualTable } from "./table.mjs";
import { TreeView } from "./tree.mjs";

const app = $("app");
const WORKER_SCRIPT = new URL("./worker.mjs", import.meta.url);

let work = null; // the worker of interactive calls (columns, series, captures, CSV)
let background = null; // the worker of a log's statistics, so that charting does not wait for them
let view = null; // what is open (openLog, openCaptures)
let gen = 0; // the open's generation: results of an older one are dropped
let jobs = new Map(); // running jobs: id → text
let jobSeq = 0;
let abort = new AbortController(); // aborts every call of the open
let tree = null, table = null;
let analysis = null; // the Analysis view
let names = null; // the compact form of the names file loaded (English names), or null

// translation returns the translate option of a log's calls: the names
// file's compact form while "English names" is checked (the module
// translates, as perfcalc --names-lang en), else nothing.
function translation() {
  return names !== null && $("english-names").checked ? { name: names.file, data: names.text } : undefined;
}

// ---------------------------------------------------------------- state, progress and messages

function setState(s) { app.dataset.state = s; }

/** Runs a job of the open (gen) with a progress text; the page is busy until every job ends. */
async function job(text, fn) {
  const id = ++jobSeq, g = gen;
  jobs.set(id, { text, start: performance.now() });
  showProgress();
  try {
    return await fn(abort.signal);
  } finally {
    if (g === gen) {
      jobs.delete(id);
      showProgress();
    }
  }
}

let ticker = 0;
function showProgress() {
  const p = $("progress");
  if (jobs.size === 0) {
    p.hidden = true;
    clearInterval(ticker);
    ticker = 0;
    if (app.dataset.state === "busy") setState(view ? "loaded" : "ready");
    return;
  }
  setState("busy");
  const first = [...jobs.values()][0];
  $("progress-text").textContent = [...jobs.values()].map((j) => j.text).join(" · ");
  const tick = () => { $("progress-time").textContent = `${((performance.now() - first.start) / 1000).toFixed(1)} s`; };
  tick();
  if (!ticker) ticker = setInterval(tick, 200);
  p.hidden = false;
}

function showMessage(kind, title, text, hint = "") {
  const m = $("message");
  m.className = "message " + kind;
  m.replaceChildren(h("strong", {}, title), text ? h("span", { class: "message-text" }, text) : "", hint ? h("span", { class: "message-hint" }, hint) : "");
  m.hidden = false;
}

function clearMessage() { $("message").hidden = true; }

const isAbort = (err) => err?.name === "AbortError";

/** Drops what is open and shows an error (or nothing more for a cancelled open). */
function fail(title, err, hint = "") {
  if (isAbort(err)) return;
  if (err && err.name === "PerfcalcError") console.warn(err); // the file's fault, shown on the page
  else console.error(err);
  newOpen();
  view = null;
  for (const id of ["summary", "view", "v2-panel", "tabs", "analysis"]) $(id).hidden = true;
  $("intro").hidden = false;
  delete app.dataset.kind;
  showMessage("error", title, err instanceof Error ? err.message : String(err), hint);
  setState("error");
}

/** Starts a new open: what runs for the previous one is cancelled and its results dropped. */
function newOpen() {
  abort.abort();
  abort = new AbortController();
  gen++;
  jobs = new Map();
  showProgress();
}

/** Cancel: stops the workers (their calls end at once) and keeps what is already shown. */
function cancel() {
  const what = [...jobs.values()].map((j) => j.text.replace(/…$/, "")).join(", ");
  newOpen();
  if (view?.kind === "blg") {
    if (!view.stats) { app.dataset.stats = "cancelled"; table.changedAll(); renderTableHead(); }
    if (app.dataset.series === "pending") app.dataset.series = "cancelled";
  }
  analysis?.cancelled();
  setState(view ? "loaded" : "ready");
  if (!view) {
    for (const id of ["summary", "view", "v2-panel", "tabs", "analysis"]) $(id).hidden = true;
    $("intro").hidden = false;
  }
  showMessage("info", "Cancelled.", what ? `Stopped: ${what}.` : "", view?.kind === "blg" && !view.stats ? "The statistics can be computed again with the button above the table." : "");
}

// ---------------------------------------------------------------- opening files

async function openFiles(fileList) {
  const files = Array.from(fileList);
  if (files.length === 0) return;
  if (!work) return fail("The perfcalc module is not loaded", "Reload the page; the message above says why it failed.");
  newOpen();
  clearMessage();
  const what = files.map((f) => f.name).join(", ");
  let plan;
  // One job for the whole open, so that the page is busy from the first
  // step to the last (the jobs it starts, a log's chart and statistics,
  // keep it busy after).
  await job(`Opening ${what}…`, async (signal) => {
    try {
      const kinds = await Promise.all(files.map((f) => work.call("kind", [f.size <= 1 << 20 ? f : f.slice(0, 1 << 16)], { signal })));
      const named = files.map((f, i) => ({ name: f.name, file: f, kind: kinds[i] ?? (/\.multisz$/i.test(f.name) ? "names" : null) }));
      plan = classifyFiles(named, view?.source ?? null);
      if (plan.error) throw new Error(plan.error);
    } catch (err) {
      return fail(`Could not open ${what}`, err);
    }
    try {
      if (plan.open === "blg") await openLog(plan.log);
      else await openCaptures(plan);
    } catch (err) {
      fail(`Could not open ${what}`, err, hintFor(err, plan.open));
    }
  });
}

// ---------------------------------------------------------------- a .blg log

async function openLog(f) {
  const g = gen;
  // The pairing of instances chosen where the log is opened (--identity).
  const identity = $("identity").value === "pid" ? "pid" : "pdh";
  const ref = work.keep(f.file), bgRef = background.keep(f.file);
  const translate = translation();
  const cols = await job("Listing the log's counters…", (signal) => work.columns(ref, { signal, identity, translate }));
  if (g !== gen) return;
  if (cols.samples === 0) throw new Error(cols.damage ? `The log holds no sample before its damage: ${cols.damage}` : "The log holds no sample.");
  const paths = cols.columns.map((c) => c.path);
  const t = new CounterTree(paths, cols.columns.map((c) => c.parts));
  view = {
    kind: "blg", source: { open: "blg" }, file: f.name, size: f.file.size, ref, bgRef, cols, tree: t, opened: f, translate,
    selection: new Selection(defaultSelection(paths)), stats: null, series: new Map(), damage: cols.damage,
    range: null, statsSeq: 0, identity, blob: f.file,
  };
  app.dataset.identity = identity;
  delete app.dataset.identityBreaks;
  delete app.dataset.zoom;
  app.dataset.stats = "pending";
  render();
  if (cols.damage) showDamage(cols.damage);
  if (cols.namesUnknown?.length) showMessage("info", `${fmtInt(cols.namesUnknown.length)} name${cols.namesUnknown.length > 1 ? "s" : ""} not translated (kept as ${cols.namesUnknown.length > 1 ? "they are" : "it is"})`, cols.namesUnknown.join("; "), "The names file does not know them (perfcalc --names-lang lists the same).");
  loadSeries();
  loadStats();
}

/** Shows, by process ID, the identity breaks the log held (perfcalc's note). */
function showBreaks(n) {
  app.dataset.identityBreaks = String(n);
  if (n === 0) return;
  showMessage("info", `${fmtInt(n)} identity break${n === 1 ? "" : "s"}: processes paired by process ID.`,
    `${n === 1 ? "An instance name" : `${fmtInt(n)} instance names`} (as chrome#2) named another process than in the sample before: by name, PDH computes a value between the two processes.`,
    "Each process is its own series, name:pid (perfcalc --identity pid).");
}

function showDamage(text) {
  showMessage("warning", "The log is damaged after its start: the samples before the damage are shown.", text,
    "perfcalc relog and stats report the same damage (and exit with status 1).");
}

/** Computes the statistics of every counter in the background worker. */
async function loadStats() {
  const g = gen, v = view, seq = ++v.statsSeq;
  app.dataset.stats = "pending";
  v.stats = null;
  renderTableHead();
  table.changedAll();
  try {
    // Shown within the job: the page is not done before the table is.
    await job(v.range ? "Computing the statistics of the zoomed range…" : "Computing the statistics of every counter…", async (signal) => {
      // The zoomed range (none: the whole log), as relog -b and -e select it,
      // with the figures that are not PDH's: the valid values' mean, the
      // invalid samples and the percentiles (perfcalc stats --valid
      // --percentiles).
      const st = await background.stats(v.bgRef, { ...rangeOptions(v.range), signal, percentiles: true, identity: v.identity, translate: v.translate });
      if (g !== gen || seq !== v.statsSeq) return;
      if (st.identityBreaks !== undefined && !v.range) showBreaks(st.identityBreaks);
      // By column: a range's statistics cover the columns of its samples only.
      v.stats = v.range ? statsByColumn(st.stats, v.tree.paths) : st.stats;
      app.dataset.stats = "ready";
      renderTableHead();
      table.changedAll();
    });
  } catch (err) {
    if (g === gen) fail("Could not compute the statistics", err, hintFor(err, "blg"));
  }
}

let seriesQueue = Promise.resolve();
/** Decodes the selected counters not decoded yet, then draws the chart. */
function loadSeries() {
  const g = gen, v = view;
  app.dataset.series = "pending";
  // One decode at a time, in the order of the changes; the job starts now,
  // so that the page is busy until the chart is drawn.
  const step = seriesQueue.then(async () => {
    if (g !== gen) return;
    const missing = v.selection.items.filter((i) => !v.series.has(i));
    if (missing.length > 0) {
      const r = await work.call("series", [v.ref, missing.map((i) => v.tree.paths[i]), undefined, v.identity, v.translate], { signal: abort.signal });
      if (g !== gen) return;
      app.dataset.seriesParts = String(r.parts ?? 1);
      missing.forEach((i, k) => v.series.set(i, r.series[k]));
    }
    app.dataset.series = "ready";
    renderChart();
  });
  seriesQueue = step.catch(() => {});
  job("Decoding the charted counters…", () => step).catch((err) => {
    if (g === gen) fail("Could not decode the counters for the chart", err, hintFor(err, "blg"));
  });
}

// ---------------------------------------------------------------- captures

async function openCaptures(plan) {
  const g = gen;
  const v2 = plan.open === "v2";
  const opts = { signal: abort.signal };
  const refs = new Map(); // the files' bytes, kept in the worker once
  const ref = (f) => { if (!refs.has(f.file)) refs.set(f.file, work.keep(f.file)); return refs.get(f.file); };
  const base = v2 ? await v2Tables(plan, ref) : { names: plan.names ? ref(plan.names) : undefined };
  if (g !== gen) return;
  const times = await job("Reading the captures' time stamps…", () => Promise.all(plan.captures.map((c) => work.call("captureTime", [ref(c), base], opts))));
  if (g !== gen) return;
  let caps = orderCaptures(plan.captures.map((c, i) => ({ ...c, time: times[i] })));
  if (plan.swap) caps = caps.reverse();
  const newer = caps[caps.length - 1], older = caps.length === 2 ? caps[0] : null;
  const query = { ...base, tableNames: undefined, older: older ? ref(older) : undefined };
  const run = async (name) => {
    try {
      return await work.query(ref(newer), { ...query, ...opts });
    } catch (err) {
      if (err.name === "PerfcalcError" && err.kind !== "Input") err.message = `${name}: ${err.message}`;
      throw err;
    }
  };
  const values = await job("Computing every counter between the captures…", () => run(older ? `${older.name} → ${newer.name}` : newer.name));
  if (g !== gen) return;
  const t = new CounterTree(values.map((x) => x.path), values.map((x) => x.parts));
  view = {
    kind: older ? "pair" : "single", v2, source: plan, tree: t, values, names: plan.names?.name ?? null, tables: base.tableNames,
    newer: { name: newer.name, time: newer.time }, older: older ? { name: older.name, time: older.time } : null,
    query: { newer: ref(newer), opts: query }, file: newer.name, // relog's CSV: query() with format "csv"
    selection: new Selection(), marked: -1,
  };
  render();
}

/**
 * The registration and counter names of V2 captures, from the files that
 * came with them: the first order in which the module reads the captures
 * with them (registration first, then the names) wins.
 */
async function v2Tables(plan, ref) {
  const extra = { counterSet: $("v2-counterset").value.trim() || undefined };
  try {
    extra.ids = parseIds($("v2-ids").value);
  } catch (err) {
    throw new Error(`Counter ids: ${err.message}`);
  }
  if (extra.ids.length === 0) delete extra.ids;
  const [a, b] = plan.tables;
  const orders = b ? [[a, b], [b, a]] : [[a, null]];
  let first = null;
  for (const [reg, strs] of orders) {
    const t = { ...extra, regInfo: ref(reg), strings: strs ? ref(strs) : undefined, tableNames: { reg: reg.name, strings: strs?.name ?? null } };
    try {
      await job("Reading the V2 captures' tables…", (signal) => work.query(ref(plan.captures[0]), { ...t, tableNames: undefined, signal }));
      return t;
    } catch (err) {
      if (isAbort(err)) throw err;
      first ??= err;
    }
  }
  throw first;
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
  $("save-blg").hidden = !blg;
  $("export").hidden = false;
  $("export-status").hidden = true;
  $("v2-panel").hidden = !view.v2;
  $("swap").hidden = !view.older;
  $("tabs").hidden = !blg;
  analysis?.reset();
  showTab("counters");
  tree = new TreeView($("tree"), { checkable: blg, onToggle: toggle, onPick: pick });
  tree.setTree(view.tree, view.selection);
  table?.destroy();
  $("table-wrap").scrollTop = 0;
  table = new VirtualTable($("table-wrap"), $("values"), blg ? {
    columns: [
      { title: "Counter", width: "path" }, { title: "Unit", width: "unit" }, { title: "Min", num: true }, { title: "Max", num: true },
      { title: "PDH mean", num: true, width: "mean", hint: "PDH's mean (PdhComputeCounterStatistics, perfmon's Average): a rate, timer or average, its value from the first to the last good sample (one bad sample there spoils it: NegativeValue); other counters, the mean of their values" },
      { title: "Valid mean", num: true, hint: "the mean of the valid values (not PDH's; perfcalc stats --valid)" },
      { title: "Values", num: true, width: "count", hint: "number of valid values" },
      { title: "Skipped", num: true, width: "count", hint: "samples without a valid value (no value yet, bad data, instance absent)" },
      { title: "Invalid", num: true, width: "count", hint: "samples with a bad status, instance absent included (not PDH's; one bad sample skips two values of a rate)" },
      { title: "P90", num: true, hint: "90th percentile of the valid values: 90 % are at most this (nearest rank; perfcalc stats --percentiles)" },
      { title: "P95", num: true, hint: "95th percentile of the valid values (nearest rank)" },
      { title: "P99", num: true, hint: "99th percentile of the valid values (nearest rank)" },
    ], row: logRow,
  } : {
    columns: [{ title: "Counter", width: "path" }, { title: "Unit", width: "unit" }, { title: "Value", num: true },
      { title: "Status", width: "status", hint: "Valid, or why there is no value" }, { title: "Type" }],
    row: captureRow,
  });
  search();
  renderTableHead();
  if (blg) renderChart();
}

function renderSummary() {
  const items = [];
  const item = (k, ...v) => items.push(h("div", { class: "item" }, h("dt", {}, k), h("dd", {}, ...v)));
  const machines = view.tree.machines;
  if (view.v2) item("Counter set", h("span", { id: "counterset" }, view.tree.parts[0]?.object ?? ""));
  else item(machines.length > 1 ? "Machines" : "Machine", h("span", { id: "machine" }, machines.length > 3 ? `${fmtInt(machines.length)} machines` : machines.join(", ") || "(unnamed)"));
  if (view.kind === "blg") {
    const c = view.cols, first = c.begin, last = c.end;
    const span = fileTimeMs(last) - fileTimeMs(first);
    item("File", view.file, h("span", { class: "sub" }, fmtBytes(view.size)));
    item("Time range", h("span", { id: "time-range", "data-begin": isoTime(first), "data-end": isoTime(last) }, `${showTime(first)} → ${showTime(last)}`),
      h("span", { class: "sub" }, `local time of the log, ${utcOffset(c.bias)} (${c.timeZone})`));
    item("Samples", h("span", { id: "samples", "data-samples": c.samples }, fmtInt(c.samples)), h("span", { class: "sub" },
      c.samples > 1 ? `over ${duration(span)}, every ${duration(span / (c.samples - 1))} on average` : "one sample: no value yet"));
    item("Counters", h("span", { id: "counters", "data-counters": c.columns.length }, fmtInt(c.columns.length)),
      h("span", { class: "sub" }, `${fmtInt(c.samples * c.columns.length)} values at most`));
    if (view.range) {
      const r = view.range;
      item("Zoomed to", h("span", { id: "zoom-range", "data-begin": isoMs(r.from), "data-end": isoMs(r.to) }, rangeText(r)),
        h("span", { class: "sub" }, `${duration(r.to - r.from)}: the chart, the statistics and the CSV are of this range (relog -b and -e) `,
          h("button", { type: "button", class: "link", onclick: () => setZoom(null) }, "Show the whole log")));
    }
  } else {
    const n = view.newer, o = view.older;
    item(o ? "Captures" : "Capture", o ? `${o.name} → ${n.name}` : n.name, h("span", { class: "sub" }, view.v2
      ? `V2, registration ${view.tables.reg}${view.tables.strings ? `, counter names ${view.tables.strings}` : ", no counter names: counters are named #id"}`
      : view.names ? `names from ${view.names}` : "no name table: objects and counters are named by their index (#238); add the Counter 009 table"));
    if (n.time !== null) {
      item("Time range", h("span", { id: "time-range", "data-begin": isoTime(o?.time ?? n.time), "data-end": isoTime(n.time) },
        o ? `${showTime(o.time)} → ${showTime(n.time)} UTC` : `${showTime(n.time)} UTC`),
      h("span", { class: "sub" }, o ? `one value per counter over ${duration(fileTimeMs(n.time) - fileTimeMs(o.time))}`
        : "one capture: counters that need two samples have no value yet (NewData); add the older capture"));
    }
    item("Counters", h("span", { id: "counters", "data-counters": view.values.length }, fmtInt(view.values.length)));
  }
  $("summary").replaceChildren(h("dl", {}, items));
  $("summary").hidden = false;
}

function renderTableHead() {
  if (!view) return;
  const blg = view.kind === "blg";
  $("table-title").textContent = blg ? "Statistics of each counter" : view.kind === "pair" ? "Values over the interval" : "Values of the capture";
  let hint;
  if (blg) {
    hint = app.dataset.stats === "pending" ? "Computing the statistics of every counter in the background; the chart and the tree answer meanwhile."
      : app.dataset.stats === "cancelled" ? "The statistics were not computed (cancelled)." : "Click a row or tick a counter to chart it. Hover a number for its exact value.";
    if (view.range) hint = `Of the zoomed range only, ${rangeText(view.range)} (as relog -b and -e select it). ${hint}`;
  } else {
    hint = view.kind === "pair" ? "Two captures give one interval, so one value per counter: there is no chart. Hover a number for its exact value."
      : "One capture is a first sample: there is no chart.";
  }
  $("table-hint").replaceChildren(hint, app.dataset.stats === "cancelled" && blg
    ? h("button", { type: "button", id: "compute-stats", class: "link", onclick: computeAgain }, " Compute them") : "");
}

/** After a Cancel: the statistics, and the chart if it was not drawn, again. */
function computeAgain() {
  clearMessage();
  if (app.dataset.series === "cancelled") loadSeries();
  loadStats();
}

/** A statistics table's number: short (fmtShort), its exact value in the title. */
const statCell = (v) => h("td", { class: "num", title: v === null ? null : exact(v) }, fmtShort(v));
const statusCell = (st, what) => h("td", { class: "num status", title: `${what}: ${st}` }, statusWords(st).flatMap((w, k) => (k ? [h("wbr"), w] : [w])));

/** Makes the table row of a log's column i. */
function logRow(i) {
  const v = view, path = v.tree.paths[i], type = v.cols.columns[i].type, s = v.stats?.[i], unit = unitFor(type, v.tree.parts[i].counter);
  const color = v.selection.colorOf(i);
  const attrs = { "data-index": i, "data-path": path, "data-type": typeName(type), "data-unit": unit, class: color ? "selected" : "", onclick: () => toggle(i) };
  // The label on up to two lines (the twelve columns fit 1360 px).
  const label = h("td", { class: "path", title: `${path}\n${typeName(type)}` }, h("span", { class: "clamp" },
    h("span", { class: "swatch", style: color ? `background:${color}` : "" }), breakable(v.tree.label(i))));
  if (!s) {
    const text = app.dataset.stats === "cancelled" ? "not computed" : app.dataset.stats === "ready" ? "not in the zoomed range" : "computing…";
    return h("tr", { ...attrs, "data-stats": app.dataset.stats === "ready" ? "absent" : "pending" }, label, h("td", { class: "unit" }, unit), h("td", { class: "num dim", colspan: 10 }, text));
  }
  return h("tr", {
    ...attrs, "data-count": s.count, "data-skipped": s.skipped, "data-min": exact(s.min), "data-max": exact(s.max),
    "data-mean": exact(s.mean), "data-mean-status": s.meanStatus, "data-valid-mean": exact(s.validMean), "data-invalid": s.invalid,
    "data-p90": exact(s.p90 ?? null), "data-p95": exact(s.p95 ?? null), "data-p99": exact(s.p99 ?? null),
  }, label, h("td", { class: "unit" }, unit), statCell(s.min), statCell(s.max),
  s.mean === null ? statusCell(s.meanStatus, "no mean") : statCell(s.mean), statCell(s.validMean),
  h("td", { class: "num" }, fmtInt(s.count)), h("td", { class: "num dim" }, fmtInt(s.skipped)),
  h("td", { class: s.invalid ? "num warn" : "num dim" }, fmtInt(s.invalid)),
  statCell(s.p90 ?? null), statCell(s.p95 ?? null), statCell(s.p99 ?? null));
}

/** Makes the table row of a capture's value i. */
function captureRow(i) {
  const c = view.values[i], value = c.status === "Valid" ? c.value : null;
  return h("tr", { "data-index": i, "data-path": c.path, "data-type": typeName(c.type), "data-unit": unitFor(c.type, view.tree.parts[i].counter), "data-value": exact(value), "data-status": c.status, class: view.marked === i ? "marked" : "" },
    h("td", { class: "path", title: c.path }, view.tree.label(i)),
    h("td", { class: "unit" }, unitFor(c.type, view.tree.parts[i].counter)),
    h("td", { class: "num", title: value === null ? null : exact(value) }, fmt(value)),
    h("td", { class: c.status === "Valid" ? "dim" : "status" }, c.status),
    h("td", { class: "type dim" }, typeName(c.type)));
}

/** Applies the search to the tree and the table (only what changes is redrawn). */
function search() {
  const m = view.tree.match($("search").value);
  tree.filter(m);
  table.setItems(view.tree.rankLeaves(CounterTree.indexes(m.mask), m.words));
  const total = view.tree.size;
  $("counter-count").textContent = m.count === total ? `${fmtInt(total)} counters` : `${fmtInt(m.count)} of ${fmtInt(total)} counters`;
  $("counter-count").dataset.shown = String(m.count);
}

/** Adds a counter to the chart or removes it. */
function toggle(i) {
  if (view?.kind !== "blg") return;
  if (!view.selection.toggle(i)) {
    tree.paintLeaf(i);
    showMessage("info", `The chart shows at most ${MAX_SELECTED} counters.`, "Clear one before adding another.");
    return;
  }
  afterSelection();
}

function afterSelection() {
  tree.paintSelection();
  table.changedAll();
  loadSeries();
}

/** Captures: a click in the tree shows the counter's row. */
function pick(i) {
  const before = view.marked;
  view.marked = i;
  table.changed([before, i]);
  table.reveal(i)?.classList.add("marked");
}

/** A zoomed range for people: 2013-02-19 18:52:00.000 → 18:55:00.000. */
function rangeText(r) {
  const a = isoMs(r.from).replace("T", " "), b = isoMs(r.to).replace("T", " ");
  return `${a} → ${a.slice(0, 10) === b.slice(0, 10) ? b.slice(11) : b}`;
}

/**
 * Zooms the chart to a time range {from, to} (whole ms, local time), or
 * back to the whole log (null): the summary shows it, the statistics are
 * computed again for it, and the CSV copied or saved is of it.
 */
function setZoom(range) {
  const v = view;
  if (v?.kind !== "blg") return;
  if (range && v.aligned && samplesIn(v.aligned.times, range).count < 2) {
    showMessage("info", "Too few samples to zoom to.", "Drag over a range of at least two samples.");
    return;
  }
  clearMessage();
  v.range = range;
  if (range) app.dataset.zoom = `${isoMs(range.from)}/${isoMs(range.to)}`;
  else delete app.dataset.zoom;
  $("zoom-reset").hidden = !range;
  $("export-status").hidden = true; // it named the range before
  renderSummary();
  renderChart();
  loadStats();
}

function renderChart() {
  const v = view, sel = v.selection.items.filter((i) => v.series.has(i));
  const waiting = v.selection.items.filter((i) => !v.series.has(i));
  $("zoom-reset").hidden = !v.range;
  if (sel.length === 0 && waiting.length > 0) {
    // The counters are decoding: say so, rather than an empty axis.
    $("chart").replaceChildren(h("div", { class: "chart-loading", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }),
      h("span", {}, `Decoding ${waiting.length === 1 ? "the charted counter" : `the ${waiting.length} charted counters`} from ${fmtBytes(v.size)} of log…`),
      h("span", { class: "dim" }, "A large log takes a few seconds; the tree and the table answer meanwhile.")));
    $("chart-hint").textContent = "";
    $("legend").replaceChildren(...waiting.map((i) => h("li", { "data-path": v.tree.paths[i], class: "pending" },
      h("span", { class: "swatch", style: `background:${v.selection.colorOf(i)}` }), h("span", { class: "path" }, v.tree.label(i)), h("span", { class: "dim" }, " (decoding…)"))));
    chartWidth = $("chart").clientWidth;
    return;
  }
  // The series on one axis, made again only when the charted counters change.
  const key = sel.join(",");
  if (v.aligned?.key !== key) v.aligned = { key, ...alignSeries(sel.map((i) => v.series.get(i))) };
  const aligned = v.aligned;
  const colors = sel.map((i) => v.selection.colorOf(i));
  const units = sel.map((i) => unitFor(v.cols.columns[i].type, v.tree.parts[i].counter));
  let hint = drawChart($("chart"), {
    aligned, colors, labels: sel.map((i) => v.tree.label(i)), types: sel.map((i) => v.cols.columns[i].type), units,
    normalize: $("normalize").checked, bias: v.cols.bias, span: v.range ? v.range : undefined, onZoom: setZoom,
  });
  if (sel.length > 0) {
    hint += v.range ? ` Zoomed: ${fmtInt(samplesIn(aligned.times, v.range).count)} of ${fmtInt(aligned.times.length)} samples; drag again to zoom further, or Reset (keys on the chart: + − ← → and 0).`
      : " Drag over a time range to zoom to it (or, on the chart, + and −, ← and →, 0 for the whole log).";
  }
  if (waiting.length > 0) hint += ` Decoding ${waiting.length} more counter${waiting.length > 1 ? "s" : ""}…`;
  $("chart-hint").textContent = hint;
  $("legend").replaceChildren(...sel.map((i, k) => {
    const type = v.cols.columns[i].type, path = v.tree.paths[i];
    return h("li", { "data-path": path }, h("span", { class: "swatch", style: `background:${colors[k]}` }),
      h("span", { class: "path" }, v.tree.label(i)), h("span", { class: "dim" }, ` (${unitFor(type, v.tree.parts[i].counter)})`),
      h("button", { type: "button", class: "remove", title: "Remove from the chart", "aria-label": `Remove ${path} from the chart`, onclick: () => toggle(i) }, "×"));
  }));
  chartWidth = $("chart").clientWidth;
}
let chartWidth = 0;

// ---------------------------------------------------------------- tabs: Counters and Analysis

/** Shows the tab "counters" or "analysis" (a log's Analysis view). */
function showTab(name) {
  const an = name === "analysis" && view?.kind === "blg";
  app.dataset.tab = an ? "analysis" : "counters";
  for (const [id, on] of [["tab-counters", !an], ["tab-analysis", an]]) {
    $(id).setAttribute("aria-selected", on ? "true" : "false");
    $(id).tabIndex = on ? 0 : -1;
  }
  $("view").hidden = !view || an;
  $("analysis").hidden = !an;
  if (!an && view?.kind === "blg" && $("chart").clientWidth !== chartWidth) renderChart();
  if (an) {
    analysis.open(); // the analyze module, the first time
    analysis.redraw();
  }
}

/** A log column's series for the Analysis view's chart (decoded once, kept with the chart's), or null. */
async function columnSeries(path) {
  const v = view, i = v?.tree.paths.indexOf(path) ?? -1;
  if (i < 0) return null;
  if (!v.series.has(i)) {
    const r = await job("Decoding the alert's counter…", (signal) => work.call("series", [v.ref, [path], undefined, v.identity, v.translate], { signal }));
    v.series.set(i, r.series[0]);
  }
  return v.series.get(i);
}

// ---------------------------------------------------------------- relog CSV

/**
 * relog's CSV of what is shown: a log's charted counters (with none, those
 * the search shows, or all), or the values of captures that the search
 * shows (perfcalc values -f csv).
 */
async function csv() {
  const v = view, digits = Number($("digits").value);
  const paths = shownPaths(v);
  const range = v.kind === "blg" ? v.range : null;
  const r = await job(`Writing relog's CSV (${digits} digits)…`, (signal) => v.kind === "blg"
    ? work.call("csv", [v.ref, paths, digits, { ...rangeOptions(range), identity: v.identity }, v.translate], { signal })
    : work.call("valuesCsv", [v.query.newer, v.query.opts, paths, digits], { signal }));
  const command = v.kind === "blg" ? `perfcalc relog -f csv${logFlags(v)}` : "perfcalc values -f csv";
  const status = $("export-status");
  status.textContent = `relog CSV of ${paths.length ? `${fmtInt(paths.length)} counter${paths.length > 1 ? "s" : ""}` : "every counter"}, ${digits} significant digits (as ${command} --digits ${digits}${paths.length ? " -c …" : ""}${range ? ` -b "${relogTimeText(range.from)}" -e "${relogTimeText(range.to)}"` : ""})` +
    (r.extra > 0 ? `; it also holds ${r.extra} counter${r.extra > 1 ? "s" : ""} whose paths the selected ones' match (a wildcard or a case difference in a name)` : "") + ".";
  status.dataset.parts = String(r.parts ?? 1);
  status.hidden = false;
  return { text: r.text, name: csvName(v.file, digits) };
}

// shownPaths returns the paths of what is shown: the charted counters,
// with none those the search shows, or none (all).
function shownPaths(v) {
  let items = v.selection.items;
  if (items.length === 0 && $("search").value.trim() !== "") items = CounterTree.indexes(v.tree.match($("search").value).mask);
  return items.map((i) => v.tree.paths[i]);
}

/**
 * logFlags returns the perfcalc flags of how a log view reads its log:
 * --identity pid, and --names-lang en with its names file.
 */
function logFlags(v) {
  return `${v.identity === "pid" ? " --identity pid" : ""}${v.translate ? ` --names-lang en --names-file ${v.translate.name}` : ""}`;
}

/**
 * Saves what the CSV holds, of a log, as a .blg log: the same counters
 * and zoomed range (relog -c, -b and -e), the raw values as read (perfcalc
 * relog -f bin).
 */
async function saveBlg() {
  try {
    const v = view;
    if (v?.kind !== "blg") return;
    const paths = shownPaths(v), range = v.range;
    const r = await job("Writing the .blg log…", (signal) => work.call("blg", [v.ref, paths, { ...rangeOptions(range), identity: v.identity }, v.translate], { signal }));
    const status = $("export-status");
    status.textContent = `.blg log of ${paths.length ? `${fmtInt(paths.length)} counter${paths.length > 1 ? "s" : ""}` : "every counter"}, ${fmtBytes(r.log.byteLength)} (as perfcalc relog -f bin${logFlags(v)}${paths.length ? " -c …" : ""}${range ? ` -b "${relogTimeText(range.from)}" -e "${relogTimeText(range.to)}"` : ""}).`;
    status.hidden = false;
    const url = URL.createObjectURL(new Blob([r.log], { type: "application/octet-stream" }));
    const a = h("a", { href: url, download: blgName(v.file), hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (err) {
    if (!isAbort(err)) showMessage("error", "Could not save the .blg log", err.message);
  }
}

async function copyCsv() {
  try {
    const { text } = await csv();
    await navigator.clipboard.writeText(text);
    $("export-status").append(` Copied (${fmtBytes(new Blob([text]).size)}).`);
  } catch (err) {
    if (!isAbort(err)) showMessage("error", "Could not copy the CSV", err.message);
  }
}

async function saveCsv() {
  try {
    const { text, name } = await csv();
    const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
    const a = h("a", { href: url, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (err) {
    if (!isAbort(err)) showMessage("error", "Could not save the CSV", err.message);
  }
}

// ---------------------------------------------------------------- wiring

function wire() {
  const input = $("files"), drop = $("drop");
  input.addEventListener("change", () => { openFiles(input.files); input.value = ""; });
  // Another pairing of processes opens the log again with it.
  $("identity").addEventListener("change", () => { if (view?.kind === "blg" && view.blob) openFiles([view.blob]); });
  // While the Analysis view shows, a drag highlights its threshold files' zone too.
  for (const ev of ["dragenter", "dragover"]) document.addEventListener(ev, (e) => { e.preventDefault(); (app.dataset.tab === "analysis" ? $("thr-drop") : drop).classList.add("over"); });
  // dragleave fires at every child; relatedTarget is null only when the drag leaves the window.
  document.addEventListener("dragleave", (e) => { if (!e.relatedTarget) { drop.classList.remove("over"); $("thr-drop").classList.remove("over"); } });
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    $("thr-drop").classList.remove("over");
    const files = e.dataTransfer?.files;
    if (!files?.length) return;
    // XML files dropped on the Analysis view are threshold files.
    if (app.dataset.tab === "analysis" && Array.from(files).every((f) => /\.xml$/i.test(f.name))) analysis.addFiles(files);
    else openFiles(files);
  });
  $("tab-counters").addEventListener("click", () => showTab("counters"));
  $("tab-analysis").addEventListener("click", () => showTab("analysis"));
  $("tabs").addEventListener("keydown", (e) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight" && e.key !== "Home" && e.key !== "End") return;
    e.preventDefault();
    const next = app.dataset.tab === "analysis" ? "counters" : "analysis";
    showTab(e.key === "Home" ? "counters" : e.key === "End" ? "analysis" : next);
    $(app.dataset.tab === "analysis" ? "tab-analysis" : "tab-counters").focus();
  });
  let pendingSearch = 0;
  $("search").addEventListener("input", () => {
    // One search per frame, however fast the typing.
    if (!view || pendingSearch) return;
    pendingSearch = requestAnimationFrame(() => { pendingSearch = 0; if (view) search(); });
  });
  $("cancel").addEventListener("click", cancel);
  $("clear-selection").addEventListener("click", () => { if (view?.kind === "blg") { view.selection.clear(); afterSelection(); } });
  $("normalize").addEventListener("change", () => { if (view?.kind === "blg") renderChart(); });
  // English names: the log opened again with the names file's translation.
  const reopenLog = () => { if (view?.kind === "blg") { const f = view.opened; newOpen(); clearMessage(); job(`Opening ${f.name}…`, () => openLog(f)).catch((err) => fail(`Could not open ${f.name}`, err, hintFor(err, "blg"))); } };
  $("english-names").addEventListener("change", reopenLog);
  $("names-file").addEventListener("change", async () => {
    const file = $("names-file").files[0];
    if (!file) return;
    try {
      const text = await file.text();
      names = { file: file.name, text: text.startsWith("perfcalc-names 1") ? text : compactFromCounterLang(text) };
      $("english-names").disabled = false;
      $("english-names").checked = true;
      $("names-source").textContent = `(from ${file.name}:`;
      reopenLog();
    } catch (err) {
      fail(`Could not read the names file ${file.name}`, err, "Give PAL's CounterLang.xml or the compact form that perfcalc names --compact writes.");
    }
  });
  $("zoom-reset").addEventListener("click", () => setZoom(null));
  $("copy-csv").addEventListener("click", copyCsv);
  $("save-csv").addEventListener("click", saveCsv);
  $("save-blg").addEventListener("click", saveBlg);
  const reopen = (swap) => {
    if (!view?.source?.captures) return;
    newOpen();
    clearMessage();
    const plan = { ...view.source, swap: swap ? !view.source.swap : view.source.swap };
    openCaptures(plan).catch((err) => fail("Could not open the captures", err, hintFor(err, plan.open)));
  };
  $("v2-apply").addEventListener("click", () => reopen(false));
  $("swap").addEventListener("click", () => reopen(true));
  let pending = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(pending);
    // Only a change of the chart's width needs a new drawing (a taller window does not).
    pending = requestAnimationFrame(() => {
      if (view?.kind === "blg" && !$("view").hidden && $("chart").clientWidth !== chartWidth) renderChart();
      table?.draw();
      analysis?.redraw();
    });
  });
  window.addEventListener("error", (e) => fail("Something went wrong in the viewer", e.error ?? e.message));
  window.addEventListener("unhandledrejection", (e) => fail("Something went wrong in the viewer", e.reason));
}

wire();
analysis = new AnalysisView({
  view: () => view, job, gen: () => gen, worker: () => background, series: columnSeries,
  // The analyze module, loaded when the Analysis view is first opened, for the worker that analyses.
  analyzeURLs: moduleURLs(ANALYZE_MODULE), loadAnalyzer: (source) => background.loadAnalyzer(source),
  typeOf: (path) => view?.cols?.columns[view.tree.paths.indexOf(path)]?.type ?? 0,
  message: (kind, title, text, hint) => { clearMessage(); showMessage(kind, title, text, hint); }, clear: clearMessage,
});
try {
  // The charted counters and the CSV are read by a pool of workers, a part
  // of the log each (pool.mjs): one per core, at most 4, and parts of at
  // least 4 MiB; the page's address may set both (?workers=3&part=65536:
  // the end-to-end test reads a small log in 3 parts).
  const params = new URLSearchParams(location.search);
  const count = (name, lo, hi) => { const n = Number(params.get(name)); return params.has(name) && Number.isInteger(n) && n >= lo && n <= hi ? n : null; };
  const pool = await createPool(undefined, { script: WORKER_SCRIPT, workers: count("workers", 1, 16) ?? Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2)) });
  const part = count("part", 65536, 2 ** 40);
  if (part !== null) pool._minPart = part; // PerfcalcPool's least part (MIN_PART_BYTES), for tests
  work = viewerWorker(pool);
  background = await createWorker(work.module, { script: WORKER_SCRIPT });
  $("module-status").textContent = "Ready: the perfcalc module runs in a worker of this page.";
  $("module-status").classList.add("ok");
  setState("ready");
} catch (err) {
  $("module-status").textContent = "";
  fail("The perfcalc module could not be loaded", err);
}
