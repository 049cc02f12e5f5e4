// Loading the module from every kind of source, the WASI shim, and the
// instance's behaviour after a trap.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ABI_VERSION, Perfcalc, compute, computeBatch, decode, init, load } from "../perfcalc.mjs";
import { IN_CAP, OUT_CAP } from "../abi.mjs";
import { createWASI, WASIExit } from "../wasi.mjs";
import { WASM } from "./helpers.mjs";

const REQ = { type: "PERF_100NSEC_TIMER_INV", old: [4000000, 100000000], new: [6500000, 110000000] };
const WANT = { value: 75, status: "Valid" };

test("load: a file URL, bytes, an ArrayBuffer, a compiled module, a Response", async () => {
  const bytes = readFileSync(WASM);
  const module = await WebAssembly.compile(bytes);
  const sources = {
    url: new URL("file://" + WASM),
    bytes: new Uint8Array(bytes),
    arrayBuffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    module,
    response: new Response(bytes, { headers: { "content-type": "application/wasm" } }),
    responseWithoutType: Promise.resolve(new Response(bytes)),
  };
  for (const [name, src] of Object.entries(sources)) {
    const pc = await load(src);
    assert.ok(pc instanceof Perfcalc, name);
    assert.deepEqual(pc.compute(REQ), WANT, name);
    assert.equal(pc.exports.abi_version(), ABI_VERSION, name);
    assert.ok(pc.inPtr > 0 && pc.outPtr > 0 && pc.inCap === IN_CAP && pc.outCap === OUT_CAP, name);
  }
  await assert.rejects(load(new URL("file:///nonexistent/perfcalc.wasm")), /ENOENT/);
  await assert.rejects(load(new Uint8Array([0, 97, 115, 109])), WebAssembly.CompileError);
});

test("init: the module-level functions use one shared instance", async () => {
  assert.throws(() => compute(REQ), /init\(\)/);
  await init(new URL("file://" + WASM));
  assert.deepEqual(compute(REQ), WANT);
  assert.deepEqual(computeBatch([REQ, REQ]), [WANT, WANT]);
  assert.equal(decode(new Uint8Array([0x31, 0, 0, 0, 0x61, 0, 0, 0, 0, 0])).names[0].text, "a");
});

test("the WASI shim provides every import the module needs, and fd_prestat_get answers EBADF", async () => {
  const module = await WebAssembly.compile(readFileSync(WASM));
  const wasi = createWASI();
  const imports = WebAssembly.Module.imports(module);
  assert.ok(imports.length >= 10);
  for (const imp of imports) {
    assert.equal(imp.module, "wasi_snapshot_preview1");
    assert.equal(typeof wasi.imports[imp.name], "function", `the shim lacks ${imp.name}`);
  }
  // Go's syscall init probes preopened directories until EBADF (8).
  assert.equal(wasi.imports.fd_prestat_get(3, 0), 8);
  assert.equal(wasi.imports.fd_prestat_dir_name(3, 0, 0), 8);
  assert.throws(() => wasi.imports.proc_exit(3), (e) => e instanceof WASIExit && e.code === 3);
  // stdout/stderr go to the callbacks, line by line.
  const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.imports });
  wasi.bind(instance);
  const err = [];
  const w2 = createWASI({ stderr: (l) => err.push(l) });
  w2.bind(instance);
  const mem = new Uint8Array(instance.exports.memory.buffer);
  const dv = new DataView(instance.exports.memory.buffer);
  mem.set(new TextEncoder().encode("hello\nwor"), 1024);
  dv.setUint32(2048, 1024, true);
  dv.setUint32(2052, 9, true);
  assert.equal(w2.imports.fd_write(2, 2048, 1, 4096), 0);
  assert.equal(dv.getUint32(4096, true), 9);
  assert.deepEqual(err, ["hello"]);
  assert.equal(w2.imports.fd_write(5, 2048, 1, 4096), 8);
  // clocks: realtime near Date.now(), monotonic non-decreasing.
  assert.equal(w2.imports.clock_time_get(0, 0n, 4096), 0);
  const rt = dv.getBigUint64(4096, true);
  assert.ok(rt / 1000000n - BigInt(Date.now()) < 1000n);
  w2.imports.clock_time_get(1, 0n, 4096);
  const m1 = dv.getBigUint64(4096, true);
  w2.imports.clock_time_get(1, 0n, 4096);
  assert.ok(dv.getBigUint64(4096, true) >= m1);
});

test("calling an export before _initialize traps: load() initialises first", async () => {
  const module = await WebAssembly.compile(readFileSync(WASM));
  const wasi = createWASI({ stderr: () => {} });
  const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.imports });
  wasi.bind(instance);
  assert.throws(() => instance.exports.in_ptr(), WebAssembly.RuntimeError);
});

test("after a trap the instance refuses further calls", async () => {
  const pc = await load(new URL("file://" + WASM));
  const real = pc.exports;
  pc.exports = { ...real, compute: () => { throw new WebAssembly.RuntimeError("unreachable"); } };
  assert.throws(() => pc.compute(REQ), WebAssembly.RuntimeError);
  pc.exports = real;
  assert.throws(() => pc.compute(REQ), /trapped earlier/);
  assert.throws(() => pc.computeBatch([REQ]), /trapped earlier/);
  const fresh = await load(new URL("file://" + WASM));
  assert.deepEqual(fresh.compute(REQ), WANT);
});
