// The worker helper (worker.mjs): the same results as an instance on this
// thread, AbortSignal honoured at once (the worker stopped and a new one
// started for the next call), errors and bytes kept in the worker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PerfcalcError } from "../perfcalc.mjs";
import { createWorker } from "../worker.mjs";
import { CORPUS, ROOT, WASM, bits, loadModule, repeatLog } from "./helpers.mjs";

const source = new URL("file://" + WASM);

test("worker: the same results as an instance on this thread, bit for bit", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const pc = await loadModule();
  const w = await createWorker(source);
  try {
    const tx = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
    const [a, b] = [pc.stats(tx), await w.stats(tx)];
    assert.deepEqual(b.stats.map((s) => [s.path, s.count, bits(s.mean ?? 0), bits(s.min ?? 0), bits(s.max ?? 0)]),
      a.stats.map((s) => [s.path, s.count, bits(s.mean ?? 0), bits(s.min ?? 0), bits(s.max ?? 0)]));
    assert.deepEqual(await w.columns(tx), pc.columns(tx));
    assert.equal(await w.relog(tx, { format: "csv", digits: 17 }), pc.relog(tx, { format: "csv", digits: 17 }));
    const d = await w.decode(tx, { kind: "blg", counters: "\\Processor(_Total)\\*" });
    assert.deepEqual(d.records.map((r) => bits(r.value)), pc.decode(tx, { kind: "blg", counters: "\\Processor(_Total)\\*" }).records.map((r) => bits(r.value)));
    const g1 = readFileSync(join(ROOT, "testdata", "corpus", "global-1.bin")), g2 = readFileSync(join(ROOT, "testdata", "corpus", "global-2.bin"));
    assert.deepEqual(await w.query(g2, { older: g1 }), pc.query(g2, { older: g1 }));
    assert.equal(await w.sniff(g1), "v1");
    assert.deepEqual(await w.compute({ type: "PERF_100NSEC_TIMER_INV", old: [4000000, 100000000], new: [6500000, 110000000] }), { value: 75, status: "Valid" });
    // A Blob is read in the worker.
    assert.deepEqual(await w.columns(new Blob([tx])), pc.columns(tx));
  } finally {
    w.terminate();
  }
});

test("worker: an AbortSignal stops a long call at once; the calls queued behind it fail; the next call gets a new worker", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const w = await createWorker(source);
  try {
    const big = w.keep(repeatLog(readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")), 40));
    // How long the call takes when it is not stopped.
    let t0 = performance.now();
    const whole = await w.stats(big);
    const full = performance.now() - t0;
    assert.equal(whole.rows, 19243);
    // The call to stop reads a log 4 times as long (about 4 × full when
    // not stopped): stopped at once, it ends in well under half of that,
    // even when the machine's other work slows both.
    const huge = w.keep(repeatLog(readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")), 160));
    const ac = new AbortController();
    t0 = performance.now();
    const long = w.stats(huge, { signal: ac.signal });
    const queued = w.columns(big);
    setTimeout(() => ac.abort(), 50);
    await assert.rejects(long, (e) => e.name === "AbortError");
    const stopped = performance.now() - t0;
    await assert.rejects(queued, (e) => e.name === "AbortError" && /stopped by an aborted call/.test(e.message));
    assert.ok(stopped < 2 * full, `aborted after ${stopped.toFixed(0)} ms; the whole call takes about ${(4 * full).toFixed(0)} ms`);
    // A new worker: the kept bytes are sent to it again.
    const again = await w.columns(big);
    assert.equal(again.samples, 19243);
    // A signal aborted before the call: rejected without a call.
    await assert.rejects(w.stats(big, { signal: AbortSignal.abort() }), (e) => e.name === "AbortError");
    // An abort after the call ended changes nothing.
    const ac2 = new AbortController();
    assert.equal((await w.columns(big, { signal: ac2.signal })).samples, 19243);
    ac2.abort();
    assert.equal((await w.columns(big)).samples, 19243);
    console.log(`     stats of the 10 MB log: ${full.toFixed(0)} ms whole, stopped ${stopped.toFixed(0)} ms after the call (abort at 50 ms)`);
    w.release(big);
    w.release(huge);
    await assert.rejects(w.columns(big), /released/);
  } finally {
    w.terminate();
  }
});

test("worker: the module's errors keep their code and kind; unknown methods are refused", async () => {
  const w = await createWorker(source);
  try {
    await assert.rejects(w.decode(new Uint8Array(100), { kind: "blg" }), (e) => e instanceof PerfcalcError && e.kind === "Malformed" && e.code === -6 && /^blg: WMI_BUFFER_HEADER 0/.test(e.message));
    await assert.rejects(w.call("_call", ["compute"]), /no method _call/);
    await assert.rejects(w.call("constructor"), /no method constructor/);
    // The worker goes on after errors.
    assert.equal(await w.sniff(new Uint8Array(0)), null);
  } finally {
    w.terminate();
  }
});

test("worker: analyze compiles the analyze module once, here, and gives it to each worker; the reports are the instance's", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const pc = await loadModule();
  const w = await createWorker(source);
  try {
    const tx = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
    const want = (await pc.analyze(tx)).json;
    const m = w.loadAnalyzer();
    assert.equal(w.loadAnalyzer(), m, "compiled once");
    assert.ok(WebAssembly.Module.exports(await m).some((e) => e.name === "analyze"), "the module compiled has analyze");
    assert.equal((await w.analyze(tx)).json, want);
    // A new worker (after terminate) gets the same compiled module.
    w.terminate();
    assert.equal((await w.analyze(tx, { interval: 0 })).json, want);
    assert.equal(w.loadAnalyzer(), m);
    // Aborted before the call: rejected without one.
    await assert.rejects(w.analyze(tx, { signal: AbortSignal.abort() }), (e) => e.name === "AbortError");
    // An inherited file not given: its name crosses to this thread.
    const pal = join(ROOT, "..", "shared", "pal", "SystemOverview.xml");
    if (existsSync(pal)) {
      await assert.rejects(w.analyze(tx, { thresholds: { name: "SystemOverview.xml", bytes: readFileSync(pal) } }),
        (e) => e.name === "PerfcalcError" && e.missingFile === "QuickSystemOverview.xml");
    }
  } finally {
    w.terminate();
  }
  // An analyze module that does not load: the call says why.
  const bad = await createWorker(source, { analyzeModule: new URL("file:///nonexistent/perfcalc-analyze.wasm") });
  try {
    await assert.rejects(bad.analyze(new Uint8Array(64)), /loading the analyze module file:\/\/\/nonexistent\/perfcalc-analyze\.wasm: .*ENOENT/);
    assert.ok((await bad.columns(readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")))).samples > 0, "the worker's other calls work");
  } finally {
    bad.terminate();
  }
});
