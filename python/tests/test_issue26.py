"""Issue 26 in the Python package: a sample lost to a damaged event header
is noted (SkippedEventsWarning) as perfcalc notes it, and max_columns
refuses a log of more columns as perfcalc --max-columns does."""

from __future__ import annotations

import re
import warnings

import pytest

import perfcalc

from conftest import need_corpus, run_native

# PDH's provider GUID, as the log's events carry it.
PDH = bytes([0xB3, 0x3B, 0x3F, 0x93, 0x3E, 0x94, 0x0D, 0x49, 0x9C, 0xED, 0x3C, 0xBB, 0x14, 0xC1, 0x44, 0x79])


def _tx() -> bytes:
    return (need_corpus() / "blg" / "Tx_BasicPerfCounters.blg").read_bytes()


def _damaged(log: bytes, k: int) -> bytes:
    """log with the provider GUID of its PDH event k (0: the counter list) damaged."""
    at = -1
    for _ in range(k + 1):
        at = log.index(PDH, at + 1)
    b = bytearray(log)
    b[at + 3] = 0
    return bytes(b)


def _skipped(call):
    """Runs call and returns its result and the SkippedEventsWarnings' counts."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = call()
    return out, [w.message.count for w in caught if issubclass(w.category, perfcalc.SkippedEventsWarning)]


def test_skipped_events_are_noted(native, tmp_path):
    log = _tx()
    for name, data in (("intact", log), ("damaged", _damaged(log, 5))):
        f = tmp_path / f"{name}.blg"
        f.write_bytes(data)
        p = run_native(native, "relog", f, "-f", "csv")
        note = re.search(r": (\d+) events? (?:was|were) skipped", p.stderr.decode())
        want = [int(note.group(1))] if note else []
        assert want == ([1] if name == "damaged" else []), p.stderr.decode()
        text, counts = _skipped(lambda: perfcalc.relog(data, format="csv"))
        assert text == p.stdout.decode() and counts == want
        table, counts = _skipped(lambda: perfcalc.read_blg(data))
        assert counts == want
        meta = table.schema.metadata
        assert meta.get(b"perfcalc.skipped_events") == (str(want[0]).encode() if want else None)
        st, counts = _skipped(lambda: perfcalc.stats(data))
        assert counts == want
        assert (st.schema.metadata or {}).get(b"perfcalc.skipped_events") == (str(want[0]).encode() if want else None)
        if want:
            msg = "perfcalc: 1 event was skipped (not PDH's, or of an unknown type: a damaged event header?); a sample may be missing"
            with pytest.warns(perfcalc.SkippedEventsWarning, match=re.escape(msg)):
                perfcalc.relog(data, format="csv")


def test_max_columns_refuses_as_the_command(native):
    log = _tx()
    f = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    n = len(perfcalc.stats(log))
    assert n > 2
    p = run_native(native, "relog", f, "-f", "csv", "--max-columns", n - 1, check=False)
    assert p.returncode == 1
    # perfcalc relog: FILE: more than N columns (…); --max-columns N raises the limit (0: none)
    message = "perfcalc: " + p.stderr.decode().strip()[len(f"perfcalc relog: {f}: ") :].replace("--max-columns N", "max_columns")
    assert re.fullmatch(rf"perfcalc: more than {n - 1} columns .*max_columns raises the limit \(0: none\)", message), message
    calls = {
        "read_blg": lambda **kw: perfcalc.read_blg(log, **kw),
        "relog": lambda **kw: perfcalc.relog(log, format="csv", **kw),
        "stats": lambda **kw: perfcalc.stats(log, **kw),
    }
    for name, call in calls.items():
        with pytest.raises(perfcalc.LimitError) as e:
            call(max_columns=n - 1)
        assert str(e.value) == message and e.value.code == perfcalc._abi.CODE_LIMIT, name
        with pytest.raises(perfcalc.LimitError, match=r"^perfcalc: more than 1 columns "):
            call(max_columns=1)
        for m in (n, 0, 1_000_000):
            call(max_columns=m)  # no error
        call()  # the default again after a refusal
        for bad in (-1, 2**32, 1.5, "10", True):
            with pytest.raises(perfcalc.ArgumentError):
                call(max_columns=bad)
    # A selection of fewer columns fits.
    two = list(perfcalc.stats(log).column("path").to_pylist()[:2])
    assert perfcalc.stats(log, counters=two, max_columns=2).num_rows == 2


def test_star_runs_select_what_one_star_selects():
    log = _tx()
    stars = "*" * 1000  # two runs in a path of at most 2,048 bytes
    one = perfcalc.relog(log, counters=["\\\\*\\Processor(*)\\*", "\\\\*\\Memory\\*"])
    many = perfcalc.relog(log, counters=[f"\\\\*\\Processor({stars})\\{stars}", f"\\\\*\\Memory\\{stars}{stars}"])
    assert many == one and one.count("\n") > 2
