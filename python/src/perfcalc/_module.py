"""perfcalc.wasm under wasmtime: the module compiled once per process, one
instance per thread (wasm/ABI.md, "Calling sequence"). The analyze module,
perfcalc-analyze.wasm (the analyze export, which perfcalc.wasm leaves out
to stay small), the same way, compiled by the first :func:`perfcalc.analyze`
of a process (:func:`analyze_instance`).

The module is a WASI preview-1 reactor built by Go: each instance is one
single-threaded Go runtime, so a thread never shares its instance. An
instance is created on a thread's first call (about 2 ms), and replaced
after a trap. Compiling the module takes a few seconds; wasmtime's cache
(``~/.cache/wasmtime``) makes later processes load it in tens of
milliseconds. ``PERFCALC_WASMTIME_CACHE=0`` turns that cache off.
"""

from __future__ import annotations

import ctypes
import os
import threading
from importlib import resources

import numpy as np
import wasmtime

from . import _abi
from .errors import Error, FaultError, LimitError, error_for

_WASM_TYPES = {"u32": "i32", "i32": "i32", "u64": "i64", "i64": "i64", "f64": "f64"}


#: The modules' file names in the package, and the variables that name
#: another file instead (another build of it).
MODULE, ANALYZE_MODULE = "perfcalc.wasm", "perfcalc-analyze.wasm"
_ENV = {MODULE: "PERFCALC_WASM", ANALYZE_MODULE: "PERFCALC_ANALYZE_WASM"}


def module_bytes(name: str = MODULE) -> bytes:
    """Returns the embedded module ``name`` (perfcalc.wasm, or
    perfcalc-analyze.wasm), or the file at the path ``$PERFCALC_WASM``
    (``$PERFCALC_ANALYZE_WASM``) when it is set."""
    path = os.environ.get(_ENV[name])
    if path:
        with open(path, "rb") as f:
            return f.read()
    return resources.files(__package__).joinpath(name).read_bytes()


class _Runtime:
    """The wasmtime engine, the compiled module and its linker: shared by
    every thread of a process."""

    def __init__(self, wasm: bytes, name: str = MODULE):
        config = wasmtime.Config()
        if os.environ.get("PERFCALC_WASMTIME_CACHE", "1") != "0":
            try:
                config.cache = True
            except Exception:  # an unwritable cache folder: compile every time
                pass
        self.engine = wasmtime.Engine(config)
        self.module = wasmtime.Module(self.engine, wasm)
        self.linker = wasmtime.Linker(self.engine)
        self.linker.define_wasi()
        self.pid = os.getpid()
        self.name = name
        self.exports = exports_of(name)
        _check_exports(self.module, name, self.exports)


def exports_of(name: str) -> list:
    """The exports of the ABI that the module ``name`` has: the analyze
    module's (analyze and the buffers, errors and paging), or
    perfcalc.wasm's, every other one."""
    if name == ANALYZE_MODULE:
        return [x for x in _abi.EXPORTS if x in _abi.ANALYZE_MODULE_EXPORTS]
    return [x for x in _abi.EXPORTS if x != "analyze"]


def _check_exports(module: wasmtime.Module, file: str, names: list) -> None:
    have = {e.name: e.type for e in module.exports}
    for name in names:
        params, results = _abi.EXPORTS[name]
        t = have.get(name)
        if t is None:
            raise Error(f"perfcalc: {file} is not a perfcalc module: export {name!r} is missing")
        want_p = [_WASM_TYPES[p.split()[-1]] for p in params.split(",") if p.strip()]
        want_r = [_WASM_TYPES[r.split()[-1]] for r in results.split(",") if r.strip()]
        got_p = [str(v) for v in t.params]
        got_r = [str(v) for v in t.results]
        if got_p != want_p or got_r != want_r:
            raise Error(
                f"perfcalc: not a perfcalc module: export {name!r} has ({', '.join(got_p)}) -> "
                f"({', '.join(got_r)}), want ({', '.join(want_p)}) -> ({', '.join(want_r)})"
            )


_runtime_lock = threading.Lock()
_runtimes: dict = {}  # module name -> _Runtime


def runtime(name: str = MODULE) -> _Runtime:
    """Returns the process's runtime of the module ``name``, compiling the
    module on first use (and again in a child process after fork, whose
    wasmtime state is not usable)."""
    rt = _runtimes.get(name)
    if rt is not None and rt.pid == os.getpid():
        return rt
    with _runtime_lock:
        rt = _runtimes.get(name)
        if rt is None or rt.pid != os.getpid():
            rt = _runtimes[name] = _Runtime(module_bytes(name), name)
        return rt


