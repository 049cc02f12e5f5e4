// The viewer's Analysis view end to end: headless Chromium (as
// viewer.e2e.mjs) opens the PAL sample log of ../shared/corpus/blg, runs
// perfcalc's default analyses and PAL's SystemOverview.xml (with the file it
// inherits and a question's value) in the page, and compares the alerts
// with the native perfcalc analyze -f json's, alert by alert; clicking an
// alert must chart its counter (relog's values) around the alert's slice
// with the analysis' bands; Cancel stops a long analysis. The page loads
// perfcalc.wasm only; the Analysis view, when first opened, loads the
// analyze module (perfcalc-analyze.wasm, the committed modules served as
// make serve serves them), saying so with its size; an analyze module that
// does not load is said, and the rest of the viewer works. Screenshots go
// to out/a*.png.
//
//   node analysis.e2e.mjs          (run.sh runs it after viewer.e2e.mjs)
//
// Environment as viewer.e2e.mjs's (CHROMIUM, E2E_OUT, PERFCALC_BIN,
// E2E_SHARED_BLG), and E2E_SHARED_PAL (PAL's threshold files; default
// ../shared/pal).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { repeatLog } from "../test/helpers.mjs";
import { serve } from "../viewer/serve.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SHARED = process.env.E2E_SHARED_BLG ?? join(ROOT, "..", "shared", "corpus", "blg");
const PAL = process.env.E2E_SHARED_PAL ?? join(ROOT, "..", "shared", "pal");
const OUT = process.env.E2E_OUT ?? fileURLToPath(new URL("./out/", import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

let failures = 0, passed = 0, skipped = 0;
async function step(name, fn) {
  const t = performance.now();
  try {
    await fn();
    passed++;
    console.log(`ok   ${name} (${Math.round(performance.now() - t)} ms)`);
  } catch (err) {
    failures++;
    console.log(`FAIL ${name}\n${String(err.stack ?? err).replace(/^/gm, "     ")}`);
  }
}
function skip(name, why) {
  skipped++;
  console.log(`SKIP ${name}: ${why}`);
}
const note = (text) => console.log(`     ${text}`);

const sample = join(SHARED, "PAL_SamplePerfmonLog.blg");
if (!existsSync(sample)) {
  console.log(`e2e analysis: SKIPPED: ${sample} is absent (../shared/corpus is not beside the repository)`);
  process.exit(0);
}

// The native command.
const bin = mkdtempSync(join(tmpdir(), "perfcalc-e2e-analysis-"));
let perfcalc = process.env.PERFCALC_BIN;
try {
  if (!perfcalc) {
    perfcalc = join(bin, "perfcalc");
    console.log("building the native perfcalc command…");
    execFileSync("go", ["build", "-o", perfcalc, "./cmd/perfcalc"], { cwd: ROOT, stdio: "inherit" });
  }
} catch {
  rmSync(bin, { recursive: true, force: true });
  console.log("FAIL the native perfcalc command does not build: nothing to test");
  process.exit(1);
}
/** The analyze module the viewer loads (served as /web/perfcalc-analyze.wasm). */
const ANALYZE_WASM = join(ROOT, "wasm", "module", "perfcalc-analyze.wasm");
const native = (...args) => execFileSync(perfcalc, args, { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
const jsonLines = (text) => text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
const num = (text) => (text === "" ? null : Number(text));
function sameNumber(have, want, what) {
  if (want === null || want === undefined) return assert.equal(have, null, `${what}: page ${have}, native none`);
  assert.ok(Object.is(have, want), `${what}: page ${have}, native ${want}`);
}

mkdirSync(OUT, { recursive: true });
const server = await serve({ port: 0 }); // the committed modules, as make serve serves them
const profile = mkdtempSync(join(tmpdir(), "perfcalc-e2e-chromium-"));
console.log(`viewer at ${server.url}, screenshots in ${OUT}`);
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  acceptDownloads: true,
  viewport: { width: 1360, height: 900 },
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [], requests = [];
page.on("request", (r) => requests.push(`${r.method()} ${r.url()}`));
page.on("pageerror", (e) => pageErrors.push(e));
page.on("console", (m) => { if (m.type() === "error") console.log(`     page console: ${m.text()}`); });

const attrState = () => page.getAttribute("#analysis", "data-state");
const shot = (name) => page.screenshot({ path: join(OUT, name), fullPage: true });
/** A screenshot of the window only (what a user sees first, legible at full size). */
const view = (name) => page.screenshot({ path: join(OUT, name) });
async function waitState(want, timeout = 60000) {
  await page.waitForFunction((w) => w.includes(document.getElementById("app").dataset.state), want, { timeout });
}
async function open(files, timeout) {
  await page.evaluate(() => { document.getElementById("app").dataset.state = "test-opening"; });
  await page.setInputFiles("#files", files);
  await waitState(["loaded", "error"], timeout);
}
/** Waits until the Analysis view has finished (done, error, cancelled). */
const analysisDone = (timeout = 120000) => page.waitForFunction(() => {
  const s = document.getElementById("analysis").dataset.state;
  return (s === "done" || s === "error" || s === "cancelled") && document.getElementById("app").dataset.state !== "busy";
}, null, { timeout });

/** The alerts the page lists: each row's data attributes, by the report's index. */
const pageAlerts = () => page.$$eval("#alerts tr[data-index]", (trs) => trs.map((tr) => ({ ...tr.dataset })));

/**
 * Checks the page's alerts against perfcalc analyze -f json's: the counts,
 * and each alert (listed in time order, by its index in the report) field
 * by field, numbers exactly. Returns the native report.
 */
async function sameAlerts(args, what) {
  const want = JSON.parse(native("analyze", ...args, "-f", "json"));
  const res = await page.$eval("#analysis-results", (e) => ({ ...e.dataset }));
  assert.equal(Number(res.alerts), want.alerts.length, `${what}: the alert count`);
  const crit = want.alerts.filter((a) => a.condition === "Critical").length;
  assert.equal(Number(res.critical), crit, `${what}: critical alerts`);
  assert.equal(Number(res.warning), want.alerts.length - crit, `${what}: warnings`);
  assert.equal(Number(res.analyses), want.analyses.length, `${what}: analyses`);
  assert.equal(Number(res.unsupported), (want.unsupported ?? []).length, `${what}: not evaluated`);
  assert.equal(Number(await page.$eval("#count-critical .n", (e) => e.textContent.replace(/,/g, ""))), crit);
  const rows = await pageAlerts();
  assert.equal(rows.length, Math.min(500, want.alerts.length), `${what}: the alerts listed`);
  let last = -Infinity;
  for (const r of rows) {
    const a = want.alerts[Number(r.index)];
    const w = `${what}: alert ${r.index}`;
    assert.equal(r.condition, a.condition, w);
    assert.equal(r.analysis, a.analysis, w);
    assert.equal(r.path, a.path, w);
    assert.equal(Number(r.slice), a.slice, w);
    assert.equal(r.start, a.start, w);
    assert.equal(r.end, a.end, w);
    for (const k of ["min", "avg", "max", "trend"]) sameNumber(num(r[k]), a[k], `${w} ${k}`);
    const t = Date.parse(a.start);
    assert.ok(t >= last, `${w}: the alerts are in time order`);
    last = t;
  }
  return want;
}

/**
 * Clicks the alert of index i and checks its chart: the bands (the
 * analysis' chart bands of the counter's datasource, as the report holds
 * them), the slice shaded, and the line: relog's values of the counter at
 * the samples of the window around the slice.
 */
async function sameAlertChart(report, i, what) {
  const a = report.alerts[i];
  await page.click(`#alerts tr[data-index="${i}"]`);
  await page.waitForFunction((k) => {
    const c = document.getElementById("alert-chart");
    return c.dataset.alert === String(k) && c.dataset.state === "ready" && c.querySelector("svg");
  }, i, { timeout: 60000 });
  const c = await page.evaluate(() => {
    const box = document.getElementById("alert-chart"), svg = box.querySelector("svg");
    return {
      source: box.dataset.source, times: JSON.parse(svg.dataset.times),
      bands: [...svg.querySelectorAll("rect.band")].map((b) => ({ condition: b.dataset.condition, lo: Number(b.dataset.lo), hi: Number(b.dataset.hi), height: Number(b.getAttribute("height")) })),
      marks: svg.querySelectorAll("rect.mark").length,
      series: [...svg.querySelectorAll("path.series")].map((p) => ({ path: p.dataset.path, d: p.getAttribute("d"), values: JSON.parse(p.dataset.values).map((t) => (t === null ? null : Number(t))) })),
    };
  });
  const an = report.analyses.find((x) => x.name === a.analysis && x.series.some((s) => s.path === a.path));
  const s = an.series.find((x) => x.path === a.path);
  const chart = an.charts.find((x) => x.datasource === s.datasource && x.bands.length);
  assert.ok(chart, `${what}: the report has bands for ${a.analysis}`);
  assert.ok(c.bands.length >= 1, `${what}: bands drawn`);
  assert.ok(c.bands.every((b) => b.height > 0), `${what}: every band drawn is visible`);
  for (const b of c.bands) {
    const want = chart.bands.find((x) => x.condition === b.condition && (x.useMax && !x.greaterThan ? b.lo === -Infinity : b.lo === x.min) && (x.useMax && x.greaterThan ? b.hi === Infinity : b.hi === x.max));
    assert.ok(want, `${what}: the band ${JSON.stringify(b)} is the report's`);
  }
  assert.ok(c.bands.some((b) => b.condition === a.condition), `${what}: a ${a.condition} band behind the line`);
  assert.equal(c.marks, 1, `${what}: the slice is shaded`);
  assert.equal(c.source, "log");
  assert.equal(c.series.length, 1);
  assert.equal(c.series[0].path, a.path);
  assert.ok(/^M/.test(c.series[0].d) || c.series[0].values.filter((v) => v !== null).length <= 1, `${what}: a line is drawn`);
  // relog's values around the slice (local time): the samples within two
  // slice lengths (the interval at least) of it, and at least 5 samples
  // each side where the log has them.
  const rows = jsonLines(native("relog", sample, "-c", a.path, "-f", "json")).filter((r) => a.path in r.values);
  const bias = report.parameters.bias * 60000, t0 = Date.parse(a.start) - bias, t1 = Date.parse(a.end) - bias;
  const ctx = 2 * Math.max(t1 - t0, report.parameters.interval * 1000, 1000);
  const ts = rows.map((r) => Date.parse(r.time + "Z"));
  const before = ts.filter((t) => t < t0), after = ts.filter((t) => t > t1);
  const nb = Math.max(before.filter((t) => t >= t0 - ctx).length, Math.min(5, before.length));
  const na = Math.max(after.filter((t) => t <= t1 + ctx).length, Math.min(5, after.length));
  const inWin = rows.filter((r, k) => (ts[k] >= t0 && ts[k] <= t1) || before.slice(before.length - nb).includes(ts[k]) || after.slice(0, na).includes(ts[k]));
  assert.deepEqual(c.times, inWin.map((r) => r.time), `${what}: the chart's samples`);
  inWin.forEach((r, k) => sameNumber(c.series[0].values[k], r.values[a.path], `${what}: ${a.path} at ${r.time}`));
  assert.ok(inWin.some((r) => { const t = Date.parse(r.time + "Z"); return t >= t0 && t <= t1; }), `${what}: the alert's slice has samples on the chart`);
  return { bands: c.bands.length, samples: inWin.length };
}

try {
  const analyzeGets = () => requests.filter((r) => r.startsWith("GET ") && r.endsWith("/perfcalc-analyze.wasm")).length;
  await step("the page loads perfcalc.wasm only; the Analysis tab, first opened, loads perfcalc-analyze.wasm, saying its size", async () => {
    // The analyze module's download held for 2 s, to see the loading state.
    await page.route("**/perfcalc-analyze.wasm", async (route) => {
      if (route.request().method() === "GET") await new Promise((ok) => setTimeout(ok, 2000));
      await route.continue();
    });
    await page.goto(server.url);
    await waitState(["ready"]);
    await open(sample);
    assert.equal(await page.isVisible("#tabs"), true);
    assert.equal(await page.getAttribute("#tab-counters", "aria-selected"), "true");
    assert.equal(await page.getAttribute("#analysis", "data-state"), "unloaded");
    assert.equal(analyzeGets(), 0, "the analyze module is not fetched before the Analysis tab opens");
    await page.click("#tab-analysis");
    assert.equal(await page.getAttribute("#tab-analysis", "aria-selected"), "true");
    assert.equal(await page.isVisible("#analysis"), true);
    assert.equal(await page.isVisible("#view"), false);
    const mb = (statSync(ANALYZE_WASM).size / 1e6).toFixed(1);
    await page.waitForFunction((t) => document.getElementById("analysis-module").textContent === t, `Loading the analysis module (${mb} MB)…`, { timeout: 10000 });
    assert.equal(await page.getAttribute("#analysis", "data-state"), "loading");
    assert.equal(await page.isDisabled("#run-defaults"), true, "nothing runs before the module is loaded");
    await view("a0-analysis-loading.png");
    await page.waitForFunction(() => document.getElementById("analysis").dataset.state === "idle", null, { timeout: 60000 });
    assert.equal(Number(await page.getAttribute("#analysis-module", "data-bytes")), statSync(ANALYZE_WASM).size);
    assert.match(await page.textContent("#analysis-module"), new RegExp(`^Analysis module loaded \\(${mb.replace(".", "\\.")} MB\\) in \\d+\\.\\d s\\.$`));
    assert.equal(await page.isVisible("#analysis-unsupported"), false);
    assert.equal(await page.isDisabled("#run-defaults"), false);
    assert.equal(analyzeGets(), 1, "the analyze module is fetched once");
    note(`the analyze module: ${mb} MB, loaded in ${await page.getAttribute("#analysis-module", "data-ms")} ms (2,000 of them held back by the test)`);
    await page.unroute("**/perfcalc-analyze.wasm");
    await shot("a1-analysis-idle.png");
  });

  let defaults = null;
  await step("Run default analyses: the alerts are perfcalc analyze -f json's, alert by alert, in time order", async () => {
    await page.click("#run-defaults");
    await analysisDone();
    assert.equal(await page.getAttribute("#analysis", "data-state"), "done");
    defaults = await sameAlerts([sample], "defaults");
    assert.ok(defaults.alerts.length > 0, "the PAL sample log raises alerts with the defaults");
    note(`defaults on PAL_SamplePerfmonLog.blg: ${defaults.alerts.length} alerts (native ${defaults.alerts.length}), ${defaults.analyses.length} analyses`);
    // The report saved: byte for byte perfcalc analyze -f json.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#save-report")]);
    assert.equal(download.suggestedFilename(), "PAL_SamplePerfmonLog.analysis.json");
    assert.equal(readFileSync(await download.path(), "utf8"), native("analyze", sample, "-f", "json"), "the saved report is perfcalc analyze -f json's");
    // The first alert is charted at once.
    await page.waitForSelector("#alert-chart svg rect.band", { timeout: 30000 });
    await shot("a2-analysis-defaults.png");
  });

  await step("clicking an alert charts its counter around the alert's slice (relog's values) with the warning and critical bands", async () => {
    assert.ok(defaults, "the defaults ran");
    const crit = defaults.alerts.findIndex((a) => a.condition === "Critical");
    const warn = defaults.alerts.findIndex((a) => a.condition === "Warning" && a.analysis.startsWith("Processor % Processor Time"));
    assert.ok(crit >= 0, "a critical alert");
    const c = await sameAlertChart(defaults, crit, "critical alert");
    note(`critical alert ${crit} (${defaults.alerts[crit].analysis}): ${c.bands} bands, ${c.samples} samples charted`);
    await page.evaluate(() => document.getElementById("analysis-results").scrollIntoView());
    await view("a3-alert-critical.png");
    if (warn >= 0) {
      const w = await sameAlertChart(defaults, warn, "warning alert");
      note(`warning alert ${warn} (${defaults.alerts[warn].analysis}): ${w.bands} bands, ${w.samples} samples charted`);
      await page.locator(".an-chart").screenshot({ path: join(OUT, "a4-alert-chart-processor.png") });
    }
    // The keyboard: the next alert by ArrowDown, charted with Enter.
    await page.focus(`#alerts tr[data-index="${crit}"]`);
    await page.keyboard.press("ArrowDown");
    const next = await page.evaluate(() => document.activeElement?.dataset?.index);
    await page.keyboard.press("Enter");
    await page.waitForFunction((k) => document.getElementById("alert-chart").dataset.alert === k && document.getElementById("alert-chart").dataset.state === "ready", next);
    // Another window width draws the alert's chart again, to the chart's new width (one column below 1100 px).
    const wide = await page.$eval("#alert-chart svg", (e) => Number(e.getAttribute("width")));
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.waitForFunction((w) => {
      const svg = document.querySelector("#alert-chart svg"), box = document.getElementById("alert-chart");
      return svg && Number(svg.getAttribute("width")) !== w && Number(svg.getAttribute("width")) === Math.max(360, box.clientWidth);
    }, wide, { timeout: 10000 });
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.waitForFunction((w) => Number(document.querySelector("#alert-chart svg")?.getAttribute("width")) === w, wide, { timeout: 10000 });
  });

  await step("the alerts filtered by condition and by words of their analysis or counter", async () => {
    const crit = defaults.alerts.filter((a) => a.condition === "Critical");
    await page.selectOption("#alert-condition", "Critical");
    assert.deepEqual((await pageAlerts()).map((r) => r.condition), crit.map(() => "Critical"));
    await page.fill("#alert-search", "memory mbytes");
    const want = crit.filter((a) => `${a.analysis}\n${a.path}`.toLowerCase().includes("memory") && `${a.analysis}\n${a.path}`.toLowerCase().includes("mbytes"));
    await page.waitForFunction((n) => document.querySelectorAll("#alerts tr[data-index]").length === n, want.length);
    assert.ok(want.length > 0);
    assert.match(await page.textContent("#alert-shown"), new RegExp(`^${want.length} of ${defaults.alerts.length} alerts$`));
    await page.fill("#alert-search", "");
    await page.selectOption("#alert-condition", "");
    assert.equal((await pageAlerts()).length, defaults.alerts.length);
  });

  await step("an analysis' section opens to its statistics table (perfcalc analyze's series statistics)", async () => {
    const a = defaults.analyses.find((x) => x.series.length > 0);
    const sel = `details.analysis[data-analysis=${JSON.stringify(a.name)}]`;
    await page.click(`${sel} summary`);
    await page.waitForSelector(`${sel} table.stats`);
    const rows = await page.$$eval(`${sel} table.stats tbody tr`, (trs) => trs.map((tr) => tr.dataset.path));
    assert.deepEqual(rows, a.series.map((s) => s.path));
    await page.locator(sel).screenshot({ path: join(OUT, "a5-analysis-statistics.png") });
    await page.click(`${sel} summary`);
  });

  const system = join(PAL, "SystemOverview.xml"), quick = join(PAL, "QuickSystemOverview.xml");
  if (!existsSync(system) || !existsSync(quick)) {
    skip("PAL's threshold files", `${system} or ${quick} is absent`);
  } else {
    await step("PAL's SystemOverview.xml with QuickSystemOverview.xml it inherits, a question's value and PAL's numbers: perfcalc analyze's alerts", async () => {
      await page.setInputFiles("#thr-files", [system, quick]);
      await page.waitForSelector("#thr-list li", { timeout: 10000 });
      const files = await page.$$eval("#thr-list li", (lis) => lis.map((li) => ({ name: li.dataset.name, run: li.querySelector("input").checked })));
      assert.deepEqual(files, [{ name: "SystemOverview.xml", run: true }, { name: "QuickSystemOverview.xml", run: false }], "the inherited file is there for inheritance only");
      assert.ok(await page.isVisible("#q-PhysicalMemory"), "the question PhysicalMemory is asked");
      await page.fill("#q-PhysicalMemory", "2");
      await page.fill("#set-values", "UserVa=3072");
      await page.fill("#interval", "60");
      await page.check("#pal-compat");
      await page.evaluate(() => document.getElementById("tabs").scrollIntoView());
      await view("a6-threshold-files.png");
      await page.click("#run-thresholds");
      await analysisDone();
      assert.equal(await page.getAttribute("#analysis", "data-state"), "done");
      const r = await sameAlerts([sample, "--thresholds", system, "--set", "PhysicalMemory=2", "--set", "UserVa=3072", "--interval", "60", "--pal-compat"], "SystemOverview.xml");
      const listed = await page.$$eval("#unsupported li", (lis) => lis.length);
      assert.equal(listed, (r.unsupported ?? []).length, "every threshold not evaluated is listed");
      note(`SystemOverview.xml on PAL_SamplePerfmonLog.blg: ${r.alerts.length} alerts, ${r.analyses.length} analyses, ${listed} not evaluated (native the same)`);
      await shot("a7-threshold-files-results.png");
      if (listed) await page.locator("#unsupported-card").screenshot({ path: join(OUT, "a7-not-evaluated.png") });
      await page.evaluate(() => document.getElementById("analysis-results").scrollIntoView());
      await view("a7-threshold-files-alerts.png");
      // Back to the defaults for the next steps.
      await page.uncheck("#pal-compat");
      await page.fill("#interval", "auto");
      await page.fill("#set-values", "");
    });

    await step("a question without a value in a bad form: the page says which, and nothing runs", async () => {
      await page.fill("#set-values", "PhysicalMemory");
      await page.click("#run-thresholds");
      await page.waitForSelector("#message.error:not([hidden])");
      assert.match(await page.textContent("#message"), /not NAME=VALUE/);
      await page.fill("#set-values", "");
    });
  }

  const emra = join(PAL, "EMRA.xml");
  if (!existsSync(emra)) skip("a threshold file perfcalc refuses", `${emra} is absent`);
  else {
    await step("a threshold file dropped on the Analysis view that perfcalc refuses (EMRA.xml: no PALVERSION): the command's message", async () => {
      // Remove the files of before, then drop EMRA.xml on the page (a drop event with the file, as a browser makes it).
      while (await page.$("#thr-list li button.remove")) await page.click("#thr-list li button.remove");
      await page.evaluate(({ name, base64 }) => {
        const dt = new DataTransfer();
        dt.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type: "text/xml" }));
        document.getElementById("thr-drop").dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: dt }));
      }, { name: "EMRA.xml", base64: readFileSync(emra).toString("base64") });
      await page.waitForSelector('#thr-list li[data-name="EMRA.xml"]');
      assert.equal(await attrState(), "done", "a dropped XML file is a threshold file, not a log to open");
      await page.click("#run-thresholds");
      await analysisDone();
      assert.equal(await page.getAttribute("#analysis", "data-state"), "error");
      const r = (() => { try { native("analyze", sample, "--thresholds", emra, "-f", "json"); return null; } catch (e) { return e.stderr; } })();
      assert.ok(r, "perfcalc analyze refuses EMRA.xml");
      const why = /has no PALVERSION attribute.*$/m.exec(r)[0];
      const said = await page.textContent("#message");
      assert.ok(said.includes(why), `the page says what the command says: ${why}; the page: ${said}`);
      await shot("a10-threshold-file-refused.png");
      await page.click('#thr-list li[data-name="EMRA.xml"] button.remove');
      await page.click("#run-defaults");
      await analysisDone();
      assert.equal(await attrState(), "done");
      assert.equal(await page.isVisible("#message"), false, "a new run clears the message of the one before");
    });
  }

  if (!existsSync(quick)) skip("an alert of a generated datasource", `${quick} is absent`);
  else {
    await step("an alert of a generated datasource (not a column of the log) charts the report's envelope of it", async () => {
      // PAL's network utilisation analysis (a generated datasource), its
      // warning made to fire on every slice (ge 0): a threshold file
      // written for the test from QuickSystemOverview.xml, in a temporary folder.
      const text = readFileSync(quick, "utf8").replace(/^\uFEFF/, "");
      const analysis = /<ANALYSIS NAME="Network Interface % Network Utilization"[\s\S]*?<\/ANALYSIS>/.exec(text)[0].replace("-Operator 'gt' -Threshold 30", "-Operator 'ge' -Threshold 0");
      const file = join(bin, "NetworkUtilization.xml");
      writeFileSync(file, `<?xml version="1.0"?>\n<PAL PALVERSION="2.0" NAME="test" DESCRIPTION="test">\n${analysis}\n</PAL>\n`);
      while (await page.$("#thr-list li button.remove")) await page.click("#thr-list li button.remove");
      await page.setInputFiles("#thr-files", file);
      await page.click("#run-thresholds");
      await analysisDone();
      const r = await sameAlerts([sample, "--thresholds", file], "generated datasource");
      const i = r.alerts.findIndex((a) => a.analysis === "Network Interface % Network Utilization");
      assert.ok(i >= 0, "an alert of the generated datasource");
      await page.click(`#alerts tr[data-index="${i}"]`);
      await page.waitForFunction((k) => document.getElementById("alert-chart").dataset.alert === String(k) && document.getElementById("alert-chart").dataset.state === "ready", i);
      const c = await page.evaluate(() => ({ source: document.getElementById("alert-chart").dataset.source, values: JSON.parse(document.querySelector("#alert-chart path.series").dataset.values), hint: document.getElementById("alert-chart-hint").textContent }));
      assert.equal(c.source, "report");
      const s = r.analyses.find((a) => a.name === r.alerts[i].analysis).series.find((x) => x.path === r.alerts[i].path);
      const maxes = s.chart.map((p) => p[3]);
      assert.ok(c.values.length >= 1 && c.values.every((v) => maxes.includes(v)), `the line is the report's envelope: ${JSON.stringify(c.values)}`);
      assert.match(c.hint, /chart envelope/);
      while (await page.$("#thr-list li button.remove")) await page.click("#thr-list li button.remove");
    });
  }

  await step("the tabs answer the keyboard (arrow keys, Home, End)", async () => {
    await page.focus("#tab-analysis");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await page.getAttribute("#tab-counters", "aria-selected"), "true");
    assert.equal(await page.evaluate(() => document.activeElement.id), "tab-counters");
    assert.equal(await page.isVisible("#view"), true);
    await page.keyboard.press("End");
    assert.equal(await page.getAttribute("#tab-analysis", "aria-selected"), "true");
    assert.equal(await page.isVisible("#analysis"), true);
  });

  const tx = join(SHARED, "Tx_BasicPerfCounters.blg");
  if (!existsSync(tx)) skip("Cancel of an analysis", `${tx} is absent`);
  else {
    const big = join(bin, "tx-analysis.blg");
    writeFileSync(big, repeatLog(readFileSync(tx), 200));
    await step("Cancel stops a running analysis at once; the log stays open and the analysis runs again", async () => {
      await open(big, 120000);
      await page.waitForFunction(() => document.getElementById("app").dataset.stats === "ready", null, { timeout: 120000 });
      await page.click("#tab-analysis");
      await page.click("#run-defaults");
      await page.waitForFunction(() => !document.getElementById("progress").hidden && /Analysing tx-analysis/.test(document.getElementById("progress-text").textContent), null, { timeout: 30000 });
      const t0 = performance.now();
      await page.click("#cancel", { timeout: 5000 }).catch(async (err) => { throw new Error(`${err.message}\nthe page: ${await attrState()}: ${await page.textContent("#message")}`); });
      await page.waitForFunction(() => document.getElementById("app").dataset.state === "loaded" && document.getElementById("progress").hidden, null, { timeout: 3000 });
      const ms = performance.now() - t0;
      assert.equal(await page.getAttribute("#analysis", "data-state"), "cancelled");
      assert.equal(await page.isVisible("#analysis-results"), false);
      note(`Cancel of an analysis: the page was idle again after ${ms.toFixed(0)} ms`);
      await shot("a8-analysis-cancelled.png");
      const t1 = performance.now();
      await page.click("#run-defaults");
      await analysisDone(300000);
      const want = JSON.parse(native("analyze", big, "-f", "json"));
      assert.equal(Number(await page.getAttribute("#analysis-results", "data-alerts")), want.alerts.length, "the alert count after Cancel and a new run");
      note(`defaults on the Tx log ×200 (52 MB): ${want.alerts.length} alerts in ${((performance.now() - t1) / 1000).toFixed(1)} s in the page`);
    });
  }

  await step("an analyze module that does not load: the view says why, the rest works, and opening the tab again retries", async () => {
    await page.route("**/perfcalc-analyze.wasm", (route) => route.fulfill({ status: 404, contentType: "text/plain", body: "not found" }));
    await page.goto(server.url);
    await waitState(["ready"]);
    await open(sample);
    assert.ok(Number(await page.getAttribute("#counters", "data-counters")) > 0, "the counters are listed");
    await page.waitForFunction(() => document.getElementById("app").dataset.stats === "ready", null, { timeout: 30000 });
    await page.click("#tab-analysis");
    await page.waitForFunction(() => document.getElementById("analysis").dataset.state === "unavailable", null, { timeout: 30000 });
    assert.equal(await page.isVisible("#analysis-unsupported"), true);
    assert.match(await page.textContent("#analysis-unsupported"), /could not be loaded\.[\s\S]*HTTP 404/);
    assert.equal(await page.isDisabled("#run-defaults"), true);
    await shot("a9-analysis-unavailable.png");
    await page.click("#tab-counters");
    assert.equal(await page.isVisible("#chart svg"), true, "the chart of the Counters tab");
    await page.unroute("**/perfcalc-analyze.wasm");
    await page.click("#tab-analysis");
    await page.waitForFunction(() => document.getElementById("analysis").dataset.state === "idle", null, { timeout: 60000 });
    assert.equal(await page.isVisible("#analysis-unsupported"), false);
    await page.click("#run-defaults");
    await analysisDone();
    assert.equal(await attrState(), "done");
  });

  await step("no uncaught error in the page; nothing left it", async () => {
    assert.deepEqual(pageErrors.map(String), []);
    const origins = new Set([new URL(server.url).origin]);
    // GET, and HEAD for the analyze module's size.
    const foreign = requests.filter((r) => { const u = new URL(r.split(" ")[1]); return !(u.protocol === "blob:" || u.protocol === "data:" || origins.has(u.origin)) || !(r.startsWith("GET ") || r.startsWith("HEAD ")); });
    assert.deepEqual(foreign, []);
  });
} finally {
  await context.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(bin, { recursive: true, force: true });
}
console.log(`analysis e2e: ${passed} passed, ${failures} failed, ${skipped} skipped`);
process.exit(failures ? 1 : 0);
