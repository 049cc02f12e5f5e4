// analyze (issue 24): the module's report is, byte for byte, what the
// native perfcalc analyze -f json writes for the same log, threshold files
// and options.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ANALYZE_MODULE, PerfcalcError, analyzeModuleURL, load } from "../perfcalc.mjs";
import * as abi from "../abi.mjs";
import { CORPUS, ROOT, WASM, loadModule, nativeBin, repeatLog } from "./helpers.mjs";

/** PAL's threshold files beside the project (../shared/pal), or null. */
const PAL = existsSync(join(ROOT, "..", "shared", "pal", "QuickSystemOverview.xml")) ? join(ROOT, "..", "shared", "pal") : null;

/** The native command's report: perfcalc analyze ARGS -f json's standard output. */
function nativeReport(args) {
  return execFileSync(nativeBin("perfcalc"), ["analyze", ...args, "-f", "json"], { encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "pipe"] });
}

const LOGS = ["Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"];

test("analyze: the defaults and PAL's SystemOverview.xml, as perfcalc analyze -f json writes them", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  if (!PAL) return t.skip("../shared/pal (PAL's threshold files) is absent");
  const pc = await loadModule();
  const system = join(PAL, "SystemOverview.xml");
  const files = {
    thresholds: [{ name: system, bytes: readFileSync(system) }],
    include: [{ name: "QuickSystemOverview.xml", bytes: readFileSync(join(PAL, "QuickSystemOverview.xml")) }],
  };
  for (const name of LOGS) {
    const path = join(CORPUS, "blg", name);
    const log = readFileSync(path);
    for (const [what, args, opts] of [
      ["defaults", [], {}],
      ["defaults, --pal-compat --interval 60", ["--pal-compat", "--interval", "60"], { palCompat: true, interval: 60 }],
      ["defaults, --identity pid (issue 21)", ["--identity", "pid"], { identity: "pid" }],
      ["SystemOverview.xml", ["--thresholds", system], files],
      ["SystemOverview.xml --set PhysicalMemory=2 --set UserVa=3072", ["--thresholds", system, "--set", "PhysicalMemory=2", "--set", "UserVa=3072"],
        { ...files, set: { PhysicalMemory: 2, UserVa: "3072" } }],
    ]) {
      const want = nativeReport([path, ...args]);
      const have = await pc.analyze(log, opts);
      assert.equal(have.json, want, `${name}, ${what}: the module's JSON differs from the command's`);
      assert.deepEqual(have.report, JSON.parse(want));
      assert.ok(Array.isArray(have.report.alerts), `${name}, ${what}: the report has an alerts array`);
    }
  }
});

test("analyze: refusals carry the module's code and text", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const pc = await loadModule();
  const log = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
  await assert.rejects(pc.analyze(log, { interval: -1 }), RangeError);
  await assert.rejects(pc.analyze(log, { interval: 1.5 }), RangeError);
  await assert.rejects(pc.analyze(log, { set: { "A=B": 1 } }), RangeError);
  await assert.rejects(pc.analyze(log, { set: { A: "1\n2" } }), RangeError);
  await assert.rejects(pc.analyze(log, { thresholds: [{ bytes: new Uint8Array(1) }] }), TypeError);
  await assert.rejects(pc.analyze(new Uint8Array(64), {}), (e) => e instanceof PerfcalcError && e.code < 0 && /blg/.test(e.message));
  if (PAL) {
    const system = { name: "SystemOverview.xml", bytes: readFileSync(join(PAL, "SystemOverview.xml")) };
    await assert.rejects(pc.analyze(log, { thresholds: system }),
      (e) => e instanceof PerfcalcError && e.code === abi.CODE_INPUT && /QuickSystemOverview\.xml/.test(e.message) &&
        e.missingFile === "QuickSystemOverview.xml" && e.detail === e.missingFile.length);
    // The name as data, resolved against the inheriting file's folder.
    await assert.rejects(pc.analyze(log, { thresholds: { ...system, name: "C:\\PAL\\SystemOverview.xml" } }),
      (e) => e.missingFile === "C:/PAL/QuickSystemOverview.xml");
    // Other refusals name no file.
    await assert.rejects(pc.analyze(log, { set: { OS: "x" } }), (e) => e instanceof PerfcalcError && e.missingFile === undefined);
  }
  // The instance stays usable after refusals.
  assert.ok(Array.isArray((await pc.analyze(log)).report.alerts));
});

