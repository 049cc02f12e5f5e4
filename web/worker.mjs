// perfcalc in a worker: the module's calls run off the calling thread (a
// Web Worker in browsers, a worker_threads Worker in Node), so that a page
// stays responsive while a large log decodes, and every call takes an
// AbortSignal that stops it at once. Inputs may be bytes or Blobs (a page's
// File is read by the worker, not by the page).
//
// A call into the module cannot be interrupted from the thread that runs
// it: the module is synchronous and runs to the end of the call. Aborting a
// call therefore stops its worker (Worker.terminate) and rejects the calls
// queued behind it; the next call starts a new worker, which instantiates
// the module compiled once by createWorker (a few milliseconds). Bytes kept
// in the worker with keep() are sent again to the new worker when a call
// uses them.
//
//   import { createWorker } from "@perfcalc/perfcalc/worker";
//   const w = await createWorker();                        // perfcalc.wasm beside perfcalc.mjs
//   const ac = new AbortController();
//   const stats = await w.stats(bytes, { signal: ac.signal }); // ac.abort() rejects it with an AbortError
//
// The worker side is serve(): a worker script that calls serve() answers
// perfcalc's methods; serve(extra) adds methods of its own (the viewer's
// worker does), each called as extra[name](pc, ...args) with the worker's
// instance.

import { PerfcalcError, analyzeModuleURL, checkOptions, compile, compileAnalyzer, load, restoreJSON } from "./perfcalc.mjs";
import { CODE_MALFORMED, MIN_PART_BYTES } from "./abi.mjs";

const isNode = typeof process !== "undefined" && process.versions?.node != null && typeof self === "undefined";

/** perfcalc's methods that a worker answers without extra methods. */
const METHODS = ["compute", "computeBatch", "decode", "query", "relog", "stats", "columns", "sniff", "mallocs", "analyze"];

/** The default worker script: serve() and nothing else. */
const DEFAULT_SCRIPT = new URL("./perfcalc-worker.mjs", import.meta.url);

/** Bytes kept in the worker (PerfcalcWorker.keep): pass it wherever bytes go. */
export class BytesRef {
  /** @private */
  constructor(id, byteLength) {
    this.id = id;
    this.byteLength = byteLength;
  }
}

/** A worker method's result with the buffers to transfer rather than copy. */
export class Transfer {
  constructor(value, list) {
    this.value = value;
    this.list = list;
  }
}

const isBlob = (b) => typeof Blob !== "undefined" && b instanceof Blob;

function abortError(signal) {
  return signal.reason ?? new DOMException("perfcalc: the call was aborted", "AbortError");
}

// An error crosses to the other thread as plain fields; PerfcalcErrors keep
// their code, kind and detail (and analyze's missingFile).
function errorFields(err) {
  if (err instanceof Error) return { name: err.name, message: err.message, code: err.code, detail: err.detail, missingFile: err.missingFile };
  return { name: "Error", message: String(err) };
}

function errorFrom(f) {
  if (f.name === "PerfcalcError") return Object.assign(new PerfcalcError(f.code, f.message, f.detail), f.missingFile === undefined ? {} : { missingFile: f.missingFile });
  const err = new ({ TypeError, RangeError }[f.name] ?? Error)(f.message);
  err.name = f.name;
  return err;
}

/**
 * The calling side: one worker at a time, started when needed, each call
 * answered in order. Create it with createWorker.
 */
export class PerfcalcWorker {
  /** @private use createWorker */
  constructor(module, spawn, script, analyzeSource) {
    this.module = module;
    this._spawn = spawn;
    this._script = script;
    this._analyzeSource = analyzeSource; // the analyze module, as compile() takes it
    this._analyzeModule = null; // its compilation (a Promise), once
    this._analyzerSent = false; // whether the current worker has it
    this._worker = null;
    this._pending = new Map(); // call id → { resolve, reject }
    this._seq = 0;
    this._kept = new Map(); // BytesRef id → bytes
    this._sent = new Set(); // BytesRef ids the current worker holds
  }

