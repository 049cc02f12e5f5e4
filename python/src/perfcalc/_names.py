"""Names in any language (doc/COMMANDS.md §7.1): the module translates
localized object and counter names to English (its ``names_load`` export)
from compact forms (doc/FORMATS.md §3.4, what ``perfcalc names --compact
CounterLang.xml`` writes), as ``perfcalc --names-lang en --names-file``
does; this file only hands them to it. The package reads no
CounterLang.xml: convert it once with that command."""

from __future__ import annotations

import contextlib
import os
import warnings

from .errors import UnsupportedError

_HEADER = b"perfcalc-names 1"


class NamesNotTranslatedWarning(UserWarning):
    """Names no translation source knows (or that one gives two English
    names) were kept as they are, as ``perfcalc --names-lang`` notes on
    standard error; ``names`` lists them ("object X", "counter Y (of Z)")."""

    def __init__(self, message: str, names: list):
        super().__init__(message)
        self.names = names


def sources(translate) -> list:
    """The (name, bytes) of the translation sources ``translate``: a compact
    form (bytes, or str text beginning with its header), a path to one, a
    ``(name, compact form)`` pair, or a list of these in order of
    precedence; [] for None."""
    from ._api import _bytes

    if translate is None:
        return []
    items = translate if isinstance(translate, list) else [translate]
    if not items:
        raise TypeError("perfcalc: translate is an empty list: give compact forms (perfcalc names --compact)")
    out = []
    for i, s in enumerate(items):
        name = f"translate[{i}]"
        if isinstance(s, tuple) and len(s) == 2:
            name, s = str(s[0]), s[1]
        if isinstance(s, str) and s.startswith(_HEADER.decode()):
            data = s.encode("utf-8")
        else:
            if isinstance(s, (str, os.PathLike)):
                name = os.fspath(s) if name.startswith("translate[") else name
            data = bytes(_bytes(s, "translation source"))
        out.append((name.encode("utf-8"), data))
    return out


@contextlib.contextmanager
def translated(inst, srcs: list):
    """Loads the sources into the instance (names_load) for the calls in
    the block and drops them after it; yields a list that holds, after the
    block, the names the last log export did not translate (None without
    sources)."""
    if not srcs:
        yield None
        return
    if not inst.has("names_load"):
        raise UnsupportedError("perfcalc: this perfcalc.wasm lacks names_load (it is older than this package)")
    inst.call("names_load", 0, 0, 0, 0)
    try:
        for name, data in srcs:
            (no, nl), (d, dn) = inst.write_in([name, data])
            rc = inst.call("names_load", no, nl, d, dn)
            if rc < 0:
                raise inst.error("names_load", rc)
        unknown: list = []
        yield unknown
        rc = inst.call("names_unknown")
        if rc < 0:
            raise inst.error("names_unknown", rc)
        text = bytes(inst.view(inst.call("out_ptr"), rc)).decode("utf-8")
        unknown.extend(text.split("\n")[:-1])
    finally:
        inst.call("names_load", 0, 0, 0, 0)


def note_unknown(unknown) -> None:
    """Warns of the names not translated (NamesNotTranslatedWarning), as
    perfcalc notes them; nothing for None or none."""
    if unknown:
        warnings.warn(
            NamesNotTranslatedWarning(f"perfcalc: note: {len(unknown)} names not translated (kept as they are): " + "; ".join(unknown), list(unknown)),
            stacklevel=3,
        )


def metadata(unknown) -> dict:
    """The schema metadata of a table's names not translated."""
    return {} if unknown is None else {b"perfcalc.names_unknown": "\n".join(unknown).encode("utf-8")}

