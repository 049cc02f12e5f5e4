// The viewer's end-to-end test: headless Chromium (Debian's chromium, driven
// by playwright-core) opens web/viewer/ from web/viewer/serve.mjs and
// compares every number the page shows (its exact data attributes, and the
// CSV it copies and saves) with the native perfcalc command's output:
// capture pairs (V1 and V2) of testdata/corpus/, the real .blg logs of
// ../shared/corpus/, a log read in 3 parts by the viewer's pool of 3
// workers (?workers=3&part=65536: its chart, saved CSV and statistics as
// the command's, byte for byte), zoom by keys and by dragging, a 42 MB log
// (envelopes, a zoomed range), a 25 MB log (the page must answer input while it
// decodes, and Cancel must stop it), a log of more than 2,097,152 values
// (listed first, charted counter by counter), a log cut short (the
// command's damage message), and files that must give an error message.
// Screenshots of each state go to out/.
//
//   node viewer.e2e.mjs            (run.sh installs chromium and playwright-core first)
//
// Environment: CHROMIUM (default /usr/bin/chromium), E2E_OUT (default ./out),
// PERFCALC_BIN (a perfcalc command already built; default: go build),
// E2E_SHARED_BLG (the real .blg logs; default ../shared/corpus/blg),
// E2E_LARGE_COPIES (copies of the Tx log in the large log; default 450),
// E2E_LOG42 (the 42 MB log, the Tx log repeated 160 times, when one exists
// already: tools/gencorpus/cmd/repeatlog; default: written by the test).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { repeatLog } from "../test/helpers.mjs";
import { serve } from "../viewer/serve.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CORPUS = join(ROOT, "testdata", "corpus");
const SHARED = process.env.E2E_SHARED_BLG ?? join(ROOT, "..", "shared", "corpus", "blg");
const OUT = process.env.E2E_OUT ?? fileURLToPath(new URL("./out/", import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const LARGE_COPIES = Number(process.env.E2E_LARGE_COPIES ?? 450);
const MAX_RECORDS = 2097152; // the module's records per result (ABI.md's MaxRecords): the old viewer's ceiling

let failures = 0, passed = 0, skipped = 0;
const measures = [];
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
const note = (text) => { console.log(`     ${text}`); measures.push(text); };

// The native command: PERFCALC_BIN, or built once from the working tree.
const bin = mkdtempSync(join(tmpdir(), "perfcalc-e2e-"));
let perfcalc = process.env.PERFCALC_BIN;
if (!perfcalc) {
  perfcalc = join(bin, "perfcalc");
  console.log("building the native perfcalc command…");
  try {
    execFileSync("go", ["build", "-o", perfcalc, "./cmd/perfcalc"], { cwd: ROOT, stdio: "inherit" });
  } catch {
    rmSync(bin, { recursive: true, force: true });
    console.log("FAIL the native perfcalc command does not build (go build ./cmd/perfcalc): nothing to compare the page with");
    process.exit(1);
  }
}
const native = (...args) => execFileSync(perfcalc, args, { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
/** Runs the command; returns its exit status, standard output and standard error. */
function nativeRun(...args) {
  try {
    return { status: 0, stdout: native(...args), stderr: "" };
  } catch (e) {
    if (typeof e.status !== "number") throw e;
    return { status: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}
/** Runs the command expecting it to fail; returns its standard error. */
function nativeError(...args) {
  const r = nativeRun(...args);
  if (r.status === 0) throw new Error(`perfcalc ${args.join(" ")} succeeded; it should have failed`);
  return r.stderr;
}
const jsonLines = (text) => text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
/** The object of a counter path (\\machine\Object(instance)\counter). */
const objectOf = (p) => /^\\\\[^\\]*\\([^\\(]*)/.exec(p)?.[1] ?? "";
/** Paths in the order a search lists them: the objects whose name holds more of its words first, then as given. */
function ranked(paths, query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const rank = (p) => words.filter((w) => objectOf(p).toLowerCase().includes(w)).length;
  return paths.map((p, k) => ({ p, k })).sort((a, b) => rank(b.p) - rank(a.p) || a.k - b.k).map((x) => x.p);
}
/** -c flags for paths. */
const cflags = (paths) => paths.flatMap((p) => ["-c", p]);

/**
 * The exact number of a data attribute ("" = none). JavaScript's shortest
 * text and Go's strconv 'g' -1 both read back as the same float64, so
 * Number(text) === JSON number is exact equality of the values.
 */
const num = (text) => (text === "" ? null : Number(text));
function sameNumber(have, want, what) {
  if (want === null || want === undefined) return assert.equal(have, null, `${what}: page ${have}, native none`);
  assert.ok(Object.is(have, want), `${what}: page ${have}, native ${want}`);
}

mkdirSync(OUT, { recursive: true });
const server = await serve({ port: 0 });
const origin = new URL(server.url).origin;
const profile = mkdtempSync(join(tmpdir(), "perfcalc-e2e-chromium-"));
console.log(`viewer at ${server.url}, chromium ${CHROMIUM}, screenshots in ${OUT}`);
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  acceptDownloads: true,
  viewport: { width: 1360, height: 900 },
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
// The page the helpers below act on: the viewer's tab (a second tab, with a
// pool of 3 workers, for the parallel decoding's steps).
let page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
const requests = [];
/** Records what a tab fetches and its uncaught errors (the last steps check them). */
function watch(p) {
  p.on("request", (r) => requests.push(`${r.method()} ${r.url()}`));
  p.on("pageerror", (e) => pageErrors.push(e));
  p.on("console", (m) => { if (m.type() === "error") console.log(`     page console: ${m.text()}`); });
}
watch(page);

const attr = (name) => page.getAttribute("#app", `data-${name}`);
async function waitState(want, timeout = 60000) {
  await page.waitForFunction((w) => w.includes(document.getElementById("app").dataset.state), want, { timeout });
  return attr("state");
}
/** Opens files with the file picker and waits until every job of the page has ended. */
async function open(files, timeout) {
  // A state the page never sets: the page's own "loaded" or "error" then comes from this open.
  await page.evaluate(() => { document.getElementById("app").dataset.state = "test-opening"; });
  await page.setInputFiles("#files", files);
  return waitState(["loaded", "error"], timeout);
}
const shot = (name) => page.screenshot({ path: join(OUT, name), fullPage: true });
/** A screenshot of the statistics table (its first 420 px), scrolled into view. */
async function shotTable(name) {
  await page.$eval("#table-wrap", (e) => e.scrollIntoView());
  const clip = await page.$eval("#table-wrap", (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y + window.scrollY, width: r.width, height: Math.min(r.height, 420) }; });
  await page.screenshot({ path: join(OUT, name), clip, fullPage: true });
}

/**
 * Reads every row of the values table (a virtual table: the rows exist
 * only near the scrolled window), scrolling it from top to bottom: every
 * data attribute, in the table's order.
 */
function tableRows() {
  return page.evaluate(async () => {
    const wrap = document.getElementById("table-wrap"), table = document.getElementById("values");
    const n = Number(table.dataset.rows), out = new Array(n);
    // Two frames, so that the table has drawn the rows scrolled to; or
    // 200 ms, where headless Chromium produces no frame (it once stopped
    // drawing mid-run, and this wait hung the run for good).
    const frames = () => new Promise((r) => {
      requestAnimationFrame(() => requestAnimationFrame(r));
      setTimeout(r, 200);
    });
    let seen = 0;
    for (let top = 0; ; top += Math.max(100, wrap.clientHeight - 60)) {
      wrap.scrollTop = top;
      await frames();
      for (const tr of table.querySelectorAll("tbody tr[data-index]")) {
        const k = Number(tr.dataset.pos);
        if (out[k] === undefined) seen++;
        out[k] = { ...tr.dataset };
      }
      if (seen === n || top > wrap.scrollHeight) break;
    }
    wrap.scrollTop = 0;
    await frames();
    return out;
  });
}

/** The rows of the table that the DOM holds now (a virtual table: a window of them). */
const drawnRows = () => page.$$eval("#values tbody tr[data-index]", (trs) => trs.length);

/** Ticks counters in the tree: the search finds each (the tree opens the way to few matches), then it is cleared. */
async function tick(paths) {
  for (const p of paths) {
    await page.fill("#search", p);
    const input = `#tree li[data-path=${JSON.stringify(p)}] input`;
    await page.waitForSelector(input, { state: "visible" });
    await page.click(input);
  }
  await page.fill("#search", "");
}

/** The chart: its samples and each series' exact values. */
function chart() {
  return page.evaluate(() => {
    const svg = document.querySelector("#chart svg");
    return {
      times: JSON.parse(svg.dataset.times), rows: JSON.parse(svg.dataset.rows),
      series: [...svg.querySelectorAll("path.series")].map((p) => ({ path: p.dataset.path, values: JSON.parse(p.dataset.values).map((t) => (t === null ? null : Number(t))) })),
    };
  });
}

/**
 * Checks the chart against relog -c PATHS -f json: its samples are those
 * where any charted counter is present, each series holds relog's value
 * there (null where relog has none). Returns the number of values compared.
 */
function sameChart(c, relogRows, what) {
  const present = relogRows.map((r, k) => ({ r, k })).filter(({ r }) => c.series.some((s) => s.path in r.values));
  assert.deepEqual(c.rows, present.map(({ k }) => k), `${what}: the chart's samples`);
  assert.deepEqual(c.times, present.map(({ r }) => r.time), `${what}: the chart's times`);
  let cells = 0;
  for (const s of c.series) {
    assert.equal(s.values.length, present.length, s.path);
    present.forEach(({ r }, j) => { sameNumber(s.values[j], r.values[s.path] ?? null, `${what}: ${s.path} at ${r.time}`); cells++; });
  }
  return cells;
}

// The viewer's statistics table shows the figures that are not PDH's too.
const MORE_STATS = ["--valid", "--percentiles"];

/**
 * Checks the page's statistics table against perfcalc stats --json --valid
 * --percentiles, row by row (every number exactly), and returns the rows.
 */
async function sameStats(stats) {
  const have = await tableRows();
  assert.equal(have.length, stats.length);
  stats.forEach((w, i) => {
    const r = have[i];
    assert.equal(r.path, w.counter, `row ${i}`);
    assert.equal(r.type, w.type, w.counter);
    assert.equal(Number(r.count), w.count, `${w.counter} count`);
    assert.equal(Number(r.skipped), w.skipped, `${w.counter} skipped`);
    sameNumber(num(r.min), w.min, `${w.counter} min`);
    sameNumber(num(r.max), w.max, `${w.counter} max`);
    sameNumber(num(r.mean), w.mean, `${w.counter} mean`);
    assert.equal(r.meanStatus, w.meanStatus, `${w.counter} mean status`);
    // Not PDH's (perfcalc stats --valid --percentiles): every number exactly.
    assert.equal(Number(r.invalid), w.invalid, `${w.counter} invalid`);
    for (const k of ["validMean", "p90", "p95", "p99"]) sameNumber(num(r[k]), w[k], `${w.counter} ${k}`);
  });
  return have;
}

/** relog -q's counters, samples and time range. */
function relogQ(file) {
  const q = nativeRun("relog", file, "-q").stdout.split("\n"); // a damaged log's too (exit status 1)
  const blank = q.indexOf("");
  const field = (name) => q.find((l) => l.startsWith(name))?.slice(name.length).trim();
  return { paths: q.slice(0, blank), begin: field("Time Begin:"), end: field("Time End:"), samples: Number(field("Samples:")) };
}
const mdY = (iso) => { const [d, t] = iso.split("T"); const [y, m, dd] = d.split("-"); return `${m}/${dd}/${y} ${t}`; };

/** Checks the summary of a log against relog -q. */
async function sameSummary(q) {
  const range = await page.$eval("#time-range", (e) => ({ begin: e.dataset.begin, end: e.dataset.end }));
  assert.equal(mdY(range.begin), q.begin);
  assert.equal(mdY(range.end), q.end);
  assert.equal(Number(await page.getAttribute("#samples", "data-samples")), q.samples);
  assert.equal(Number(await page.getAttribute("#counters", "data-counters")), q.paths.length);
  return range;
}

try {
  await step("the page loads the module in a worker", async () => {
    await page.goto(server.url);
    assert.equal(await waitState(["ready", "error"]), "ready", await page.textContent("#message"));
    assert.match(await page.textContent("#module-status"), /Ready: the perfcalc module runs in a worker/);
    // The help under the Open button: for someone with a .blg first, the raw captures after.
    const help = await page.$$eval("#drop .drop-help", (ss) => ss.map((s) => s.textContent.replace(/\s+/g, " ")));
    assert.match(help[0], /^A perfmon log \(\.blg\)/);
    assert.ok(!/HKEY|PerfLib/.test(help[0]), help[0]);
    assert.match(help[1], /HKEY_PERFORMANCE_DATA/);
    await shot("01-empty.png");
  });

  // ------------------------------------------------------------ a V1 capture pair
  const g1 = join(CORPUS, "global-1.bin"), g2 = join(CORPUS, "global-2.bin"), names = join(CORPUS, "counter-009.multisz");
  const pairValues = () => jsonLines(native("values", g1, g2, "--names", names, "-f", "json"));

  await step("a capture pair (dropped, newer first) shows what perfcalc values gives", async () => {
    // Dropped as a person would, with a DataTransfer, the newer capture first.
    const payload = [g2, names, g1].map((f) => ({ name: f.split("/").pop(), b64: readFileSync(f).toString("base64") }));
    await page.evaluate((list) => {
      const dt = new DataTransfer();
      for (const f of list) {
        const bin = atob(f.b64), bytes = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
        dt.items.add(new File([bytes], f.name));
      }
      const target = document.getElementById("drop");
      target.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, payload);
    await page.waitForFunction(() => document.getElementById("app").dataset.kind === "pair", null, { timeout: 60000 });
    assert.equal(await waitState(["loaded", "error"]), "loaded", await page.textContent("#message"));
    const want = pairValues();
    const have = await tableRows();
    assert.equal(have.length, want.length, `${have.length} rows, native ${want.length}`);
    assert.ok(want.length > 100);
    let valid = 0;
    want.forEach((w, i) => {
      const r = have[i];
      assert.equal(r.path, w.path, `row ${i}`);
      assert.equal(r.status, w.status, w.path);
      assert.equal(r.type, w.type, w.path);
      if (w.status === "Valid") { sameNumber(num(r.value), w.value, w.path); valid++; } else assert.equal(r.value, "", w.path);
    });
    assert.ok(valid > 100, `${valid} valid values compared`);
    const machine = /^\\\\([^\\]+)\\/.exec(want[0].path)[1];
    assert.equal(await page.textContent("#machine"), machine);
    // The time range: perfcalc show's UTC time (PerfTime100nSec) of each capture, to the millisecond.
    const utc = (f) => JSON.parse(native("show", f, "--names", names, "--json")).utc.slice(0, 23);
    const range = await page.$eval("#time-range", (e) => ({ begin: e.dataset.begin, end: e.dataset.end, text: e.textContent }));
    assert.equal(range.begin, utc(g1));
    assert.equal(range.end, utc(g2));
    assert.equal(await page.isVisible("#message"), false);
    // A virtual table: the DOM holds a window of the rows, not all of them.
    const drawn = await drawnRows();
    assert.ok(drawn < have.length / 4, `${drawn} rows in the DOM for ${have.length}`);
    note(`pair: ${have.length} rows, ${valid} valid values identical; ${drawn} rows in the DOM; ${range.text}`);
    await shot("02-pair.png");
  });

  await step("relog CSV of a capture pair: copied and saved, 20 and 17 digits, and of a search, byte for byte as perfcalc values -f csv", async () => {
    for (const digits of [20, 17]) {
      await page.selectOption("#digits", String(digits));
      const want = native("values", g1, g2, "--names", names, "-f", "csv", "--digits", String(digits));
      await page.click("#copy-csv");
      await page.waitForFunction(() => /Copied/.test(document.getElementById("export-status").textContent));
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), want, `copied, ${digits} digits`);
      assert.match(await page.textContent("#export-status"), /perfcalc values -f csv/);
      const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#save-csv")]);
      assert.equal(dl.suggestedFilename(), `global-2.${digits}digits.csv`);
      assert.equal(readFileSync(await dl.path(), "utf8"), want, `saved, ${digits} digits`);
      assert.ok(!/e[+-]\d\d(?!\d)/.test(want));
    }
    // The values the search shows.
    await page.fill("#search", "processor time");
    await page.waitForTimeout(200);
    await page.selectOption("#digits", "20");
    const shown = jsonLines(native("values", g1, g2, "--names", names, "-f", "json")).map((v) => v.path).filter((p) => /processor/i.test(p) && /time/i.test(p));
    assert.ok(shown.length > 0);
    const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#save-csv")]);
    assert.equal(readFileSync(await dl.path(), "utf8"), native("values", g1, g2, "--names", names, ...cflags(shown), "-f", "csv"));
    await page.fill("#search", "");
    note(`pair CSV: copied and saved at 20 and 17 digits, and of a search (${shown.length} counters), identical to perfcalc values -f csv`);
  });

  await step("the search filters the tree and the table, redrawing only what changes", async () => {
    // Mark the tree's nodes and the table's rows: a rebuild would lose the marks.
    await page.evaluate(() => {
      for (const li of document.querySelectorAll("#tree li")) li.__mark = true;
      for (const tr of document.querySelectorAll("#values tbody tr[data-index]")) tr.__mark = true;
    });
    const before = await page.$$eval("#tree li", (lis) => lis.length);
    await page.fill("#search", "processor time");
    await page.waitForFunction(() => document.getElementById("counter-count").dataset.shown !== "825");
    const want = pairValues().filter((w) => /processor/i.test(w.path) && /time/i.test(w.path)); // every word, in any place
    assert.ok(want.length > 0);
    assert.equal(Number(await page.getAttribute("#counter-count", "data-shown")), want.length);
    assert.equal(objectOf(want[0].path) !== "", true, want[0].path);
    assert.deepEqual((await tableRows()).map((r) => r.path), ranked(want.map((w) => w.path), "processor time"), "the table lists the matches, the objects named by the words first");
    const leaves = await page.$$eval("#tree li[data-path]", (lis) => lis.filter((li) => li.offsetParent !== null).map((li) => li.dataset.path));
    assert.deepEqual(leaves.sort(), want.map((w) => w.path).sort(), "the tree shows the matching counters, opened");
    const kept = await page.$$eval("#tree li", (lis) => lis.filter((li) => li.__mark).length);
    assert.equal(kept, before, "every tree node of before the search is still the same node");
    await shot("03-pair-search.png");
    // Narrowing the search keeps the rows that stay in the window.
    const drawnBefore = await page.$$eval("#values tbody tr[data-index]", (trs) => trs.map((tr) => { tr.__mark2 = true; return tr.dataset.index; }));
    await page.type("#search", " _total");
    const narrow = want.filter((w) => /_total/i.test(w.path)).length;
    await page.waitForFunction((n) => document.getElementById("counter-count").dataset.shown === String(n), narrow);
    const rows = await page.$$eval("#values tbody tr[data-index]", (trs) => trs.map((tr) => ({ index: tr.dataset.index, same: !!tr.__mark2 })));
    assert.equal(rows.length, narrow);
    const stayed = rows.filter((r) => drawnBefore.includes(r.index));
    assert.ok(stayed.length > 0 && stayed.every((r) => r.same), "the rows drawn before and still shown are the same rows");
    await page.fill("#search", "");
    await page.waitForFunction(() => document.getElementById("counter-count").dataset.shown === "825");
  });

  // ------------------------------------------------------------ a .blg log
  const tx = join(SHARED, "Tx_BasicPerfCounters.blg");
  const haveShared = existsSync(tx);
  if (!haveShared) {
    skip("the real .blg logs", `${tx} is absent (../shared/corpus is not beside the repository): the .blg comparisons are not run`);
  } else {
    let txPaths;
    await step("a .blg log: its tree, perfcalc stats' statistics and relog -q's summary", async () => {
      assert.equal(await open(tx), "loaded", await page.textContent("#message"));
      assert.equal(await attr("kind"), "blg");
      assert.equal(await attr("stats"), "ready");
      const stats = JSON.parse(native("stats", tx, "--json", ...MORE_STATS));
      const have = await sameStats(stats);
      const q = relogQ(tx);
      txPaths = q.paths;
      const range = await sameSummary(q);
      assert.equal(await page.textContent("#machine"), "GEORGIS3");
      // The tree: object → counter → instances, every counter of relog -q once.
      const tree = await page.evaluate(() => [...document.querySelectorAll("#tree > li")].map((o) => ({
        object: o.querySelector(":scope > .row .label").textContent,
        counters: [...o.querySelectorAll(":scope > ul > li")].map((c) => ({
          counter: c.querySelector(":scope > .row .label").textContent,
          instances: [...c.querySelectorAll(":scope > ul > li")].map((i) => i.querySelector(".label").textContent),
          path: c.dataset.path ?? null,
        })),
      })));
      assert.deepEqual(tree.map((o) => o.object), ["PhysicalDisk", "Processor"]);
      // Sorted as perfmon's Add Counters: _Total first among the instances.
      assert.deepEqual(tree[1].counters, [{ counter: "% Processor Time", instances: ["_Total", "0", "1", "2", "3"], path: null }]);
      assert.deepEqual(tree[0].counters.map((c) => c.counter), [...tree[0].counters.map((c) => c.counter)].sort((a, b) => a.toLowerCase() < b.toLowerCase() ? -1 : 1));
      // A unit for every counter: the type's suffix, bytes from the name, else a count.
      const units = Object.fromEntries(have.map((r) => [r.path.replace(/^.*\\/, ""), r.unit]));
      assert.deepEqual(units, {
        "Avg. Disk Bytes/Read": "bytes", "Avg. Disk Bytes/Write": "bytes", "Avg. Disk Queue Length": "count", "Avg. Disk Read Queue Length": "count",
        "Avg. Disk Write Queue Length": "count", "% Processor Time": "%",
      });
      const leaves = await page.$$eval("#tree li[data-path]", (lis) => lis.map((li) => li.dataset.path));
      assert.deepEqual(leaves.sort(), [...q.paths].sort());
      note(`Tx: ${have.length} counters: count, skipped, min, max, mean identical; ${range.begin} → ${range.end}`);
      await shot("04-blg.png");
    });

    await step("the chart's series are relog's values, sample by sample", async () => {
      await page.click("#clear-selection");
      await page.waitForFunction(() => document.querySelectorAll("#chart path.series").length === 0);
      await tick(txPaths); // all ten (the chart takes up to ten)
      await waitState(["loaded"]);
      const c = await chart();
      assert.equal(c.series.length, 10);
      assert.deepEqual(c.series.map((s) => s.path), txPaths);
      const cells = sameChart(c, jsonLines(native("relog", tx, "-f", "json")), "Tx");
      assert.equal(cells, 6010);
      note(`Tx: ${c.series.length} series × ${c.rows.length} samples = ${cells} values identical`);
      await shot("05-blg-all-selected.png");
      assert.match(await page.textContent("#chart-hint"), /differ in size/);
      // The Y axis' title: each unit of the charted counters once.
      assert.equal(await page.getAttribute("#chart svg", "data-unit"), "bytes · count · %");
      await page.check("#normalize");
      assert.match(await page.textContent("#chart-hint"), /own minimum/);
      // Scaled mode says so: min and max on the axis, no percentages that would read as CPU.
      assert.match(await page.getAttribute("#chart svg", "data-unit"), /^scaled/);
      const ylabels = await page.$$eval("#chart .ylabel", (ts) => ts.map((t) => t.textContent).filter(Boolean));
      assert.deepEqual(ylabels, ["min", "max"]);
      await shot("05-blg-scaled.png");
      // Scaling changes the drawing, not the numbers.
      assert.deepEqual((await chart()).series, c.series);
      await page.uncheck("#normalize");
      await page.click("#clear-selection");
      await tick(txPaths.filter((p) => /Processor/.test(p)));
      await waitState(["loaded"]);
      assert.equal((await chart()).series.length, 5);
      await page.hover("#chart svg", { position: { x: 700, y: 150 } });
      await shot("06-blg-processor-time.png");
    });

    await step("relog CSV of what the chart shows: copied and saved, 20 and 17 digits, byte for byte as perfcalc relog", async () => {
      const shown = (await chart()).series.map((s) => s.path);
      for (const digits of [20, 17]) {
        await page.selectOption("#digits", String(digits));
        const want = native("relog", tx, ...cflags(shown), "-f", "csv", "--digits", String(digits));
        await page.click("#copy-csv");
        await page.waitForFunction(() => /Copied/.test(document.getElementById("export-status").textContent));
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), want, `copied, ${digits} digits`);
        const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#save-csv")]);
        assert.equal(dl.suggestedFilename(), `Tx_BasicPerfCounters.${digits}digits.csv`);
        assert.equal(readFileSync(await dl.path(), "utf8"), want, `saved, ${digits} digits`);
        // Three-digit exponents, never two, as Windows writes them.
        assert.ok(!/e[+-]\d\d(?!\d)/.test(want));
      }
      // No counter charted: the counters the search shows.
      await page.click("#clear-selection");
      await page.fill("#search", "physicaldisk queue");
      await page.waitForFunction(() => document.getElementById("counter-count").dataset.shown === "3");
      await page.selectOption("#digits", "20");
      const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#save-csv")]);
      const paths = txPaths.filter((p) => /physicaldisk/i.test(p) && /queue/i.test(p));
      assert.equal(readFileSync(await dl.path(), "utf8"), native("relog", tx, ...cflags(paths), "-f", "csv"));
      await page.fill("#search", "");
      note(`CSV: copied and saved at 20 and 17 digits, and of a search, identical to perfcalc relog -f csv`);
    });

    // The other logs of the shared corpus: many counters (a tree of 1,832), many machines, gaps.
    for (const name of ["PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"]) {
      const f = join(SHARED, name);
      if (!existsSync(f)) { skip(name, "absent"); continue; }
      await step(`${name}: statistics identical to perfcalc stats, the tree, and a chart identical to relog`, async () => {
        assert.equal(await open(f), "loaded", await page.textContent("#message"));
        const stats = JSON.parse(native("stats", f, "--json", ...MORE_STATS));
        const have = await sameStats(stats);
        const q = relogQ(f);
        await sameSummary(q);
        const c = await chart();
        assert.ok(c.series.length > 0, "a default chart");
        const cells = sameChart(c, jsonLines(native("relog", f, ...cflags(c.series.map((s) => s.path)), "-f", "json")), name);
        if (name.startsWith("PAL")) {
          // The tree: objects, then counters, then instances; a search opens the way to its matches.
          // Sorted as perfmon's Add Counters (the log's order was LogicalDisk, TCPv4, Memory, …).
          assert.deepEqual(await page.$$eval("#tree > li > .row .label", (ls) => ls.map((l) => l.textContent)),
            ["LogicalDisk", "Memory", "Network Interface", "PhysicalDisk", "Process", "Processor", "System", "TCPv4"]);
          // The automatic selection is visible: its object and counter are open.
          const selected = await page.$$eval("#tree li.leaf.selected", (lis) => lis.map((li) => ({ path: li.dataset.path, visible: li.offsetParent !== null })));
          assert.deepEqual(selected.map((x) => x.path).sort(), [...c.series.map((s) => s.path)].sort());
          assert.ok(selected.every((x) => x.visible), JSON.stringify(selected));
          // A unit for every counter, bytes for the byte counters.
          const units = await tableRows();
          assert.ok(units.every((r) => r.unit !== ""), "every counter has a unit");
          const bytes = units.filter((r) => /\\[^\\%]*Bytes[^\\]*$/.test(r.path) && !/MBytes|KBytes/.test(r.path)); // not % Committed Bytes In Use (a %)
          assert.ok(bytes.length > 10 && bytes.every((r) => /^bytes/.test(r.unit)), JSON.stringify(bytes.filter((r) => !/^bytes/.test(r.unit)).map((r) => [r.path, r.unit])));
          // A search ranks the objects whose name holds its words first: Processor before Process.
          await page.fill("#search", "processor time");
          await page.waitForFunction(() => document.querySelector("#tree > li:not([hidden]) > .row .label")?.textContent === "Processor", null, { timeout: 10000 });
          const objects = await page.$$eval("#tree > li", (lis) => lis.filter((li) => !li.hidden).map((li) => li.querySelector(":scope > .row .label").textContent));
          assert.ok(objects.indexOf("Processor") >= 0 && objects.indexOf("Process") > objects.indexOf("Processor"), objects.join(", "));
          const matched = q.paths.filter((p) => /processor/i.test(p) && /time/i.test(p));
          assert.deepEqual((await tableRows()).map((r) => r.path), ranked(matched, "processor time"));
          assert.match((await tableRows())[0].path, /\\Processor\(/);
          await page.fill("#search", "");
          await page.waitForFunction(() => document.querySelector("#tree > li > .row .label")?.textContent === "LogicalDisk", null, { timeout: 10000 }).catch(() => {});
          assert.deepEqual(await page.$$eval("#tree > li > .row .label", (ls) => ls.map((l) => l.textContent)),
            ["LogicalDisk", "Memory", "Network Interface", "PhysicalDisk", "Process", "Processor", "System", "TCPv4"], "the search cleared: alphabetical again");
          await page.fill("#search", "process handle");
          const want = q.paths.filter((p) => /process/i.test(p) && /handle/i.test(p));
          await page.waitForFunction((n) => document.getElementById("counter-count").dataset.shown === String(n), want.length);
          const leaves = await page.$$eval("#tree li[data-path]", (lis) => lis.filter((li) => li.offsetParent !== null).map((li) => li.dataset.path));
          assert.deepEqual(leaves.sort(), [...want].sort());
          await page.fill("#search", "processor time");
          await page.waitForTimeout(100);
          await shot("10-tree-PAL-search.png");
          await page.fill("#search", "");
        } else {
          // 26 machines: the tree's top level.
          assert.equal(await page.$$eval("#tree > li.machine", (ls) => ls.length), 26);
          await shot("10-PowerShell-machines.png");
          // Issue 25: PDH's mean is NegativeValue on every counter (a bad
          // first or last sample); the valid values' mean, the invalid
          // samples and the percentiles stand beside it, labelled.
          assert.ok(stats.every((w) => w.meanStatus === "NegativeValue" && w.validMean !== null && w.invalid > 0));
          assert.deepEqual(await page.$$eval("#values thead th", (ths) => ths.map((t) => t.textContent)),
            ["Counter", "Unit", "Min", "Max", "PDH mean", "Valid mean", "Values", "Skipped", "Invalid", "P90", "P95", "P99"]);
          await shotTable("10-PowerShell-statistics.png");
        }
        note(`${name}: ${have.length} counters identical, ${cells} charted values identical`);
      });
    }

    // ---------------------------------------------------------- parallel decoding: the viewer's pool, a log in 3 parts
    // A second tab whose pool has 3 workers and parts of 64 KiB or more
    // (?workers=3&part=65536): the Tx log repeated 12 times (3.3 MB) is
    // read in 3 parts, for the chart and for the CSV saved.
    const tx12 = join(bin, "tx-12.blg");
    writeFileSync(tx12, repeatLog(readFileSync(tx), 12));
    const total = "\\\\GEORGIS3\\Processor(_Total)\\% Processor Time";
    const mainPage = page;
    page = await context.newPage();
    watch(page);
    /** Saves the CSV (the download) and returns its text and the parts the pool read the log in. */
    const savedCsv = async () => {
      const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#save-csv")]);
      return { text: readFileSync(await dl.path(), "utf8"), parts: await page.getAttribute("#export-status", "data-parts") };
    };
    try {
      await step("parallel decoding: the viewer's pool of 3 workers reads a log in 3 parts; its chart, the CSV saved (every counter, the charted one, 20 and 17 digits) and the statistics are the native command's, byte for byte", async () => {
        const u = new URL(server.url);
        u.searchParams.set("workers", "3");
        u.searchParams.set("part", "65536");
        await page.goto(u.href);
        assert.equal(await waitState(["ready", "error"]), "ready", await page.textContent("#message"));
        assert.equal(await open(tx12), "loaded", await page.textContent("#message"));
        assert.equal(await attr("stats"), "ready");
        const stats = JSON.parse(native("stats", tx12, "--json", ...MORE_STATS));
        await sameStats(stats);
        assert.ok(stats.some((w) => w.p99 !== null && w.validMean !== null), "percentiles and valid means compared");
        // The default chart, read in 3 parts: relog's values, sample by sample.
        assert.equal(await attr("series-parts"), "3", "the charted counters were read in 3 parts");
        const c = await chart();
        assert.ok(c.series.length > 0 && c.rows.length > 5000, `${c.series.length} series × ${c.rows.length} samples`);
        let cells = sameChart(c, jsonLines(native("relog", tx12, ...cflags(c.series.map((s) => s.path)), "-f", "json")), "pool, default chart");
        // One counter charted, read in 3 parts again.
        await page.click("#clear-selection");
        await tick([total]);
        assert.equal(await waitState(["loaded", "error"]), "loaded");
        assert.equal(await attr("series-parts"), "3");
        const one = await chart();
        assert.deepEqual(one.series.map((s) => s.path), [total]);
        cells += sameChart(one, jsonLines(native("relog", tx12, "-c", total, "-f", "json")), "pool, one counter");
        // Its CSV, written in 3 parts: perfcalc relog -c … -f csv, byte for byte.
        for (const digits of [20, 17]) {
          await page.selectOption("#digits", String(digits));
          const csv = await savedCsv();
          assert.equal(csv.parts, "3", "the CSV was written in 3 parts");
          assert.equal(csv.text, native("relog", tx12, "-c", total, "-f", "csv", "--digits", String(digits)), `-c, ${digits} digits`);
        }
        await shot("20-pool-3-parts.png");
        // Nothing charted: every counter's CSV, perfcalc relog -f csv.
        await page.selectOption("#digits", "20");
        await page.click("#clear-selection");
        const all = await savedCsv();
        assert.equal(all.parts, "3");
        const want = native("relog", tx12, "-f", "csv");
        const q12 = relogQ(tx12);
        assert.equal(want.split("\r\n").length, q12.samples + 2, "the CSV holds every sample (a header, and a line each)");
        assert.equal(all.text, want, "every counter");
        note(`pool of 3 workers, ${(readFileSync(tx12).length / 1e6).toFixed(1)} MB log in 3 parts: ${cells} charted values identical to relog -c; CSV (${(want.length / 1e6).toFixed(1)} MB, and of the charted counter at 20 and 17 digits) identical to perfcalc relog -f csv; ${stats.length} counters' statistics identical to perfcalc stats --valid --percentiles`);
      });

      await step("keyboard zoom: the chart takes focus; + zooms to the middle half, → moves a quarter, − zooms out (to the whole log from half of it), Escape shows the whole log; statistics and CSV (read in 3 parts) of each range as relog and stats -b -e", async () => {
        await page.click("#clear-selection");
        await tick([total]);
        assert.equal(await waitState(["loaded", "error"]), "loaded");
        const whole = await chart();
        assert.deepEqual(whole.series.map((s) => s.path), [total]);
        const ms = (iso) => Date.parse(iso + "Z");
        const first = ms(whole.times[0]), last = ms(whole.times[whole.times.length - 1]);
        assert.equal(await page.getAttribute("#chart svg", "tabindex"), "0", "the chart is focusable");
        assert.match(await page.getAttribute("#chart svg", "aria-label"), /Keys: plus and minus zoom in and out, left and right arrows move/);
        await page.focus("#chart svg");
        const zoomed = async () => {
          assert.equal(await waitState(["loaded", "error"]), "loaded", await page.textContent("#message"));
          assert.ok(await page.evaluate(() => document.activeElement === document.querySelector("#chart svg")), "the chart keeps the focus");
          assert.ok(await attr("zoom"), `no zoom: ${await page.isVisible("#message") ? await page.textContent("#message") : "no message"}`);
          return page.$eval("#zoom-range", (e) => ({ from: Date.parse(e.dataset.begin + "Z"), to: Date.parse(e.dataset.end + "Z"), begin: e.dataset.begin, end: e.dataset.end }));
        };
        // Each range as the native command selects it: the chart's samples, the statistics, the CSV.
        const sameRange = async (r, what) => {
          const b = mdY(r.begin), e = mdY(r.end);
          const rows = jsonLines(native("relog", tx12, "-c", total, "-b", b, "-e", e, "-f", "json"));
          const k0 = Number(await page.getAttribute("#chart svg", "data-first")), k1 = Number(await page.getAttribute("#chart svg", "data-last"));
          assert.deepEqual([whole.times[k0], whole.times[k1], k1 - k0 + 1], [rows[0].time, rows[rows.length - 1].time, rows.length], `${what}: the chart's samples`);
          await sameStats(JSON.parse(native("stats", tx12, "-b", b, "-e", e, "--json", ...MORE_STATS)));
          const csv = await savedCsv();
          assert.equal(csv.parts, "3");
          assert.equal(csv.text, native("relog", tx12, "-c", total, "-b", b, "-e", e, "-f", "csv"), `${what}: CSV`);
          await page.focus("#chart svg"); // saving moved the focus to the button
          return rows.length;
        };
        await page.keyboard.press("+");
        const a = await zoomed(), span = last - first;
        assert.deepEqual([a.from, a.to], [Math.ceil(first + span / 4), Math.floor(last - span / 4)], "+: the middle half");
        const n1 = await sameRange(a, "+");
        await shot("21-keyboard-zoom.png");
        await page.keyboard.press("ArrowRight");
        const b = await zoomed(), q = (a.to - a.from) / 4;
        assert.deepEqual([b.from, b.to], [Math.ceil(a.from + q), Math.floor(a.to + q)], "→: a quarter later");
        await sameRange(b, "→");
        await page.keyboard.press("+");
        const c = await zoomed(), sb = b.to - b.from;
        assert.deepEqual([c.from, c.to], [Math.ceil(b.from + sb / 4), Math.floor(b.to - sb / 4)], "+ again: the middle half of that");
        const n3 = await sameRange(c, "+ again");
        assert.ok(n3 < n1, "zoomed in: fewer samples");
        // − : twice the span around the same middle, the range before within a ms.
        await page.keyboard.press("-");
        const d = await zoomed();
        assert.ok(Math.abs(d.from - b.from) <= 1 && Math.abs(d.to - b.to) <= 1, `−: ${d.begin} – ${d.end}, want ${b.begin} – ${b.end}`);
        await sameRange(d, "−");
        // − again: twice half the log is all of it.
        await page.keyboard.press("-");
        await page.waitForFunction(() => !document.getElementById("app").dataset.zoom);
        assert.equal(await waitState(["loaded", "error"]), "loaded");
        assert.equal(await page.isVisible("#zoom-reset"), false);
        assert.equal(Number(await page.getAttribute("#chart svg", "data-last")) + 1, whole.times.length, "the whole log is drawn");
        // Escape: the whole log from a zoomed range, its statistics again.
        await page.keyboard.press("+");
        await zoomed();
        await page.keyboard.press("Escape");
        await page.waitForFunction(() => !document.getElementById("app").dataset.zoom);
        assert.equal(await waitState(["loaded", "error"]), "loaded");
        assert.equal(await page.$("#zoom-range"), null);
        assert.ok(await page.evaluate(() => document.activeElement === document.querySelector("#chart svg")), "the chart keeps the focus");
        await sameStats(JSON.parse(native("stats", tx12, "--json", ...MORE_STATS)));
        note(`keyboard zoom: +, →, +, −, −, +, Escape: ranges of ${n1} and ${n3} samples as relog -b -e, statistics and CSV (in 3 parts) identical`);
      });
    } finally {
      await page.close();
      page = mainPage;
      rmSync(tx12, { force: true });
    }

    // ---------------------------------------------------------- a 25 MB log: responsive, and cancellable
    // (10 MB, 40 copies, was too short on a loaded machine: its statistics
    // could end before the search typed meanwhile applied)
    const big = join(bin, "tx-repeated.blg");
    writeFileSync(big, repeatLog(readFileSync(tx), 100));
    let fullStats = 0;
    await step("a 25 MB log decodes in a worker: the page answers input meanwhile (search typed and applied while the statistics compute)", async () => {
      // A probe of the page's main thread: the longest gap between timer callbacks while the page is busy.
      await page.evaluate(() => {
        const app = document.getElementById("app");
        const probe = window.__probe = { gaps: [], last: performance.now() };
        const tick = () => {
          const now = performance.now();
          if (app.dataset.state === "busy") probe.gaps.push(now - probe.last);
          probe.last = now;
          probe.timer = setTimeout(tick, 5);
        };
        tick();
      });
      const t0 = performance.now();
      await page.setInputFiles("#files", big);
      // The counters are listed first; the statistics are computed after, in the background.
      await page.waitForFunction(() => document.querySelectorAll("#tree li[data-path]").length === 10, null, { timeout: 60000 });
      const listed = performance.now() - t0;
      assert.equal(await attr("stats"), "pending", "the statistics are still computing when the counters are listed");
      // What the page shows each time the search's count changes, and whether the log was still decoding.
      await page.evaluate(() => {
        const app = document.getElementById("app"), count = document.getElementById("counter-count");
        window.__seen = [];
        new MutationObserver(() => window.__seen.push({
          shown: count.dataset.shown, rows: document.getElementById("values").dataset.rows, stats: app.dataset.stats, state: app.dataset.state,
        })).observe(count, { attributes: true, childList: true, characterData: true, subtree: true });
      });
      await page.type("#search", "processor");
      // The search applies after the last key (debounced, drawn in a frame):
      // wait for the five rows, then look at what the page said meanwhile.
      await page.waitForFunction(() => window.__seen.some((x) => x.shown === "5"), null, { timeout: 60000 });
      const seen = await page.evaluate(() => window.__seen);
      // While the page was busy with the log: its statistics may end first
      // on a loaded machine (CI saw stats "ready", state "busy" at 25 MB).
      assert.ok(seen.some((x) => x.shown === "5" && x.rows === "5" && x.state === "busy"),
        `the search was applied while the log decoded: ${JSON.stringify(seen)}`);
      assert.equal(await waitState(["loaded", "error"]), "loaded", await page.textContent("#message"));
      fullStats = performance.now() - t0;
      const gaps = await page.evaluate(() => { clearTimeout(window.__probe.timer); return window.__probe.gaps.sort((a, b) => a - b); });
      const pct = (p) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))];
      const probe = { ticks: gaps.length, p50: pct(0.5), p99: pct(0.99), max: gaps[gaps.length - 1] };
      assert.ok(probe.ticks > 20, `${probe.ticks} probe ticks while busy`);
      // On the decode's thread the page would stop for all of it; in a worker
      // it pauses only to draw what arrives (and when the machine's other
      // work takes its core).
      assert.ok(probe.max < Math.min(1000, fullStats / 3), `the page's main thread was blocked for ${probe.max.toFixed(0)} ms of a ${fullStats.toFixed(0)} ms decode`);
      await page.fill("#search", "");
      const stats = JSON.parse(native("stats", big, "--json", ...MORE_STATS));
      const have = await sameStats(stats);
      const samples = Math.max(...stats.map((w) => w.count + w.skipped));
      assert.ok(samples > 19000, `only ${samples} samples: the log is not the large one`);
      note(`25 MB log: counters listed after ${listed.toFixed(0)} ms, all done after ${fullStats.toFixed(0)} ms; the main thread meanwhile: a 5 ms timer ran ${probe.ticks} times, gaps median ${probe.p50.toFixed(0)} ms, 99th percentile ${probe.p99.toFixed(0)} ms, longest ${probe.max.toFixed(0)} ms; ${have.length} counters × ${samples} samples identical`);
      await shot("11-25MB-log.png");
    });

    // ---------------------------------------------------------- a 42 MB log (Tx ×160): envelopes, zoom, statistics of a range
    // E2E_LOG42: a 42 MB log made already (the Tx log repeated 160 times), read, never removed.
    const tx160 = process.env.E2E_LOG42 ?? join(bin, "tx-160.blg");
    if (!process.env.E2E_LOG42) writeFileSync(tx160, repeatLog(readFileSync(tx), 160));
    const q160 = relogQ(tx160);
    const mdYms = (iso) => mdY(iso); // relog -b and -e take the page's times as MM/DD/YYYY HH:MM:SS.mmm
    await step("a 42 MB log: a loading state while it decodes (no empty axis, no hint to tick what is ticked), then envelopes under mean lines, _Total on top", async () => {
      // Record what the chart box shows at each change while the log opens.
      await page.evaluate(() => {
        const box = document.getElementById("chart");
        window.__chartSeen = [];
        new MutationObserver(() => window.__chartSeen.push({
          loading: !!box.querySelector(".chart-loading"), svg: !!box.querySelector("svg"), series: document.getElementById("app").dataset.series,
          lines: box.querySelectorAll("path.series").length, hint: document.getElementById("chart-hint").textContent,
        })).observe(box, { childList: true });
      });
      await page.evaluate(() => { document.getElementById("app").dataset.state = "test-opening"; });
      await page.setInputFiles("#files", tx160);
      await page.waitForSelector("#chart .chart-loading", { timeout: 120000 });
      await shot("16-42MB-loading.png");
      assert.equal(await waitState(["loaded", "error"], 300000), "loaded", await page.textContent("#message"));
      const seen = await page.evaluate(() => window.__chartSeen);
      assert.ok(seen.some((x) => x.loading), "a loading state was shown");
      assert.ok(!seen.some((x) => x.svg && x.lines === 0), `an empty axis was shown: ${JSON.stringify(seen)}`);
      assert.ok(!seen.some((x) => /Tick counters/.test(x.hint)), "no hint to tick counters while the ticked ones decode");
      await sameSummary(q160);
      const c = await chart();
      assert.equal(c.rows.length, q160.samples);
      assert.ok(c.rows.length > 76000, `${c.rows.length} samples`);
      const cells = sameChart(c, jsonLines(native("relog", tx160, ...cflags(c.series.map((s) => s.path)), "-f", "json")), "42 MB log");
      // Drawn as envelopes (one per series) under the mean lines, _Total's last (on top).
      assert.equal(await page.getAttribute("#chart svg", "data-mode"), "envelope");
      const drawn = await page.$$eval("#chart .lines path.series", (ps) => ps.map((p) => p.dataset.path));
      assert.equal(await page.$$eval("#chart path.envelope", (ps) => ps.length), c.series.length);
      assert.match(drawn[drawn.length - 1], /Processor\(_Total\)/);
      assert.equal(await page.getAttribute("#chart svg", "data-unit"), "%");
      // A path of a few points per pixel column, not of every sample.
      const longest = await page.$$eval("#chart path.series", (ps) => Math.max(...ps.map((p) => p.getAttribute("d").split(/[ML]/).length)));
      assert.ok(longest < 3000, `${longest} points in a mean line`);
      // Hover: the pixel column's minimum, mean and maximum, and its time range, from the values themselves.
      const box = await page.$("#chart .overlay").then((o) => o.boundingBox());
      await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
      const tip = await page.evaluate(() => {
        const t = document.querySelector("#chart .tip");
        return { hidden: t.hidden, from: t.dataset.from, to: t.dataset.to, rows: [...t.querySelectorAll("div[data-path]")].map((d) => ({ ...d.dataset })) };
      });
      assert.equal(tip.hidden, false);
      const times = c.times, k0 = times.indexOf(tip.from), k1 = times.lastIndexOf(tip.to) + 1;
      assert.ok(k0 >= 0 && k1 - k0 > 20, `the column holds ${k1 - k0} samples (${tip.from} – ${tip.to})`);
      for (const r of tip.rows) {
        const vs = c.series.find((s) => s.path === r.path).values.slice(k0, k1).filter((v) => v !== null);
        sameNumber(num(r.min), Math.min(...vs), `${r.path} column min`);
        sameNumber(num(r.max), Math.max(...vs), `${r.path} column max`);
        sameNumber(num(r.mean), vs.reduce((a, v) => a + v, 0) / vs.length, `${r.path} column mean`);
      }
      await shot("17-42MB-envelope.png");
      await sameStats(JSON.parse(native("stats", tx160, "--json", ...MORE_STATS)));
      await shotTable("17-42MB-statistics.png");
      await page.locator("#chart .overlay").scrollIntoViewIfNeeded(); // the chart in view again for the drag below
      note(`42 MB log: ${c.series.length} series × ${c.rows.length} samples drawn as envelopes (${cells} values identical to relog); hover: ${k1 - k0} samples in a column, min/mean/max exact`);
    });

    await step("zoom: a drag over the chart selects a time range; the summary, the statistics and the CSV (copied and saved) are of it, as relog -b and -e; Reset", async () => {
      const whole = await chart();
      const box = await page.$("#chart .overlay").then((o) => o.boundingBox());
      await page.mouse.move(box.x + box.width * 0.40, box.y + 40);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.47, box.y + 80, { steps: 5 });
      await page.mouse.move(box.x + box.width * 0.52, box.y + 120, { steps: 5 });
      await page.mouse.up();
      await page.waitForFunction(() => document.getElementById("app").dataset.zoom);
      assert.equal(await waitState(["loaded", "error"], 300000), "loaded", await page.textContent("#message"));
      assert.equal(await attr("stats"), "ready");
      const zr = await page.$eval("#zoom-range", (e) => ({ begin: e.dataset.begin, end: e.dataset.end, text: e.textContent }));
      assert.equal(await attr("zoom"), `${zr.begin}/${zr.end}`);
      assert.ok(await page.isVisible("#zoom-reset"));
      const b = mdYms(zr.begin), e = mdYms(zr.end);
      // The chart shows the samples of the range: relog -b -e's.
      const rows = jsonLines(native("relog", tx160, "-b", b, "-e", e, "-f", "json"));
      assert.ok(rows.length > 1000 && rows.length < whole.rows.length / 5, `${rows.length} samples in the range`);
      const first = Number(await page.getAttribute("#chart svg", "data-first")), last = Number(await page.getAttribute("#chart svg", "data-last"));
      assert.equal(whole.times[first], rows[0].time);
      assert.equal(whole.times[last], rows[rows.length - 1].time);
      assert.equal(last - first + 1, rows.length);
      // The statistics of the range: count, min and max as relog -b -e's values; every field as the JS package's stats with begin and end.
      const have = await tableRows();
      const { init, stats } = await import("../perfcalc.mjs");
      await init();
      const toFT = (iso) => (BigInt(Date.parse(iso + "Z")) + 11644473600000n) * 10000n;
      const pkg = stats(readFileSync(tx160), { begin: toFT(zr.begin), end: toFT(zr.end) }).stats;
      assert.equal(have.length, pkg.length);
      let compared = 0;
      have.forEach((r, i) => {
        const w = pkg[i], vs = rows.map((x) => x.values[r.path]).filter((v) => typeof v === "number");
        assert.equal(r.path, w.path);
        assert.equal(Number(r.count), vs.length, `${r.path} count in the range`);
        sameNumber(num(r.min), vs.length ? Math.min(...vs) : null, `${r.path} min in the range`);
        sameNumber(num(r.max), vs.length ? Math.max(...vs) : null, `${r.path} max in the range`);
        assert.deepEqual([Number(r.count), Number(r.skipped), num(r.mean), r.meanStatus], [w.count, w.skipped, w.mean, w.meanStatus], r.path);
        compared++;
      });
      assert.ok(Number(have[0].count) < whole.rows.length / 5, "the statistics are of the range, not of the whole log");
      // And every figure as the native command's of the range: perfcalc stats -b … -e … --valid --percentiles.
      await sameStats(JSON.parse(native("stats", tx160, "-b", b, "-e", e, "--json", ...MORE_STATS)));
      assert.match(await page.textContent("#table-hint"), /zoomed range/);
      await shotTable("18-42MB-zoomed-statistics.png");
      // The CSV of the charted counters in the range, byte for byte as perfcalc relog -c … -b … -e ….
      const shown = whole.series.map((s) => s.path);
      for (const digits of [20, 17]) {
        await page.selectOption("#digits", String(digits));
        const want = native("relog", tx160, ...cflags(shown), "-b", b, "-e", e, "-f", "csv", "--digits", String(digits));
        await page.click("#copy-csv");
        await page.waitForFunction(() => /Copied/.test(document.getElementById("export-status").textContent));
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), want, `copied, ${digits} digits`);
        const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#save-csv")]);
        assert.equal(readFileSync(await dl.path(), "utf8"), want, `saved, ${digits} digits`);
        assert.match(await page.textContent("#export-status"), new RegExp(`-b "${b}" -e "${e}"`));
      }
      await page.selectOption("#digits", "20");
      // The chart in view again (saving the CSV scrolled the page to the table).
      await page.locator("#chart .overlay").scrollIntoViewIfNeeded();
      const inner = await page.$("#chart .overlay").then((o) => o.boundingBox());
      await page.mouse.move(inner.x + inner.width * 0.5, inner.y + inner.height / 2);
      await shot("18-42MB-zoomed.png");
      // Zoomed further: the samples themselves once there are no more than the pixel columns.
      await page.mouse.move(inner.x + inner.width * 0.50, inner.y + 40);
      await page.mouse.down();
      await page.mouse.move(inner.x + inner.width * 0.52, inner.y + 60, { steps: 5 });
      await page.mouse.up();
      await page.waitForFunction((z) => document.getElementById("app").dataset.zoom !== z, `${zr.begin}/${zr.end}`);
      assert.equal(await waitState(["loaded", "error"], 300000), "loaded");
      assert.equal(await page.getAttribute("#chart svg", "data-mode"), "lines");
      await shot("19-42MB-zoomed-samples.png");
      // Reset: the whole log, its statistics again.
      await page.click("#zoom-reset");
      assert.equal(await waitState(["loaded", "error"], 300000), "loaded");
      assert.equal(await attr("zoom"), null);
      assert.equal(await page.$("#zoom-range"), null);
      assert.equal(await page.isVisible("#zoom-reset"), false);
      await sameStats(JSON.parse(native("stats", tx160, "--json", ...MORE_STATS)));
      note(`zoom: ${zr.text}: ${rows.length} samples as relog -b -e; ${compared} counters' statistics of the range; CSV copied and saved at 20 and 17 digits identical to perfcalc relog -b -e`);
    });
    if (!process.env.E2E_LOG42) rmSync(tx160, { force: true });

    // ---------------------------------------------------------- more than 2,097,152 values, and Cancel
    const large = join(bin, "tx-large.blg");
    writeFileSync(large, repeatLog(readFileSync(tx), LARGE_COPIES));
    const largeQ = relogQ(large);
    await step("Cancel while a log's counters are listed: the work stops at once, the file open before stays", async () => {
      const before = await page.getAttribute("#samples", "data-samples");
      await page.setInputFiles("#files", large);
      await page.waitForFunction(() => /Listing/.test(document.getElementById("progress-text").textContent), null, { timeout: 60000 });
      const t0 = performance.now();
      await page.click("#cancel");
      await page.waitForFunction(() => document.getElementById("app").dataset.state === "loaded" && document.getElementById("progress").hidden);
      const stopped = performance.now() - t0;
      assert.ok(stopped < 3000, `Cancel took ${stopped.toFixed(0)} ms`);
      assert.match(await page.textContent("#message"), /Cancelled\.\s*Stopped: Opening tx-large\.blg/);
      assert.equal(await page.getAttribute("#samples", "data-samples"), before, "the log open before is still shown");
      note(`Cancel while listing the large log: the page was idle ${stopped.toFixed(0)} ms after the click`);
    });

    await step(`a log of more than ${MAX_RECORDS.toLocaleString("en-US")} values: listed first; Cancel stops its statistics, which are computed again on request; charted counter by counter; identical to relog and stats`, async () => {
      const t0 = performance.now();
      await page.setInputFiles("#files", large);
      await page.waitForFunction((n) => document.getElementById("samples")?.dataset.samples === String(n), largeQ.samples, { timeout: 300000 });
      const listed = performance.now() - t0;
      await sameSummary(largeQ);
      const values = largeQ.samples * largeQ.paths.length;
      assert.ok(values > MAX_RECORDS, `${values} values: not more than the module's ${MAX_RECORDS} records of one result`);
      assert.equal(await attr("stats"), "pending");
      await shot("13-large-log-listed.png");
      // Cancel the statistics (and the chart's decode).
      const t1 = performance.now();
      await page.click("#cancel");
      await page.waitForFunction(() => document.getElementById("app").dataset.stats === "cancelled" && document.getElementById("app").dataset.state === "loaded");
      const stopped = performance.now() - t1;
      assert.ok(stopped < 3000, `Cancel took ${stopped.toFixed(0)} ms`);
      assert.match(await page.textContent("#message"), /Cancelled/);
      assert.ok((await page.$$eval("#values tbody tr[data-stats=pending]", (trs) => trs.length)) > 0, "the rows say their statistics were not computed");
      await shot("14-cancelled.png");
      // Computed again, with new workers: identical to perfcalc stats.
      const t2 = performance.now();
      await page.click("#compute-stats");
      assert.equal(await waitState(["loaded", "error"], 600000), "loaded", await page.textContent("#message"));
      const statsTook = performance.now() - t2;
      assert.equal(await attr("stats"), "ready");
      await sameStats(JSON.parse(native("stats", large, "--json", ...MORE_STATS)));
      // One counter charted: relog's values, sample by sample.
      await page.click("#clear-selection");
      const one = "\\\\GEORGIS3\\Processor(_Total)\\% Processor Time";
      const t3 = performance.now();
      await tick([one]);
      assert.equal(await waitState(["loaded", "error"], 300000), "loaded");
      const chartTook = performance.now() - t3;
      const c = await chart();
      assert.deepEqual(c.series.map((s) => s.path), [one]);
      const cells = sameChart(c, jsonLines(native("relog", large, "-c", one, "-f", "json")), "large log");
      note(`large log (${(readFileSync(large).length / 1e6).toFixed(0)} MB, ${values.toLocaleString("en-US")} values): counters listed in ${(listed / 1000).toFixed(1)} s, Cancel ${stopped.toFixed(0)} ms, statistics ${(statsTook / 1000).toFixed(1)} s, one counter charted in ${(chartTook / 1000).toFixed(1)} s; ${cells.toLocaleString("en-US")} charted values identical to relog`);
      await shot("13-large-log.png");
    });
    rmSync(large, { force: true });

    // ---------------------------------------------------------- a log cut short
    for (const cut of [196608, 200000]) {
      const f = join(bin, `tx-cut-${cut}.blg`);
      writeFileSync(f, readFileSync(tx).subarray(0, cut));
      const r = nativeRun("stats", f, "--json", ...MORE_STATS);
      await step(`the Tx log cut at ${cut} bytes: the rows before the damage, and the command's damage message`, async () => {
        assert.equal(r.status, 1, "the command reports the damage");
        const damage = new RegExp(`^perfcalc stats: ${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: (.*)$`, "m").exec(r.stderr)[1];
        assert.equal(await open(f), "loaded", await page.textContent("#message"));
        const msg = await page.textContent("#message");
        assert.ok(msg.includes(damage), `page: ${msg}\nnative: ${damage}`);
        assert.match(msg, /damaged after its start/);
        assert.equal(await page.getAttribute("#message", "class"), "message warning");
        await sameStats(JSON.parse(r.stdout));
        await sameSummary(relogQ(f));
        note(`cut at ${cut}: ${damage}`);
        await shot(`14-cut-${cut}.png`);
      });
    }
  }

  // ------------------------------------------------------------ V2 captures
  const v2 = ["v2-data-1.bin", "v2-data-2.bin", "v2-reginfo.bin", "v2-strings.bin"].map((f) => join(CORPUS, f));
  const sameValues = (have, want) => {
    assert.equal(have.length, want.length, `${have.length} rows, native ${want.length}`);
    want.forEach((w, i) => {
      assert.equal(have[i].path, w.path, `row ${i}`);
      assert.equal(have[i].status, w.status, w.path);
      assert.equal(have[i].type, w.type, w.path);
      sameNumber(num(have[i].value), w.status === "Valid" ? w.value : null, w.path);
    });
  };
  await step("V2 captures with their registration and counter names show what perfcalc values --reginfo --strings gives", async () => {
    assert.equal(await open([v2[1], v2[3], v2[0], v2[2]]), "loaded", await page.textContent("#message"));
    assert.equal(await attr("kind"), "pair");
    const want = jsonLines(native("values", v2[0], v2[1], "--reginfo", v2[2], "--strings", v2[3], "-f", "json"));
    sameValues(await tableRows(), want);
    assert.ok(await page.isVisible("#v2-panel"));
    assert.match(await page.textContent("#counterset"), /^\{5c1ef9a8/);
    // The ids of the blocks that do not name their counter, and the object's name, as perfcalc values --ids --counterset.
    await page.fill("#v2-ids", "*,0,*,10,0");
    await page.fill("#v2-counterset", "Processor Information");
    await page.click("#v2-apply");
    assert.equal(await waitState(["loaded", "error"]), "loaded", await page.textContent("#message"));
    const named = jsonLines(native("values", v2[0], v2[1], "--reginfo", v2[2], "--strings", v2[3], "--ids", "*,0,*,10,0", "--counterset", "Processor Information", "-f", "json"));
    assert.ok(named.length > want.length, "the ids add the blocks that do not name their counter");
    sameValues(await tableRows(), named);
    assert.equal(await page.textContent("#counterset"), "Processor Information");
    // Its relog CSV, as perfcalc values -f csv with the same ids and object name.
    const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#save-csv")]);
    assert.equal(readFileSync(await dl.path(), "utf8"),
      native("values", v2[0], v2[1], "--reginfo", v2[2], "--strings", v2[3], "--ids", "*,0,*,10,0", "--counterset", "Processor Information", "-f", "csv", "--digits", await page.inputValue("#digits")));
    await page.fill("#search", "processor time");
    await page.waitForTimeout(100);
    await shot("15-v2-captures.png");
    await page.fill("#search", "");
    // Swapped: what perfcalc values gives with the captures the other way round.
    await page.click("#swap");
    assert.equal(await waitState(["loaded", "error"]), "loaded");
    sameValues(await tableRows(), jsonLines(native("values", v2[1], v2[0], "--reginfo", v2[2], "--strings", v2[3], "--ids", "*,0,*,10,0", "--counterset", "Processor Information", "-f", "json")));
    note(`V2: ${want.length} values without ids, ${named.length} with them, and swapped, identical to perfcalc values`);
    await page.fill("#v2-ids", "");
    await page.fill("#v2-counterset", "");
  });

  await step("V2 captures without their registration: a message saying what is needed", async () => {
    assert.equal(await open([v2[0], v2[1]]), "error");
    assert.match(await page.textContent("#message"), /registration/);
  });

  // ------------------------------------------------------------ errors
  const corrupt = join(SHARED, "PowerShell_CorruptBlg.blg");
  if (!existsSync(corrupt)) {
    skip("a corrupt .blg log", `${corrupt} is absent: the corrupt-log message is not tested (the truncated capture below still is)`);
  } else {
    await step("a corrupt .blg log shows the decoder's error on the page", async () => {
      assert.equal(await open(corrupt), "error");
      assert.ok(await page.isVisible("#message"));
      const text = await page.textContent("#message");
      // The native command's message ends with the decoder's own text.
      const decoder = /not a readable \.blg log: (.*)$/m.exec(nativeError("relog", corrupt))[1].trim();
      assert.ok(text.includes("PowerShell_CorruptBlg.blg"), text);
      assert.ok(text.includes(decoder), `page: ${text}\nnative: ${decoder}`);
      assert.equal(await page.isVisible("#view"), false, "no stale data under the error");
      assert.ok(await page.isVisible("#drop"), "the page still offers to open files");
      note(`corrupt: ${decoder}`);
      await shot("07-corrupt-blg.png");
    });
  }

  await step("a truncated capture shows the decoder's error on the page", async () => {
    await page.setInputFiles("#files", [
      { name: "global-1.bin", mimeType: "application/octet-stream", buffer: readFileSync(g1) },
      { name: "global-2-truncated.bin", mimeType: "application/octet-stream", buffer: readFileSync(g2).subarray(0, 400) },
    ]);
    assert.equal(await waitState(["error"]), "error");
    const text = await page.textContent("#message");
    assert.match(text, /global-2-truncated\.bin/);
    assert.match(text, /TotalByteLength 15128 exceeds the input's 400 bytes/);
    assert.equal(await page.isVisible("#view"), false);
    await shot("08-truncated-capture.png");
  });

  await step("after an error the page opens files again; a name table added afterwards names the counters", async () => {
    assert.equal(await open([g1, g2]), "loaded");
    assert.equal(await page.isVisible("#message"), false);
    assert.match(await page.textContent("#summary"), /no name table/);
    assert.ok((await tableRows())[0].path.includes("#"));
    assert.equal(await open(names), "loaded");
    assert.deepEqual((await tableRows()).map((r) => r.path), pairValues().map((w) => w.path));
  });

  await step("one capture is a first sample: 2-sample counters have no value yet", async () => {
    assert.equal(await open([g2, names]), "loaded", await page.textContent("#message"));
    assert.equal(await attr("kind"), "single");
    const rows = await tableRows();
    const timers = rows.filter((r) => r.type === "PERF_100NSEC_TIMER");
    const raw = rows.filter((r) => r.type === "PERF_COUNTER_RAWCOUNT" || r.type === "PERF_COUNTER_LARGE_RAWCOUNT");
    assert.ok(timers.length > 0 && raw.length > 0);
    for (const r of timers) assert.deepEqual([r.status, r.value], ["NewData", ""], r.path);
    assert.ok(raw.some((r) => r.status === "Valid" && r.value !== ""));
    assert.match(await page.textContent("#summary"), /one capture/);
    await shot("09-single-capture.png");
  });

  // Issue 22: the selection saved as a .blg log, as perfcalc relog -f bin -o writes it.
  if (existsSync(join(SHARED, "Tx_BasicPerfCounters.blg"))) {
    await step("Save as .blg: the counters the search shows, byte for byte as perfcalc relog -f bin -o", async () => {
      const file = join(SHARED, "Tx_BasicPerfCounters.blg");
      assert.equal(await open(file), "loaded", await page.textContent("#message"));
      // Nothing charted (a log opens with counters charted): the counters the search shows.
      await page.click("#clear-selection");
      await page.fill("#search", "physicaldisk queue");
      await page.waitForFunction(() => document.getElementById("counter-count").dataset.shown === "3");
      const paths = relogQ(file).paths.filter((p) => /physicaldisk/i.test(p) && /queue/i.test(p));
      const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#save-blg")]);
      assert.equal(dl.suggestedFilename(), "Tx_BasicPerfCounters.selection.blg");
      const out = join(bin, "selection.blg");
      native("relog", file, ...cflags(paths), "-f", "bin", "-o", out);
      const have = readFileSync(await dl.path()), want = readFileSync(out);
      const differ = [];
      for (let i = 0; i < Math.min(have.length, want.length) && differ.length < 8; i++) if (have[i] !== want[i]) differ.push(`0x${i.toString(16)}`);
      if (differ.length) writeFileSync(join(OUT, "selection.blg"), have);
      assert.ok(want.length > 0x10000 && have.equals(want), `${have.length} bytes, native ${want.length}; they differ at ${differ.join(", ")} (the page's in ${OUT}selection.blg)`);
      assert.match(await page.textContent("#export-status"), /perfcalc relog -f bin -c/);
      await page.fill("#search", "");
      note(`.blg: the search's ${paths.length} counters saved, identical to perfcalc relog -f bin -o (${want.length} bytes)`);
    });
  } else {
    skip("Save as .blg", "the real .blg logs are absent");
  }

  await step("no uncaught error in the page", async () => {
    assert.deepEqual(pageErrors.map(String), []);
  });

  await step("nothing left the page: only GETs of the viewer's own files", async () => {
    const foreign = requests.filter((r) => !r.startsWith(`GET ${origin}/web/`) && !r.startsWith(`GET ${origin}/wasm/`) && !r.startsWith("GET data:") && !r.startsWith("GET blob:"));
    assert.deepEqual(foreign, []);
    assert.ok(requests.some((r) => r.endsWith("/perfcalc.wasm")), "the module was fetched");
    // The files opened are never fetched: they are read in the page.
    assert.ok(!requests.some((r) => /\.(blg|bin|multisz)$/.test(r)), requests.join("\n"));
  });

  // Issue 21: processes paired by process ID (perfcalc --identity pid) on
  // the PAL log with svchost#2 exiting mid-log (go run ./tools/wasmref
  // exitlog): the break count and the CSV are the native command's.
  await step("Processes by process ID: the PAL exit variant's identity breaks and relog --identity pid's CSV, byte for byte", async () => {
    const pal = join(SHARED, "PAL_SamplePerfmonLog.blg");
    if (!existsSync(pal)) return skip("identity pid", `no ${pal}`);
    const { spawnSync } = await import("node:child_process");
    const exitLog = join(bin, "PAL_exit.blg");
    execFileSync("go", ["run", "./tools/wasmref", "exitlog", pal, exitLog], { cwd: ROOT, stdio: "inherit" });
    const run = spawnSync(perfcalc, ["relog", exitLog, "--identity", "pid", "-f", "csv"], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 30 });
    assert.equal(run.status, 0, run.stderr);
    const breaks = Number(/identity: (\d+) identity break/.exec(run.stderr)?.[1]);
    assert.ok(breaks > 0, run.stderr);
    await page.selectOption("#identity", "pid");
    try {
      assert.equal(await open([exitLog]), "loaded", await page.textContent("#message"));
      assert.equal(await attr("identity"), "pid");
      await page.waitForFunction(() => document.getElementById("app").dataset.identityBreaks !== undefined, null, { timeout: 60000 });
      assert.equal(Number(await attr("identity-breaks")), breaks);
      assert.match(await page.textContent("#message"), new RegExp(`${breaks} identity breaks`));
      // The page names processes name:pid, as the command.
      const paths = await page.$$eval("#tree li[data-path]", (lis) => lis.map((li) => li.dataset.path));
      assert.ok(paths.some((p) => /\\Process\(svchost:\d+\)\\/.test(p)), "a svchost:pid counter in the tree");
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(OUT, "21-identity-pid-breaks.png"), fullPage: true });
      // Every counter (none charted, no search): relog --identity pid -f csv.
      await page.click("#clear-selection");
      await page.fill("#search", "");
      await page.selectOption("#digits", "20");
      const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#save-csv")]);
      const have = readFileSync(await dl.path(), "utf8");
      assert.equal(have.length, run.stdout.length, "the CSV's length");
      assert.ok(have === run.stdout, "the CSV differs from perfcalc relog --identity pid -f csv");
      assert.match(await page.textContent("#export-status"), /--identity pid/);
      note(`identity pid: ${breaks} identity breaks as perfcalc's note; CSV of every counter (${have.length} bytes) identical to perfcalc relog --identity pid -f csv`);
    } finally {
      await page.selectOption("#identity", "pdh");
    }
  });

  // Issue 21: a German log read in English (perfcalc --names-lang en) with
  // the compact form of PAL's CounterLang.xml loaded beside the file
  // picker: the tree's names, the CSV and the .blg saved are the command's.
  await step("English names: a German log with CounterLang's compact form; tree, CSV and .blg as perfcalc relog --names-lang en, byte for byte", async () => {
    const pal = join(SHARED, "PAL_SamplePerfmonLog.blg");
    const counterLang = join(ROOT, "..", "shared", "pal", "CounterLang.xml");
    if (!existsSync(pal) || !existsSync(counterLang)) return skip("English names", `no ${pal} or ${counterLang}`);
    const { spawnSync } = await import("node:child_process");
    const german = join(bin, "PAL_deDE.blg");
    execFileSync("go", ["run", "./tools/blgrename/cmd/localize", "-counterlang", counterLang, "-lang", "deDE", pal, german], { cwd: ROOT, stdio: "inherit" });
    const compact = join(bin, "deDE.names");
    writeFileSync(compact, native("names", "--compact", counterLang, "--lang", "deDE"));
    const flags = ["--names-lang", "en", "--names-file", compact];
    const run = spawnSync(perfcalc, ["relog", german, ...flags, "-f", "csv"], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 30 });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout.split("\r\n")[0], /\\Processor\(_Total\)\\% Processor Time/, "the command translates");
    assert.equal(await open([german]), "loaded", await page.textContent("#message"));
    // The tree's counters that a search shows (the search expands them).
    const found = async (q) => {
      await page.fill("#search", q);
      // Until the tree shows a path the search finds (the selection stays shown besides).
      await page.waitForFunction((words) => [...document.querySelectorAll("#tree li[data-path]")].some((li) => words.every((w) => li.dataset.path.toLowerCase().includes(w))), q.split(" "), { timeout: 10000 });
      const paths = await page.$$eval("#tree li[data-path]", (lis) => lis.map((li) => li.dataset.path));
      await page.fill("#search", "");
      return paths;
    };
    let paths = await found("prozessorzeit");
    assert.ok(paths.some((p) => p.includes("\\Prozessor(_Total)\\Prozessorzeit (%)")), `the German log's own names first: ${paths.slice(0, 3)}`);
    try {
      await page.evaluate(() => { document.getElementById("app").dataset.state = "test-opening"; });
      await page.setInputFiles("#names-file", [compact]);
      assert.equal(await waitState(["loaded", "error"]), "loaded", await page.textContent("#message"));
      assert.equal(await page.isChecked("#english-names"), true);
      paths = await found("processor time");
      assert.ok(paths.some((p) => p.includes("\\Processor(_Total)\\% Processor Time")), `English names in the tree: ${paths.slice(0, 3)}`);
      await page.waitForTimeout(300);
      await shot("21-english-names.png");
      await page.click("#clear-selection");
      await page.fill("#search", "");
      await page.selectOption("#digits", "20");
      const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#save-csv")]);
      const have = readFileSync(await dl.path(), "utf8");
      assert.ok(have === run.stdout, `the CSV (${have.length} bytes) differs from perfcalc relog --names-lang en -f csv (${run.stdout.length})`);
      assert.match(await page.textContent("#export-status"), /--names-lang en/);
      // The .blg saved: relog -f bin with the same flags, byte for byte.
      const out = join(bin, "de-en.blg");
      native("relog", german, ...flags, "-f", "bin", "-o", out);
      const [dlb] = await Promise.all([page.waitForEvent("download"), page.click("#save-blg")]);
      assert.ok(readFileSync(await dlb.path()).equals(readFileSync(out)), "the .blg differs from perfcalc relog --names-lang en -f bin");
      note(`English names: CSV of every counter (${have.length} bytes) and the .blg saved identical to perfcalc relog --names-lang en`);
    } finally {
      await page.uncheck("#english-names");
    }
  });
} finally {
  await context.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(bin, { recursive: true, force: true });
}

console.log(`\n${passed} passed, ${failures} failed, ${skipped} skipped; screenshots in ${OUT}`);
process.exit(failures ? 1 : 0);