  // _start starts a worker and gives it the compiled module.
  _start() {
    const w = this._spawn(this._script);
    w.onMessage((m) => this._answer(m));
    w.onError((err) => this._stop(err));
    w.post({ type: "init", module: this.module });
    this._worker = w;
    this._sent = new Set();
    this._analyzerSent = false;
  }

  _answer(m) {
    const p = this._pending.get(m.id);
    if (!p) return;
    this._pending.delete(m.id);
    if (this._pending.size === 0) this._worker?.idle(true);
    if (m.ok) p.resolve(m.value);
    else p.reject(errorFrom(m.error));
  }

  // _stop terminates the worker and rejects every call still pending on it.
  _stop(reason) {
    const w = this._worker;
    if (!w) return;
    this._worker = null;
    w.terminate();
    const pending = [...this._pending.values()];
    this._pending.clear();
    for (const p of pending) p.reject(reason instanceof Error || reason instanceof DOMException ? reason : new Error(String(reason)));
  }

  /**
   * Calls a method of the worker with args (bytes, BytesRefs, options) and
   * returns its result. opts.signal aborts it: the worker stops, this call
   * rejects with the signal's reason (an AbortError), and so do the calls
   * that were queued behind it. opts.transfer lists buffers to move to the
   * worker instead of copying them.
   */
  call(method, args = [], opts = {}) {
    try {
      checkOptions(opts, ["signal", "transfer"], `worker ${method}`);
    } catch (err) {
      return Promise.reject(err);
    }
    const { signal, transfer = [] } = opts ?? {};
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (!this._worker) this._start();
    const w = this._worker;
    const refs = (v) => {
      if (v instanceof BytesRef && !this._sent.has(v.id)) {
        const bytes = this._kept.get(v.id);
        if (!bytes) throw new Error("perfcalc: this BytesRef was released");
        w.post({ type: "put", id: v.id, bytes });
        this._sent.add(v.id);
      }
      return v instanceof BytesRef ? { $ref: v.id } : v;
    };
    let wire;
    try {
      wire = args.map((a) => (a && a.constructor === Object ? Object.fromEntries(Object.entries(a).map(([k, v]) => [k, refs(v)])) : refs(a)));
    } catch (err) {
      return Promise.reject(err);
    }
    const id = ++this._seq;
    return new Promise((resolve, reject) => {
      if (signal) {
        const onAbort = () => {
          if (!this._pending.has(id)) return;
          const err = abortError(signal);
          this._pending.delete(id);
          reject(err);
          if (this._worker === w) this._stop(new DOMException("perfcalc: the worker was stopped by an aborted call before this one", "AbortError"));
        };
        signal.addEventListener("abort", onAbort, { once: true });
        const done = () => signal.removeEventListener("abort", onAbort);
        resolve = ((r) => (v) => { done(); r(v); })(resolve);
        reject = ((r) => (e) => { done(); r(e); })(reject);
      }
      this._pending.set(id, { resolve, reject });
      w.idle(false);
      w.post({ type: "call", id, method, args: wire }, transfer);
    });
  }

  /**
   * Keeps bytes for the worker's calls, so that a large input crosses to the
   * worker once: pass the BytesRef in place of the bytes. The bytes are
   * copied, and sent again to a new worker after an abort. A Blob (a File
   * of a page) is not even read here: the worker reads it.
   */
  keep(bytes) {
    const b = bytes instanceof Uint8Array || isBlob(bytes) ? bytes
      : ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
    const ref = new BytesRef(++this._seq, isBlob(b) ? b.size : b.byteLength);
    this._kept.set(ref.id, b);
    return ref;
  }

  /** Lets go of bytes that keep() kept, here and in the worker. */
  release(ref) {
    this._kept.delete(ref.id);
    if (this._sent.delete(ref.id)) this._worker?.post({ type: "drop", id: ref.id });
  }

  /** Stops the worker now; pending calls reject. A later call starts a new one. */
  terminate() {
    this._stop(new Error("perfcalc: the worker was terminated"));
  }

