"""read_blg and relog against the native perfcalc relog, on every log of the
real corpus: the same rows, bit-identical values, the same statuses, the
same damage."""

from __future__ import annotations

import datetime as dt
import io
import json
import struct

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import perfcalc

from conftest import corpus_logs, json_lines, need_corpus, run_native

LOGS = corpus_logs()


def bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def readable(log) -> bool:
    return not log.name.startswith("PowerShell_CorruptBlg")


def native_rows(native, log, *args):
    p = run_native(native, "relog", log, "-f", "json", *args, check=False)
    return json_lines(p.stdout), p


def compare(table: pa.Table, rows: list) -> int:
    """Asserts that table holds rows (perfcalc relog -f json) cell for cell;
    returns the number of cells."""
    t = table.to_pydict()
    i = 0
    for r in rows:
        for path, v in r["values"].items():
            assert t["path"][i] == path
            assert t["local_time"][i].isoformat(timespec="milliseconds") == r["time"] or (
                t["local_time"][i].microsecond % 1000 == 0 and t["local_time"][i].isoformat(timespec="milliseconds") == r["time"]
            ), (i, t["local_time"][i], r["time"])
            if v is None:
                assert t["value"][i] is None and t["status"][i] != "Valid", (i, path, t["status"][i])
            else:
                assert t["status"][i] == "Valid" and bits(t["value"][i]) == bits(float(v)), (i, path, t["value"][i], v)
            i += 1
    assert i == table.num_rows, f"the table has {table.num_rows} rows, relog {i} cells"
    return i


@pytest.mark.parametrize("log", [l for l in LOGS if readable(l)], ids=lambda p: p.name)
def test_read_blg_equals_native_relog(native, log):
    rows, p = native_rows(native, log)
    assert p.returncode == 0, p.stderr
    table = perfcalc.read_blg(log)
    assert table.schema.equals(perfcalc.SCHEMA)
    assert compare(table, rows) > 0
    # The same from bytes and from a binary file.
    assert perfcalc.read_blg(log.read_bytes()).equals(table)
    with open(log, "rb") as f:
        assert perfcalc.read_blg(io.BufferedReader(f)).equals(table)


def test_every_corpus_log_is_tested():
    need_corpus()
    assert len(LOGS) >= 4, LOGS


@pytest.mark.parametrize("log", [l for l in LOGS if readable(l)], ids=lambda p: p.name)
def test_read_blg_equals_native_parquet(native, log, tmp_path):
    """Every column, statuses and raw values included, against perfcalc
    relog -f parquet (the long schema's reference)."""
    assert_equals_parquet(native, log, tmp_path)


def assert_equals_parquet(native, log, tmp_path):
    """read_blg(log) equals perfcalc relog -f parquet column for column."""
    out = tmp_path / "log.parquet"
    run_native(native, "relog", log, "-f", "parquet", "-o", out)
    want = plain(pq.read_table(out))
    have = plain(perfcalc.read_blg(log))
    assert have.column_names == want.column_names == perfcalc.SCHEMA.names
    assert have.num_rows == want.num_rows > 0
    # The Parquet file orders each row group by series (then time); the
    # table keeps the log's order: compare both ordered by series and time.
    key = [("path", "ascending"), ("local_time", "ascending")]
    have, want = have.sort_by(key), want.sort_by(key)
    for name in have.column_names:
        h, w = have[name], want[name]
        if name == "value":
            assert (np.asarray(h.is_null()) == np.asarray(w.is_null())).all()
            hv, wv = h.fill_null(0).to_numpy(), w.fill_null(0).to_numpy()
            assert (hv.view(np.uint64) == wv.view(np.uint64)).all()
            continue
        assert h.type == w.type and h.equals(w), name


