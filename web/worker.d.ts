// Type declarations of @perfcalc/perfcalc/worker (worker.mjs).

import type {
  Decoded, DecodedBlg, DecodedNames, DecodedV1, DecodedV2, DecodeOptions, LogColumns, LogStatistics, ModuleSource, Options,
  QueryOptions, QueryValue, RelogBin, RelogOptions, RelogRows, RelogText, Request, Result,
} from "./perfcalc";
import type { Analyzed, AnalyzeOptions } from "./perfcalc";

/** Bytes, a Blob (read by the worker), or bytes kept in the worker. */
export type Input = BufferSource | Blob | BytesRef;

/** Every call takes a signal: aborting it stops the worker at once and rejects the call with the signal's reason. */
export interface Abortable { signal?: AbortSignal }

/** Bytes kept in the worker (PerfcalcWorker.keep). */
export class BytesRef {
  private constructor();
  readonly id: number;
  readonly byteLength: number;
}

/** A worker method's result with the buffers to transfer (for serve's extra methods). */
export class Transfer {
  constructor(value: unknown, list: Transferable[]);
}

/** perfcalc's module in a worker (a Web Worker, or a Node worker thread); calls answered in order. */
export class PerfcalcWorker {
  private constructor();
  /** The compiled module, for more workers (createWorker(w.module)) or load(). */
  readonly module: WebAssembly.Module;
  call(method: string, args?: unknown[], opts?: Abortable & { transfer?: Transferable[] }): Promise<unknown>;
  keep(bytes: BufferSource | Blob): BytesRef;
  release(ref: BytesRef): void;
  terminate(): void;
  compute(req: Request, opts?: Abortable): Promise<Result>;
  computeBatch(reqs: Iterable<Request>, opts?: Abortable & { options?: Options }): Promise<Result[]>;
  decode(bytes: Input, opts: DecodeOptions & Abortable & { kind: "v1" }): Promise<DecodedV1>;
  decode(bytes: Input, opts: DecodeOptions & Abortable & { kind: "v2" }): Promise<DecodedV2>;
  decode(bytes: Input, opts: DecodeOptions & Abortable & { kind: "names" }): Promise<DecodedNames>;
  decode(bytes: Input, opts: DecodeOptions & Abortable & { kind: "blg" }): Promise<DecodedBlg>;
  decode(bytes: Input, opts?: DecodeOptions & Abortable): Promise<Decoded>;
  query(newer: Input, opts?: QueryOptions & Abortable): Promise<QueryValue[]>;
  relog(bytes: Input, opts: RelogOptions & Abortable & { format: "bin"; details: true }): Promise<RelogBin>;
  relog(bytes: Input, opts: RelogOptions & Abortable & { format: "bin" }): Promise<Uint8Array>;
  relog(bytes: Input, opts: RelogOptions & Abortable & { format: "csv" | "tsv" | "json"; details: true }): Promise<RelogText>;
  relog(bytes: Input, opts: RelogOptions & Abortable & { format: "csv" | "tsv" | "json" }): Promise<string>;
  relog(bytes: Input, opts?: RelogOptions & Abortable): Promise<RelogRows>;
  stats(bytes: Input, opts?: StatsOptions & Abortable): Promise<LogStatistics>;
  columns(bytes: Input, opts?: Omit<RelogOptions, "format" | "strict" | "digits" | "details"> & Abortable): Promise<LogColumns>;
  sniff(bytes: Input, opts?: Abortable): Promise<"v1" | "v2" | "names" | "blg" | null>;
  /** perfcalc analyze over a .blg log (see Perfcalc.analyze); the threshold files are bytes, not Blobs. */
  analyze(log: Input, opts?: AnalyzeOptions & Abortable): Promise<Analyzed>;
  /** Compiles the analyze module once (createWorker's analyzeModule, or perfcalc-analyze.wasm beside perfcalc.wasm) for every worker; analyze calls it. */
  loadAnalyzer(source?: ModuleSource): Promise<WebAssembly.Module>;
}

/** Compiles the module once and starts a worker with an instance of it; the analyze module is compiled by the first analyze. */
export function createWorker(source?: ModuleSource, opts?: { script?: URL | string; analyzeModule?: ModuleSource }): Promise<PerfcalcWorker>;

/** A log kept in every worker of a pool (PerfcalcPool.keep). */
export class PoolRef {
  private constructor();
  readonly byteLength: number;
}

/**
 * Workers that read one .blg log at once, each a part of it (ABI.md, "Parts"): decode and
 * relog give one instance's result, byte for byte, in about 1/n of the second reading's time
 * (each worker reads the whole log's columns first). Parts are of at least 4 MiB: a smaller
 * log is read by the first worker, which also runs stats, columns and sniff.
 */
export class PerfcalcPool {
  private constructor();
  readonly workers: PerfcalcWorker[];
  readonly module: WebAssembly.Module;
  /** Keeps the bytes in every worker (copied once into shared memory where the platform has it; a Blob is read by each worker). */
  keep(bytes: BufferSource | Blob): PoolRef;
  release(ref: PoolRef): void;
  terminate(): void;
  decode(bytes: Input | PoolRef, opts?: Omit<DecodeOptions, "part"> & Abortable): Promise<Decoded>;
  relog(bytes: Input | PoolRef, opts: Omit<RelogOptions, "part"> & Abortable & { format: "bin"; details: true }): Promise<RelogBin>;
  relog(bytes: Input | PoolRef, opts: Omit<RelogOptions, "part"> & Abortable & { format: "bin" }): Promise<Uint8Array>;
  relog(bytes: Input | PoolRef, opts: Omit<RelogOptions, "part"> & Abortable & { format: "csv" | "tsv" | "json"; details: true }): Promise<RelogText>;
  relog(bytes: Input | PoolRef, opts: Omit<RelogOptions, "part"> & Abortable & { format: "csv" | "tsv" | "json" }): Promise<string>;
  relog(bytes: Input | PoolRef, opts?: Omit<RelogOptions, "part"> & Abortable): Promise<RelogRows>;
  stats(bytes: Input | PoolRef, opts?: Omit<RelogOptions, "format" | "strict" | "digits" | "details" | "part"> & Abortable): Promise<LogStatistics>;
  columns(bytes: Input | PoolRef, opts?: Omit<RelogOptions, "format" | "strict" | "digits" | "details" | "part"> & Abortable): Promise<LogColumns>;
  sniff(bytes: Input | PoolRef, opts?: Abortable): Promise<"v1" | "v2" | "names" | "blg" | null>;
  /** Runs call on every worker with its part of the log ([from, to] byte offsets, undefined for a log read in one piece); the results in part order. */
  inParts<T>(call: (worker: PerfcalcWorker, ref: BytesRef, part: [number, number] | undefined) => Promise<T>, bytes: Input | PoolRef): Promise<T[]>;
}

/** Starts workers (by default one per core, at most 8) for reading logs in parts. */
export function createPool(source?: ModuleSource, opts?: { workers?: number; script?: URL | string; analyzeModule?: ModuleSource }): Promise<PerfcalcPool>;

/** The worker side: answers a PerfcalcWorker's calls; extra methods get the worker's instance first. */
export function serve(extra?: Record<string, (pc: import("./perfcalc").Perfcalc, ...args: any[]) => unknown>): Promise<void>;
