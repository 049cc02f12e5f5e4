"""perfcalc for Spark: many .blg logs read on Spark's executors, each with
:func:`perfcalc.read_blg`, into one DataFrame of perfcalc's long schema.

    from pyspark.sql import SparkSession
    import perfcalc.spark

    spark = SparkSession.builder.master("local[2]").getOrCreate()
    df = perfcalc.spark.read_blg(spark, "logs/")          # files, folders, globs
    df.groupBy("machine", "counter").avg("value").show()
    perfcalc.spark.convert(spark, "logs/", "out/")       # partitioned Parquet

How it runs: Spark's ``binaryFile`` source lists the logs, reads each one
of at most ``stream_above`` bytes (16 MiB by default) whole (one row: its
path and bytes), and ``mapInArrow`` runs :func:`perfcalc.read_blg` on the
executors' Python workers, which load the module once each and turn its
records into Arrow batches without a Python object per value. A larger
log whose path the executors can open (``file:``, or a scheme the
driver's pyarrow.fs reaches) is listed without its content and read by
the Python worker itself, in chunks straight into the module's input
(:func:`read_file_parts`): binaryFile's route holds a log three times at
once (the JVM's row, its Arrow copy in the worker, the module's input),
this one once. The same code runs in ``local[N]`` and on a cluster, where
the executors need the package's dependencies and the package itself,
installed, shipped as its wheel renamed .zip (``SparkContext.addPyFile``
or ``spark-submit --py-files``), or in a packed environment
(``--archives``; the README's cluster section says which of these make
spark-cluster-test runs).

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

The module takes at most 1 GiB of input, and holds the log it reads whole
in its memory (its input buffer): a log over 1 GiB is not read at all, by
Spark or the module, and gives one error row saying so (``perfcalc
convert`` reads larger logs). Through ``binaryFile`` (logs up to
``stream_above``, and every log where the executors cannot open the paths
or ``stream_above=None``), a log over
``spark.sql.sources.binaryFile.maxLength``, where the session sets it
lower (:func:`read_limit`), gives that error row too; streamed logs are
not bound by it. A log of more values than one call of the module takes
(2,097,152) is read in parts inside the reader (:func:`read_parts`, the
module's ``log_part``): its rows are the whole log's, in order. An
executor's Python worker holds the module's input and output buffers
(they grow to the largest log it reads) and a part's table (at most
2,097,152 rows) converted to Spark's types.
"""

from __future__ import annotations

import os
from typing import Iterable, Iterator, Optional, Union

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


