// Names in any language: the module translates (the translate option,
// names_load), and its output on the real logs rewritten in German, French
// and Spanish (tools/blgrename's localize) is the command's: relog's CSV
// byte for byte, the columns and the statistics' paths, the names not
// translated, English -c patterns, and analyze's report.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PerfcalcError } from "../perfcalc.mjs";
import { compactFromCounterLang } from "../names.mjs";
import { createPool } from "../worker.mjs";
import { CORPUS, ROOT, WASM, loadModule, nativeBin, runNative } from "./helpers.mjs";

const COUNTERLANG = join(ROOT, "..", "shared", "pal", "CounterLang.xml");
const skip = CORPUS === null || !existsSync(COUNTERLANG) ? "the shared folder (../shared) is absent" : false;
const LOGS = ["Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"];

// native runs the command and returns its standard output and the names
// its note lists as not translated.
function native(args) {
  const run = spawnSync(nativeBin("perfcalc"), args, { encoding: "utf8", maxBuffer: 1 << 28 });
  assert.ok(run.status === 0 || run.status === 1, `perfcalc ${args.join(" ")}: ${run.stderr}`);
  const note = /names not translated \(kept as they are\): (.*)/.exec(run.stderr);
  return { out: run.stdout, unknown: note === null ? [] : note[1].split("; ") };
}

test("the real logs in German, French and Spanish: the module translates as perfcalc --names-lang en", { skip }, async () => {
  const pc = await loadModule();
  const dir = mkdtempSync(join(tmpdir(), "perfcalc-names-"));
  for (const lang of ["deDE", "frFR", "esES"]) {
    const compact = runNative("perfcalc", ["names", "--compact", COUNTERLANG, "--lang", lang]);
    const file = join(dir, `${lang}.txt`);
    writeFileSync(file, compact);
    const translate = { name: file, data: compact };
    for (const name of LOGS) {
      const local = join(dir, `${lang}-${name}`);
      execFileSync("go", ["run", "./tools/blgrename/cmd/localize", "-counterlang", COUNTERLANG, "-lang", lang, join(CORPUS, "blg", name), local], { cwd: ROOT });
      const bytes = readFileSync(local);
      const what = `${lang} ${name}`;
      // relog's CSV, byte for byte, and the names not translated.
      const want = native(["relog", local, "--names-lang", "en", "--names-file", file]);
      const have = pc.relog(bytes, { format: "csv", translate, details: true });
      assert.equal(have.text, want.out, `${what}: relog's CSV`);
      assert.deepEqual(have.namesUnknown, want.unknown, `${what}: the names not translated`);
      assert.equal(pc.relog(bytes, { format: "csv" }).includes("\\Processor("), false, `${what}: the localized log is in English`);
      // The English log's CSV: the translation is complete where the command's is.
      if (want.unknown.length === 0) assert.equal(have.text, runNative("perfcalc", ["relog", join(CORPUS, "blg", name)]), `${what}: the English log's CSV`);
      // columns, stats and decode name the columns alike.
      const cols = pc.columns(bytes, { translate });
      const q = native(["relog", local, "-q", "--names-lang", "en", "--names-file", file]).out.split(/\r?\n/).filter((l) => l.startsWith("\\\\"));
      assert.deepEqual(cols.columns.map((c) => c.path), q, `${what}: columns`);
      assert.deepEqual(cols.namesUnknown, want.unknown, `${what}: columns' names not translated`);
      const stats = JSON.parse(native(["stats", local, "--json", "--names-lang", "en", "--names-file", file]).out);
      assert.deepEqual(pc.stats(bytes, { translate }).stats.map((s) => s.path), stats.map((s) => s.counter), `${what}: stats`);
      const rows = pc.relog(bytes, { translate });
      assert.deepEqual(rows.columns, q, `${what}: relog's rows`);
      assert.deepEqual(rows.namesUnknown, want.unknown);
    }
    // An English -c pattern selects the localized log's columns.
    const local = readFileSync(join(dir, `${lang}-Tx_BasicPerfCounters.blg`));
    const pat = "\\Processor(*)\\% Processor Time";
    const sel = native(["relog", join(dir, `${lang}-Tx_BasicPerfCounters.blg`), "-c", pat, "--names-lang", "en", "--names-file", file]).out;
    assert.equal(pc.relog(local, { format: "csv", counters: pat, translate }), sel, `${lang}: -c ${pat}`);
    assert.ok(sel.split("\n")[0].split(",").length > 1, `${lang}: the pattern selects columns`);
    assert.throws(() => pc.relog(local, { format: "csv", counters: pat }), /no counter/, `${lang}: without translate the English pattern matches nothing`);
  }
});

