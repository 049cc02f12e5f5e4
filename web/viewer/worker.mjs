// The viewer's worker: perfcalc's module off the page's thread (serve() of
// the package's worker.mjs), with the few methods the viewer needs besides
// the package's own. The page stops it (Cancel) by terminating it.

import { Transfer, serve } from "../worker.mjs";
import { seriesBuffers, seriesOf, seriesTexts } from "./model.mjs";

/** PERF_WILDCARD_COUNTER: a V2 block position whose counters the block names (perfcalc values --ids "*"). */
const NO_COUNTER = 0xffffffff;
/** Block positions given NO_COUNTER when ordering V2 captures without ids. */
const ID_SLOTS = 4096;

await serve({
  /** What a file is: "blg", "v1", "v2", "names" or null (the module's sniff, on 64 KiB of a large file). */
  kind(pc, bytes) {
    return pc.sniff(bytes.length <= 1 << 20 ? bytes : bytes.subarray(0, 1 << 16));
  },

  /**
   * The series of these columns of a log (decode_blg selecting them by
   * path), moved to the page without a copy, with their exact texts; of
   * one part of the log when part ([from, to], byte offsets) is given
   * (the page's pool reads the parts at once: pool.mjs); identity "pid"
   * pairs processes by ID (perfcalc --identity pid).
   */
  series(pc, bytes, paths, part, identity, translate) {
    const d = pc.decode(bytes, { kind: "blg", counters: paths, part, identity, translate });
    const series = paths.map((p) => {
      const s = seriesOf(d.records, p);
      s.text = seriesTexts(s); // the chart's exact texts, written here rather than on the page's thread
      return s;
    });
    return new Transfer({ damage: d.damage, rows: d.rows, series }, series.flatMap(seriesBuffers));
  },

  /**
   * relog's CSV of these columns (all when none), with digits significant
   * digits, of the samples in range (begin and end FILETIMEs, model's
   * rangeOptions: relog -b and -e; none for all; and its identity, as
   * relog --identity), translated (the translate option) when translate
   * is given.
   */
  csv(pc, bytes, paths, digits, range = {}, translate = undefined) {
    const text = pc.relog(bytes, { format: "csv", counters: paths, digits, ...range, translate });
    // What the patterns selected: more than asked when a name has a
    // wildcard, or differs only in case, from another's.
    const extra = paths.length === 0 ? 0 : pc.columns(bytes, { counters: paths, identity: range.identity, translate }).columns.length - paths.length;
    return { text, extra };
  },

  /**
   * The selection as a .blg log (relog format "bin": the bytes of perfcalc
   * relog -f bin -o OUT.blg -c … -b … -e …): these columns (all when none)
   * of the samples in range (and its identity, as relog --identity), their
   * raw values as read, translated when translate is given.
   */
  blg(pc, bytes, paths, range = {}, translate = undefined) {
    const log = pc.relog(bytes, { format: "bin", counters: paths, ...range, translate });
    return new Transfer({ log }, [log.buffer]);
  },

  /**
   * relog's CSV of the values between captures (query's options opts),
   * these counters (all when none), with digits significant digits: what
   * perfcalc values -f csv writes.
   */
  valuesCsv(pc, newer, opts, paths, digits) {
    const text = pc.query(newer, { ...opts, counters: paths, format: "csv", digits });
    const extra = paths.length === 0 ? 0 : pc.query(newer, { ...opts, counters: paths }).length - paths.length;
    return { text, extra };
  },

  /**
   * A capture's time stamp (its PerfTime100nSec), for ordering a pair, or
   * null. V2 blocks that do not name their counter are left out unless ids
   * name them: the time is in every record.
   */
  captureTime(pc, bytes, opts) {
    // decode's options only (opts are query's: counterSet and the viewer's tableNames too).
    const o = opts.regInfo
      ? { kind: "v2", regInfo: opts.regInfo, strings: opts.strings, ids: opts.ids?.length ? opts.ids : new Array(ID_SLOTS).fill(NO_COUNTER) }
      : { kind: "v1", names: opts.names };
    try {
      const d = pc.decode(bytes, o);
      return d.records.length ? d.records[0].time : null;
    } catch {
      return null; // the query reports what is wrong with the capture
    }
  },

});
