"""perfcalc.spark in local[2] over the corpus logs and a few hundred copies:
counts per log and values equal to the native command's, errors in rows,
convert to partitioned Parquet. About two minutes on two cores."""

from __future__ import annotations

import shutil
import struct
import time
from collections import Counter

import pytest

from conftest import FIGURES, corpus_logs, json_lines, native_long, need_corpus, run_native

COPIES = 240  # copies of the readable corpus logs, besides the originals


def bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    need_corpus()
    d = tmp_path_factory.mktemp("logs")
    originals = corpus_logs()
    readable = [l for l in originals if "Corrupt" not in l.name]
    for l in originals:
        shutil.copy(l, d / l.name)
    for i in range(COPIES):
        src = readable[i % len(readable)]
        shutil.copy(src, d / f"copy{i:03d}-{src.name}")
    return d, originals


def native_cells(native, log):
    p = run_native(native, "relog", log, "-f", "json", check=False)
    return json_lines(p.stdout), p


def test_spark_read_blg_counts_values_and_errors(spark, logs, native):
    import perfcalc.spark
    from pyspark.sql import functions as F

    d, originals = logs
    files = sorted(d.glob("*.blg"))
    size = sum(f.stat().st_size for f in files)
    df = perfcalc.spark.read_blg(spark, str(d))
    assert [f.name for f in df.schema.fields] == [f.name for f in perfcalc.spark.schema().fields]

    t0 = time.perf_counter()
    per_file = df.groupBy("file").agg(F.count("*").alias("count"), F.first("error", ignorenulls=True).alias("error")).collect()
    secs = time.perf_counter() - t0
    counts = {r["file"]: r["count"] for r in per_file}
    FIGURES.append(
        (
            "Spark local[2] read_blg",
            f"{len(files)} logs, {size / 1e6:.1f} MB, {sum(counts.values())} rows in {secs:.1f} s: "
            f"{len(files) / secs:.1f} logs/s, {size / 1e6 / secs:.2f} MB/s",
        )
    )
    assert len(counts) == len(files)

    want = {}
    for log in originals:
        rows, p = native_cells(native, log)
        want[log.name] = (rows, p)
    for f in files:
        name = f.name.split("-", 1)[1] if f.name.startswith("copy") else f.name
        rows, p = want[name]
        cells = sum(len(r["values"]) for r in rows)
        failed = p.returncode != 0
        assert counts["file:" + str(f)] == cells + (1 if failed else 0), f.name

    errors = [r for r in per_file if r["error"] is not None]
    assert {r["file"].rsplit("/", 1)[1] for r in errors} == {l.name for l in originals if "Corrupt" in l.name}
    for r in errors:
        assert r["error"] in want[r["file"].rsplit("/", 1)[1]][1].stderr.decode()

    # Every value of one copy of each readable log, against the native JSON.
    for log in originals:
        rows, p = want[log.name]
        if p.returncode != 0:
            continue
        copy = next(f for f in files if f.name.endswith("-" + log.name))
        got = (
            perfcalc.spark.read_blg(spark, str(copy))
            .select("path", F.date_format("local_time", "yyyy-MM-dd'T'HH:mm:ss.SSS").alias("t"), "value", "status")
            .collect()
        )
        have = {(r["t"], r["path"]): (r["value"], r["status"]) for r in got}
        n = 0
        for row in rows:
            for path, v in row["values"].items():
                value, status = have[(row["time"], path)]
                if v is None:
                    assert value is None and status != "Valid"
                else:
                    assert status == "Valid" and bits(value) == bits(float(v)), (log.name, row["time"], path)
                n += 1
        assert n == len(have) > 0


def test_spark_convert_writes_partitioned_parquet(spark, logs, tmp_path):
    import pyarrow.dataset as ds

    import perfcalc
    import perfcalc.spark

    d, originals = logs
    few = [str(d / l.name) for l in originals]
    out = tmp_path / "out"
    failed = perfcalc.spark.convert(spark, few, str(out))
    assert [f.rsplit("/", 1)[1] for f, _ in failed] == [l.name for l in originals if "Corrupt" in l.name]
    machines = sorted(p.name for p in out.iterdir() if p.is_dir())
    assert "machine=GEORGIS3" in machines and "machine=ZACH-PC" in machines
    table = ds.dataset(str(out), format="parquet", partitioning="hive").to_table()
    want = sum(perfcalc.read_blg(l).num_rows for l in originals if "Corrupt" not in l.name)
    assert table.num_rows == want
    assert Counter(table["machine"].to_pylist())["GEORGIS3"] == perfcalc.read_blg(d / "Tx_BasicPerfCounters.blg").num_rows


