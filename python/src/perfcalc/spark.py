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

:func:`convert` writes the dataset of ``perfcalc convert --partition``
file for file: each executor writes the logs it read with pyarrow
(:func:`write_log`), and the driver collects one row per log.

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
        for batch in batches:
            paths = batch.column("path")
            contents = batch.column("content")
            lengths = batch.column("length") if "length" in batch.schema.names else None
            for i in range(batch.num_rows):
                file = paths[i].as_py()
                size = lengths[i].as_py() if lengths is not None else None
                yield from _batches(file, _log_pieces(file, contents[i].as_buffer(), size, stream, counters, every))

    return convert


def _log_pieces(file: str, data, size, stream: bool, counters, every: int, column: bool = False):
    """read_parts' pairs of one row of the scan (path, content, length):
    the content's; for a row without content (the scan leaves it out for
    the logs over its threshold), the file read here straight into the
    module's memory where stream is set and the log fits the module's
    input, else the error of a log not read. Both mapInArrow functions
    (read_blg's and convert's) read their logs with it."""
    from . import _abi

    if data is None and size:
        if stream and size <= _abi.MAX_RESERVE:
            return read_file_parts(file, counters, every, column=column)
        return iter([(None, _too_large(file, size))])
    # A log without the counters gives no row (not an error row, as read_blg raises).
    return read_parts(memoryview(data) if data is not None else b"", counters, every, column)


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


def read_file_parts(file: str, counters=None, every: int = 0, chunk: int = 0, column: bool = False):
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
    yield from read_parts(log, counters, every, column)


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


def read_parts(log, counters=None, every: int = 0, column: bool = False):
    """The rows of the log (bytes) as :func:`perfcalc.read_blg` reads it,
    in pieces of at most MAX_RECORDS (2,097,152) values each: yields
    ``(table, None)`` pairs in the log's order, then ``(None, error)`` where
    the log cannot be read or is damaged (after the rows before the
    damage). A log whose values exceed the module's limit for one call is
    read in parts (the module's ``log_part``), halved at 64 KiB bounds
    until each part's values fit: the parts' rows put together are the
    whole log's, row for row (a part reads the whole log once for its
    columns, so each halving costs one more reading of the log). Only
    a sample whose 64 KiB block alone holds more values stays refused.
    ``column`` adds each row's column of the log as ``_column`` (int32)."""
    import perfcalc

    size = len(log)
    todo = [None]  # None: the whole log, in one call
    while todo:
        part = todo.pop(0)
        try:
            table = perfcalc._api._read_blg(log, counters, None, None, every, "raise", perfcalc._abi.DEFAULT_MAX_COLUMNS, False, part=part, column=column)
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
    _, rows, stream = _scan(spark, paths, glob, recursive, stream_above)
    return rows.mapInArrow(_converter(counters, every, stream), schema())


def _scan(spark, paths, glob: str, recursive: bool, stream_above: Optional[int]):
    """The binaryFile DataFrame of the logs at paths, the rows (path,
    content, length) that read_blg's and convert's mapInArrow take (the
    logs over the limit without content), and whether the executors read
    those logs themselves (read_blg's stream_above)."""
    if isinstance(paths, str):
        paths = [paths]
    paths = list(paths)
    if stream_above is not None and (isinstance(stream_above, bool) or not isinstance(stream_above, int) or stream_above < 0):
        raise ValueError(f"perfcalc.spark.read_blg: stream_above={stream_above!r}: want a number of bytes (0 or more) or None")
    from pyspark.sql import functions as F

    files = _listing(spark, paths, glob, recursive)
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
        return files, small, stream
    large = files.filter(F.col("length") > limit).select("path", F.lit(None).cast("binary").alias("content"), "length").coalesce(1)
    if stream:
        large = large.repartition(max(1, spark.sparkContext.defaultParallelism))
    return files, small.unionByName(large), stream


