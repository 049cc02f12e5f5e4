// The package installed as users install it (issue 25, item 5): npm
// install ./web from a clone (npm links the folder, where perfcalc.wasm is
// absent: load() finds the clone's wasm/module/perfcalc.wasm) and npm
// install of the tarball npm pack makes (perfcalc.wasm inside), each into a
// new project, offline; then load() and a relog of testdata/corpus's
// sample.blg, compared with this package's. Without the module in either
// place, load() says where it looked.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ROOT, WASM, loadModule } from "./helpers.mjs";

const WEB = join(ROOT, "web");
const SAMPLE = join(ROOT, "testdata", "corpus", "sample.blg");
const tmp = mkdtempSync(join(tmpdir(), "perfcalc-install-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const npm = (args, cwd) => execFileSync("npm", [...args, "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

// A script run in the installed project: load() with no argument, a relog
// of the sample log as CSV and as rows, and a worker's columns.
const SCRIPT = `
import { readFileSync } from "node:fs";
import { load } from "@perfcalc/perfcalc";
import { createWorker } from "@perfcalc/perfcalc/worker";
const log = readFileSync(process.argv[2]);
const pc = await load();
const csv = pc.relog(log, { format: "csv" });
const rows = JSON.parse(JSON.stringify(pc.relog(log).rows));
const w = await createWorker();
const columns = (await w.columns(log)).columns.map((c) => c.path);
w.terminate();
process.stdout.write(JSON.stringify({ csv, rows, columns }));
`;

/** A new project with the package installed from spec; returns the script's result there. */
function installAndRun(name, spec) {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `try-${name}`, version: "1.0.0", private: true, type: "module" }));
  npm(["install", spec], dir);
  writeFileSync(join(dir, "try.mjs"), SCRIPT);
  return { dir, out: JSON.parse(execFileSync(process.execPath, ["try.mjs", SAMPLE], { cwd: dir, encoding: "utf8" })) };
}

async function want() {
  const pc = await loadModule();
  const log = readFileSync(SAMPLE);
  return { csv: pc.relog(log, { format: "csv" }), rows: pc.relog(log).rows.length, columns: pc.columns(log).columns.map((c) => c.path) };
}

test("npm install ./web: load() finds the clone's wasm/module/perfcalc.wasm, and relog works", async () => {
  assert.ok(!existsSync(join(WEB, "perfcalc.wasm")), "web/perfcalc.wasm exists (left by an interrupted npm pack?): remove it, it would be used instead of the committed module");
  const w = await want();
  const { out } = installAndRun("folder", WEB);
  assert.equal(out.csv, w.csv);
  assert.equal(out.rows.length, w.rows);
  assert.ok(out.rows.length === 10 && out.csv.split("\n")[1].startsWith('"01/15/2025 12:00:00.000"'), out.csv);
  assert.deepEqual(out.columns, w.columns);
});

test("npm install of npm pack's tarball: the package holds perfcalc.wasm, the committed module's bytes, and relog works", async () => {
  const w = await want();
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", tmp, "--loglevel=error"], { cwd: WEB, encoding: "utf8" }));
  assert.ok(!existsSync(join(WEB, "perfcalc.wasm")), "npm pack's postpack left web/perfcalc.wasm");
  const files = packed[0].files.map((f) => f.path);
  assert.ok(files.includes("perfcalc.wasm") && files.includes("perfcalc.mjs"), files.join(" "));
  const { dir, out } = installAndRun("tarball", join(tmp, packed[0].filename));
  assert.deepEqual(readFileSync(join(dir, "node_modules", "@perfcalc", "perfcalc", "perfcalc.wasm")), readFileSync(WASM));
  assert.equal(out.csv, w.csv);
  assert.equal(out.rows.length, w.rows);
  assert.deepEqual(out.columns, w.columns);
});

test("load() without the module in either place names both places", async () => {
  const bare = join(tmp, "bare", "web");
  mkdirSync(bare, { recursive: true });
  for (const f of ["perfcalc.mjs", "abi.mjs", "wasi.mjs"]) copyFileSync(join(WEB, f), join(bare, f));
  const { load, moduleURLs } = await import(pathToFileURL(join(bare, "perfcalc.mjs")).href);
  const places = moduleURLs().map((u) => fileURLToPath(u));
  assert.deepEqual(places, [join(bare, "perfcalc.wasm"), join(tmp, "bare", "wasm", "module", "perfcalc.wasm")]);
  await assert.rejects(load(), (e) => e.code === "ENOENT" && places.every((p) => e.message.includes(p)) && /npm pack/.test(e.message) && /clone/.test(e.message));
  // The clone's place, once there, is used.
  mkdirSync(join(tmp, "bare", "wasm", "module"), { recursive: true });
  copyFileSync(WASM, places[1]);
  const pc = await load();
  assert.equal(pc.columns(readFileSync(SAMPLE)).samples, 10);
  assert.deepEqual(moduleURLs("perfcalc-analyze.wasm").map((u) => fileURLToPath(u)), [join(bare, "perfcalc-analyze.wasm"), join(tmp, "bare", "wasm", "module", "perfcalc-analyze.wasm")]);
});
