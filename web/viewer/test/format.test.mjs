// Text for people (format.mjs) and the chart's pure parts (chart.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { axisTitle, columnEnvelope, drawOrder, lineRuns, lowerBound, niceStep, rangeStats, timeTicks, upperBound, zoomKey } from "../chart.mjs";
import { valuesJSON } from "../model.mjs";
import { duration, exact, fileTimeMs, fmt, fmtBytes, fmtShort, isoMs, isoTime, relogTimeText, statusWords, typeName, unitFor, unitOf, utcOffset } from "../format.mjs";

test("exact keeps every bit of a value; fmt rounds for reading", () => {
  for (const v of [0.1 + 0.2, 6.5500000000000006e-5, 9.223372036854776e18, -0, 1e-310]) assert.ok(Object.is(Number(exact(v)), v), String(v));
  assert.equal(exact(-0), "-0");
  assert.equal(exact(null), "");
  assert.equal(fmt(1234567.891), "1,234,568");
  assert.equal(fmt(0.000012345678), "1.2346e-5");
  assert.equal(fmt(2e15), "2.0000e15");
  assert.equal(fmt(0), "0");
  assert.equal(fmt(null), "");
  assert.equal(fmtBytes(393216), "393.2 kB");
  assert.equal(fmtBytes(12), "12 bytes");
});

test("times: FILETIMEs as relog's JSON writes them, durations, UTC offsets", () => {
  // 2013-02-19 18:50:17.844 as a FILETIME (the Tx log's first sample, local time).
  const ft = (BigInt(Date.UTC(2013, 1, 19, 18, 50, 17, 844)) + 11644473600000n) * 10000n;
  assert.equal(ft, 130057734178440000n);
  assert.equal(isoTime(ft), "2013-02-19T18:50:17.844");
  assert.equal(fileTimeMs(ft), Date.UTC(2013, 1, 19, 18, 50, 17, 844));
  assert.equal(isoTime(ft + 9999n), "2013-02-19T18:50:17.844"); // truncated to the millisecond, as relog prints
  // isoMs computes the date once per day: the same text as Date's, across days, years and before 1970.
  for (const ms of [0, 1, 86399999, 86400000, Date.UTC(2012, 1, 29, 23, 59, 59, 999), Date.UTC(2100, 11, 31, 0, 0, 0, 1), Date.UTC(1969, 11, 31, 23, 0, 0, 5), Date.UTC(1601, 0, 1)]) {
    assert.equal(isoMs(ms), new Date(ms).toISOString().slice(0, 23), String(ms));
  }
  assert.equal(duration(1500), "1.5 s");
  assert.equal(duration(600000), "10 min");
  assert.equal(duration(93784000), "1 d 2 h 3 min");
  assert.equal(utcOffset(480), "UTC−08:00");
  assert.equal(utcOffset(-330), "UTC+05:30");
});

test("counter types: names, units and status words", () => {
  assert.equal(typeName(0x10410400), "PERF_COUNTER_COUNTER");
  assert.equal(typeName(0x12345678), "0x12345678");
  assert.equal(unitOf(0x10410400), "/sec");
  assert.equal(unitOf(0x20570500), "%"); // PERF_100NSEC_TIMER_INV
  assert.equal(unitOf(0x00010000), "");
  assert.deepEqual(statusWords("NegativeDenominator"), ["Negative", "Denominator"]);
});

test("chart scales: nice steps and time ticks", () => {
  assert.equal(niceStep(100, 5), 20);
  assert.equal(niceStep(1, 4), 0.25);
  assert.equal(niceStep(7, 5), 2);
  const { ticks, step } = timeTicks(0, 600000, 1000); // ten minutes over 1,000 px: at most 9 ticks
  assert.equal(step, 120000);
  assert.deepEqual(ticks, [0, 120000, 240000, 360000, 480000, 600000]);
});

