// relog(bytes, {format: "bin"}) against the native perfcalc relog -f bin
// -o: the same .blg bytes on the real logs, with and without a selection
// (-c, -b/-e, -t).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PerfcalcError } from "../perfcalc.mjs";
import { createPool } from "../worker.mjs";
import { CORPUS, WASM, loadModule, runNative } from "./helpers.mjs";

const LOGS = ["Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"];
const PROCESSOR = "\\\\*\\Processor(*)\\% Processor Time";

// nativeBin returns the bytes of perfcalc relog FILE -f bin -o OUT args.
function nativeBin(file, args = []) {
  const out = join(mkdtempSync(join(tmpdir(), "perfcalc-relogbin-")), "out.blg");
  runNative("perfcalc", ["relog", file, "-f", "bin", "-o", out, ...args]);
  return readFileSync(out);
}

// filetime is the FILETIME of a local date and time as relog -b reads it.
const filetime = (y, mo, d, h, mi, s) => (BigInt(Date.UTC(y, mo - 1, d, h, mi, s) / 1000) + 11644473600n) * 10_000_000n;

test("relog format bin equals perfcalc relog -f bin -o, byte for byte", { skip: CORPUS === null && "no ../shared/corpus" }, async () => {
  const pc = await loadModule();
  for (const name of LOGS) {
    const file = join(CORPUS, "blg", name);
    const bytes = readFileSync(file);
    const have = pc.relog(bytes, { format: "bin" });
    assert.ok(have instanceof Uint8Array && have.length > 0x10000, name);
    assert.deepEqual(Buffer.from(have), nativeBin(file), `${name}: ${have.length} bytes`);
    // The log written reads back to the input's CSV.
    assert.equal(pc.relog(have, { format: "csv" }), pc.relog(bytes, { format: "csv" }), `${name}: read back`);
    // -c on every log.
    const sel = "\\\\*\\Processor(*)\\*";
    assert.deepEqual(Buffer.from(pc.relog(bytes, { format: "bin", counters: sel })), nativeBin(file, ["-c", sel]), `${name} -c`);
  }
});

test("relog format bin with -c, -b/-e and -t equals the native log", { skip: CORPUS === null && "no ../shared/corpus" }, async () => {
  const pc = await loadModule();
  const file = join(CORPUS, "blg", "Tx_BasicPerfCounters.blg");
  const bytes = readFileSync(file);
  const opts = { counters: PROCESSOR, begin: filetime(2013, 2, 19, 18, 52, 0), end: filetime(2013, 2, 19, 18, 55, 0), every: 3 };
  const have = pc.relog(bytes, { format: "bin", ...opts });
  assert.deepEqual(Buffer.from(have), nativeBin(file, ["-c", PROCESSOR, "-b", "02/19/2013 18:52:00", "-e", "2013-02-19T18:55:00", "-t", "3"]));
  const text = pc.relog(have, { format: "csv" });
  assert.equal(text, pc.relog(bytes, { format: "csv", ...opts }));
  assert.ok(text.split("\n").length > 3 && text.split("\n")[0].includes("Processor(_Total)"), text.slice(0, 200));
  const d = pc.relog(bytes, { format: "bin", details: true, ...opts });
  assert.deepEqual(d.bytes, have);
  assert.equal(d.damage, null);
  // What does not apply, and a selection of nothing, as perfcalc relog -c.
  assert.throws(() => pc.relog(bytes, { format: "bin", digits: 17 }), RangeError);
  assert.throws(() => pc.relog(bytes, { format: "bin", part: [0, 0] }), RangeError);
  assert.throws(() => pc.relog(bytes, { format: "bin", counters: "\\Nope\\*" }), PerfcalcError);
});

test("a pool's relog format bin is the whole log's, by one worker", { skip: CORPUS === null && "no ../shared/corpus" }, async () => {
  const pc = await loadModule();
  const bytes = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
  const p = await createPool(new URL("file://" + WASM), { workers: 2 });
  try {
    p._minPart = 65536; // parts of the small log, as pool.test.mjs
    const ref = p.keep(bytes);
    const want = pc.relog(bytes, { format: "bin", counters: PROCESSOR });
    assert.deepEqual(await p.relog(ref, { format: "bin", counters: PROCESSOR }), want);
    assert.deepEqual(await p.relog(bytes, { format: "bin" }), pc.relog(bytes, { format: "bin" }));
  } finally {
    p.terminate();
  }
});

test("relog format bin by process ID equals perfcalc relog -f bin --identity pid", { skip: CORPUS === null && "no ../shared/corpus" }, async () => {
  const pc = await loadModule();
  const file = join(CORPUS, "blg", "PAL_SamplePerfmonLog.blg");
  const bytes = readFileSync(file);
  const sel = "\\Process(rundll32*)\\% Processor Time";
  const have = pc.relog(bytes, { format: "bin", counters: sel, identity: "pid" });
  assert.deepEqual(Buffer.from(have), nativeBin(file, ["-c", sel, "--identity", "pid"]));
  // Written column by column with relog's names: the processes' name:pid.
  const text = pc.relog(have, { format: "csv" });
  assert.match(text.split("\n")[0], /rundll32:580/);
  assert.equal(text, pc.relog(bytes, { format: "csv", counters: sel, identity: "pid" }));
});
