"""read_blg on the 42 MB log (the real Tx log repeated 160 times, written by
tools/gencorpus/cmd/repeatlog) beside the native perfcalc relog -f json,
runs interleaved on the same machine; and the module's decode alone.

    make python-bench            # or: python bench/bench.py [--runs N]

Prints the median of each and their ratio (the machine is shared: compare
ratios, not times across runs).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import perfcalc
from perfcalc import _module
from perfcalc._records import RECORD, decode

ROOT = Path(__file__).resolve().parents[2]
TX = ROOT.parent / "shared" / "corpus" / "blg" / "Tx_BasicPerfCounters.blg"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--copies", type=int, default=160)
    args = ap.parse_args()
    if not TX.exists():
        print(f"bench: {TX} is absent: nothing to measure")
        return 0
    native = os.environ.get("PERFCALC_NATIVE") or str(Path(tempfile.gettempdir()) / "perfcalc-bench")
    if not os.environ.get("PERFCALC_NATIVE"):
        subprocess.run(["go", "build", "-o", native, "./cmd/perfcalc"], cwd=ROOT, check=True)
    log = Path(tempfile.gettempdir()) / f"perfcalc-tx{args.copies}.blg"
    subprocess.run(
        ["go", "run", "./tools/gencorpus/cmd/repeatlog", "-n", str(args.copies), "-o", str(log), str(TX)], cwd=ROOT, check=True
    )
    data = log.read_bytes()
    perfcalc.compute("PERF_RAW_FRACTION", None, (1, 1))  # compile and instantiate first

    def run_native():
        with open(os.devnull, "wb") as null:
            subprocess.run([native, "relog", str(log), "-f", "json"], stdout=null, check=True)

    def run_read_blg():
        return perfcalc.read_blg(data)

    def run_decode():
        inst = _module.instance()
        (off, n), (po, pl) = inst.write_in([data, None])
        return decode(inst, "decode_blg", lambda first: (off, n, po, pl, 0, 0, 0, first), RECORD, 2 * n + (1 << 20))

    names = ["native relog -f json", "read_blg", "module decode_blg alone"]
    wall = {k: [] for k in names}
    cpu = {k: [] for k in names}

    def cpu_now():  # this process's CPU time and its finished children's
        s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime

    rows = run_read_blg().num_rows
    for _ in range(args.runs):
        for name, f in zip(names, (run_native, run_read_blg, run_decode)):
            c, t = cpu_now(), time.perf_counter()
            f()
            wall[name].append(time.perf_counter() - t)
            cpu[name].append(cpu_now() - c)
    mb = len(data) / 1e6
    print(f"log: {log.name}, {mb:.1f} MB, {rows} rows; medians of {args.runs} interleaved runs")
    for k in names:
        w, c = statistics.median(wall[k]), statistics.median(cpu[k])
        print(f"  {k:26s} wall {w:6.3f} s ({mb / w:6.1f} MB/s)   CPU {c:6.3f} s ({mb / c:6.1f} MB/s)")
    for label, m in (("wall", wall), ("CPU", cpu)):
        ratio = statistics.median(m["read_blg"]) / statistics.median(m["native relog -f json"])
        print(f"  read_blg / native ({label} time) = {ratio:.2f}x (the issue's bound: 4x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
