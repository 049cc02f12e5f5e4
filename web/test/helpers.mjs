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
/** The module the tests load: PERFCALC_WASM, or the committed wasm/perfcalc.wasm. */
export const WASM = process.env.PERFCALC_WASM ?? join(ROOT, "wasm", "perfcalc.wasm");
/** The real captures beside the project (../shared/corpus), or null. */
export const CORPUS = existsSync(join(ROOT, "..", "shared", "corpus")) ? join(ROOT, "..", "shared", "corpus") : null;

/** Loads a fresh instance of the module under test. */
export function loadModule() {
  return load(new URL("file://" + WASM));
}

let bin = null;
/**
 * Builds the native programs once per test process: perfcalc (the command)
 * and wasmref (the facade's exports compiled natively, see wasm/native.go).
 */
export function nativeBin(name) {
  if (bin === null) {
    bin = mkdtempSync(join(tmpdir(), "perfcalc-web-test-"));
    execFileSync("go", ["build", "-o", join(bin, "perfcalc"), "./cmd/perfcalc"], { cwd: ROOT, stdio: "inherit" });
    execFileSync("go", ["build", "-o", join(bin, "wasmref"), "./wasm"], { cwd: ROOT, stdio: "inherit" });
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
