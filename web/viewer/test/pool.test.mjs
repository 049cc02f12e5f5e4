// The viewer's pool (pool.mjs): the charted counters of a log read in parts
// by several workers are one worker's series, value for value and text for
// text, and its CSV one worker's, byte for byte; the other calls run on the
// first worker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createPool, createWorker } from "../../worker.mjs";
import { viewerWorker, joinSeries } from "../pool.mjs";
import { CORPUS, WASM, repeatLog } from "../../test/helpers.mjs";

const source = new URL("file://" + WASM);
const script = new URL("../worker.mjs", import.meta.url);

test("viewer pool: series and CSV in parts are one worker's", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const tx = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
  const log = repeatLog(tx, 12);
  const cut = log.subarray(0, Math.floor(log.length * 0.7) + 1000); // damaged in the second part
  const one = await createWorker(source, { script });
  const pool = await createPool(one.module, { script, workers: 3 });
  pool._minPart = 65536;
  const work = viewerWorker(pool);
  try {
    const paths = ["\\\\GEORGIS3\\Processor(_Total)\\% Processor Time", "\\\\GEORGIS3\\PhysicalDisk(0 C:)\\Avg. Disk Queue Length"];
    for (const bytes of [log, cut]) {
      assert.ok(pool._parts(bytes.length).length === 3);
      const ref = work.keep(bytes);
      const got = await work.call("series", [ref, paths]);
      const want = await one.call("series", [bytes, paths]);
      assert.equal(got.damage, want.damage);
      assert.equal(got.rows, want.rows);
      for (let k = 0; k < paths.length; k++) {
        const [g, w] = [got.series[k], want.series[k]];
        assert.ok(w.values.length > 0, paths[k]);
        for (const name of ["rows", "times", "values", "statuses"]) assert.deepEqual(g[name], w[name], `${paths[k]} ${name}`);
        assert.deepEqual(g.text, w.text, paths[k]);
      }
      assert.equal(got.parts, 3);
      // relog's CSV in parts: the text of one worker, byte for byte, of
      // every column, of the charted ones (17 digits), and of a time range.
      const cols = await one.columns(bytes);
      const range = { begin: cols.begin + (cols.end - cols.begin) / 3n, end: cols.end - (cols.end - cols.begin) / 4n };
      for (const args of [[[], 20], [paths, 17], [paths, 20, range], [["\\\\GEORGIS3\\PhysicalDisk(*)\\*Queue*"], 20, range]]) {
        const csv = await work.call("csv", [ref, ...args]), want = await one.call("csv", [bytes, ...args]);
        assert.equal(csv.parts, 3);
        assert.equal(csv.text, want.text, JSON.stringify(args[0]));
        assert.equal(csv.extra, want.extra, JSON.stringify(args[0]));
      }
      // The other calls, on the first worker, with the pool's ref.
      assert.deepEqual(await work.columns(ref), await one.columns(bytes));
      assert.equal(await work.call("kind", [ref]), "blg");
      work.release(ref);
    }
    assert.ok((await one.call("series", [cut, paths])).damage, "the cut log is damaged");
  } finally {
    one.terminate();
    work.terminate();
  }
});

test("viewer pool: joinSeries joins texts of empty parts", () => {
  const s = (rows, text) => ({ path: "p", rows: Uint32Array.from(rows), times: new Float64Array(rows.length), values: new Float64Array(rows.length), statuses: new Uint8Array(rows.length), text: { rows: text } });
  const j = joinSeries([{ damage: null, rows: 3, series: [s([0, 1], "[0,1]")] }, { damage: null, rows: 3, series: [s([], "[]")] }, { damage: null, rows: 3, series: [s([2], "[2]")] }]);
  assert.deepEqual(Array.from(j.series[0].rows), [0, 1, 2]);
  assert.equal(j.series[0].text.rows, "[0,1,2]");
});

test("viewer pool: by process ID (identity pid) the series of the PAL log are one worker's, read in one piece, with name:pid paths", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const pal = readFileSync(join(CORPUS, "blg", "PAL_SamplePerfmonLog.blg"));
  const one = await createWorker(source, { script });
  const pool = await createPool(one.module, { script, workers: 2 });
  pool._minPart = 65536;
  const work = viewerWorker(pool);
  let parted = 0;
  const inParts = pool.inParts.bind(pool);
  pool.inParts = (...a) => { parted++; return inParts(...a); };
  try {
    const cols = await work.columns(pal, { identity: "pid" });
    const paths = cols.columns.map((c) => c.path).filter((p) => p.includes("\\Process(rundll32:") && p.endsWith("\\% Processor Time"));
    assert.equal(paths.length, 3, "rundll32's processes 2624, 3320 and 580");
    const ref = work.keep(pal);
    const got = await work.call("series", [ref, paths, undefined, "pid"]);
    const want = await one.call("series", [pal, paths, undefined, "pid"]);
    assert.equal(parted, 0, "read in one piece");
    for (let k = 0; k < paths.length; k++) assert.deepEqual(got.series[k].values, want.series[k].values, paths[k]);
    await work.call("series", [ref, ["\\\\ZACH-PC\\Process(_Total)\\% Processor Time"]]);
    assert.equal(parted, 1, "by name, in parts");
    work.release(ref);
  } finally {
    one.terminate();
    work.terminate();
  }
});
