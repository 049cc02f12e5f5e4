// The Analysis view's pure parts (analysis.mjs): threshold files read for
// the form, which run, question values, alerts in time order, bands and the
// window of an alert's chart.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CONTEXT_SAMPLES, alertBands, bandRangeText, bandsBeyond, alertCounts, alertCountsByAnalysis, alertSource, alertWindow, alertsInTimeOrder, defaultRuns, describeThresholdFile, envelopeSeries,
  parseInterval, parseValues, questionsOf, unescapeXML, windowSeries,
} from "../analysis.mjs";

test("describeThresholdFile: questions (options, defaults, text) and INHERITANCE", () => {
  const xml = `<?xml version="1.0"?><PAL PALVERSION="2.0">
  <QUESTION QUESTIONVARNAME="OS" DATATYPE="options" DEFAULTVALUE="Windows Server" OPTIONS="Windows Server, Windows 10 64-bit">Which OS?</QUESTION>
  <question questionvarname='PhysicalMemory' DATATYPE="string" DEFAULTVALUE="16">How much &amp; <b>what</b>
     memory (GB)?</question>
  <QUESTION QUESTIONVARNAME="Empty" DATATYPE="boolean"/>
  <INHERITANCE FILEPATH="Quick&amp;System.xml" />
  <INHERITANCE FilePath="dir\\Other.xml"/></PAL>`;
  const d = describeThresholdFile(xml);
  assert.deepEqual(d.inherits, ["Quick&System.xml", "dir\\Other.xml"]);
  assert.deepEqual(d.questions.map((q) => q.name), ["OS", "PhysicalMemory", "Empty"]);
  assert.deepEqual(d.questions[0].options, ["Windows Server", "Windows 10 64-bit"]);
  assert.equal(d.questions[0].type, "options");
  assert.equal(d.questions[1].default, "16");
  assert.equal(d.questions[1].text, "How much & what memory (GB)?");
  assert.equal(d.questions[2].default, null);
  assert.equal(d.questions[2].type, "boolean");
  assert.equal(unescapeXML("&#65;&#x42;&bogus;&#0;"), "AB&bogus;&#0;");
});

test("defaultRuns: a file another dropped file inherits is there for inheritance only; a cycle runs all", () => {
  const f = (name, inherits = []) => ({ name, inherits });
  assert.deepEqual(defaultRuns([f("SystemOverview.xml", ["QuickSystemOverview.xml"]), f("quicksystemoverview.XML")]), [true, false]);
  assert.deepEqual(defaultRuns([f("a.xml", ["dir/b.xml"]), f("b.xml", ["c.xml"]), f("c.xml")]), [true, false, false]);
  assert.deepEqual(defaultRuns([f("a.xml", ["b.xml"]), f("b.xml", ["a.xml"])]), [true, true]);
  assert.deepEqual(defaultRuns([f("a.xml"), f("b.xml")]), [true, true]);
  const qs = questionsOf([{ questions: [{ name: "PhysicalMemory" }, { name: "OS" }] }, { questions: [{ name: "physicalmemory" }, { name: "UserVa" }] }]);
  assert.deepEqual(qs.map((q) => q.name), ["PhysicalMemory", "OS", "UserVa"]);
});

test("parseValues and parseInterval: NAME=VALUE lines, seconds or auto; clear errors", () => {
  assert.deepEqual(parseValues(" PhysicalMemory = 32\n\nUserVa=3072; OS=Windows Server 2016 "), { PhysicalMemory: "32", UserVa: "3072", OS: "Windows Server 2016" });
  assert.deepEqual(parseValues(""), {});
  assert.deepEqual(parseValues("A=x=y"), { A: "x=y" });
  assert.throws(() => parseValues("A=1\nPhysicalMemory"), /“PhysicalMemory” \(entry 2\) is not NAME=VALUE/);
  assert.throws(() => parseValues("=3"), /not NAME=VALUE/);
  assert.equal(parseInterval(" Auto "), "auto");
  assert.equal(parseInterval(""), "auto");
  assert.equal(parseInterval("0"), "auto");
  assert.equal(parseInterval("60"), 60);
  for (const bad of ["-5", "1.5", "1e3", "ten", "99999999999"]) assert.throws(() => parseInterval(bad), /interval/, bad);
});

const alert = (start, end, condition, extra = {}) => ({ analysis: "A", category: "C", condition, priority: condition === "Critical" ? 100 : 50, path: "\\\\M\\O\\c", slice: 0, start, end, ...extra });

