// The module computes what the native command computes (perfcalc calc
// --batch), bit for bit, for every counter type and the edges of the
// arithmetic, through compute() and computeBatch(); the compute paths
// allocate nothing in the guest.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COUNTER_TYPES, REQUEST_WORDS, STATUS, load, packRequest, parseOptions } from "../perfcalc.mjs";
import { ROOT, WASM, bits, lines, loadDebugModule, loadModule, parseExact, runNative, stringifyExact } from "./helpers.mjs";

const U64_MAX = (1n << 64n) - 1n;

// requests returns the shipped requests plus edge cases, as JSON-ready
// objects in the command's batch format.
function requests() {
  const shipped = lines(readFileSync(join(ROOT, "testdata", "corpus", "calc-requests.jsonl"), "utf8"), parseExact);
  assert.ok(shipped.length >= 40, `calc-requests.jsonl has ${shipped.length} requests`);
  const edge = [
    { type: "PERF_COUNTER_LARGE_RAWCOUNT", new: [U64_MAX, 0] },
    { type: "PERF_COUNTER_LARGE_RAWCOUNT", new: [-1n, 0] }, // an int64 bit pattern: 2^64−1
    { type: "PERF_COUNTER_LARGE_RAWCOUNT_HEX", new: [U64_MAX, 0] },
    { type: "PERF_COUNTER_BULK_COUNT", old: [0, 0], new: [U64_MAX, U64_MAX], timebase: 1 },
    { type: "PERF_COUNTER_BULK_COUNT", old: [1n << 63n, 0], new: [U64_MAX, 1], timebase: 9223372036854775807n },
    { type: "PERF_COUNTER_COUNTER", old: [5, 10], new: [5, 10], timebase: 3579545 }, // zero deltas
    { type: "PERF_COUNTER_COUNTER", old: [5, 10], new: [6, 10], timebase: 3579545 }, // zero time delta
    { type: "PERF_COUNTER_COUNTER", old: [5, 10], new: [6, 20], timebase: 0 },
    { type: "PERF_COUNTER_COUNTER", old: [5, 10], new: [6, 20], timebase: -1 },
    { type: "PERF_COUNTER_COUNTER", new: [6, 20], timebase: 3579545 }, // first sample
    { type: "PERF_100NSEC_TIMER", new: [6, 20] },
    { type: "PERF_COUNTER_COUNTER", old: [0xfffffff0, 100], new: [0x10, 200], timebase: 100, options: ["wrap32"] },
    { type: "PERF_COUNTER_COUNTER", old: [0xfffffff0, 100], new: [0x10, 200], timebase: 100 },
    { type: "PERF_COUNTER_COUNTER", old: [0xfffffff0, 100], new: [0x7ffffff0, 200], timebase: 100, options: ["wrap32"] },
    { type: "PERF_SAMPLE_FRACTION", old: [0xfffffff0, 0xffffff00], new: [0x10, 0x100], options: ["wrap32"] },
    { type: "PERF_RAW_FRACTION", new: [3, 2], options: ["cap100"] },
    { type: "PERF_100NSEC_TIMER_INV", old: [0, 0], new: [30, 10], options: ["cap100"] },
    { type: "PERF_COUNTER_MULTI_TIMER", old: [0, 0, 0], new: [300, 100, 0], timebase: 1 },
    { type: "PERF_COUNTER_MULTI_TIMER", old: [0, 0, 2], new: [U64_MAX, 3, 2], timebase: 1 },
    { type: "PERF_COUNTER_RAWCOUNT", new: [1234, 0], scale: -3 },
    { type: "PERF_COUNTER_RAWCOUNT", new: [1234, 0], scale: 10, options: ["1000"] },
    { type: "PERF_COUNTER_RAWCOUNT", new: [U64_MAX, 0], scale: -10, options: ["cap100", "1000"] },
    { type: "PERF_RAW_FRACTION", new: [3, 2], scale: 2, options: ["cap100", "1000"] },
    { type: "PERF_ELAPSED_TIME", new: [200, 100], timebase: 10 }, // start after the time stamp
    { type: "PERF_AVERAGE_TIMER", old: [1, 5], new: [U64_MAX, 4], timebase: 3579545 },
    { type: "0x12345678", new: [1, 1] }, // not a type: the command refuses it, see below
  ];
  // Every type with a generic pair of samples and as a first sample.
  for (const name of Object.keys(COUNTER_TYPES)) {
    edge.push({ type: name, old: [100, 1000, 2], new: [350, 3000, 2], timebase: 1000 });
    edge.push({ type: name, new: [350, 3000, 2], timebase: 1000 });
    edge.push({ type: name, old: [350, 3000, 2], new: [100, 1000, 2], timebase: 1000, options: ["cap100", "wrap32"] });
  }
  return [...shipped, ...edge];
}