class Instance:
    """One instance of the module: a store, its exports and its memory.
    Not thread-safe: use :func:`instance`, which gives each thread its own."""

    def __init__(self, rt: _Runtime):
        self.store = wasmtime.Store(rt.engine)
        # No arguments, no environment, no preopened directory: the
        # module's fd_prestat_get probe then gets EBADF, as Go requires.
        self.store.set_wasi(wasmtime.WasiConfig())
        inst = rt.linker.instantiate(self.store, rt.module)
        ex = inst.exports(self.store)
        self._fn = {name: ex[name] for name in rt.exports}
        self.memory = ex["memory"]
        self.broken = False
        ex["_initialize"](self.store)
        version = self.call("abi_version")
        if version != _abi.VERSION:
            raise Error(f"perfcalc: the module speaks ABI version {version}, this package speaks {_abi.VERSION}")
        self.pid = rt.pid

    def has(self, name: str) -> bool:
        """Whether the module has the export (analyze is in the analyze
        module only)."""
        return name in self._fn

    def call(self, name: str, *args):
        """Calls an export. A trap discards the instance (FaultError)."""
        if self.broken:
            raise FaultError("perfcalc: this instance trapped before and was discarded", op=name)
        try:
            return self._fn[name](self.store, *args)
        except wasmtime.Trap as e:
            self.broken = True
            raise FaultError(f"perfcalc: {name}: trap (instance discarded): {str(e).splitlines()[0]}", op=name) from e
        except wasmtime.WasmtimeError as e:
            self.broken = True
            raise FaultError(f"perfcalc: {name}: {str(e).splitlines()[0]} (instance discarded)", op=name) from e

    # Memory. The buffers' addresses and the memory's base address change
    # when the module allocates: read them again after every call that may
    # grow memory (every call but compute, compute_batch and the getters).

    def base(self) -> int:
        return ctypes.addressof(self.memory.data_ptr(self.store).contents)

    def view(self, addr: int, n: int) -> np.ndarray:
        """A uint8 view of n bytes of memory at addr, valid until the next
        call that may grow memory."""
        size = self.memory.data_len(self.store)
        if addr < 0 or n < 0 or addr + n > size:
            raise Error(f"perfcalc: the module's result lies outside its memory ({addr}+{n} > {size})")
        if n == 0:
            return np.empty(0, np.uint8)
        return np.ctypeslib.as_array((ctypes.c_ubyte * n).from_address(self.base() + addr))

    def reserve_in(self, n: int) -> int:
        """Makes the input buffer hold n bytes; returns its address."""
        if n > _abi.MAX_RESERVE:
            raise LimitError(
                f"perfcalc: the input is {n:,} bytes; the module takes at most {_abi.MAX_RESERVE:,} (1 GiB)",
                code=_abi.CODE_LIMIT,
                op="in_reserve",
            )
        if n > self.call("in_cap"):
            if self.call("in_reserve", n) == 0:
                raise self.error("in_reserve", 0)
        return self.call("in_ptr")

    def reserve_out(self, n: int) -> None:
        if n > self.call("out_cap"):
            if self.call("out_reserve", n) == 0:
                raise self.error("out_reserve", 0)

    @staticmethod
    def place(parts) -> list[tuple[int, int]]:
        """The (offset, length) of each byte-like part (None: absent) laid
        one after the other, 8-aligned, as write_in lays them."""
        regions, at = [], 0
        for p in parts:
            n = 0 if p is None else memoryview(p).nbytes
            regions.append((at if n else 0, n))
            at += (n + 7) & ~7
        return regions

    def write_in(self, parts) -> list[tuple[int, int]]:
        """Writes byte-like parts one after the other (8-aligned) into the
        input buffer; returns each part's (offset, length)."""
        mvs = [memoryview(p).cast("B") if p is not None else None for p in parts]
        regions = self.place(mvs)
        ptr = self.reserve_in(max((off + n for off, n in regions), default=0))
        base = self.base() + ptr
        for (off, n), mv in zip(regions, mvs):
            if n:
                src = np.frombuffer(mv, np.uint8)
                ctypes.memmove(base + off, src.ctypes.data, n)
        return regions

    def error_text(self) -> str:
        n = self.call("err_len")
        if n == 0:
            return ""
        return bytes(self.view(self.call("err_ptr"), n)).decode("utf-8", "replace")

    def error(self, op: str, code: int) -> Error:
        return error_for(code, self.error_text(), detail=self.call("last_detail"), op=op)


_local = threading.local()


def instance() -> Instance:
    """Returns the calling thread's instance of perfcalc.wasm, creating it
    on first use and after a trap."""
    inst = getattr(_local, "instance", None)
    if inst is None or inst.broken or inst.pid != os.getpid():
        inst = Instance(runtime())
        _local.instance = inst
    return inst


def analyze_instance() -> Instance:
    """Returns the calling thread's instance of the analyze module,
    perfcalc-analyze.wasm, compiling the module on the process's first
    analysis (a few seconds; wasmtime's cache makes later processes load it
    in tens of milliseconds) and creating the instance on the thread's
    first and after a trap."""
    inst = getattr(_local, "analyze_instance", None)
    if inst is None or inst.broken or inst.pid != os.getpid():
        inst = Instance(runtime(ANALYZE_MODULE))
        _local.analyze_instance = inst
    return inst
