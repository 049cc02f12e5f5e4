"""perfcalc analyze for Spark: the alerts of many .blg logs, each analysed
on Spark's executors by :func:`perfcalc.analyze`, as one DataFrame.

    import perfcalc.spark

    alerts = perfcalc.spark.analyze(spark, "logs/", thresholds="pal/SystemOverview.xml")
    alerts.filter("condition = 'Critical'").groupBy("machine", "analysis").count().show()

It runs as :func:`perfcalc.spark.read_blg` does (Spark's ``binaryFile``
source, ``mapInArrow`` on the executors). The threshold files are read
once, on the driver (with the files they inherit from their folder), and
shipped with the function.

# Schema

:func:`alerts_schema`: ``file`` (the log's path as Spark names it), the
columns of :data:`perfcalc.ALERTS_SCHEMA` (``start`` and ``end`` as
``timestamp``), then ``error``. A log that cannot be analysed gives one row
whose ``error`` holds the reason and whose other columns but ``file`` are
null; a log damaged after its start gives the alerts of the samples before
the damage and such a row. A log without alerts gives no row.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping, Union

import pyarrow as pa

from ._analyze import ALERTS_SCHEMA, _files, _inherited

_SPARK_TYPES = {
    pa.string(): "string",
    pa.int32(): "int",
    pa.float64(): "double",
}

# Spark's timestamps are microseconds.
_ARROW = pa.schema(
    [("file", pa.string())]
    + [(f.name, pa.timestamp("us", tz="UTC") if pa.types.is_timestamp(f.type) else f.type) for f in ALERTS_SCHEMA]
    + [("error", pa.string())]
)

_DDL = ", ".join(
    f"`{f.name}` {'timestamp' if pa.types.is_timestamp(f.type) else _SPARK_TYPES[f.type]}" for f in _ARROW
)


def alerts_schema():
    """The alerts DataFrame's schema as a pyspark ``StructType``."""
    from pyspark.sql.types import StructType

    return StructType.fromDDL(_DDL)


def _alerts_arrow(table: pa.Table, file: str) -> pa.Table:
    """A Report's alerts in the DataFrame's Arrow types, with the log's
    file and a null error."""
    n = table.num_rows
    cols = [pa.array([file] * n, pa.string())]
    cols += [table[f.name].cast(_ARROW.field(f.name).type) for f in ALERTS_SCHEMA]
    cols.append(pa.nulls(n, pa.string()))
    return pa.Table.from_arrays(cols, schema=_ARROW)


def _error_row(file: str, message: str) -> pa.Table:
    cols = [pa.array([file], pa.string())]
    cols += [pa.nulls(1, f.type) for f in list(_ARROW)[1:-1]]
    cols.append(pa.array([message], pa.string()))
    return pa.Table.from_arrays(cols, schema=_ARROW)


def _analyzer(thresholds, include, values, interval, pal_compat):
    """The mapInArrow function: each input row (path, content) → the
    log's alerts. It runs on the executors."""

    def run(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import perfcalc

        for batch in batches:
            paths = batch.column("path")
            contents = batch.column("content")
            for i in range(batch.num_rows):
                file = paths[i].as_py()
                data = contents[i].as_buffer()
                out = []
                try:
                    r = perfcalc.analyze(
                        memoryview(data) if data is not None else b"",
                        thresholds,
                        include=include,
                        set=values,
                        interval=interval,
                        pal_compat=pal_compat,
                    )
                    out.append(_alerts_arrow(r.alerts, file))
                    if r.damage:
                        out.append(_error_row(file, r.damage))
                except perfcalc.Error as e:
                    out.append(_error_row(file, e.message))
                for t in out:
                    yield from t.to_batches()

    return run


def analyze(
    spark,
    paths: Union[str, Iterable[str]],
    thresholds=None,
    *,
    include=None,
    set: Mapping | None = None,
    interval: int | None = None,
    pal_compat: bool = False,
    glob: str = "*.blg",
    recursive: bool = False,
):
    """A DataFrame of the alerts of the logs at ``paths`` (files, folders
    or globs, as :func:`perfcalc.spark.read_blg` takes them), each log
    analysed by :func:`perfcalc.analyze` with ``thresholds``, ``include``,
    ``set``, ``interval`` and ``pal_compat`` (see the module's doc for the
    schema and errors)."""
    if isinstance(paths, str):
        paths = [paths]
    run = _files(thresholds, "thresholds")
    inc = _inherited(run, _files(include, "include"))
    # Pairs: the executors get bytes, not paths.
    run_pairs = [(n, b) for n, b, _ in run]
    inc_pairs = [(n, b) for n, b, _ in inc]
    reader = spark.read.format("binaryFile")
    if glob:
        reader = reader.option("pathGlobFilter", glob)
    if recursive:
        reader = reader.option("recursiveFileLookup", "true")
    files = reader.load(list(paths)).select("path", "content")
    return files.mapInArrow(_analyzer(run_pairs, inc_pairs, dict(set or {}), interval, pal_compat), alerts_schema())


def fleet(alerts):
    """The fleet summary of ``perfcalc analyze`` (its text format's
    ``Fleet:`` lines) computed on the cluster from :func:`analyze`'s
    DataFrame: one row per machine with alerts, ``machine``, ``critical``
    and ``warning`` (its alerts of each condition) and ``critical_at`` (the
    UTC starts of the slices of its critical alerts, in time order; the
    command prints the first five), ordered by machine.

    Where it differs from the command: :func:`analyze` analyses each log on
    its own, so a machine of several logs sums its logs' alerts (the
    command merges them, as relog does, and analyses the merged samples);
    a machine without any alert has no row (the command lists it with 0
    and 0); rows with an ``error`` are left out."""
    from pyspark.sql import functions as F

    rows = alerts.filter(F.col("error").isNull())
    crit = F.col("condition") == "Critical"
    return (
        rows.groupBy("machine")
        .agg(
            F.sum(F.when(crit, 1).otherwise(0)).cast("int").alias("critical"),
            F.sum(F.when(F.col("condition") == "Warning", 1).otherwise(0)).cast("int").alias("warning"),
            F.array_sort(F.array_distinct(F.collect_list(F.when(crit, F.col("start"))))).alias("critical_at"),
        )
        .orderBy("machine")
    )


__all__ = ["alerts_schema", "analyze", "fleet"]
