"""analyze: perfcalc analyze in the module (issue 24), its report as JSON
text and as Arrow tables."""

from __future__ import annotations

import json
import os
import re
import struct
from pathlib import Path
from typing import Iterable, Mapping, Union

import numpy as np
import pyarrow as pa

from . import _abi, _names
from ._api import Source, _bytes, _identity_mode, _text
from ._module import analyze_instance
from .errors import ArgumentError, Error, InputError

#: A threshold file: a path (its name is the path as given), or a
#: ``(name, bytes)`` pair.
Thresholds = Union[str, os.PathLike, tuple, Iterable[Union[str, os.PathLike, tuple]], None]

#: The alerts table's schema: one row per alert, the fields of the report's
#: ``alerts`` objects (perfcalc analyze -f json; doc/ANALYSIS.md), times as
#: UTC instants.
ALERTS_SCHEMA = pa.schema(
    [
        ("machine", pa.string()),
        ("analysis", pa.string()),
        ("id", pa.string()),
        ("datasource", pa.string()),
        ("category", pa.string()),
        ("condition", pa.string()),
        ("priority", pa.int32()),
        ("threshold", pa.string()),
        ("path", pa.string()),
        ("slice", pa.int32()),
        ("start", pa.timestamp("ms", tz="UTC")),
        ("end", pa.timestamp("ms", tz="UTC")),
        ("min", pa.float64()),
        ("avg", pa.float64()),
        ("max", pa.float64()),
        ("trend", pa.float64()),
    ]
)

#: The statistics table's schema: one row per series (a counter instance of
#: an analysis' datasource), its overall figures from the report's
#: ``analyses[].series[]`` (null where the series has no value), with its
#: machine and its analysis' name, ``id`` and category (the alerts' ``id``).
STATISTICS_SCHEMA = pa.schema(
    [
        ("machine", pa.string()),
        ("analysis", pa.string()),
        ("id", pa.string()),
        ("category", pa.string()),
        ("datasource", pa.string()),
        ("path", pa.string()),
        ("condition", pa.string()),
        ("n", pa.int64()),
        ("min", pa.float64()),
        ("avg", pa.float64()),
        ("max", pa.float64()),
        ("trend", pa.float64()),
        ("stddev", pa.float64()),
        ("trimmed10", pa.float64()),
        ("trimmed20", pa.float64()),
        ("trimmed30", pa.float64()),
        ("p90", pa.float64()),
        ("p95", pa.float64()),
        ("p99", pa.float64()),
    ]
)

_MAX_FILES = 256


class Report:
    """The report of perfcalc analyze over one log, or over logs grouped by
    machine as the command groups them.

    - ``json``: its JSON text, byte for byte what ``perfcalc analyze -f
      json`` writes for the same logs, threshold files and options: one
      machine's report, or for logs of several machines the fleet object
      (``alerts``, every machine's in time order, and ``machines``, a
      report per machine);
    - ``report``: that JSON parsed (a dict: ``parameters``, ``slices``,
      ``alerts``, ``analyses``, ``unsupported``; or ``alerts`` and
      ``machines``);
    - ``machines``: the machines' reports (dicts; one for one machine);
    - ``alerts`` and ``statistics``: pyarrow Tables (:data:`ALERTS_SCHEMA`,
      :data:`STATISTICS_SCHEMA`), every machine's rows;
    - ``damage``: why a log ends early (the report covers the samples
      before it), or None;
    - ``names_unknown``: with ``translate``, the names not translated (of
      the last machine's logs), else None.
    """

    def __init__(self, text: str, damage: str | None, names_unknown: list | None = None):
        self.json = text
        self.damage = damage
        self.names_unknown = names_unknown
        self._report = None

    @property
    def report(self) -> dict:
        if self._report is None:
            self._report = json.loads(self.json)
        return self._report

    @property
    def machines(self) -> list:
        """The reports of the machines: the fleet's ``machines``, or the
        report itself for one machine."""
        return self.report["machines"] if "machines" in self.report else [self.report]

    @property
    def unsupported(self) -> list:
        """What the threshold files hold that could not be evaluated, with
        the reasons (the report's ``unsupported``; of several machines,
        each item once, in order)."""
        out = []
        for m in self.machines:
            out += [u for u in m["unsupported"] if u not in out]
        return out

    @property
    def alerts(self) -> pa.Table:
        alerts = self.report["alerts"]
        cols = {f.name: [a[f.name] for a in alerts] for f in ALERTS_SCHEMA}
        for k in ("start", "end"):
            cols[k] = _instants(cols[k])
        return pa.Table.from_pydict(cols, schema=ALERTS_SCHEMA)

    @property
    def statistics(self) -> pa.Table:
        rows = {f.name: [] for f in STATISTICS_SCHEMA}
        series = STATISTICS_SCHEMA.names[4:]
        for m in self.machines:
            machine = m["parameters"]["machine"]
            for a in m["analyses"]:
                for s in a["series"]:
                    rows["machine"].append(machine)
                    rows["analysis"].append(a["name"])
                    rows["id"].append(a["id"])
                    rows["category"].append(a["category"])
                    for f in series:
                        rows[f].append(s[f])
        return pa.Table.from_pydict(rows, schema=STATISTICS_SCHEMA)

    def __repr__(self) -> str:
        n = len(self.report["alerts"])
        if "machines" in self.report:
            return f"<perfcalc.Report {len(self.machines)} machines: {n} alerts>"
        p = self.report["parameters"]
        return f"<perfcalc.Report {p['machine']} {p['begin']}…{p['end']}: {n} alerts>"


