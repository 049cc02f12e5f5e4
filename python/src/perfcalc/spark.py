"""perfcalc for Spark: many .blg logs read on Spark's executors, each with
:func:`perfcalc.read_blg`, into one DataFrame of perfcalc's long schema.

    from pyspark.sql import SparkSession
    import perfcalc.spark

    spark = SparkSession.builder.master("local[2]").getOrCreate()
    df = perfcalc.spark.read_blg(spark, "logs/")          # files, folders, globs
    df.groupBy("machine", "counter").avg("value").show()
    perfcalc.spark.convert(spark, "logs/", "out/")       # partitioned Parquet

How it runs: Spark's ``binaryFile`` source reads each log whole (one row:
its path and bytes), and ``mapInArrow`` runs :func:`perfcalc.read_blg` on
the executors' Python workers, which load the module once each and turn
its records into Arrow batches without a Python object per value. The same
code runs in ``local[N]`` and on a cluster, where the executors need the
package's dependencies and the package itself, installed or shipped as
its wheel renamed .zip with ``SparkContext.addPyFile`` (the README's
cluster section; make spark-cluster-test runs that recipe).

# Schema

:func:`schema`: ``file`` (the log's path as Spark names it, ``file:/…``),
the columns of :data:`perfcalc.SCHEMA` in Spark's types, then ``error``.
Spark has no unsigned integers: ``raw_status`` and ``raw_multi`` are
``bigint`` and ``raw_first``/``raw_second`` ``decimal(20,0)``, as Spark reads
perfcalc's Parquet; ``local_time`` is ``timestamp_ntz``.

# Errors

A log that cannot be read does not stop the job: it gives one row whose
``error`` holds the reason (the text ``perfcalc relog`` prints; its other
columns but ``file`` are null). A log damaged after its start gives its
rows before the damage and such a row. Every other row has ``error`` null.

# Limits

``binaryFile`` reads each file whole into one row, and the module takes
at most 1 GiB of input: a log over 1 GiB (or over
``spark.sql.sources.binaryFile.maxLength`` where the session sets it
lower; :func:`read_limit`) is not read at all, by Spark or the module, and
gives one error row saying so (``perfcalc convert`` reads larger logs).
A log of more values than one call of the module takes (2,097,152) is read
in parts inside the reader (:func:`read_parts`, the module's ``log_part``):
its rows are the whole log's, in order. An executor holds a few logs and
their tables at once (the module's input and output buffers grow to about
three times the largest log it reads, a part's table at most 2,097,152
rows).
"""

from __future__ import annotations

from typing import Iterable, Iterator, Union

import numpy as np
import pyarrow as pa

from . import _columns

# Spark's types of the long schema (internal/longform.Fields, generated
# into _columns.py) between file and error. The StructType is built lazily:
# pyspark is optional.
_SPARK_DDL = "file string, " + _columns.SPARK_DDL + ", error string"

_ARROW = pa.schema([("file", pa.string()), *_columns.SPARK_FIELDS, ("error", pa.string())])

#: Rows per Arrow batch handed back to Spark.
BATCH_ROWS = 1 << 16


def schema():
    """The DataFrame's schema as a pyspark ``StructType``."""
    from pyspark.sql.types import StructType

    return StructType.fromDDL(_SPARK_DDL)


def to_spark_arrow(table: pa.Table, file: str) -> pa.Table:
    """A read_blg table in the Arrow types of :data:`SCHEMA`, with its
    file and a null error."""
    n = table.num_rows
    cols = [pa.DictionaryArray.from_arrays(np.zeros(n, np.int32), pa.array([file], pa.string())).cast(pa.string())]
    for f in _ARROW:
        if f.name in ("file", "error"):
            continue
        c = table[f.name]
        cols.append(c.cast(f.type))
    cols.append(pa.nulls(n, pa.string()))
    return pa.Table.from_arrays(cols, schema=_ARROW)


