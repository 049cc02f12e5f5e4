"""The Spark reader's split of a log over the module's limit for one call
(2,097,152 values): perfcalc.spark.read_parts, which the executors run,
without Spark (these tests run with PYTHON_SPARK=0 too; test_spark.py reads
the same log through Spark)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import perfcalc
from perfcalc.spark import read_parts, split_part

from conftest import native_long


def _cover(part, size, depth):
    """The parts of (0, 0) halved depth times."""
    if depth == 0:
        return [part]
    halves = split_part(part, size)
    if halves is None:
        return [part]
    return _cover(halves[0], size, depth - 1) + _cover(halves[1], size, depth - 1)


@pytest.mark.parametrize("size", [0, 4096, 65536, 131071, 131072, 131073, 10 << 20, 120_000_000 + 12345])
def test_split_part_cuts_at_64k_bounds_and_covers_the_log(size):
    parts = _cover((0, 0), size, 6)
    # One piece for a log of less than two 64 KiB blocks; else halves at 64 KiB bounds.
    if size < 2 * 65536:
        assert parts == [(0, 0)]
        return
    assert len(parts) >= 2 and len(parts) <= 2**6
    assert parts[0][0] == 0 and parts[-1][1] == 0  # from the start to the end
    for (a, b), (c, _) in zip(parts, parts[1:]):
        assert b == c and b % 65536 == 0 and a < b  # contiguous, cut at 64 KiB bounds
    assert split_part((0, 65536), size) is None
    assert split_part((65536, 131072), size) is None


def test_read_parts_reads_a_log_over_the_limit_whole(over_limit_log, native):
    data = over_limit_log.read_bytes()
    with pytest.raises(perfcalc.LimitError, match="at most 2,097,152 values"):
        perfcalc.read_blg(data)
    got = list(read_parts(data))
    assert all(error is None for _, error in got), [e for _, e in got if e]
    tables = [t for t, _ in got]
    assert len(tables) >= 2 and all(t.num_rows <= perfcalc._abi.MAX_RECORDS for t in tables)
    whole = pa.concat_tables(tables)
    assert whole.num_rows > perfcalc._abi.MAX_RECORDS

    times, paths, values = native_long(native, over_limit_log)
    assert whole.num_rows == len(values)
    assert pc.all(pc.equal(whole["path"], pa.array(paths))).as_py()
    local = pc.utf8_slice_codeunits(pc.strftime(whole["local_time"], format="%Y-%m-%dT%H:%M:%S"), 0, 23)
    assert local.to_pylist() == times
    have = whole["value"].to_numpy(zero_copy_only=False).astype(np.float64)
    assert np.array_equal(np.isnan(have), np.isnan(values))
    ok = ~np.isnan(values)
    assert np.array_equal(have[ok].view(np.uint64), values[ok].view(np.uint64))


def test_read_parts_of_a_small_log_is_one_call_and_errors_are_rows():
    from conftest import need_corpus

    d = need_corpus() / "blg"
    data = (d / "Tx_BasicPerfCounters.blg").read_bytes()
    got = list(read_parts(data))
    assert len(got) == 1 and got[0][1] is None
    assert got[0][0].equals(perfcalc.read_blg(data))
    # A damaged log: its rows before the damage, then its error.
    bad = (d / "PowerShell_CorruptBlg.blg").read_bytes()
    got = list(read_parts(bad))
    assert got[-1][0] is None and got[-1][1]
    assert list(read_parts(b"not a log"))[-1][1]
