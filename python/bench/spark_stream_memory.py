"""Peak memory of perfcalc.spark.read_blg on one large log, streamed or
through binaryFile, in local[1] (the driver's JVM is the executor): the
peak RSS (VmHWM) of the JVM and of its Python workers, read from /proc
when the job is done, and the time. One route per process (a JVM's peak
cannot be reset), so run it twice, side by side:

    .venv-python/bin/python python/bench/spark_stream_memory.py LOG --route binaryfile
    .venv-python/bin/python python/bench/spark_stream_memory.py LOG --route stream

The job: read_blg(spark, LOG).write.format("noop") (every row made, none
kept). --heap sets the JVM's heap (2g: the binaryFile route holds the log
in it)."""

from __future__ import annotations

import argparse
import os
import sys
import time


def tree(pid: int) -> list:
    """pid's descendants."""
    children: dict = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    children.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(d))
            except (OSError, IndexError, ValueError):
                pass
    out, todo = [], list(children.get(pid, []))
    while todo:
        c = todo.pop()
        out.append(c)
        todo.extend(children.get(c, []))
    return out


def status(pid: int) -> dict:
    with open(f"/proc/{pid}/status") as f:
        fields = dict(line.split(":", 1) for line in f if ":" in line)
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        fields["cmd"] = f.read().replace(b"\0", b" ").decode(errors="replace")
    return fields


def mib(field: str) -> float:
    return int(field.split()[0]) / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log")
    ap.add_argument("--route", choices=("stream", "binaryfile"), required=True)
    ap.add_argument("--heap", default="2g")
    ap.add_argument("--master", default="local[1]")
    a = ap.parse_args()
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_SUBMIT_ARGS"] = f"--driver-memory {a.heap} pyspark-shell"
    from pyspark.sql import SparkSession

    import perfcalc.spark

    spark = (
        SparkSession.builder.master(a.master)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    spark.range(1).collect()
    stream_above = perfcalc.spark.STREAM_ABOVE if a.route == "stream" else None
    size = os.path.getsize(a.log)
    t0 = time.perf_counter()
    df = perfcalc.spark.read_blg(spark, a.log, stream_above=stream_above)
    df.write.format("noop").mode("overwrite").save()
    secs = time.perf_counter() - t0
    rows = df.count() if os.environ.get("PERFCALC_BENCH_COUNT") == "1" else None
    jvm = py = 0.0
    workers = []
    for pid in tree(os.getpid()):
        try:
            st = status(pid)
        except OSError:
            continue
        if "java" in st["cmd"].split(" ", 1)[0]:
            jvm = max(jvm, mib(st["VmHWM"]))
        elif "pyspark.daemon" in st["cmd"] or "pyspark/daemon" in st["cmd"] or "python" in st["cmd"].split(" ", 1)[0]:
            workers.append(mib(st["VmHWM"]))
    py = max(workers, default=0.0)
    print(
        f"{a.route:10s} {os.path.basename(a.log)} {size / 1e6:.0f} MB in {secs:.1f} s ({size / 1e6 / secs:.1f} MB/s):"
        f" peak RSS JVM {jvm:.0f} MiB, largest Python worker {py:.0f} MiB"
        f" (of {len(workers)} Python processes){'' if rows is None else f', {rows} rows'}"
    )
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