def _listing(spark, paths, glob: str = "*.blg", recursive: bool = False):
    """Spark's binaryFile DataFrame of the logs at ``paths`` (files,
    folders or globs; in folders, the files matching ``glob``,
    ``recursive`` to look in sub-folders), as read_blg, convert and
    analyze_machines list them: a file's content is read only where a
    query selects it."""
    reader = spark.read.format("binaryFile")
    if glob:
        reader = reader.option("pathGlobFilter", glob)
    if recursive:
        reader = reader.option("recursiveFileLookup", "true")
    return reader.load(list(paths))


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
    writer: str = "perfcalc",
    force: bool = False,
    **read_options,
) -> list:
    """Converts the logs at ``paths`` to a Parquet dataset under ``out``,
    partitioned by ``partition_by`` (Hive-style folders), and returns the
    logs that failed, as ``(file, error)`` pairs (sorted by file).

    ``writer="perfcalc"`` (the default) writes the layout of ``perfcalc
    convert --partition``, file for file: each log's rows are written by the
    executor that read it, with pyarrow, as
    ``out/machine=<escaped>/date=YYYY-MM-DD/<log>.parquet`` (the folders
    ``partition_by`` names, of ``"machine"`` and ``"date"``, in its order;
    ``date`` the UTC date of ``time``), each file with every column of
    :data:`perfcalc.SCHEMA` (machine among them) and written to a hidden
    temporary name and renamed, then ``out/_perfcalc/<log>.parts`` listing
    the log's files with its identity (:func:`log_identity`); the files of
    the log's earlier list that this run did not write are removed where
    they are still the files written (their size and time). ``<log>`` is
    the log's file name, or the file name and ``~`` and the identity's
    first 12 hex digits where the name is another log's or two inputs have
    it: logs of one name (every data collector's ``DataCollector01.blg``)
    never replace, skip or delete each other. A log that cannot be read or
    is damaged writes nothing (as the command). ``out`` is a
    local path, a ``file:`` URI or a URI of a file system of pyarrow
    (``s3://…``, ``gs://…``, ``hdfs://…``), the same for every executor.
    Modes: ``"errorifexists"`` (``"error"``, ``"default"``) refuses an
    existing ``out``; ``"overwrite"`` empties it first; ``"append"`` writes
    into it as a rerun of the command does: a log whose list is its own
    (its identity), not older than the log, and whose listed files are all
    still the ones written is up to date and left alone (``force=True``
    converts it again, as ``--force``; the executors read each log's first
    buffer to know its identity), and each other log's files replace its
    earlier ones, other logs' stay;
    ``"ignore"`` does nothing where ``out`` exists.

    ``writer="spark"`` writes with Spark's DataFrameWriter (any partition
    columns of the schema, any Hadoop file system Spark is set up for,
    Spark's commit protocol): files ``part-…`` without the partition
    columns and with ``file``, a damaged log's readable rows among them;
    ``mode`` is Spark's save mode. Slow on many small partitions (Spark's
    cost per file written).

    ``every``, ``glob``, ``recursive`` and ``stream_above`` go to
    :func:`read_blg`."""
    unknown = sorted(set(read_options) - set(_READ_OPTIONS))
    if unknown:
        raise TypeError(
            f"perfcalc.spark.convert: unknown option {unknown[0]!r}; convert takes counters, partition_by, mode"
            f" and read_blg's {', '.join(_READ_OPTIONS)}, and writer ('perfcalc' or 'spark')"
        )
    partition_by = tuple(partition_by)
    if writer == "spark":
        return _convert_spark(spark, paths, out, counters, partition_by, mode, read_options)
    if writer != "perfcalc":
        raise ValueError(f"perfcalc.spark.convert: writer {writer!r} is neither 'perfcalc' nor 'spark'")
    if not partition_by or any(k not in PARTITION_KEYS for k in partition_by) or len(set(partition_by)) != len(partition_by):
        raise ValueError(
            f"perfcalc.spark.convert: partition_by {partition_by!r}: writer='perfcalc' partitions by machine and/or date,"
            " each once (writer='spark' partitions by any columns)"
        )
    how = _MODES.get(str(mode).lower())
    if how is None:
        raise ValueError(f"perfcalc.spark.convert: mode {mode!r} is not one of errorifexists, overwrite, append, ignore")
    from pyarrow import fs as pafs

    filesystem, root = output_fs(out)
    info = filesystem.get_file_info(root)
    if info.type == pafs.FileType.File:
        raise FileExistsError(f"perfcalc.spark.convert: {out} is a file, not a folder")
    if info.type == pafs.FileType.Directory:
        if how == "errorifexists":
            raise FileExistsError(f"perfcalc.spark.convert: {out} exists (mode='errorifexists'); give mode='overwrite', 'append' or 'ignore'")
        if how == "ignore":
            return []
        if how == "overwrite":
            filesystem.delete_dir_contents(root)
    filesystem.create_dir(f"{root}/{PARTS_FOLDER}", recursive=True)
    # The executors get out as the driver resolved it (a relative path is the driver's).
    if isinstance(filesystem, pafs.LocalFileSystem):
        out = root
    files, rows, stream = _scan(
        spark, paths, read_options.get("glob", "*.blg"), read_options.get("recursive", False), read_options.get("stream_above", STREAM_ABOVE)
    )
    shared = _shared_names(files.inputFiles())
    # append without force leaves up-to-date logs alone (the executors tell
    # them by their identities); the other modes start from an empty folder.
    skip_current = how == "append" and not force and info.type == pafs.FileType.Directory
    every = read_options.get("every", 0)
    # The logs split among tasks as their work asks (Spark reads these
    # settings when the job runs, and they are the session's again after
    # it; a setting the session gives is kept): about twice as many tasks
    # as the cores (spark.sql.files.minPartitionNum), and 64 KiB counted
    # for opening a log (spark.sql.files.openCostInBytes, 4 MiB by default,
    # put 32 small logs in a task whatever the cores). Each task costs more
    # than opening a log: 3 tasks instead of 9 for the cluster test's 244
    # small logs took convert in local[2] from 2.5-4.6 s to 1.8-3.3 s.
    settings = {
        "spark.sql.files.openCostInBytes": str(_OPEN_COST),
        "spark.sql.files.minPartitionNum": str(2 * spark.sparkContext.defaultParallelism),
    }
    changed = [k for k in settings if spark.conf.get(k, None) is None]
    for k in changed:
        spark.conf.set(k, settings[k])
    try:
        done = rows.mapInArrow(_writer(out, partition_by, counters, every, shared, skip_current, stream), _WRITE_DDL).collect()
    finally:
        for k in changed:
            spark.conf.unset(k)
    return sorted((r["file"], r["error"]) for r in done if r["error"] is not None)


