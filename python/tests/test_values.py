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


V2 = TESTDATA / "v2-data-1.bin", TESTDATA / "v2-data-2.bin"
V2_TABLES = {"registration": TESTDATA / "v2-reginfo.bin", "strings": TESTDATA / "v2-strings.bin"}
V2_ARGS = ["--reginfo", TESTDATA / "v2-reginfo.bin", "--strings", TESTDATA / "v2-strings.bin"]


@pytest.mark.parametrize("v2", [False, True], ids=["V1", "V2"])
def test_values_equals_native_parquet(native, tmp_path, v2):
    """Every column, times and raw values included, equals perfcalc values
    -f parquet read back by pyarrow."""
    import pyarrow.parquet as pq

    out = tmp_path / "values.parquet"
    if v2:
        run_native(native, "values", *V2, *V2_ARGS, "-f", "parquet", "-o", out)
        have = perfcalc.values(*V2, **V2_TABLES)
    else:
        run_native(native, "values", G1, G2, "--names", NAMES, "-f", "parquet", "-o", out)
        have = perfcalc.values(G1, G2, NAMES)
    want = pq.read_table(out)
    assert have.column_names == want.column_names
    assert have.num_rows == want.num_rows > 0
    for name in want.column_names:
        assert have[name].to_pylist() == want[name].to_pylist(), name
    assert have["local_time"].null_count == 0 and have["raw_first"].null_count == 0
    assert any(v != 0 for v in have["raw_first"].to_pylist())


@pytest.mark.parametrize("fmt, digits", [("csv", 20), ("csv", 17), ("tsv", 20)])
def test_values_text_equals_native(native, fmt, digits):
    """values_text is byte for byte perfcalc values -f csv / tsv."""
    for have, args in [
        (perfcalc.values_text(G1, G2, NAMES, format=fmt, digits=digits), [G1, G2, "--names", NAMES]),
        (perfcalc.values_text(G1, G2, NAMES, [r"\Processor(*)\*"], format=fmt, digits=digits), [G1, G2, "--names", NAMES, "-c", r"\Processor(*)\*"]),
        (perfcalc.values_text(*V2, format=fmt, digits=digits, **V2_TABLES), [*V2, *V2_ARGS]),
    ]:
        want = run_native(native, "values", *args, "-f", fmt, "--digits", str(digits)).stdout.decode()
        assert have == want
        assert have.count("\r\n") == 2
    with pytest.raises(perfcalc.ArgumentError):
        perfcalc.values_text(G1, G2, NAMES, format="json")
    with pytest.raises(perfcalc.ArgumentError):
        perfcalc.values_text(G1, G2, NAMES, digits=21)
