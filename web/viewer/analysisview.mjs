// The Analysis view of an open log: perfcalc analyze in the analyze module
// (perfcalc-analyze.wasm, which the view loads when it is first opened, not
// with the page; in a worker, with Cancel like the other long work):
// perfcalc's default analyses or dropped PAL threshold files (with the files
// they inherit, their questions, the slice interval and PAL's numbers),
// then the counts of critical and warning alerts, the alerts in time order,
// per analysis its statistics, and what could not be evaluated. Clicking an
// alert charts its counter over the alert's slice and a little around it,
// with the analysis' warning and critical bands behind the line.
//
// Exact values are in data attributes, for tests:
//   #analysis         data-state: unloaded (the view not opened yet),
//                     loading (the analyze module), idle, running, done,
//                     error, cancelled, unavailable (the analyze module did
//                     not load: #analysis-unsupported says why)
//   #analysis-module  data-bytes (the analyze module's size), data-ms (its
//                     loading time); its text says both
//   #analysis-results data-alerts, data-critical, data-warning, data-analyses,
//                     data-unsupported
//   #alerts tr        data-index (in the report's alerts), data-condition,
//                     data-analysis, data-path, data-slice, data-start,
//                     data-end, data-min, data-avg, data-max, data-trend
//   #alert-chart      data-alert (the charted alert's index), data-source
//                     ("log": the counter's values decoded from the log,
//                     "report": the report's chart envelope); the SVG as
//                     chart.mjs draws it, bands as rect.band

import {
  alertBands, alertCounts, alertCountsByAnalysis, alertSource, alertWindow, alertsInTimeOrder, defaultRuns, describeThresholdFile, envelopeSeries,
  parseInterval, parseValues, questionsOf, windowSeries,
} from "./analysis.mjs";
import { ANALYZE_MODULE } from "../perfcalc.mjs";
import { drawChart } from "./chart.mjs";
import { $, breakable, h } from "./dom.mjs";
import { duration, exact, fmt, fmtInt, utcOffset } from "./format.mjs";
import { alignSeries, matchesWords, searchWords } from "./model.mjs";

/** Alerts listed at once; more are listed on request. */
const ALERT_PAGE = 500;
/** The charted counter's line. */
const LINE = "#1f6fb4";

