"""The long table (internal/longform's schema, the same as perfcalc's Parquet
output): one row per sample and counter instance, built from the module's
records with NumPy and Arrow, without a Python object per value."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from . import _abi, _columns
from ._compute import type_name
from ._records import Decoded

#: The long table's schema (internal/longform.Fields, generated into
#: _columns.py: names, order, types).
SCHEMA = _columns.SCHEMA

# FILETIME: 100 ns ticks since 1601-01-01; the Unix epoch as a FILETIME.
_UNIX_EPOCH = 116_444_736_000_000_000
_TICKS_PER_MINUTE = 600_000_000


def _dict_column(per_column: list, keys: np.ndarray) -> pa.Array:
    """A dictionary array whose row i is per_column[keys[i]] (None: null)."""
    values, codes = [], {}
    col_code = np.empty(len(per_column), np.int32)
    col_null = np.zeros(len(per_column), bool)
    for j, s in enumerate(per_column):
        if s is None:
            col_null[j] = True
            col_code[j] = 0
            continue
        c = codes.get(s)
        if c is None:
            c = codes[s] = len(values)
            values.append(s)
        col_code[j] = c
    idx = col_code[keys]
    mask = col_null[keys] if col_null.any() else None
    return pa.DictionaryArray.from_arrays(pa.array(idx, pa.int32(), mask=mask), pa.array(values, pa.string()))


def _micros(filetime: np.ndarray) -> np.ndarray:
    return (filetime.astype(np.int64) - _UNIX_EPOCH) // 10  # floor, as longform.UnixMicros


def blg_table(d: Decoded, column: bool = False) -> pa.Table:
    """The long table of a decode_blg result; column adds ``_column``
    (int32), each row's column of the log (relog's column order: the
    order of perfcalc's Parquet rows within a row group)."""
    recs = d.records
    ncols = int(d.header["columns"])
    paths = d.paths_by("column")
    col = recs["column"].astype(np.intp)
    path_of = [paths.get(j, "") for j in range(ncols)]
    types = np.zeros(ncols, np.uint32)
    types[col] = recs["type"]
    by_column = d.parts_by("column")
    parts = [by_column.get(j) for j in range(ncols)]

    def part(i, whole=None):
        return [(p[i] if p is not None else whole(j)) for j, p in enumerate(parts)]

    machine = part(0, lambda j: "")
    obj = part(1, lambda j: "")
    instance = part(2, lambda j: None)
    parent = part(3, lambda j: None)
    counter = part(5, lambda j: path_of[j])
    index = np.array([(-1 if p is None or p[4] is None else p[4]) for p in parts], np.int64).reshape(-1)
    idx_rows = index[col] if ncols else np.empty(0, np.int64)

    local = _micros(recs["time"])
    # The bias in force at each sample (the zone's daylight rules, as the
    # Parquet output applies them).
    utc = local + recs["bias"].astype(np.int64) * (_TICKS_PER_MINUTE // 10)
    status = recs["status"].astype(np.int32)
    value_null = status != 0
    status_names = list(_abi.STATUS_NAMES)
    if status.size and int(status.max()) >= len(status_names):
        status_names += [str(s) for s in range(len(status_names), int(status.max()) + 1)]
    arrays = [
        pa.array(utc, pa.timestamp("us", tz="UTC")),
        pa.array(local, pa.timestamp("us")),
        _dict_column(machine, col),
        _dict_column(obj, col),
        _dict_column(instance, col),
        _dict_column(parent, col),
        pa.array(idx_rows.astype(np.int32), pa.int32(), mask=idx_rows < 0),
        _dict_column(counter, col),
        _dict_column(path_of, col),
        _dict_column([type_name(t) for t in types.tolist()], col),
        pa.array(recs["value"], pa.float64(), mask=value_null),
        pa.DictionaryArray.from_arrays(pa.array(status, pa.int32()), pa.array(status_names, pa.string())),
        pa.array(recs["cstatus"], pa.uint32()),
        pa.array(recs["first"], pa.uint64()),
        pa.array(recs["second"], pa.uint64()),
        pa.array(recs["multi"], pa.uint32()),
        _pid_column(obj, instance, parent, col),
    ]
    if column:
        return pa.Table.from_arrays([*arrays, pa.array(col.astype(np.int32), pa.int32())], schema=SCHEMA.append(pa.field("_column", pa.int32(), nullable=False)))
    return pa.Table.from_arrays(arrays, schema=SCHEMA)


def _process_id(obj, instance, parent):
    """The process ID an instance name carries (longform.ProcessID): the
    digits after the last ":" of a Process or Process V2 instance, or of a
    Thread instance's parent; None elsewhere."""
    o = (obj or "").lower()
    if instance is None:
        return None
    if o in ("process", "process v2"):
        name = instance
    elif o == "thread":
        name = parent or ""
    else:
        return None
    i = name.rfind(":")
    digits = name[i + 1 :]
    if i < 0 or not digits or len(digits) > 10 or not all("0" <= c <= "9" for c in digits):
        return None
    pid = int(digits)
    return pid if pid <= 0xFFFFFFFF else None


def _pid_column(obj, instance, parent, col):
    """The pid column: each column's process ID, per row."""
    pids = np.array(
        [(-1 if p is None else p) for p in (_process_id(o, i, q) for o, i, q in zip(obj, instance, parent))],
        np.int64,
    ).reshape(-1)
    rows = pids[col] if len(pids) else np.empty(0, np.int64)
    return pa.array(np.where(rows < 0, 0, rows).astype(np.uint32), pa.uint32(), mask=rows < 0)
