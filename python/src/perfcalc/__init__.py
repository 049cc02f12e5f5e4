"""perfcalc for Python: Windows performance counters computed exactly as
Windows' PDH computes them, and perfmon logs (.blg) read on any OS, through
perfcalc's WebAssembly module (embedded) run by wasmtime.

- :func:`read_blg` reads a .blg log into a ``pyarrow.Table`` of perfcalc's
  long schema (:data:`SCHEMA`: one row per sample and counter instance, the
  columns of ``perfcalc relog -f parquet``); ``.to_pandas()`` gives a
  DataFrame.
- :func:`relog` gives relog's CSV/TSV/JSON text, :func:`stats` relog's
  statistics, :func:`values` every counter between two captures.
- :func:`compute` and :func:`compute_batch` (NumPy) apply PDH's formulas to
  raw samples.
- :mod:`perfcalc.spark` reads many logs with Spark.
- :func:`analyze` runs perfcalc analyze (PAL threshold files or perfcalc's
  own analyses) in the module: its report as JSON text and its alerts and
  statistics as Arrow tables; :func:`perfcalc.spark.analyze_machines`
  analyses many logs on Spark's executors, grouped by machine as the
  command groups them (a row per machine; :func:`perfcalc.spark.fleet` the
  command's fleet summary, :func:`perfcalc.spark.analyze` the alerts as
  one DataFrame).

Every value is bit-identical to the native ``perfcalc`` command's. Errors
are :class:`Error` subclasses carrying the module's code and text. The
module is compiled once per process and instantiated once per thread: the
functions are safe to call from many threads.

# Security

The decoders run inside the WebAssembly sandbox: a hostile log can make a
call fail (an Error), never read or write outside the module's memory.
"""

from ._abi import VERSION as ABI_VERSION
from ._analyze import ALERTS_SCHEMA, STATISTICS_SCHEMA, Report, analyze
from ._api import VALUES_SCHEMA, read_blg, relog, stats, values, values_text
from ._compute import COUNTER_TYPES, STATUS_NAMES, Result, compute, compute_batch, counter_type, parse_options, type_name
from ._long import SCHEMA
from ._names import NamesNotTranslatedWarning
from .errors import (
    AbsentError,
    ArgumentError,
    BoundsError,
    DamagedError,
    Error,
    FaultError,
    InputError,
    LimitError,
    MalformedError,
    PanicError,
    IdentityBreaksWarning,
    SkippedEventsWarning,
    SpaceError,
    TruncatedError,
    UnsupportedError,
)

__version__ = "0.1.0"

__all__ = [
    "ABI_VERSION",
    # analyze (issue 24)
    "ALERTS_SCHEMA",
    "STATISTICS_SCHEMA",
    "Report",
    "analyze",
    "COUNTER_TYPES",
    "SCHEMA",
    "STATUS_NAMES",
    "VALUES_SCHEMA",
    "Result",
    "compute",
    "compute_batch",
    "counter_type",
    "parse_options",
    "read_blg",
    "relog",
    "stats",
    "type_name",
    "values",
    "values_text",
    # names in any language (issue 21)
    "NamesNotTranslatedWarning",
    "Error",
    "AbsentError",
    "ArgumentError",
    "BoundsError",
    "DamagedError",
    "FaultError",
    "InputError",
    "LimitError",
    "MalformedError",
    "PanicError",
    "SkippedEventsWarning",
    "IdentityBreaksWarning",
    "SpaceError",
    "TruncatedError",
    "UnsupportedError",
]