def _converter(counters, every: int, stream: bool = False):
    """The mapInArrow function: each input row (path, content, length) →
    its rows. It runs on the executors. A row without content (read_blg's
    scan of the logs over its threshold leaves content out) is read here,
    straight into the module's memory, where stream is set and the log
    fits the module's input; else it gives its error row."""

    def convert(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import perfcalc
        from . import _abi

        for batch in batches:
            paths = batch.column("path")
            contents = batch.column("content")
            lengths = batch.column("length") if "length" in batch.schema.names else None
            for i in range(batch.num_rows):
                file = paths[i].as_py()
                data = contents[i].as_buffer()
                size = lengths[i].as_py() if lengths is not None else None
                if data is None and size:
                    if stream and size <= _abi.MAX_RESERVE:
                        yield from _batches(file, read_file_parts(file, counters, every))
                    else:
                        yield from _error_row(file, _too_large(file, size)).to_batches()
                    continue
                # A log without the counters gives no row (not an error row, as read_blg raises).
                log = memoryview(data) if data is not None else b""
                yield from _batches(file, read_parts(log, counters, every))

    return convert


def _batches(file: str, parts) -> Iterator[pa.RecordBatch]:
    """read_parts' pairs as Spark's Arrow batches of file's rows, each
    converted to Spark's types BATCH_ROWS rows at a time (a part's table
    of up to 2,097,152 rows is not converted whole at once)."""
    for table, error in parts:
        if table is None:
            yield from _error_row(file, error).to_batches()
            continue
        for at in range(0, table.num_rows, BATCH_ROWS):
            yield from to_spark_arrow(table.slice(at, BATCH_ROWS), file).to_batches(max_chunksize=BATCH_ROWS)


def local_path(file: str):
    """The local path of a ``file:`` URI as Spark names files
    (``file:/dir/a b.blg``: Hadoop's Path, not percent-encoded), or None
    for another scheme."""
    if not file.startswith("file:"):
        return None
    rest = file[len("file:") :]
    if rest.startswith("//"):  # file://host/path or file:///path
        rest = rest[rest.index("/", 2) :] if "/" in rest[2:] else "/"
    return rest


def _open(file: str):
    """The log at file (a Spark path) opened for reading, and its size:
    a ``file:`` path with the system's open, any other URI with
    pyarrow.fs (read_blg streams those only where the driver's pyarrow
    reaches their scheme)."""
    path = local_path(file)
    if path is not None:
        f = open(path, "rb", buffering=0)
        try:
            return f, os.fstat(f.fileno()).st_size
        except BaseException:
            f.close()
            raise
    import urllib.parse

    import pyarrow.fs

    fs, p = pyarrow.fs.FileSystem.from_uri(urllib.parse.quote(file, safe=_URI_SAFE))
    f = fs.open_input_file(p)
    return f, f.size()


# The characters of a Hadoop path kept as they are in a URI (the rest,
# spaces and % among them, percent-encoded for pyarrow).
_URI_SAFE = ":/@!$&'()*+,;=-._~"


def read_file_parts(file: str, counters=None, every: int = 0, chunk: int = 0):
    """:func:`read_parts` of the log at ``file`` (a path as Spark names it:
    ``file:/…``, or a URI of pyarrow.fs), which the calling process reads
    itself, in chunks of ``chunk`` bytes (0: 8 MiB), straight into the
    module's input buffer: the log's one copy is the module's (read_blg's
    route for logs over ``stream_above``). A file that cannot be opened or
    read, or ends before the size it had when opened (truncated while
    read), or is over the module's 1 GiB, yields ``(None, error)``, the
    error naming the file (and the offset where reading stopped)."""
    import perfcalc

    try:
        f, size = _open(file)
    except (OSError, ValueError) as e:  # pyarrow's errors are OSError or ArrowInvalid (ValueError)
        yield None, f"perfcalc: {file}: cannot open at offset 0: {_reason(e)}"
        return
    try:
        with f:
            log = perfcalc._api._read_into(f, size, counters, file, chunk or perfcalc._api.READ_CHUNK)
    except perfcalc.LimitError:
        yield None, _too_large(file, size)
        return
    except perfcalc.Error as e:
        yield None, e.message
        return
    yield from read_parts(log, counters, every)


def _reason(e: Exception) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e).splitlines()[0] if str(e) else type(e).__name__


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


#: read_blg's default stream_above: logs over 16 MiB are read by the
#: executors themselves, straight into the module's memory (see read_blg).
#: Time does not choose it (small and mid-sized logs take the same time
#: either way in local[2]); memory does: from there a log's two extra
#: copies through binaryFile (64 MiB and more) matter next to a Python
#: worker's few hundred MiB, while the many small logs stay on Spark's own
#: reader, which reaches every file system Spark does.
STREAM_ABOVE = 16 << 20


