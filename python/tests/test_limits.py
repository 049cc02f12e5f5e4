"""Arguments and inputs beyond the module's limits are refused before any
work, with the specific error class (issue 26, item 10)."""

from __future__ import annotations

import datetime
import io
import resource
import time

import pytest

import perfcalc

from conftest import need_corpus


@pytest.mark.parametrize("every", [2**32, 2**32 + 5, 2**30 + 1, -1])
def test_every_out_of_range_is_refused(every):
    """every is a u32 of the module: 2**32 wrapped to 0 (every sample) and
    2**32+5 to 5, without a word."""
    log = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    for fn in (perfcalc.read_blg, perfcalc.relog, perfcalc.stats):
        with pytest.raises(perfcalc.ArgumentError, match=r"every=.*want 0 to 2\^30") as e:
            fn(log, every=every)
        assert e.value.code == perfcalc._abi.CODE_ARGUMENT


def test_every_within_range_reads():
    log = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    assert perfcalc.relog(log, every=2**30).count("\n") == 2  # the header and the first sample


@pytest.mark.parametrize("end", [datetime.datetime(1601, 1, 1), "1601-01-01T00:00:00", 0])
def test_end_at_filetime_zero_is_an_end(end):
    """end=datetime(1601, 1, 1) (FILETIME 0) is an end before every sample,
    as perfcalc relog -e 1601-01-01: it meant no end, every sample kept."""
    log = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    assert perfcalc.read_blg(log, end=end).num_rows == 0
    assert perfcalc.relog(log, end=end).count("\n") <= 1  # at most the header
    assert perfcalc.stats(log, end=end)["count"].to_pylist() == [0] * perfcalc.stats(log, end=end).num_rows
    assert perfcalc.read_blg(log, end=None).num_rows > 0


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_file_beyond_the_input_buffer_is_refused_unread(tmp_path):
    """A 2 GB file (sparse) is refused from its size with LimitError; it
    was read whole into memory first (2 GB), then refused with the base
    perfcalc.Error."""
    big = tmp_path / "sparse.blg"
    with open(big, "wb") as f:
        f.truncate(2 << 30)
    before = _maxrss_mb()
    start = time.monotonic()
    for source in (big, str(big)):
        with pytest.raises(perfcalc.LimitError, match=r"sparse\.blg: 2,147,483,648 bytes \(not read\)") as e:
            perfcalc.read_blg(source)
        assert e.value.code == perfcalc._abi.CODE_LIMIT
    with open(big, "rb") as f, pytest.raises(perfcalc.LimitError, match="not read"):
        perfcalc.relog(f)
    assert time.monotonic() - start < 5
    assert _maxrss_mb() - before < 256, f"peak memory grew by {_maxrss_mb() - before:.0f} MB"


def test_input_beyond_the_buffer_is_a_limit_error():
    """Bytes beyond the module's 1 GiB input buffer: LimitError, not the
    base Error."""
    inst = perfcalc._module.instance()
    with pytest.raises(perfcalc.LimitError, match="at most 1,073,741,824"):
        inst.reserve_in(perfcalc._abi.MAX_RESERVE + 1)
    # Bytes from a file object that is not a system file are read as given.
    with pytest.raises(perfcalc.MalformedError):
        perfcalc.read_blg(io.BytesIO(b"\0" * 4096))
