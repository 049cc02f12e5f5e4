// Measures, in one Node process, what issue 14 asks of the JS package:
// the batch APIs against the bare compute_batch export (requests written
// once into the module's memory), per counter, and load() the first time
// (compile) and after (instantiate and the Go runtime's initialisation).
// Runs are interleaved; the medians are printed, with their ratios.
//
//   node bench/compute.bench.mjs [counters] [rounds]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { REQUEST_WORDS, load, packRequest } from "../perfcalc.mjs";
import { createWASI } from "../wasi.mjs";

const WASM = process.env.PERFCALC_WASM ?? fileURLToPath(new URL("../../wasm/module/perfcalc.wasm", import.meta.url));
const n = Number(process.argv[2] ?? 10000);
const rounds = Number(process.argv[3] ?? 15);

// Realistic requests of mixed types (rates, timers, raw counts), as the
// Go benchmarks use.
const TYPES = ["PERF_COUNTER_BULK_COUNT", "PERF_100NSEC_TIMER_INV", "PERF_COUNTER_LARGE_RAWCOUNT", "PERF_100NSEC_TIMER",
  "PERF_COUNTER_100NS_QUEUELEN_TYPE", "PERF_COUNTER_COUNTER", "PERF_COUNTER_RAWCOUNT", "PERF_COUNTER_LARGE_DELTA"];
let seed = 1;
const rnd = (m) => (seed = (seed * 1103515245 + 12345) % 2147483648) % m;
const reqs = [];
for (let i = 0; i < n; i++) {
  const d0 = 130057734178440000n + BigInt(rnd(1 << 30)), dd = 10000000n + BigInt(rnd(1000000));
  const n0 = BigInt(rnd(1 << 30)), dn = BigInt(rnd(10000000));
  reqs.push({ type: TYPES[rnd(TYPES.length)], timebase: 10000000n, old: [n0, d0], new: [n0 + dn, d0 + dd] });
}
const words = new BigUint64Array(n * REQUEST_WORDS);
reqs.forEach((r, i) => packRequest(words, i, r));

const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const pc = await load(new URL("file://" + WASM));
const out = { values: new Float64Array(n), statuses: new Uint8Array(n) };
// The bare export: the requests already in memory, one call.
new BigUint64Array(pc.exports.memory.buffer, pc.inPtr, words.length).set(words);
const runs = {
  "bare compute_batch": () => { if (pc.exports.compute_batch(0, n, 0) !== n) throw new Error("compute_batch"); },
  computeBatchArrays: () => pc.computeBatchArrays(words, out),
  "computeBatch (objects)": () => pc.computeBatch(reqs),
};
const times = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  for (const [name, fn] of Object.entries(runs)) {
    if (name === "bare compute_batch") new BigUint64Array(pc.exports.memory.buffer, pc.inPtr, words.length).set(words);
    const t = performance.now();
    fn();
    times[name].push(((performance.now() - t) * 1e6) / n);
  }
}
const bare = median(times["bare compute_batch"]);
for (const [name, ts] of Object.entries(times)) {
  console.log(`${name.padEnd(24)} ${median(ts).toFixed(1).padStart(7)} ns/counter  ${(median(ts) / bare).toFixed(2)}x the bare export`);
}

// load(): the first in a fresh process compiles; later ones reuse it.
const bytes = readFileSync(WASM);
const t0 = performance.now();
const module = await WebAssembly.compile(bytes);
const t1 = performance.now();
const inst = [], init = [], loads = [];
for (let r = 0; r < rounds; r++) {
  const a = performance.now();
  const wasi = createWASI();
  const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.imports });
  wasi.bind(instance);
  const b = performance.now();
  instance.exports._initialize();
  const c = performance.now();
  await load(new URL("file://" + WASM));
  const d = performance.now();
  inst.push(b - a);
  init.push(c - b);
  loads.push(d - c);
}
console.log(`compile ${(t1 - t0).toFixed(1)} ms; then instantiate ${median(inst).toFixed(1)} ms + _initialize ${median(init).toFixed(1)} ms; load() after the first ${median(loads).toFixed(1)} ms (medians of ${rounds})`);