  // perfcalc's methods, each with opts.signal (see Perfcalc in perfcalc.d.ts);
  // the instance in the worker checks the other options. The results that
  // hold BigInts get their toJSON back (a structured clone drops it).
  compute(req, opts = {}) { return this.call("compute", [req], opts); }
  computeBatch(reqs, opts = {}) { const { signal, ...o } = opts; return this.call("computeBatch", [Array.from(reqs), o], { signal }); }
  decode(bytes, opts = {}) { const { signal, ...o } = opts; return this.call("decode", [bytes, o], { signal }).then(restoreJSON); }
  query(newer, opts = {}) { const { signal, ...o } = opts; return this.call("query", [newer, o], { signal }).then(restoreJSON); }
  relog(bytes, opts = {}) { const { signal, ...o } = opts; return this.call("relog", [bytes, o], { signal }).then(restoreJSON); }
  stats(bytes, opts = {}) { const { signal, ...o } = opts; return this.call("stats", [bytes, o], { signal }); }
  columns(bytes, opts = {}) { const { signal, ...o } = opts; return this.call("columns", [bytes, o], { signal }).then(restoreJSON); }
  sniff(bytes, opts = {}) { return this.call("sniff", [bytes], opts); }

  /**
   * Compiles the analyze module (perfcalc-analyze.wasm, which perfcalc.wasm
   * leaves out to stay small) once, here, for every worker this object
   * starts: source (as compile() takes it: a page may fetch it itself, to
   * show its size), else createWorker's opts.analyzeModule, or the file
   * beside perfcalc.wasm. analyze calls it; call it to load the module
   * ahead of the first analysis. Once compiled, source is ignored.
   * @returns {Promise<WebAssembly.Module>}
   */
  loadAnalyzer(source = this._analyzeSource) {
    if (!this._analyzeModule) {
      const what = source instanceof URL ? `the analyze module ${source.href}` : "the analyze module";
      this._analyzeModule = compileAnalyzer(source).catch((err) => {
        this._analyzeModule = null; // a failure is not kept
        throw new Error(`perfcalc: loading ${what}: ${err?.message ?? err}`, { cause: err });
      });
    }
    return this._analyzeModule;
  }

  // analyze (issue 24), in the analyze module, compiled by the first call
  // and sent to each worker before its first analysis; the threshold
  // files' bytes are copied to the worker.
  async analyze(log, opts = {}) {
    const { signal, ...o } = opts;
    if (signal?.aborted) throw abortError(signal);
    const module = await this.loadAnalyzer();
    if (!this._worker) this._start();
    if (!this._analyzerSent) {
      this._worker.post({ type: "analyzer", module });
      this._analyzerSent = true;
    }
    return this.call("analyze", [log, o], { signal });
  }
}

// spawner returns a function that starts a worker of a script, behind one
// small interface for Web Workers and Node's worker_threads.
async function spawner() {
  if (isNode) {
    const { Worker } = await import("node:worker_threads");
    return (script) => {
      const w = new Worker(script);
      w.unref(); // an idle worker does not keep Node running; a pending call does (idle(false))
      return {
        onMessage: (fn) => w.on("message", fn),
        onError: (fn) => w.on("error", fn),
        post: (m, transfer) => w.postMessage(m, transfer),
        idle: (yes) => (yes ? w.unref() : w.ref()),
        terminate: () => void w.terminate(),
      };
    };
  }
  return (script) => {
    const w = new Worker(script, { type: "module" });
    return {
      onMessage: (fn) => { w.onmessage = (e) => fn(e.data); },
      onError: (fn) => { w.onerror = (e) => { e.preventDefault?.(); fn(new Error(`perfcalc: the worker failed: ${e.message ?? "its script did not load"}`)); }; },
      post: (m, transfer) => w.postMessage(m, transfer),
      idle: () => {},
      terminate: () => w.terminate(),
    };
  };
}

/**
 * Compiles the module once and starts a worker with an instance of it.
 * @param source the module, as load() takes it (by default perfcalc.wasm beside perfcalc.mjs)
 * @param opts.script a worker script that calls serve() (by default perfcalc-worker.mjs beside this file)
 * @param opts.analyzeModule the analyze module, as load() takes it, compiled by the first analyze
 *   (by default perfcalc-analyze.wasm beside the module when source is its URL, else beside perfcalc.mjs)
 */
