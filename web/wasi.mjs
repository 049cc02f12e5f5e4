// A minimal WASI preview-1 shim: exactly the imports that a Go wasip1 reactor
// (perfcalc.wasm) uses, for browsers and Node, without dependencies.
// No files, no arguments, no environment; stdout and stderr go to callbacks
// line by line; clocks come from Date and performance; poll_oneoff sleeps by
// busy-waiting (Go only calls it from time.Sleep, which perfcalc never does).

const ESUCCESS = 0;
const EBADF = 8; // Go's syscall init probes fd_prestat_get(3, 4, …) until EBADF: ENOSYS would make _initialize panic.
const EINVAL = 28;

/** Thrown by proc_exit: the guest asked to exit with `code`. */
export class WASIExit extends Error {
  constructor(code) {
    super(`wasi: proc_exit(${code})`);
    this.code = code;
  }
}

/**
 * Creates the import object's `wasi_snapshot_preview1` namespace.
 * Call `bind(instance)` (or set `memory`) before the guest runs.
 * @param {{stdout?: (line: string) => void, stderr?: (line: string) => void}} [opts]
 */
export function createWASI(opts = {}) {
  // An unknown option throws, as everywhere in the package (perfcalc.mjs's checkOptions).
  for (const k in opts ?? {}) {
    if (opts[k] !== undefined && k !== "stdout" && k !== "stderr") throw new TypeError(`perfcalc: createWASI: unknown option ${JSON.stringify(k)}; createWASI takes stdout, stderr`);
  }
  opts ??= {};
  const sinks = { 1: opts.stdout ?? ((l) => console.log(l)), 2: opts.stderr ?? ((l) => console.error(l)) };
  const pending = { 1: "", 2: "" };
  const decoder = new TextDecoder();
  let memory = null;
  const view = () => new DataView(memory.buffer); // memory may grow: always a fresh view
  const bytes = (ptr, len) => new Uint8Array(memory.buffer, ptr >>> 0, len >>> 0);
  const t0 = typeof performance !== "undefined" ? performance.now() : 0;
  const nowNs = (id) => (id === 0
    ? BigInt(Date.now()) * 1000000n
    : BigInt(Math.round(((typeof performance !== "undefined" ? performance.now() : Date.now()) - t0) * 1e6)) + 1n);

  const imports = {
    args_sizes_get(argc, size) { const v = view(); v.setUint32(argc >>> 0, 0, true); v.setUint32(size >>> 0, 0, true); return ESUCCESS; },
    args_get() { return ESUCCESS; },
    environ_sizes_get(n, size) { const v = view(); v.setUint32(n >>> 0, 0, true); v.setUint32(size >>> 0, 0, true); return ESUCCESS; },
    environ_get() { return ESUCCESS; },
    clock_time_get(id, _precision, out) {
      if (id !== 0 && id !== 1) return EINVAL;
      view().setBigUint64(out >>> 0, nowNs(id), true);
      return ESUCCESS;
    },
    random_get(ptr, len) {
      for (let off = 0; off < len; off += 65536) {
        crypto.getRandomValues(bytes(ptr + off, Math.min(65536, len - off)));
      }
      return ESUCCESS;
    },
    fd_write(fd, iovs, iovsLen, nwritten) {
      if (fd !== 1 && fd !== 2) return EBADF;
      const v = view();
      let n = 0;
      for (let i = 0; i < iovsLen; i++) {
        const p = v.getUint32((iovs >>> 0) + 8 * i, true), l = v.getUint32((iovs >>> 0) + 8 * i + 4, true);
        pending[fd] += decoder.decode(bytes(p, l), { stream: true });
        n += l;
      }
      const lines = pending[fd].split("\n");
      pending[fd] = lines.pop();
      for (const line of lines) sinks[fd](line);
      v.setUint32(nwritten >>> 0, n, true);
      return ESUCCESS;
    },
    fd_fdstat_get(fd, out) {
      if (fd > 2) return EBADF;
      const v = view(), p = out >>> 0;
      v.setUint8(p, 2); // filetype: character device
      v.setUint16(p + 2, 0, true); // flags
      v.setBigUint64(p + 8, 0xffffffffn, true); // rights
      v.setBigUint64(p + 16, 0xffffffffn, true);
      return ESUCCESS;
    },
    fd_fdstat_set_flags(fd) { return fd > 2 ? EBADF : ESUCCESS; },
    fd_prestat_get() { return EBADF; }, // no preopened directories
    fd_prestat_dir_name() { return EBADF; },
    proc_exit(code) { throw new WASIExit(code); },
    sched_yield() { return ESUCCESS; },
    poll_oneoff(inPtr, outPtr, nsubs, neventsPtr) {
      // Clock subscriptions only: wait for the earliest deadline, then report
      // every clock subscription that is due.
      const v = view(), subs = [];
      for (let i = 0; i < nsubs; i++) {
        const s = (inPtr >>> 0) + 48 * i;
        if (v.getUint8(s + 8) !== 0) continue; // not a clock
        const id = v.getUint32(s + 16, true), timeout = v.getBigUint64(s + 24, true);
        const abs = (v.getUint16(s + 40, true) & 1) !== 0;
        subs.push({ userdata: v.getBigUint64(s, true), deadline: abs ? timeout : nowNs(id) + timeout, id });
      }
      if (subs.length === 0) { view().setUint32(neventsPtr >>> 0, 0, true); return EINVAL; }
      const first = subs.reduce((a, b) => (b.deadline < a.deadline ? b : a));
      while (nowNs(first.id) < first.deadline) { /* busy-wait */ }
      const w = view();
      let n = 0;
      for (const s of subs) {
        if (nowNs(s.id) < s.deadline) continue;
        const e = (outPtr >>> 0) + 32 * n++;
        w.setBigUint64(e, s.userdata, true);
        w.setUint16(e + 8, 0, true); // error
        w.setUint8(e + 10, 0); // type: clock
      }
      w.setUint32(neventsPtr >>> 0, n, true);
      return ESUCCESS;
    },
  };
  return {
    imports,
    /** Binds the shim to an instance's exported memory. */
    bind(instance) { memory = instance.exports.memory; },
    set memory(m) { memory = m; },
  };
}
