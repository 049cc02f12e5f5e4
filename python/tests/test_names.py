"""Names in any language: Translator over the package's statistics of the
real logs rewritten in German, French and Spanish (tools/blgrename's
localize) gives the paths and the untranslated names of
``perfcalc stats --names-lang en``."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

import perfcalc

from conftest import ROOT, need_corpus, run_native

COUNTERLANG = ROOT.parent / "shared" / "pal" / "CounterLang.xml"


def test_compact_form_and_ambiguity():
    entries = perfcalc.parse_compact("perfcalc-names 1\r\no\tdeDE\tProcessor\tProzessor\n# x\n\nc\tdeDE\tProcessor\t% Processor Time\tProzessorzeit (%)\n")
    assert entries == [("o", "deDE", "", "Processor", "Prozessor"), ("c", "deDE", "Processor", "% Processor Time", "Prozessorzeit (%)")]
    for text, msg in [("x\n", "line 1: is not the header"), ("perfcalc-names 1\nx\ta\tb\tc\n", "line 2: kind"), ("perfcalc-names 1\nc\ta\tb\tc\n", "line 2: has 4 fields")]:
        with pytest.raises(ValueError, match=msg):
            perfcalc.parse_compact(text)
    t = perfcalc.Translator("perfcalc-names 1\nc\tfrFR\tProcess\tVirtual Bytes\tTaille virtuelle (octets)\nc\tfrFR\tProcess\tVirtual Bytes Peak\tTaille virtuelle (octets)\n")
    assert t.counter("Process", "taille virtuelle (OCTETS)") == ("taille virtuelle (OCTETS)", "ambiguous")
    assert len(t.ambiguities) == 1
    assert t.path("\\\\PC\\Prozessor(a/b#1)\\x") == "\\\\PC\\Prozessor(a/b#1)\\x"


@pytest.mark.parametrize("lang", ["deDE", "frFR", "esES"])
@pytest.mark.parametrize("name", ["Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"])
def test_real_logs_translate_as_the_command(native, tmp_path, lang, name):
    log = need_corpus() / "blg" / name
    if not COUNTERLANG.exists():
        pytest.skip(f"PAL's CounterLang.xml is not at {COUNTERLANG}")
    local = tmp_path / f"{lang}-{name}"
    subprocess.run(["go", "run", "./tools/blgrename/cmd/localize", "-counterlang", str(COUNTERLANG), "-lang", lang, str(log), str(local)], cwd=ROOT, check=True)
    compact = run_native(native, "names", "--compact", COUNTERLANG, "--lang", lang).stdout.decode("utf-8")
    want = [s["counter"] for s in json.loads(run_native(native, "stats", log, "--json").stdout)]
    p = run_native(native, "stats", local, "--json", "--names-lang", "en", "--names-file", COUNTERLANG)
    assert [s["counter"] for s in json.loads(p.stdout)] == want
    note = re.search(r"names not translated \(kept as they are\): (.*)", p.stderr.decode("utf-8"))
    plain = perfcalc.stats(local.read_bytes())
    assert plain.column("path").to_pylist() != want
    table, unknown = perfcalc.Translator(compact).table(plain)
    assert table.column("path").to_pylist() == want
    assert unknown == (sorted(note.group(1).split("; ")) if note else [])


def test_long_table_object_counter_and_path(native, tmp_path):
    log = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    if not COUNTERLANG.exists():
        pytest.skip(f"PAL's CounterLang.xml is not at {COUNTERLANG}")
    local = tmp_path / "de.blg"
    subprocess.run(["go", "run", "./tools/blgrename/cmd/localize", "-counterlang", str(COUNTERLANG), "-lang", "deDE", str(log), str(local)], cwd=ROOT, check=True)
    compact = run_native(native, "names", "--compact", COUNTERLANG, "--lang", "deDE").stdout.decode("utf-8")
    want = perfcalc.read_blg(log.read_bytes())
    have, unknown = perfcalc.Translator(compact).table(perfcalc.read_blg(local.read_bytes()))
    assert unknown == []
    for col in ("path", "object", "counter", "instance", "machine"):
        assert have.column(col).to_pylist() == want.column(col).to_pylist(), col
    assert have.column("value").to_pylist() == want.column("value").to_pylist()