export async function createWorker(source, opts = {}) {
  checkOptions(opts, ["script", "analyzeModule"], "createWorker");
  const { script = DEFAULT_SCRIPT, analyzeModule } = opts ?? {};
  const w = new PerfcalcWorker(await compile(source), await spawner(), script, analyzeModule ?? analyzeModuleURL(source));
  await w.call("ping"); // the worker's instance is ready (or its error shows here)
  return w;
}

/**
 * Several workers that read one .blg log at once, each a part of it, for
 * the cores of the machine (ABI.md, "Parts"): decode and relog divide the
 * log into as many byte ranges as there are workers (each of at least 4
 * MiB: MIN_PART_BYTES), each worker reads the whole log's columns and then
 * the rows of its part (the opts.part of Perfcalc's decode and relog), and
 * the parts' records, rows or texts are put one after the other: the same
 * result as one instance's, byte for byte. The other methods run on the
 * first worker. Create it with createPool.
 */
export class PerfcalcPool {
  /** @private use createPool */
  constructor(workers) {
    /** The workers, the first of which runs what is not read in parts. */
    this.workers = workers;
  }

  /** The compiled module. */
  get module() { return this.workers[0].module; }

  /**
   * Keeps bytes (or a Blob) in every worker, so that a log crosses to
   * them once (a PoolRef in place of the bytes). Bytes are copied once
   * into shared memory where the platform has it (Node; a browser page
   * that is cross-origin isolated), else once per worker; every worker
   * reads a Blob itself.
   */
  keep(bytes) {
    let b = bytes;
    if (!isBlob(b)) {
      b = ArrayBuffer.isView(b) ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : new Uint8Array(b);
      if (typeof SharedArrayBuffer === "function" && this.workers.length > 1 && !(b.buffer instanceof SharedArrayBuffer)) {
        try {
          const shared = new Uint8Array(new SharedArrayBuffer(b.byteLength));
          shared.set(b);
          b = shared;
        } catch { /* no shared memory here: each worker gets a copy */ }
      }
    }
    return new PoolRef(this.workers.map((w) => w.keep(b)), isBlob(b) ? b.size : b.byteLength);
  }

  /** Lets go of what keep() kept. */
  release(ref) { ref.refs.forEach((r, i) => this.workers[i].release(r)); }

  /** Stops every worker. */
  terminate() { for (const w of this.workers) w.terminate(); }

  // _parts returns the byte ranges [from, to] (to 0: the end) in which the
  // workers read a log of size bytes: one per worker, each of at least
  // MIN_PART_BYTES (this._minPart, for the tests), at 64 KiB bounds.
  _parts(size) {
    const k = Math.max(1, Math.min(this.workers.length, Math.floor(size / (this._minPart ?? MIN_PART_BYTES))));
    const bounds = [0];
    for (let i = 1; i < k; i++) {
      const b = Math.floor((size * i) / k / 65536) * 65536;
      if (b > bounds[bounds.length - 1]) bounds.push(b);
    }
    bounds.push(0);
    return bounds.slice(0, -1).map((from, i) => [from, bounds[i + 1]]);
  }

  // _inParts calls method on every worker, each with its part of the log
  // (opts.part), and returns their results in part order: one result when
  // the log is read in one piece.
  // In pid mode (opts.identity "pid") the log is read in one piece, by
  // the first worker: a part would start without the processes of the
  // sample before it, and its breaks and reused PIDs at its start would go
  // uncounted.
  _inParts(method, bytes, opts) {
    if (opts && opts.part !== undefined) return Promise.reject(new TypeError("perfcalc: a pool chooses the parts itself: no part option"));
    if (opts?.identity === "pid") return this.workers[0][method](bytes instanceof PoolRef ? bytes.refs[0] : bytes, opts).then((r) => [r]);
    return this.inParts((w, ref, part) => w[method](ref, part ? { ...opts, part } : opts), bytes);
  }

