// Options of a wrong type throw a TypeError instead of being ignored
// (issue 26, item 10): counters: 5 selected every counter in silence.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS, ROOT, loadModule } from "./helpers.mjs";

const WRONG = [5, true, {}, new Set(["\\Processor(*)\\*"]), ["\\Processor(*)\\*", 5], [null]];

test("counters of a wrong type throw a TypeError", async (t) => {
  const pc = await loadModule();
  const dir = join(ROOT, "testdata", "corpus");
  const older = readFileSync(join(dir, "global-1.bin")), newer = readFileSync(join(dir, "global-2.bin"));
  const names = readFileSync(join(dir, "counter-009.multisz"));
  const calls = [["query", (counters) => pc.query(newer, { older, names, counters })]];
  if (CORPUS) {
    const log = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
    calls.push(
      ["relog", (counters) => pc.relog(log, { counters })],
      ["relog csv", (counters) => pc.relog(log, { counters, format: "csv" })],
      ["decode", (counters) => pc.decode(log, { counters })],
      ["stats", (counters) => pc.stats(log, { counters })],
      ["columns", (counters) => pc.columns(log, { counters })],
    );
  } else {
    t.diagnostic("../shared/corpus is absent: the .blg calls are not tested");
  }
  for (const [what, call] of calls) {
    for (const counters of WRONG) {
      assert.throws(() => call(counters), (e) => e instanceof TypeError && /perfcalc: counters/.test(e.message), `${what} with counters ${String(counters)}`);
    }
    // The right types still select.
    const one = call("\\Processor(*)\\*"), list = call(["\\Processor(*)\\*"]), none = call(undefined);
    assert.deepEqual(one, list, `${what}: a string and an array of it`);
    assert.notDeepEqual(one, none, `${what}: the selection selects`);
  }
});

// end: 0 (FILETIME 0, 1601-01-01) is an end before every sample, as
// perfcalc relog -e 1601-01-01 (issue 26, item 10): it meant no end.
test("end 0 is an end, not none", async (t) => {
  if (!CORPUS) {
    t.skip("../shared/corpus is absent");
    return;
  }
  const pc = await loadModule();
  const log = readFileSync(join(CORPUS, "blg", "Tx_BasicPerfCounters.blg"));
  for (const end of [0, 0n, "0"]) {
    assert.equal(pc.stats(log, { end }).rows, 0, `stats end ${typeof end}`);
    assert.equal(pc.columns(log, { end }).samples, 0, `columns end ${typeof end}`);
    assert.equal(pc.relog(log, { end }).rows.length, 0, `relog end ${typeof end}`);
    assert.ok(pc.relog(log, { end, format: "csv" }).split("\n").filter(Boolean).length <= 1, `relog csv end ${typeof end}`);
  }
  assert.ok(pc.stats(log, {}).rows > 0);
  assert.ok(pc.stats(log, { end: null }).rows > 0);
});
