// Shared helpers of the tests: paths, the native reference programs, exact
// JSON reading, float64 bits.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "../perfcalc.mjs";

/** The project's root (the Go module). */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The module the tests load: PERFCALC_WASM, or the committed wasm/module/perfcalc.wasm. */
export const WASM = process.env.PERFCALC_WASM ?? join(ROOT, "wasm", "module", "perfcalc.wasm");
/** The real captures beside the project (../shared/corpus), or null. */
export const CORPUS = existsSync(join(ROOT, "..", "shared", "corpus")) ? join(ROOT, "..", "shared", "corpus") : null;

/** Loads a fresh instance of the module under test. */
export function loadModule() {
  return load(new URL("file://" + WASM));
}

let debugWasm = null;
/**
 * Builds the debug module once per test process (./wasm with -tags
 * perfcalcdebug and the flags of make wasm: the shipped exports plus
 * mallocs and debug_fault), for the tests that count the guest's
 * allocations, and loads a fresh instance of it.
 */
export function loadDebugModule() {
  if (debugWasm === null) {
    const dir = mkdtempSync(join(tmpdir(), "perfcalc-web-debug-"));
    debugWasm = join(dir, "perfcalc-debug.wasm");
    execFileSync("go", ["build", "-tags", "perfcalcdebug", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w -buildid=", "-buildvcs=false", "-o", debugWasm, "./wasm"],
      { cwd: ROOT, stdio: "inherit", env: { ...process.env, GOOS: "wasip1", GOARCH: "wasm", GOFLAGS: "" } });
  }
  return load(new URL("file://" + debugWasm));
}

let bin = null;
/**
 * Builds the native programs once per test process: perfcalc (the command)
 * and wasmref (the module's record builders run natively, see tools/wasmref).
 */
export function nativeBin(name) {
  if (bin === null) {
    bin = mkdtempSync(join(tmpdir(), "perfcalc-web-test-"));
    execFileSync("go", ["build", "-o", join(bin, "perfcalc"), "./cmd/perfcalc"], { cwd: ROOT, stdio: "inherit" });
    execFileSync("go", ["build", "-o", join(bin, "wasmref"), "./tools/wasmref"], { cwd: ROOT, stdio: "inherit" });
  }
  return join(bin, name);
}

/**
 * Runs a native program and returns its standard output; exit status 1
 * (perfcalc calc --batch with a refused line) is accepted when allowed.
 */
export function runNative(name, args, input, { allowStatus1 = false } = {}) {
  try {
    return execFileSync(nativeBin(name), args, { input, maxBuffer: 1 << 28, encoding: "utf8" });
  } catch (e) {
    if (allowStatus1 && e.status === 1) return e.stdout;
    throw e;
  }
}

/** JSON.parse that keeps integers of 16 or more digits exact, as strings. */
export function parseExact(text) {
  return JSON.parse(text.replace(/(?<=[:\[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '"$1"'));
}

/** Serialises JSON with BigInts written as exact integers. */
export function stringifyExact(v) {
  return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `@@${x}@@` : x)).replace(/"@@(-?\d+)@@"/g, "$1");
}

const dv = new DataView(new ArrayBuffer(8));
/** The float64 bit pattern of x, as a BigInt. */
export function bits(x) {
  dv.setFloat64(0, x, true);
  return dv.getBigUint64(0, true);
}

/** Parses JSON lines. */
export function lines(text, parse = JSON.parse) {
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => parse(l));
}

/**
 * Returns a .blg log of 64 KiB buffers with its body (buffers 2 …) repeated
 * copies times, each copy's events shifted in time and its buffers
 * renumbered so that time stamps keep increasing: a large log made from a
 * real one (as tools/gencorpus.RepeatedLog does in Go).
 */
export function repeatLog(log, copies) {
  const BUF = 0x10000, BUF_HEADER = 0x48, EVENT_HEADER = 48, TICKS_PER_SECOND = 10000000n;
  if (log.length % BUF !== 0 || log.length < 4 * BUF) throw new Error("repeatLog: not a log of 64 KiB buffers");
  const nbody = log.length / BUF - 2;
  const events = (dv, base, fn) => {
    const end = Math.min(dv.getUint32(base + 0x30, true), BUF);
    for (let p = BUF_HEADER; p + EVENT_HEADER <= end;) {
      const size = dv.getUint16(base + p, true);
      if (size < EVENT_HEADER) break;
      fn(base + p + 16);
      p += (size + 7) & ~7;
    }
  };
  const src = new DataView(log.buffer, log.byteOffset, log.byteLength);
  const times = [];
  events(src, 2 * BUF, (at) => times.push(src.getBigUint64(at, true)));
  const firstTime = times[0];
  times.length = 0;
  events(src, (nbody + 1) * BUF, (at) => times.push(src.getBigUint64(at, true)));
  const span = times[times.length - 1] - firstTime + TICKS_PER_SECOND;
  const out = new Uint8Array(2 * BUF + copies * nbody * BUF);
  out.set(log.subarray(0, 2 * BUF));
  const dv = new DataView(out.buffer);
  for (let k = 0; k < copies * nbody; k++) {
    const base = (k + 2) * BUF;
    out.set(log.subarray((2 + (k % nbody)) * BUF, (3 + (k % nbody)) * BUF), base);
    const shift = BigInt(Math.floor(k / nbody)) * span;
    dv.setBigUint64(base + 0x18, BigInt(k + 2), true);
    events(dv, base, (at) => dv.setBigUint64(at, dv.getBigUint64(at, true) + shift, true));
  }
  return out;
}
