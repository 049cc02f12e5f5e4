"""The Spark reader's streamed route (read_blg's stream_above): a large log
listed by Spark without its content and read by the executor's Python
worker itself, in chunks, straight into the module's input. Its reading
and its errors are tested without Spark (perfcalc.spark.read_file_parts,
and the mapInArrow function itself, which the executors run); then in
local[2], its rows against binaryFile's, row for row."""

from __future__ import annotations

import io
import shutil

import pyarrow as pa
import pytest

import perfcalc
import perfcalc.spark
from perfcalc.spark import local_path, read_file_parts, read_parts

from conftest import need_corpus


def _tables(parts):
    parts = list(parts)
    assert all(e is None for _, e in parts), [e for _, e in parts if e]
    return [t for t, _ in parts]


def test_local_path_of_spark_file_uris():
    assert local_path("file:/tmp/a b%20c.blg") == "/tmp/a b%20c.blg"  # Hadoop's Path: not percent-encoded
    assert local_path("file:///tmp/x.blg") == "/tmp/x.blg"
    assert local_path("file://host/tmp/x.blg") == "/tmp/x.blg"
    assert local_path("s3://bucket/x.blg") is None
    assert local_path("hdfs://nn:8020/x.blg") is None


@pytest.mark.parametrize("chunk", [1000, 65536, 0])
def test_read_file_parts_equals_read_parts_of_the_bytes(tmp_path, chunk):
    d = need_corpus() / "blg"
    for name in ("Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg"):
        log = tmp_path / f"a b%20{name}"  # a space and a percent sign in the name
        shutil.copy(d / name, log)
        want = _tables(read_parts(log.read_bytes()))
        got = _tables(read_file_parts("file:" + str(log), chunk=chunk))
        assert len(got) == len(want) == 1 and got[0].equals(want[0])
        # With counters: the patterns lie after the log in the module's input.
        pat = "\\Processor(*)\\% Processor Time"
        want = _tables(read_parts(log.read_bytes(), pat, 2))
        got = _tables(read_file_parts("file:" + str(log), pat, 2, chunk=chunk))
        assert got[0].num_rows > 0 and got[0].equals(want[0])


def test_read_file_parts_through_pyarrow_fs(tmp_path, monkeypatch):
    """A URI that is not file: is opened with pyarrow.fs (here a file://
    URI made to take that route), percent-encoded for pyarrow."""
    d = need_corpus() / "blg"
    log = tmp_path / "x y%.blg"
    shutil.copy(d / "Tx_BasicPerfCounters.blg", log)
    monkeypatch.setattr(perfcalc.spark, "local_path", lambda file: None)
    got = _tables(read_file_parts("file://" + str(log)))
    assert got[0].equals(perfcalc.read_blg(log))
    parts = list(read_file_parts("file://" + str(tmp_path / "gone.blg")))
    assert parts[0][0] is None and "gone.blg: cannot open at offset 0" in parts[0][1]


def test_read_file_parts_of_a_log_over_the_module_limit_for_one_call(over_limit_log):
    want = _tables(read_parts(over_limit_log.read_bytes()))
    got = _tables(read_file_parts("file:" + str(over_limit_log)))
    assert len(got) == len(want) >= 2
    for a, b in zip(got, want):
        assert a.equals(b)