test("analyze of the German PAL log with translate gives the English log's report", { skip }, async () => {
  const pc = await loadModule();
  const dir = mkdtempSync(join(tmpdir(), "perfcalc-names-"));
  const compact = runNative("perfcalc", ["names", "--compact", COUNTERLANG, "--lang", "deDE"]);
  const local = join(dir, "de.blg");
  execFileSync("go", ["run", "./tools/blgrename/cmd/localize", "-counterlang", COUNTERLANG, "-lang", "deDE", join(CORPUS, "blg", "PAL_SamplePerfmonLog.blg"), local], { cwd: ROOT });
  const english = await pc.analyze(readFileSync(join(CORPUS, "blg", "PAL_SamplePerfmonLog.blg")));
  const german = await pc.analyze(readFileSync(local), { translate: compact });
  assert.equal(german.json, english.json);
  const plain = await pc.analyze(readFileSync(local));
  assert.notEqual(plain.json, english.json, "the German log's report without translate is the English one's");
});

test("a pool reads the German PAL log in parts with translate: the command's CSV", { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "perfcalc-names-"));
  const compact = runNative("perfcalc", ["names", "--compact", COUNTERLANG, "--lang", "deDE"]);
  const file = join(dir, "de.txt");
  writeFileSync(file, compact);
  const local = join(dir, "de.blg");
  execFileSync("go", ["run", "./tools/blgrename/cmd/localize", "-counterlang", COUNTERLANG, "-lang", "deDE", join(CORPUS, "blg", "PAL_SamplePerfmonLog.blg"), local], { cwd: ROOT });
  const want = native(["relog", local, "--names-lang", "en", "--names-file", file]);
  const pool = await createPool(new URL("file://" + WASM), { workers: 2 });
  pool._minPart = 65536; // the log is small: parts of 64 KiB
  try {
    const have = await pool.relog(readFileSync(local), { format: "csv", translate: { name: file, data: compact }, details: true });
    assert.equal(have.text, want.out);
    assert.deepEqual(have.namesUnknown, want.unknown);
    const rows = await pool.relog(readFileSync(local), { translate: compact });
    assert.ok(rows.columns.some((c) => c.includes("\\Memory\\")), "the pool's rows name English columns");
  } finally {
    pool.terminate();
  }
});

// FakeDOMParser reads what CounterLang.xml holds (elements, attributes,
// the five entities and character references), for compactFromCounterLang
// in Node, which has no DOMParser (a browser's reads the same).
class FakeDOMParser {
  parseFromString(xml) {
    const ent = (v) => v.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (_, e) => e[0] === "#"
      ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[e]);
    const root = { children: [] }, stack = [root];
    for (const m of xml.replace(/<\?[^>]*\?>|<!--[\s\S]*?-->/g, "").matchAll(/<(\/?)([\w:]+)((?:\s+[\w:]+\s*=\s*"[^"]*")*)\s*(\/?)>/g)) {
      if (m[1]) { stack.pop(); continue; }
      const el = { nodeName: m[2], children: [], attributes: [...m[3].matchAll(/([\w:]+)\s*=\s*"([^"]*)"/g)].map((a) => ({ name: a[1], value: ent(a[2]) })) };
      stack[stack.length - 1].children.push(el);
      if (!m[4]) stack.push(el);
    }
    return { documentElement: root.children[0], getElementsByTagName: () => [] };
  }
}

test("compactFromCounterLang (a DOMParser's reading) writes what perfcalc names --compact writes", { skip }, () => {
  const xml = readFileSync(COUNTERLANG, "utf8");
  globalThis.DOMParser = FakeDOMParser;
  try {
    assert.equal(compactFromCounterLang(xml, ["deDE"]), runNative("perfcalc", ["names", "--compact", COUNTERLANG, "--lang", "deDE"]));
    assert.equal(compactFromCounterLang(xml), runNative("perfcalc", ["names", "--compact", COUNTERLANG]));
    assert.throws(() => compactFromCounterLang("<Other/>"), /not PAL's CounterLang/);
  } finally {
    delete globalThis.DOMParser;
  }
});

test("translate: a malformed compact form, an old module, and no DOMParser", async () => {
  const pc = await loadModule();
  const log = CORPUS === null ? null : readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
  if (log !== null) {
    assert.throws(() => pc.columns(log, { translate: "perfcalc-names 1\no\tdeDE\tProcessor\n" }),
      (e) => e instanceof PerfcalcError && /line 2/.test(e.message));
    assert.throws(() => pc.columns(log, { translate: "not the header\n" }), /header/);
    // The sources are dropped after each call.
    assert.equal(pc.columns(log).namesUnknown, undefined);
  }
  assert.throws(() => pc.columns(new Uint8Array(8), { translate: [] }), /empty array/);
  const old = Object.create(pc);
  old.exports = { ...pc.exports, names_load: undefined };
  assert.throws(() => old.columns(new Uint8Array(8), { translate: "x" }), /lacks names_load/);
  assert.throws(() => compactFromCounterLang("<CounterLang/>"), /DOMParser/);
});
