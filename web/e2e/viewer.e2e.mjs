// The viewer's end-to-end test: headless Chromium (Debian's chromium, driven
// by playwright-core) opens web/viewer/ from web/viewer/serve.mjs, loads a
// capture pair of testdata/corpus/ and a real .blg log of ../shared/corpus/,
// and compares every number the page shows (its exact data attributes) with
// the native perfcalc command's output; then corrupt and truncated files
// must give a message on the page. Screenshots of each state go to out/.
//
//   node viewer.e2e.mjs            (run.sh installs chromium and playwright-core first)
//
// Environment: CHROMIUM (default /usr/bin/chromium), E2E_OUT (default ./out),
// PERFCALC_BIN (a perfcalc command already built; default: go build),
// E2E_SHARED_BLG (the real .blg logs; default ../shared/corpus/blg).

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
const native = (...args) => execFileSync(perfcalc, args, { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28 });
/** Runs the command expecting it to fail; returns its standard error. */
function nativeError(...args) {
  try {
    execFileSync(perfcalc, args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    return e.stderr;
  }
  throw new Error(`perfcalc ${args.join(" ")} succeeded; it should have failed`);
}
const jsonLines = (text) => text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));

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
const profile = mkdtempSync(join(tmpdir(), "perfcalc-e2e-chromium-"));
console.log(`viewer at ${server.url}, chromium ${CHROMIUM}, screenshots in ${OUT}`);
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  viewport: { width: 1360, height: 900 },
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
const requests = [];
page.on("request", (r) => requests.push(`${r.method()} ${r.url()}`));
page.on("pageerror", (e) => pageErrors.push(e));
page.on("console", (m) => { if (m.type() === "error") console.log(`     page console: ${m.text()}`); });

const state = () => page.getAttribute("#app", "data-state");
async function waitState(want) {
  await page.waitForFunction((w) => {
    const s = document.getElementById("app").dataset.state;
    return w.includes(s);
  }, want, { timeout: 60000 });
  return state();
}
const shot = (name) => page.screenshot({ path: join(OUT, name), fullPage: true });

/** Reads the rows of the values table: every data attribute. */
const tableRows = () => page.$$eval("#values tbody tr[data-path]", (trs) => trs.map((tr) => ({ ...tr.dataset })));

/** Drops files on the page as a person would, with a DataTransfer. */
async function dropFiles(files) {
  const payload = files.map((f) => ({ name: f.split("/").pop(), b64: readFileSync(f).toString("base64") }));
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
}

