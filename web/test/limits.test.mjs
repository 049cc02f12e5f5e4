// Issue 26 in the JS package: a sample lost to a damaged event header is
// counted (skippedEvents) as perfcalc notes it, and maxColumns refuses a
// log of more columns as perfcalc --max-columns does.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PerfcalcError } from "../perfcalc.mjs";
import * as abi from "../abi.mjs";
import { CORPUS, loadModule, nativeBin } from "./helpers.mjs";

/** Runs the native command: its exit status, standard output and standard error. */
function command(args) {
  const r = spawnSync(nativeBin("perfcalc"), args, { encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "pipe"] });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const tmp = mkdtempSync(join(tmpdir(), "perfcalc-limits-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

// PDH's provider GUID, as the log's events carry it.
const PDH = Buffer.from([0xb3, 0x3b, 0x3f, 0x93, 0x3e, 0x94, 0x0d, 0x49, 0x9c, 0xed, 0x3c, 0xbb, 0x14, 0xc1, 0x44, 0x79]);

/** The Tx log with the provider GUID of its PDH event number k (0: the counter list) damaged. */
function damagedTx(k) {
  const log = Buffer.from(readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")));
  let at = -1;
  for (let i = 0; i <= k; i++) at = log.indexOf(PDH, at + 1);
  assert.ok(at > 0, `the log has a PDH event ${k}`);
  log[at + 3] = 0;
  return log;
}

test("a sample lost to a damaged event header: skippedEvents in every result, as perfcalc notes it (issue 26, item 10)", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent: no log to damage");
  const pc = await loadModule();
  for (const [name, bytes] of [["intact", readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"))], ["damaged", damagedTx(5)]]) {
    const file = join(tmp, `${name}.blg`);
    writeFileSync(file, bytes);
    const csv = command(["relog", file, "-f", "csv"]);
    assert.equal(csv.status, 0, csv.stderr);
    // perfcalc relog: note: FILE: N event(s) was/were skipped (…); a sample may be missing
    const note = /: (\d+) events? (?:was|were) skipped/.exec(csv.stderr);
    const want = note ? Number(note[1]) : 0;
    assert.equal(want, name === "damaged" ? 1 : 0, `the command's note: ${csv.stderr}`);
    const text = pc.relog(bytes, { format: "csv", details: true });
    assert.deepEqual(text, { text: csv.stdout, damage: null, skippedEvents: want });
    assert.equal(pc.relog(bytes, { format: "csv" }), csv.stdout, "without details, the text alone");
    const rows = pc.relog(bytes);
    assert.equal(rows.skippedEvents, want);
    assert.equal(rows.rows.length, csv.stdout.split("\r\n").length - 2);
    assert.equal(pc.decode(bytes, { kind: "blg" }).skippedEvents, want);
    assert.equal(pc.stats(bytes).skippedEvents, want);
    assert.equal(pc.columns(bytes).skippedEvents, want);
  }
});

test("maxColumns: a log of more columns is refused as perfcalc --max-columns refuses it, in every call (issue 26, item 7)", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent: no log");
  const file = join(CORPUS, "blg", "Tx_BasicPerfCounters.blg");
  const bytes = readFileSync(file);
  const pc = await loadModule();
  const n = pc.columns(bytes).columns.length;
  assert.ok(n > 2);
  const refused = command(["relog", file, "-f", "csv", "--max-columns", String(n - 1)]);
  assert.equal(refused.status, 1);
  // perfcalc relog: FILE: more than N columns (…); --max-columns N raises the limit (0: none)
  const message = "perfcalc: " + refused.stderr.trim().slice(`perfcalc relog: ${file}: `.length).replace("--max-columns N", "maxColumns");
  assert.match(message, new RegExp(`^perfcalc: more than ${n - 1} columns .*maxColumns raises the limit \\(0: none\\)$`));
  const calls = {
    decode: (o) => pc.decode(bytes, { kind: "blg", ...o }),
    relog: (o) => pc.relog(bytes, o),
    text: (o) => pc.relog(bytes, { format: "csv", ...o }),
    stats: (o) => pc.stats(bytes, o),
    columns: (o) => pc.columns(bytes, o),
  };
  const csv = command(["relog", file, "-f", "csv"]).stdout;
  for (const [name, call] of Object.entries(calls)) {
    assert.throws(() => call({ maxColumns: n - 1 }), (e) => e instanceof PerfcalcError && e.code === abi.CODE_LIMIT && e.kind === "Limit" && e.message === message, name);
    assert.throws(() => call({ maxColumns: 1 }), (e) => e instanceof PerfcalcError && e.code === abi.CODE_LIMIT && e.message.startsWith("perfcalc: more than 1 columns "), name);
    for (const maxColumns of [n, 0, undefined, null, 1_000_000]) call({ maxColumns }); // no error
    assert.throws(() => call({ maxColumns: -1 }), RangeError, name);
    assert.throws(() => call({ maxColumns: 1.5 }), RangeError, name);
  }
  // The limit is per call: the call after a refusal has the default again.
  assert.equal(pc.relog(bytes, { format: "csv" }), csv);
  // A selection of fewer columns fits.
  const two = pc.relog(bytes, { counters: pc.columns(bytes).columns.slice(0, 2).map((c) => c.path), maxColumns: 2 });
  assert.equal(two.columns.length, 2);
});

test("patterns of 1,000 to 2,000 stars select what one star selects (issue 26, item 10)", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent: no log");
  const bytes = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
  const pc = await loadModule();
  const stars = "*".repeat(1000); // two runs in a path of at most 2,048 bytes
  const one = pc.relog(bytes, { format: "csv", counters: ["\\\\*\\Processor(*)\\*", "\\\\*\\Memory\\*"] });
  const many = pc.relog(bytes, { format: "csv", counters: [`\\\\*\\Processor(${stars})\\${stars}`, `\\\\*\\Memory\\${stars}${stars}`] });
  assert.equal(many, one);
  assert.ok(one.split("\r\n")[0].split(",").length > 2);
});
