"""perfcalc.spark.convert in local[2] beside native perfcalc convert -j 2
--partition machine,date, side by side in one run, on two sets of logs:

- small: the cluster test's logs, the corpus' four and 240 fleet logs of
  tools/gencorpus/cmd/fleetlogs (12 samples of 3 counters, 8 KiB each;
  half of them span midnight UTC: 440 machine/date partitions);
- large: --large fleet logs of --samples samples each (default 16 logs of
  20,000 samples: 4.5 MB and 60,000 rows each, about the bytes per row of
  the corpus' logs, 76 against 65-116).

Run from the repository's root, after python/test.sh has filled
.venv-python with pyspark:

    PYTHONPATH=python/src .venv-python/bin/python python/bench/spark_convert.py [--runs N]

Steps, each timed per run and set: native convert -j 2 --partition
machine,date; read_blg written to Spark's noop sink (reading and decoding
alone); perfcalc.spark.convert(..., partition_by=("machine", "date")), its
default writer (each log's files written by the executor that read it);
the same with writer="spark" (Spark's DataFrameWriter). Prints every run
(the machine is shared: compare within a run) and checks that convert's
dataset is native's, file for file.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--large", type=int, default=16, help="large logs (0: none)")
    ap.add_argument("--samples", type=int, default=20000, help="samples per large log")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="perfcalc-spark-convert-")
    try:
        run(tmp, args)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def same_files(a: str, b: str) -> int:
    """The Parquet files of dataset a are b's (names and tables); their count."""
    import pyarrow.parquet as pq

    def listing(d):
        return sorted(os.path.relpath(os.path.join(p, f), d) for p, _, fs in os.walk(d) for f in fs)

    names = listing(b)
    if listing(a) != names:
        raise SystemExit(f"{a} and {b} hold other files")
    for rel in names:
        if rel.endswith(".parquet") and not pq.read_table(os.path.join(a, rel)).equals(pq.read_table(os.path.join(b, rel))):
            raise SystemExit(f"{rel}: other rows than native's")
    return sum(n.endswith(".parquet") for n in names)


def run(tmp: str, args) -> None:
    real, fleet, large = (os.path.join(tmp, d) for d in ("real", "fleet", "large"))
    os.makedirs(real)
    for f in glob.glob(os.path.join(ROOT, "..", "shared", "corpus", "blg", "*.blg")):
        shutil.copy(f, real)
    subprocess.run(["go", "run", "./tools/gencorpus/cmd/fleetlogs", "-n", "240", "-o", fleet], cwd=ROOT, check=True)
    sets = [("small", [d for d in (real, fleet) if os.listdir(d)])]
    if args.large:
        subprocess.run(["go", "run", "./tools/gencorpus/cmd/fleetlogs", "-n", str(args.large), "-samples", str(args.samples), "-o", large],
                       cwd=ROOT, check=True)
        sets.append(("large", [large]))
    native = os.path.join(tmp, "perfcalc")
    subprocess.run(["go", "build", "-o", native, "./cmd/perfcalc"], cwd=ROOT, check=True)

    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    import perfcalc.spark

    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    perfcalc.spark.read_blg(spark, sets[0][1]).count()  # the Python workers started

    for i in range(args.runs):
        print(f"run {i + 1}:", flush=True)
        for name, dirs in sets:
            logs = [f for d in dirs for f in glob.glob(os.path.join(d, "*.blg"))]
            size = sum(os.path.getsize(f) for f in logs)
            print(f" {name}: {len(logs)} logs, {size / 1e6:.1f} MB", flush=True)
            base = None

            def timed(step, fn):
                nonlocal base
                t0 = time.perf_counter()
                fn()
                s = time.perf_counter() - t0
                base = base or s
                print(f"  {step:52s} {s:6.2f} s {len(logs) / s:7.1f} logs/s {size / 1e6 / s:6.2f} MB/s {s / base:5.1f}x", flush=True)

            out = os.path.join(tmp, f"{name}{i}")
            timed("native convert -j 2 --partition machine,date", lambda: subprocess.run(
                [native, "convert", *dirs, "-o", out + "n", "-j", "2", "--partition", "machine,date"], capture_output=True))
            timed("local[2] read_blg, noop sink", lambda: perfcalc.spark.read_blg(spark, dirs).write.format("noop").mode("overwrite").save())
            timed("local[2] convert", lambda: perfcalc.spark.convert(spark, dirs, out + "c", partition_by=("machine", "date")))
            timed('local[2] convert, writer="spark"', lambda: perfcalc.spark.convert(
                spark, dirs, out + "s", partition_by=("machine", "date"), writer="spark"))
            print(f"  convert's dataset is native's: {same_files(out + 'c', out + 'n')} files", flush=True)
            for suffix in "ncs":
                shutil.rmtree(out + suffix, ignore_errors=True)
    spark.stop()


if __name__ == "__main__":
    main()
