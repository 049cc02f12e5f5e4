// The decode, query and relog functions give what the native code gives on
// the real captures: the module's record builders run natively (wasmref,
// from tools/wasmref), the perfcalc command's relog, and the manifest of an
// independent reader.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COUNTER_TYPES, PerfcalcError } from "../perfcalc.mjs";
import { CORPUS, ROOT, bits, lines, loadModule, parseExact, repeatLog, runNative } from "./helpers.mjs";

const STATUS = ["Valid", "NewData", "NegativeDenominator", "NegativeValue", "InvalidData", "NotDisplayable", "UnknownType"];

// pathOf formats a path from its parts as PDH does (the corpus's names
// need no "#0"): the records' parts are those of their paths.
const pathOf = (p) => `${p.machine ? `\\\\${p.machine}` : ""}\\${p.object}` +
  (p.instance === null ? "" : `(${p.parent === null ? "" : `${p.parent}/`}${p.instance}${p.index > 0 ? `#${p.index}` : ""})`) + `\\${p.counter}`;

// sameRecords compares the module's records with wasmref's JSON lines, every
// field, the value's bits included.
// The parts of each path are checked by formatting them.
function sameRecords(have, wantText, what) {
  const want = lines(wantText);
  assert.equal(have.length, want.length, `${what}: ${have.length} records, native ${want.length}`);
  assert.ok(want.length > 0, `${what}: no records`);
  for (let i = 0; i < want.length; i++) {
    const h = have[i], w = want[i];
    const msg = `${what} record ${i} ${w.path}`;
    assert.equal(h.path, w.path, msg);
    assert.equal(pathOf(h.parts), h.path, `${msg}: parts ${JSON.stringify(h.parts)}`);
    assert.equal(bits(h.value), BigInt("0x" + w.bits), msg);
    assert.equal(h.status, STATUS[w.status], msg);
    assert.equal(h.type, w.type, msg);
    assert.equal(h.first, BigInt(w.first), msg);
    assert.equal(h.second, BigInt(w.second), msg);
    assert.equal(h.multiCount, w.multi, msg);
    assert.equal(h.cstatus, w.cstatus, msg);
    assert.equal(h.timeBase, BigInt(w.timebase), msg);
    assert.equal(h.time, BigInt(w.time), msg);
    assert.equal(h.scale, w.scale, msg);
    assert.equal(h.aux, w.aux, msg);
    assert.equal(h.column, w.column, msg);
  }
}

// sameStats compares the module's statistics with perfcalc stats --json,
// column by column, every number bit for bit.
function sameStats(have, wantText, what) {
  const want = parseExact(wantText);
  assert.equal(have.stats.length, want.length, `${what}: ${have.stats.length} columns, native ${want.length}`);
  assert.ok(want.length > 0, `${what}: no columns`);
  const num = (x) => (x === null ? null : typeof x === "string" ? Number(x) : x);
  want.forEach((w, i) => {
    const h = have.stats[i], msg = `${what} ${w.counter}`;
    assert.equal(h.path, w.counter, msg);
    assert.equal(h.column, i, msg);
    assert.equal(h.type, COUNTER_TYPES[w.type], msg);
    assert.equal(h.count, w.count, msg);
    assert.equal(h.skipped, w.skipped, msg);
    assert.equal(h.meanStatus, w.meanStatus, msg);
    // --valid's and --percentiles' figures, where the command printed them.
    if ("invalid" in w) assert.equal(h.invalid, w.invalid, `${msg} invalid`);
    for (const k of ["min", "max", "mean", "validMean", "p90", "p95", "p99"]) {
      if (!(k in w)) continue;
      if (w[k] === null) assert.equal(h[k], null, `${msg} ${k}`);
      else assert.equal(bits(h[k]), bits(num(w[k])), `${msg} ${k}: ${h[k]} vs ${w[k]}`);
    }
  });
}

const need = (t) => { if (!CORPUS) t.skip("../shared/corpus is absent: the real captures cannot be read"); return !!CORPUS; };

test("decode: every real V1 block equals the native decode and the independent manifest", async (t) => {
  if (!need(t)) return;
  const pc = await loadModule();
  const dir = join(CORPUS, "v1");
  const namesFile = join(dir, "pal_counter_009.multisz");
  const names = readFileSync(namesFile);
  const manifest = parseExact(readFileSync(join(dir, "manifest.json"), "utf8"));
  // Every capture of the folder equals the native decode; those of the
  // PAL machine (the manifest's 88) also equal the manifest. Captures of
  // other machines (the corpus README lists them) have no manifest entry.
  const files = readdirSync(dir).filter((f) => f.endsWith(".bin"));
  assert.equal(manifest.length, 88);
  assert.ok(manifest.every((e) => files.includes(e.file)), "every capture of the manifest is in the folder");
  let checked = 0;
  for (const f of files) {
    const blob = readFileSync(join(dir, f));
    const d = pc.decode(blob, { names });
    assert.equal(d.kind, "v1");
    sameRecords(d.records, runNative("wasmref", ["v1", join(dir, f), namesFile]), f);
    const m = manifest.find((e) => e.file === f);
    if (!m) continue;
    assert.equal(d.machine, "ZACH-PC");
    // The manifest: raw values, names, types and scales, in order.
    let k = 0;
    for (const inst of m.instances) {
      m.counters.forEach((c, ci) => {
        if ((Number(c.type) & 0x40030000) >>> 0 === 0x40030000) return; // base counters are folded into their counter
        const r = d.records[k++];
        assert.equal(r.first, BigInt(inst.values[ci]), `${f} ${r.path}`);
        assert.equal(r.type, Number(c.type));
        assert.equal(r.scale, c.scale);
        assert.ok(r.path.endsWith("\\" + c.name), `${r.path} does not end with ${c.name}`);
        assert.ok(r.path.startsWith(`\\\\ZACH-PC\\${m.object.name}${inst.name === null ? "\\" : "(" + inst.name}`), r.path);
        checked++;
      });
    }
    assert.equal(k, d.records.length, f);
  }
  assert.ok(checked > 10000, `${checked} values checked`);
});

test("decode: the name table equals the native decode and a plain reading", async (t) => {
  if (!need(t)) return;
  const pc = await loadModule();
  const file = join(CORPUS, "v1", "pal_counter_009.multisz");
  const bytes = readFileSync(file);
  const d = pc.decode(bytes);
  assert.equal(d.kind, "names");
  // A plain reading: UTF-16LE strings "index\0text\0…", last index wins.
  const parts = new TextDecoder("utf-16le").decode(bytes).split("\0");
  const want = new Map();
  for (let i = 0; i + 1 < parts.length && parts[i] !== ""; i += 2) want.set(Number(parts[i]), parts[i + 1]);
  const sorted = [...want].sort((a, b) => a[0] - b[0]);
  assert.equal(d.names.length, 1839);
  assert.deepEqual(d.names.map((n) => [n.index, n.text]), sorted);
  const native = lines(runNative("wasmref", ["names", file]));
  assert.deepEqual(d.names.map((n) => n.text), native.map((r) => r.path));
});

test("decode and relog: every real .blg log equals native relog", async (t) => {
  if (!need(t)) return;
  const pc = await loadModule();
  for (const name of ["Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"]) {
    const file = join(CORPUS, "blg", name);
    const bytes = readFileSync(file);
    const d = pc.decode(bytes);
    assert.equal(d.kind, "blg");
    assert.equal(d.damage, null);
    sameRecords(d.records, runNative("wasmref", ["blg", file]), name);

    // Rows against the perfcalc command's relog -f json.
    const r = pc.relog(bytes);
    const native = lines(runNative("perfcalc", ["relog", "-f", "json", file]));
    assert.equal(r.rows.length, native.length, name);
    let cells = 0;
    native.forEach((row, i) => {
      const have = r.rows[i];
      const present = Object.keys(row.values);
      assert.equal(have.values.filter((v) => v !== undefined).length, present.length, `${name} row ${i}`);
      for (const path of present) {
        const j = r.columns.indexOf(path);
        assert.ok(j >= 0, `${name}: no column ${path}`);
        const w = row.values[path];
        if (w === null) assert.equal(have.values[j], null, `${name} row ${i} ${path}`);
        else assert.equal(bits(have.values[j]), bits(w), `${name} row ${i} ${path}: ${have.values[j]} vs ${w}`);
        cells++;
      }
    });
    assert.ok(cells > 0, name);
    // relog's text, byte for byte, with 20 (the default) and 17 digits.
    for (const format of ["csv", "tsv", "json"]) {
      assert.equal(pc.relog(bytes, { format }), runNative("perfcalc", ["relog", "-f", format, file]), `${name} ${format}`);
    }
    assert.equal(pc.relog(bytes, { format: "csv", digits: 17 }), runNative("perfcalc", ["relog", "-f", "csv", "--digits", "17", file]), `${name} csv 17`);
    assert.equal(pc.relog(bytes, { format: "csv", digits: 20 }), pc.relog(bytes, { format: "csv" }), `${name} csv 20`);

    // The statistics against the perfcalc command's stats --json, every number exactly.
    sameStats(pc.stats(bytes), runNative("perfcalc", ["stats", "--json", file]), name);
    // With the figures that are not PDH's (issue 25): the mean of the valid
    // values, the invalid samples and the percentiles.
    const more = pc.stats(bytes, { percentiles: true });
    sameStats(more, runNative("perfcalc", ["stats", "--json", "--valid", "--percentiles", file]), `${name} --valid --percentiles`);
    assert.ok(more.stats.every((s) => "p99" in s && "validMean" in s), `${name}: percentiles and validMean`);
    assert.ok(pc.stats(bytes).stats.every((s) => !("p99" in s) && "validMean" in s), `${name}: no percentiles unless asked`);
  }
  assert.throws(() => pc.relog(new Uint8Array(8), { format: "csv", digits: 21 }), RangeError);
  // Bad statuses survive: the PowerShell log has PDH_CSTATUS_NO_MACHINE records.
  const ps = pc.decode(readFileSync(join(CORPUS, "blg", "PowerShell_BadCounterSamples.blg")));
  const bad = ps.records.filter((r) => r.cstatus === 0x800007d0);
  assert.equal(bad.length, 52);
  // Its 26 counters: PDH's mean NegativeValue, every one with a bad sample
  // or more (52 in all) and a mean of the valid values.
  const pss = pc.stats(readFileSync(join(CORPUS, "blg", "PowerShell_BadCounterSamples.blg"))).stats;
  assert.equal(pss.length, 26);
  assert.ok(pss.every((s) => s.meanStatus === "NegativeValue" && s.mean === null && s.invalid >= 1 && s.validMean > 0));
  assert.equal(pss.reduce((n, s) => n + s.invalid, 0), 52);
  assert.ok(bad.every((r) => r.status === "InvalidData"));
});

test("relog: selection by counter, time and every", async (t) => {
  if (!need(t)) return;
  const pc = await loadModule();
  const bytes = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
  const all = pc.relog(bytes);
  const r = pc.relog(bytes, { counters: ["\\Processor(*)\\% Processor Time"], every: 100 });
  assert.deepEqual(r.columns, all.columns.filter((c) => c.includes("\\Processor(")));
  assert.equal(r.rows.length, 7);
  assert.deepEqual(r.rows.map((x) => x.index), [0, 100, 200, 300, 400, 500, 600]);
  const mid = all.rows[300].time;
  const late = pc.relog(bytes, { begin: mid });
  assert.equal(late.rows[0].time, mid);
  assert.equal(late.rows.length, all.rows.length - 300);
  assert.throws(() => pc.relog(bytes, { counters: ["\\\\x\\y("] }), (e) => e instanceof PerfcalcError && e.kind === "Input");
});

test("query: two real V1 captures equal the native query", async (t) => {
  if (!need(t)) return;
  const pc = await loadModule();
  const dir = join(CORPUS, "v1");
  const names = join(dir, "pal_counter_009.multisz");
  for (const obj of [2, 4, 230, 234, 236, 238, 510, 638]) {
    const older = join(dir, `s00_obj${obj}.bin`), newer = join(dir, `s01_obj${obj}.bin`);
    const have = pc.query(readFileSync(newer), { older: readFileSync(older), names: readFileSync(names) });
    const want = lines(runNative("wasmref", ["query", older, newer, names]));
    assert.equal(have.length, want.length, `object ${obj}`);
    have.forEach((h, i) => {
      assert.equal(h.path, want[i].path);
      assert.equal(bits(h.value), BigInt("0x" + want[i].bits), h.path);
      assert.equal(h.status, STATUS[want[i].status], h.path);
      assert.equal(h.hasOld, want[i].column === 1);
      assert.deepEqual([h.first, h.second, h.multiCount, h.cstatus, h.time],
        [BigInt(want[i].first), BigInt(want[i].second), want[i].multi, want[i].cstatus, BigInt(want[i].time)], `${h.path}: raw values`);
    });
    assert.ok(have.some((h) => h.status === "Valid" && h.value !== 0), `object ${obj}: no valid non-zero value`);
    assert.ok(have.some((h) => h.first !== 0n), `object ${obj}: no raw value`);
  }
});

test("query's CSV and TSV are perfcalc values -f csv and tsv, byte for byte, at 20 and 17 digits", async () => {
  const pc = await loadModule();
  const f = (n) => join(ROOT, "testdata", "corpus", n);
  const v2 = ["--reginfo", f("v2-reginfo.bin"), "--strings", f("v2-strings.bin")];
  for (const [name, older, newer, opts, args] of [
    ["V1", f("global-1.bin"), f("global-2.bin"), { names: readFileSync(f("counter-009.multisz")) }, ["--names", f("counter-009.multisz")]],
    ["V1 selected", f("global-1.bin"), f("global-2.bin"), { names: readFileSync(f("counter-009.multisz")), counters: "\\Processor(*)\\*" },
      ["--names", f("counter-009.multisz"), "-c", "\\Processor(*)\\*"]],
    ["V2", f("v2-data-1.bin"), f("v2-data-2.bin"), { regInfo: readFileSync(f("v2-reginfo.bin")), strings: readFileSync(f("v2-strings.bin")) }, v2],
  ]) {
    for (const [format, digits] of [["csv", undefined], ["csv", 17], ["tsv", 20]]) {
      const have = pc.query(readFileSync(newer), { ...opts, older: readFileSync(older), format, digits });
      const want = runNative("perfcalc", ["values", older, newer, ...args, "-f", format, "--digits", String(digits ?? 20)]);
      assert.equal(have, want, `${name} ${format} ${digits}`);
      assert.ok(have.split("\r\n").length === 3 && have.includes("(UTC"), `${name}: a header with the zone and one row`);
    }
  }
  assert.throws(() => pc.query(readFileSync(f("global-2.bin")), { format: "json" }), RangeError);
  assert.throws(() => pc.query(readFileSync(f("global-2.bin")), { format: "csv", digits: 21 }), RangeError);
});

test("sniff tells captures, name tables and logs apart, as the command does", async () => {
  const pc = await loadModule();
  const dir = join(ROOT, "testdata", "corpus");
  const want = { "global-1.bin": "v1", "v2-data-1.bin": "v2", "counter-009.multisz": "names", "v2-reginfo.bin": null };
  for (const [f, kind] of Object.entries(want)) assert.equal(pc.sniff(readFileSync(join(dir, f))), kind, f);
  assert.equal(pc.sniff(new Uint8Array(0)), null);
  if (CORPUS) assert.equal(pc.sniff(readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")).subarray(0, 4096)), "blg");
  // decode without a kind uses it: a name table is decoded as one.
  assert.equal(pc.decode(readFileSync(join(dir, "counter-009.multisz"))).kind, "names");
});

test("decode: malformed input is an error with the decoder's text", async (t) => {
  const pc = await loadModule();
  const v1 = new Uint8Array(100);
  v1.set([0x50, 0, 0x45, 0, 0x52, 0, 0x46, 0]); // "PERF" but nothing valid after it
  assert.throws(() => pc.decode(v1), (e) => e instanceof PerfcalcError && e.code < 0 && /perfdata/.test(e.message));
  assert.throws(() => pc.decode(new Uint8Array(10), { kind: "blg" }), (e) => e instanceof PerfcalcError && ["Truncated", "Malformed"].includes(e.kind));
  // Larger than the static input buffer: the package reserves a larger one,
  // and the decoder judges the bytes.
  assert.throws(() => pc.decode(new Uint8Array(pc.inCap + 1), { kind: "blg" }), (e) => e instanceof PerfcalcError && e.kind === "Malformed");
  assert.equal(pc.exports.in_reserve(2 ** 30 + 1), 0, "in_reserve above 1 GiB must refuse");
  assert.throws(() => pc.decode(new Uint8Array(8), { kind: "xml" }), RangeError);
  if (CORPUS) {
    const bad = readFileSync(join(CORPUS, "blg", "PowerShell_CorruptBlg.blg"));
    assert.throws(() => pc.relog(bad), (e) => e.kind === "Malformed" && /not a \.blg log/.test(e.message));
  }
  // The instance is still usable after errors.
  assert.deepEqual(pc.compute({ type: "PERF_RAW_FRACTION", new: [1, 4] }), { value: 25, status: "Valid" });
});

test("decode: a result larger than the output buffer comes in pages, and memory growth is handled", async () => {
  const pc = await loadModule();
  // A name table of 60,000 pairs with 40-character texts: about 7 MB of
  // records and strings, more than the 4 MiB output buffer.
  const n = 60000, parts = [];
  for (let i = 0; i < n; i++) parts.push(String(2 * i + 1), `counter ${String(i).padStart(31, "0")}`);
  const text = parts.join("\0") + "\0\0";
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) bytes[2 * i] = text.charCodeAt(i);
  assert.ok(n * (80 + 40) > pc.outCap, "the result must not fit one page");
  const before = pc.exports.memory.buffer.byteLength;
  const d = pc.decode(bytes);
  assert.equal(d.names.length, n);
  for (const i of [0, 1, 34952, n - 1]) assert.deepEqual(d.names[i], { index: 2 * i + 1, text: `counter ${String(i).padStart(31, "0")}` });
  assert.ok(pc.exports.memory.buffer.byteLength > before, "the decode did not grow memory: the view test proves nothing");
  // Views made before the growth are detached; the package re-creates its own.
  assert.deepEqual(pc.computeBatch([{ type: "PERF_RAW_FRACTION", new: [1, 8] }]), [{ value: 12.5, status: "Valid" }]);
  assert.deepEqual(pc.decode(new Uint8Array([0x31, 0, 0, 0, 0x61, 0, 0, 0, 0, 0])).names, [{ index: 1, text: "a" }]);
  // A text of 5 MB does not fit the output buffer: the page before it, a
  // page without records that says what the record needs, out_reserve,
  // then decode_next.
  const long = "1\0" + "x".repeat(5 << 20) + "\0" + "3\0three\0\0";
  const lb = new Uint8Array(long.length * 2);
  for (let i = 0; i < long.length; i++) lb[2 * i] = long.charCodeAt(i);
  const ld = pc.decode(lb, { kind: "names" });
  assert.deepEqual(ld.names.map((p) => [p.index, p.text.length]), [[1, 5 << 20], [3, 5]]);
  assert.ok(pc.outCap >= 5 << 20, "the output buffer was not made to hold the record");
});

test("decode and query: V2 captures (made by perfcalc's encoder) equal the native decode", async () => {
  const pc = await loadModule();
  const dir = mkdtempSync(join(tmpdir(), "perfcalc-v2-"));
  runNative("wasmref", ["v2fixture", dir]);
  const f = (n) => join(dir, n);
  const [reg, strings, older, newer] = ["reg.bin", "strings.bin", "older.bin", "newer.bin"].map((n) => readFileSync(f(n)));
  const d = pc.decode(newer, { regInfo: reg, strings });
  assert.equal(d.kind, "v2");
  assert.equal(d.counterSet, "{04030201-0605-0807-090a-0b0c0d0e0f10}");
  sameRecords(d.records, runNative("wasmref", ["v2", f("newer.bin"), f("reg.bin"), f("strings.bin")]), "v2");
  assert.deepEqual(d.records.map((r) => [r.path, r.value, r.status]), [
    ["\\{04030201-0605-0807-090a-0b0c0d0e0f10}(a)\\% Used", 20, "Valid"],
    ["\\{04030201-0605-0807-090a-0b0c0d0e0f10}(a)\\% Busy", 0, "NewData"],
    ["\\{04030201-0605-0807-090a-0b0c0d0e0f10}(b)\\% Used", 40, "Valid"],
    ["\\{04030201-0605-0807-090a-0b0c0d0e0f10}(b)\\% Busy", 0, "NewData"],
  ]);
  const q = pc.query(newer, { older, regInfo: reg, strings });
  const want = lines(runNative("wasmref", ["query2", f("older.bin"), f("newer.bin"), f("reg.bin"), f("strings.bin")]));
  assert.deepEqual(q.map((v) => [v.path, bits(v.value), v.status, v.hasOld]),
    want.map((w) => [w.path, BigInt("0x" + w.bits), STATUS[w.status], w.column === 1]));
  assert.ok(q.some((v) => v.path.endsWith("(b)\\% Busy") && v.value === 2 && v.status === "Valid"));
  const named = pc.query(newer, { older, regInfo: reg, strings, counterSet: "Disk", counters: "\\Disk(a)\\*" });
  assert.deepEqual(named.map((v) => v.path), ["\\Disk(a)\\% Used", "\\Disk(a)\\% Busy"]);
  // A V2 result without its registration is refused before the module.
  assert.throws(() => pc.decode(newer, { kind: "v2" }), TypeError);
});

test("decode and relog: a log larger than the module's static buffers equals native relog", async (t) => {
  if (!need(t)) return;
  const pc = await loadModule();
  const log = repeatLog(readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")), 40);
  assert.ok(log.length > pc.inCap, `the log (${log.length} bytes) must exceed the input buffer (${pc.inCap})`);
  const staticOut = pc.outCap;
  const file = join(mkdtempSync(join(tmpdir(), "perfcalc-big-")), "big.blg");
  writeFileSync(file, log);
  // The text comes in pages of the static buffer, each resumed by decode_next.
  const exports = pc.exports, cursors = [];
  pc.exports = { ...exports, decode_next: (c) => (cursors.push(c), exports.decode_next(c)) };
  const json = pc.relog(log, { format: "json" });
  pc.exports = exports;
  const bytes = new TextEncoder().encode(json).length;
  assert.ok(bytes > 2 * staticOut, "the JSON text must exceed the static output buffer twice");
  assert.equal(json, runNative("perfcalc", ["relog", "-f", "json", file]));
  assert.equal(cursors.length, Math.ceil(bytes / staticOut) - 1, `${bytes} bytes in pages of ${staticOut}: ${cursors.length} calls of decode_next`);
  assert.ok(cursors.every((c) => c % 2 === 1), `cursors ${cursors}`);
  assert.equal(pc.outCap, staticOut, "no output buffer reserved for the text");
  const d = pc.decode(log, { kind: "blg" });
  sameRecords(d.records, runNative("wasmref", ["blg", file]), "repeated Tx");
  assert.ok(d.records.length * 80 > staticOut);
  // The same instance goes on with a small log.
  const tx = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
  assert.equal(pc.relog(tx, { format: "csv" }), runNative("perfcalc", ["relog", "-f", "csv", join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")]));
});

test("columns: every real .blg log lists relog -q's columns, samples and time range, without computing a value", async (t) => {
  if (!need(t)) return;
  const pc = await loadModule();
  const mdY = (ft) => { // a local FILETIME as relog -q prints it: MM/DD/YYYY HH:MM:SS.mmm
    const d = new Date(Number(ft / 10000n) - 11644473600000), p = (n, w = 2) => String(n).padStart(w, "0");
    return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
  };
  for (const name of ["Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"]) {
    const file = join(CORPUS, "blg", name);
    const bytes = readFileSync(file);
    for (const sel of [[], ["\\Processor(*)\\% Processor Time"]]) {
      const c = pc.columns(bytes, { counters: sel });
      const args = ["relog", file, "-q", ...sel.flatMap((p) => ["-c", p])];
      const q = runNative("perfcalc", args).split("\n");
      const blank = q.indexOf("");
      assert.deepEqual(c.columns.map((col) => col.path), q.slice(0, blank), `${name} ${sel}`);
      assert.deepEqual(c.columns.map((col) => col.column), c.columns.map((_, i) => i));
      assert.ok(c.columns.length > 0 && c.columns.every((col) => col.type > 0), name);
      assert.ok(q.includes(`Time Begin: ${mdY(c.begin)}`), `${name}: ${mdY(c.begin)}`);
      assert.ok(q.includes(`Time End:   ${mdY(c.end)}`), `${name}: ${mdY(c.end)}`);
      assert.ok(q.includes(`Samples:    ${c.samples}`), `${name}: ${c.samples}`);
      assert.equal(c.damage, null);
      // The same as stats' columns (types, time zone), and the paths select them exactly.
      const st = pc.stats(bytes, { counters: sel });
      assert.deepEqual(c.columns.map((col) => [col.path, col.type]), st.stats.map((s) => [s.path, s.type]));
      assert.deepEqual([c.timeZone, c.bias, c.samples], [st.timeZone, st.bias, st.rows]);
    }
  }
  // A log that is not one is refused as decode refuses it.
  assert.throws(() => pc.columns(readFileSync(join(ROOT, "testdata", "corpus", "global-1.bin"))), (e) => e instanceof PerfcalcError && e.kind === "Malformed");
});

test("columns, then decode of one column by its path: the same values as the whole log's decode", async (t) => {
  if (!need(t)) return;
  const pc = await loadModule();
  const bytes = readFileSync(join(CORPUS, "blg", "PAL_SamplePerfmonLog.blg"));
  const all = pc.decode(bytes, { kind: "blg" });
  const cols = pc.columns(bytes).columns;
  for (const k of [0, 7, Math.floor(cols.length / 2), cols.length - 1]) {
    const col = cols[k];
    const one = pc.decode(bytes, { kind: "blg", counters: [col.path] }).records.filter((r) => r.path === col.path);
    const want = all.records.filter((r) => r.column === col.column);
    assert.ok(want.length > 0, col.path);
    assert.deepEqual(one.map((r) => [r.aux, r.time, bits(r.value), r.status]), want.map((r) => [r.aux, r.time, bits(r.value), r.status]), col.path);
  }
});
