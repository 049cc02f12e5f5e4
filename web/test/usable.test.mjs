// What a user of the package meets first (issue 25, item 5): results that
// JSON.stringify writes (BigInt FILETIMEs and raw values as decimal strings,
// a Date beside each relog row's and query value's FILETIME), options
// whose name is unknown (a misspelled counter: for counters:) refused in
// every function that takes options, and patterns that select no counter
// refused as perfcalc relog -c refuses them. On testdata/corpus (no shared
// corpus needed).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PerfcalcError, checkOptions, filetimeToDate, init, load } from "../perfcalc.mjs";
import { createWASI } from "../wasi.mjs";
import { createWorker } from "../worker.mjs";
import { ROOT, WASM, loadModule, runNative } from "./helpers.mjs";

const DIR = join(ROOT, "testdata", "corpus");
const LOG = readFileSync(join(DIR, "sample.blg"));
const G1 = readFileSync(join(DIR, "global-1.bin")), G2 = readFileSync(join(DIR, "global-2.bin"));
const NAMES = readFileSync(join(DIR, "counter-009.multisz"));
const source = new URL("file://" + WASM);
const REQ = { type: "PERF_100NSEC_TIMER_INV", old: [4000000, 100000000], new: [6500000, 110000000] };

test("filetimeToDate: UTC FILETIMEs, local ones with their bias, whole milliseconds rounded down", () => {
  assert.equal(filetimeToDate(116444736000000000n).toISOString(), "1970-01-01T00:00:00.000Z");
  assert.equal(filetimeToDate(0n).toISOString(), "1601-01-01T00:00:00.000Z");
  assert.equal(filetimeToDate(116444735999999999n).toISOString(), "1969-12-31T23:59:59.999Z");
  assert.equal(filetimeToDate("133814160000019999").toISOString(), "2025-01-15T12:00:00.001Z");
  assert.equal(filetimeToDate(133814160000000000n, 480).toISOString(), "2025-01-15T20:00:00.000Z");
  assert.equal(filetimeToDate(133814160000000000n, -60).toISOString(), "2025-01-15T11:00:00.000Z");
  assert.throws(() => filetimeToDate({}), TypeError);
});

test("JSON.stringify of relog's rows, decode's, query's and columns' results: BigInts as decimal strings, Dates as ISO 8601", async () => {
  const pc = await loadModule();
  const r = pc.relog(LOG);
  // The sample log's first sample: 01/15/2025 12:00:00 local, PST (bias 480).
  const row = r.rows[0];
  assert.equal(row.time, 133814160000000000n);
  assert.ok(row.date instanceof Date);
  assert.equal(row.date.toISOString(), "2025-01-15T20:00:00.000Z");
  assert.deepEqual(JSON.parse(JSON.stringify(row)), { index: 0, time: "133814160000000000", date: "2025-01-15T20:00:00.000Z", values: [null, 1073741824, 100], statuses: ["NewData", "Valid", "Valid"] });
  const all = JSON.parse(JSON.stringify(r));
  assert.equal(all.rows.length, 10);
  assert.deepEqual(all.rows.map((x) => Date.parse(x.date) - Date.parse(all.rows[0].date)), Array.from({ length: 10 }, (_, i) => 1000 * i));
  assert.deepEqual(Object.keys(row), ["index", "time", "date", "values", "statuses"]); // toJSON is not a field

  const d = pc.decode(LOG);
  assert.equal(d.records[0].bias, 480);
  const dj = JSON.parse(JSON.stringify(d));
  assert.equal(dj.records.length, d.records.length);
  assert.deepEqual([dj.records[1].time, dj.records[1].first, dj.records[1].value, dj.records[1].path],
    [String(d.records[1].time), String(d.records[1].first), d.records[1].value, d.records[1].path]);
  assert.equal(filetimeToDate(d.records[1].time, d.records[1].bias).getTime(), row.date.getTime());

  const q = pc.query(G2, { older: G1, names: NAMES });
  const qj = JSON.parse(JSON.stringify(q));
  assert.equal(qj.length, q.length);
  assert.deepEqual([qj[0].time, qj[0].first, qj[0].date], [String(q[0].time), String(q[0].first), filetimeToDate(q[0].time).toISOString()]);
  assert.ok(q[0].date instanceof Date);

  const c = pc.columns(LOG);
  assert.deepEqual(JSON.parse(JSON.stringify(c)).begin, "133814160000000000");
  assert.deepEqual(JSON.parse(JSON.stringify(c)).end, "133814160090000000");

  // The worker's results too (a structured clone drops toJSON: the helper gives it back).
  const w = await createWorker(source);
  try {
    assert.equal(JSON.stringify(await w.relog(LOG)), JSON.stringify(r));
    assert.equal(JSON.stringify(await w.decode(LOG)), JSON.stringify(d));
    assert.equal(JSON.stringify(await w.query(G2, { older: G1, names: NAMES })), JSON.stringify(q));
    assert.equal(JSON.stringify(await w.columns(LOG)), JSON.stringify(c));
  } finally {
    w.terminate();
  }
});

