"""read_blg, relog, stats and values: the module's decoders as Arrow tables
and text."""

from __future__ import annotations

import concurrent.futures as _futures
import ctypes
import datetime as _dt
import os
import re
import stat
import warnings
from typing import Iterable, Union

import numpy as np
import pyarrow as pa

from . import _abi, _names
from ._compute import options_bits, type_name
from ._long import _TICKS_PER_MINUTE, SCHEMA, _dict_column, _micros, _pid_column, blg_table
from ._module import Instance, instance
from ._records import PCT, RECORD, STAT, QUERY, decode
from .errors import ArgumentError, DamagedError, Error, IdentityBreaksWarning, InputError, LimitError, SkippedEventsWarning, UnsupportedError

Source = Union[str, os.PathLike, bytes, bytearray, memoryview]

_FILETIME_EPOCH = _dt.datetime(1601, 1, 1)
_FORMATS = {"csv": _abi.FORMAT_CSV, "tsv": _abi.FORMAT_TSV, "json": _abi.FORMAT_JSON}
_DAMAGED = ("raise", "keep")
_LIMIT_HINT = (
    f" (read_blg holds at most {_abi.MAX_RECORDS:,} values of a log: select counters or a time range,"
    " or convert the whole log with perfcalc convert -f parquet)"
)