  /**
   * Runs call(worker, ref, part) on every worker with its part of the log
   * bytes (a PoolRef, bytes or a Blob): ref the log kept in that worker,
   * part [from, to] (byte offsets for decode's and relog's opts.part, or
   * an extra method of the workers' script that passes it on), undefined
   * when the log is read in one piece; returns the calls' results in part
   * order, for the caller to put together (records, rows or texts one
   * after the other, up to the first part that reports a damage).
   */
  async inParts(call, bytes) {
    const own = !(bytes instanceof PoolRef);
    const ref = own ? this.keep(bytes) : bytes;
    try {
      const parts = this._parts(ref.byteLength);
      return await Promise.all(parts.map((part, i) => call(this.workers[i], ref.refs[i], parts.length > 1 ? part : undefined)));
    } finally {
      if (own) this.release(ref);
    }
  }

  /**
   * decode (see PerfcalcWorker.decode); a .blg log (kind "blg", or a PoolRef
   * or bytes sniffed as one) is read in parts.
   */
  async decode(bytes, opts = {}) {
    if ((opts.kind ?? "blg") !== "blg" || (!(bytes instanceof PoolRef) && opts.kind === undefined && (await this.workers[0].sniff(bytes)) !== "blg")) {
      return this.workers[0].decode(bytes instanceof PoolRef ? bytes.refs[0] : bytes, opts);
    }
    const parts = await this._inParts("decode", bytes, { ...opts, kind: "blg" });
    const out = parts[0];
    if (parts.length === 1) return out;
    out.records = upToDamage(parts, (p) => p.records);
    out.damage = parts.find((p) => p.damage)?.damage ?? null;
    return out;
  }

  /**
   * relog (see PerfcalcWorker.relog), the log read in parts: relog's text
   * (the parts' texts one after the other) or its columns and rows.
   */
  async relog(bytes, opts = {}) {
    // A .blg log is written whole, by the first worker.
    if (String(opts.format).toLowerCase() === "bin") return this.workers[0].relog(bytes instanceof PoolRef ? bytes.refs[0] : bytes, opts);
    if (opts.format === undefined) {
      const parts = await this._inParts("relog", bytes, opts);
      const out = parts[0];
      if (parts.length === 1) return out;
      out.rows = upToDamage(parts, (p) => p.rows);
      out.columns = out.columns.map((c, i) => c ?? parts.find((p) => p.columns[i] !== undefined)?.columns[i]);
      out.damage = parts.find((p) => p.damage)?.damage ?? null;
      return out;
    }
    const { strict, details, ...o } = opts;
    const parts = await this._inParts("relog", bytes, { ...o, details: true });
    const damage = parts.find((p) => p.damage)?.damage ?? null;
    const text = upToDamage(parts, (p) => [p.text]).join("");
    const skippedEvents = parts[0].skippedEvents;
    if (damage && strict) {
      const err = new PerfcalcError(CODE_MALFORMED, damage);
      err.partial = text;
      err.skippedEvents = skippedEvents;
      throw err;
    }
    if (!details) return text;
    const out = { text, damage, skippedEvents };
    if (parts[0].identityBreaks !== undefined) out.identityBreaks = parts[0].identityBreaks; // pid: one part
    if (parts[0].namesUnknown !== undefined) out.namesUnknown = parts[0].namesUnknown; // every part names the same columns
    return out;
  }

  // The methods that read the whole log, on the first worker.
  stats(bytes, opts) { return this.workers[0].stats(bytes instanceof PoolRef ? bytes.refs[0] : bytes, opts); }
  columns(bytes, opts) { return this.workers[0].columns(bytes instanceof PoolRef ? bytes.refs[0] : bytes, opts); }
  sniff(bytes, opts) { return this.workers[0].sniff(bytes instanceof PoolRef ? bytes.refs[0] : bytes, opts); }
}

/** A log kept in every worker of a pool (PerfcalcPool.keep). */
export class PoolRef {
  /** @private */
  constructor(refs, byteLength) {
    this.refs = refs;
    this.byteLength = byteLength;
  }
}

