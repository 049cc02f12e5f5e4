"""compute and compute_batch: PDH's formulas on raw samples."""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from . import _abi
from ._module import instance
from ._records import REQUEST, RESULT
from .errors import ArgumentError

#: Status names, by the module's status numbers.
STATUS_NAMES = _abi.STATUS_NAMES

#: The counter types of winperf.h, by Windows name.
COUNTER_TYPES = dict(_abi.COUNTER_TYPES)

_TYPE_NAMES = {}
for _name, _value in _abi.COUNTER_TYPES.items():
    _TYPE_NAMES.setdefault(_value, _name)

_OPTIONS = {
    "cap100": _abi.OPT_CAP100,
    "scale": _abi.OPT_SCALE,
    "1000": _abi.OPT_TIMES1000,
    "times1000": _abi.OPT_TIMES1000,
    "wrap32": _abi.OPT_WRAP32,
}

# winperf.h's PERF_TIMER_100NS: the type's time base is always 10^7.
_PERF_TIMER_FIELD, _PERF_TIMER_100NS = 0x00300000, 0x00100000
_FREQ_100NS = 10_000_000
_U64 = (1 << 64) - 1


class Result(NamedTuple):
    """A computed value and its status (``"Valid"``, ``"NewData"``, …).
    The value is 0.0 unless the status is Valid."""

    value: float
    status: str


def counter_type(t) -> int:
    """Reads a counter type: an int, a Windows name (``PERF_`` optional,
    any case) or a ``"0x…"`` string."""
    if isinstance(t, (int, np.integer)) and not isinstance(t, bool):
        if 0 <= int(t) <= 0xFFFFFFFF:
            return int(t)
        raise ArgumentError(f"perfcalc: counter type {t} is not a u32")
    if isinstance(t, str):
        s = t.strip()
        try:
            return counter_type(int(s, 0))
        except ValueError:
            pass
        u = s.upper()
        v = COUNTER_TYPES.get(u, COUNTER_TYPES.get("PERF_" + u))
        if v is not None:
            return v
    raise ArgumentError(f"perfcalc: unknown counter type {t!r}")


def type_name(t: int) -> str:
    """The Windows name of a counter type, or 0x%08X for one that winperf.h
    does not define (as engine.CounterType.String)."""
    return _TYPE_NAMES.get(int(t), "0x%08X" % int(t))


def parse_options(o):
    """Reads options as engine.ParseOptions does, the one syntax of
    ``perfcalc calc`` and ``values`` ``--options`` (its cases:
    testdata/options.json): names separated by commas, in any order and
    ASCII case, spaces around them ignored: cap100, scale, scale=S (S -10 to
    10), 1000 (or times1000), wrap32. Also takes a list of names, or the
    bits. Returns ``(bits, S)``, S None without scale=S."""
    if o is None:
        return 0, None
    if isinstance(o, (int, np.integer)):
        return int(o), None
    if isinstance(o, str):
        o = [] if o.strip(" \t") == "" else o.split(",")
    bits, scale = 0, None
    for raw in o:
        name = str(raw).strip(" \t")
        b = _OPTIONS.get(name.lower()) if name.isascii() else None
        if b is not None:
            bits |= b
            continue
        if name[:6].lower() == "scale=":
            m = re.fullmatch(r"[+-]?[0-9]{1,2}", name[6:])
            if m is None or abs(int(name[6:])) > 10:
                raise ArgumentError(f'perfcalc: "{name}": the scale is a power of ten from -10 to 10')
            bits, scale = bits | _abi.OPT_SCALE, int(name[6:])
            continue
        raise ArgumentError(f'perfcalc: unknown option "{name}" (want cap100, scale, 1000 or wrap32)')
    return bits, scale


def options_bits(o) -> int:
    """Reads options (parse_options) for counters whose DefaultScale comes
    with them (a query's): scale=S is refused."""
    bits, scale = parse_options(o)
    if scale is not None:
        raise ArgumentError(f"perfcalc: scale={scale}: the counters' DefaultScale comes from the data: write scale")
    return bits


def _default_timebase(t: int) -> int:
    return _FREQ_100NS if t & _PERF_TIMER_FIELD == _PERF_TIMER_100NS else 0


def _sample(s, what: str):
    """(first, second[, multi[, cstatus]]) as u64, u64, u32, u32."""
    if s is None:
        return 0, 0, 0, 0
    s = tuple(s)
    if not 2 <= len(s) <= 4:
        raise ArgumentError(f"perfcalc: {what} is (FirstValue, SecondValue[, MultiCount[, CStatus]])")
    first, second = (int(v) & _U64 for v in s[:2])  # negative: an int64 bit pattern, as PDH's LONGLONG
    multi = int(s[2]) if len(s) > 2 else 0
    cstatus = int(s[3]) if len(s) > 3 else 0
    return first, second, multi, cstatus