# The cost of opening a log that convert gives Spark while it splits the
# logs among tasks (spark.sql.files.openCostInBytes, 4 MiB by default).
_OPEN_COST = 64 << 10


def _shared_names(inputs) -> frozenset:
    """The logs' file names (log_base, lower-cased) that two or more inputs have: their
    outputs take their identities' names unless a name is a log's already,
    as perfcalc convert names them."""
    import collections
    import urllib.parse

    count = collections.Counter()
    for uri in set(inputs):
        # In lower case, as convert compares them (slotKey): names that
        # differ only in case are one file on Windows' and macOS's disks.
        count[log_base(urllib.parse.unquote(urllib.parse.urlsplit(uri).path)).lower()] += 1
    return frozenset(b for b, n in count.items() if n > 1)


def _convert_spark(spark, paths, out, counters, partition_by, mode, read_options) -> list:
    """convert with writer="spark": Spark's DataFrameWriter."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    df = read_blg(spark, paths, counters, **read_options).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        rows = df.filter(F.col("error").isNull()).drop("error")
        if "date" in partition_by:
            rows = rows.withColumn("date", F.expr(_UTC_DATE))
        rows.write.mode(mode).partitionBy(*partition_by).parquet(out)
        failed = df.filter(F.col("error").isNotNull()).select("file", "error").collect()
    finally:
        df.unpersist()
    return sorted((r["file"], r["error"]) for r in failed)

# ---------------------------------------------------------------------------
# convert: each log's Parquet files written by the executor that read it.

#: The partition columns of convert's default writer: perfcalc convert
#: --partition's (cmd/perfcalc/partition.go).
PARTITION_KEYS = ("machine", "date")

#: The most partitions of one log (perfcalc convert's bound: each is a
#: Parquet writer open while the log is read).
MAX_PARTITIONS = 128

#: The folder of the logs' lists of outputs, in the dataset's folder.
PARTS_FOLDER = "_perfcalc"

# Hive's value of an empty partition value (read as null by the engines).
_HIVE_DEFAULT = "__HIVE_DEFAULT_PARTITION__"
# The characters Hive and Spark escape in a partition value, besides the
# control characters and DEL.
_HIVE_SPECIAL = frozenset('"#%\'*/:=?\\{[]^')

# Native's Parquet: zstd at its fastest level, row groups of 128 Ki rows, a page index,
# and its key-value metadata (internal/parquetlog).
_ROW_GROUP = 128 << 10
_PARQUET_META = {b"perfcalc.schema": b"long/1"}
# Dictionary pages for the strings only, as native's (for the numbers they
# cost time and size: 2.7 times the bytes on the fleet logs).
_DICT_COLUMNS = [f.name for f in _columns.SCHEMA if pa.types.is_dictionary(f.type)]

# The rows of convert's mapInArrow: one per log.
_WRITE_DDL = "file string, rows bigint, files int, error string"
_WRITE_ARROW = pa.schema([("file", pa.string()), ("rows", pa.int64()), ("files", pa.int32()), ("error", pa.string())])

_MODES = {"errorifexists": "errorifexists", "error": "errorifexists", "default": "errorifexists",
          "overwrite": "overwrite", "append": "append", "ignore": "ignore"}


def hive_escape(value: str) -> str:
    """A partition value as Hive and Spark escape it in a folder name (and
    perfcalc convert --partition): the control characters, DEL and
    ``"#%'*/:=?\\{[]^`` become ``%XX``; an empty value is
    ``__HIVE_DEFAULT_PARTITION__`` (read as null) and that name itself
    ``%5F_HIVE_DEFAULT_PARTITION__`` (read back as the name), so that no two
    values share a folder."""
    if not value:
        return _HIVE_DEFAULT
    if value == _HIVE_DEFAULT:
        # The name itself, not an empty value: a folder of its own.
        return "%5F" + value[1:]
    return "".join(f"%{ord(c):02X}" if (c in _HIVE_SPECIAL or "\x01" <= c <= "\x1f" or c == "\x7f") else c for c in value)


def log_base(file: str) -> str:
    """A log's file name without the extension (``file:/logs/SERVER1.blg``
    → ``SERVER1``): the name of its outputs where it is free or the log's
    own, else followed by ``~`` and the log's identity (:func:`log_identity`),
    as perfcalc convert names them."""
    name = file.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[:dot] if dot >= 0 else name


def output_fs(out: str):
    """The pyarrow file system of ``out`` and the path in it: a local path
    (made absolute) or ``file:`` URI → the local file system; another URI
    (``s3://…``, ``gs://…``, ``hdfs://…``, ``abfs://…``) →
    ``pyarrow.fs.FileSystem.from_uri``."""
    import os
    import urllib.parse

    from pyarrow import fs

    if out.startswith("file:"):
        path = urllib.parse.unquote(urllib.parse.urlparse(out).path)
        return fs.LocalFileSystem(), path.rstrip("/") or "/"
    if "://" in out:
        filesystem, path = fs.FileSystem.from_uri(out)
        return filesystem, path.rstrip("/")
    return fs.LocalFileSystem(), os.path.abspath(out).rstrip("/") or "/"


def _partitions(table: pa.Table, keys, base: str):
    """The table's rows by output file: (relative path, rows) pairs in the
    order of their first rows, each file's rows in the table's order."""
    import datetime

    n = table.num_rows
    if n == 0:
        return []
    key = np.zeros(n, np.int64)
    machine = date = None
    if "machine" in keys:
        m = table["machine"].combine_chunks()
        if isinstance(m, pa.DictionaryArray):
            codes = m.indices.to_numpy(zero_copy_only=False).astype(np.int64)
            machine = [hive_escape(v) for v in m.dictionary.to_pylist()]
        else:
            values = m.to_pylist()
            uniq = list(dict.fromkeys(values))
            machine = [hive_escape(v) for v in uniq]
            pos = {v: i for i, v in enumerate(uniq)}
            codes = np.array([pos[v] for v in values], np.int64)
    if "date" in keys:
        micros = table["time"].combine_chunks().cast(pa.int64()).to_numpy(zero_copy_only=False)
        days = micros // 86_400_000_000
        d0 = int(days.min())
        span = int(days.max()) - d0 + 1
        key = days - d0
        date = lambda k: (datetime.date(1970, 1, 1) + datetime.timedelta(days=d0 + k)).isoformat()  # noqa: E731
    else:
        span = 1
    if machine is not None:
        key = key + codes * span
    uniq, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    out = []
    for u in np.argsort(first, kind="stable"):
        k = int(uniq[u])
        dirs = []
        for col in keys:
            dirs.append(f"machine={machine[k // span]}" if col == "machine" else f"date={date(k % span)}")
        rel = "/".join(dirs) + f"/{base}.parquet"
        rows = table if len(uniq) == 1 else table.take(np.flatnonzero(inverse == u))
        out.append((rel, rows))
    return out


class _PartFile:
    """One output of a log, written to a hidden temporary name in its
    folder (``.NAME.parquet.tmpXXXX``, which the engines skip) and renamed
    when the log is done. Its rows come in the log's order (with
    ``_column``) and are written as perfcalc's Parquet writer does: row
    groups of 128 Ki rows of that order, each ordered by column (stable),
    so that the file reads as the command's, row for row."""

    def __init__(self, fs, root: str, rel: str):
        import uuid

        import pyarrow.parquet as pq

        self.fs, self.rel = fs, rel
        self.final = f"{root}/{rel}"
        folder, name = self.final.rsplit("/", 1)
        fs.create_dir(folder, recursive=True)
        self.tmp = f"{folder}/.{name}.tmp{uuid.uuid4().hex[:12]}"
        self.pending: list = []
        self.rows = 0
        self.stream = fs.open_output_stream(self.tmp)
        try:
            self.writer = pq.ParquetWriter(
                self.stream, _columns.SCHEMA, compression="zstd", compression_level=1, use_dictionary=_DICT_COLUMNS,
                store_schema=False, data_page_version="1.0", write_page_index=True,
            )
            if hasattr(self.writer, "add_key_value_metadata"):  # pyarrow 15 and later
                self.writer.add_key_value_metadata(_PARQUET_META)
        except BaseException:
            self.stream.close()
            raise

    def write(self, table: pa.Table) -> None:
        self.pending.append(table)
        self.rows += table.num_rows
        while self.rows >= _ROW_GROUP:
            t = pa.concat_tables(self.pending)
            self._group(t.slice(0, _ROW_GROUP))
            rest = t.slice(_ROW_GROUP)
            self.pending, self.rows = [rest], rest.num_rows

    def _group(self, t: pa.Table) -> None:
        order = np.argsort(t["_column"].to_numpy(), kind="stable")
        t = t.drop_columns(["_column"]).take(order)
        self.writer.write_table(t, row_group_size=_ROW_GROUP)

    def close(self) -> None:
        if self.rows:
            self._group(pa.concat_tables(self.pending))
        self.pending, self.rows = [], 0
        self.writer.close()
        self.stream.close()

    def commit(self) -> None:
        self.fs.move(self.tmp, self.final)

    def discard(self) -> None:
        for close in (self.writer.close, self.stream.close):
            try:
                close()
            except Exception:
                pass
        try:
            self.fs.delete_file(self.tmp)
        except Exception:
            pass