def test_time_across_a_daylight_saving_change_equals_native_parquet(native, tmp_path):
    """The Tx log with its zone's rules moved so that daylight time ends
    during the log (at 18:55 local, the third Tuesday of February): the
    UTC instants follow the bias in force, as the Parquet output's."""
    src = bytearray((need_corpus() / "blg" / "Tx_BasicPerfCounters.blg").read_bytes())
    tz = src.find("@tzres.dll,-212".encode("utf-16-le")) - 4  # TIME_ZONE_INFORMATION.Bias
    assert tz == 176 and struct.unpack_from("<i", src, tz)[0] == 480
    struct.pack_into("<8H", src, tz + 68, 0, 2, 2, 3, 18, 55, 0, 0)  # StandardDate: Feb, 3rd Tuesday, 18:55
    struct.pack_into("<8H", src, tz + 152, 0, 1, 0, 1, 2, 0, 0, 0)  # DaylightDate: Jan, 1st Sunday, 02:00
    log = tmp_path / "dst.blg"
    log.write_bytes(bytes(src))
    assert_equals_parquet(native, log, tmp_path)
    t = perfcalc.read_blg(log)
    offsets = (pc.subtract(t["time"].cast(pa.timestamp("us")), t["local_time"])).cast(pa.int64()).to_numpy() // 60_000_000
    assert set(offsets.tolist()) == {420, 480}, "daylight time ends during the log"
    assert (np.diff(t["time"].cast(pa.int64()).to_numpy()) >= 0).all(), "the instants keep increasing"


def plain(t: pa.Table) -> pa.Table:
    """t with its dictionary columns as plain strings."""
    cols = [c.cast(pa.string()) if pa.types.is_dictionary(c.type) else c for c in t.columns]
    return pa.Table.from_arrays(cols, names=t.column_names)


@pytest.mark.parametrize("fmt", ["csv", "tsv", "json"])
@pytest.mark.parametrize("digits", [20, 17])
def test_relog_text_equals_native(native, fmt, digits):
    need_corpus()
    for log in filter(readable, LOGS):
        want = run_native(native, "relog", log, "-f", fmt, "--digits", digits).stdout.decode("utf-8")
        assert perfcalc.relog(log, format=fmt, digits=digits) == want, log.name


