// The viewer's model (model.mjs), on its own: paths, the counter tree and
// its search, the selection, series on one time axis, and which files make
// what.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  COLORS, CounterTree, MAX_SELECTED, SERIES_STATUS, Selection, alignSeries, classifyFiles, csvName, defaultSelection, hintFor,
  compareNodes, instanceText, matchesWords, msFileTime, orderCaptures, parseIds, rangeOptions, samplesIn, searchWords, statsByColumn, seriesBuffers, seriesOf, seriesTexts,
} from "../model.mjs";
import { fileTimeMs } from "../format.mjs";

// parts builds the parts of a path as perfcalc.mjs reads them from the
// module (PathParts): an instance of null for none.
const parts = (machine, object, instance, counter, parent = null, index = 0) =>
  instance === null ? { machine, object, parent: null, instance: null, index: null, counter } : { machine, object, parent, instance, index, counter };

test("instanceText: the instance as a path writes it, parent/name#n", () => {
  assert.equal(instanceText(parts("GEORGIS3", "Processor", "_Total", "% Processor Time")), "_Total");
  assert.equal(instanceText(parts("ZACH-PC", "Thread", "3", "Context Switches/sec", "svchost", 1)), "svchost/3#1");
  assert.equal(instanceText(parts("HOST", "System", null, "Processes")), null);
  assert.equal(instanceText(parts("M", "LogicalDisk", "\\Device\\X", "Free")), "\\Device\\X");
});

const TX = [
  "\\\\GEORGIS3\\PhysicalDisk(0 C:)\\Avg. Disk Bytes/Read",
  "\\\\GEORGIS3\\PhysicalDisk(0 C:)\\Avg. Disk Queue Length",
  "\\\\GEORGIS3\\Processor(0)\\% Processor Time",
  "\\\\GEORGIS3\\Processor(1)\\% Processor Time",
  "\\\\GEORGIS3\\Processor(_Total)\\% Processor Time",
  "\\\\GEORGIS3\\System\\Processes",
  "\\\\GEORGIS3\\Processor(0)\\% Idle Time",
];
const TX_PARTS = [
  parts("GEORGIS3", "PhysicalDisk", "0 C:", "Avg. Disk Bytes/Read"),
  parts("GEORGIS3", "PhysicalDisk", "0 C:", "Avg. Disk Queue Length"),
  parts("GEORGIS3", "Processor", "0", "% Processor Time"),
  parts("GEORGIS3", "Processor", "1", "% Processor Time"),
  parts("GEORGIS3", "Processor", "_Total", "% Processor Time"),
  parts("GEORGIS3", "System", null, "Processes"),
  parts("GEORGIS3", "Processor", "0", "% Idle Time"),
];

test("CounterTree: object → counter → instances sorted as perfmon's Add Counters (_Total first), leaves in column order, counters without instances as leaves", () => {
  const t = new CounterTree(TX, TX_PARTS);
  assert.equal(t.size, TX.length);
  assert.deepEqual(t.machines, ["GEORGIS3"]);
  assert.deepEqual(t.roots.map((n) => [n.kind, n.label, n.leaves]), [
    ["object", "PhysicalDisk", [0, 1]], ["object", "Processor", [2, 3, 4, 6]], ["object", "System", [5]]]);
  const proc = t.roots[1];
  assert.deepEqual(proc.children.map((c) => [c.kind, c.label, c.leaves]), [["counter", "% Idle Time", [6]], ["counter", "% Processor Time", [2, 3, 4]]]);
  assert.deepEqual(proc.children[1].children.map((c) => [c.kind, c.label, c.leaf]), [["instance", "_Total", 4], ["instance", "0", 2], ["instance", "1", 3]]);
  // System\Processes has no instance: the counter is the leaf.
  assert.deepEqual(t.roots[2].children.map((c) => [c.kind, c.label, c.leaf, c.children.length]), [["counter", "Processes", 5, 0]]);
  // Every leaf's node, and its parents' leaves include it.
  TX.forEach((_, i) => {
    assert.equal(t.leafNodes[i].leaf, i);
    for (let n = t.leafNodes[i]; n; n = n.parent) assert.ok(n.leaves.includes(i));
  });
  assert.equal(t.label(2), "Processor(0)\\% Processor Time");
  assert.equal(t.label(5), "System\\Processes");
});