#: The first line of a log's list of outputs (perfcalc convert's).
LIST_HEADER = "perfcalc convert outputs 1"

# The identity's hex digits in an output's name (NAME~ID).
_ID_DIGITS = 12

# The most bytes of a log that log_identity reads (a buffer's largest size).
_HEAD = 1 << 20


def log_identity(head) -> Optional[str]:
    """The identity of a .blg log from its first bytes ``head`` (its first
    buffer, at most 1 MiB): 64 hex digits, the SHA-256 of ``perfcalc log
    identity 1\\n``, the log header event of the first buffer with the
    fields Windows rewrites while it writes the log (EndTime,
    BuffersWritten, EventsLost, BuffersLost) as zeros, and the whole event
    after it in that buffer (in PDH's logs the counter list's first part:
    every counter path, machines included). The same log, grown or copied,
    has the same identity; logs of other machines or starts have others.
    None where head is not a log's. perfcalc convert's logIdentity
    (cmd/perfcalc/convertlist.go) is the same function."""
    import hashlib
    import struct

    b = bytes(head[:_HEAD])
    if len(b) < 0x48:
        return None
    size, used = struct.unpack_from("<I", b, 0)[0], struct.unpack_from("<I", b, 0x30)[0]
    if not (1024 <= size <= 1 << 20 and size % 1024 == 0 and 0x48 <= used <= size):
        return None
    b = b[:used]
    at = 0x48
    if len(b) < at + 32 or b[at + 3] & 0xC0 != 0xC0 or b[at + 2] not in (1, 2):
        return None
    ptr = 8 if b[at + 2] == 2 else 4
    n = struct.unpack_from("<H", b, at + 4)[0]
    t = (56 + 2 * ptr + 172 + 7) & ~7  # BootTime's offset in TRACE_LOGFILE_HEADER
    if n < 32 + t + 32 or at + n > len(b):
        return None
    header = bytearray(b[at : at + n])
    for off, width in ((16, 8), (36, 4), (48, 4), (t + 28, 4)):  # EndTime, BuffersWritten, EventsLost, BuffersLost
        header[32 + off : 32 + off + width] = bytes(width)
    h = hashlib.sha256(b"perfcalc log identity 1\n")
    h.update(header)
    off = at + ((n + 7) & ~7)
    if off + 6 <= len(b):
        ev = struct.unpack_from("<H", b, off + 4 if b[off + 2] in (1, 2) else off)[0]
        if ev >= 6 and off + ev <= len(b):
            h.update(b[off : off + ev])
    return h.hexdigest()


