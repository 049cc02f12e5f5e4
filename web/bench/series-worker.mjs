// The worker script of bench/parallel.bench.mjs: the package's methods and
// series, what the viewer's worker (viewer/worker.mjs) returns to chart
// columns of a log (decode_blg selecting them, each column's times and
// values as typed arrays moved to the page), here of one part of the log
// (opts.part), for PerfcalcPool.inParts.
import { Transfer, serve } from "../worker.mjs";

await serve({
  series(pc, bytes, paths, part) {
    const d = pc.decode(bytes, { kind: "blg", counters: paths, part });
    const n = d.records.length;
    const times = new BigInt64Array(n), values = new Float64Array(n), columns = new Uint32Array(n);
    d.records.forEach((r, i) => {
      times[i] = r.time;
      values[i] = r.status === "Valid" ? r.value : NaN;
      columns[i] = r.column;
    });
    return new Transfer({ damage: d.damage, rows: d.rows, times, values, columns }, [times.buffer, values.buffer, columns.buffer]);
  },
});