test("an unknown option throws a TypeError naming it, the nearest known name and the known ones, in every function that takes options", async () => {
  const pc = await loadModule();
  const unknown = (name, near) => (e) => e instanceof TypeError && e.message.includes(`unknown option "${name}"`)
    && (near === null ? !e.message.includes("did you mean") : e.message.includes(`did you mean "${near}"`));
  const calls = [
    ["decode", (o) => pc.decode(LOG, o), "counters"],
    ["relog", (o) => pc.relog(LOG, o), "counters"],
    ["relog csv", (o) => pc.relog(LOG, { format: "csv", ...o }), "counters"],
    ["stats", (o) => pc.stats(LOG, o), "counters"],
    ["columns", (o) => pc.columns(LOG, o), "counters"],
    ["query", (o) => pc.query(G2, { older: G1, names: NAMES, ...o }), "counters"],
    ["computeBatch", (o) => pc.computeBatch([REQ], o), null],
    ["compute's request", (o) => pc.compute({ ...REQ, ...o }), null],
    ["a request's sample", (o) => pc.compute({ ...REQ, new: { first: 6500000, second: 110000000, ...o } }), null],
  ];
  for (const [what, call, takesCounters] of calls) {
    assert.throws(() => call({ counter: "\\System\\*" }), unknown("counter", takesCounters), what);
    assert.throws(() => call({ zzzzzz: 1 }), unknown("zzzzzz", null), what);
    call({ zzzzzz: undefined }); // undefined is absent
  }
  // analyze is asynchronous (its module loads on first use): it rejects.
  await assert.rejects(pc.analyze(LOG, { counter: "\\System\\*" }), unknown("counter", null), "analyze");
  await assert.rejects(pc.analyze(LOG, { palcompat: true }), unknown("palcompat", "palCompat"), "analyze");
  assert.ok(Array.isArray((await pc.analyze(LOG, { zzzzzz: undefined })).report.alerts), "analyze: undefined is absent");
  assert.throws(() => pc.computeBatchArrays(new BigUint64Array(9), { value: new Float64Array(1) }), unknown("value", "values"));
  assert.throws(() => createWASI({ stdot: () => {} }), (e) => e instanceof TypeError && /createWASI: unknown option "stdot"; createWASI takes stdout, stderr/.test(e.message));
  assert.throws(() => pc.relog(LOG, { formt: "csv" }), (e) => unknown("formt", "format")(e) && /relog takes counters, begin, end, every, maxColumns, format, digits, strict, details/.test(e.message));
  assert.throws(() => pc.decode(LOG, "blg"), (e) => e instanceof TypeError && /decode: the options are a string/.test(e.message));
  assert.throws(() => pc.compute(null), TypeError);
  await assert.rejects(load(source, { stdot: () => {} }), unknown("stdot", "stdout"));
  await assert.rejects(init(source, { stdot: () => {} }), unknown("stdot", "stdout"));
  await assert.rejects(createWorker(source, { scrpt: "x.mjs" }), unknown("scrpt", "script"));
  const w = await createWorker(source);
  try {
    await assert.rejects(w.relog(LOG, { counter: "\\System\\*" }), unknown("counter", "counters"));
    await assert.rejects(w.sniff(LOG, { signl: null }), unknown("signl", "signal"));
    await assert.rejects(w.compute(REQ, { signl: null }), unknown("signl", "signal"));
    assert.equal((await w.relog(LOG, { counters: "\\System\\*" })).columns.length, 1); // the worker still answers
  } finally {
    w.terminate();
  }
  assert.doesNotThrow(() => checkOptions({ a: 1 }, ["a"], "f"));
  assert.throws(() => checkOptions({ b: 1 }, ["a"], "f"), /f: unknown option "b" \(did you mean "a"\?\); f takes a/);
});

