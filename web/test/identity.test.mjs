// identity: "pid" (issue 21) gives in the module what perfcalc --identity
// pid gives natively: relog's CSV byte for byte, stats' figures, decode's
// and rows' columns, and the identity breaks the command notes on standard
// error, on the PAL sample log and its variant with svchost#2 exiting
// mid-log (written by wasmref exitlog, tools/blgedit); "pdh" stays the
// default output.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COUNTER_TYPES, PerfcalcError } from "../perfcalc.mjs";
import { createPool } from "../worker.mjs";
import { CORPUS, WASM, loadModule, nativeBin, parseExact, runNative } from "./helpers.mjs";

const need = (t) => { if (!CORPUS) t.skip("../shared/corpus is absent: the real captures cannot be read"); return !!CORPUS; };

// logs returns the PAL sample log and its exit variant: [name, file, breaks].
function logs() {
  const pal = join(CORPUS, "blg", "PAL_SamplePerfmonLog.blg");
  const exit = join(mkdtempSync(join(tmpdir(), "perfcalc-identity-")), "exit.blg");
  runNative("wasmref", ["exitlog", pal, exit]);
  return [["pal", pal, 1], ["exit", exit, 11]];
}

// breaksOf runs perfcalc with args and returns its standard output and
// the identity breaks of its note on standard error.
function breaksOf(args) {
  const r = spawn(args);
  const m = /identity: (\d+|no) identity break/.exec(r.stderr);
  assert.ok(m, `perfcalc ${args.join(" ")}: no identity note in ${JSON.stringify(r.stderr)}`);
  return { out: r.stdout, breaks: m[1] === "no" ? 0 : Number(m[1]) };
}

// spawn runs perfcalc with args, which must succeed.
function spawn(args) {
  const r = spawnSync(nativeBin("perfcalc"), args, { maxBuffer: 1 << 28, encoding: "utf8" });
  assert.equal(r.status, 0, `perfcalc ${args.join(" ")}: ${r.stderr}`);
  return r;
}