// upToDamage concatenates the arrays that items gives of the parts, up to
// the first damaged part (the parts after it add nothing: the log's rows end
// at its damage).
function upToDamage(parts, items) {
  const out = [];
  for (const p of parts) {
    for (const x of items(p)) out.push(x);
    if (p.damage) break;
  }
  return out;
}

/**
 * Starts n workers (by default one per core, at most 8) of the module, for
 * reading logs in parts (PerfcalcPool).
 * @param source the module, as createWorker takes it
 * @param opts.workers the number of workers
 * @param opts.script, opts.analyzeModule as for createWorker
 */
export async function createPool(source, opts = {}) {
  checkOptions(opts, ["workers", "script", "analyzeModule"], "createPool");
  const { workers, ...rest } = opts ?? {};
  const n = workers ?? Math.min(8, await cores());
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new RangeError(`perfcalc: createPool: workers is ${n}: want 1 to 64`);
  const first = await createWorker(source, rest);
  const more = await Promise.all(Array.from({ length: n - 1 }, () => createWorker(first.module, rest)));
  return new PerfcalcPool([first, ...more]);
}

// cores returns the machine's logical cores.
async function cores() {
  if (isNode) return (await import("node:os")).availableParallelism?.() ?? 2;
  return globalThis.navigator?.hardwareConcurrency ?? 2;
}

/**
 * The worker side: answers the calls of a PerfcalcWorker with an instance
 * of the module it sends. extra adds methods, each called with the instance
 * first: extra[name](pc, ...args); a method may return a Transfer.
 */
export async function serve(extra = {}) {
  let port;
  if (isNode) {
    port = (await import("node:worker_threads")).parentPort;
  } else {
    port = { on: (_, fn) => { self.onmessage = (e) => fn(e.data); }, postMessage: (m, t) => self.postMessage(m, t) };
  }
  let module = null, pc = null, analyzer = null;
  const kept = new Map();
  // An argument's bytes: kept ones by reference, a Blob read here.
  const resolve = async (v) => {
    if (v && typeof v === "object" && "$ref" in v) return kept.get(v.$ref);
    return isBlob(v) ? new Uint8Array(await v.arrayBuffer()) : v;
  };
  const resolveAll = (a) => (a && a.constructor === Object && !("$ref" in a)
    ? Promise.all(Object.entries(a).map(async ([k, v]) => [k, await resolve(v)])).then(Object.fromEntries) : resolve(a));
  let queue = Promise.resolve();
  const run = async (m) => {
    try {
      pc ??= await load(module, analyzer ? { analyzeModule: analyzer } : {});
      if (m.method === "ping") return port.postMessage({ id: m.id, ok: true, value: true });
      const args = await Promise.all(m.args.map(resolveAll));
      let fn = Object.hasOwn(extra, m.method) ? extra[m.method] : null;
      if (!fn && METHODS.includes(m.method)) fn = (p, ...a) => p[m.method](...a);
      if (!fn) throw new Error(`perfcalc: the worker has no method ${m.method}`);
      let value = await fn(pc, ...args);
      let transfer = [];
      if (value instanceof Transfer) ({ value, list: transfer } = value);
      port.postMessage({ id: m.id, ok: true, value }, transfer);
    } catch (err) {
      if (!(err instanceof PerfcalcError)) pc = null; // a trap leaves the instance unusable: the next call loads another
      port.postMessage({ id: m.id, ok: false, error: errorFields(err) });
    }
  };
  port.on("message", (m) => {
    switch (m.type) {
      case "init": module = m.module; break;
      case "analyzer": // the compiled analyze module, before the first analyze
        analyzer = m.module;
        if (pc) pc._analyzeSource = analyzer;
        break;
      case "put": // in the queue: a Blob is read before the calls that use it run
        queue = queue.then(async () => kept.set(m.id, isBlob(m.bytes) ? new Uint8Array(await m.bytes.arrayBuffer()) : m.bytes)).catch(() => {});
        break;
      case "drop": kept.delete(m.id); break;
      case "call": queue = queue.then(() => run(m)); break;
    }
  });
}