test("CounterTree: several machines are the top level; one object drops from labels", () => {
  const t = new CounterTree(["\\\\A\\Processor(_Total)\\% Processor Time", "\\\\B\\Processor(_Total)\\% Processor Time", "\\\\A\\Memory\\Available Bytes"],
    [parts("A", "Processor", "_Total", "% Processor Time"), parts("B", "Processor", "_Total", "% Processor Time"), parts("A", "Memory", null, "Available Bytes")]);
  assert.deepEqual(t.roots.map((n) => [n.kind, n.label, n.leaves]), [["machine", "A", [0, 2]], ["machine", "B", [1]]]);
  assert.deepEqual(t.roots[0].children.map((n) => n.label), ["Memory", "Processor"]);
  assert.equal(t.label(1), "\\\\B\\Processor(_Total)\\% Processor Time");
  const one = new CounterTree(["\\{guid}(0,0)\\% Idle Time", "\\{guid}\\Count"], [parts("", "{guid}", "0,0", "% Idle Time"), parts("", "{guid}", null, "Count")]);
  assert.equal(one.label(0), "(0,0)\\% Idle Time");
  assert.equal(one.label(1), "\\Count");
});

test("search: every word anywhere in the path, case-insensitively; node counts follow", () => {
  assert.deepEqual(searchWords("  Processor   TIME "), ["processor", "time"]);
  assert.deepEqual(searchWords(""), []);
  assert.ok(matchesWords("\\\\georgis3\\processor(0)\\% processor time", ["time", "proc"]));
  assert.ok(!matchesWords("\\\\georgis3\\system\\processes", ["time"]));
  const t = new CounterTree(TX, TX_PARTS);
  const all = t.match("");
  assert.equal(all.count, TX.length);
  assert.ok(all.mask.every((x) => x === 1));
  const m = t.match("processor TIME");
  assert.deepEqual(CounterTree.indexes(m.mask), [2, 3, 4, 6]);
  assert.equal(CounterTree.shown(t.roots[1], m.mask), 4);
  assert.equal(CounterTree.shown(t.roots[0], m.mask), 0);
  assert.equal(CounterTree.shown(t.roots[1].children[1], t.match("_total").mask), 1);
  assert.equal(t.match("no such counter").count, 0);
});

test("Selection: ordered, at most MAX_SELECTED, a colour per place", () => {
  const s = new Selection([3, 1]);
  assert.equal(s.colorOf(3), COLORS[0]);
  assert.equal(s.colorOf(1), COLORS[1]);
  assert.equal(s.colorOf(2), null);
  assert.ok(s.toggle(3));
  assert.deepEqual(s.items, [1]);
  assert.equal(s.colorOf(1), COLORS[0]);
  for (let i = 10; s.size < MAX_SELECTED; i++) assert.ok(s.toggle(i));
  assert.ok(s.full);
  assert.equal(s.toggle(99), false);
  assert.equal(s.size, MAX_SELECTED);
  s.clear();
  assert.equal(s.size, 0);
});

test("defaultSelection: processor times first (_Total first), then the first counters", () => {
  assert.deepEqual(defaultSelection(TX), [4, 2, 3, 0]);
  assert.deepEqual(defaultSelection(["\\\\M\\A\\x", "\\\\M\\B\\y"]), [0, 1]);
});

// A record at sample aux whose local time is t milliseconds after 2013-02-19 00:00.
const T0 = Date.UTC(2013, 1, 19);
const rec = (path, aux, t, value, status = "Valid") => ({ path, aux, time: (BigInt(T0 + t) + 11644473600000n) * 10000n + 1234n, value, status });
const plain = (x) => JSON.parse(JSON.stringify(x, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v, (e) => (Number.isNaN(e) ? "NaN" : e)) : v)));

