// The viewer's interactive worker as a pool (issue 25, item 2): the
// methods the page calls on one worker (call, keep, columns, query,
// module), with series — the charted counters of a .blg log — read in
// parts by every worker of the pool at once (PerfcalcPool.inParts; the
// worker script's series takes the part) and put together in part order:
// the same series as one worker's, value for value and text for text; and
// csv — relog's CSV of a .blg log — read in parts too (PerfcalcPool.relog:
// the parts' texts one after the other, byte for byte one worker's). Both
// results say in how many parts the log was read (parts). Everything else
// runs on the pool's first worker.

import { PoolRef } from "../worker.mjs";

/**
 * Wraps pool (createPool with the viewer's worker script) as the viewer's
 * worker.
 * @param {import("../worker.mjs").PerfcalcPool} pool
 */
export function viewerWorker(pool) {
  const first = pool.workers[0];
  // first's BytesRef for a PoolRef (the other methods' inputs, and their
  // options' values, as PerfcalcWorker.call reads them).
  const ref0 = (x) => (x instanceof PoolRef ? x.refs[0] : x);
  const own = (x) => (x && x.constructor === Object ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, ref0(v)])) : ref0(x));
  return {
    module: pool.module,
    pool,
    keep: (bytes) => pool.keep(bytes),
    release: (ref) => pool.release(ref),
    terminate: () => pool.terminate(),
    columns: (ref, opts) => first.columns(own(ref), own(opts)),
    query: (ref, opts) => first.query(own(ref), own(opts)),
    call(method, args = [], opts = {}) {
      // By process ID (identity "pid"), one worker reads the whole log:
      // a part would start without the processes of the sample before it.
      if (method === "series" && args[0] instanceof PoolRef && args[3] !== "pid") {
        const [ref, paths, , identity, translate] = args;
        return pool.inParts((w, r, part) => w.call("series", [r, paths, part, identity, translate], opts), ref).then((ps) => ({ ...joinSeries(ps), parts: ps.length }));
      }
      if (method === "csv" && args[0] instanceof PoolRef) {
        // The worker script's csv, its text read in parts: relog's CSV of
        // these columns (all when none) with digits, of the samples in
        // range; extra, the columns the patterns select beyond those asked.
        const [ref, paths, digits, range = {}, translate] = args;
        const { signal } = opts;
        const parts = pool._parts(ref.byteLength).length;
        return Promise.all([
          pool.relog(ref, { format: "csv", counters: paths, digits, ...range, translate, signal }),
          paths.length === 0 ? null : first.columns(ref.refs[0], { counters: paths, identity: range.identity, translate, signal }),
        ]).then(([text, cols]) => ({ text, extra: cols === null ? 0 : cols.columns.length - paths.length, parts }));
      }
      return first.call(method, args.map(own), opts);
    },
  };
}

/**
 * Puts the series results of a log's parts together, in part order, up to
 * the first part that met a damage (the log's rows end there): each
 * counter's arrays one after the other, and its exact texts (JSON arrays)
 * joined.
 */
export function joinSeries(parts) {
  if (parts.length === 1) return parts[0];
  const end = parts.findIndex((p) => p.damage);
  const used = end < 0 ? parts : parts.slice(0, end + 1);
  const out = { damage: end < 0 ? parts[0].damage : parts[end].damage, rows: parts[0].rows, series: [] };
  for (let k = 0; k < parts[0].series.length; k++) {
    const ss = used.map((p) => p.series[k]);
    const s = { path: ss[0].path };
    for (const name of ["rows", "times", "values", "statuses"]) s[name] = concat(ss.map((x) => x[name]));
    if (ss[0].text) {
      s.text = {};
      for (const name of Object.keys(ss[0].text)) s.text[name] = joinJSON(ss.map((x) => x.text[name]));
    }
    out.series.push(s);
  }
  return out;
}

// concat puts typed arrays of one type one after the other.
function concat(arrays) {
  const out = new arrays[0].constructor(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

// joinJSON joins the texts of flat JSON arrays into the text of one.
function joinJSON(texts) {
  return "[" + texts.map((t) => t.slice(1, -1)).filter((t) => t.length > 0).join(",") + "]";
}
