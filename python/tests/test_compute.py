"""compute and compute_batch against the native perfcalc calc --batch, bit for
bit, over every counter type and edge values."""

from __future__ import annotations

import json
import random
import struct
import subprocess

import numpy as np
import pytest

import perfcalc

EDGES = [0, 1, 2, 3, 1000, 10_000_000, 1 << 31, (1 << 32) - 1, 1 << 32, 1 << 63, (1 << 64) - 1]
OPTION_SETS = [[], ["cap100"], ["1000"], ["wrap32"], ["cap100", "1000", "wrap32"]]


def bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def requests(n: int, seed: int = 16):
    rng = random.Random(seed)
    types = sorted(set(perfcalc.COUNTER_TYPES.values()))

    def u64():
        return rng.choice(EDGES) if rng.random() < 0.3 else rng.getrandbits(rng.choice([8, 20, 32, 40, 64]))

    out = []
    for i in range(n):
        t = types[i % len(types)]
        old = None if rng.random() < 0.15 else [u64(), u64(), rng.choice([0, 1, 2, 5])]
        new = [u64(), u64(), rng.choice([0, 1, 2, 5])]
        if old is not None and rng.random() < 0.7:  # mostly forward steps
            new[0], new[1] = (old[0] + u64() % 10**9) % (1 << 64), (old[1] + 1 + u64() % 10**8) % (1 << 64)
        req = {"type": t, "new": new, "timebase": rng.choice([0, 1, 3579545, 10_000_000, -5])}
        if old is not None:
            req["old"] = old
        opts = list(rng.choice(OPTION_SETS))
        if rng.random() < 0.3:
            req["scale"] = rng.randint(-10, 10)
        if opts:
            req["options"] = opts
        out.append(req)
    return out


@pytest.fixture(scope="module")
def golden(native):
    reqs = requests(3000)
    p = subprocess.run([native, "calc", "--batch"], input="\n".join(map(json.dumps, reqs)).encode(), capture_output=True)
    res = [json.loads(line) for line in p.stdout.decode().splitlines()]
    assert len(res) == len(reqs) and not any("error" in r for r in res), p.stderr.decode()[:500]
    return reqs, res


def options_of(req):
    opts = list(req.get("options", []))
    if "scale" in req:
        opts.append("scale")
    return opts


def test_compute_equals_native(golden):
    for req, want in zip(*golden):
        have = perfcalc.compute(
            req["type"], req.get("old"), req["new"], timebase=req["timebase"], scale=req.get("scale", 0), options=options_of(req)
        )
        assert have.status == want["status"], req
        assert bits(have.value) == bits(float(want["value"]) if want["status"] == "Valid" else 0.0), (req, have, want)


def test_compute_batch_equals_native(golden):
    reqs, res = golden
    for has_old in (True, False):
        sel = [i for i, r in enumerate(reqs) if ("old" in r) == has_old]
        col = lambda f: np.array([f(reqs[i]) for i in sel], dtype=object)  # noqa: E731
        u64 = lambda f: np.array([f(reqs[i]) for i in sel], dtype=np.uint64)  # noqa: E731
        u32 = lambda f: np.array([f(reqs[i]) for i in sel], dtype=np.uint32)  # noqa: E731
        opts = u32(lambda r: perfcalc._compute.options_bits(options_of(r)))
        kw = dict(
            new_multi=u32(lambda r: r["new"][2]),
            timebase=np.array([reqs[i]["timebase"] for i in sel], np.int64),
            scale=np.array([reqs[i].get("scale", 0) for i in sel], np.int32),
            options=opts,
        )
        if has_old:
            kw.update(old_first=u64(lambda r: r["old"][0]), old_second=u64(lambda r: r["old"][1]), old_multi=u32(lambda r: r["old"][2]))
        values, statuses = perfcalc.compute_batch(
            u32(lambda r: r["type"]), u64(lambda r: r["new"][0]), u64(lambda r: r["new"][1]), **kw
        )
        del col
        for k, i in enumerate(sel):
            want = res[i]
            assert perfcalc.STATUS_NAMES[statuses[k]] == want["status"], reqs[i]
            want_v = float(want["value"]) if want["status"] == "Valid" else 0.0
            assert bits(values[k]) == bits(want_v), (reqs[i], values[k], want)