/** Local time ms (the series' clock) as 2007-08-14 15:40:38. */
function localText(ms, withDate = true) {
  const d = new Date(ms), p = (n) => String(n).padStart(2, "0");
  const time = `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
  return withDate ? `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${time}` : time;
}

/** Text of HTML that a report's description holds (shown as text: a dropped file's markup never runs). */
function plainText(html) {
  const doc = new DOMParser().parseFromString(`<body>${html}`, "text/html");
  for (const p of doc.body.querySelectorAll("p, br, li")) p.append("\n");
  return doc.body.textContent.replace(/\n{2,}/g, "\n").trim();
}

/**
 * The view. ctx gives the page's parts: view() (what is open), job(text,
 * fn) (a job with progress and Cancel), gen() (the open's generation),
 * worker() (the worker that runs the analysis), series(path) (a log
 * column's series, decoded; null when the log has no such column),
 * typeOf(path) (a log column's counter type),
 * loadAnalyzer(source) (compiles the analyze module from source, a
 * Response, for the worker), analyzeURLs (where the analyze module may be, in order),
 * message(kind, title, text, hint) and clear() (the page's message).
 */
export class AnalysisView {
  constructor(ctx) {
    this.ctx = ctx;
    this.files = []; // dropped threshold files: {name, bytes, questions, inherits, run}
    this.report = null;
    this.alerts = [];
    this.shown = ALERT_PAGE;
    this.charted = -1;
    this.module = "none"; // the analyze module: none, loading, ready, failed
    this.wire();
    this.reset();
  }

  /** Whether the analyze module is loaded: the view's controls work. */
  ready() { return this.module === "ready"; }

  root() { return $("analysis"); }
  setState(s) { this.root().dataset.state = s; }

  /** A new log: nothing run yet (the threshold files and options stay). */
  reset() {
    this.report = null;
    this.alerts = [];
    this.charted = -1;
    $("analysis-results").hidden = true;
    this.setState({ none: "unloaded", loading: "loading", ready: "idle", failed: "unavailable" }[this.module]);
    this.enable();
  }

  /** Enables the view's controls once the analyze module is loaded. */
  enable() {
    const ready = this.ready();
    $("analysis-unsupported").hidden = this.module !== "failed";
    for (const id of ["run-defaults", "thr-files", "set-values", "interval", "pal-compat"]) $(id).disabled = !ready;
    $("thr-drop").classList.toggle("disabled", !ready);
    this.renderFiles();
  }

  /**
   * The view is shown: the first time (or after a failure), it loads the
   * analyze module, saying so with its size: the module is 3 MB that a
   * page which never analyses does not fetch.
   */
  async open() {
    if (this.module === "ready" || this.module === "loading") return;
    this.module = "loading";
    this.reset();
    const status = $("analysis-module");
    const t0 = performance.now();
    status.hidden = false;
    status.classList.add("loading");
    status.classList.remove("ok");
    status.textContent = "Loading the analysis module…";
    try {
      // Where it is (the first place that has it: beside the package, else
      // in a clone) and its size (a HEAD request), to say how much is coming.
      let url = null, head = null;
      for (const u of this.ctx.analyzeURLs) {
        head = await fetch(u, { method: "HEAD" }).catch(() => null);
        if (head?.ok) {
          url = u;
          break;
        }
      }
      if (!url) throw new Error(`${ANALYZE_MODULE} is in neither ${this.ctx.analyzeURLs.map(String).join(" nor ")} (HTTP ${head?.status ?? "error"})`);
      const bytes = Number(head.headers.get("content-length")) || 0;
      const size = bytes ? ` (${(bytes / 1e6).toFixed(1)} MB)` : "";
      status.dataset.bytes = bytes;
      status.textContent = `Loading the analysis module${size}…`;
      const resp = await fetch(url);
      if (!resp.ok) throw new Error(`HTTP ${resp.status} for ${url}`);
      await this.ctx.loadAnalyzer(resp);
      const ms = performance.now() - t0;
      status.dataset.ms = Math.round(ms);
      status.textContent = `Analysis module loaded${size} in ${(ms / 1000).toFixed(1)} s.`;
      status.classList.add("ok");
      this.module = "ready";
    } catch (err) {
      this.module = "failed";
      status.hidden = true;
      $("analysis-unsupported-why").textContent = `${err instanceof Error ? err.message : String(err)}`.replace(/\.?$/, ".");
    }
    status.classList.remove("loading");
    if (this.root().dataset.state === "loading" || this.module === "failed") this.reset();
  }

  wire() {
    $("run-defaults").addEventListener("click", () => this.run(false));
    $("run-thresholds").addEventListener("click", () => this.run(true));
    const input = $("thr-files");
    input.addEventListener("change", () => { this.addFiles(input.files); input.value = ""; });
    $("alerts-more").addEventListener("click", () => { this.shown += ALERT_PAGE; this.renderAlerts(); });
    $("save-report").addEventListener("click", () => this.save());
    const refilter = () => { if (this.report) { this.shown = ALERT_PAGE; this.renderAlerts(); } };
    $("alert-condition").addEventListener("change", refilter);
    $("alert-search").addEventListener("input", refilter);
    $("alerts").addEventListener("keydown", (e) => {
      const tr = e.target.closest?.("tr[data-index]");
      if (!tr) return;
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.chart(Number(tr.dataset.index)); }
      else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        (e.key === "ArrowDown" ? tr.nextElementSibling : tr.previousElementSibling)?.focus();
      }
    });
  }

  /** Threshold files dropped or picked: read, described, added (a file of the same name is replaced). */
  async addFiles(fileList) {
    if (!this.ready()) return;
    const list = Array.from(fileList);
    for (const f of list) {
      const bytes = new Uint8Array(await f.arrayBuffer());
      // Read for the form only (the module reads the file itself): UTF-8, or UTF-16 by its byte order mark.
      const enc = bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-8";
      const text = new TextDecoder(enc).decode(bytes.subarray(0, Math.min(bytes.length, 8 << 20)));
      const d = describeThresholdFile(text);
      const at = this.files.findIndex((x) => x.name.toLowerCase() === f.name.toLowerCase());
      const entry = { name: f.name, bytes, size: f.size, ...d, run: true, chosen: false };
      if (at >= 0) this.files[at] = entry; else this.files.push(entry);
    }
    const runs = defaultRuns(this.files);
    this.files.forEach((f, i) => { if (!f.chosen) f.run = runs[i]; });
    this.renderFiles();
  }

  renderFiles() {
    const ul = $("thr-list");
    ul.replaceChildren(...this.files.map((f, i) => h("li", { "data-name": f.name },
      h("label", { class: "toggle" }, h("input", {
        type: "checkbox", checked: f.run, "aria-label": `Run the analyses of ${f.name}`,
        onchange: (e) => { f.run = e.target.checked; f.chosen = true; this.renderFiles(); },
      }), " ", h("strong", {}, f.name)),
      h("span", { class: "dim" }, f.run ? " runs" : " inherited only", f.inherits.length ? ` · inherits ${f.inherits.join(", ")}` : "",
        f.questions.length ? ` · ${f.questions.length} question${f.questions.length > 1 ? "s" : ""}` : ""),
      h("button", { type: "button", class: "remove", title: `Remove ${f.name}`, "aria-label": `Remove ${f.name}`, onclick: () => { this.files.splice(i, 1); this.renderFiles(); } }, "×"))));
    // The inherited files that are missing: analyze needs them.
    const have = new Set(this.files.map((f) => f.name.replace(/^.*[\\/]/, "").toLowerCase()));
    const missing = [...new Set(this.files.flatMap((f) => f.inherits))].filter((n) => !have.has(n.replace(/^.*[\\/]/, "").toLowerCase()));
    $("thr-missing").hidden = missing.length === 0;
    $("thr-missing").textContent = missing.length ? `Add the inherited file${missing.length > 1 ? "s" : ""} too: ${missing.join(", ")}.` : "";
    this.renderQuestions();
    $("run-thresholds").disabled = !this.ready() || !this.files.some((f) => f.run);
    $("run-thresholds").hidden = this.files.length === 0;
  }

  renderQuestions() {
    const box = $("questions");
    const prior = Object.fromEntries([...box.querySelectorAll("[data-question]")].map((el) => [el.dataset.question, el.value]));
    const qs = questionsOf(this.files);
    box.hidden = qs.length === 0;
    box.replaceChildren(qs.length ? h("legend", {}, "Questions of the threshold files (empty: the file's default)") : "", ...qs.map((q) => {
      const id = `q-${q.name}`;
      const field = q.options.length
        ? h("select", { id, "data-question": q.name }, h("option", { value: "" }, `default (${q.default ?? "none"})`), ...q.options.map((o) => h("option", { value: o }, o)))
        : h("input", { id, type: "text", "data-question": q.name, placeholder: q.default ?? "no default: required", autocomplete: "off" });
      if (prior[q.name] !== undefined) field.value = prior[q.name];
      return h("div", { class: "question" }, h("label", { for: id }, h("code", {}, q.name)), field, q.text ? h("span", { class: "hint" }, q.text) : "");
    }));
  }

  /** The options of a run, from the form; throws an Error saying what is wrong. */
  options(withFiles) {
    const set = {};
    // The files' questions are theirs: the default analyses ask none.
    if (withFiles) for (const el of $("questions").querySelectorAll("[data-question]")) if (el.value.trim() !== "") set[el.dataset.question] = el.value.trim();
    Object.assign(set, parseValues($("set-values").value));
    const o = { set, interval: parseInterval($("interval").value), palCompat: $("pal-compat").checked };
    if (withFiles) {
      o.thresholds = this.files.filter((f) => f.run).map((f) => ({ name: f.name, bytes: f.bytes }));
      o.include = this.files.filter((f) => !f.run).map((f) => ({ name: f.name, bytes: f.bytes }));
    }
    return o;
  }

  /** Runs the default analyses (withFiles false) or the threshold files. */
  async run(withFiles) {
    const v = this.ctx.view();
    if (v?.kind !== "blg" || !this.ready()) return;
    let opts;
    try {
      opts = this.options(withFiles);
    } catch (err) {
      this.ctx.message("error", "Check the analysis options", err.message);
      return;
    }
    this.ctx.clear();
    const g = this.ctx.gen();
    const what = withFiles ? opts.thresholds.map((f) => f.name).join(", ") : "perfcalc's default analyses";
    this.setState("running");
    $("analysis-results").hidden = true;
    try {
      const r = await this.ctx.job(`Analysing ${v.file} with ${what}…`, (signal) => this.ctx.worker().analyze(v.bgRef, { ...opts, identity: v.identity, translate: v.translate, signal }));
      if (g !== this.ctx.gen() || this.ctx.view() !== v) return;
      this.json = r.json;
      this.show(r.report, what, opts);
      if (r.damage) this.ctx.message("warning", "The log is damaged after its start: the samples before the damage were analysed.", r.damage);
    } catch (err) {
      if (err?.name === "AbortError") return; // Cancel says so
      if (g !== this.ctx.gen()) return;
      this.setState("error");
      // An inherited file not given: the module names it (missingFile).
      const hint = err?.missingFile ? `Add the inherited file ${err.missingFile.replace(/^.*[\\/]/, "")} too.`
        : withFiles ? "perfcalc analyze --thresholds … gives the same message for the same files." : "";
      this.ctx.message("error", `Could not analyse ${v.file}`, err instanceof Error ? err.message : String(err), hint);
    }
  }

  /** Saves the report's JSON (perfcalc analyze -f json's bytes) as LOG.analysis.json. */
  save() {
    const v = this.ctx.view();
    if (!this.json || !v) return;
    const url = URL.createObjectURL(new Blob([this.json], { type: "application/json" }));
    const a = h("a", { href: url, download: `${v.file.replace(/\.[^.]*$/, "")}.analysis.json`, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  /** Draws the charted alert again (the window's width changed). */
  redraw() {
    if (this.charted >= 0 && !this.root().hidden && $("alert-chart").clientWidth !== this.chartWidth) this.chart(this.charted, false);
  }

  /** After Cancel: a running analysis stopped. */
  cancelled() {
    if (this.root().dataset.state === "running") this.setState(this.report ? "done" : "cancelled");
    if (this.report) $("analysis-results").hidden = false;
  }

  show(report, what, opts) {
    this.report = report;
    this.alerts = alertsInTimeOrder(report);
    this.shown = ALERT_PAGE;
    this.charted = -1;
    $("alert-condition").value = "";
    $("alert-search").value = "";
    const { critical, warning } = alertCounts(report.alerts);
    const res = $("analysis-results");
    Object.assign(res.dataset, {
      alerts: report.alerts.length, critical, warning, analyses: report.analyses.length, unsupported: (report.unsupported ?? []).length,
    });
    const p = report.parameters;
    const stat = (n, label, cls, id) => h("div", { class: `count ${cls}`, id }, h("span", { class: "n" }, fmtInt(n)), h("span", { class: "label" }, label));
    $("analysis-counts").replaceChildren(
      stat(critical, critical === 1 ? "critical alert" : "critical alerts", critical ? "critical" : "none", "count-critical"),
      stat(warning, warning === 1 ? "warning" : "warnings", warning ? "warning" : "none", "count-warning"),
      stat(report.analyses.length, "analyses", "neutral"),
      h("p", { class: "hint run-params" }, `${what}; ${fmtInt(report.slices.length)} slices of ${duration((p.interval ?? 0) * 1000)}` +
        `${opts.palCompat ? ", PAL's numbers (quirks included)" : ", exact numbers"}${Object.keys(p.values ?? {}).length ? `; ${Object.entries(p.values).map(([k, x]) => `${k}=${x}`).join(", ")}` : ""}` +
        ` · times are the log's local time (${utcOffset(p.bias ?? 0)}). The same as perfcalc analyze -f json.`));
    this.renderAlerts();
    this.renderAnalyses();
    this.renderUnsupported();
    $("alert-chart").replaceChildren();
    delete $("alert-chart").dataset.alert;
    $("alert-chart-title").textContent = "Chart of an alert";
    $("alert-chart-hint").textContent = this.alerts.length ? "Click an alert (or press Enter on it) to chart its counter over the alert's slice, with the warning and critical bands." : "No alert: nothing to chart.";
    $("alert-legend").replaceChildren();
    res.hidden = false;
    this.setState("done");
    if (this.alerts.length) this.chart(this.alerts[0].index, false);
  }

  renderAlerts() {
    const p = this.report.parameters, shift = (p.bias ?? 0) * 60000;
    const cond = $("alert-condition").value, words = searchWords($("alert-search").value);
    const shown = this.alerts.filter((a) => (!cond || a.condition === cond) && matchesWords(`${a.analysis}\n${a.path}\n${a.category}`.toLowerCase(), words));
    const list = shown.slice(0, this.shown);
    $("alert-shown").textContent = shown.length === this.alerts.length ? "" : `${fmtInt(shown.length)} of ${fmtInt(this.alerts.length)} alerts`;
    $("alerts").dataset.shown = String(shown.length);
    // One day: the date is in the column's head, the cells give the times.
    const day = (ms) => localText(ms).slice(0, 10);
    const days = new Set(this.alerts.flatMap((a) => [day(Date.parse(a.start) - shift), day(Date.parse(a.end) - shift)]));
    const oneDay = days.size === 1 ? [...days][0] : null;
    const rows = list.map((a) => {
      const t0 = Date.parse(a.start) - shift, t1 = Date.parse(a.end) - shift;
      const same = day(t0) === day(t1);
      // One tab stop for the list (the charted alert, or the first): the arrow keys move between alerts.
      const stop = this.charted >= 0 ? a.index === this.charted : a === list[0];
      return h("tr", {
        tabindex: stop ? 0 : -1, "data-index": a.index, "data-condition": a.condition, "data-analysis": a.analysis, "data-path": a.path, "data-slice": a.slice,
        "data-start": a.start, "data-end": a.end, "data-min": exact(a.min), "data-avg": exact(a.avg), "data-max": exact(a.max), "data-trend": exact(a.trend),
        class: `alert ${a.condition.toLowerCase()}${a.index === this.charted ? " charted" : ""}`, "aria-current": a.index === this.charted ? "true" : null,
        title: `${a.threshold}\nClick to chart ${a.path} around slice ${a.slice}`, onclick: () => this.chart(a.index),
      },
      h("td", { class: "when", title: `${localText(t0)} → ${localText(t1)} (local time), slice ${a.slice}` }, localText(t0, !oneDay),
        t1 > t0 ? h("span", { class: "dim until" }, `→ ${localText(t1, !same)}`) : ""),
      h("td", {}, h("span", { class: `badge ${a.condition.toLowerCase()}` }, a.condition)),
      h("td", { class: "an" }, h("div", {}, a.analysis), h("div", { class: "path dim" }, breakable(a.path))),
      h("td", { class: "num", title: exact(a.min) }, fmt(a.min)), h("td", { class: "num", title: exact(a.avg) }, fmt(a.avg)),
      h("td", { class: "num", title: exact(a.max) }, fmt(a.max)), h("td", { class: "num dim", title: exact(a.trend) }, fmt(a.trend)));
    });
    $("alerts").replaceChildren(
      h("caption", { class: "sr" }, "Alerts in time order"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, oneDay ? `Slice (${oneDay})` : "Slice (local time)"), h("th", { scope: "col" }, "Condition"), h("th", { scope: "col" }, "Analysis and counter"),
        h("th", { scope: "col", class: "num" }, "Min"), h("th", { scope: "col", class: "num" }, "Avg"), h("th", { scope: "col", class: "num" }, "Max"),
        h("th", { scope: "col", class: "num", title: "the slice's hourly trend" }, "Trend"))),
      h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: 7, class: "empty" }, this.alerts.length
        ? "No alert matches the filter." : "No alert: every analysed counter stayed within its thresholds."))));
    const more = shown.length - list.length;
    $("alerts-more").hidden = more <= 0;
    $("alerts-more").textContent = `Show ${fmtInt(Math.min(more, ALERT_PAGE))} more (${fmtInt(more)} not listed)`;
  }

  renderAnalyses() {
    const r = this.report;
    const countsOf = alertCountsByAnalysis(r);
    const order = [...r.analyses].sort((a, b) => {
      const ca = countsOf(a), cb = countsOf(b);
      return cb.critical - ca.critical || cb.warning - ca.warning || (a.category ?? "").localeCompare(b.category ?? "") || a.name.localeCompare(b.name);
    });
    $("analyses").replaceChildren(...order.map((a) => {
      const c = countsOf(a);
      const series = a.series ?? [];
      const badges = [c.critical ? h("span", { class: "badge critical" }, `${c.critical} critical`) : "", c.warning ? h("span", { class: "badge warning" }, `${c.warning} warning${c.warning > 1 ? "s" : ""}`) : "",
        !c.critical && !c.warning ? h("span", { class: "badge ok" }, a.skipped ? "not run" : series.length ? "no alert" : "no counter") : ""];
      // The section's content is made when it first opens: a report may hold thousands of series.
      const details = h("details", {
        class: "analysis", "data-analysis": a.name, "data-series": series.length,
        ontoggle: () => { if (details.open && details.childElementCount === 1) details.append(...this.analysisBody(a)); },
      }, h("summary", {}, h("span", { class: "cat dim" }, a.category), h("span", { class: "name" }, a.name), h("span", { class: "badges" }, badges)));
      return details;
    }));
  }

  /** The content of an analysis' section: why it was not run, its description and thresholds, its series' statistics, its reference. */
  analysisBody(a) {
    const series = a.series ?? [];
    const num = (v) => h("td", { class: "num", title: exact(v) }, fmt(v));
    return [
      a.skipped ? h("p", { class: "hint" }, `Not run: ${a.skipped}`) : "",
      a.description ? h("p", { class: "desc" }, plainText(a.description)) : "",
      (a.thresholds ?? []).length ? h("p", { class: "hint" }, "Thresholds: ", a.thresholds.map((t) => t.name).join("; ")) : "",
      series.length ? h("div", { class: "table-scroll" }, h("table", { class: "stats" },
        h("thead", {}, h("tr", {}, ...["Counter", "Worst", "Values", "Min", "Avg", "Max", "Trend", "Std dev", "90th %", "95th %", "99th %"].map((t, k) => h("th", { scope: "col", class: k > 1 ? "num" : "" }, t)))),
        h("tbody", {}, ...series.map((s) => h("tr", { "data-path": s.path },
          h("td", { class: "path" }, breakable(s.path)), h("td", {}, s.condition ? h("span", { class: `badge ${s.condition.toLowerCase()}` }, s.condition) : h("span", { class: "dim" }, "OK")),
          h("td", { class: "num" }, fmtInt(s.n)), num(s.min), num(s.avg), num(s.max), num(s.trend), num(s.stddev), num(s.p90), num(s.p95), num(s.p99)))))) : "",
      a.reference ? h("p", { class: "hint ref" }, `Reference: ${a.reference}`) : "",
    ].filter((x) => x !== "");
  }

  renderUnsupported() {
    const u = this.report.unsupported ?? [];
    $("unsupported-card").hidden = u.length === 0;
    $("unsupported-count").textContent = fmtInt(u.length);
    $("unsupported").replaceChildren(...u.map((x) => h("li", { "data-analysis": x.analysis },
      h("strong", {}, x.analysis), x.what ? h("span", {}, ` · ${x.what}`) : "", x.element ? h("span", { class: "dim" }, ` (${x.element})`) : "",
      h("div", { class: "dim" }, x.reason))));
  }

  /**
   * Charts the alert of the report's alerts[index]: its counter's values
   * decoded from the log (or, for a counter the log does not hold, the
   * report's chart envelope) around the alert's slice, with the bands.
   */
  async chart(index, focus = true) {
    const r = this.report, a = r?.alerts[index];
    if (!a) return;
    const g = this.ctx.gen();
    this.charted = index;
    for (const tr of $("alerts").querySelectorAll("tr[data-index]")) {
      const on = Number(tr.dataset.index) === index;
      tr.classList.toggle("charted", on);
      if (on) tr.setAttribute("aria-current", "true"); else tr.removeAttribute("aria-current");
      tr.tabIndex = on ? 0 : -1;
      if (on && focus) tr.focus({ preventScroll: true });
    }
    const box = $("alert-chart");
    box.dataset.state = "pending";
    const p = r.parameters, bias = p.bias ?? 0;
    const { analysis, series: rs } = alertSource(r, a);
    const bands = alertBands(analysis, rs);
    const win = alertWindow(a, p.interval, bias);
    let s = null, source = "log";
    try {
      s = await this.ctx.series(a.path);
    } catch (err) {
      if (err?.name === "AbortError" || g !== this.ctx.gen()) return;
      s = null;
    }
    if (this.charted !== index || g !== this.ctx.gen()) return;
    if (!s && rs?.chart?.length) { s = envelopeSeries(a.path, rs.chart, bias); source = "report"; }
    if (!s) {
      box.replaceChildren(h("p", { class: "empty" }, `The log holds no values of ${a.path} to chart.`));
      box.dataset.state = "empty";
      return;
    }
    const { series: w, span } = windowSeries(s, win);
    const aligned = alignSeries([w]);
    drawChart(box, {
      aligned, labels: [a.path], colors: [LINE], types: [source === "log" ? this.ctx.typeOf(a.path) : 0], normalize: false, bias,
      span, bands, mark: { t0: win.t0, t1: win.t1 },
      label: `${a.path} from ${localText(span.from)} to ${localText(span.to)}, with the ${a.analysis} bands`,
    });
    this.chartWidth = box.clientWidth;
    box.dataset.alert = String(index);
    box.dataset.source = source;
    box.dataset.state = "ready";
    $("alert-chart-title").textContent = a.analysis;
    const bandText = bands.length ? bands.map((b) => `${b.condition} ${Number.isFinite(b.lo) && Number.isFinite(b.hi) ? `${fmt(b.lo)} to ${fmt(b.hi)}` : Number.isFinite(b.lo) ? `above ${fmt(b.lo)}` : `below ${fmt(b.hi)}`}`).join(", ")
      : "no band (the analysis has none for this counter)";
    const what = a.threshold.toLowerCase().startsWith(a.condition.toLowerCase()) ? a.threshold : `${a.condition}: ${a.threshold}`;
    $("alert-chart-hint").textContent = `${what}. Slice ${a.slice} shaded (${localText(win.t0, false)}${win.t1 > win.t0 ? `–${localText(win.t1, false)}` : ""}), with ${duration(win.t0 - span.from)} before and ${duration(span.to - win.t1)} after; ` +
      `bands: ${bandText}${bands[0]?.from === "thresholds" ? " (from the analysis' thresholds: it has no chart bands)" : ""}.` +
      (source === "report" ? " The counter is not a column of the log (a generated datasource): the line is the report's chart envelope (the maximum per point)." : "");
    $("alert-legend").replaceChildren(
      h("li", {}, h("span", { class: "swatch", style: `background:${LINE}` }), h("span", { class: "path" }, breakable(a.path))),
      ...["Warning", "Critical"].filter((c) => bands.some((b) => b.condition === c)).map((c) => h("li", {}, h("span", { class: `swatch band-key ${c.toLowerCase()}` }), `${c} band`)),
      h("li", {}, h("span", { class: "swatch band-key mark" }), "the alert's slice"));
  }
}