def test_spark_reads_a_log_over_the_module_limit_whole(spark, over_limit_log, native):
    """A log of 2,200,030 values (2,097,152 at most per call of the module)
    is read whole, in parts inside the reader: the native JSON's values,
    valid values, smallest and largest value, no error row (the values
    one by one: test_spark_parts.py, without Spark)."""
    import numpy as np

    import perfcalc
    import perfcalc.spark
    from pyspark.sql import functions as F

    _, _, values = native_long(native, over_limit_log)
    assert len(values) > perfcalc._abi.MAX_RECORDS
    t0 = time.perf_counter()
    r = (
        perfcalc.spark.read_blg(spark, str(over_limit_log))
        .agg(
            F.count("*").alias("rows"),
            F.count("value").alias("valid"),
            F.count("error").alias("errors"),
            F.min("value").alias("min"),
            F.max("value").alias("max"),
        )
        .collect()[0]
    )
    secs = time.perf_counter() - t0
    size = over_limit_log.stat().st_size
    FIGURES.append(("Spark local[2] read_blg, one log over the limit", f"{r['rows']} rows, {size / 1e6:.0f} MB in {secs:.1f} s: {size / 1e6 / secs:.1f} MB/s"))
    assert r["errors"] == 0
    assert r["rows"] == len(values)
    assert r["valid"] == int((~np.isnan(values)).sum())
    assert bits(r["min"]) == bits(float(np.nanmin(values))) and bits(r["max"]) == bits(float(np.nanmax(values)))


def test_spark_log_over_the_read_limit_is_an_error_row_unread(spark, logs):
    """Without streaming (stream_above=None), a log over binaryFile's
    maxLength (set to 420,000 bytes here; 1 GiB, the module's input,
    otherwise) is not read: one error row, not Spark's failure of the job;
    the logs under it are read. (Streamed, as by default for file: paths,
    it is read: test_spark_stream.py.)"""
    import perfcalc.spark
    from pyspark.sql import functions as F

    d, _ = logs
    big = d / "PAL_SamplePerfmonLog.blg"  # 458,752 bytes
    small = d / "Tx_BasicPerfCounters.blg"  # 393,216 bytes
    assert small.stat().st_size <= 420_000 < big.stat().st_size
    spark.conf.set("spark.sql.sources.binaryFile.maxLength", "420000")
    try:
        assert perfcalc.spark.read_limit(spark) == 420_000
        rows = perfcalc.spark.read_blg(spark, [str(big), str(small)], stream_above=None).groupBy("file").agg(F.count("*").alias("n"), F.first("error", ignorenulls=True).alias("error")).collect()
    finally:
        spark.conf.unset("spark.sql.sources.binaryFile.maxLength")
    got = {r["file"].rsplit("/", 1)[1]: (r["n"], r["error"]) for r in rows}
    assert got[big.name][0] == 1 and "458,752 bytes (not read)" in got[big.name][1]
    assert got[small.name][0] > 1 and got[small.name][1] is None
    assert perfcalc.spark.read_limit(spark) == 1 << 30


def test_readme_spark_example_runs(spark, logs, tmp_path, monkeypatch, capsys):
    """The README's Spark example, with its folders logs/ and out/ made
    absolute (the test's JVM runs in another working directory)."""
    from conftest import ROOT

    d, originals = logs
    (tmp_path / "logs").mkdir()
    for l in originals:
        shutil.copy(d / l.name, tmp_path / "logs" / l.name)
    monkeypatch.chdir(tmp_path)
    readme = (ROOT / "python" / "README.md").read_text()
    block = readme.split("## Spark\n", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert block.count('"logs/"') == 2 and block.count('"out/"') == 1
    block = block.replace('"logs/"', repr(str(tmp_path / "logs"))).replace('"out/"', repr(str(tmp_path / "out")))
    scope: dict = {}
    exec(compile(block, "python/README.md (Spark)", "exec"), scope)
    assert "avg(value)" in capsys.readouterr().out
    assert [f.rsplit("/", 1)[1] for f, _ in scope["failed"]] == [l.name for l in originals if "Corrupt" in l.name]
    assert (tmp_path / "out" / "machine=GEORGIS3").is_dir()
