"""The embedded module, its loading and its per-thread instances."""

from __future__ import annotations

import hashlib
import threading

import pytest

import perfcalc
from perfcalc import _abi, _module

from conftest import ROOT


@pytest.mark.parametrize("name", [_module.MODULE, _module.ANALYZE_MODULE])
def test_embedded_module_equals_the_built_one(name):
    built = ROOT / "wasm" / "module" / name
    if not built.exists():
        pytest.skip(f"{built} is absent (the package is tested outside its repository)")
    have = hashlib.sha256(_module.module_bytes(name)).hexdigest()
    want = hashlib.sha256(built.read_bytes()).hexdigest()
    assert have == want, f"the installed package embeds another {name} than wasm/module/: run make wasm and reinstall (python/setup.py copies the modules)"


def test_instance_speaks_the_abi():
    inst = _module.instance()
    assert inst.call("abi_version") == _abi.VERSION == perfcalc.ABI_VERSION
    assert inst.call("in_cap") >= _abi.IN_CAP and inst.call("out_cap") >= _abi.OUT_CAP


def test_one_instance_per_thread_and_one_module_per_process():
    seen = []

    def work():
        seen.append((_module.instance(), _module.runtime()))
        seen.append((_module.instance(), _module.runtime()))

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    instances = {id(i) for i, _ in seen}
    runtimes = {id(r) for _, r in seen}
    assert len(instances) == 4, "each thread keeps one instance across calls"
    assert runtimes == {id(_module.runtime())}, "the module is compiled once per process"


def test_a_trap_discards_the_instance_and_the_next_call_gets_a_new_one(tmp_path):
    # In a thread of its own, whose instance is fresh: an instance that an
    # earlier test grew (a large log) would grant the reservation.
    errors = []

    def run():
        try:
            _trap_and_recover()
        except BaseException as e:  # noqa: BLE001 - re-raised in the test's thread
            errors.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if errors:
        raise errors[0]


def _trap_and_recover():
    inst = _module.instance()
    # Cap the store's memory below what a large input buffer needs: the
    # module's allocation then traps, as ABI.md says for host limits.
    inst.store.set_limits(memory_size=inst.memory.data_len(inst.store) + (1 << 20))
    with pytest.raises(perfcalc.FaultError) as e:
        inst.call("in_reserve", 64 << 20)
    assert e.value.kind == "Fault" and "instance discarded" in str(e.value)
    assert inst.broken
    fresh = _module.instance()
    assert fresh is not inst
    assert perfcalc.compute("PERF_RAW_FRACTION", None, (1, 4)) == (25.0, "Valid")


def test_error_classes_carry_the_codes():
    from perfcalc.errors import error_for

    for code, name in _abi.CODE_NAMES.items():
        e = error_for(code, "text", detail=3, op="decode_blg")
        assert isinstance(e, perfcalc.Error)
        assert (e.code, e.kind, e.detail, e.op, str(e)) == (code, name, 3, "decode_blg", "text")
        assert type(e).__name__ == name + "Error"


def test_a_record_larger_than_the_output_buffer_comes_after_out_reserve():
    """A name of 5 MB does not fit the module's 4 MiB output buffer: decode
    reads the page before it, then a page without records whose needed it
    reserves, then the record from decode_next."""
    from perfcalc._module import instance
    from perfcalc._records import RECORD, decode

    table = ("1\0" + "x" * (5 << 20) + "\0" + "3\0three\0\0").encode("utf-16-le")
    inst = instance()
    ((off, n),) = inst.write_in([table])
    d = decode(inst, "decode_names", (off, n, 0), RECORD)
    assert [len(p) for p in d.paths()] == [5 << 20, 5]
    assert d.records["aux"].tolist() == [1, 3] and len(d.pages) >= 2
