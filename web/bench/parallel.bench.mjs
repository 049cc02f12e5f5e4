// Measures, in one Node process, a .blg log read in parts by a pool of
// workers (createPool; issue 25 item 2) against one worker and against the
// native command: what the viewer does to open a log and chart one
// counter (columns, then the counter's series as typed arrays, as the
// viewer's worker makes them: bench/series-worker.mjs, the parts' arrays
// put together), decode alone (the package's records, cloned to this
// thread), and relog's CSV of that counter, with 1 worker and with n workers, beside native
// `perfcalc relog -c COUNTER -f csv` (every CPU; wall time of the process,
// its start and the file's reading included). Runs are interleaved; the
// medians are printed, with their ratios. The log crosses to the workers
// once (pool.keep) before the runs: the viewer keeps the file as a Blob,
// which each worker reads itself.
//
//   go build -o /tmp/perfcalc ./cmd/perfcalc
//   node bench/parallel.bench.mjs LOG.blg /tmp/perfcalc 'COUNTER' [workers] [rounds]
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createPool } from "../worker.mjs";

const WASM = process.env.PERFCALC_WASM ?? fileURLToPath(new URL("../../wasm/module/perfcalc.wasm", import.meta.url));
const [logPath, bin, counter] = process.argv.slice(2, 5);
const n = Number(process.argv[5] ?? 2);
const rounds = Number(process.argv[6] ?? 3);
if (!logPath || !bin || !counter) {
  console.error("usage: node bench/parallel.bench.mjs LOG.blg PERFCALC-BINARY COUNTER [workers] [rounds]");
  process.exit(2);
}
const log = readFileSync(logPath);
const source = new URL("file://" + WASM);
const script = new URL("./series-worker.mjs", import.meta.url);
const one = await createPool(source, { workers: 1, script });
const many = await createPool(one.module, { workers: n, script });
const refs = new Map([[one, one.keep(log)], [many, many.keep(log)]]);

const concat = (T, arrays) => {
  const out = new T(arrays.reduce((k, a) => k + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
};
const time = async (f) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const least = (xs) => Math.min(...xs);
const works = {
  "open+chart": async (p) => {
    const cols = await p.columns(refs.get(p));
    if (cols.columns.length === 0) throw new Error("no columns");
    const parts = await p.inParts((w, ref, part) => w.call("series", [ref, [counter], part]), refs.get(p));
    const values = concat(Float64Array, parts.map((s) => s.values)), times = concat(BigInt64Array, parts.map((s) => s.times));
    if (values.length === 0 || times.length !== values.length) throw new Error("no series of " + counter);
  },
  decode: (p) => p.decode(refs.get(p), { kind: "blg", counters: [counter] }),
  "relog -c CSV": (p) => p.relog(refs.get(p), { format: "csv", counters: [counter] }),
};
const native = () => {
  const r = spawnSync(bin, ["relog", logPath, "-c", counter, "-f", "csv", "-o", "/dev/null"], { stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error("native relog: exit " + r.status);
};
// Byte for byte: the pool's CSV is one worker's.
const [a, b] = [await one.relog(refs.get(one), { format: "csv", counters: [counter] }), await many.relog(refs.get(many), { format: "csv", counters: [counter] })];
if (a !== b) throw new Error("the pool's CSV differs from one worker's");
for (const w of Object.values(works)) { await w(one); await w(many); } // warm-up (V8's optimised code)
// The parts one after the other on the n-worker pool: each part's time
// alone. On n free cores the parts run at once and the call takes about
// the longest part's time (what this machine, shared by a team, cannot
// show: the load leaves the workers less than a core each).
const alone = { "series part": [], "relog part": [] };
const seq = (call) => async (w, ref, part) => {
  const t = performance.now();
  await call(w, ref, part);
  return performance.now() - t;
};
const parts = many._parts(log.length);
const one_ = async (call) => {
  const times = [];
  for (let i = 0; i < parts.length; i++) {
    times.push(await seq(call)(many.workers[i], refs.get(many).refs[i], parts.length > 1 ? parts[i] : undefined));
  }
  return times;
};
const res = {};
for (const name of [...Object.keys(works), "native"]) res[name] = { one: [], many: [] };
for (let r = 0; r < rounds; r++) {
  for (const [name, w] of Object.entries(works)) {
    res[name].one.push(await time(() => w(one)));
    res[name].many.push(await time(() => w(many)));
  }
  res.native.one.push(await time(native));
  alone["series part"].push(await one_((w, ref, part) => w.call("series", [ref, [counter], part])));
  alone["relog part"].push(await one_((w, ref, part) => w.relog(ref, { format: "csv", counters: [counter], part })));
}
const nat = median(res.native.one);
console.log(`${logPath} (${(log.length / 1e6).toFixed(1)} MB), ${counter}, ${rounds} rounds, medians; parts: ${many._parts(log.length).length}`);
console.log(`native relog -c … -f csv: ${nat.toFixed(0)} ms (fastest ${least(res.native.one).toFixed(0)} ms)`);
for (const name of Object.keys(works)) {
  const o = median(res[name].one), m = median(res[name].many);
  console.log(`${name.padEnd(13)} 1 worker ${o.toFixed(0).padStart(6)} ms (${(o / nat).toFixed(1)}x native)   ${n} workers ${m.toFixed(0).padStart(6)} ms (${(m / nat).toFixed(1)}x native)   speed-up ${(o / m).toFixed(2)}x   (fastest: ${least(res[name].one).toFixed(0)} / ${least(res[name].many).toFixed(0)} ms)`);
}
for (const [name, runs] of Object.entries(alone)) {
  const perPart = parts.map((_, i) => median(runs.map((r) => r[i])));
  console.log(`${name.padEnd(13)} each of the ${parts.length} parts alone (medians): ${perPart.map((x) => x.toFixed(0)).join(", ")} ms; the longest ${Math.max(...perPart).toFixed(0)} ms`);
}
one.terminate();
many.terminate();
