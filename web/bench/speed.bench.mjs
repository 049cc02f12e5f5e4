// Measures, in one Node process, the module's hot paths against the native
// command on one core (issue 25): relog's CSV of a .blg log and its
// statistics, with the JS package (relog(buf, {format: "csv"}), stats(buf),
// stats(buf, {percentiles: true})) and with `perfcalc relog -f csv`,
// `perfcalc stats` and `perfcalc stats --percentiles` run with
// GOMAXPROCS=1 (wall time of the process: its start, about 5 ms, and the
// file's reading included). Runs are interleaved; the medians are printed,
// with their ratios. The JS package's first call of each (V8 compiles the
// module's hot functions again, optimised, while they run) is printed
// apart. decode(buf, {kind: "blg"}) is printed alone: no command prints
// the records (host's BenchmarkModuleSpeed compares them).
//
//   go build -o /tmp/perfcalc ./cmd/perfcalc
//   node bench/speed.bench.mjs LOG.blg /tmp/perfcalc [rounds]
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { load } from "../perfcalc.mjs";

const WASM = process.env.PERFCALC_WASM ?? fileURLToPath(new URL("../../wasm/module/perfcalc.wasm", import.meta.url));
const [logPath, bin] = process.argv.slice(2, 4);
const rounds = Number(process.argv[4] ?? 5);
if (!logPath || !bin) {
  console.error("usage: node bench/speed.bench.mjs LOG.blg PERFCALC-BINARY [rounds]");
  process.exit(2);
}
const log = readFileSync(logPath);
const pc = await load(new URL("file://" + WASM));

const native = (args) => () => {
  const r = spawnSync(bin, args, { env: { ...process.env, GOMAXPROCS: "1" }, stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(bin + " " + args.join(" ") + ": exit " + r.status);
};
const works = {
  "relog CSV": { js: () => pc.relog(log, { format: "csv" }), native: native(["relog", logPath, "-f", "csv", "-o", "/dev/null"]) },
  stats: { js: () => pc.stats(log), native: native(["stats", logPath, "-o", "/dev/null"]) },
  "stats pct": { js: () => pc.stats(log, { percentiles: true }), native: native(["stats", logPath, "--percentiles", "-o", "/dev/null"]) },
  decode: { js: () => pc.decode(log, { kind: "blg" }) },
};
const time = (f) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const first = {}, js = {}, nat = {};
for (const [name, w] of Object.entries(works)) {
  first[name] = time(w.js);
  js[name] = [];
  nat[name] = [];
}
for (let r = 0; r < rounds; r++) {
  for (const [name, w] of Object.entries(works)) {
    js[name].push(time(w.js));
    if (w.native) nat[name].push(time(w.native));
  }
}
console.log(`${logPath} (${(log.length / 1e6).toFixed(1)} MB), ${rounds} rounds, medians:`);
for (const name of Object.keys(works)) {
  const j = median(js[name]);
  let line = `${name.padEnd(10)} JS ${j.toFixed(0).padStart(5)} ms (first call ${first[name].toFixed(0)} ms)`;
  if (nat[name].length) {
    const n = median(nat[name]);
    line += `   native (GOMAXPROCS=1) ${n.toFixed(0).padStart(4)} ms   JS/native ${(j / n).toFixed(1)}x (first call ${(first[name] / n).toFixed(1)}x)`;
  }
  console.log(line);
}
