"""Shared fixtures: the repository, the real corpus (../shared/corpus beside
the repository, skipped where absent) and the native perfcalc command that
every result is compared with."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# Spark's local JVM (the spark fixture starts it) with 2 GiB of heap: the log over the module's
# limit (121 MB, one binaryFile row) ran the default 1 GiB out of heap in
# CI's run, beside the other Spark tests' data.
os.environ.setdefault("PYSPARK_SUBMIT_ARGS", "--driver-memory 2g pyspark-shell")

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
TESTDATA = ROOT / "testdata" / "corpus"


def corpus_logs() -> list:
    """The corpus' .blg files (every file of blg/ named *.blg), or []."""
    d = CORPUS / "blg"
    return sorted(d.glob("*.blg")) if d.is_dir() else []


def need_corpus() -> Path:
    if not (CORPUS / "blg").is_dir():
        pytest.skip(f"the real corpus {CORPUS} is absent (a clone without shared/)")
    return CORPUS


@pytest.fixture(scope="session")
def native() -> str:
    """The native perfcalc command: $PERFCALC_NATIVE (python/test.sh builds
    it), else built here with go."""
    exe = os.environ.get("PERFCALC_NATIVE")
    if exe:
        return exe
    if shutil.which("go") is None:
        pytest.skip("no native perfcalc to compare with: set PERFCALC_NATIVE or install Go")
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"perfcalc-native-{os.getpid()}"
    subprocess.run(["go", "build", "-o", str(out), "./cmd/perfcalc"], cwd=ROOT, check=True)
    return str(out)


@pytest.fixture(scope="session")
def spark():
    """One Spark session in local[2] for every Spark test of the run (time
    zone UTC), skipped with the reason where python/test.sh found no Spark
    (PERFCALC_SPARK_SKIP), pyspark is absent or there is no Java."""
    reason = os.environ.get("PERFCALC_SPARK_SKIP")
    if reason:
        pytest.skip(f"Spark test skipped: {reason}")
    pytest.importorskip("pyspark", reason="pyspark is not installed (python/test.sh installs it)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark test skipped: no Java (python/test.sh installs Debian's openjdk-17-jre-headless)")
    # The executors' Python workers run this interpreter, where perfcalc is installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    s = (
        SparkSession.builder.master("local[2]")
        .appName("perfcalc-test")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


def run_native(native: str, *args, check=True) -> subprocess.CompletedProcess:
    p = subprocess.run([native, *map(str, args)], capture_output=True)
    if check and p.returncode != 0:
        raise AssertionError(f"perfcalc {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr.decode()}")
    return p


def json_lines(b: bytes) -> list:
    return [json.loads(line) for line in b.decode("utf-8").splitlines() if line]


#: Figures a test measured (label, text), printed at the end of the run.
FIGURES: list = []


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("perfcalc figures")
        for label, text in FIGURES:
            terminalreporter.write_line(f"{label}: {text}")


#: Copies of the Tx log's body in the log over the module's limit for one
#: call: 460 copies are 2,200,030 values (2,097,152 at most per call) in
#: 120 MB.
OVER_LIMIT_COPIES = 460


@pytest.fixture(scope="session")
def over_limit_log(tmp_path_factory) -> Path:
    """The real Tx log's body repeated OVER_LIMIT_COPIES times
    (tools/gencorpus/cmd/repeatlog, built with go): more values than
    read_blg takes in one call."""
    need_corpus()
    if shutil.which("go") is None:
        pytest.skip("the log over the limit is written by tools/gencorpus/cmd/repeatlog: no go on this machine")
    out = tmp_path_factory.mktemp("overlimit") / f"tx{OVER_LIMIT_COPIES}.blg"
    subprocess.run(
        ["go", "run", "./tools/gencorpus/cmd/repeatlog", "-n", str(OVER_LIMIT_COPIES), "-o", str(out), str(CORPUS / "blg" / "Tx_BasicPerfCounters.blg")],
        cwd=ROOT,
        check=True,
    )
    return out


def native_long(native: str, log) -> tuple:
    """The native relog -f json of log as columns in read_blg's row order
    (sample by sample, the columns in order): times (local, ISO with
    milliseconds), paths and values (NaN for null)."""
    import numpy as np

    times, paths, values = [], [], []
    for row in json_lines(run_native(native, "relog", log, "-f", "json").stdout):
        for path, v in row["values"].items():
            times.append(row["time"])
            paths.append(path)
            values.append(float("nan") if v is None else float(v))
    return times, paths, np.array(values, dtype=np.float64)