test("identity pid: relog's CSV, stats, decode and rows equal perfcalc --identity pid, with its breaks", async (t) => {
  if (!need(t)) return;
  const pc = await loadModule();
  for (const [name, file, breaks] of logs()) {
    const bytes = readFileSync(file);
    const csv = breaksOf(["relog", "--identity", "pid", file]);
    assert.equal(csv.breaks, breaks, `${name}: the command's breaks`);
    const text = pc.relog(bytes, { format: "csv", identity: "pid", details: true });
    assert.equal(text.text, csv.out, `${name}: relog csv`);
    assert.equal(text.identityBreaks, breaks, `${name}: relog's identityBreaks`);
    assert.equal(pc.identityBreaks, breaks, `${name}: the instance's identityBreaks`);
    assert.match(text.text.slice(0, text.text.indexOf("\r\n")), /\\Process\(rundll32:580\)\\% Processor Time"/);
    // pdh stays the default, byte for byte, without identityBreaks.
    const pdh = pc.relog(bytes, { format: "csv", details: true });
    assert.equal(pdh.text, runNative("perfcalc", ["relog", file]), `${name}: pdh csv`);
    assert.equal(pdh.identityBreaks, undefined);
    assert.equal(pc.identityBreaks, 0);
    assert.notEqual(pdh.text, text.text);

    // stats: every column's figures, as perfcalc stats --json --identity pid.
    const st = breaksOf(["stats", "--json", "--identity", "pid", file]);
    const want = parseExact(st.out);
    const have = pc.stats(bytes, { identity: "pid" });
    assert.equal(have.identityBreaks, breaks, `${name}: stats' identityBreaks`);
    assert.equal(have.stats.length, want.length, `${name}: stats columns`);
    want.forEach((w, i) => {
      const h = have.stats[i];
      assert.equal(h.path, w.counter);
      assert.equal(h.type, COUNTER_TYPES[w.type]);
      assert.deepEqual([h.count, h.skipped, h.meanStatus], [w.count, w.skipped, w.meanStatus], `${name} ${w.counter}`);
      if (w.mean !== null) assert.equal(h.mean, typeof w.mean === "string" ? Number(w.mean) : w.mean, `${name} ${w.counter} mean`);
    });

    // decode and rows: relog's JSON lines' values, column by column.
    const json = runNative("perfcalc", ["relog", "--identity", "pid", "-f", "json", file]).trim().split("\n").map((l) => parseExact(l));
    const rows = pc.relog(bytes, { identity: "pid" });
    assert.equal(rows.identityBreaks, breaks, `${name}: rows' identityBreaks`);
    assert.equal(rows.rows.length, json.length, `${name}: rows`);
    const dec = pc.decode(bytes, { identity: "pid" });
    assert.equal(dec.identityBreaks, breaks, `${name}: decode's identityBreaks`);
    assert.equal(dec.columns, rows.columns.length);
    rows.rows.forEach((r, i) => {
      const vals = json[i].values;
      assert.equal(Object.keys(vals).length, r.values.filter((v) => v !== undefined).length, `${name} row ${i}`);
      r.values.forEach((v, j) => {
        if (v === undefined) return;
        const w = vals[rows.columns[j]];
        assert.ok(w !== undefined, `${name} row ${i}: ${rows.columns[j]} is not in the command's row`);
        assert.equal(v, w === null ? null : Number(w), `${name} row ${i} ${rows.columns[j]}`);
      });
    });
  }
  assert.throws(() => pc.relog(readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")), { identity: "PID" }), (e) => e instanceof RangeError && /want "pdh" or "pid"/.test(e.message));
});

test("identity pid: instances that share their IDs stay distinct series, as perfcalc relog --identity pid", async () => {
  // wasmref identitylog: Idle/0..3 all ID Process 0 and ID Thread 0, two
  // svchost with PID 500, _Total/_Total, app restarted (blgbuild.IdentityLog).
  const file = join(mkdtempSync(join(tmpdir(), "perfcalc-identity-")), "shared.blg");
  runNative("wasmref", ["identitylog", file]);
  const bytes = readFileSync(file);
  const csv = breaksOf(["relog", "--identity", "pid", file]);
  assert.equal(csv.breaks, 2);
  const pc = await loadModule();
  const text = pc.relog(bytes, { format: "csv", identity: "pid", details: true });
  assert.equal(text.text, csv.out);
  assert.equal(text.identityBreaks, 2);
  const rows = pc.relog(bytes, { identity: "pid" });
  for (const inst of ["Thread(Idle:0/0)", "Thread(Idle:0/0#1)", "Thread(Idle:0/0#2)", "Thread(Idle:0/0#3)", "Thread(_Total/_Total)", "Process(svchost:500)", "Process(svchost:500#1)"]) {
    assert.ok(rows.columns.includes(`\\\\HOST\\${inst}\\ID Process`), `${inst} is a series`);
  }
  assert.equal(rows.columns.length, 39);
  const col = rows.columns.indexOf("\\\\HOST\\Thread(Idle:0/0#3)\\Context Switches/sec");
  assert.equal(rows.rows[1].values[col], 40, "Idle/3's rate, its own");
});

test("identity pid: query pairs V1 Process captures by process, as perfcalc values --identity pid", async (t) => {
  if (!need(t)) return;
  const pc = await loadModule();
  const dir = join(CORPUS, "v1");
  const args = ["--names", join(dir, "pal_counter_009.multisz"), join(dir, "s06_obj230.bin"), join(dir, "s07_obj230.bin"), "-c", "\\Process(rundll32*)\\% Processor Time", "-f", "csv"];
  const native = breaksOf(["values", "--identity", "pid", ...args]);
  const opts = { older: readFileSync(join(dir, "s06_obj230.bin")), names: readFileSync(join(dir, "pal_counter_009.multisz")), counters: "\\Process(rundll32*)\\% Processor Time", identity: "pid" };
  const newer = readFileSync(join(dir, "s07_obj230.bin"));
  assert.equal(pc.query(newer, { ...opts, format: "csv" }), native.out);
  assert.equal(pc.identityBreaks, native.breaks);
  assert.equal(native.breaks, 1);
  const vals = pc.query(newer, opts);
  assert.ok(vals.some((v) => v.path.includes("rundll32:580") && !v.hasOld), "rundll32:580 is new");
  assert.ok(!vals.some((v) => v.path.includes("rundll32#1")));
  pc.query(newer, { ...opts, identity: undefined });
  assert.equal(pc.identityBreaks, 0);
});

test("identity pid: a pool reads the log in one piece, with the command's text and breaks", async (t) => {
  if (!need(t)) return;
  const [, [name, file, breaks]] = logs();
  const pool = await createPool(new URL("file://" + WASM), { workers: 2 });
  try {
    pool._minPart = 64 * 1024; // parts in pdh mode
    const bytes = readFileSync(file);
    const text = await pool.relog(bytes, { format: "csv", identity: "pid", details: true });
    assert.equal(text.text, runNative("perfcalc", ["relog", "--identity", "pid", file]), name);
    assert.equal(text.identityBreaks, breaks);
    const rows = await pool.relog(bytes, { identity: "pid" });
    assert.equal(rows.identityBreaks, breaks);
    assert.equal(pool._parts(bytes.byteLength).length > 1, true, "pdh mode would read it in parts");
  } finally {
    pool.terminate();
  }
});

test("identity: a module without the identity export refuses pid, accepts pdh", async () => {
  const pc = await loadModule();
  const exports = pc.exports;
  pc.exports = { ...exports, identity: undefined };
  try {
    assert.throws(() => pc.stats(new Uint8Array(8), { identity: "pid" }), (e) => e instanceof PerfcalcError && /lacks identity/.test(e.message));
    // pdh goes on to the log, which these 8 bytes are not.
    assert.throws(() => pc.stats(new Uint8Array(8), { identity: "pdh" }), (e) => e instanceof PerfcalcError && !/identity/.test(e.message));
  } finally {
    pc.exports = exports;
  }
});