test("time ticks beyond a week: calendar months and years, a few whatever the range (issue 32, item 11)", () => {
  const day = 86400000, year = 365 * day, t0 = Date.UTC(2013, 1, 19, 18, 50);
  const iso = (ticks) => ticks.map((t) => new Date(t).toISOString().slice(0, 10));
  // 10 weeks over 1,000 px (9 steps at most): weeks are too many, months it is.
  let r = timeTicks(t0, t0 + 70 * day, 1000);
  assert.equal(r.months, 1);
  assert.deepEqual(iso(r.ticks), ["2013-03-01", "2013-04-01"]);
  r = timeTicks(t0, t0 + year, 500); // 4 ticks at most: 3 months
  assert.equal(r.months, 3);
  assert.deepEqual(iso(r.ticks), ["2013-04-01", "2013-07-01", "2013-10-01", "2014-01-01"]);
  // 20,000 years (it drew a line a week: a million of them) over 1,000 px.
  r = timeTicks(t0, t0 + 20000 * year, 1000);
  assert.equal(r.months, 60000); // 5,000 years
  assert.deepEqual(r.ticks.map((t) => new Date(t).getUTCFullYear()), [5000, 10000, 15000, 20000]);
  for (const [a, b, w] of [[t0, t0 + 28000 * year, 2000], [-62135596800000, 8.64e15, 300], [t0, t0 + 400 * day, 5000]]) {
    r = timeTicks(a, b, w);
    assert.ok(r.ticks.length >= 1 && r.ticks.length <= Math.max(2, Math.floor(w / 110)) + 3, `${r.ticks.length} ticks`);
    assert.ok(r.ticks.every((t, i) => t >= a && t <= b && (i === 0 || t > r.ticks[i - 1])));
  }
});

test("valuesJSON: exact values, null for none, -0 kept", () => {
  assert.equal(valuesJSON(Float64Array.of(0.1 + 0.2, NaN, 1e-310, 5)), "[0.30000000000000004,null,1e-310,5]");
  assert.deepEqual(JSON.parse(valuesJSON(Float64Array.of(-0, 1.5, NaN))), ["-0", "1.5", null]);
});

test("lineRuns: breaks at missing values and samples, min and max per pixel column", () => {
  const y = (v) => v;
  // Two runs: the null breaks, and the third point does not follow the second.
  assert.deepEqual(lineRuns([0, 1, 2, 3], [1, NaN, 3, 4], [0, 0, 0, 1], y), [[[0, 1]], [[2, 3], [3, 4]]]);
  assert.deepEqual(lineRuns([0, 10, 20], [1, 2, 3], [0, 0, 1], y), [[[0, 1]], [[10, 2], [20, 3]]]);
  // 1,000 points over 10 pixels: each column keeps its first, lowest, highest and last point.
  const n = 1000, xs = [], vs = [], joined = new Uint8Array(n).fill(1);
  for (let k = 0; k < n; k++) { xs.push((k / n) * 10); vs.push(k % 7 === 0 ? 100 : k % 5); }
  joined[0] = 0;
  const runs = lineRuns(xs, vs, joined, y);
  assert.equal(runs.length, 1);
  assert.ok(runs[0].length <= 4 * 11, `${runs[0].length} points`);
  assert.equal(Math.max(...runs[0].map((p) => p[1])), 100);
  assert.equal(Math.min(...runs[0].map((p) => p[1])), 0);
});

test("unitFor: a unit for every counter, from its type's display suffix and, for sizes, its name", () => {
  const [COUNTER, BULK, RAW, LARGE_RAW, TIMER_100NS, AVERAGE_TIMER, AVERAGE_BULK, QUEUELEN] =
    [0x10410400, 0x10410500, 0x00010000, 0x00010100, 0x20510500, 0x30020400, 0x40020500, 0x00450500];
  for (const [type, name, want] of [
    [TIMER_100NS, "% Processor Time", "%"],
    [AVERAGE_TIMER, "Avg. Disk sec/Read", "seconds"],
    [BULK, "Disk Bytes/sec", "bytes/sec"],
    [COUNTER, "Interrupts/sec", "/sec"],
    [RAW, "Available Bytes", "bytes"],
    [LARGE_RAW, "Committed Bytes", "bytes"],
    [RAW, "Available MBytes", "MB"],
    [RAW, "Available KBytes", "KB"],
    [RAW, "Pool Nonpaged Bytes", "bytes"],
    [AVERAGE_BULK, "Avg. Disk Bytes/Read", "bytes"],
    [RAW, "Processes", "count"],
    [QUEUELEN, "Avg. Disk Queue Length", "count"],
    [RAW, "Bytes Total/sec", "bytes"], // a raw count named like a rate: the type says it is not one
  ]) assert.equal(unitFor(type, name), want, `${name} (0x${type.toString(16)})`);
  assert.equal(relogTimeText(Date.UTC(2013, 1, 19, 18, 50, 17, 844)), "02/19/2013 18:50:17.844");
});

