"""Names in any language: the module translates (``translate=``,
names_load), and its output on the real logs rewritten in German, French
and Spanish (tools/blgrename's localize) is the command's: relog's CSV byte
for byte, the statistics' paths, the long table, the names not translated,
English ``counters`` patterns and analyze's report."""

from __future__ import annotations

import json
import re
import subprocess
import warnings

import pytest

import perfcalc

from conftest import ROOT, need_corpus, run_native

COUNTERLANG = ROOT.parent / "shared" / "pal" / "CounterLang.xml"
LOGS = ["Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"]


def _localize(tmp_path, lang, name):
    log = need_corpus() / "blg" / name
    if not COUNTERLANG.exists():
        pytest.skip(f"PAL's CounterLang.xml is not at {COUNTERLANG}")
    local = tmp_path / f"{lang}-{name}"
    subprocess.run(["go", "run", "./tools/blgrename/cmd/localize", "-counterlang", str(COUNTERLANG), "-lang", lang, str(log), str(local)], cwd=ROOT, check=True)
    return log, local


def _compact(native, tmp_path, lang):
    path = tmp_path / f"{lang}.txt"
    path.write_bytes(run_native(native, "names", "--compact", COUNTERLANG, "--lang", lang).stdout)
    return path


def _unknown(stderr: bytes) -> list:
    note = re.search(r"names not translated \(kept as they are\): (.*)", stderr.decode("utf-8"))
    return note.group(1).split("; ") if note else []


@pytest.mark.parametrize("lang", ["deDE", "frFR", "esES"])
@pytest.mark.parametrize("name", LOGS)
def test_real_logs_translate_as_the_command(native, tmp_path, lang, name):
    log, local = _localize(tmp_path, lang, name)
    compact = _compact(native, tmp_path, lang)
    flags = ["--names-lang", "en", "--names-file", compact]
    # relog's CSV, byte for byte, and the names not translated.
    want = run_native(native, "relog", local, *flags)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        text = perfcalc.relog(local, translate=compact)
    assert text == want.stdout.decode("utf-8")
    unknown = _unknown(want.stderr)
    notes = [w.message for w in caught if isinstance(w.message, perfcalc.NamesNotTranslatedWarning)]
    assert (notes[0].names if notes else []) == unknown
    assert "\\Processor(" not in perfcalc.relog(local), "the localized log is in English"
    # The statistics' paths and the long table's names.
    stats = json.loads(run_native(native, "stats", local, "--json", *flags).stdout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", perfcalc.NamesNotTranslatedWarning)
        have = perfcalc.stats(local, translate=compact)
        table = perfcalc.read_blg(local, translate=("file", compact.read_bytes()))
    assert have.column("path").to_pylist() == [s["counter"] for s in stats]
    meta = have.schema.metadata[b"perfcalc.names_unknown"].decode()
    assert (meta.split("\n") if meta else []) == unknown
    if not unknown:
        english = perfcalc.read_blg(log)
        for col in ("path", "object", "counter", "instance", "machine", "value"):
            assert table.column(col).to_pylist() == english.column(col).to_pylist(), col


@pytest.mark.parametrize("lang", ["deDE", "frFR", "esES"])
def test_english_patterns_match_the_localized_log(native, tmp_path, lang):
    _, local = _localize(tmp_path, lang, "Tx_BasicPerfCounters.blg")
    compact = _compact(native, tmp_path, lang)
    pat = "\\Processor(*)\\% Processor Time"
    want = run_native(native, "relog", local, "-c", pat, "--names-lang", "en", "--names-file", compact).stdout.decode("utf-8")
    assert perfcalc.relog(local, pat, translate=compact.read_text()) == want
    assert len(want.split("\n")[0].split(",")) > 1
    with pytest.raises(perfcalc.InputError, match="no counter"):
        perfcalc.relog(local, pat)


def test_workers_and_analyze(native, tmp_path, monkeypatch):
    log, local = _localize(tmp_path, "deDE", "PAL_SamplePerfmonLog.blg")
    compact = _compact(native, tmp_path, "deDE")
    want = run_native(native, "relog", local, "--names-lang", "en", "--names-file", compact).stdout.decode("utf-8")
    import perfcalc._api as api

    monkeypatch.setattr(api, "_MIN_PART_BYTES", 65536)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", perfcalc.NamesNotTranslatedWarning)
        assert perfcalc.relog(local, translate=compact, workers=3) == want
        german = perfcalc.analyze(local, translate=compact)
    assert german.json == perfcalc.analyze(log).json
    assert perfcalc.analyze(local).json != german.json


def test_translate_errors(tmp_path):
    log = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    with pytest.raises(perfcalc.Error, match="line 2"):
        perfcalc.stats(log, translate="perfcalc-names 1\no\tdeDE\tProcessor\n")
    with pytest.raises(TypeError, match="empty list"):
        perfcalc.stats(log, translate=[])
    # The sources are dropped after each call.
    assert b"perfcalc.names_unknown" not in (perfcalc.stats(log).schema.metadata or {})