def _bytes(source, what: str = "log"):
    """The bytes of a path, a bytes-like object or a binary file."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return source
    if isinstance(source, np.ndarray):
        return memoryview(np.ascontiguousarray(source)).cast("B")
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            _check_size(os.fstat(f.fileno()).st_size, os.fsdecode(source), what)
            return f.read()
    if hasattr(source, "read"):
        try:
            st = os.fstat(source.fileno())
            if stat.S_ISREG(st.st_mode):
                _check_size(st.st_size - source.tell(), getattr(source, "name", "the file"), what)
        except (AttributeError, OSError, ValueError):
            pass  # not a file of the system (BytesIO, a socket's file): read as given
        data = source.read()
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"perfcalc: the {what} file must be opened in binary mode")
        return data
    raise TypeError(f"perfcalc: the {what} must be a path, bytes or a binary file, not {type(source).__name__}")


class _Resident:
    """A log already in the input buffer of one instance of the module
    (the calling thread's): its n bytes at offset 0, then its counter
    patterns, as :meth:`Instance.write_in` lays them. Made by
    :func:`_read_into`; read_blg's internal reader takes it instead of the
    log's bytes, and reads it as often as the parts of the log need,
    without copying it again (perfcalc.spark's executors read a large log
    straight into the module's memory this way)."""

    def __init__(self, inst: Instance, n: int, pats, regions):
        self.inst, self.n, self.pats, self.regions = inst, n, pats, regions

    def __len__(self) -> int:
        return self.n


#: The bytes _read_into reads from a file at a time.
READ_CHUNK = 8 << 20


def _read_into(f, size: int, counters, name: str, chunk: int = READ_CHUNK) -> _Resident:
    """Reads the size bytes of the log f (a binary file: readinto) in
    chunks straight into the calling thread's instance's input buffer, its
    counter patterns after them: the log's one copy outside f is the
    module's. A file that ends before size bytes (truncated while read) or
    fails to read raises :class:`Error` naming the file (name) and the
    offset; a size over the module's 1 GiB, LimitError, unread."""
    _check_size(size, name, "log")
    pats = _patterns(counters)
    inst = instance()
    # As write_in lays [log, pats] out: the log at 0, the patterns 8-aligned after it.
    plen = len(pats) if pats else 0
    off, poff = 0, ((size + 7) & ~7) if plen else 0
    regions = [(off, size), (poff, plen)]
    ptr = inst.reserve_in(max((o + k for o, k in regions), default=0))
    # No call of the module until the log is in: its memory does not move.
    base = inst.base() + ptr
    if plen:
        ctypes.memmove(base + poff, pats, plen)
    at = 0
    if size:
        mv = memoryview((ctypes.c_ubyte * size).from_address(base + off)).cast("B")
        while at < size:
            try:
                got = f.readinto(mv[at : min(size, at + chunk)])
            except OSError as e:
                raise Error(f"perfcalc: {name}: cannot read at offset {at:,} of {size:,} bytes: {e.strerror or e}") from None
            if not got:
                raise Error(f"perfcalc: {name}: truncated while read: the file ends at offset {at:,}, it had {size:,} bytes")
            at += got
    return _Resident(inst, size, pats, regions)


def _check_size(size: int, name: str, what: str) -> None:
    """Refuses, before reading it, a file larger than the module's input
    buffer (1 GiB): it could not be decoded, and would be read whole first."""
    if size > _abi.MAX_RESERVE:
        hint = " (convert a larger log with perfcalc convert)" if what == "log" else ""
        raise LimitError(
            f"perfcalc: {name}: {size:,} bytes (not read); the module takes at most {_abi.MAX_RESERVE:,} bytes (1 GiB) of input{hint}",
            code=_abi.CODE_LIMIT,
        )


def _patterns(counters) -> bytes | None:
    """Counter path patterns, one per line (relog -c), or None for all."""
    if counters is None:
        return None
    if isinstance(counters, str):
        counters = [counters]
    text = "\n".join(counters)
    return text.encode("utf-8") if text else None


def _filetime(t, what: str) -> int:
    """A local FILETIME of the log from a datetime (naive: the log's local
    time), an ISO 8601 string, or an int FILETIME; 0 for None."""
    if t is None:
        return 0
    if isinstance(t, (int, np.integer)):
        return int(t)
    if isinstance(t, str):
        try:
            t = _dt.datetime.fromisoformat(t)
        except ValueError:
            raise ArgumentError(f"perfcalc: {what} {t!r} is not an ISO 8601 time") from None
    if isinstance(t, _dt.datetime):
        if t.tzinfo is not None:
            raise ArgumentError(f"perfcalc: {what} is the log's local time: pass a naive datetime")
        d = t - _FILETIME_EPOCH
        return (d.days * 86_400 + d.seconds) * 10_000_000 + d.microseconds * 10
    raise ArgumentError(f"perfcalc: {what} must be a datetime, an ISO 8601 string or a FILETIME")


def _log_args(data, counters, begin, end, every):
    pats = _patterns(counters)
    b, e = _filetime(begin, "begin"), _filetime(end, "end")
    if end is not None and e == 0:
        # FILETIME 0 (1601-01-01) is an end too, before every sample, where
        # the module reads 0 as none: -1, as perfcalc relog -e 1601-01-01.
        e = -1
    if not 0 <= every <= _abi.MAX_EVERY:
        # The module takes a u32: 2**32 would wrap to 0 (every sample).
        raise ArgumentError(f"perfcalc: every={every!r}: want 0 to 2^30 ({_abi.MAX_EVERY:,})", code=_abi.CODE_ARGUMENT)
    return pats, b, e, int(every)


# The module's text of a log over max_columns (relog's ColumnsError).
_COLUMNS_ERROR = re.compile(r"^relog: more than (\d+) columns")


def _max_columns(inst: Instance, max_columns) -> None:
    """Sets the most columns of a log that the instance's next log call
    accepts (0: no limit), as perfcalc --max-columns."""
    if isinstance(max_columns, bool) or not isinstance(max_columns, (int, np.integer)) or not 0 <= max_columns <= 0xFFFFFFFF:
        raise ArgumentError(
            f"perfcalc: max_columns={max_columns!r}: want a number of columns, 0 for no limit (default {_abi.DEFAULT_MAX_COLUMNS:,})",
            code=_abi.CODE_ARGUMENT,
        )
    inst.call("max_columns", int(max_columns))


def _columns_limit(err: LimitError) -> LimitError:
    """Words the module's refusal of a log over max_columns as perfcalc
    does (other limits are returned as they are)."""
    m = _COLUMNS_ERROR.match(err.message)
    if m is None:
        return err
    return LimitError(
        f"perfcalc: more than {m.group(1)} columns (counters of distinct instances, about 1-2 KB of memory each):"
        " refused before memory runs out; max_columns raises the limit (0: none)",
        code=err.code,
        detail=err.detail,
        op=err.op,
    )


def _note_skipped(n: int) -> None:
    """Warns, as perfcalc notes, that the log's first reading skipped n
    events (SkippedEventsWarning); nothing for 0."""
    if n > 0:
        events = "event was" if n == 1 else "events were"
        warnings.warn(
            SkippedEventsWarning(
                f"perfcalc: {n} {events} skipped (not PDH's, or of an unknown type: a damaged event header?); a sample may be missing",
                n,
            ),
            stacklevel=3,
        )


_IDENTITIES = {"pdh": _abi.IDENTITY_PDH, "pid": _abi.IDENTITY_PID}


def _identity_mode(identity) -> int:
    """The module's mode of ``identity``: "pdh" or "pid" (perfcalc
    --identity)."""
    mode = _IDENTITIES.get(identity) if isinstance(identity, str) else None
    if mode is None:
        raise ArgumentError(f"perfcalc: identity={identity!r}: want 'pdh' (by name, as PDH) or 'pid' (by process)")
    return mode


def _identity(inst: Instance, identity) -> int:
    """Sets how the instance's log exports and queries pair instances
    from one sample to the next (the module's identity export, perfcalc
    --identity): "pdh" (by name, as PDH and relog) or "pid" (Process and
    Thread instances by process and thread ID, named name:pid and
    process:pid/tid). Returns the mode. A module without the export
    (older than this package) pairs by name: "pid" is refused there."""
    mode = _identity_mode(identity)
    if not inst.has("identity"):
        if mode != _abi.IDENTITY_PDH:
            raise UnsupportedError("perfcalc: this perfcalc.wasm lacks identity (it is older than this package)")
        return mode
    rc = inst.call("identity", mode)
    if rc < 0:
        raise inst.error("identity", rc)
    return mode


def _breaks(inst: Instance, mode: int):
    """In pid mode, the identity breaks of the instance's last log export
    or query (read before another call resets them); None in pdh mode."""
    return int(inst.call("identity_breaks")) if mode == _abi.IDENTITY_PID else None


def _note_breaks(n) -> None:
    """Warns, as perfcalc notes them, of n > 0 identity breaks
    (IdentityBreaksWarning); nothing for None (pdh mode) or 0."""
    if n:
        what = "an instance name that changed process" if n == 1 else "instance names that changed process"
        warnings.warn(
            IdentityBreaksWarning(
                f"perfcalc: identity: {n} identity break{'s' if n != 1 else ''} ({what}; by name, PDH computes a value between the two)",
                n,
            ),
            stacklevel=3,
        )


def _pattern_list(counters) -> list:
    """The patterns of counters, as a list (for messages)."""
    if counters is None:
        return []
    return [counters] if isinstance(counters, str) else [str(c) for c in counters]


def _check_selection(inst: Instance, columns: int, damage: str, counters, data, b: int, e: int, max_columns) -> None:
    """Raises InputError, as ``perfcalc relog -c`` exits with it, when the
    patterns counters select no column of the log data: columns is the
    number a call kept, 0 too when begin and end (b, e) keep no sample (a
    log's columns are those of its kept samples); then relog_columns without
    them tells. A damaged log reports its damage instead."""
    pats = _pattern_list(counters)
    if columns > 0 or not pats or damage:
        return
    if b != 0 or e != 0:
        (off, n), (poff, plen) = inst.write_in([data, _patterns(counters)])
        _max_columns(inst, max_columns)
        if int(decode(inst, "relog_columns", (off, n, poff, plen, 0, 0, 0, 0), RECORD).header["columns"]) > 0:
            return
    raise InputError(
        f"perfcalc: no counter of the log matches {' '.join(pats)} (perfcalc.stats(log) lists the log's counters)",
        code=_abi.CODE_INPUT,
    )


def _check_damaged(damaged: str) -> None:
    if damaged not in _DAMAGED:
        raise ArgumentError(f"perfcalc: damaged={damaged!r}: want 'raise' or 'keep'")


def read_blg(
    source: Source,
    counters: Union[str, Iterable[str], None] = None,
    begin=None,
    end=None,
    *,
    every: int = 0,
    damaged: str = "raise",
    max_columns: int = _abi.DEFAULT_MAX_COLUMNS,
    identity: str = "pdh",
    translate=None,
) -> pa.Table:
    """Reads a perfmon binary log (.blg) as relog computes it, into a
    ``pyarrow.Table`` of perfcalc's long schema (:data:`perfcalc.SCHEMA`,
    the columns of ``perfcalc relog -f parquet``): one row per sample and
    counter instance, value null unless the status is Valid, the raw values.

    ``source``: a path, bytes, or a binary file. ``counters``: counter path
    patterns with wildcards (relog ``-c``; one string or several).
    ``begin``/``end``: the log's local time (naive ``datetime``, ISO 8601
    string or FILETIME), both included (relog ``-b``/``-e``); None: open.
    ``end=datetime(1601, 1, 1)`` (FILETIME 0) is an end before every sample,
    as ``perfcalc relog -e 1601-01-01``. ``every``: keep one sample in
    ``every`` (relog ``-t``).

    A table holds at most 2,097,152 values (the module's limit, about 110 MB
    of a log of a few counters; LimitError beyond): select counters or a
    time range for larger logs. A file over the module's 1 GiB of input is
    refused from its size, unread (LimitError).

    A log damaged after its start raises :class:`perfcalc.DamagedError`
    whose ``partial`` is the table of the rows before the damage;
    ``damaged="keep"`` returns that table instead (its schema metadata
    ``perfcalc.damage`` holds the text). Other errors raise the
    :class:`perfcalc.Error` subclass of the module's code.

    ``max_columns``: the most columns (counters of distinct instances) of
    the log, as ``perfcalc --max-columns`` (1,000,000; 0 for no limit): a
    log of more raises :class:`perfcalc.LimitError` before its columns take
    memory. Events that the log's first reading skipped (a damaged event
    header, which may have taken a sample with it) give a
    :class:`perfcalc.SkippedEventsWarning`, as perfcalc notes them, and
    their number in the schema metadata ``perfcalc.skipped_events``.

    ``counters`` that select no counter of the log raise
    :class:`perfcalc.InputError`, as ``perfcalc relog -c`` refuses them
    (``perfcalc: no counter of the log matches \\Nope(*)\\*``); a pattern
    among others that matches nothing, or a time range that keeps no
    sample, is no error.

    ``identity``: how instances are paired from one sample to the next, as
    ``perfcalc --identity``: ``"pdh"`` (by name, as PDH and relog) or
    ``"pid"`` (Process instances by ``ID Process`` and ``Creating Process
    ID``, named ``name:pid``; Thread instances by ``ID Process`` and ``ID
    Thread``, named ``process:pid/tid``; no value is computed across two
    processes). With ``"pid"``, the schema metadata
    ``perfcalc.identity_breaks`` holds the identity breaks (PDH instance
    names that changed process), and breaks give an
    :class:`perfcalc.IdentityBreaksWarning`, as perfcalc notes them.

    ``translate``: translate object and counter names to English, as
    ``perfcalc --names-lang en --names-file``, from compact forms
    (doc/FORMATS.md §3.4: what ``perfcalc names --compact CounterLang.xml``
    writes; bytes, text, a path, a ``(name, form)`` pair, or a list of
    these in order of precedence): the module translates, and ``counters``
    then match the English names. Names no source knows are kept and
    listed in a :class:`perfcalc.NamesNotTranslatedWarning` and in the
    schema metadata ``perfcalc.names_unknown`` (one per line).
    """
    return _read_blg(source, counters, begin, end, every, damaged, max_columns, True, identity, translate)


def _read_blg(source, counters, begin, end, every, damaged, max_columns, check_selection: bool, identity: str = "pdh", translate=None, part=None, column: bool = False) -> pa.Table:
    """read_blg; check_selection False returns an empty table where
    counters select nothing (Spark's reader: a log of many without the
    counter is no error); part (from, to) reads the rows of one part of
    the log (the module's log_part; the Spark reader's split of a log
    over MAX_RECORDS values); column adds each row's column of the log
    as ``_column`` (_long.blg_table)."""
    _check_damaged(damaged)
    resident = source if isinstance(source, _Resident) else None
    data = _bytes(source) if resident is None else None
    pats, b, e, every = _log_args(data, counters, begin, end, every)
    mode = _identity_mode(identity)
    inst = instance()
    if resident is not None and (resident.inst is not inst or resident.pats != pats or check_selection or translate is not None):
        raise Error("perfcalc: a log read into the module is read by its thread's instance, with its own patterns, without translate")
    with _names.translated(inst, _names.sources(translate)) as unknown:
        if resident is None:
            (off, n), (poff, plen) = inst.write_in([data, pats])
        else:
            (off, n), (poff, plen) = resident.regions
        _max_columns(inst, max_columns)
        _identity(inst, identity)
        if part is not None:
            if not inst.has("log_part"):
                raise Error("perfcalc: this perfcalc.wasm lacks log_part (it is older than this package)")
            inst.call("log_part", *part)
        try:
            d = decode(inst, "decode_blg", (off, n, poff, plen, b, e, every, 0), RECORD)
        except LimitError as err:
            if _COLUMNS_ERROR.match(err.message):
                raise _columns_limit(err) from None
            err.message += _LIMIT_HINT
            err.args = (err.message,)
            raise
        finally:
            if part is not None:
                inst.call("log_part", 0, 0)
        breaks = _breaks(inst, mode)
        if check_selection:
            _check_selection(inst, int(d.header["columns"]), d.damage, counters, data, b, e, max_columns)
    table = blg_table(d, column)
    _names.note_unknown(unknown)
    meta = {b"perfcalc.time_zone": d.info.encode(), b"perfcalc.bias": str(int(d.header["bias"])).encode(), **_names.metadata(unknown)}
    if d.damage:
        meta[b"perfcalc.damage"] = d.damage.encode()
    skipped = int(d.header["local"])
    if skipped:
        meta[b"perfcalc.skipped_events"] = str(skipped).encode()
    if breaks is not None:
        meta[b"perfcalc.identity_breaks"] = str(breaks).encode()
    table = table.replace_schema_metadata(meta)
    _note_skipped(skipped)
    _note_breaks(breaks)
    if d.damage and damaged == "raise":
        raise DamagedError(d.damage, table, op="decode_blg")
    return table


def relog(
    source: Source,
    counters=None,
    begin=None,
    end=None,
    *,
    format: str = "csv",
    digits: int = 20,
    every: int = 0,
    damaged: str = "raise",
    max_columns: int = _abi.DEFAULT_MAX_COLUMNS,
    workers: int = 1,
    identity: str = "pdh",
    translate=None,
) -> "str | bytes":
    """relog's text of a .blg log: ``format`` ``"csv"`` (PDH-CSV 4.0, as
    ``relog -f csv``), ``"tsv"`` or ``"json"`` (JSON lines, as ``perfcalc
    relog -f json``); the same text as ``perfcalc relog``. ``format="bin"``
    returns the selection as a .blg log (bytes: those of ``perfcalc relog
    -f bin -o OUT.blg``, raw values as read; ``digits`` and ``workers`` do
    not apply). ``digits``: the
    significant digits of CSV and TSV values, 20 as current Windows writes
    them, 17 as Windows did before about 2020 (JSON numbers are always the
    shortest exact text). The other
    arguments are read_blg's. A damaged log raises DamagedError with the
    text before the damage as ``partial`` (or returns it with
    ``damaged="keep"``); skipped events give a SkippedEventsWarning.

    ``workers`` above 1 reads a log of 8 MiB or more in parts, one thread
    and instance of the module each (parts of at least 4 MiB; wasmtime runs
    the module without the GIL): every instance reads the whole log's
    columns and then the rows of its part (the module's ``log_part``), and
    the parts' texts, one after the other, are the text of one instance,
    byte for byte. Each instance holds the whole log in its memory.

    ``identity`` as read_blg's (``"pid"``: ``perfcalc relog --identity
    pid``'s text; its breaks give an IdentityBreaksWarning); in pid mode
    the log is read in one piece, whatever ``workers``.
    ``translate``: as read_blg's (the names not translated in a
    NamesNotTranslatedWarning)."""
    _check_damaged(damaged)
    if not isinstance(workers, int) or not 1 <= workers <= 64:
        raise ArgumentError(f"perfcalc: workers={workers!r}: want 1 to 64")
    if format == "bin":
        return _relog_bin(source, counters, begin, end, every, damaged, max_columns, identity, translate)
    fmt = _FORMATS.get(format)
    if fmt is None:
        raise ArgumentError(f"perfcalc: format {format!r}: want csv, tsv, json or bin")
    if not isinstance(digits, int) or not 1 <= digits <= _abi.MAX_DIGITS:
        raise ArgumentError(f"perfcalc: digits={digits!r}: want 1 to {_abi.MAX_DIGITS} (20 as current Windows, 17 as before about 2020)")
    fmt |= digits << _abi.DIGITS_SHIFT
    mode = _identity_mode(identity)
    data = _bytes(source)
    pats, b, e, every = _log_args(data, counters, begin, end, every)
    # pid mode reads the log in one piece: a part would start without the
    # processes of the sample before it.
    srcs = _names.sources(translate)
    parts = _log_parts(len(data), workers if mode == _abi.IDENTITY_PDH else 1)
    breaks = None
    if len(parts) == 1:
        text, damage, skipped, breaks, unknown = _relog_part(data, pats, b, e, every, fmt, max_columns, None, identity, srcs)
    else:
        with _futures.ThreadPoolExecutor(len(parts)) as pool:
            done = list(pool.map(lambda part: _relog_part(data, pats, b, e, every, fmt, max_columns, part, identity, srcs), parts))
        texts, damage, skipped, unknown = [], "", done[0][2], done[0][4]  # every part names the same columns
        for t, d, *_ in done:
            texts.append(t)
            if d:
                damage = d  # the log's rows end at its damage: the parts after it add nothing
                break
        text = "".join(texts)
    inst = instance()
    _identity(inst, identity)
    if counters is not None and not damage:
        with _names.translated(inst, srcs):
            # No column selected: a CSV or TSV header of the first field alone,
            # JSON lines of no value; without a sample (no line), relog_columns says.
            if format != "json":
                if _HEADER_ALONE.match(text):
                    _check_selection(inst, 0, damage, counters, data, b, e, max_columns)
            elif text == "" or _NO_VALUES.match(text):
                (off, n), (poff, plen) = inst.write_in([data, pats])
                _max_columns(inst, max_columns)
                d = decode(inst, "relog_columns", (off, n, poff, plen, b, e, every, 0), RECORD)
                _check_selection(inst, int(d.header["columns"]), d.damage, counters, data, b, e, max_columns)
    _note_skipped(skipped)
    _note_breaks(breaks)
    _names.note_unknown(unknown)
    if damage and damaged == "raise":
        raise DamagedError(damage, text, op="relog_text")
    return text


def _relog_bin(source, counters, begin, end, every, damaged, max_columns, identity, translate) -> bytes:
    """relog with format="bin": relog_text's FORMAT_BIN, its header
    finished as ``perfcalc relog -f bin -o`` finishes the file
    (_finish_log)."""
    data = _bytes(source)
    pats, b, e, every = _log_args(data, counters, begin, end, every)
    inst = instance()
    if not inst.has("max_columns"):
        raise Error("perfcalc: this perfcalc.wasm cannot write .blg logs (it is older than this package)")
    _identity(inst, identity)
    with _names.translated(inst, _names.sources(translate)) as unknown:
        (off, n), (poff, plen) = inst.write_in([data, pats])
        _max_columns(inst, max_columns)
        try:
            log = bytearray(_pages(inst, "relog_text", (off, n, poff, plen, b, e, every, _abi.FORMAT_BIN)))
        except LimitError as err:
            raise _columns_limit(err) from None
        damage = inst.error_text()
        skipped = inst.call("last_detail")
        _finish_log(log, data)
        if counters is not None and not damage:
            (off, n), (poff, plen) = inst.write_in([data, pats])
            _max_columns(inst, max_columns)
            d = decode(inst, "relog_columns", (off, n, poff, plen, b, e, every, 0), RECORD)
            _check_selection(inst, int(d.header["columns"]), d.damage, counters, data, b, e, max_columns)
    _note_skipped(skipped)
    _names.note_unknown(unknown)
    if damage and damaged == "raise":
        raise DamagedError(damage, bytes(log), op="relog_text")
    return bytes(log)


def _finish_log(log: bytearray, data) -> None:
    """Sets what a streamed .blg log leaves 0 in its header and ``perfcalc
    relog -f bin -o`` sets when it closes the file (wasm/ABI.md, relog_text):
    EndTime, the input log's, and BuffersWritten, the log's length over its
    buffer size."""
    if len(log) < 0x90 or len(data) < 0x80:
        return
    size = int.from_bytes(log[0:4], "little")
    if size:
        log[0x8C:0x90] = (len(log) // size).to_bytes(4, "little")
    log[0x78:0x80] = bytes(data[0x78:0x80])


# _MIN_PART_BYTES is the least part of a log that relog's workers read
# (a variable for the tests).
_MIN_PART_BYTES = _abi.MIN_PART_BYTES


def _log_parts(size: int, workers: int) -> list:
    """The byte ranges (from, to) (to 0: the end) in which ``workers``
    threads read a log of ``size`` bytes: parts of at least _MIN_PART_BYTES
    at 64 KiB bounds, or [None] for one piece."""
    k = max(1, min(workers, size // _MIN_PART_BYTES))
    bounds = [0]
    for i in range(1, k):
        b = (size * i // k) & ~0xFFFF
        if b > bounds[-1]:
            bounds.append(b)
    if len(bounds) == 1:
        return [None]
    bounds.append(0)
    return list(zip(bounds[:-1], bounds[1:]))


def _relog_part(data, pats, b, e, every, fmt, max_columns, part, identity="pdh", srcs=()):
    """relog_text of the log (of one part of it: log_part) on the calling
    thread's instance, translated from the sources srcs: its text, its
    damage ("" for none), the events the log's first reading skipped, its
    identity breaks (None in pdh mode) and the names not translated (None
    without sources)."""
    inst = instance()
    with _names.translated(inst, srcs) as unknown:
        (off, n), (poff, plen) = inst.write_in([data, pats])
        _max_columns(inst, max_columns)
        mode = _identity(inst, identity)
        if part is not None:
            if not inst.has("log_part"):
                raise Error("perfcalc: this perfcalc.wasm lacks log_part (it is older than this package)")
            inst.call("log_part", *part)
        try:
            text = _text(inst, "relog_text", (off, n, poff, plen, b, e, every, fmt))
        except LimitError as err:
            raise _columns_limit(err) from None
        finally:
            if part is not None:
                inst.call("log_part", 0, 0)
        damage = inst.error_text()
        # After the text's last page, last_detail is the events the log's first reading skipped.
        skipped = inst.call("last_detail")
        breaks = _breaks(inst, mode)
    return text, damage, skipped, breaks, unknown


# The first line of relog's CSV or TSV text without a column, and of its
# JSON lines without a value.
_HEADER_ALONE = re.compile(r'^"[^"]*"\r?\n')
_NO_VALUES = re.compile(r'^\{"time":"[^"]*","values":\{\}\}\n')

_STATS_SCHEMA = pa.schema(
    [
        pa.field("path", pa.string(), nullable=False),
        pa.field("counter_type", pa.string(), nullable=False),
        pa.field("count", pa.uint64(), nullable=False),
        pa.field("skipped", pa.uint64(), nullable=False),
        pa.field("min", pa.float64()),
        pa.field("max", pa.float64()),
        pa.field("mean", pa.float64()),
        pa.field("mean_status", pa.string(), nullable=False),
        pa.field("invalid", pa.uint64(), nullable=False),
        pa.field("valid_mean", pa.float64()),
    ]
)

# stats(percentiles=True)'s columns after _STATS_SCHEMA's.
_PERCENTILE_FIELDS = [pa.field(k, pa.float64()) for k in ("p90", "p95", "p99")]


def stats(
    source: Source,
    counters=None,
    begin=None,
    end=None,
    *,
    every: int = 0,
    damaged: str = "raise",
    max_columns: int = _abi.DEFAULT_MAX_COLUMNS,
    percentiles: bool = False,
    identity: str = "pdh",
    translate=None,
) -> pa.Table:
    """The statistics of every counter of a .blg log, as ``perfcalc stats``
    (PDH's PdhComputeCounterStatistics): path, counter_type, count (valid
    values), skipped, min, max (null when count is 0), mean (PDH's: null
    unless mean_status is Valid), mean_status; then, not PDH's, as
    ``perfcalc stats --valid``: invalid (the samples with a bad status) and
    valid_mean (the mean of the valid values, null when count is 0). With
    percentiles, as ``perfcalc stats --percentiles``: p90, p95 and p99 of
    the valid values (nearest rank, each one of the values; numpy's
    method="inverted_cdf"; null when count is 0), every valid value kept
    until the end (8 bytes each). Arguments, skipped events, max_columns
    and identity as read_blg's (``"pid"``: a reused PID's process is a
    series of its own, and the schema metadata
    ``perfcalc.identity_breaks`` holds the breaks), and translate as read_blg's."""
    _check_damaged(damaged)
    if not isinstance(percentiles, bool):
        raise TypeError(f"perfcalc: percentiles is {type(percentiles).__name__}, not a bool")
    data = _bytes(source)
    pats, b, e, every = _log_args(data, counters, begin, end, every)
    mode = _identity_mode(identity)
    inst = instance()
    with _names.translated(inst, _names.sources(translate)) as unknown:
        (off, n), (poff, plen) = inst.write_in([data, pats])
        _max_columns(inst, max_columns)
        _identity(inst, identity)
        try:
            flags = _abi.STATS_PERCENTILES if percentiles else 0
            d = decode(inst, "relog_stats", (off, n, poff, plen, b, e, every, flags), STAT)
        except LimitError as err:
            raise _columns_limit(err) from None
        breaks = _breaks(inst, mode)
        _check_selection(inst, int(d.header["columns"]), d.damage, counters, data, b, e, max_columns)
    _names.note_unknown(unknown)
    s = d.records
    paths = d.paths()
    pct = None
    if percentiles:
        # Each column's percentiles record follows its statistics record.
        if len(s) % 2 or (s["record"][0::2] != _abi.STAT_REC_STATS).any() or (s["record"][1::2] != _abi.STAT_REC_PERCENTILES).any():
            raise UnsupportedError("perfcalc: this perfcalc.wasm computes no percentiles (it is older than this package)")
        pct = np.ascontiguousarray(s[1::2]).view(PCT)
        s, paths = s[0::2], paths[0::2]
    count = s["count"]
    arrays = [
            pa.array(paths, pa.string()),
            pa.array([type_name(t) for t in s["type"].tolist()], pa.string()),
            pa.array(count, pa.uint64()),
            pa.array(s["skipped"], pa.uint64()),
            pa.array(s["min"], pa.float64(), mask=count == 0),
            pa.array(s["max"], pa.float64(), mask=count == 0),
            pa.array(s["mean"], pa.float64(), mask=s["mean_status"] != 0),
            pa.array([_abi.STATUS_NAMES[x] for x in s["mean_status"].tolist()], pa.string()),
            pa.array(s["invalid"], pa.uint64()),
            pa.array(s["valid_mean"], pa.float64(), mask=count == 0),
    ]
    schema = _STATS_SCHEMA
    if pct is not None:
        arrays += [pa.array(pct[k], pa.float64(), mask=count == 0) for k in ("p90", "p95", "p99")]
        schema = pa.schema(list(_STATS_SCHEMA) + _PERCENTILE_FIELDS)
    table = pa.Table.from_arrays(arrays, schema=schema)
    skipped = int(d.header["local"])
    meta = _names.metadata(unknown)
    if skipped:
        meta[b"perfcalc.skipped_events"] = str(skipped).encode()
    if breaks is not None:
        meta[b"perfcalc.identity_breaks"] = str(breaks).encode()
    if meta:
        table = table.replace_schema_metadata(meta)
    _note_skipped(skipped)
    _note_breaks(breaks)
    if d.damage and damaged == "raise":
        raise DamagedError(d.damage, table, op="relog_stats")
    return table


def _query(
    older, newer, names, counters, options, registration, strings, ids, object_name
) -> tuple[Instance, int, int]:
    """Places query's regions and its descriptor in the input buffer of
    this thread's instance; returns the instance, the descriptor's offset
    and the option bits."""
    regions = [
        None if older is None else _bytes(older, "older capture"),
        _bytes(newer, "newer capture"),
        None if names is None else _bytes(names, "name table"),
        None if registration is None else _bytes(registration, "registration"),
        None if strings is None else _bytes(strings, "strings"),
        None if ids is None else _bytes(ids, "ids"),
        None if object_name is None else object_name.encode("utf-8"),
        _patterns(counters),
    ]
    desc = np.zeros(1, QUERY)
    placed = Instance.place([desc.view(np.uint8)] + regions)
    for f, region in zip(QUERY.names, placed[1:]):
        desc[f] = region
    inst = instance()
    inst.write_in([desc.view(np.uint8)] + regions)
    return inst, int(placed[0][0]), options_bits(options)


def values(
    older: Source | None,
    newer: Source,
    names: Source | None = None,
    counters=None,
    *,
    options=None,
    registration: Source | None = None,
    strings: Source | None = None,
    ids: Source | None = None,
    object_name: str | None = None,
    identity: str = "pdh",
) -> pa.Table:
    """Every counter between two captures, as ``perfcalc values``: V1
    ``PERF_DATA_BLOCK``s (``RegQueryValueEx(HKEY_PERFORMANCE_DATA)``) named
    by ``names`` (the ``Counter 009`` table), or PerfLib V2 results with
    their counterset ``registration`` (and optionally the counter name
    ``strings``, the block counter ``ids`` and the ``object_name`` of paths).
    ``older`` None computes first samples. ``counters``: path patterns.
    ``options``: "cap100", "scale", "1000", "wrap32" (none: relog's values).

    Returns a table of the long schema with one row per counter instance,
    the rows of ``perfcalc values -f parquet``: ``local_time`` is the newer
    capture's SystemTime and ``time`` that in UTC (the zone's offset found
    between it and the capture's UTC time stamp, as values' CSV header
    prints it; both null when the SystemTime is not a valid time), and the
    raw columns hold the newer capture's raw values.

    ``identity="pid"``, as ``perfcalc values --identity pid``, pairs V1
    Process and Thread instances by process (``name:pid``); the schema
    metadata ``perfcalc.identity_breaks`` then holds the identity breaks.
    """
    mode = _identity_mode(identity)
    inst, desc, opts = _query(older, newer, names, counters, options, registration, strings, ids, object_name)
    _identity(inst, identity)
    d = decode(inst, "query", (desc, opts, 0), RECORD)
    breaks = _breaks(inst, mode)
    _note_breaks(breaks)
    if counters is not None and len(d.records) == 0 and _pattern_list(counters):
        raise _no_value(counters, names, registration)
    table = _values_table(d)
    if breaks is not None:
        meta = dict(table.schema.metadata or {})
        meta[b"perfcalc.identity_breaks"] = str(breaks).encode()
        table = table.replace_schema_metadata(meta)
    return table


def values_text(
    older: Source | None,
    newer: Source,
    names: Source | None = None,
    counters=None,
    *,
    format: str = "csv",
    digits: int = 20,
    options=None,
    registration: Source | None = None,
    strings: Source | None = None,
    ids: Source | None = None,
    object_name: str | None = None,
    identity: str = "pdh",
) -> str:
    """relog's text of the counters between two captures (``values``'
    arguments): byte for byte what ``perfcalc values -f csv`` (``format``
    ``"csv"``) or ``-f tsv`` (``"tsv"``) writes, a header with the paths and
    one row of values with ``digits`` significant digits (20 as current
    Windows writes them, 17 as Windows did before about 2020).
    ``identity`` as values' (breaks give an IdentityBreaksWarning)."""
    fmt = {"csv": _abi.FORMAT_CSV, "tsv": _abi.FORMAT_TSV}.get(format)
    if fmt is None:
        raise ArgumentError(f"perfcalc: format {format!r}: want csv or tsv")
    if not isinstance(digits, int) or not 1 <= digits <= _abi.MAX_DIGITS:
        raise ArgumentError(f"perfcalc: digits={digits!r}: want 1 to {_abi.MAX_DIGITS} (20 as current Windows, 17 as before about 2020)")
    fmt |= digits << _abi.DIGITS_SHIFT
    mode = _identity_mode(identity)
    inst, desc, opts = _query(older, newer, names, counters, options, registration, strings, ids, object_name)
    _identity(inst, identity)
    text = _text(inst, "query_text", (desc, opts, fmt))
    _note_breaks(_breaks(inst, mode))
    if counters is not None and _pattern_list(counters) and _HEADER_ALONE.match(text):
        raise _no_value(counters, names, registration)
    return text


def _no_value(counters, names, registration) -> InputError:
    """The error of patterns that select no counter of the captures, as
    perfcalc values words it (with its hint for V1 captures without a name
    table, whose objects and counters are named by their index)."""
    pats = _pattern_list(counters)
    hint = ""
    if names is None and registration is None and any(re.match(r"^(\\\\[^\\]*)?\\[^#\\]", p) for p in pats):
        hint = ": without names, objects and counters are named by their index, as in \\#238(*)\\*; give the name table as names"
    return InputError(f"perfcalc: no counter of the newer capture matches {' '.join(pats)}{hint}", code=_abi.CODE_INPUT)


def _text(inst: Instance, op: str, args) -> str:
    """_pages' bytes as UTF-8 text."""
    return _pages(inst, op, args).decode("utf-8")


def _pages(inst: Instance, op: str, args) -> bytes:
    """Calls a text export (relog_text, query_text) and returns its text. A
    text longer than the output buffer comes in pages (CODE_SPACE: the whole
    buffer, and the cursor in last_detail), each resumed by decode_next
    where the one before it ended: the module produces the text once, and
    no size is guessed. Pages may end inside a UTF-8 sequence: they are
    joined before decoding."""
    pages = []
    rc = inst.call(op, *args)
    while rc == _abi.CODE_SPACE:
        cursor = inst.call("last_detail")
        if cursor == 0:
            raise Error(f"perfcalc: {op}: a page of text without a cursor")
        pages.append(bytes(inst.view(inst.call("out_ptr"), inst.call("out_cap"))))
        rc = inst.call("decode_next", cursor)
    if rc < 0:
        raise inst.error(op, rc)
    pages.append(bytes(inst.view(inst.call("out_ptr"), rc)))
    return b"".join(pages)


def _values_table(d) -> pa.Table:
    recs = d.records
    n = len(recs)
    paths = d.paths()
    parts = d.parts()
    rows = np.arange(n)

    def strings(i, whole):
        return [(p[i] if p is not None else whole(k)) for k, p in enumerate(parts)]

    index = np.array([(-1 if p is None or p[4] is None else p[4]) for p in parts], np.int64)
    status = recs["status"].astype(np.int32)
    local = int(d.header["local"])
    if local == 0:
        times = [pa.nulls(n, pa.timestamp("us", tz="UTC")), pa.nulls(n, pa.timestamp("us"))]
    else:
        us = _micros(np.full(n, local, np.int64))
        utc = us + int(d.header["bias"]) * (_TICKS_PER_MINUTE // 10)
        times = [pa.array(utc, pa.timestamp("us", tz="UTC")), pa.array(us, pa.timestamp("us"))]
    arrays = times + [
        _dict_column(strings(0, lambda k: ""), rows),
        _dict_column(strings(1, lambda k: ""), rows),
        _dict_column(strings(2, lambda k: None), rows),
        _dict_column(strings(3, lambda k: None), rows),
        pa.array(index.astype(np.int32), pa.int32(), mask=index < 0),
        _dict_column(strings(5, lambda k: paths[k]), rows),
        _dict_column(paths, rows),
        _dict_column([type_name(t) for t in recs["type"].tolist()], rows),
        pa.array(recs["value"], pa.float64(), mask=status != 0),
        pa.DictionaryArray.from_arrays(pa.array(status, pa.int32()), pa.array(list(_abi.STATUS_NAMES), pa.string())),
        pa.array(recs["cstatus"], pa.uint32()),
        pa.array(recs["first"], pa.uint64()),
        pa.array(recs["second"], pa.uint64()),
        pa.array(recs["multi"], pa.uint32()),
        _pid_column(strings(1, lambda k: ""), strings(2, lambda k: None), strings(3, lambda k: None), rows),
    ]
    return pa.Table.from_arrays(arrays, schema=VALUES_SCHEMA)


#: The schema of values' tables: SCHEMA with time and local_time nullable
#: (null when the newer capture's SystemTime is not a valid time).
VALUES_SCHEMA = SCHEMA.set(0, SCHEMA.field(0).with_nullable(True)).set(1, SCHEMA.field(1).with_nullable(True))
