// The pool (createPool): a .blg log read in parts by several workers at
// once (log_part), its records, rows and texts put together in part order,
// the same as one instance's, bit for bit, and as the native command's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPool } from "../worker.mjs";
import { CORPUS, WASM, bits, loadModule, repeatLog, runNative } from "./helpers.mjs";

const source = new URL("file://" + WASM);
const TOTAL = "\\Processor(_Total)\\% Processor Time"; // of every machine

// pool starts a pool of n workers whose parts may be as small as 64 KiB
// (the tests' logs are small), or of 4 MiB (minPart).
async function pool(n, minPart = 65536) {
  const p = await createPool(source, { workers: n });
  p._minPart = minPart;
  return p;
}

const recordKey = (r) => [r.path, r.column, r.aux, r.time, bits(r.value), r.status, r.first, r.second, r.bias].join(" ");

test("pool: decode and relog in parts are one instance's, bit for bit, and the native command's", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const pc = await loadModule();
  const tx = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
  const logs = { tx, "tx x12": repeatLog(tx, 12), pal: readFileSync(join(CORPUS, "blg", "PAL_SamplePerfmonLog.blg")) };
  const dir = mkdtempSync(join(tmpdir(), "perfcalc-web-pool-"));
  for (const n of [2, 3]) {
    const p = await pool(n);
    try {
      for (const [name, log] of Object.entries(logs)) {
        assert.ok(p._parts(log.length).length > 1, `${name}: read in parts`);
        const ref = p.keep(log);
        for (const opts of [{}, { counters: "\\Processor(*)\\*" }, { every: 3 }]) {
          const what = `${name}, ${n} workers, ${JSON.stringify(opts)}`;
          const one = pc.decode(log, { kind: "blg", ...opts }), many = await p.decode(ref, { kind: "blg", ...opts });
          assert.equal(many.records.length, one.records.length, what);
          assert.deepEqual(many.records.map(recordKey), one.records.map(recordKey), what);
          assert.deepEqual({ ...many, records: 0 }, { ...one, records: 0 }, what);
          for (const format of ["csv", "json"]) {
            assert.equal(await p.relog(ref, { format, ...opts }), pc.relog(log, { format, ...opts }), `${what} ${format}`);
          }
          const rows = await p.relog(ref, opts), want = pc.relog(log, opts);
          assert.deepEqual(rows.columns, want.columns, what);
          assert.deepEqual(rows.rows.map((r) => [r.index, r.time, r.values.map((v) => (v === null || v === undefined ? v : bits(v)))]),
            want.rows.map((r) => [r.index, r.time, r.values.map((v) => (v === null || v === undefined ? v : bits(v)))]), what);
        }
        const file = join(dir, "log.blg");
        writeFileSync(file, log);
        assert.equal(await p.relog(ref, { format: "csv", counters: TOTAL }), runNative("perfcalc", ["relog", "-f", "csv", "-c", TOTAL, file]), `${name}: native relog -c`);
        p.release(ref);
      }
      // Bytes (not kept) and a Blob, read by every worker.
      assert.equal(await p.relog(logs["tx x12"], { format: "csv" }), pc.relog(logs["tx x12"], { format: "csv" }));
      assert.equal(await p.relog(new Blob([logs["tx x12"]]), { format: "tsv" }), pc.relog(logs["tx x12"], { format: "tsv" }));
    } finally {
      p.terminate();
    }
  }
});

test("pool: a damaged log ends at its damage, as with one instance", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const pc = await loadModule();
  const big = repeatLog(readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")), 12);
  const cut = big.subarray(0, Math.floor(big.length * 0.4) + 1000); // truncated inside a buffer of the first part of 2
  const p = await pool(2);
  try {
    const one = pc.decode(cut, { kind: "blg" }), many = await p.decode(cut, { kind: "blg" });
    assert.ok(one.damage, "the cut log is damaged");
    assert.equal(many.damage, one.damage);
    assert.deepEqual(many.records.map(recordKey), one.records.map(recordKey));
    assert.deepEqual(await p.relog(cut, { format: "csv", details: true }), pc.relog(cut, { format: "csv", details: true }));
    await assert.rejects(p.relog(cut, { format: "csv", strict: true }), (e) => e.message === one.damage && e.partial === pc.relog(cut, { format: "csv" }));
  } finally {
    p.terminate();
  }
});

test("pool: parts of at least 4 MiB; a small log is read by one worker; no part option", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const p = await pool(4, undefined);
  p._minPart = undefined;
  try {
    assert.deepEqual(p._parts(1 << 20), [[0, 0]]);
    assert.deepEqual(p._parts(9 << 20), [[0, 4718592], [4718592, 0]]);
    assert.equal(p._parts(100 << 20).length, 4);
    const tx = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
    const pc = await loadModule();
    assert.equal(await p.relog(tx, { format: "csv" }), pc.relog(tx, { format: "csv" }));
    await assert.rejects(p.decode(tx, { kind: "blg", part: [0, 0] }), /no part option/);
    await assert.rejects(createPool(source, { workers: 0 }), RangeError);
  } finally {
    p.terminate();
  }
});

test("decode and relog: opts.part gives one part's rows; the parts together are the log's", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const pc = await loadModule();
  const log = repeatLog(readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")), 6);
  const cut = 3 * 65536 + 1234;
  const a = pc.relog(log, { format: "csv", part: [0, cut] }), b = pc.relog(log, { format: "csv", part: [cut, 0] });
  assert.ok(a.length > 0 && b.length > 0 && !b.startsWith('"(PDH-CSV'), "two non-empty parts; the header in the first only");
  assert.equal(a + b, pc.relog(log, { format: "csv" }));
  assert.equal(pc.relog(log, { format: "csv" }), pc.relog(log, { format: "csv", part: undefined }), "the whole log again after a part");
  assert.throws(() => pc.relog(log, { format: "csv", part: 5 }), TypeError);
});
