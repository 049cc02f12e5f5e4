// Text for people (format.mjs) and the chart's pure parts (chart.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { niceStep, lineRuns, timeTicks } from "../chart.mjs";
import { valuesJSON } from "../model.mjs";
import { duration, exact, fileTimeMs, fmt, fmtBytes, isoMs, isoTime, statusWords, typeName, unitOf, utcOffset } from "../format.mjs";

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