def compute(type, old, new, *, timebase=None, scale=None, options=None) -> Result:
    """One value from one or two raw samples, as PDH's PdhFormatFromRawValue.

    ``type`` is a counter type (name or number); ``old`` and ``new`` are
    ``PDH_RAW_COUNTER``s as tuples ``(FirstValue, SecondValue[, MultiCount[,
    CStatus]])``; ``old`` is None for a first sample (a 2-sample type then
    answers NewData). ``timebase`` is the counter's frequency (PerfFreq;
    10,000,000 by default for the 100 ns types). ``options``: the syntax of
    ``perfcalc calc --options`` (parse_options): ``"cap100"``, ``"scale"``
    (with ``scale``), ``"scale=S"``, ``"1000"``, ``"wrap32"``; none is relog's
    output.
    """
    t = counter_type(type)
    bits, s = parse_options(options)
    if s is not None and scale is not None and int(scale) != s:
        raise ArgumentError(f"perfcalc: scale {scale} and the option scale={s} disagree")
    scale = s if s is not None else (0 if scale is None else scale)
    tb = _default_timebase(t) if timebase is None else int(timebase)
    of, os_, om, oc = _sample(old, "old")
    nf, ns, nm, nc = _sample(new, "new")
    inst = instance()
    v = inst.call(
        "compute", t, _abi.FLAG_HAS_OLD if old is not None else 0, bits, int(scale), tb,
        oc, of, os_, om, nc, nf, ns, nm,
    )  # fmt: skip
    st = inst.call("last_status")
    if st == _abi.STATUS_ARGUMENT:
        raise ArgumentError(f"perfcalc: reserved option bits in {options!r}")
    if st >= len(STATUS_NAMES):
        raise inst.error("compute", _abi.CODE_PANIC)
    return Result(v, STATUS_NAMES[st])


def compute_batch(
    type,
    new_first,
    new_second,
    old_first=None,
    old_second=None,
    *,
    new_multi=0,
    old_multi=0,
    new_cstatus=0,
    old_cstatus=0,
    timebase=None,
    scale=0,
    options=None,
):
    """Vectorised compute over NumPy arrays (or scalars, broadcast).

    Every argument is an array (or a scalar) of the same length: ``type``
    (ints, or one name), the raw values (uint64; negative int64 values are
    read as their bit patterns), multi counts and CStatus (uint32),
    ``timebase`` (int64; default 10^7 for the 100 ns types, else 0),
    ``scale`` and ``options`` (one options text for all, as compute's, or
    an array of option bits). ``old_first`` None means no older sample
    (first samples). Returns ``(values, statuses)``: float64 values and
    uint8 status numbers (``perfcalc.STATUS_NAMES[s]``). The work is done
    in few calls, without a Python object per value.
    """
    if isinstance(type, str):
        type = counter_type(type)
    types = np.asarray(type, dtype=np.int64)
    arrays = [types, np.asarray(new_first), np.asarray(new_second)]
    has_old = old_first is not None
    if has_old:
        arrays += [np.asarray(old_first), np.asarray(old_second if old_second is not None else 0)]
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    n = int(np.prod(shape)) if shape else 1
    req = np.zeros(n, REQUEST)

    def put(field, v, dtype):
        a = np.asarray(v)
        if a.dtype.kind == "i" and dtype in (np.uint64, np.uint32):
            a = a.astype(np.int64).view(np.uint64) if dtype == np.uint64 else a.astype(np.uint32)
        req[field] = np.broadcast_to(a, shape).reshape(n).astype(dtype, copy=False)

    if ((types < 0) | (types > 0xFFFFFFFF)).any():
        raise ArgumentError("perfcalc: a counter type is not a u32")
    put("type", types, np.uint32)
    bits, s = (options, None) if isinstance(options, np.ndarray) else parse_options(options)
    if s is not None:
        if not np.all(np.asarray(scale) == 0):
            raise ArgumentError(f"perfcalc: give the scale as scale or as the option scale={s}, not both")
        scale = s
    put("scale", scale, np.int32)
    if timebase is None:
        tb = np.where(types & _PERF_TIMER_FIELD == _PERF_TIMER_100NS, _FREQ_100NS, 0)
    else:
        tb = timebase
    put("time_base", tb, np.int64)
    put("flags", _abi.FLAG_HAS_OLD if has_old else 0, np.uint32)
    put("options", bits, np.uint32)
    put("new_first", new_first, np.uint64)
    put("new_second", new_second, np.uint64)
    put("new_multi", new_multi, np.uint32)
    put("new_cstatus", new_cstatus, np.uint32)
    if has_old:
        put("old_first", old_first, np.uint64)
        put("old_second", old_second if old_second is not None else 0, np.uint64)
        put("old_multi", old_multi, np.uint32)
        put("old_cstatus", old_cstatus, np.uint32)

    values = np.empty(n, np.float64)
    statuses = np.empty(n, np.uint8)
    inst = instance()
    per_call = min(_abi.IN_CAP // _abi.REQ_SIZE, _abi.OUT_CAP // _abi.RES_SIZE)
    raw = req.view(np.uint8)
    for at in range(0, n, per_call):
        k = min(per_call, n - at)
        inst.write_in([raw[at * _abi.REQ_SIZE : (at + k) * _abi.REQ_SIZE]])
        rc = inst.call("compute_batch", 0, k, 0)
        if rc != k:
            e = inst.error("compute_batch", rc)
            if rc == _abi.CODE_ARGUMENT:
                e.detail += at
                e.message = f"perfcalc: request {e.detail}: a reserved option or flag bit is set"
            raise e
        res = inst.view(inst.call("out_ptr"), k * _abi.RES_SIZE).view(RESULT)
        values[at : at + k] = res["value"]
        statuses[at : at + k] = res["status"]
    return values.reshape(shape), statuses.reshape(shape)
