// Names in any language: the JS package's Translator (web/names.mjs) over
// the module's columns of the real logs rewritten in German, French and
// Spanish gives the paths perfcalc relog -q --names-lang en gives.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Translator, parseCompact } from "../names.mjs";
import { CORPUS, ROOT, loadModule, nativeBin, runNative } from "./helpers.mjs";

const COUNTERLANG = join(ROOT, "..", "shared", "pal", "CounterLang.xml");
const skip = CORPUS === null || !existsSync(COUNTERLANG) ? "the shared folder (../shared) is absent" : false;

test("the compact form: entries and errors", () => {
  const entries = [];
  parseCompact("perfcalc-names 1\r\no\tdeDE\tProcessor\tProzessor\n# c\n\nc\tdeDE\tProcessor\t% Processor Time\tProzessorzeit (%)\n", (e) => entries.push(e));
  assert.deepEqual(entries, [
    { kind: "o", lang: "deDE", object: "", english: "Processor", local: "Prozessor" },
    { kind: "c", lang: "deDE", object: "Processor", english: "% Processor Time", local: "Prozessorzeit (%)" },
  ]);
  assert.throws(() => parseCompact("x\n", () => {}), /line 1: is not the header/);
  assert.throws(() => parseCompact("perfcalc-names 1\nx\ta\tb\tc\n", () => {}), /line 2: kind is not o, c or n/);
  assert.throws(() => parseCompact("perfcalc-names 1\nc\ta\tb\tc\n", () => {}), /line 2: has 4 fields/);
  const t = new Translator("perfcalc-names 1\nc\tfrFR\tProcess\tVirtual Bytes\tTaille virtuelle (octets)\nc\tfrFR\tProcess\tVirtual Bytes Peak\tTaille virtuelle (octets)\n");
  assert.deepEqual(t.counter("Process", "taille virtuelle (OCTETS)"), { text: "taille virtuelle (OCTETS)", status: "ambiguous" });
  assert.equal(t.ambiguities.length, 1);
});

test("the real logs in German, French and Spanish translate as perfcalc --names-lang en", { skip }, async () => {
  const pc = await loadModule();
  const dir = mkdtempSync(join(tmpdir(), "perfcalc-names-"));
  for (const lang of ["deDE", "frFR", "esES"]) {
    const compact = runNative("perfcalc", ["names", "--compact", COUNTERLANG, "--lang", lang]);
    const tr = new Translator(compact);
    for (const name of ["Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"]) {
      const local = join(dir, `${lang}-${name}`);
      execFileSync("go", ["run", "./tools/blgrename/cmd/localize", "-counterlang", COUNTERLANG, "-lang", lang, join(CORPUS, "blg", name), local], { cwd: ROOT });
      const want = runNative("perfcalc", ["relog", join(CORPUS, "blg", name), "-q"]).split(/\r?\n/).filter((l) => l.startsWith("\\\\"));
      const run = spawnSync(nativeBin("perfcalc"), ["relog", local, "-q", "--names-lang", "en", "--names-file", COUNTERLANG], { encoding: "utf8" });
      const native = run.stdout.split(/\r?\n/).filter((l) => l.startsWith("\\\\"));
      const note = /names not translated \(kept as they are\): (.*)/.exec(run.stderr);
      assert.deepEqual(native, want, `${lang} ${name}: the command`);
      const cols = tr.columns(pc.columns(readFileSync(local)));
      assert.deepEqual(cols.columns.map((c) => c.path), want, `${lang} ${name}: JS`);
      assert.deepEqual(cols.namesUnknown, note === null ? [] : note[1].split("; ").sort(), `${lang} ${name}: the names not translated`);
      const plain = pc.columns(readFileSync(local)).columns.map((c) => c.path);
      assert.notDeepEqual(plain, want, `${lang} ${name}: the localized log is in English`);
    }
  }
});