def _escape_list_path(p: str) -> str:
    """A path as a list writes it: control characters, DEL and % as %XX."""
    return "".join(f"%{ord(c):02X}" if ord(c) < 0x20 or c in "\x7f%" else c for c in p)


def _unescape_list_path(p: str) -> str:
    import urllib.parse

    return urllib.parse.unquote(p, errors="strict") if "%" in p else p


def _local_rel(rel: str) -> bool:
    """A path of a list that names a file inside the dataset's folder."""
    return bool(rel) and "\\" not in rel and "\x00" not in rel and not rel.startswith("/") and all(
        e not in ("", ".", "..") for e in rel.split("/"))


def _list_text(ident: str, files) -> str:
    return "".join([f"{LIST_HEADER}\nlog {ident}\n"] + [f"file {size} {mtime} {_escape_list_path(rel)}\n" for rel, size, mtime in files])


def _read_list(fs, path: str):
    """A log's list of outputs: (identity, [(relative path, size, mtime
    in ns)]), or None where it is absent or not convert's (another
    format, an older perfcalc's list, a path climbing out of the folder):
    such a list proves nothing. A list that exists but is not convert's
    gives False."""
    from pyarrow import fs as pafs

    info = fs.get_file_info(path)
    if info.type == pafs.FileType.NotFound:
        return None
    try:
        if _is_link(fs, path) or info.type != pafs.FileType.File:
            return False
        with fs.open_input_stream(path) as f:
            lines = f.read().decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    if len(lines) < 2 or lines[0] != LIST_HEADER or not lines[1].startswith("log "):
        return False
    ident = lines[1][4:]
    if len(ident) != 64 or any(c not in "0123456789abcdef" for c in ident):
        return False
    files = []
    for line in lines[2:]:
        f = line.split(" ", 3)
        try:
            if len(f) != 4 or f[0] != "file":
                return False
            rel = _unescape_list_path(f[3])
            files.append((rel, int(f[1]), int(f[2])))
        except (ValueError, UnicodeDecodeError):
            return False
        if not _local_rel(rel):
            return False
    return ident, files