// toAPI turns a batch-format request into an API request: in the command's
// format a present "scale" turns scaling on.
function toAPI(r) {
  const q = { ...r };
  if (r.scale !== undefined) q.options = [...(r.options ?? []), "scale"];
  return q;
}

test("compute and computeBatch equal perfcalc calc --batch, bit for bit", async () => {
  const reqs = requests();
  const native = lines(runNative("perfcalc", ["calc", "--batch"], reqs.map(stringifyExact).join("\n") + "\n", { allowStatus1: true }));
  assert.equal(native.length, reqs.length);
  const pc = await loadModule();
  const batch = pc.computeBatch(reqs.filter((_, i) => !native[i].error).map(toAPI));
  let k = 0, compared = 0;
  const types = new Set();
  for (let i = 0; i < reqs.length; i++) {
    const want = native[i];
    if (want.error) {
      // Only the unknown type is refused by the command; the module answers
      // UnknownType for a number that is not a type (the engine's status).
      assert.match(want.error, /not a winperf.h counter type/, `request ${i}: ${want.error}`);
      assert.deepEqual(pc.compute(toAPI(reqs[i])), { value: 0, status: "UnknownType" });
      assert.throws(() => pc.compute({ ...toAPI(reqs[i]), type: "PERF_NO_SUCH_TYPE" }), /unknown counter type/);
      continue;
    }
    const one = pc.compute(toAPI(reqs[i]));
    const many = batch[k++];
    const msg = `request ${i} ${stringifyExact(reqs[i])}: native ${JSON.stringify(want)}`;
    assert.equal(bits(one.value), bits(want.value), msg + `, compute ${one.value}`);
    assert.equal(one.status, want.status, msg);
    assert.equal(bits(many.value), bits(want.value), msg + `, computeBatch ${many.value}`);
    assert.equal(many.status, want.status, msg);
    types.add(want.type);
    compared++;
  }
  assert.ok(compared > 150, `${compared} requests compared`);
  assert.equal(types.size, 39, `types covered: ${[...types].join(" ")}`); // every distinct winperf.h type
  const statuses = new Set(batch.map((r) => r.status));
  for (const s of ["Valid", "NewData", "NegativeDenominator", "NegativeValue", "NotDisplayable"]) assert.ok(statuses.has(s), `no ${s} result`);
});

test("raw values: numbers, BigInts and strings, exact up to 2^64-1", async () => {
  const pc = await loadModule();
  const r = (v) => pc.compute({ type: "PERF_COUNTER_LARGE_RAWCOUNT", new: [v, 0] });
  assert.deepEqual(r(U64_MAX), { value: 18446744073709551615, status: "Valid" });
  assert.deepEqual(r("18446744073709551615"), r(U64_MAX));
  assert.deepEqual(r(-1n), r(U64_MAX));
  assert.deepEqual(r(Number.MAX_SAFE_INTEGER), { value: Number.MAX_SAFE_INTEGER, status: "Valid" });
  assert.throws(() => r(2 ** 64), RangeError); // not exact as a number
  assert.throws(() => r(1.5), RangeError);
  assert.throws(() => r(1n << 64n), RangeError);
  assert.throws(() => r("12abc"), TypeError);
  // The low bit of a large delta survives: 2^63+1 − 0 over 1 s is not 2^63.
  const v = pc.compute({ type: "PERF_COUNTER_LARGE_DELTA", old: [0, 0], new: [(1n << 63n) + 1n, 1] });
  assert.equal(v.value, 2 ** 63);
  const w = pc.computeBatch([{ type: 0x00400500, old: { first: 1n, second: 0 }, new: { first: U64_MAX, second: 1, cstatus: 0 } }]);
  assert.deepEqual(w, [{ value: 18446744073709551614, status: "Valid" }]);
  const bad = pc.compute({ type: "PERF_COUNTER_RAWCOUNT", new: { first: 1, second: 0, cstatus: 0xC0000BBA } });
  assert.deepEqual(bad, { value: 0, status: "InvalidData" });
});

