"""Where perfcalc.spark.convert's time goes, in local[2], on the cluster
test's logs (the corpus' four and 240 fleet logs of tools/gencorpus/cmd/
fleetlogs), beside native perfcalc convert -j 2 --partition machine,date:

    .venv-python/bin/python python/bench/spark_convert.py [--runs N]

(from the repository's root, after python/test.sh has filled
.venv-python with pyspark). Steps, each timed per run: read_blg written to
Spark's noop sink (reading and decoding alone), the partitioned Parquet
write as convert does it (Hadoop's output committer, algorithm 1, Spark's
default), the same with committer algorithm 2, and perfcalc.spark.convert
itself. Prints every run (the machine is shared: compare within a run).
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
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="perfcalc-spark-convert-")
    try:
        run(tmp, args.runs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(tmp: str, runs: int) -> None:
    real, fleet = os.path.join(tmp, "real"), os.path.join(tmp, "fleet")
    os.makedirs(real)
    for f in glob.glob(os.path.join(ROOT, "..", "shared", "corpus", "blg", "*.blg")):
        shutil.copy(f, real)
    subprocess.run(["go", "run", "./tools/gencorpus/cmd/fleetlogs", "-n", "240", "-o", fleet], cwd=ROOT, check=True)
    native = os.path.join(tmp, "perfcalc")
    subprocess.run(["go", "build", "-o", native, "./cmd/perfcalc"], cwd=ROOT, check=True)
    dirs = [d for d in (real, fleet) if os.listdir(d)]
    logs = [f for d in dirs for f in glob.glob(os.path.join(d, "*.blg"))]
    size = sum(os.path.getsize(f) for f in logs)
    print(f"{len(logs)} logs, {size / 1e6:.1f} MB", flush=True)

    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

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
    df = perfcalc.spark.read_blg(spark, dirs)
    df.count()  # the Python workers started
    rows = df.filter("error is null").drop("error").withColumn("date", F.expr(perfcalc.spark._UTC_DATE))

    def timed(name, fn):
        t0 = time.perf_counter()
        fn()
        s = time.perf_counter() - t0
        print(f"  {name:48s} {s:6.2f} s {len(logs) / s:7.1f} logs/s {size / 1e6 / s:6.2f} MB/s", flush=True)

    for i in range(runs):
        print(f"run {i + 1}:", flush=True)
        timed("native convert -j 2 --partition machine,date", lambda: subprocess.run(
            [native, "convert", *dirs, "-o", os.path.join(tmp, f"native{i}"), "-j", "2", "--partition", "machine,date"], capture_output=True))
        timed("read_blg, noop sink", lambda: df.write.format("noop").mode("overwrite").save())
        timed("partitioned write, committer 1 (default)", lambda: rows.write.mode("overwrite").partitionBy("machine", "date").parquet(os.path.join(tmp, "v1")))
        timed("partitioned write, committer 2", lambda: rows.write.mode("overwrite")
              .option("mapreduce.fileoutputcommitter.algorithm.version", "2").partitionBy("machine", "date").parquet(os.path.join(tmp, "v2")))
        timed("perfcalc.spark.convert", lambda: perfcalc.spark.convert(spark, dirs, os.path.join(tmp, f"c{i}"), partition_by=("machine", "date")))
    spark.stop()


if __name__ == "__main__":
    main()