try {
  await step("the page loads the module", async () => {
    await page.goto(server.url);
    assert.equal(await waitState(["ready", "error"]), "ready", await page.textContent("#message"));
    assert.match(await page.textContent("#module-status"), /Ready/);
    await shot("01-empty.png");
  });

  // ------------------------------------------------------------ a capture pair
  const g1 = join(CORPUS, "global-1.bin"), g2 = join(CORPUS, "global-2.bin"), names = join(CORPUS, "counter-009.multisz");
  await step("a capture pair (dropped, newer first) shows what perfcalc values gives", async () => {
    await dropFiles([g2, names, g1]); // the page orders the captures by their time
    assert.equal(await waitState(["loaded", "error"]), "loaded", await page.textContent("#message"));
    assert.equal(await page.getAttribute("#app", "data-kind"), "pair");
    assert.equal(await page.isVisible("#chart-section"), false, "a pair has one interval: no chart");
    const want = jsonLines(native("values", g1, g2, "--names", names, "-f", "json"));
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
    console.log(`     ${have.length} rows, ${valid} valid values identical; ${range.text}`);
    await shot("02-pair.png");
  });

  await step("searching filters the counter list and the table", async () => {
    await page.fill("#search", "processor time");
    const want = jsonLines(native("values", g1, g2, "--names", names, "-f", "json")).filter((w) => /processor/i.test(w.path) && /time/i.test(w.path)); // every word, in any place
    assert.ok(want.length > 0);
    const shown = Number(await page.getAttribute("#counter-count", "data-shown"));
    assert.equal(shown, want.length);
    assert.equal((await page.$$("#counter-list li")).length, want.length);
    assert.deepEqual((await tableRows()).map((r) => r.path), want.map((w) => w.path));
    await shot("03-pair-search.png");
    await page.fill("#search", "");
  });

  // sameStats checks that the page's statistics table equals perfcalc stats
  // --json, row by row (every number exactly), and returns the rows.
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
    });
    return have;
  }

  // ------------------------------------------------------------ a .blg log
  const tx = join(SHARED, "Tx_BasicPerfCounters.blg");
  if (!existsSync(tx)) {
    skip("a real .blg log", `${tx} is absent (../shared/corpus is not beside the repository): the .blg comparison is not run`);
  } else {
    await step("a .blg log (file picker) shows perfcalc stats' statistics and relog's values", async () => {
      await page.setInputFiles("#files", tx);
      assert.equal(await waitState(["loaded", "error"]), "loaded", await page.textContent("#message"));
      assert.equal(await page.getAttribute("#app", "data-kind"), "blg");
      const stats = JSON.parse(native("stats", tx, "--json"));
      const have = await sameStats(stats);
      // Summary: the machine and the time range of relog -q.
      const q = native("relog", tx, "-q");
      const machine = /^\\\\([^\\]+)\\/.exec(stats[0].counter)[1];
      assert.equal(await page.textContent("#machine"), machine);
      const range = await page.$eval("#time-range", (e) => ({ begin: e.dataset.begin, end: e.dataset.end }));
      const mdY = (iso) => { const [d, t] = iso.split("T"); const [y, m, dd] = d.split("-"); return `${m}/${dd}/${y} ${t}`; };
      assert.match(q, new RegExp(`Time Begin: ${mdY(range.begin).replace(/\./g, "\\.")}`));
      assert.match(q, new RegExp(`Time End:   ${mdY(range.end).replace(/\./g, "\\.")}`));
      console.log(`     ${have.length} counters: count, skipped, min, max, mean identical; ${range.begin} → ${range.end}`);
      await shot("04-blg.png");
    });

    await step("the chart's series are relog's values, sample by sample", async () => {
      // Select every counter (the chart takes up to ten; this log has ten).
      const rows = await tableRows();
      for (const r of rows) {
        const input = `#counter-list li[data-path=${JSON.stringify(r.path)}] input`;
        if (!(await page.isChecked(input))) await page.click(input);
      }
      const relog = jsonLines(native("relog", tx, "-f", "json"));
      const times = JSON.parse(await page.getAttribute("#chart svg", "data-times"));
      assert.deepEqual(times, relog.map((r) => r.time));
      const series = await page.$$eval("#chart path.series", (ps) => ps.map((p) => ({ path: p.dataset.path, values: JSON.parse(p.dataset.values).map((t) => (t === null ? null : Number(t))) })));
      assert.equal(series.length, Math.min(10, rows.length));
      let cells = 0;
      for (const s of series) {
        assert.equal(s.values.length, relog.length, s.path);
        relog.forEach((row, k) => { sameNumber(s.values[k], row.values[s.path] ?? null, `${s.path} at ${row.time}`); cells++; });
      }
      console.log(`     ${series.length} series × ${relog.length} samples = ${cells} values identical`);
      await shot("05-blg-all-selected.png");
      assert.match(await page.textContent("#chart-hint"), /differ in size/);
      await page.check("#normalize");
      assert.match(await page.textContent("#chart-hint"), /own minimum/);
      // Scaling changes the drawing, not the numbers.
      const scaled = await page.$$eval("#chart path.series", (ps) => ps.map((p) => JSON.parse(p.dataset.values).map((t) => (t === null ? null : Number(t)))));
      assert.deepEqual(scaled, series.map((s) => s.values));
      await shot("05b-blg-all-selected-scaled.png");
      await page.uncheck("#normalize");
      // A tidy state for people: processor times only.
      await page.click("#clear-selection");
      assert.equal((await page.$$("#chart path.series")).length, 0);
      await page.fill("#search", "processor time");
      const n = (await page.$$("#counter-list li input")).length;
      assert.ok(n > 0 && n <= 10, `${n} processor times`);
      for (let k = 1; k <= n; k++) await page.click(`#counter-list li:nth-child(${k}) input`); // the list is re-rendered at each click
      assert.equal((await page.$$("#chart path.series")).length, n);
      await page.fill("#search", "");
      await page.hover("#chart svg", { position: { x: 700, y: 150 } });
      await shot("06-blg-processor-time.png");
    });

    // The other logs of the shared corpus, for the statistics (many columns, gaps).
    for (const name of ["PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"]) {
      const f = join(SHARED, name);
      if (!existsSync(f)) { skip(name, "absent"); continue; }
      await step(`${name}: statistics identical to perfcalc stats`, async () => {
        await page.setInputFiles("#files", f);
        assert.equal(await waitState(["loaded", "error"]), "loaded", await page.textContent("#message"));
        const stats = JSON.parse(native("stats", f, "--json"));
        const have = await sameStats(stats);
        console.log(`     ${have.length} counters identical`);
        await shot(`10-${name.replace(/\.blg$/, "")}.png`);
      });
    }

    // A log larger than the module's static 8 MiB input buffer: the real Tx
    // log repeated to 10 MB (web/test/helpers.mjs), which the page reads
    // through in_reserve and out_reserve.
    if (existsSync(tx)) {
      await step("a 10 MB log (larger than the module's static buffers): statistics identical to perfcalc stats", async () => {
        const big = join(bin, "tx-repeated.blg");
        writeFileSync(big, repeatLog(readFileSync(tx), 40));
        await page.setInputFiles("#files", big);
        assert.equal(await waitState(["loaded", "error"]), "loaded", await page.textContent("#message"));
        const stats = JSON.parse(native("stats", big, "--json"));
        const have = await sameStats(stats);
        const samples = Math.max(...stats.map((w) => w.count + w.skipped));
        assert.ok(samples > 19000, `only ${samples} samples: the log is not the large one`);
        console.log(`     ${have.length} counters × ${samples} samples identical`);
        await shot("11-large-log.png");
      });
    }
  }

  // ------------------------------------------------------------ errors
  const corrupt = join(SHARED, "PowerShell_CorruptBlg.blg");
  if (!existsSync(corrupt)) {
    skip("a corrupt .blg log", `${corrupt} is absent: the corrupt-log message is not tested (the truncated capture below still is)`);
  } else {
    await step("a corrupt .blg log shows the decoder's error on the page", async () => {
      await page.setInputFiles("#files", corrupt);
      assert.equal(await waitState(["loaded", "error"]), "error");
      assert.ok(await page.isVisible("#message"));
      const text = await page.textContent("#message");
      // The native command's message ends with the decoder's own text.
      const err = nativeError("relog", corrupt);
      const decoder = /not a readable \.blg log: (.*)$/m.exec(err)[1].trim();
      assert.ok(text.includes("PowerShell_CorruptBlg.blg"), text);
      assert.ok(text.includes(decoder), `page: ${text}\nnative: ${decoder}`);
      assert.equal(await page.isVisible("#view"), false, "no stale data under the error");
      assert.ok(await page.isVisible("#drop"), "the page still offers to open files");
      console.log(`     ${decoder}`);
      await shot("07-corrupt-blg.png");
    });
  }

  await step("a truncated capture shows the decoder's error on the page", async () => {
    const bytes = readFileSync(g2).subarray(0, 400);
    await page.setInputFiles("#files", [
      { name: "global-1.bin", mimeType: "application/octet-stream", buffer: readFileSync(g1) },
      { name: "global-2-truncated.bin", mimeType: "application/octet-stream", buffer: bytes },
    ]);
    assert.equal(await waitState(["loaded", "error"]), "error");
    const text = await page.textContent("#message");
    assert.match(text, /global-2-truncated\.bin/);
    assert.match(text, /TotalByteLength 15128 exceeds the input's 400 bytes/);
    assert.equal(await page.isVisible("#view"), false);
    await shot("08-truncated-capture.png");
  });

  await step("after an error the page opens files again", async () => {
    await page.setInputFiles("#files", [g1, g2]);
    assert.equal(await waitState(["loaded", "error"]), "loaded");
    assert.equal(await page.isVisible("#message"), false);
    // Without a name table, then with it added on its own.
    assert.match(await page.textContent("#summary"), /no name table/);
    const rows = await tableRows();
    assert.ok(rows[0].path.includes("#"), rows[0].path);
    await page.setInputFiles("#files", names);
    assert.equal(await waitState(["loaded", "error"]), "loaded");
    const named = await tableRows();
    const want = jsonLines(native("values", g1, g2, "--names", names, "-f", "json"));
    assert.deepEqual(named.map((r) => r.path), want.map((w) => w.path));
  });

  await step("one capture is a first sample: 2-sample counters have no value yet", async () => {
    await page.setInputFiles("#files", [g2, names]);
    assert.equal(await waitState(["loaded", "error"]), "loaded", await page.textContent("#message"));
    assert.equal(await page.getAttribute("#app", "data-kind"), "single");
    const rows = await tableRows();
    const timers = rows.filter((r) => r.type === "PERF_100NSEC_TIMER");
    const raw = rows.filter((r) => r.type === "PERF_COUNTER_RAWCOUNT" || r.type === "PERF_COUNTER_LARGE_RAWCOUNT");
    assert.ok(timers.length > 0 && raw.length > 0);
    for (const r of timers) assert.deepEqual([r.status, r.value], ["NewData", ""], r.path);
    assert.ok(raw.some((r) => r.status === "Valid" && r.value !== ""));
    assert.match(await page.textContent("#summary"), /one capture/);
    await shot("09-single-capture.png");
  });

  await step("no uncaught error in the page", async () => {
    assert.deepEqual(pageErrors.map(String), []);
  });

  await step("nothing left the page: only GETs of the viewer's own files", async () => {
    const origin = new URL(server.url).origin;
    const foreign = requests.filter((r) => !r.startsWith(`GET ${origin}/web/`) && !r.startsWith(`GET ${origin}/wasm/`) && !r.startsWith("GET data:"));
    assert.deepEqual(foreign, []);
    assert.ok(requests.some((r) => r.endsWith("/perfcalc.wasm")), "the module was fetched");
    // The files opened are never fetched: they are read in the page.
    assert.ok(!requests.some((r) => /\.(blg|bin|multisz)$/.test(r)), requests.join("\n"));
  });
} finally {
  await context.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(bin, { recursive: true, force: true });
}

console.log(`\n${passed} passed, ${failures} failed, ${skipped} skipped; screenshots in ${OUT}`);
process.exit(failures ? 1 : 0);
