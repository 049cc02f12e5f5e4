"""Patterns that select no counter raise InputError, as ``perfcalc relog
-c`` refuses them (issue 25, item 5), in every function that takes
counters; unknown keyword arguments are refused, spark.convert's too. On
testdata/corpus's sample.blg and Global pair (no shared corpus needed)."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest

import perfcalc
import perfcalc.spark
from conftest import TESTDATA, run_native

LOG = TESTDATA / "sample.blg"
G1, G2, NAMES = TESTDATA / "global-1.bin", TESTDATA / "global-2.bin", TESTDATA / "counter-009.multisz"
NONE = [r"\Nope(*)\*", r"\Nope2\*"]
LOG_CALLS = {
    "read_blg": lambda **k: perfcalc.read_blg(LOG, **k).num_rows,
    "relog csv": lambda **k: len(perfcalc.relog(LOG, **k)),
    "relog tsv": lambda **k: len(perfcalc.relog(LOG, format="tsv", **k)),
    "relog json": lambda **k: len(perfcalc.relog(LOG, format="json", **k)),
    "stats": lambda **k: perfcalc.stats(LOG, **k).num_rows,
}


@pytest.mark.parametrize("call", LOG_CALLS.values(), ids=LOG_CALLS.keys())
def test_a_log_selection_of_nothing_raises_as_the_command(call):
    want = r"perfcalc: no counter of the log matches \Nope(*)\* \Nope2\* (perfcalc.stats(log) lists the log's counters)"
    with pytest.raises(perfcalc.InputError) as e:
        call(counters=NONE)
    assert e.value.message == want and e.value.kind == "Input"
    # Before every sample too: the patterns are what selects nothing.
    with pytest.raises(perfcalc.InputError):
        call(counters=NONE, end=dt.datetime(1601, 1, 1))
    # A pattern among others that matches nothing is no error; nor is a
    # time range that keeps no sample.
    assert call(counters=[NONE[0], r"\System\*"]) > 0
    call(counters=r"\System\*", end=dt.datetime(1601, 1, 1))
    call(counters=r"\System\*", begin=dt.datetime(2030, 1, 1))


def test_the_command_refuses_the_same_selection(native):
    p = run_native(native, "relog", LOG, "-c", NONE[0], "-c", NONE[1], check=False)
    assert p.returncode == 1
    assert f"no counter of {LOG} matches {NONE[0]} {NONE[1]}".encode() in p.stderr


def test_read_blg_keeps_nothing_of_a_time_range_without_samples():
    t = perfcalc.read_blg(LOG, counters=r"\System\*", end=dt.datetime(1601, 1, 1))
    assert t.num_rows == 0


@pytest.mark.parametrize("text", [False, True])
def test_a_capture_selection_of_nothing_raises_as_the_command(text):
    f = perfcalc.values_text if text else perfcalc.values
    with pytest.raises(perfcalc.InputError, match=r"^perfcalc: no counter of the newer capture matches \\Nope\(\*\)\\\* \\Nope2\\\*$"):
        f(G1, G2, names=NAMES, counters=NONE)
    # Without the name table, perfcalc values' hint: objects are named by their index.
    with pytest.raises(perfcalc.InputError, match=r"without names, objects and counters are named by their index, as in \\#238"):
        f(G1, G2, counters=r"\Processor(*)\*")
    assert len(f(G1, G2, counters=r"\#238(*)\*")) > 0
    assert len(f(G1, G2, names=NAMES, counters=[NONE[0], r"\Processor(*)\*"])) > 0


def test_unknown_keyword_arguments_are_refused():
    with pytest.raises(TypeError, match="counter"):
        perfcalc.read_blg(LOG, counter=r"\System\*")
    with pytest.raises(TypeError, match=r"convert: unknown option 'evry'; convert takes counters, partition_by, mode and read_blg's every, glob, recursive"):
        perfcalc.spark.convert(None, [str(LOG)], "out", evry=2)


def test_spark_reader_gives_no_row_for_a_log_without_the_counters():
    """The executors' converter (no Spark needed): a log of many without
    the counters is no error row."""
    batch = pa.RecordBatch.from_pydict({"path": [str(LOG)], "content": [LOG.read_bytes()]})

    def rows(counters):
        return sum(b.num_rows for b in perfcalc.spark._converter(counters, 0)([batch]))

    assert rows(NONE) == 0
    assert rows(r"\System\*") == 10
