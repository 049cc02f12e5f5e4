"""The errors of perfcalc: one class per error code of the module's ABI.

Every error the module reports is an :class:`Error` subclass carrying the
module's code (``code``, negative), its name (``kind``), the number that
completes it (``detail``: the index of a bad request, the bytes a result
needs, …) and the module's text, which is the text perfcalc's native
command prints for the same input. ``except perfcalc.MalformedError``
catches a malformed input, ``except perfcalc.Error`` everything perfcalc
raises.
"""

from __future__ import annotations

from . import _abi


class Error(Exception):
    """An error that perfcalc's module reported (or, for the subclasses
    :class:`DamagedError` and :class:`FaultError`, met).

    Attributes:
        code: the module's error code (``_abi.CODE_*``, negative; 0 where
            the ABI carries only a text, as for a damaged log).
        kind: the code's name as ABI.md writes it without "Err"
            (``"Malformed"``, …), or ``"Damaged"``/``"Fault"``.
        detail: the module's ``last_detail`` for the call (0 when unused).
        message: the module's text, as the native command prints it.
        op: the export that reported it (``"decode_blg"``, …).
    """

    kind = "Unknown"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.kind = cls.__name__[: -len("Error")]  # MalformedError: "Malformed", ABI.md's name

    def __init__(self, message: str, *, code: int = 0, detail: int = 0, op: str = ""):
        super().__init__(message)
        self.message = message
        self.code = code
        self.detail = detail
        self.op = op

    def __str__(self) -> str:
        return self.message


class PanicError(Error):
    """perfcalc panicked: a bug, please report the text (the instance is still usable)."""


class BoundsError(Error):
    """An offset or length lies outside the module's buffers (a bug of this package)."""


class ArgumentError(Error, ValueError):
    """A reserved bit, an unknown format, an argument out of range."""


class SpaceError(Error):
    """A result does not fit the module's output buffer (handled by this package)."""


class TruncatedError(Error):
    """The input is truncated."""


class MalformedError(Error):
    """The input is malformed (a .blg that is not one, a bad signature, …)."""


class UnsupportedError(Error):
    """Well-formed input that perfcalc does not decode."""


class LimitError(Error):
    """The input asks for more than the module allows (more than 2,097,152 records)."""


class InputError(Error, ValueError):
    """Any other refusal: a bad counter path pattern, captures that do not pair."""


class AbsentError(Error):
    """A V2 block does not name its counter and no ids were given."""


class DamagedError(Error):
    """A .blg log is damaged after its start. perfcalc converts it up to the
    damage, as relog does; ``partial`` holds what was read before it (a
    ``pyarrow.Table``, or the text for :func:`perfcalc.relog`). Pass
    ``damaged="keep"`` to get that result without an exception."""

    def __init__(self, message: str, partial=None, *, op: str = ""):
        super().__init__(message, op=op)
        self.partial = partial


class SkippedEventsWarning(UserWarning):
    """A log's first reading skipped events (not PDH's, or of an unknown
    type): a damaged event header, which may have taken a sample with it.
    The result is what perfcalc gives, which notes the same on standard
    error; ``count`` is the number of events."""

    def __init__(self, message: str, count: int):
        super().__init__(message)
        self.count = count


class IdentityBreaksWarning(UserWarning):
    """With ``identity="pid"``, the log or captures held identity breaks:
    PDH instance names (``svchost#2``) that named another process than in
    the sample before, where pairing by name (PDH, ``identity="pdh"``)
    computes a value across two processes. perfcalc notes the same on
    standard error; ``count`` is the number of breaks."""

    def __init__(self, message: str, count: int):
        super().__init__(message)
        self.count = count


class FaultError(Error):
    """The module trapped (memory exhausted, a Go runtime fatal error): the
    instance was discarded and the next call gets a new one."""


_BY_CODE = {
    cls_code: cls
    for cls in (
        PanicError,
        BoundsError,
        ArgumentError,
        SpaceError,
        TruncatedError,
        MalformedError,
        UnsupportedError,
        LimitError,
        InputError,
        AbsentError,
    )
    for cls_code, name in _abi.CODE_NAMES.items()
    if name == cls.kind
}


def error_for(code: int, message: str, *, detail: int = 0, op: str = "") -> Error:
    """Returns the Error subclass instance for a module error code."""
    cls = _BY_CODE.get(code, Error)
    if not message:
        message = f"perfcalc: {op}: error {_abi.CODE_NAMES.get(code, code)}"
    return cls(message, code=code, detail=detail, op=op)