test("columnEnvelope: min, max and mean per pixel column, runs broken as lineRuns breaks them", () => {
  // 8 samples over 2 columns (x 0.0..0.75 round to 0 or 1), then a missing value, then a new run.
  const xs = [0, 0.2, 0.4, 0.6, 1.0, 1.2, 1.4, 3, 4, 4.2];
  const vs = [1, 5, 3, 4, 10, 2, 6, NaN, 7, 9];
  const joined = Uint8Array.of(0, 1, 1, 1, 1, 1, 1, 1, 1, 1);
  const runs = columnEnvelope(xs, vs, joined);
  assert.deepEqual(runs, [
    [{ c: 0, lo: 1, hi: 5, n: 3, k0: 0, k1: 3, mean: 3 }, { c: 1, lo: 2, hi: 10, n: 4, k0: 3, k1: 7, mean: 5.5 }],
    [{ c: 4, lo: 7, hi: 9, n: 2, k0: 8, k1: 10, mean: 8 }],
  ]);
  // A sample that does not follow the one before in the series starts a run, even in the same column.
  assert.equal(columnEnvelope([0, 0.1], [1, 2], Uint8Array.of(0, 0)).length, 2);
  // A range of the samples only.
  assert.deepEqual(columnEnvelope(xs, vs, joined, 4, 6), [[{ c: 1, lo: 2, hi: 10, n: 2, k0: 4, k1: 6, mean: 6 }]]);
  // 76,603 samples over 800 columns: at most 801 cells, and the extremes kept.
  const n = 76603, bx = new Float64Array(n), bv = new Float64Array(n), bj = new Uint8Array(n).fill(1);
  for (let k = 0; k < n; k++) { bx[k] = (k / n) * 800; bv[k] = k === 12345 ? 1e6 : k % 97; }
  const big = columnEnvelope(bx, bv, bj);
  assert.equal(big.length, 1);
  assert.ok(big[0].length <= 801, `${big[0].length} columns`);
  assert.equal(big[0].reduce((a, c) => a + c.n, 0), n);
  assert.equal(Math.max(...big[0].map((c) => c.hi)), 1e6);
});

test("rangeStats, lowerBound, drawOrder and axisTitle", () => {
  assert.deepEqual(rangeStats([1, NaN, 3, 8], 0, 4), { min: 1, mean: 4, max: 8, n: 3 });
  assert.deepEqual(rangeStats([1, NaN, 3], 1, 2), null);
  assert.equal(lowerBound([1, 2, 2, 5], 2), 1);
  assert.equal(lowerBound([1, 2, 2, 5], 6), 4);
  assert.equal(lowerBound([1, 2, 2, 5], 0), 0);
  // _Total is drawn last (on top), the others in the selection's order.
  assert.deepEqual(drawOrder(["\\\\M\\Processor(_Total)\\% Processor Time", "\\\\M\\Processor(0)\\% Processor Time", "\\\\M\\Memory\\Available Bytes"]), [1, 2, 0]);
  assert.deepEqual(drawOrder(["\\\\M\\Thread(svchost/_Total)\\Context Switches/sec", "\\\\M\\Thread(a/1)\\Context Switches/sec"]), [1, 0]);
  assert.deepEqual(drawOrder(["\\\\M\\A\\_Total count"]), [0]);
  assert.equal(axisTitle(["%", "%"], false), "%");
  assert.equal(axisTitle(["%", "bytes", "%"], false), "% · bytes");
  assert.match(axisTitle(["%"], true), /^scaled/);
  assert.equal(axisTitle([], false), "");
});