test("seriesOf: one path's samples, times (ms, truncated) and values in typed arrays; NaN where not Valid; other paths left out", () => {
  const records = [rec("a", 0, 10, 1), rec("b", 0, 10, 5), rec("a", 1, 20, 0, "NewData"), rec("A", 1, 20, 7), rec("a", 3, 40, 2, "Valid")];
  const s = seriesOf(records, "a");
  assert.ok(s.rows instanceof Uint32Array && s.times instanceof Float64Array && s.values instanceof Float64Array && s.statuses instanceof Uint8Array);
  assert.deepEqual(plain(s), { path: "a", rows: [0, 1, 3], times: [T0 + 10, T0 + 20, T0 + 40], values: [1, "NaN", 2], statuses: [0, 1, 0] });
  assert.equal(SERIES_STATUS[s.statuses[1]], "NewData");
  assert.equal(seriesOf(records, "c").rows.length, 0);
  assert.equal(seriesBuffers(s).length, 4);
});

test("alignSeries: one axis of the samples where any series is present; breaks where a sample lacks the counter", () => {
  const a = seriesOf([rec("a", 0, 10, 1), rec("a", 1, 20, 2), rec("a", 3, 40, 4)], "a");
  const b = seriesOf([rec("b", 1, 20, 5), rec("b", 2, 30, 6)], "b");
  const al = alignSeries([a, b]);
  assert.deepEqual(plain(al), {
    rows: [0, 1, 2, 3], times: [T0 + 10, T0 + 20, T0 + 30, T0 + 40],
    lines: [
      // sample 3 does not follow sample 1 in a: no line across sample 2
      { path: "a", values: [1, 2, "NaN", 4], present: [1, 1, 0, 1], joined: [0, 1, 0, 0] },
      { path: "b", values: ["NaN", 5, 6, "NaN"], present: [0, 1, 1, 0], joined: [0, 0, 1, 0] },
    ],
  });
  // A sample that no series has is not on the axis, but still breaks a line.
  const gap = alignSeries([seriesOf([rec("a", 0, 10, 1), rec("a", 2, 30, 3)], "a")]);
  assert.deepEqual(plain(gap), { rows: [0, 2], times: [T0 + 10, T0 + 30], lines: [{ path: "a", values: [1, 3], present: [1, 1], joined: [0, 0] }] });
  assert.deepEqual(plain(alignSeries([])), { rows: [], times: [], lines: [] });
});

test("seriesTexts: the chart's exact texts, written by the worker, serve when every series is on every sample", () => {
  const a = seriesOf([rec("a", 0, 10, 1.5), rec("a", 1, 20, 0, "NewData")], "a");
  a.text = seriesTexts(a);
  assert.deepEqual(a.text, { times: '["2013-02-19T00:00:00.010","2013-02-19T00:00:00.020"]', rows: "[0,1]", values: "[1.5,null]" });
  const b = seriesOf([rec("b", 0, 10, 2), rec("b", 1, 20, 3)], "b");
  b.text = seriesTexts(b);
  assert.deepEqual(alignSeries([a, b]).text, { times: a.text.times, rows: "[0,1]", values: ["[1.5,null]", "[2,3]"] });
  const c = seriesOf([rec("c", 1, 20, 4)], "c");
  c.text = seriesTexts(c);
  assert.equal(alignSeries([a, c]).text, undefined, "c lacks sample 0: the chart writes its own texts");
});

const f = (name, kind) => ({ name, kind });

