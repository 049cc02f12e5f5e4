"""relog(format="bin") against the native perfcalc relog -f bin -o: the
same .blg bytes, on the real logs, with and without a selection."""

from __future__ import annotations

import pytest

import perfcalc

from conftest import need_corpus, run_native

TX = "Tx_BasicPerfCounters.blg"
LOGS = [TX, "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"]
PROCESSOR = r"\\*\Processor(*)\% Processor Time"


def native_bin(native, tmp_path, log, *args) -> bytes:
    out = tmp_path / "out.blg"
    run_native(native, "relog", log, "-f", "bin", "-o", out, *args)
    return out.read_bytes()


@pytest.mark.parametrize("name", LOGS)
def test_bin_equals_native(native, tmp_path, name):
    log = need_corpus() / "blg" / name
    want = native_bin(native, tmp_path, log)
    have = perfcalc.relog(log, format="bin")
    assert isinstance(have, bytes) and len(have) > 0x10000
    assert have == want, f"{name}: {len(have)} bytes, native {len(want)}"
    # The log written reads back to the input's CSV.
    assert perfcalc.relog(have) == perfcalc.relog(log)


def test_bin_selection_equals_native(native, tmp_path):
    log = need_corpus() / "blg" / TX
    args = ["-c", PROCESSOR, "-b", "02/19/2013 18:52:00", "-e", "2013-02-19T18:55:00", "-t", "3"]
    want = native_bin(native, tmp_path, log, *args)
    have = perfcalc.relog(log, PROCESSOR, "2013-02-19T18:52:00", "2013-02-19T18:55:00", every=3, format="bin")
    assert have == want
    text = perfcalc.relog(have)
    assert text == perfcalc.relog(log, PROCESSOR, "2013-02-19T18:52:00", "2013-02-19T18:55:00", every=3)
    assert text.count("\n") > 2 and "Processor(_Total)" in text.splitlines()[0]


def test_bin_counters_of_every_log(native, tmp_path):
    for name in LOGS:
        log = need_corpus() / "blg" / name
        want = native_bin(native, tmp_path, log, "-c", r"\\*\Processor(*)\*")
        assert perfcalc.relog(log, r"\\*\Processor(*)\*", format="bin") == want, name


def test_bin_no_match_raises_as_native(native):
    log = need_corpus() / "blg" / TX
    p = run_native(native, "relog", log, "-f", "bin", "-c", r"\Nope\*", check=False)
    assert p.returncode != 0
    with pytest.raises(perfcalc.Error):
        perfcalc.relog(log, r"\Nope\*", format="bin")