def _is_link(fs, path: str) -> bool:
    """Whether path (of a local file system) is a symbolic link."""
    from pyarrow import fs as pafs

    return isinstance(fs, pafs.LocalFileSystem) and os.path.islink(path)


def _stamp(fs, root: str, rel: str):
    """The file rel of root as a list records it, (rel, size, mtime in
    ns), reached through no symbolic link (each folder on its way a real
    folder, the file a regular file); None otherwise."""
    import stat

    from pyarrow import fs as pafs

    if not _local_rel(rel):
        return None
    if isinstance(fs, pafs.LocalFileSystem):
        p = root
        parts = rel.split("/")
        for i, e in enumerate(parts):
            p = f"{p}/{e}"
            try:
                st = os.lstat(p)
            except OSError:
                return None
            if stat.S_ISLNK(st.st_mode) or (i < len(parts) - 1 and not stat.S_ISDIR(st.st_mode)):
                return None
        return (rel, st.st_size, st.st_mtime_ns) if stat.S_ISREG(st.st_mode) else None
    info = fs.get_file_info(f"{root}/{rel}")
    if info.type != pafs.FileType.File:
        return None
    return rel, info.size, info.mtime_ns or 0


def _proven(fs, root: str, f) -> bool:
    """Whether the listed file f is still the file convert wrote."""
    return _stamp(fs, root, f[0]) == tuple(f)