test("the compute paths allocate nothing in the guest", async () => {
  const pc = await loadDebugModule(); // the shipped module has no mallocs export
  await assert.rejects(async () => (await loadModule()).mallocs(), (e) => e.kind === "Unsupported");
  const reqs = requests().filter((r) => r.type !== "0x12345678").map(toAPI);
  pc.computeBatch(reqs); // warm up
  pc.compute(reqs[0]);
  const before = pc.mallocs();
  for (let i = 0; i < 1000; i++) pc.compute(reqs[i % reqs.length]);
  const afterCompute = pc.mallocs();
  for (let i = 0; i < 20; i++) pc.computeBatch(reqs);
  const afterBatch = pc.mallocs();
  assert.equal(afterCompute - before, 0n, "mallocs of 1000 compute calls");
  assert.equal(afterBatch - afterCompute, 0n, `mallocs of 20 compute_batch calls of ${reqs.length} requests`);
  // The counter does count: a decode allocates.
  pc.decode(new Uint8Array([0x31, 0, 0, 0, 0x61, 0, 0, 0, 0, 0]), { kind: "names" });
  assert.ok(pc.mallocs() > afterBatch, "mallocs did not count a decode's allocations");
});

test("requests are checked before they reach the module", async () => {
  const pc = await loadModule();
  assert.throws(() => pc.compute({ type: "PERF_COUNTER_RAWCOUNT", new: [1] }), RangeError);
  assert.throws(() => pc.compute({ type: "PERF_COUNTER_RAWCOUNT", new: [1, 0], options: ["nocap"] }), RangeError);
  assert.throws(() => pc.compute({ type: "NOT_A_TYPE", new: [1, 0] }), RangeError);
  assert.throws(() => pc.compute({ type: "PERF_COUNTER_RAWCOUNT", new: [1, 0, 2 ** 32] }), RangeError);
  // A reserved option bit passed as a number reaches the module, which refuses it.
  assert.throws(() => pc.compute({ type: "PERF_COUNTER_RAWCOUNT", new: [1, 0], options: 16 }), (e) => e.code === -3);
  assert.throws(() => pc.computeBatch([{ type: 0x10000, new: [1, 0] }, { type: 0x10000, new: [1, 0], options: 32 }]),
    (e) => e.name === "PerfcalcError" && e.kind === "Argument" && e.detail === 1);
  assert.deepEqual(pc.compute({ type: "counter_rawcount", new: [7, 0] }), { value: 7, status: "Valid" }); // PERF_ optional, any case
});