def _instants(texts: list) -> pa.Array:
    """ISO 8601 UTC times (…Z, milliseconds) as a timestamp array."""
    ms = np.array([t[:-1] if t.endswith("Z") else t for t in texts], dtype="datetime64[ms]")
    return pa.array(ms.astype(np.int64), pa.timestamp("ms", tz="UTC"))


def _files(x: Thresholds, what: str) -> list:
    """Threshold files as (name, bytes, folder or None): paths read (their
    folder kept for INHERITANCE), (name, bytes) pairs as given."""
    if x is None:
        return []
    if isinstance(x, (str, os.PathLike)) or (isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str)):
        x = [x]
    out = []
    for f in x:
        if isinstance(f, (str, os.PathLike)):
            out.append((os.fspath(f), bytes(_bytes(f, "threshold file")), Path(f).parent))
        elif isinstance(f, tuple) and len(f) == 2 and isinstance(f[0], str):
            out.append((f[0], bytes(_bytes(f[1], "threshold file")), None))
        else:
            raise ArgumentError(f"perfcalc: {what}: want paths or (name, bytes) pairs, not {type(f).__name__}")
    return out


def _values(set: Mapping | None) -> bytes:
    """Question values as the module reads them: NAME=VALUE lines."""
    if not set:
        return b""
    lines = []
    for k, v in set.items():
        k, v = str(k), str(v)
        if not k or "=" in k or any(c in k + v for c in "\r\n") or k != k.lstrip() or v != v.rstrip():
            raise ArgumentError(f"perfcalc: set {k!r}: {v!r} is not NAME=VALUE on one line")
        lines.append(f"{k}={v}")
    return "\n".join(lines).encode("utf-8")


def _find(folder: Path, name: str) -> Path | None:
    """The file of folder named name (its last element), ASCII case
    ignored, as INHERITANCE finds it."""
    base = re.split(r"[\\/]", name)[-1]
    p = folder / base
    if p.is_file():
        return p
    low = base.lower()
    for q in folder.iterdir() if folder.is_dir() else ():
        if q.name.lower() == low and q.is_file():
            return q
    return None


def analyze(
    source: Union[Source, list],
    thresholds: Thresholds = None,
    *,
    include: Thresholds = None,
    set: Mapping | None = None,
    interval: int | None = None,
    pal_compat: bool = False,
    identity: str = "pdh",
    translate=None,
) -> Report:
    """Runs perfcalc analyze over a .blg log (a path, bytes or a binary
    file), or a list of logs grouped by machine as the command groups them
    (the logs of one machine merged; of several machines, a report each in
    the fleet object), in the module, and returns its :class:`Report`.

    ``thresholds``: PAL threshold files whose analyses run, in order,
    joined (paths, or ``(name, bytes)`` pairs); none runs perfcalc's own
    default analyses. The files they inherit (INHERITANCE) are read from
    the folder of a threshold file given by path, or given in ``include``
    (paths or pairs; matched by name, ASCII case and folders ignored).
    ``set``: question values ``{NAME: VALUE}`` (``--set``); ``interval``:
    the slices' length in seconds (None or 0: automatic); ``pal_compat``:
    PAL's numbers, its quirks included; ``identity``: ``"pid"`` pairs
    Process and Thread instances by process, as ``perfcalc analyze
    --identity pid`` (the report's ``parameters.identity`` and
    ``identityBreaks`` say so).

    A threshold file that does not load, a value no file asks for or a log
    that cannot be read raises an :class:`Error` with the module's text;
    an inherited file found neither in ``include`` nor in those folders
    raises an :class:`InputError` whose ``missing_file`` is its name, as
    the INHERITANCE names it (resolved against the inheriting file's
    folder).

    ``translate``: translate names to English before the analyses, as
    ``perfcalc analyze --names-lang en`` (read_blg's ``translate``).
    """
    logs = [_bytes(x) for x in source] if isinstance(source, list) else [_bytes(source)]
    run, inc = _files(thresholds, "thresholds"), _files(include, "include")
    values = _values(set)
    if interval is None or interval == "auto":
        interval = 0
    if not isinstance(interval, int) or isinstance(interval, bool) or not 0 <= interval < 1 << 63:
        raise ArgumentError(f"perfcalc: interval={interval!r}: want a whole number of seconds ≥ 0 (0 or None: automatic)")
    flags = _abi.ANALYZE_PAL_COMPAT if pal_compat else 0
    if _identity_mode(identity) == _abi.IDENTITY_PID:
        flags |= _abi.ANALYZE_PID
    inst = analyze_instance()
    with _names.translated(inst, _names.sources(translate)) as unknown:
        text, _ = _run(inst, logs, run, list(inc), values, interval, flags)
        damage = inst.error_text() or None
    _names.note_unknown(unknown)
    return Report(text, damage, unknown)