test("classifyFiles: a log, V1 captures with a name table, V2 captures with their tables, and what is refused", () => {
  assert.deepEqual(classifyFiles([f("x.blg", "blg")]), { open: "blg", log: f("x.blg", "blg") });
  // A file the module cannot tell is read as a log, so that its decoder says why not.
  assert.equal(classifyFiles([f("x.csv", null)]).open, "blg");
  assert.match(classifyFiles([f("a.blg", "blg"), f("b.blg", "blg")]).error, /one \.blg log at a time/);
  const pair = classifyFiles([f("2.bin", "v1"), f("1.bin", "v1"), f("c.multisz", "names")]);
  assert.deepEqual(pair, { open: "v1", captures: [f("2.bin", "v1"), f("1.bin", "v1")], names: f("c.multisz", "names") });
  assert.match(classifyFiles([f("1", "v1"), f("2", "v1"), f("3", "v1")]).error, /one or two captures/);
  assert.match(classifyFiles([f("c.multisz", "names")]).error, /name table alone/);
  // A name table added to the captures open.
  assert.deepEqual(classifyFiles([f("c.multisz", "names")], pair), { open: "v1", captures: pair.captures, names: f("c.multisz", "names") });
  const v2 = classifyFiles([f("d1", "v2"), f("reg", null), f("d2", "v2"), f("strs", null)]);
  assert.deepEqual(v2, { open: "v2", captures: [f("d1", "v2"), f("d2", "v2")], tables: [f("reg", null), f("strs", null)] });
  assert.match(classifyFiles([f("d1", "v2")]).error, /registration/);
  assert.match(classifyFiles([f("d1", "v2"), f("a", null), f("b", null), f("c", null)]).error, /two files at most/);
  assert.match(classifyFiles([f("d1", "v2"), f("x", "v1"), f("r", null)]).error, /apart from V1/);
  // Tables added to V2 captures open.
  const open = { open: "v2", captures: [f("d1", "v2")], tables: [] };
  assert.deepEqual(classifyFiles([f("reg", null)], open), { open: "v2", captures: open.captures, tables: [f("reg", null)] });
});

test("orderCaptures: older first by time stamp; unknown times keep the order given, last", () => {
  const c = (name, time) => ({ name, time });
  assert.deepEqual(orderCaptures([c("b", 20n), c("a", 10n)]).map((x) => x.name), ["a", "b"]);
  assert.deepEqual(orderCaptures([c("b", 10n), c("a", 10n)]).map((x) => x.name), ["b", "a"]);
  assert.deepEqual(orderCaptures([c("x", null), c("a", 10n)]).map((x) => x.name), ["a", "x"]);
  assert.deepEqual(orderCaptures([c("x", null), c("y", null)]).map((x) => x.name), ["x", "y"]);
});

test("parseIds: perfcalc values --ids' list", () => {
  assert.deepEqual(parseIds("*,0, *,10 ,0x10,-"), [0xffffffff, 0, 0xffffffff, 10, 16, 0xffffffff]);
  assert.deepEqual(parseIds("  "), []);
  assert.throws(() => parseIds("1,x"), /"x" is not a counter id/);
  assert.throws(() => parseIds("4294967296"), /not a counter id/);
});

test("csvName and hintFor", () => {
  assert.equal(csvName("Tx_BasicPerfCounters.blg", 17), "Tx_BasicPerfCounters.17digits.csv");
  assert.equal(csvName("log", 20), "log.20digits.csv");
  const err = (kind) => Object.assign(new Error("x"), { name: "PerfcalcError", kind });
  assert.match(hintFor(err("Limit"), "blg"), /too large/);
  assert.match(hintFor(err("Malformed"), "blg"), /perfmon binary log/);
  assert.match(hintFor(err("Malformed"), "v2"), /registration/);
  assert.equal(hintFor(new Error("x"), "blg"), "");
});

