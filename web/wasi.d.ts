// Type declarations of @perfcalc/perfcalc/wasi (wasi.mjs).

/** Thrown by proc_exit. */
export class WASIExit extends Error {
  code: number;
}

export interface WASI {
  /** The wasi_snapshot_preview1 namespace of an import object. */
  imports: Record<string, (...args: any[]) => number>;
  /** Binds the shim to an instance's exported memory. */
  bind(instance: WebAssembly.Instance): void;
  memory: WebAssembly.Memory;
}

/** A minimal WASI preview-1 shim for Go wasip1 reactors: no files, arguments or environment. */
export function createWASI(opts?: { stdout?: (line: string) => void; stderr?: (line: string) => void }): WASI;
