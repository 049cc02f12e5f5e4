"""relog(format="bin") with identity="pid" and with translate, against the
native perfcalc relog -f bin --identity pid and --names-lang en: the same
.blg bytes, written column by column with the names relog gives."""

from __future__ import annotations

import warnings

import perfcalc

from conftest import need_corpus, run_native
from test_names import _compact, _localize

RUNDLL = r"\Process(rundll32*)\% Processor Time"


def _native_bin(native, tmp_path, log, *args) -> bytes:
    out = tmp_path / "out.blg"
    run_native(native, "relog", log, "-f", "bin", "-o", out, *args)
    return out.read_bytes()


def test_bin_identity_pid_equals_native(native, tmp_path):
    pal = need_corpus() / "blg" / "PAL_SamplePerfmonLog.blg"
    want = _native_bin(native, tmp_path, pal, "-c", RUNDLL, "--identity", "pid")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        have = perfcalc.relog(pal, RUNDLL, format="bin", identity="pid")
        assert have == want
        text = perfcalc.relog(have)
        assert "rundll32:580" in text.split("\n")[0]
        assert text == perfcalc.relog(pal, RUNDLL, identity="pid")


def test_bin_translate_equals_native(native, tmp_path):
    log, local = _localize(tmp_path, "deDE", "Tx_BasicPerfCounters.blg")
    compact = _compact(native, tmp_path, "deDE")
    want = _native_bin(native, tmp_path, local, "--names-lang", "en", "--names-file", compact)
    have = perfcalc.relog(local, format="bin", translate=compact)
    assert have == want
    assert perfcalc.relog(have) == perfcalc.relog(log)