def _mkdir_inside(fs, root: str, rel: str) -> None:
    """Makes the folder rel of root and those on its way, none a symbolic
    link (convert writes nothing through a link to a folder elsewhere)."""
    from pyarrow import fs as pafs

    if not isinstance(fs, pafs.LocalFileSystem):
        fs.create_dir(f"{root}/{rel}", recursive=True)
        return
    os.makedirs(root, exist_ok=True)  # the dataset's folder itself is the caller's to choose
    p = root
    for e in rel.split("/"):
        p = f"{p}/{e}"
        try:
            os.mkdir(p)
        except FileExistsError:
            pass
        if os.path.islink(p) or not os.path.isdir(p):
            raise _Refused(f"{p} is not a folder (a symbolic link or a file): convert writes nothing through it")


def _slot(fs, root: str, base: str, ident: str, shared: bool) -> str:
    """Where a log's outputs go (perfcalc convert's chooseSlot): the name
    whose list is the log's (the plain name's first), else the plain name
    where it is free and no other input of the run has it, else
    NAME~ID."""
    suffixed = f"{base}~{ident[:_ID_DIGITS]}"
    plain_list = _read_list(fs, f"{root}/{PARTS_FOLDER}/{base}.parts")
    suffixed_list = _read_list(fs, f"{root}/{PARTS_FOLDER}/{suffixed}.parts")
    if plain_list and plain_list[0] == ident:
        return base
    if suffixed_list and suffixed_list[0] == ident:
        return suffixed
    if plain_list is None and not shared:
        return base
    if suffixed_list is not None:
        raise _Refused(f"its outputs' name {suffixed} is another log's ({root}/{PARTS_FOLDER}/{suffixed}.parts); convert it into another folder")
    return suffixed


def _current(fs, root: str, slot: str, ident: str, log_mtime_ns) -> bool:
    """Whether the log's outputs in slot are up to date (perfcalc
    convert's listUpToDate): its list is its own, not older than the log,
    and every file it names is still the one written."""
    listed = f"{root}/{PARTS_FOLDER}/{slot}.parts"
    info = fs.get_file_info(listed)
    if log_mtime_ns is None or info.mtime_ns is None or info.mtime_ns < log_mtime_ns:
        return False
    lst = _read_list(fs, listed)
    return bool(lst) and lst[0] == ident and all(_proven(fs, root, f) for f in lst[1])


def _log_head(file: str, data):
    """The first bytes of a log for log_identity, and its modification time
    in ns (None where unknown): from the scan's content, or read here."""
    mtime = None
    try:
        path = local_path(file)
        if path is not None:
            mtime = os.stat(path).st_mtime_ns
    except OSError:
        pass
    if data is not None:
        return memoryview(data)[:_HEAD], mtime
    try:
        f, _ = _open(file)
        with f:
            return f.read(_HEAD), mtime
    except (OSError, ValueError):
        return b"", mtime


def _write_text(fs, path: str, text: str) -> None:
    import uuid

    folder, name = path.rsplit("/", 1)
    tmp = f"{folder}/.{name}.tmp{uuid.uuid4().hex[:12]}"
    try:
        with fs.open_output_stream(tmp) as f:
            f.write(text.encode("utf-8"))
        fs.move(tmp, path)
    except BaseException:
        try:
            fs.delete_file(tmp)
        except Exception:
            pass
        raise


def write_log(fs, root: str, file: str, log, keys=("machine", "date"), counters=None, every: int = 0):
    """Converts one log (its bytes) into its Parquet files under ``root``
    (in the file system ``fs``) as perfcalc convert --partition does:
    ``root/machine=…/date=…/<log>.parquet``, each written to a temporary
    name and renamed, then ``root/_perfcalc/<log>.parts`` listing them with
    the log's identity, then the removal of the files of its earlier list
    that this run did not write (those still the files written). ``<log>``
    is the log's file name where it is free or its own, else the name
    followed by ``~`` and its identity's first 12 hex digits. A log that
    cannot be read or is damaged writes nothing (its earlier outputs
    stay). Returns ``(rows, files, error)``."""
    data = memoryview(log) if not isinstance(log, memoryview) else log
    return _write_parts(fs, root, file, read_parts(log, counters, every, column=True), keys, log_identity(data[:_HEAD]))