test("patterns that select no counter throw as perfcalc relog -c says, in every function that takes them; a pattern among others that matches nothing does not", async () => {
  const pc = await loadModule();
  const none = "\\Nope(*)\\*";
  const noMatch = (what) => (e) => e instanceof PerfcalcError && e.kind === "Input" && e.message === `perfcalc: no counter of ${what} matches ${none} \\Nope2\\*${what === "the log" ? " (columns() lists the log's counters)" : ""}`;
  const logCalls = {
    decode: (o) => pc.decode(LOG, o).records.length,
    relog: (o) => pc.relog(LOG, o).columns.length,
    csv: (o) => pc.relog(LOG, { ...o, format: "csv" }).length,
    tsv: (o) => pc.relog(LOG, { ...o, format: "tsv" }).length,
    json: (o) => pc.relog(LOG, { ...o, format: "json" }).length,
    "json, no sample": (o) => pc.relog(LOG, { ...o, format: "json", end: 0 }).length,
    stats: (o) => pc.stats(LOG, o).stats.length,
    columns: (o) => pc.columns(LOG, o).columns.length,
  };
  for (const [what, call] of Object.entries(logCalls)) {
    assert.throws(() => call({ counters: [none, "\\Nope2\\*"] }), noMatch("the log"), what);
    if (what !== "json, no sample") assert.ok(call({ counters: [none, "\\System\\*"] }) > 0, what);
    // A time range that keeps no sample is no error (nothing kept, as before).
    assert.doesNotThrow(() => call({ counters: "\\System\\*", end: 0 }), what);
    assert.doesNotThrow(() => call({ counters: "\\System\\*", begin: 133814160090000001n }), what);
    assert.throws(() => call({ counters: [none, "\\Nope2\\*"], end: 0 }), noMatch("the log"), what);
  }
  // As the command: its message, with the log's name where the package has none.
  const cmd = (() => {
    try {
      runNative("perfcalc", ["relog", join(DIR, "sample.blg"), "-c", none, "-c", "\\Nope2\\*"]);
    } catch (e) {
      return e.stderr.toString();
    }
    return "";
  })();
  assert.ok(cmd.includes(`no counter of ${join(DIR, "sample.blg")} matches ${none} \\Nope2\\*`), cmd);
  assert.equal(pc.relog(LOG, { counters: "\\System\\*", end: 0 }).rows.length, 0);
  for (const format of [undefined, "csv"]) {
    assert.throws(() => pc.query(G2, { older: G1, names: NAMES, counters: [none, "\\Nope2\\*"], format }), noMatch("the newer capture"), String(format));
    // Without the name table, the command's hint: objects are named by their index.
    assert.throws(() => pc.query(G2, { older: G1, counters: "\\Processor(*)\\*", format }),
      (e) => e instanceof PerfcalcError && /no counter of the newer capture matches \\Processor\(\*\)\\\*: without names, objects and counters are named by their index, as in \\#238\(\*\)\\\*/.test(e.message));
  }
  assert.ok(pc.query(G2, { older: G1, counters: "\\#238(*)\\*" }).length > 0);
  const w = await createWorker(source);
  try {
    await assert.rejects(w.stats(LOG, { counters: [none, "\\Nope2\\*"] }), noMatch("the log"));
  } finally {
    w.terminate();
  }
});
