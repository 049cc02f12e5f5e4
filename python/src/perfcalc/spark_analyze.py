"""perfcalc analyze for Spark: many .blg logs analysed on Spark's
executors, grouped by machine as ``perfcalc analyze`` groups them, as
DataFrames: one row per machine analysed (:func:`analyze_machines`), its
alerts one row each (:func:`analyze`, :func:`alerts_of`), and the fleet
summary of the command (:func:`fleet`).

    import perfcalc.spark

    machines = perfcalc.spark.analyze_machines(spark, "logs/", thresholds="pal/SystemOverview.xml").cache()
    perfcalc.spark.fleet(machines).show()            # the command's "Fleet:" lines
    alerts = perfcalc.spark.alerts_of(machines)      # or perfcalc.spark.analyze(spark, "logs/", ...)
    alerts.filter("condition = 'Critical'").groupBy("machine", "analysis").count().show()

# How it runs

Spark's ``binaryFile`` source reads each log once (as
:func:`perfcalc.spark.read_blg`). A first, light pass on the executors
(``mapInArrow``) gives each log's machine, as the command groups logs: the
machine of its first column, ASCII case ignored (``analysis.LogMachine``;
the module's ``relog_columns``, which reads the log's columns without
computing a value). Then the logs of each machine go to one executor
(``groupBy(...).applyInArrow``), where :func:`perfcalc.analyze` analyses
them together, merged as relog merges them, in the order of their paths:
the machine's report, its alerts and its figures are what ``perfcalc
analyze`` writes for those logs (at most 32 logs a machine, as the
command). Grouping on the cluster, not on the driver, keeps the logs'
bytes in Spark (any file system Spark reads, each log read once) and moves
each machine's logs once, to the executor that merges them; the driver
sees only the rows. The threshold files are read once, on the driver
(with the files they inherit from their folder), and shipped with the
functions.

# Schemas

:func:`machines_schema`: one row per machine analysed, and one per log that
could not be read: ``machine`` (the report's ``parameters.machine``, as
the first column names it; null for a log not read), ``files`` (the logs
analysed together, in order, as Spark names them), ``begin``, ``end`` and
``samples`` (the report's ``parameters``), ``critical`` and ``warning``
(its alerts of each condition), ``critical_at`` (the UTC starts of the
slices of its critical alerts, in time order), ``alerts`` (its alerts, an
array of structs of the columns of :data:`perfcalc.ALERTS_SCHEMA`), then
``error``: why a log could not be read (its row's other columns but
``files`` are null), or why the machine's logs end early (the report then
covers the samples before the damage), or why the module refused the
machine's logs (then the figures are null).

:func:`alerts_schema`: ``files`` (the machine's logs, as above), the
columns of :data:`perfcalc.ALERTS_SCHEMA` (``start`` and ``end`` as
``timestamp``), then ``error``. Each machine row's error gives one row
whose ``error`` holds it and whose other columns but ``files`` are null. A
machine without alerts gives no row there (its row of
:func:`analyze_machines` has ``critical`` and ``warning`` 0).
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping, Union

import pyarrow as pa
import pyarrow.compute as pc

from ._analyze import ALERTS_SCHEMA, _files, _inherited, _instants
from .errors import Error

_SPARK_TYPES = {
    pa.string(): "string",
    pa.int32(): "int",
    pa.int64(): "bigint",
    pa.float64(): "double",
}

_TS = pa.timestamp("us", tz="UTC")  # Spark's timestamps are microseconds.


def _spark(t: pa.DataType) -> pa.DataType:
    return _TS if pa.types.is_timestamp(t) else t


_ALERT = pa.struct([(f.name, _spark(f.type)) for f in ALERTS_SCHEMA])

_ARROW = pa.schema([("files", pa.list_(pa.string()))] + [(f.name, _spark(f.type)) for f in ALERTS_SCHEMA] + [("error", pa.string())])

_MACHINES = pa.schema(
    [
        ("machine", pa.string()),
        ("files", pa.list_(pa.string())),
        ("begin", _TS),
        ("end", _TS),
        ("samples", pa.int64()),
        ("critical", pa.int32()),
        ("warning", pa.int32()),
        ("critical_at", pa.list_(_TS)),
        ("alerts", pa.list_(_ALERT)),
        ("error", pa.string()),
    ]
)

# The first pass's rows: each log with its machine (the grouping key) or
# the reason it cannot be read.
_KEYED = pa.schema([("path", pa.string()), ("content", pa.binary()), ("key", pa.string()), ("reason", pa.string())])


def _ddl_type(t: pa.DataType) -> str:
    if pa.types.is_timestamp(t):
        return "timestamp"
    if pa.types.is_list(t):
        return f"array<{_ddl_type(t.value_type)}>"
    if pa.types.is_struct(t):
        return "struct<" + ", ".join(f"`{f.name}`: {_ddl_type(f.type)}" for f in t) + ">"
    if pa.types.is_binary(t):
        return "binary"
    return _SPARK_TYPES[t]


def _ddl(schema: pa.Schema) -> str:
    return ", ".join(f"`{f.name}` {_ddl_type(f.type)}" for f in schema)


def alerts_schema():
    """The alerts DataFrame's schema (:func:`analyze`) as a pyspark
    ``StructType``."""
    from pyspark.sql.types import StructType

    return StructType.fromDDL(_ddl(_ARROW))


def machines_schema():
    """The machines DataFrame's schema (:func:`analyze_machines`) as a
    pyspark ``StructType``."""
    from pyspark.sql.types import StructType

    return StructType.fromDDL(_ddl(_MACHINES))


def _keyer(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """The first pass (mapInArrow, on the executors): each log's machine as
    the command groups logs, or why it cannot be read (its content then
    dropped: nothing more reads it)."""
    from ._analyze import _machine_key

    for batch in batches:
        paths, contents = batch.column("path"), batch.column("content")
        keys, reasons, keep = [], [], []
        for i in range(batch.num_rows):
            data = contents[i].as_buffer()
            try:
                keys.append(_machine_key(memoryview(data) if data is not None else b""))
                reasons.append(None)
                keep.append(True)
            except Error as e:
                keys.append(None)
                reasons.append(e.message)
                keep.append(False)
        kept = pc.if_else(pa.array(keep), contents, pa.nulls(batch.num_rows, pa.binary()))
        yield pa.RecordBatch.from_arrays([paths, kept, pa.array(keys, pa.string()), pa.array(reasons, pa.string())], schema=_KEYED)


def _machine_rows(rows: list) -> pa.Table:
    """Rows (dicts of _MACHINES' columns) as a table."""
    return pa.Table.from_pylist(rows, schema=_MACHINES)


def _failed(files: list, error: str) -> dict:
    return {"machine": None, "files": files, "error": error}


def _report_row(m: dict, files: list, error: str | None) -> dict:
    """A machine's row from its report (a dict, as the JSON): the command's
    fleet summary counts (appendFleetText): its critical and warning
    alerts, and the start of each slice of its critical alerts, once per
    run of alerts of one slice, in the report's (time) order."""
    alerts = m["alerts"]
    crit = [a for a in alerts if a["condition"] == "Critical"]
    at, last = [], None
    for a in crit:
        if a["slice"] != last:
            last = a["slice"]
            at.append(a["start"])
    p = m["parameters"]
    begin, end = _instants([p["begin"], p["end"]]).to_pylist()
    cols = {f.name: [a[f.name] for a in alerts] for f in ALERTS_SCHEMA}
    for k in ("start", "end"):
        cols[k] = _instants(cols[k]).to_pylist()
    return {
        "machine": p["machine"],
        "files": files,
        "begin": begin,
        "end": end,
        "samples": p["samples"],
        "critical": len(crit),
        "warning": sum(1 for a in alerts if a["condition"] == "Warning"),
        "critical_at": _instants(at).to_pylist(),
        "alerts": [{k: cols[k][i] for k in cols} for i in range(len(alerts))],
        "error": error,
    }


def _grouped(thresholds, include, values, interval, pal_compat, identity):
    """The applyInArrow function: the logs of one machine (a group of the
    first pass's rows; the group of null key holds the logs not read) →
    the machine's row (module doc). It runs on the executors."""

    def run(table: pa.Table) -> pa.Table:
        import perfcalc

        paths = table.column("path").to_pylist()
        order = sorted(range(len(paths)), key=paths.__getitem__)
        if not order:
            return _machine_rows([])
        files = [paths[i] for i in order]
        if table.column("key")[0].as_py() is None:
            reasons = table.column("reason").to_pylist()
            return _machine_rows([_failed([paths[i]], reasons[i]) for i in order])
        contents = table.column("content")  # the logs' bytes, not copied
        try:
            rep = perfcalc.analyze(
                [memoryview(contents[i].as_buffer()) for i in order],
                thresholds,
                include=include,
                set=values,
                interval=interval,
                pal_compat=pal_compat,
                identity=identity,
            )
        except perfcalc.Error as e:
            return _machine_rows([_failed(files, e.message)])
        # One machine: the logs share their first column's machine.
        return _machine_rows([_report_row(m, files, rep.damage) for m in rep.machines])

    return run


def analyze_machines(
    spark,
    paths: Union[str, Iterable[str]],
    thresholds=None,
    *,
    include=None,
    set: Mapping | None = None,
    interval: int | None = None,
    pal_compat: bool = False,
    identity: str = "pdh",
    glob: str = "*.blg",
    recursive: bool = False,
):
    """A DataFrame of one row per machine of the logs at ``paths`` (files,
    folders or globs, as :func:`perfcalc.spark.read_blg` takes them), its
    logs analysed together by :func:`perfcalc.analyze` with
    ``thresholds``, ``include``, ``set``, ``interval``, ``pal_compat`` and
    ``identity``, and one row per log that could not be read (see the
    module's doc for the schema and errors; :func:`fleet` gives the
    command's fleet summary from it, :func:`alerts_of` its alerts).
    It needs pyspark 4.0 or later (``applyInArrow``); an older one raises
    :class:`perfcalc.Error`."""
    if isinstance(paths, str):
        paths = [paths]
    run = _files(thresholds, "thresholds")
    inc = _inherited(run, _files(include, "include"))
    # Pairs: the executors get bytes, not paths.
    run_pairs = [(n, b) for n, b, _ in run]
    inc_pairs = [(n, b) for n, b, _ in inc]
    from .spark import _listing

    files = _listing(spark, paths, glob, recursive).select("path", "content")
    keyed = files.mapInArrow(_keyer, _ddl(_KEYED))
    run_group = _grouped(run_pairs, inc_pairs, dict(set or {}), interval, pal_compat, identity)
    grouped = keyed.groupBy("key")
    if not hasattr(grouped, "applyInArrow"):
        import pyspark

        raise Error(f"perfcalc.spark.analyze_machines needs pyspark 4.0 or later (groupBy(...).applyInArrow), not {pyspark.__version__}")
    return grouped.applyInArrow(run_group, machines_schema())


def alerts_of(machines):
    """The alerts DataFrame (:func:`alerts_schema`) of
    :func:`analyze_machines`' DataFrame: one row per alert, and one per
    row's error."""
    from pyspark.sql import functions as F

    names = [f.name for f in ALERTS_SCHEMA]
    alerts = machines.select("files", F.explode("alerts").alias("a")).select(
        "files", *[F.col("a." + n).alias(n) for n in names], F.lit(None).cast("string").alias("error")
    )
    errors = machines.filter(F.col("error").isNotNull()).select(
        "files", *[F.lit(None).cast(_ddl_type(_spark(f.type))).alias(f.name) for f in ALERTS_SCHEMA], "error"
    )
    return alerts.unionByName(errors)


def analyze(
    spark,
    paths: Union[str, Iterable[str]],
    thresholds=None,
    *,
    include=None,
    set: Mapping | None = None,
    interval: int | None = None,
    pal_compat: bool = False,
    identity: str = "pdh",
    glob: str = "*.blg",
    recursive: bool = False,
):
    """A DataFrame of the alerts of the logs at ``paths``, grouped by
    machine and analysed as :func:`analyze_machines` analyses them:
    ``alerts_of(analyze_machines(...))`` (see the module's doc for the
    schema and errors)."""
    return alerts_of(
        analyze_machines(
            spark,
            paths,
            thresholds,
            include=include,
            set=set,
            interval=interval,
            pal_compat=pal_compat,
            identity=identity,
            glob=glob,
            recursive=recursive,
        )
    )


def fleet(df):
    """The fleet summary of ``perfcalc analyze`` (its text format's
    ``Fleet:`` lines) computed on the cluster: one row per machine,
    ``machine``, ``critical`` and ``warning`` (its alerts of each
    condition) and ``critical_at`` (the UTC starts of the slices of its
    critical alerts, in time order; the command prints the first five),
    ordered by machine (the command prints ``(local machine)`` for the
    machine ``""``).

    From :func:`analyze_machines`' DataFrame, it is the command's summary
    for the same logs: every machine analysed, those without alerts with 0
    and 0, a machine of damaged logs with the alerts before the damage;
    logs not read and machines whose logs the module refused are left out
    (the command leaves them out too, or refuses the run). From
    :func:`analyze`'s alerts DataFrame, a machine without alerts has no row
    (the alerts DataFrame holds none of it) and error rows are left out."""
    from pyspark.sql import functions as F

    if "critical" in df.columns:
        return df.filter(F.col("machine").isNotNull() & F.col("critical").isNotNull()).select("machine", "critical", "warning", "critical_at").orderBy("machine")
    rows = df.filter(F.col("error").isNull())
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


__all__ = ["alerts_of", "alerts_schema", "analyze", "analyze_machines", "fleet", "machines_schema"]
