"""The module's records as NumPy structured dtypes (built from _abi's field
lists, never from offsets written here), and the decode calls with paging
(wasm/ABI.md, "Decode results")."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _abi
from ._module import Instance
from .errors import Error

_NP = {"u32": "<u4", "i32": "<i4", "u64": "<u8", "i64": "<i8", "f64": "<f8", "region": ("<u4", (2,))}


def _dtype(fields, size: int) -> np.dtype:
    """A structured dtype from (NAME, offset, type) fields: REC_PATH_OFF is
    the field path_off."""
    names = [name.split("_", 1)[1].lower() for name, _, _ in fields]
    return np.dtype(
        {
            "names": names,
            "formats": [_NP[t] for _, _, t in fields],
            "offsets": [off for _, off, _ in fields],
            "itemsize": size,
        }
    )


# The lengths of the parts, in the order their bytes follow.
_PART_FIELDS = (_abi.PARTS_MACHINE, _abi.PARTS_OBJECT, _abi.PARTS_PARENT, _abi.PARTS_INSTANCE, _abi.PARTS_COUNTER)

HEADER = _dtype(_abi.HEADER_FIELDS, _abi.HEADER_SIZE)
RECORD = _dtype(_abi.RECORD_FIELDS, _abi.RECORD_SIZE)
STAT = _dtype(_abi.STAT_FIELDS, _abi.STAT_SIZE)
PCT = _dtype(_abi.PCT_FIELDS, _abi.PCT_SIZE)
REQUEST = _dtype(_abi.REQ_FIELDS, _abi.REQ_SIZE)
RESULT = _dtype(_abi.RES_FIELDS, _abi.RES_SIZE)
QUERY = _dtype(_abi.QUERY_FIELDS, _abi.QUERY_SIZE)


@dataclass
class Page:
    """One page of a decode result: its records (a copy) and string area."""

    records: np.ndarray
    strings: bytes

    def text(self, off: int, n: int) -> str:
        return self.strings[off : off + n].decode("utf-8")

    def parts(self, at: int):
        """The parts of the counter path that ends at at in the string area
        (wasm/ABI.md, "Path parts"): (machine, object, instance, parent,
        index, counter), instance, parent and index None where the path has
        none. The module formatted the path from them: nothing splits it."""
        s = self.strings
        if at + _abi.PARTS_SIZE > len(s):
            raise Error("perfcalc: a path's parts lie outside the module's strings")
        lens = [int.from_bytes(s[at + f : at + f + 4], "little") for f in _PART_FIELDS]
        index = int.from_bytes(s[at + _abi.PARTS_INDEX : at + _abi.PARTS_INDEX + 4], "little", signed=True)
        p, out = at + _abi.PARTS_SIZE, []
        for n in lens:
            if p + n > len(s):
                raise Error("perfcalc: a path's parts lie outside the module's strings")
            out.append(s[p : p + n].decode("utf-8"))
            p += n
        machine, obj, parent, instance, counter = out
        if index < 0:
            return (machine, obj, None, None, None, counter)
        return (machine, obj, instance, parent or None, index, counter)


@dataclass
class Decoded:
    """A whole decode result: the first page's header and every page."""

    header: np.void
    pages: list
    info: str
    damage: str  # the damage's text (blg), "" when the input was whole

    @property
    def records(self) -> np.ndarray:
        if len(self.pages) == 1:
            return self.pages[0].records
        return np.concatenate([p.records for p in self.pages])

    def paths_by(self, key: str) -> dict:
        """One path per distinct value of a record field (the column of a
        .blg result), resolved in each page's string area."""
        return self._by(key, lambda p, off, n: p.text(off, n))

    def parts_by(self, key: str) -> dict:
        """The path's parts (Page.parts) per distinct value of a record
        field, as paths_by."""
        return self._by(key, lambda p, off, n: p.parts(off + n))

    def _by(self, key: str, read) -> dict:
        """read(page, path_off, path_len) of the first record of each
        distinct value of a record field, across the pages."""
        out = {}
        for p in self.pages:
            keys, first = np.unique(p.records[key], return_index=True)
            for k, i in zip(keys.tolist(), first.tolist()):
                if k not in out:
                    r = p.records[i]
                    out[k] = read(p, int(r["path_off"]), int(r["path_len"]))
        return out

    def parts(self) -> list:
        """Every record's path's parts (Page.parts), in order."""
        out = []
        for p in self.pages:
            offs, lens = p.records["path_off"].tolist(), p.records["path_len"].tolist()
            out.extend(p.parts(o + n) for o, n in zip(offs, lens))
        return out

    def paths(self) -> list:
        """Every record's path, in order."""
        out = []
        for p in self.pages:
            offs, lens = p.records["path_off"].tolist(), p.records["path_len"].tolist()
            s = p.strings
            out.extend(s[o : o + n].decode("utf-8") for o, n in zip(offs, lens))
        return out


def decode(inst: Instance, op: str, args: tuple, record: np.dtype) -> Decoded:
    """Calls a decode export with args (its reserved last argument, first,
    0), then decode_next with each page's cursor until the last page, and
    collects the pages. Each page resumes where the one before it ended:
    the module decodes the input once, whatever the pages. Only when the
    output buffer cannot hold the next record (a page without records) is
    it made to hold it (the header's needed). The header is the last page's
    (a result's columns and damage are complete there)."""
    pages, info = [], None
    rc = inst.call(op, *args)
    while True:
        if rc < 0 and rc != _abi.CODE_SPACE:
            raise inst.error(op, rc)
        out = inst.call("out_ptr")
        h = inst.view(out, _abi.HEADER_SIZE).copy().view(HEADER)[0]
        if h["magic"] != _abi.MAGIC or h["version"] != _abi.VERSION or h["rec_size"] != record.itemsize:
            raise Error(f"perfcalc: {op}: the module's result has no valid header")
        count, flags = int(h["count"]), int(h["flags"])
        recs = inst.view(out + int(h["rec_off"]), count * record.itemsize).copy().view(record)
        strings = bytes(inst.view(out + int(h["str_off"]), int(h["str_len"])))
        if info is None:
            info = strings[int(h["info_off"]) : int(h["info_off"]) + int(h["info_len"])].decode("utf-8", "replace")
        pages.append(Page(recs, strings))
        if not flags & _abi.FLAG_MORE:
            damage = inst.error_text() if flags & _abi.FLAG_DAMAGED else ""
            return Decoded(h, pages, info, damage)
        cursor = int(h["cursor"])
        if rc != _abi.CODE_SPACE or cursor == 0:
            raise Error(f"perfcalc: {op}: more records announced without ErrSpace and a cursor")
        if count == 0:
            needed = int(h["needed"])
            if needed > _abi.MAX_RESERVE:
                inst.call("decode_next", 0)  # the continuation's memory goes
                raise error_limit(op, needed)
            inst.reserve_out(needed)
        rc = inst.call("decode_next", cursor)


def error_limit(op: str, needed: int) -> Error:
    from .errors import LimitError

    return LimitError(
        f"perfcalc: {op}: the result needs {needed} bytes, more than the module's largest buffer",
        code=_abi.CODE_LIMIT,
        op=op,
    )