test("compareNodes: case-insensitive, numbers by value, _Total first among instances only", () => {
  const n = (kind, label) => ({ kind, label });
  const sort = (kind, labels) => labels.map((l) => n(kind, l)).sort(compareNodes).map((x) => x.label);
  assert.deepEqual(sort("instance", ["10", "2", "_Total", "1", "0"]), ["_Total", "0", "1", "2", "10"]);
  assert.deepEqual(sort("object", ["processor", "Process", "Memory", "LogicalDisk", "TCPv4"]), ["LogicalDisk", "Memory", "Process", "processor", "TCPv4"]);
  assert.deepEqual(sort("counter", ["Disk Reads/sec", "% Idle Time", "Avg. Disk sec/Read", "disk Bytes/sec"]), ["% Idle Time", "Avg. Disk sec/Read", "disk Bytes/sec", "Disk Reads/sec"]);
  // _Total is first only among instances: an object called _Total sorts as its name.
  assert.deepEqual(sort("object", ["A", "_Total"]), ["_Total", "A"].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base", numeric: true })));
});

test("objectOrder: a search lists the objects whose name holds the query's words first (Processor before Process)", () => {
  const paths = ["\\\\M\\Process(a)\\% Processor Time", "\\\\M\\Processor(_Total)\\% Processor Time", "\\\\M\\Memory\\Available Bytes"];
  const t = new CounterTree(paths, [parts("M", "Process", "a", "% Processor Time"), parts("M", "Processor", "_Total", "% Processor Time"), parts("M", "Memory", null, "Available Bytes")]);
  assert.deepEqual(t.roots.map((r) => r.label), ["Memory", "Process", "Processor"]);
  assert.deepEqual(t.objectOrder(null, searchWords("processor time")).map((r) => r.label), ["Processor", "Memory", "Process"]);
  assert.deepEqual(t.objectOrder(null, searchWords("memory")).map((r) => r.label), ["Memory", "Process", "Processor"]);
  assert.deepEqual(t.objectOrder(null, []).map((r) => r.label), ["Memory", "Process", "Processor"]);
  // The table's rows: the same ranking, then the log's order.
  assert.deepEqual(t.rankLeaves([0, 1, 2], searchWords("processor time")), [1, 0, 2]);
  assert.deepEqual(t.rankLeaves([0, 1, 2], []), [0, 1, 2]);
  assert.deepEqual(t.rankLeaves([0, 2], ["memory"]), [2, 0]);
  // Several machines: the objects under each.
  const m = new CounterTree(paths, [parts("M", "Process", "a", "% Processor Time"), parts("N", "Processor", "_Total", "% Processor Time"), parts("M", "Memory", null, "Available Bytes")]);
  assert.deepEqual(m.objectOrder(m.roots[0], ["process"]).map((r) => r.label), ["Process", "Memory"]);
  assert.deepEqual(m.objectOrder(null, ["process"]).map((r) => r.label), ["M", "N"], "machines keep their order");
});

test("rangeOptions and samplesIn: a zoomed range as relog -b and -e (FILETIMEs), and the samples it keeps", () => {
  assert.deepEqual(rangeOptions(null), {});
  // 2013-02-19 18:50:17.844 (local, as the chart reads it) is FILETIME 130057734178440000 ((1361299817844 ms + 11644473600000 ms from 1601 to 1970) × 10,000).
  const ms = Date.UTC(2013, 1, 19, 18, 50, 17, 844);
  assert.equal(msFileTime(ms), 130057734178440000n);
  assert.equal(fileTimeMs(msFileTime(ms)), ms);
  assert.deepEqual(rangeOptions({ from: ms, to: ms + 60000 }), { begin: 130057734178440000n, end: 130057734178440000n + 600000000n });
  const times = [0, 1000, 2000, 3000, 4000];
  assert.deepEqual(samplesIn(times, { from: 1000, to: 3000 }), { first: 1, end: 4, count: 3 });
  assert.deepEqual(samplesIn(times, { from: 1001, to: 2999 }), { first: 2, end: 3, count: 1 });
  assert.deepEqual(samplesIn(times, { from: 5000, to: 6000 }), { first: 5, end: 5, count: 0 });
});

test("statsByColumn: a range's statistics on the whole log's columns, none for a column absent from the range", () => {
  const paths = ["\\\\M\\Process(a)\\Handles", "\\\\M\\Process(b)\\Handles", "\\\\M\\Memory\\Available Bytes"];
  const s = statsByColumn([{ path: paths[2], count: 3, column: 0 }, { path: paths[0], count: 2, column: 1 }, { path: "\\\\M\\Other", count: 9, column: 2 }], paths);
  assert.equal(s.length, 3);
  assert.deepEqual([s[0]?.count, s[1], s[2]?.count], [2, undefined, 3]);
});