def _error_row(file: str, message: str) -> pa.Table:
    cols = []
    for f in _ARROW:
        if f.name == "file":
            cols.append(pa.array([file], pa.string()))
        elif f.name == "error":
            cols.append(pa.array([message], pa.string()))
        else:
            cols.append(pa.nulls(1, f.type))
    return pa.Table.from_arrays(cols, schema=_ARROW)


def _converter(counters, every: int):
    """The mapInArrow function: each input row (path, content, length) →
    its rows. It runs on the executors."""

    def convert(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import perfcalc

        for batch in batches:
            paths = batch.column("path")
            contents = batch.column("content")
            lengths = batch.column("length") if "length" in batch.schema.names else None
            for i in range(batch.num_rows):
                file = paths[i].as_py()
                data = contents[i].as_buffer()
                size = lengths[i].as_py() if lengths is not None else None
                if data is None and size:
                    # Not read: read_blg's scan of the logs over read_limit leaves content out.
                    yield from _error_row(file, _too_large(file, size)).to_batches()
                    continue
                # A log without the counters gives no row (not an error row, as read_blg raises).
                log = memoryview(data) if data is not None else b""
                for table, error in read_parts(log, counters, every):
                    t = to_spark_arrow(table, file) if table is not None else _error_row(file, error)
                    yield from t.to_batches(max_chunksize=BATCH_ROWS)

    return convert


def split_part(part, size: int):
    """The two halves of the part ``(from, to)`` (``to`` 0: the end) of a
    log of ``size`` bytes, cut at a 64 KiB bound (the log's buffers are
    64 KiB or a divisor of it), or None where no 64 KiB bound lies between
    the part's start and the middle (a part of less than two blocks)."""
    lo, hi = part
    end = hi or size
    mid = (lo + (end - lo) // 2) & ~0xFFFF
    if mid <= lo or mid >= end:
        return None
    return (lo, mid), (mid, hi)


def read_parts(log, counters=None, every: int = 0):
    """The rows of the log (bytes) as :func:`perfcalc.read_blg` reads it,
    in pieces of at most MAX_RECORDS (2,097,152) values each: yields
    ``(table, None)`` pairs in the log's order, then ``(None, error)`` where
    the log cannot be read or is damaged (after the rows before the
    damage). A log whose values exceed the module's limit for one call is
    read in parts (the module's ``log_part``), halved at 64 KiB bounds
    until each part's values fit: the parts' rows put together are the
    whole log's, row for row (a part reads the whole log once for its
    columns, so each halving costs one more reading of the log). Only
    a sample whose 64 KiB block alone holds more values stays refused."""
    import perfcalc

    size = len(log)
    todo = [None]  # None: the whole log, in one call
    while todo:
        part = todo.pop(0)
        try:
            table = perfcalc._api._read_blg(log, counters, None, None, every, "raise", perfcalc._abi.DEFAULT_MAX_COLUMNS, False, part=part)
        except perfcalc.DamagedError as e:
            yield e.partial, None
            yield None, e.message
            return
        except perfcalc.LimitError as e:
            halves = split_part(part or (0, 0), size) if e.message.endswith(perfcalc._api._LIMIT_HINT) else None
            if halves is None:
                yield None, e.message
                return
            todo[:0] = halves
            continue
        except perfcalc.Error as e:
            yield None, e.message
            return
        yield table, None


def read_blg(
    spark,
    paths: Union[str, Iterable[str]],
    counters: Union[str, Iterable[str], None] = None,
    *,
    every: int = 0,
    glob: str = "*.blg",
    recursive: bool = False,
):
    """A DataFrame of the logs at ``paths`` (files, folders or globs, as
    Spark's readers take them; in folders, the files matching ``glob``,
    ``recursive`` to look in sub-folders): one row per sample and counter
    instance of each log (see the module's doc for the schema and errors).
    ``counters`` and ``every`` are :func:`perfcalc.read_blg`'s."""
    if isinstance(paths, str):
        paths = [paths]
    reader = spark.read.format("binaryFile")
    if glob:
        reader = reader.option("pathGlobFilter", glob)
    if recursive:
        reader = reader.option("recursiveFileLookup", "true")
    from pyspark.sql import functions as F

    files = reader.load(list(paths))
    # Two scans of the one listing: binaryFile applies the length filters
    # before it reads a file, and the second scan leaves content out, so a
    # log over the limit is never read (nor refused by binaryFile's
    # maxLength) and gives its error row. The second scan is one task
    # (coalesce(1)): as many tasks as the first cost 2.6-4.8 s instead of
    # 1.7-3.5 s for the 244 logs of the cluster test in local[2].
    limit = read_limit(spark)
    small = files.filter(F.col("length") <= limit).select("path", "content", "length")
    large = files.filter(F.col("length") > limit).select("path", F.lit(None).cast("binary").alias("content"), "length").coalesce(1)
    return small.unionByName(large).mapInArrow(_converter(counters, every), schema())


def read_limit(spark) -> int:
    """The largest log :func:`read_blg` reads, in bytes: the module's
    input buffer (1 GiB), or binaryFile's
    ``spark.sql.sources.binaryFile.maxLength`` where the session sets it
    lower."""
    from . import _abi

    limit = _abi.MAX_RESERVE
    conf = spark.conf.get("spark.sql.sources.binaryFile.maxLength", None)
    if conf:
        limit = min(limit, int(conf))
    return limit


def _too_large(file: str, size: int) -> str:
    """The error of a log over read_limit, not read."""
    from . import _abi

    return (
        f"perfcalc: {file}: {size:,} bytes (not read); perfcalc.spark.read_blg reads at most"
        f" {_abi.MAX_RESERVE:,} bytes (1 GiB, the module's input) or spark.sql.sources.binaryFile.maxLength"
        " (convert a larger log with perfcalc convert)"
    )


# The UTC date of time, independent of spark.sql.session.timeZone (a
# day is 86,400,000,000 µs since 1970-01-01 UTC).
_UTC_DATE = "date_from_unix_date(CAST(floor(unix_micros(time) / 86400000000) AS INT))"

# The keyword arguments of read_blg that convert passes on.
_READ_OPTIONS = ("every", "glob", "recursive")


def convert(
    spark,
    paths: Union[str, Iterable[str]],
    out: str,
    counters=None,
    *,
    partition_by: Iterable[str] = ("machine",),
    mode: str = "errorifexists",
    **read_options,
) -> list:
    """Converts the logs at ``paths`` to Parquet under ``out``, partitioned
    by ``partition_by`` (Hive-style folders, ``machine=HOST/``), in
    perfcalc's long schema plus ``file``. ``"date"`` among ``partition_by``
    is the UTC date of ``time`` (whatever the session's time zone), as
    ``perfcalc convert --partition machine,date`` names its folders:
    ``partition_by=("machine", "date")`` writes the same folders (Spark's
    files are named ``part-…`` and leave the partition columns out: the
    engines read both datasets alike). Returns the
    logs that failed or were damaged, as ``(file, error)`` pairs; their
    readable rows are written. ``mode`` is Spark's save mode
    (``"overwrite"``, …)."""
    unknown = sorted(set(read_options) - set(_READ_OPTIONS))
    if unknown:
        raise TypeError(
            f"perfcalc.spark.convert: unknown option {unknown[0]!r}; convert takes counters, partition_by, mode"
            f" and read_blg's {', '.join(_READ_OPTIONS)}"
        )
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    partition_by = tuple(partition_by)
    df = read_blg(spark, paths, counters, **read_options).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        rows = df.filter(F.col("error").isNull()).drop("error")
        if "date" in partition_by:
            rows = rows.withColumn("date", F.expr(_UTC_DATE))
        rows.write.mode(mode).partitionBy(*partition_by).parquet(out)
        failed = df.filter(F.col("error").isNotNull()).select("file", "error").collect()
    finally:
        df.unpersist()
    return [(r["file"], r["error"]) for r in failed]


# analyze (issue 24): the alerts of many logs as one DataFrame.
from .spark_analyze import alerts_of, alerts_schema, analyze, analyze_machines, fleet, machines_schema  # noqa: E402