def read_blg(
    spark,
    paths: Union[str, Iterable[str]],
    counters: Union[str, Iterable[str], None] = None,
    *,
    every: int = 0,
    glob: str = "*.blg",
    recursive: bool = False,
    stream_above: Optional[int] = STREAM_ABOVE,
):
    """A DataFrame of the logs at ``paths`` (files, folders or globs, as
    Spark's readers take them; in folders, the files matching ``glob``,
    ``recursive`` to look in sub-folders): one row per sample and counter
    instance of each log (see the module's doc for the schema and errors).
    ``counters`` and ``every`` are :func:`perfcalc.read_blg`'s.

    ``stream_above``: logs of more bytes than this (16 MiB by default) are
    listed by Spark without their content and read by the executors'
    Python workers themselves, in chunks straight into the module's input
    (:func:`read_file_parts`), where the executors can open the paths:
    ``file:`` paths, and the URIs of a scheme that the driver's pyarrow.fs
    reaches (:func:`stream_route`); elsewhere, and for the smaller logs,
    Spark's ``binaryFile`` reads the content. The rows are the same either
    way. An executor that cannot open a streamed log (a pyarrow.fs URI
    without the driver's credentials) gives its error row. ``None`` never
    streams (binaryFile reads every log, up to :func:`read_limit`)."""
    if isinstance(paths, str):
        paths = [paths]
    paths = list(paths)
    if stream_above is not None and (isinstance(stream_above, bool) or not isinstance(stream_above, int) or stream_above < 0):
        raise ValueError(f"perfcalc.spark.read_blg: stream_above={stream_above!r}: want a number of bytes (0 or more) or None")
    reader = spark.read.format("binaryFile")
    if glob:
        reader = reader.option("pathGlobFilter", glob)
    if recursive:
        reader = reader.option("recursiveFileLookup", "true")
    from pyspark.sql import functions as F

    files = reader.load(paths)
    # Two scans of the one listing: binaryFile applies the length filters
    # before it reads a file, and the second scan leaves content out
    # (binaryFile opens a file only for its content), so a log over the
    # limit is never read by Spark (nor refused by binaryFile's maxLength):
    # it is read by the executor (stream) or gives its error row. Without
    # streaming the second scan is one task (coalesce(1)): as many tasks as
    # the first cost 2.6-4.8 s instead of 1.7-3.5 s for the 244 logs of the
    # cluster test in local[2]. Streamed logs are then spread one a task
    # (repartition: a shuffle of their paths alone), to be decoded side by
    # side. Where the listing's total size shows no log over the limit, the
    # second scan is left out.
    limit = read_limit(spark)
    stream = stream_above is not None and stream_route(spark, paths)
    if stream:
        limit = min(limit, stream_above)
    small = files.filter(F.col("length") <= limit).select("path", "content", "length")
    total = _listed_bytes(files)
    if total is not None and total <= limit:
        return small.mapInArrow(_converter(counters, every, stream), schema())
    large = files.filter(F.col("length") > limit).select("path", F.lit(None).cast("binary").alias("content"), "length").coalesce(1)
    if stream:
        large = large.repartition(max(1, spark.sparkContext.defaultParallelism))
    return small.unionByName(large).mapInArrow(_converter(counters, every, stream), schema())


def _listed_bytes(files):
    """The total size of the files of a binaryFile DataFrame from its
    listing on the driver (no job), or None where Spark does not say."""
    try:
        # Spark's estimate is the listing's bytes times this factor (1.0 unless set).
        if float(files.sparkSession.conf.get("spark.sql.sources.fileCompressionFactor", "1.0")) != 1.0:
            return None
        return int(files._jdf.queryExecution().optimizedPlan().stats().sizeInBytes().toString())
    except Exception:
        return None


def stream_route(spark, paths) -> bool:
    """Whether the executors can open the logs at ``paths`` themselves
    (read_blg's streamed route), decided on the driver from the paths'
    schemes as Spark qualifies them (a path without one takes the file
    system's default, ``fs.defaultFS``): ``file``, or a scheme pyarrow.fs
    reaches here (pyarrow builds its file system for the path: ``s3``,
    ``gs``, ``hdfs`` with its libraries…). One path of another scheme
    (``s3a``, which pyarrow does not know) and binaryFile reads them all."""
    sc = spark.sparkContext
    jvm, conf = sc._jvm, sc._jsc.hadoopConfiguration()
    for p in paths:
        try:
            jp = jvm.org.apache.hadoop.fs.Path(p)
            uri = jp.getFileSystem(conf).makeQualified(jp).toUri()
            scheme = uri.getScheme() or ""
        except Exception:
            return False
        if scheme == "file":
            continue
        try:
            import urllib.parse

            import pyarrow.fs

            pyarrow.fs.FileSystem.from_uri(urllib.parse.quote(uri.toString(), safe=_URI_SAFE))
        except Exception:
            return False
    return True


def read_limit(spark) -> int:
    """The largest log :func:`read_blg` reads through ``binaryFile``, in
    bytes: the module's input buffer (1 GiB), or binaryFile's
    ``spark.sql.sources.binaryFile.maxLength`` where the session sets it
    lower. (The logs read_blg streams are bounded by the module's 1 GiB
    alone.)"""
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
_READ_OPTIONS = ("every", "glob", "recursive", "stream_above")


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
    (``"overwrite"``, …). ``every``, ``glob``, ``recursive`` and
    ``stream_above`` go to :func:`read_blg`."""
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
from .spark_analyze import alerts_schema, analyze, fleet  # noqa: E402