def test_relog_text_in_pages_equals_native(native, tmp_path):
    """A text of several output buffers (the Tx log repeated 40 times: about
    14 MB of JSON) comes in pages, each resumed by decode_next: the native
    relog's text, byte for byte, and the output buffer is not enlarged (no
    size guessed). In a thread of its own, whose instance is fresh."""
    import subprocess
    import threading

    from perfcalc import _module

    from conftest import ROOT

    log = tmp_path / "big.blg"
    subprocess.run(
        ["go", "run", "./tools/gencorpus/cmd/repeatlog", "-n", "40", "-o", str(log), str(need_corpus() / "blg" / "Tx_BasicPerfCounters.blg")],
        cwd=ROOT,
        check=True,
    )
    want = run_native(native, "relog", log, "-f", "json").stdout.decode("utf-8")
    seen = {}

    def run():
        try:
            inst = _module.instance()
            seen["static"], seen["cursors"] = inst.call("out_cap"), []
            real = inst.call

            def call(name, *args):
                if name == "decode_next":
                    seen["cursors"].append(args[0])
                return real(name, *args)

            inst.call = call
            try:
                seen["text"] = perfcalc.relog(log, format="json")
            finally:
                del inst.call
            seen["cap"] = inst.call("out_cap")
        except BaseException as e:  # noqa: BLE001 - re-raised in the test's thread
            seen["error"] = e

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if "error" in seen:
        raise seen["error"]
    n, static = len(want.encode("utf-8")), seen["static"]
    assert n > 2 * static, "the text must exceed the output buffer twice"
    assert seen["text"] == want
    assert len(seen["cursors"]) == -(-n // static) - 1 and all(c % 2 == 1 for c in seen["cursors"]), seen["cursors"]
    assert seen["cap"] == static, "no output buffer reserved for the text"


def assert_stats(table: pa.Table, want: list) -> None:
    """table (perfcalc.stats) equals want (perfcalc stats --json)."""
    have = table.to_pylist()
    assert len(have) == len(want) > 0
    for h, w in zip(have, want):
        assert (h["path"], h["counter_type"], h["count"], h["skipped"], h["mean_status"]) == (
            w["counter"], w["type"], w["count"], w["skipped"], w["meanStatus"]
        )
        for k in ("min", "max", "mean"):
            assert (h[k] is None) == (w[k] is None) and (h[k] is None or bits(h[k]) == bits(float(w[k]))), (k, h, w)
        # --valid's and --percentiles' figures, where the command printed them.
        if "invalid" in w:
            assert h["invalid"] == w["invalid"], (h, w)
        for k, wk in (("valid_mean", "validMean"), ("p90", "p90"), ("p95", "p95"), ("p99", "p99")):
            if wk in w:
                assert (h[k] is None) == (w[wk] is None) and (h[k] is None or bits(h[k]) == bits(float(w[wk]))), (k, h, w)


def test_stats_equals_native(native):
    need_corpus()
    for log in filter(readable, LOGS):
        want = json.loads(run_native(native, "stats", log, "--json").stdout)
        assert_stats(perfcalc.stats(log), want)
        # The figures that are not PDH's (issue 25), bit for bit.
        want = json.loads(run_native(native, "stats", log, "--json", "--valid", "--percentiles").stdout)
        table = perfcalc.stats(log, percentiles=True)
        assert table.column_names[-5:] == ["invalid", "valid_mean", "p90", "p95", "p99"]
        assert_stats(table, want)
        assert "p90" not in perfcalc.stats(log).column_names
    sel = perfcalc.stats(need_corpus() / "blg" / "Tx_BasicPerfCounters.blg", r"\\*\Processor(*)\*")
    assert sel.num_rows == 5 and all("\\Processor(" in p for p in sel["path"].to_pylist())


def test_selection_equals_native(native):
    log = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    args = ["-c", r"\\*\Processor(*)\% Processor Time", "-b", "02/19/2013 18:52:00", "-e", "2013-02-19T18:55:00", "-t", "3"]
    rows, p = native_rows(native, log, *args)
    assert p.returncode == 0 and rows
    table = perfcalc.read_blg(
        log, r"\\*\Processor(*)\% Processor Time", dt.datetime(2013, 2, 19, 18, 52), "2013-02-19T18:55:00", every=3
    )
    assert compare(table, rows) == 5 * len(rows)
    assert set(table["object"].to_pylist()) == {"Processor"}


def test_columns_of_the_long_schema():
    log = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    t = perfcalc.read_blg(log).to_pandas()
    first = t.iloc[5]  # \\GEORGIS3\Processor(0)\% Processor Time, first sample
    assert (first.machine, first.object, first.instance, first.instance_index, first.counter) == (
        "GEORGIS3", "Processor", "0", 0, "% Processor Time"
    )
    assert first.counter_type == "PERF_100NSEC_TIMER_INV" and first.status == "NewData"
    # Pacific Standard Time: UTC = local + 480 minutes.
    assert (t.time.dt.tz_localize(None) - t.local_time == pd_minutes(480)).all()
    assert t.raw_status.dtype == np.uint32 and (t.raw_first > 0).any()


def pd_minutes(n):
    import pandas as pd

    return pd.Timedelta(minutes=n)


def test_foreign_file_raises_the_native_message(native):
    log = need_corpus() / "blg" / "PowerShell_CorruptBlg.blg"
    p = run_native(native, "relog", log, "-f", "json", check=False)
    assert p.returncode != 0
    with pytest.raises(perfcalc.MalformedError) as e:
        perfcalc.read_blg(log)
    assert e.value.code == perfcalc._abi.CODE_MALFORMED
    assert e.value.message in p.stderr.decode(), (e.value.message, p.stderr)


@pytest.mark.parametrize("cut", [140_000, 200_000, 300_000])
def test_damaged_log_gives_the_rows_before_and_the_native_message(native, tmp_path, cut):
    src = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    log = tmp_path / "cut.blg"
    log.write_bytes(src.read_bytes()[:cut])
    rows, p = native_rows(native, log)
    assert p.returncode == 1 and rows
    with pytest.raises(perfcalc.DamagedError) as e:
        perfcalc.read_blg(log)
    assert e.value.message and e.value.message in p.stderr.decode(), (e.value.message, p.stderr)
    compare(e.value.partial, rows)
    kept = perfcalc.read_blg(log, damaged="keep")
    assert kept.equals(e.value.partial)
    assert kept.schema.metadata[b"perfcalc.damage"].decode() == e.value.message
    with pytest.raises(perfcalc.DamagedError) as e2:
        perfcalc.relog(log, format="json")
    assert e2.value.message == e.value.message
    assert e2.value.partial == p.stdout.decode()
    st = run_native(native, "stats", log, "--json", check=False)
    assert st.returncode == 1
    with pytest.raises(perfcalc.DamagedError) as e3:
        perfcalc.stats(log)
    assert e3.value.message == e.value.message and e3.value.message in st.stderr.decode()
    assert_stats(e3.value.partial, json.loads(st.stdout))


@pytest.mark.parametrize("cut", [0, 100, 4096, 70_000])
def test_truncated_start_raises_like_native(native, tmp_path, cut):
    src = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    log = tmp_path / "cut.blg"
    log.write_bytes(src.read_bytes()[:cut])
    p = run_native(native, "relog", log, "-f", "json", check=False)
    assert p.returncode != 0
    with pytest.raises(perfcalc.Error) as e:
        perfcalc.read_blg(log)
    assert e.value.code < 0 and e.value.message in p.stderr.decode(), (e.value.message, p.stderr)


def test_log_of_headers_only_is_damage_like_native(native, tmp_path):
    # The header buffer alone: 1 of the 6 buffers the header counts
    # (BuffersWritten) is there, which is damage (issue 12), not an empty log.
    src = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    log = tmp_path / "head.blg"
    log.write_bytes(src.read_bytes()[:65_536])
    rows, p = native_rows(native, log)
    assert p.returncode == 1 and rows == [] and b"1 of the 6 buffers" in p.stderr
    with pytest.raises(perfcalc.Error) as e:
        perfcalc.read_blg(log)
    assert e.value.message in p.stderr.decode(), (e.value.message, p.stderr)


def test_bad_pattern_raises_input_error(native):
    log = need_corpus() / "blg" / "Tx_BasicPerfCounters.blg"
    p = run_native(native, "relog", log, "-c", "Processor", check=False)
    with pytest.raises(perfcalc.InputError) as e:
        perfcalc.read_blg(log, "Processor")
    assert e.value.message in p.stderr.decode(), (e.value.message, p.stderr)


def test_log_beyond_the_modules_record_limit_raises_limit_error(tmp_path):
    """A log of more than 2,097,152 values (the Tx log's body repeated)."""
    import subprocess

    from conftest import ROOT

    log = tmp_path / "big.blg"
    subprocess.run(
        ["go", "run", "./tools/gencorpus/cmd/repeatlog", "-n", "480", "-o", str(log), str(need_corpus() / "blg" / "Tx_BasicPerfCounters.blg")],
        cwd=ROOT,
        check=True,
    )
    with pytest.raises(perfcalc.LimitError, match="select counters or a time range") as e:
        perfcalc.read_blg(log)
    assert e.value.code == perfcalc._abi.CODE_LIMIT
    # A selection that fits reads.
    assert perfcalc.read_blg(log, r"\\*\Processor(_Total)\*").num_rows > 200_000


def test_stats_bad_samples():
    """The log of 26 machines: PDH's mean is NegativeValue for every
    counter; the valid values' mean stands, and the 52 bad samples count."""
    t = perfcalc.stats(need_corpus() / "blg" / "PowerShell_BadCounterSamples.blg", percentiles=True).to_pylist()
    assert len(t) == 26 and sum(r["invalid"] for r in t) == 52
    for r in t:
        assert r["mean_status"] == "NegativeValue" and r["mean"] is None, r
        assert r["min"] <= r["valid_mean"] <= r["max"] and r["p90"] <= r["p95"] <= r["p99"] <= r["max"], r
    with pytest.raises(TypeError):
        perfcalc.stats(need_corpus() / "blg" / "PowerShell_BadCounterSamples.blg", percentiles=1)