def test_compute_batch_broadcasts_and_pages():
    n = 300_000  # more than one call's worth of requests (in_cap / 72)
    old = np.arange(n, dtype=np.uint64)
    values, statuses = perfcalc.compute_batch(
        "PERF_COUNTER_COUNTER", old + 50, 20_000_000, old_first=old, old_second=10_000_000, timebase=10_000_000
    )
    assert values.shape == (n,) and (statuses == 0).all() and (values == 50.0).all()
    v, s = perfcalc.compute_batch("PERF_RAW_FRACTION", np.array([[1, 2], [3, 4]]), 4)
    assert v.shape == (2, 2) and v.tolist() == [[25.0, 50.0], [75.0, 100.0]] and (s == 0).all()


def test_compute_reads_names_numbers_and_raw_int64():
    a = perfcalc.compute("100nsec_timer_inv", (4_000_000, 100_000_000), (6_500_000, 110_000_000))
    b = perfcalc.compute(0x21510500, (4_000_000, 100_000_000), (6_500_000, 110_000_000), timebase=10_000_000)
    assert a == b == (75.0, "Valid")
    # A negative raw value is an int64 bit pattern, as PDH's LONGLONG.
    assert perfcalc.compute("PERF_COUNTER_LARGE_RAWCOUNT", None, (-1, 0)) == perfcalc.compute(
        "PERF_COUNTER_LARGE_RAWCOUNT", None, ((1 << 64) - 1, 0)
    )
    assert perfcalc.compute("PERF_100NSEC_TIMER", None, (5, 5)).status == "NewData"
    # A type winperf.h does not define (the native command refuses it).
    assert perfcalc.compute(0x12345678, None, (5, 5)) == (0.0, "UnknownType")


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: perfcalc.compute("PERF_NOT_A_TYPE", None, (1, 1)), "unknown counter type"),
        (lambda: perfcalc.compute("PERF_RAW_FRACTION", None, (1, 1), options="cap101"), "unknown option"),
        (lambda: perfcalc.compute("PERF_RAW_FRACTION", None, (1, 1), options=1 << 9), "reserved"),
        (lambda: perfcalc.compute("PERF_RAW_FRACTION", None, (1,)), "FirstValue"),
        (lambda: perfcalc.compute_batch("PERF_RAW_FRACTION", [1, 2], 4, options=np.array([0, 1 << 9])), "request 1"),
    ],
)
def test_bad_arguments_raise_argument_errors(call, message):
    with pytest.raises(perfcalc.ArgumentError, match=message):
        call()


def test_parse_options_reads_the_one_syntax():
    """parse_options reads what engine.ParseOptions reads (the cases shared
    with the Go and JS tests, testdata/options.json); scale=S gives compute
    and compute_batch their scale."""
    from conftest import ROOT

    cases = json.loads((ROOT / "testdata" / "options.json").read_text())
    assert len(cases) >= 10
    for c in cases:
        if "error" in c:
            with pytest.raises(perfcalc.ArgumentError) as e:
                perfcalc.parse_options(c["text"])
            assert c["error"] in str(e.value), c["text"]
        else:
            assert perfcalc.parse_options(c["text"]) == (c["options"], c.get("scale")), c["text"]
    raw = ("PERF_COUNTER_RAWCOUNT", None, (7, 0))
    assert perfcalc.compute(*raw, options="cap100, scale=-2, 1000") == perfcalc.compute(*raw, scale=-2, options=["cap100", "scale", "1000"])
    assert perfcalc.compute(*raw, options="scale=-2,1000").value == 70
    with pytest.raises(perfcalc.ArgumentError, match="disagree"):
        perfcalc.compute(*raw, scale=3, options="scale=2")
    values, _ = perfcalc.compute_batch("PERF_COUNTER_RAWCOUNT", [7, 9], 0, options="Scale=-1")
    assert values.tolist() == [0.7, 0.9]