test("zoomKey: + and - zoom around the middle, arrows move by a quarter within the log, 0 and Escape the whole log", () => {
  // A log from 1000 to 9000 ms, shown whole.
  assert.deepEqual(zoomKey("+", 1000, 9000, 1000, 9000), { from: 3000, to: 7000 });
  assert.deepEqual(zoomKey("=", 1000, 9000, 1000, 9000), { from: 3000, to: 7000 });
  assert.equal(zoomKey("-", 1000, 9000, 1000, 9000), undefined, "the whole log: nothing to zoom out of");
  assert.equal(zoomKey("ArrowLeft", 1000, 9000, 1000, 9000), undefined);
  assert.equal(zoomKey("0", 1000, 9000, 1000, 9000), undefined);
  assert.equal(zoomKey("x", 3000, 7000, 1000, 9000), undefined);
  // Zoomed to 3000..7000: out doubles the span, back to the whole log (null).
  assert.equal(zoomKey("-", 3000, 7000, 1000, 9000), null);
  assert.deepEqual(zoomKey("-", 4000, 5000, 1000, 9000), { from: 3500, to: 5500 });
  // Out near an end: the span kept, moved inside the log.
  assert.deepEqual(zoomKey("-", 1000, 2000, 1000, 9000), { from: 1000, to: 3000 });
  // Arrows: a quarter of the span, kept within the log; at its end, nothing.
  assert.deepEqual(zoomKey("ArrowRight", 3000, 7000, 1000, 9000), { from: 4000, to: 8000 });
  assert.deepEqual(zoomKey("ArrowLeft", 3000, 7000, 1000, 9000), { from: 2000, to: 6000 });
  assert.deepEqual(zoomKey("ArrowRight", 4500, 8500, 1000, 9000), { from: 5000, to: 9000 });
  assert.equal(zoomKey("ArrowRight", 5000, 9000, 1000, 9000), undefined);
  assert.equal(zoomKey("ArrowLeft", 1000, 5000, 1000, 9000), undefined);
  // Whole ms: the range's ends rounded inward.
  assert.deepEqual(zoomKey("+", 0, 1001, 0, 2000), { from: 251, to: 750 });
  assert.equal(zoomKey("+", 0, 1, 0, 2000), undefined, "less than a ms: no further zoom");
  for (const k of ["0", "Escape", "Home"]) assert.equal(zoomKey(k, 3000, 7000, 1000, 9000), null, k);
});

test("upperBound: the first index past t, at times of a FILETIME's size too", () => {
  assert.equal(upperBound([1, 2, 2, 3], 2), 3);
  assert.equal(upperBound([1, 2, 2, 3], 0), 0);
  assert.equal(upperBound([1, 2, 2, 3], 3), 4);
  // A log's last sample, in ms since 1601: t + 1e-9 is t itself; upperBound keeps it in the range.
  const t = 1361299217840;
  assert.equal(t + 1e-9, t);
  assert.equal(upperBound([t - 1000, t], t), 2);
});

test("fmtShort: 5 significant digits (6 fraction digits at most), the integer part whole, an exponent outside 1e-3..1e7", () => {
  assert.equal(fmtShort(null), "");
  assert.equal(fmtShort(0), "0");
  assert.equal(fmtShort(146602.7), "146,603");
  assert.equal(fmtShort(5309.189), "5,309.2");
  assert.equal(fmtShort(16.72861), "16.729");
  assert.equal(fmtShort(0.0025994123), "0.002599");
  assert.equal(fmtShort(0.0012345), "0.001235");
  assert.equal(fmtShort(-0.1007018), "-0.1007");
  assert.equal(fmtShort(0.00085), "8.500e-4");
  assert.equal(fmtShort(9999999), "9,999,999");
  assert.equal(fmtShort(12345678), "1.235e7");
});