def test_read_file_parts_errors_name_the_file_and_offset(tmp_path, monkeypatch):
    gone = "file:" + str(tmp_path / "gone.blg")
    assert list(read_file_parts(gone)) == [(None, f"perfcalc: {gone}: cannot open at offset 0: No such file or directory")]
    folder = tmp_path / "dir.blg"
    folder.mkdir()
    (parts,) = list(read_file_parts("file:" + str(folder)))
    assert parts[0] is None and parts[1].startswith(f"perfcalc: file:{folder}: ") and "offset 0" in parts[1]
    # Not a log: the module's error, as for bytes.
    junk = tmp_path / "junk.blg"
    junk.write_bytes(b"not a log" * 100)
    assert list(read_file_parts("file:" + str(junk)))[-1][1] == list(read_parts(junk.read_bytes()))[-1][1]

    data = (need_corpus() / "blg" / "Tx_BasicPerfCounters.blg").read_bytes()

    # Truncated while read: the file ends before the size it had when opened.
    monkeypatch.setattr(perfcalc.spark, "_open", lambda file: (io.BytesIO(data[:100_000]), len(data)))
    assert list(read_file_parts("file:/logs/t.blg", chunk=65536)) == [
        (None, f"perfcalc: file:/logs/t.blg: truncated while read: the file ends at offset 100,000, it had {len(data):,} bytes")
    ]

    # A read that fails after the first chunk.
    class Failing(io.BytesIO):
        def readinto(self, b):
            if self.tell() >= 65536:
                raise OSError(5, "Input/output error")
            return super().readinto(b)

    monkeypatch.setattr(perfcalc.spark, "_open", lambda file: (Failing(data), len(data)))
    assert list(read_file_parts("file:/logs/e.blg", chunk=65536)) == [
        (None, f"perfcalc: file:/logs/e.blg: cannot read at offset 65,536 of {len(data):,} bytes: Input/output error")
    ]
    # Over the module's 1 GiB when opened: not read, the error of read_blg's limit.
    monkeypatch.setattr(perfcalc.spark, "_open", lambda file: (io.BytesIO(b""), (1 << 30) + 1))
    (err,) = list(read_file_parts("file:/logs/huge.blg"))
    assert err[0] is None and "1,073,741,825 bytes (not read)" in err[1]
    # The instance is still right for the next log.
    monkeypatch.undo()
    log = tmp_path / "ok.blg"
    log.write_bytes(data)
    assert _tables(read_file_parts("file:" + str(log)))[0].equals(perfcalc.read_blg(data))


def test_a_resident_log_belongs_to_its_instance_and_patterns():
    data = (need_corpus() / "blg" / "Tx_BasicPerfCounters.blg").read_bytes()
    log = perfcalc._api._read_into(io.BytesIO(data), len(data), None, "t.blg")
    assert len(log) == len(data)
    with pytest.raises(perfcalc.Error, match="its own patterns"):
        perfcalc._api._read_blg(log, "\\Memory\\*", None, None, 0, "raise", perfcalc._abi.DEFAULT_MAX_COLUMNS, False)
    t = perfcalc._api._read_blg(log, None, None, None, 0, "raise", perfcalc._abi.DEFAULT_MAX_COLUMNS, False)
    assert t.equals(perfcalc.read_blg(data))


def _row(path, length, content=None):
    return pa.RecordBatch.from_pydict(
        {"path": [path], "content": pa.array([content], pa.binary()), "length": pa.array([length], pa.int64())}
    )


def test_the_executors_function_streams_rows_without_content(tmp_path):
    """The mapInArrow function as the executors run it: a row without
    content is read from its path (stream) or is an error row (not
    streamed, or over 1 GiB); a file that vanished after the listing gives
    the error row naming it."""
    d = need_corpus() / "blg"
    log = tmp_path / "Tx.blg"
    shutil.copy(d / "Tx_BasicPerfCounters.blg", log)
    file = "file:" + str(log)
    size = log.stat().st_size
    by_content = pa.Table.from_batches(list(perfcalc.spark._converter(None, 0, True)([_row(file, size, log.read_bytes())])))
    streamed = pa.Table.from_batches(list(perfcalc.spark._converter(None, 0, True)([_row(file, size)])))
    assert streamed.num_rows == perfcalc.read_blg(log).num_rows and streamed.equals(by_content)
    assert streamed["error"].null_count == streamed.num_rows

    (unread,) = perfcalc.spark._converter(None, 0, False)([_row(file, size)])
    assert unread.num_rows == 1 and "bytes (not read)" in unread.column("error")[0].as_py()
    (huge,) = perfcalc.spark._converter(None, 0, True)([_row(file, (1 << 30) + 1)])
    assert "1,073,741,825 bytes (not read)" in huge.column("error")[0].as_py()
    gone = "file:" + str(tmp_path / "vanished.blg")
    (row,) = perfcalc.spark._converter(None, 0, True)([_row(gone, size)])
    assert row.column("file")[0].as_py() == gone
    assert row.column("error")[0].as_py() == f"perfcalc: {gone}: cannot open at offset 0: No such file or directory"


