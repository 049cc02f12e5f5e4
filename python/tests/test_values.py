"""values against the native perfcalc values -f json on the captures the
project ships (testdata/corpus)."""

from __future__ import annotations

import struct

import pytest

import perfcalc

from conftest import TESTDATA, json_lines, run_native

G1, G2, NAMES = TESTDATA / "global-1.bin", TESTDATA / "global-2.bin", TESTDATA / "counter-009.multisz"


def bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ([], {}),
        (["--options", "cap100,scale"], {"options": "cap100,scale"}),
        (["-c", r"\Processor(*)\*", "-c", r"\System\*"], {"counters": [r"\Processor(*)\*", r"\System\*"]}),
    ],
)
def test_values_equals_native(native, args, kwargs):
    want = json_lines(run_native(native, "values", G1, G2, "--names", NAMES, "-f", "json", *args).stdout)
    have = perfcalc.values(G1, G2, NAMES, **kwargs)
    assert have.schema.equals(perfcalc.VALUES_SCHEMA)
    assert have.num_rows == len(want) > 0
    t = have.to_pydict()
    for i, w in enumerate(want):
        assert (t["path"][i], t["status"][i], t["counter_type"][i]) == (w["path"], w["status"], w["type"]), i
        if w["status"] == "Valid":
            assert bits(t["value"][i]) == bits(float(w["value"])), (i, w)
        else:
            assert t["value"][i] is None


def test_values_first_sample_and_bytes(native):
    want = json_lines(run_native(native, "values", G2, G2, "--names", NAMES, "-f", "json").stdout)
    same = perfcalc.values(G2.read_bytes(), G2.read_bytes(), NAMES.read_bytes())
    assert same.num_rows == len(want)
    first = perfcalc.values(None, G2, NAMES)
    assert first.num_rows == same.num_rows
    assert "NewData" in first["status"].to_pylist()


def test_values_of_captures_that_do_not_pair(native, tmp_path):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(G1.read_bytes()[:100])
    p = run_native(native, "values", bad, G2, "--names", NAMES, check=False)
    assert p.returncode != 0
    with pytest.raises(perfcalc.Error) as e:
        perfcalc.values(bad, G2, NAMES)
    assert e.value.code < 0 and e.value.message in p.stderr.decode(), (e.value.message, p.stderr)