test("alerts in time order: by start, critical first, then priority, then the report's order; counts", () => {
  const r = { alerts: [
    alert("2020-01-01T00:01:00Z", "2020-01-01T00:02:00Z", "Warning"),
    alert("2020-01-01T00:00:00Z", "2020-01-01T00:01:00Z", "Warning", { priority: 10 }),
    alert("2020-01-01T00:00:00Z", "2020-01-01T00:01:00Z", "Warning", { priority: 60 }),
    alert("2020-01-01T00:00:00Z", "2020-01-01T00:01:00Z", "Critical"),
  ] };
  assert.deepEqual(alertsInTimeOrder(r).map((a) => a.index), [3, 2, 1, 0]);
  assert.deepEqual(alertCounts(r.alerts), { critical: 1, warning: 3 });
});

test("alertBands: the chart's bands (useMax to the top or bottom), else the thresholds; critical last", () => {
  const series = { path: "\\\\M\\O\\c", datasource: "\\O\\c" };
  const analysis = {
    name: "A", category: "C", series: [series],
    thresholds: [{ condition: "Warning", datasource: "\\O\\c", operator: "gt", value: 80, trendOnly: false }],
    charts: [
      { datasource: "\\O\\other", bands: [{ condition: "Warning", min: 1, max: 2, useMax: false, greaterThan: true }] },
      { datasource: "\\O\\c", bands: [
        { condition: "Critical", min: 95, max: 95, useMax: true, greaterThan: true },
        { condition: "Warning", min: 80, max: 95, useMax: false, greaterThan: true },
        { condition: "Critical", min: 10, max: 10, useMax: true, greaterThan: false },
      ] },
    ],
  };
  assert.deepEqual(alertBands(analysis, series), [
    { condition: "Warning", lo: 80, hi: 95, from: "chart" },
    { condition: "Critical", lo: 95, hi: Infinity, from: "chart" },
    { condition: "Critical", lo: -Infinity, hi: 10, from: "chart" },
  ]);
  // No chart bands: the thresholds (gt/ge up, lt/le down; trend-only and eq make none).
  const bare = { ...analysis, charts: [], thresholds: [
    { condition: "Critical", datasource: "\\O\\c", operator: "lt", value: 100, trendOnly: false },
    { condition: "Warning", datasource: "\\O\\c", operator: "ge", value: 500, trendOnly: false },
    { condition: "Warning", datasource: "\\O\\c", operator: "gt", value: 5, trendOnly: true },
    { condition: "Warning", datasource: "\\O\\c", operator: "eq", value: 5, trendOnly: false },
    { condition: "Warning", datasource: "\\O\\elsewhere", operator: "gt", value: 7, trendOnly: false },
  ] };
  assert.deepEqual(alertBands(bare, series), [
    { condition: "Warning", lo: 500, hi: Infinity, from: "thresholds" },
    { condition: "Critical", lo: -Infinity, hi: 100, from: "thresholds" },
  ]);
  assert.deepEqual(alertBands(undefined, series), []);
  const report = { analyses: [{ name: "A", category: "X", series: [] }, analysis] };
  const src = alertSource(report, alert("2020-01-01T00:00:00Z", "2020-01-01T00:00:00Z", "Warning"));
  assert.equal(src.analysis, analysis);
  assert.equal(src.series, series);
});

test("alertSource: by the alert's id and datasource where it has them", () => {
  const path = "\\\\M\\O(x)\\c";
  const s1 = { path, datasource: "\\O(*)\\c" }, s2 = { path, datasource: "procs" };
  // Two analyses of the same name and category (joined files), the second
  // with the path in two datasources.
  const first = { name: "A", category: "C", id: "{1}", series: [{ ...s1 }] };
  const second = { name: "A", category: "C", id: "{2}", series: [s1, s2] };
  const report = { analyses: [first, second] };
  const at = (extra) => alertSource(report, alert("2020-01-01T00:00:00Z", "2020-01-01T00:00:00Z", "Warning", { path, ...extra }));
  assert.equal(at({ id: "{2}", datasource: "procs" }).analysis, second);
  assert.equal(at({ id: "{2}", datasource: "procs" }).series, s2);
  assert.equal(at({ id: "{2}", datasource: "\\O(*)\\c" }).series, s1);
  assert.equal(at({ id: "{1}", datasource: "\\O(*)\\c" }).analysis, first);
  assert.equal(at({ id: "{3}", datasource: "procs" }).analysis, undefined);
  // Without id (an older report): the first analysis of the name and category with the path.
  assert.equal(at({}).analysis, first);
  // Counts per analysis: by id and name.
  const w = (extra) => alert("2020-01-01T00:00:00Z", "2020-01-01T00:00:00Z", "Warning", extra);
  const countsOf = alertCountsByAnalysis({ alerts: [w({ id: "{2}" }), w({ id: "{2}", condition: "Critical" }), w({ id: "{1}" })] });
  assert.deepEqual(countsOf(first), { critical: 0, warning: 1 });
  assert.deepEqual(countsOf(second), { critical: 1, warning: 1 });
  assert.deepEqual(countsOf({ name: "Z", id: "{2}" }), { critical: 0, warning: 0 });
  assert.deepEqual(alertCountsByAnalysis({ alerts: [w({}), w({})] })(first), { critical: 0, warning: 2 });
  // An id shared by two analyses of other names does not confuse them.
  const other = { name: "B", category: "C", id: "{2}", series: [s2] };
  assert.equal(alertSource({ analyses: [other, second] }, alert("2020-01-01T00:00:00Z", "2020-01-01T00:00:00Z", "Warning", { path, id: "{2}", datasource: "procs" })).analysis, second);
});