# In local[2].


def _by_file(df):
    rows: dict = {}
    for r in df.collect():
        rows.setdefault(r["file"], []).append(tuple(r))
    return rows


def test_spark_streamed_rows_equal_binaryfiles(spark, tmp_path):
    """Every corpus log (the damaged one too) and one named with a space
    and a percent sign, streamed (stream_above=0) and through binaryFile
    (None): the same rows, in the same order, per log."""
    d = need_corpus() / "blg"
    for f in d.glob("*.blg"):
        shutil.copy(f, tmp_path / f.name)
    shutil.copy(d / "Tx_BasicPerfCounters.blg", tmp_path / "a b%20c.blg")
    assert perfcalc.spark.stream_route(spark, [str(tmp_path)])
    streamed = _by_file(perfcalc.spark.read_blg(spark, str(tmp_path), stream_above=0))
    whole = _by_file(perfcalc.spark.read_blg(spark, str(tmp_path), stream_above=None))
    assert sorted(streamed) == sorted(whole) and len(whole) == len(list(tmp_path.glob("*.blg")))
    assert "file:" + str(tmp_path / "a b%20c.blg") in whole
    for f in whole:
        assert streamed[f] == whole[f], f
    errors = [f for f, rows in whole.items() if rows[-1][-1] is not None]
    assert [f.rsplit("/", 1)[1] for f in errors] == ["PowerShell_CorruptBlg.blg"]


def test_spark_streams_a_large_log_with_binaryfiles_rows(spark, over_limit_log):
    """The 120 MB log of 2,200,030 values (over 16 MiB: streamed by
    default, and read in parts): its rows hash alike to binaryFile's (the
    sum of a hash of each row's columns), and count and sum alike."""
    from pyspark.sql import functions as F

    def digest(stream_above):
        df = perfcalc.spark.read_blg(spark, str(over_limit_log), stream_above=stream_above)
        row = F.xxhash64(*[F.col(c) for c in df.columns]).cast("decimal(38,0)")
        return df.agg(F.count("*"), F.count("error"), F.sum(row), F.sum("value")).collect()[0]

    assert over_limit_log.stat().st_size > perfcalc.spark.STREAM_ABOVE
    streamed, whole = digest(perfcalc.spark.STREAM_ABOVE), digest(None)
    assert streamed[0] > perfcalc._abi.MAX_RECORDS and streamed[1] == 0
    assert tuple(streamed) == tuple(whole)


def test_spark_streams_a_log_over_binaryfile_maxlength(spark, tmp_path):
    """A log over binaryFile's maxLength is streamed (read) where the
    executors reach its path; with stream_above=None it is an error row,
    unread (test_spark.py's test of the limit)."""
    from pyspark.sql import functions as F

    d = need_corpus() / "blg"
    big = tmp_path / "PAL_SamplePerfmonLog.blg"  # 458,752 bytes
    shutil.copy(d / big.name, big)
    spark.conf.set("spark.sql.sources.binaryFile.maxLength", "420000")
    try:
        rows = perfcalc.spark.read_blg(spark, str(big)).agg(F.count("*"), F.count("error")).collect()[0]
        unread = perfcalc.spark.read_blg(spark, str(big), stream_above=None).select("error").collect()
    finally:
        spark.conf.unset("spark.sql.sources.binaryFile.maxLength")
    assert tuple(rows) == (perfcalc.read_blg(big).num_rows, 0)
    assert len(unread) == 1 and "458,752 bytes (not read)" in unread[0]["error"]
    with pytest.raises(ValueError, match="stream_above"):
        perfcalc.spark.read_blg(spark, str(big), stream_above=-1)