def _write_parts(fs, root: str, file: str, pieces, keys, ident, shared: bool = False):
    """write_log of the log whose read_parts pairs (read with column) are
    pieces and whose identity is ident (None: not a log, which pieces
    say)."""
    parts: dict = {}
    rows = 0
    error = None
    try:
        base = _slot(fs, root, log_base(file), ident, shared) if ident else log_base(file)
        for table, err in pieces:
            if err is not None:
                error = err
                break
            if ident is None:
                error = f"perfcalc: {file}: not a .blg log (no log header in its first buffer)"
                break
            for rel, t in _partitions(table, keys, base):
                w = parts.get(rel)
                if w is None:
                    if len(parts) == MAX_PARTITIONS:
                        raise _Refused(f"the log has more than {MAX_PARTITIONS} partitions ({','.join(keys)}); partition by fewer columns")
                    _mkdir_inside(fs, root, rel.rsplit("/", 1)[0])
                    w = parts[rel] = _PartFile(fs, root, rel)
                w.write(t)
                rows += t.num_rows
        if error is None and ident is None:
            error = f"perfcalc: {file}: not a .blg log (no log header in its first buffer)"
        if error is None:
            for w in parts.values():
                w.close()
    except _Refused as e:
        error = str(e)
    except Exception as e:  # the file system's
        error = f"{e}"
    if error is not None:
        for w in parts.values():
            w.discard()
        return 0, 0, error
    listed = f"{root}/{PARTS_FOLDER}/{base}.parts"
    old = _read_list(fs, listed)
    done = []
    try:
        for w in parts.values():
            w.commit()
            done.append(w)
        files = []
        for rel in sorted(parts):
            f = _stamp(fs, root, rel)
            if f is None:
                raise OSError(f"{root}/{rel}: not the file written")
            files.append(f)
        _mkdir_inside(fs, root, PARTS_FOLDER)
        _write_text(fs, listed, _list_text(ident, files))
    except Exception as e:
        for w in parts.values():
            if w not in done:
                w.discard()
        return 0, 0, f"{e}"
    if old and old[0] == ident:
        for f in old[1]:
            if f[0] not in parts and _proven(fs, root, f):
                try:
                    fs.delete_file(f"{root}/{f[0]}")
                except Exception:
                    pass
    return rows, len(parts), None


class _Refused(Exception):
    pass


def _writer(out: str, keys, counters, every: int, shared: frozenset, skip_current: bool, stream: bool = False):
    """convert's mapInArrow function: each input row (path, content,
    length) → its files under out, and one row (file, rows, files, error).
    It runs on the executors. A row without content is read here, as
    read_blg's converter reads it, where stream is set (read_file_parts).
    With skip_current, a log whose outputs are up to date is left alone
    (files 0, no error)."""

    def write(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        fs, root = output_fs(out)
        for batch in batches:
            paths = batch.column("path")
            contents = batch.column("content")
            lengths = batch.column("length")
            for i in range(batch.num_rows):
                file = paths[i].as_py()
                data = contents[i].as_buffer()
                head, mtime = _log_head(file, data)
                ident = log_identity(head)
                base = log_base(file)
                rows, files, error = 0, 0, None
                try:
                    current = skip_current and ident is not None and _current(fs, root, _slot(fs, root, base, ident, base.lower() in shared), ident, mtime)
                except _Refused:
                    current = False
                if not current:
                    pieces = _log_pieces(file, data, lengths[i].as_py(), stream, counters, every, column=True)
                    rows, files, error = _write_parts(fs, root, file, pieces, keys, ident, base.lower() in shared)
                yield pa.RecordBatch.from_arrays(
                    [pa.array([file], pa.string()), pa.array([rows], pa.int64()), pa.array([files], pa.int32()), pa.array([error], pa.string())],
                    schema=_WRITE_ARROW,
                )

    return write


# analyze (issue 24): the alerts of many logs as one DataFrame.
from .spark_analyze import alerts_of, alerts_schema, analyze, analyze_machines, fleet, machines_schema  # noqa: E402
