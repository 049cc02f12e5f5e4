"""Names in any language (doc/COMMANDS.md §7.1): localized object and
counter names to English, from the compact form of a translation table
(doc/FORMATS.md §3.4) that ``perfcalc names --compact CounterLang.xml``
writes, with the rules of ``perfcalc --names-lang en`` (package
engine/translate): names compare case-insensitively, a name that is already
English is kept, a counter is looked up in its object's scope first, then
among the counters of every object and the name-table pairs; a localized
name a table gives two English names is ambiguous and kept. The module has
no translation (its size budget): the package translates what it returns."""

from __future__ import annotations

import pyarrow as pa

HEADER = "perfcalc-names 1"


def _fold(s: str) -> str:
    """Each code point to the lower case of its upper case, where both are
    single code points (Unicode's simple case mappings, as PDH compares)."""
    out = []
    for c in s:
        u = c.upper()
        if len(u) != 1:
            u = c
        lo = u.lower()
        if len(lo) != 1:
            lo = u
        out.append(lo)
    return "".join(out)


def parse_compact(text: str):
    """The entries of the compact form, as (kind, lang, object, english,
    local) tuples ("o", "c" or "n"; object "" but for counters); a bad line
    raises ValueError naming its number."""
    lines = text.split("\n")
    if lines[0].rstrip("\r") != HEADER:
        raise ValueError(f'perfcalc names: line 1: is not the header "{HEADER}"')
    out = []
    for i, line in enumerate(lines[1:], start=2):
        line = line.rstrip("\r") if line.endswith("\r") else line
        if line == "" or line[0] == "#":
            continue
        f = line.split("\t")
        kind = f[0]
        if kind not in ("o", "c", "n"):
            raise ValueError(f"perfcalc names: line {i}: kind is not o, c or n")
        want = 5 if kind == "c" else 4
        if len(f) != want:
            raise ValueError(f"perfcalc names: line {i}: has {len(f)} fields; a line of kind {kind} has {want}")
        for v in f:
            if v == "" or len(v.encode("utf-8")) > 2048 or any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in v):
                raise ValueError(f"perfcalc names: line {i}: a field is empty, too long or holds a control character")
        if kind == "c":
            out.append((kind, f[1], f[2], f[3], f[4]))
        else:
            out.append((kind, f[1], "", f[2], f[3]))
    return out


class Translator:
    """Localized object and counter names to English, from compact forms
    (the first given wins where two disagree)."""

    def __init__(self, *texts: str):
        self.english = set()
        self.objects: dict = {}
        self.counters: dict = {}
        self.names: dict = {}
        self.ambiguities: list = []
        for src, t in enumerate(texts):
            for e in parse_compact(t):
                self._add(src, *e)

    def _add(self, src, kind, lang, obj, english, local):
        def put(m, key, report):
            t = m.get(key)
            if t is None or src < t[1]:
                m[key] = [english, src, False]
                return
            if src > t[1] or t[0] == english or t[2] or _fold(t[0]) == _fold(english):
                return
            t[2] = True
            if report:
                self.ambiguities.append((kind, obj, local, t[0], english))

        lo = _fold(local)
        if kind == "o":
            self.english.add("o\0" + _fold(english))
            put(self.objects, lo, True)
        elif kind == "c":
            self.english.add("c\0" + _fold(obj) + "\0" + _fold(english))
            self.english.add("n\0" + _fold(english))
            put(self.counters, _fold(obj) + "\0" + lo, True)
            put(self.names, lo, False)
        else:
            self.english.add("o\0" + _fold(english))
            self.english.add("n\0" + _fold(english))
            put(self.objects, lo, True)
            put(self.names, lo, False)

    @staticmethod
    def _pick(name, a, b):
        if a is None or (b is not None and b[1] < a[1]):
            a = b
        if a is None:
            return name, "unknown"
        if a[2]:
            return name, "ambiguous"
        return a[0], "translated"

    def object(self, name: str):
        """(text, status) of an object name: status "english",
        "translated", "unknown" or "ambiguous"."""
        if "o\0" + _fold(name) in self.english:
            return name, "english"
        return self._pick(name, self.objects.get(_fold(name)), self.names.get(_fold(name)))

    def counter(self, obj: str, name: str):
        """(text, status) of a counter of the object whose English name is obj."""
        n = _fold(name)
        if "c\0" + _fold(obj) + "\0" + n in self.english or "n\0" + n in self.english:
            return name, "english"
        return self._pick(name, self.counters.get(_fold(obj) + "\0" + n), self.names.get(n))

    def path(self, path: str, unknown: set | None = None) -> str:
        """A counter path \\\\machine\\object(instance)\\counter with its
        object and counter in English, every other character kept; unknown
        collects the names not translated ("object X", "counter Y (of Z)")."""
        start = 0
        if path.startswith("\\\\"):
            start = path.find("\\", 2)
            if start < 0:
                return path
        last = path.rfind("\\")
        if last <= start:
            return path
        head, ctr = path[start + 1 : last], path[last + 1 :]
        paren = head.find("(")
        obj = head if paren < 0 else head[:paren]
        o, os_ = self.object(obj)
        c, cs = (ctr, "english") if ctr == "*" else self.counter(o, ctr)
        if unknown is not None:
            if os_ in ("unknown", "ambiguous"):
                unknown.add(f"object {obj}")
            if cs in ("unknown", "ambiguous"):
                unknown.add(f"counter {ctr} (of {o})")
        return path[: start + 1] + o + head[len(obj) :] + "\\" + c

    def table(self, t: pa.Table):
        """A table of stats() or read_blg() with its path (and object and
        counter, where it has them) in English, and the names not
        translated, sorted."""
        unknown: set = set()
        paths = t.column("path").to_pylist()
        cache: dict = {}
        out = []
        for p in paths:
            if p not in cache:
                cache[p] = self.path(p, unknown)
            out.append(cache[p])
        t = t.set_column(t.schema.get_field_index("path"), t.schema.field("path"), pa.array(out, t.schema.field("path").type))
        for col in ("object", "counter"):
            if col in t.schema.names:
                vals = t.column(col).to_pylist()
                objs = t.column("object").to_pylist()
                if col == "object":
                    new = [self.object(v)[0] for v in vals]
                else:
                    new = [v if v == "*" else self.counter(self.object(o)[0], v)[0] for o, v in zip(objs, vals)]
                f = t.schema.field(col)
                t = t.set_column(t.schema.get_field_index(col), f, pa.array(new).cast(f.type))
        return t, sorted(unknown)
