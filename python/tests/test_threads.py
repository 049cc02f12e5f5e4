"""Eight threads at once: each gets its own instance and the same results as
one thread."""

from __future__ import annotations

import threading

import numpy as np

import perfcalc

from conftest import TESTDATA, corpus_logs


def test_eight_threads_give_the_same_results():
    logs = [l for l in corpus_logs() if "Corrupt" not in l.name]
    inputs = [("values", None)] + [("blg", l) for l in logs]
    ref = {}
    for kind, log in inputs:
        ref[(kind, log)] = work(kind, log)
    batch = {k: perfcalc.compute_batch("PERF_RAW_FRACTION", np.arange(1000) + k, 1000)[0] for k in range(8)}
    errors, done = [], []

    def run(k):
        try:
            for j in range(6):
                kind, log = inputs[(k + j) % len(inputs)]
                have = work(kind, log)
                assert have.equals(ref[(kind, log)]), (k, kind, log)
                v, s = perfcalc.compute_batch("PERF_RAW_FRACTION", np.arange(1000) + k, 1000)
                assert (v.view(np.uint64) == batch[k].view(np.uint64)).all() and (s == 0).all()
            done.append(k)
        except BaseException as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    ts = [threading.Thread(target=run, args=(k,)) for k in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors
    assert sorted(done) == list(range(8))


def work(kind, log):
    if kind == "values":
        return perfcalc.values(TESTDATA / "global-1.bin", TESTDATA / "global-2.bin", TESTDATA / "counter-009.multisz")
    return perfcalc.read_blg(log)
