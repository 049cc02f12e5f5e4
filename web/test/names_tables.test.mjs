// Names from a machine's own name tables: perfcalc names --compact turns
// a Vista-era log's embedded table (the PAL log rewritten in German, its
// table too) and an English table (the English PAL log, standing for the
// table it embeds) into the compact form; the module given it (the
// translate option) gives the English log's relog CSV byte for byte, as
// the command does with the same form, and the same names not translated.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORPUS, ROOT, loadModule, nativeBin, runNative } from "./helpers.mjs";

const COUNTERLANG = join(ROOT, "..", "shared", "pal", "CounterLang.xml");
const skip = CORPUS === null || !existsSync(COUNTERLANG) ? "the shared folder (../shared) is absent" : false;

test("the compact form of a log's own table and an English one translates as the command", { skip }, async () => {
  const pc = await loadModule();
  const dir = mkdtempSync(join(tmpdir(), "perfcalc-names-tables-"));
  const english = join(CORPUS, "blg", "PAL_SamplePerfmonLog.blg");
  const local = join(dir, "de-PAL.blg");
  execFileSync("go", ["run", "./tools/blgrename/cmd/localize", "-counterlang", COUNTERLANG, "-lang", "deDE", english, local], { cwd: ROOT });
  const compact = runNative("perfcalc", ["names", "--compact", local, "--compact", english]);
  assert.match(compact, /\nn\tlocal\tProcessor\tProzessor\n/);
  const file = join(dir, "de.names");
  writeFileSync(file, compact);
  const bytes = readFileSync(local);
  const want = runNative("perfcalc", ["relog", english]);
  assert.notEqual(pc.relog(bytes, { format: "csv" }), want, "the German log has the English names");
  const run = spawnSync(nativeBin("perfcalc"), ["relog", local, "--names-lang", "en", "--names-file", file], { encoding: "utf8", maxBuffer: 1 << 28 });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, want, "the command with the compact form: the English log's CSV");
  const have = pc.relog(bytes, { format: "csv", translate: { name: file, data: compact }, details: true });
  assert.equal(have.text, want, "the module with the compact form: the English log's CSV");
  assert.deepEqual(have.namesUnknown, [], "no name left untranslated");
  assert.doesNotMatch(run.stderr, /not translated/);
});