def _missing(inst, e: Error) -> str | None:
    """The name of the inherited threshold file that the module says was
    not given (CODE_INPUT with last_detail = n > 0: the output buffer's
    first n bytes; wasm/ABI.md, analyze), or None for another refusal."""
    if e.code != _abi.CODE_INPUT or not 0 < e.detail <= inst.call("out_cap"):
        return None
    return bytes(inst.view(inst.call("out_ptr"), e.detail)).decode("utf-8", "replace")


def _run(inst, logs: list, run: list, inc: list, values: bytes, interval: int, flags: int):
    """Calls analyze; where the module refuses an INHERITANCE of a file not
    given (naming it: _missing), reads it from the folder of a threshold
    file given by path (ASCII case ignored), adds it to inc and calls
    again. Returns the text and inc. A file found nowhere raises the
    module's InputError with the file's name as ``missing_file``."""
    folders = [f[2] for f in run + inc if f[2] is not None]
    for _ in range(_MAX_FILES):
        try:
            return _call(inst, logs, run, inc, values, interval, flags), inc
        except InputError as e:
            name = _missing(inst, e)
            if name is None:
                raise
            found = next((p for p in (_find(d, name) for d in folders) if p is not None), None)
            if found is None:
                e.missing_file = name
                raise
            inc.append((os.fspath(found), bytes(_bytes(found, "threshold file")), found.parent))
            folders.append(found.parent)
    raise InputError(f"perfcalc: analyze: more than {_MAX_FILES} inherited threshold files", code=_abi.CODE_INPUT, op="analyze")


def _inherited(run: list, inc: list) -> list:
    """inc with the files that the threshold files inherit, read from the
    folders of those given by path: the module names them, loading the
    files before it reads a log (here an empty one, whose refusal ends the
    search). For Spark's driver, whose executors may not see the folders."""
    inc = list(inc)
    try:
        _run(analyze_instance(), [b""], run, inc, b"", 0, 0)
    except InputError as e:
        if getattr(e, "missing_file", None) is not None:
            raise
    except Error:
        pass  # the empty log's refusal, or a refusal each log will report
    return inc


def _call(inst, logs: list, run, inc, values: bytes, interval: int, flags: int) -> str:
    """One call of the analyze export: the values, each file's name and
    bytes, each log, then one table: the logs' regions (ANALYZE_LOGS), then
    the files' entries (THR_*)."""
    files = [(n, b, _abi.THR_RUN) for n, b, _ in run] + [(n, b, 0) for n, b, _ in inc]
    parts = [values]
    for n, b, _ in files:
        parts += [n.encode("utf-8"), b]
    first = len(parts)
    parts += logs
    nl = 8 * len(logs)
    table = bytearray(nl + len(files) * _abi.THR_SIZE)
    parts.append(table)
    present = [p if memoryview(p).nbytes else None for p in parts]
    regions = inst.place(present)
    for i in range(len(logs)):
        struct.pack_into("<2I", table, 8 * i, *regions[first + i])
    for i, (_, _, fl) in enumerate(files):
        at = nl + i * _abi.THR_SIZE
        struct.pack_into("<2I", table, at + _abi.THR_NAME, *regions[1 + 2 * i])
        struct.pack_into("<2I", table, at + _abi.THR_DATA, *regions[2 + 2 * i])
        struct.pack_into("<2I", table, at + _abi.THR_FLAGS, fl, 0)  # THR_RESERVED follows
    regions = inst.write_in(present)
    (so, sn), (to, _) = regions[0], regions[-1]
    flags |= _abi.ANALYZE_LOGS
    return _text(inst, "analyze", (to, nl, to + nl, len(files), so, sn, interval, flags))


def _lower(s: str) -> str:
    """s in lower case rune by rune, as Go's strings.ToLower (Python's
    lower maps a few characters to two; those stay)."""
    out = []
    for c in s:
        low = c.lower()
        out.append(low if len(low) == 1 else c)
    return "".join(out)


def _machine_key(data) -> str:
    """The machine that the .blg log data is grouped by in perfcalc analyze
    (analysis.LogMachine): its first column's machine, in lower case; ""
    for a log of no column or of counters without a machine. The log is
    read once for its columns (relog_columns, as relog -q lists them; no
    value computed), with max_columns' default and identity by name, as the
    command opens it to group it; a log that cannot be opened raises the
    module's Error."""
    from ._api import _max_columns
    from ._module import instance
    from ._records import RECORD, decode

    inst = instance()
    (off, n), = inst.write_in([data])
    _max_columns(inst, _abi.DEFAULT_MAX_COLUMNS)
    if inst.has("identity"):
        inst.call("identity", _abi.IDENTITY_PDH)
    d = decode(inst, "relog_columns", (off, n, 0, 0, 0, 0, 0, 0), RECORD)
    for p in d.pages:
        if len(p.records):
            r = p.records[0]
            return _lower(p.parts(int(r["path_off"]) + int(r["path_len"]))[0])
    return ""