test("computeBatchArrays equals computeBatch, bit for bit, with reused and chunked arrays", async () => {
  const pc = await loadModule();
  const reqs = requests().map(toAPI);
  const words = new BigUint64Array(reqs.length * REQUEST_WORDS);
  reqs.forEach((r, i) => packRequest(words, i, r));
  const want = pc.computeBatch(reqs);
  const have = pc.computeBatchArrays(words);
  assert.ok(have.values instanceof Float64Array && have.statuses instanceof Uint8Array);
  assert.equal(have.values.length, reqs.length);
  for (let i = 0; i < reqs.length; i++) {
    assert.equal(bits(have.values[i]), bits(want[i].value), `request ${i} ${stringifyExact(reqs[i])}`);
    assert.equal(STATUS[have.statuses[i]], want[i].status, `request ${i}`);
  }
  // Into the caller's arrays (longer than needed), the rest untouched.
  const values = new Float64Array(reqs.length + 2).fill(-1), statuses = new Uint8Array(reqs.length + 2).fill(99);
  const out = pc.computeBatchArrays(words, { values, statuses });
  assert.equal(out.values, values);
  assert.deepEqual(Array.from(values.subarray(0, reqs.length)), Array.from(have.values));
  assert.deepEqual([values[reqs.length], statuses[reqs.length + 1]], [-1, 99]);
  // More requests than the module's buffers hold in one call.
  const chunk = Math.min(Math.floor(pc.inCap / 72), Math.floor(pc.outCap / 16));
  const n = chunk + 5;
  const many = new BigUint64Array(n * REQUEST_WORDS);
  for (let i = 0; i < n; i++) many.set(words.subarray((i % reqs.length) * REQUEST_WORDS, (i % reqs.length + 1) * REQUEST_WORDS), i * REQUEST_WORDS);
  const big = pc.computeBatchArrays(many);
  for (const i of [0, chunk - 1, chunk, n - 1]) {
    assert.equal(bits(big.values[i]), bits(want[i % reqs.length].value), `request ${i} of ${n}`);
    assert.equal(STATUS[big.statuses[i]], want[i % reqs.length].status);
  }
  // Misuse.
  assert.throws(() => pc.computeBatchArrays(new Float64Array(9)), TypeError);
  assert.throws(() => pc.computeBatchArrays(new BigUint64Array(10)), RangeError);
  assert.throws(() => pc.computeBatchArrays(words, { values: new Float64Array(1) }), TypeError);
  // A reserved bit: the module's argument error, with the request's index.
  const bad = words.slice(0, 2 * REQUEST_WORDS);
  bad[REQUEST_WORDS + 2] |= 1n << 40n; // options bit 8 of request 1
  assert.throws(() => pc.computeBatchArrays(bad), (e) => e.kind === "Argument" && e.detail === 1);
});

test("load compiles a URL or the same bytes once", async () => {
  const url = new URL("file://" + WASM);
  const t0 = performance.now();
  const a = await load(url);
  const t1 = performance.now();
  const b = await load(url);
  const t2 = performance.now();
  assert.notEqual(a, b);
  assert.notEqual(a.exports, b.exports, "two instances");
  assert.deepEqual(b.compute({ type: "PERF_COUNTER_RAWCOUNT", new: [7, 0] }), { value: 7, status: "Valid" });
  // The second load only instantiates: far below a compilation (logged, not
  // asserted: the machine is shared).
  console.log(`load: first ${(t1 - t0).toFixed(1)} ms, second ${(t2 - t1).toFixed(1)} ms`);
});

test("parseOptions reads the one options syntax as engine.ParseOptions does (testdata/options.json); scale=S gives a request its scale", async () => {
  const cases = JSON.parse(readFileSync(join(ROOT, "testdata", "options.json"), "utf8"));
  assert.ok(cases.length >= 10);
  for (const c of cases) {
    if (c.error) {
      assert.throws(() => parseOptions(c.text), (e) => e instanceof RangeError && e.message.includes(c.error), JSON.stringify(c.text));
      continue;
    }
    assert.deepEqual(parseOptions(c.text), { options: c.options, scale: c.scale ?? null }, JSON.stringify(c.text));
  }
  assert.throws(() => parseOptions("constructor"), RangeError);
  const pc = await loadModule();
  const r = { type: "PERF_COUNTER_RAWCOUNT", new: [7, 0] };
  assert.deepEqual(pc.compute({ ...r, options: "cap100, scale=-2, 1000" }), pc.compute({ ...r, scale: -2, options: ["cap100", "scale", "1000"] }));
  assert.equal(pc.compute({ ...r, options: "scale=-2,1000" }).value, 70);
  assert.throws(() => pc.compute({ ...r, scale: 3, options: "scale=2" }), RangeError);
  assert.throws(() => pc.computeBatch([r], { options: "scale=2" }), RangeError);
});
