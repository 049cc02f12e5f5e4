// A log cut short and a capture malformed where a query does not look: the
// JS package says what the command line says.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PerfcalcError } from "../perfcalc.mjs";
import { execFileSync } from "node:child_process";
import { CORPUS, ROOT, lines, loadModule, nativeBin } from "./helpers.mjs";

/** Runs the native command: its exit status, standard output and the message of its last error line. */
function command(args) {
  try {
    return { status: 0, stdout: execFileSync(nativeBin("perfcalc"), args, { encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "pipe"] }), stderr: "" };
  } catch (e) {
    if (typeof e.status !== "number") throw e;
    return { status: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}

const tmp = mkdtempSync(join(tmpdir(), "perfcalc-damage-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

for (const cut of [196608, 200000]) {
  test(`the Tx log cut at ${cut} bytes: the rows before the damage and the command's message, from every call`, async (t) => {
    if (!CORPUS) return t.skip("../shared/corpus is absent: the real log cannot be cut");
    const bytes = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")).subarray(0, cut);
    const file = join(tmp, `tx-${cut}.blg`);
    writeFileSync(file, bytes);
    const csv = command(["relog", file, "-f", "csv"]);
    assert.equal(csv.status, 1, "the command reports the damage");
    // perfcalc relog: FILE: <the decoder's message>
    const message = new RegExp(`^perfcalc relog: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: (.*)$`, "m").exec(csv.stderr)[1];
    const pc = await loadModule();
    // Text: strict throws the message with the rows before it; without, the rows alone.
    assert.throws(() => pc.relog(bytes, { format: "csv", strict: true }), (e) => e instanceof PerfcalcError && e.message === message && e.partial === csv.stdout);
    assert.equal(pc.relog(bytes, { format: "csv" }), csv.stdout);
    // Rows, records, statistics and columns: the damage with what came before it.
    const rows = pc.relog(bytes);
    assert.equal(rows.damage, message);
    assert.equal(rows.rows.length, lines(command(["relog", file, "-f", "json"]).stdout).length);
    assert.ok(rows.rows.length > 0);
    assert.equal(pc.decode(bytes, { kind: "blg" }).damage, message);
    const stats = command(["stats", file, "--json"]);
    assert.equal(stats.status, 1);
    const st = pc.stats(bytes);
    assert.equal(st.damage, message);
    assert.deepEqual(st.stats.map((s) => [s.path, s.count]), JSON.parse(stats.stdout).map((s) => [s.counter, s.count]));
    const cols = pc.columns(bytes);
    assert.equal(cols.damage, message);
    assert.equal(cols.samples, rows.rows.length);
    console.log(`     cut at ${cut}: ${rows.rows.length} rows, then: ${message}`);
  });
}

test("query: a counter filter that selects nothing, or another object, still reports a malformed capture (issue 12 item 7)", async () => {
  const dir = join(ROOT, "testdata", "corpus");
  const g1 = readFileSync(join(dir, "global-1.bin")), names = readFileSync(join(dir, "counter-009.multisz"));
  // The newer capture with the first instance's counter block of the
  // Processor object (238) claiming 2^31-1 bytes.
  const bad = new Uint8Array(readFileSync(join(dir, "global-2.bin")));
  const dv = new DataView(bad.buffer);
  let broken = false;
  for (let k = 0, off = dv.getUint32(24, true); k < dv.getUint32(28, true); k++, off += dv.getUint32(off, true)) {
    if (dv.getUint32(off + 12, true) !== 238) continue;
    const inst = off + dv.getUint32(off + 4, true);
    dv.setUint32(inst + dv.getUint32(inst, true), 0x7fffffff, true);
    broken = true;
  }
  assert.ok(broken);
  const file = join(tmp, "global-2-bad.bin");
  writeFileSync(file, bad);
  const pc = await loadModule();
  // Every counter: the capture's error.
  assert.throws(() => pc.query(bad, { older: g1, names }), (e) => e instanceof PerfcalcError && e.kind === "Malformed" && /PERF_COUNTER_BLOCK 0 at 0x3170/.test(e.message));
  // A filter that selects another object, or nothing: the same error, as the command gives it.
  for (const counters of ["\\System\\*", "\\Nothing\\*"]) {
    const native = command(["values", join(dir, "global-1.bin"), file, "--names", join(dir, "counter-009.multisz"), "-c", counters, "-f", "json"]);
    assert.equal(native.status, 1, `-c ${counters}: the command refuses the capture`);
    assert.match(native.stderr, /PERF_COUNTER_BLOCK 0 at 0x3170/);
    assert.throws(() => pc.query(bad, { older: g1, names, counters }), (e) => e instanceof PerfcalcError && e.kind === "Malformed" && native.stderr.includes(e.message), `-c ${counters}`);
  }
});