test("alertWindow and windowSeries: the slice in local time, two slice lengths around it, and at least a few samples each side", () => {
  const bias = 240; // UTC−04:00: local = UTC − 4 h
  const a = alert("2020-01-01T04:10:00Z", "2020-01-01T04:11:00Z", "Warning");
  const w = alertWindow(a, 60, bias);
  const t0 = Date.UTC(2020, 0, 1, 0, 10);
  assert.deepEqual(w, { t0, t1: t0 + 60000, from: t0 - 120000, to: t0 + 180000 });
  // One sample every 10 minutes: the window widens to CONTEXT_SAMPLES samples each side.
  const n = 40, times = Float64Array.from({ length: n }, (_, k) => Date.UTC(2019, 11, 31, 20) + k * 600000);
  const s = { path: "p", rows: Uint32Array.from({ length: n }, (_, k) => k), times, values: Float64Array.from(times, (_, k) => k), statuses: new Uint8Array(n) };
  const at = times.findIndex((t) => t >= t0); // the first sample at or after the slice's start
  const { series, span } = windowSeries(s, w);
  assert.equal(series.rows[0], at - CONTEXT_SAMPLES);
  assert.equal(series.rows[series.rows.length - 1], at + CONTEXT_SAMPLES - 1 + (times[at] <= t0 + 60000 ? 1 : 0));
  assert.equal(span.from, times[at - CONTEXT_SAMPLES]);
  // Dense samples: the time window alone, [from, to].
  const dense = Float64Array.from({ length: 1000 }, (_, k) => t0 - 300000 + k * 1000);
  const d = windowSeries({ path: "p", rows: Uint32Array.from(dense, (_, k) => k), times: dense, values: new Float64Array(1000), statuses: new Uint8Array(1000) }, w);
  assert.equal(d.series.times[0], w.from);
  assert.equal(d.series.times[d.series.times.length - 1], w.to);
  assert.deepEqual(d.span, { from: w.from, to: w.to });
  // The log's start: fewer samples before exist.
  const early = windowSeries(s, alertWindow(alert("2020-01-01T00:00:00Z", "2020-01-01T00:00:00Z", "Warning"), 60, bias));
  assert.equal(early.series.rows[0], 0);
});

test("envelopeSeries: the report's chart points as a series (the maximum, local time)", () => {
  const e = envelopeSeries("p", [["2020-01-01T04:00:00Z", "2020-01-01T04:00:10Z", 1, 5], ["2020-01-01T04:01:00Z", "2020-01-01T04:01:10Z", null, null]], 240);
  assert.deepEqual(Array.from(e.times), [Date.UTC(2020, 0, 1), Date.UTC(2020, 0, 1, 0, 1)]);
  assert.deepEqual(Array.from(e.values), [5, NaN]);
  assert.deepEqual(Array.from(e.rows), [0, 1]);
});

test("bandsBeyond: bands wholly above or below the value axis, marked at that edge; their range text", () => {
  const w = { condition: "Warning", lo: 50, hi: 80 }, c = { condition: "Critical", lo: 80, hi: Infinity };
  const low = { condition: "Critical", lo: -Infinity, hi: -20 }, inside = { condition: "Warning", lo: 2, hi: 4 };
  const edge = { condition: "Warning", lo: 10, hi: 12 }, across = { condition: "Critical", lo: 8, hi: 30 };
  assert.deepEqual(bandsBeyond([w, inside, c, low, edge, across], 0, 10), { above: [w, c, edge], below: [low] });
  assert.deepEqual(bandsBeyond([w, c], 0, 100), { above: [], below: [] });
  assert.deepEqual(bandsBeyond([{ condition: "Warning", lo: 0, hi: 0 }], 0, 10), { above: [], below: [] });
  assert.equal(bandRangeText(w), "50 – 80");
  assert.equal(bandRangeText(c, (v) => `${v}!`), "≥ 80!");
  assert.equal(bandRangeText(low), "≤ -20");
});