test("analyze: perfcalc.wasm lacks analyze; the first analyze loads perfcalc-analyze.wasm beside it, once", async () => {
  const pc = await loadModule();
  assert.equal(typeof pc.exports.analyze, "undefined", "perfcalc.wasm exports analyze: the analysis packages would grow it by 750 KB");
  assert.equal(typeof pc.exports.compute, "function");
  assert.equal(analyzeModuleURL(new URL("file://" + WASM)).href, new URL("file://" + join(ROOT, "wasm", "module", ANALYZE_MODULE)).href);
  assert.equal(analyzeModuleURL(), undefined, "without a URL: compileAnalyzer's lookup (beside perfcalc.mjs, then in a clone)");
  const first = pc.loadAnalyzer(), again = pc.loadAnalyzer();
  assert.equal(first, again, "loadAnalyzer loads once");
  const a = await first;
  assert.notEqual(a, pc);
  assert.equal(typeof a.exports.analyze, "function");
  assert.equal(typeof a.exports.compute, "undefined", "the analyze module holds analyze alone");
  assert.equal(await pc.loadAnalyzer(), a);
  // The module-level analyze of init() goes the same way.
  const { init, analyze } = await import("../perfcalc.mjs");
  await init(new URL("file://" + WASM));
  await assert.rejects(analyze(new Uint8Array(64)), (e) => e instanceof PerfcalcError && /blg/.test(e.message), "the analyze module's refusal of a non-log");
});

test("analyze: an analyze module that does not load says why, and a later call tries again", async () => {
  const missing = new URL("file:///nonexistent/perfcalc-analyze.wasm");
  const pc = await load(new URL("file://" + WASM), { analyzeModule: missing });
  await assert.rejects(pc.analyze(new Uint8Array(64)), (e) => /loading the analyze module file:\/\/\/nonexistent\/perfcalc-analyze\.wasm: .*ENOENT/.test(e.message));
  await assert.rejects(pc.loadAnalyzer(), /ENOENT/);
  const wrong = await load(new URL("file://" + WASM), { analyzeModule: readFileSync(WASM) });
  await assert.rejects(wrong.analyze(new Uint8Array(64)),
    (e) => e instanceof PerfcalcError && e.code === abi.CODE_UNSUPPORTED && /lacks the analyze export/.test(e.message));
  const bytes = await load(readFileSync(WASM), { analyzeModule: readFileSync(join(ROOT, "wasm", "module", ANALYZE_MODULE)) });
  await assert.rejects(bytes.analyze(new Uint8Array(64)), (e) => e instanceof PerfcalcError && /blg/.test(e.message));
});

test("analyze: a log damaged after its start gives the report of the samples before and the damage", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const pc = await loadModule();
  const cut = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg")).subarray(0, 200000);
  const have = await pc.analyze(cut);
  // The command writes the same report, names the damage and exits with 1.
  const file = join(mkdtempSync(join(tmpdir(), "perfcalc-web-analyze-cut-")), "cut.blg");
  writeFileSync(file, cut);
  let out = null;
  try {
    nativeReport([file]);
  } catch (e) {
    assert.equal(e.status, 1, "the command exits with 1 on a damaged log");
    out = e.stdout;
  }
  assert.equal(have.json, out, "the module's report of the damaged log differs from the command's");
  const stats = pc.stats(cut);
  assert.ok(stats.damage, "the cut log is damaged");
  assert.equal(have.damage, stats.damage);
  assert.equal(have.report.parameters.samples, stats.rows, "the report covers the samples before the damage");
  assert.ok(have.report.slices.length > 0);
});

test("analyze: logs of one machine merged, as perfcalc analyze merges them", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const pc = await loadModule();
  const tx = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
  const longer = repeatLog(tx, 2); // the Tx log, then its samples again, later
  const dir = mkdtempSync(join(tmpdir(), "perfcalc-web-analyze-merge-"));
  writeFileSync(join(dir, "a.blg"), tx);
  writeFileSync(join(dir, "b.blg"), longer);
  const want = nativeReport([join(dir, "a.blg"), join(dir, "b.blg")]);
  const have = await pc.analyze([tx, longer]);
  assert.equal(have.json, want, "the module's report of the merged logs differs from the command's");
  assert.notEqual((await pc.analyze(tx)).json, want, "the merged logs' report is not the first log's");
});

test("analyze: logs of two machines, the fleet object perfcalc analyze -f json writes for them", async (t) => {
  if (!CORPUS) return t.skip("../shared/corpus is absent");
  const pc = await loadModule();
  const palPath = join(CORPUS, "blg", "PAL_SamplePerfmonLog.blg"), txPath = join(CORPUS, "blg", "Tx_BasicPerfCounters.blg");
  const pal = readFileSync(palPath), tx = readFileSync(txPath);
  const dir = mkdtempSync(join(tmpdir(), "perfcalc-web-analyze-machines-"));
  writeFileSync(join(dir, "copy.blg"), tx);
  for (const [paths, logs] of [
    [[palPath, txPath], [pal, tx]],
    [[txPath, palPath, join(dir, "copy.blg")], [tx, pal, tx]], // the Tx log and its copy merged
  ]) {
    const want = nativeReport(paths);
    const have = await pc.analyze(logs);
    assert.equal(have.json, want, "the module's report of two machines differs from the command's");
    assert.deepEqual(Object.keys(have.report), ["alerts", "machines"]);
    assert.equal(have.report.machines.length, 2);
    assert.notEqual(have.report.machines[0].parameters.machine, have.report.machines[1].parameters.machine);
    assert.equal(have.report.alerts.length, have.report.machines.reduce((n, m) => n + m.alerts.length, 0));
  }
});
