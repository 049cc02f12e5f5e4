"""relog(workers=n): a log read in parts by n threads, one instance of the
module each (log_part), the same text as one instance's and as the native
command's, byte for byte; a damaged log ends at its damage."""

from __future__ import annotations

import subprocess

import pytest

import perfcalc
from perfcalc import _api

from conftest import need_corpus


@pytest.fixture
def small_parts(monkeypatch):
    monkeypatch.setattr(_api, "_MIN_PART_BYTES", 64 << 10)


def test_parts_are_one_instance_text(small_parts, native):
    corpus = need_corpus()
    for name in ["Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg"]:
        path = corpus / "blg" / name
        log = path.read_bytes()
        assert len(_api._log_parts(len(log), 3)) >= 2, name
        for kw in [{}, {"counters": "\\Processor(*)\\*"}, {"every": 2}, {"format": "json"}]:
            one = perfcalc.relog(log, **kw)
            for n in (2, 3):
                assert perfcalc.relog(log, workers=n, **kw) == one, (name, n, kw)
        want = subprocess.run([native, "relog", "-f", "csv", str(path)], capture_output=True, check=True).stdout.decode()
        assert perfcalc.relog(log, workers=2) == want, name


def test_parts_of_a_damaged_log(small_parts):
    log = (need_corpus() / "blg" / "Tx_BasicPerfCounters.blg").read_bytes()
    cut = log[: len(log) * 2 // 3 + 1000]  # truncated inside a buffer
    assert len(_api._log_parts(len(cut), 2)) == 2
    one = perfcalc.relog(cut, damaged="keep")
    assert perfcalc.relog(cut, damaged="keep", workers=2) == one
    with pytest.raises(perfcalc.DamagedError) as a:
        perfcalc.relog(cut)
    with pytest.raises(perfcalc.DamagedError) as b:
        perfcalc.relog(cut, workers=2)
    assert str(a.value) == str(b.value) and a.value.partial == b.value.partial


def test_parts_need_large_logs_and_sane_workers():
    assert _api._log_parts(1 << 20, 4) == [None]
    assert _api._log_parts(9 << 20, 4) == [(0, 4718592), (4718592, 0)]
    assert len(_api._log_parts(100 << 20, 4)) == 4
    with pytest.raises(perfcalc.ArgumentError):
        perfcalc.relog(b"", workers=0)
