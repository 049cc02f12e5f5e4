"""perfcalc.spark on a real Spark standalone cluster (make spark-cluster-test,
run by python/test.sh --cluster, which sets up the environment first).

What it does, in order (python/README.md's "On a cluster" is this recipe):

1. The logs: the shared corpus' (../shared/corpus/blg, left out with a
   note where absent; one of them is a CSV renamed .blg, which must fail
   alone) and FLEET logs of tools/gencorpus/cmd/fleetlogs (small logs of
   as many machines, half of them spanning midnight UTC).
2. The nodes' Python: a virtual environment with perfcalc's dependencies
   (wasmtime, pyarrow, numpy, pandas at the driver's versions) and without
   perfcalc, as a cluster node has before the job ships the package.
3. A standalone master and two workers on 127.0.0.1, started with the
   pyspark package's own launcher (bin/spark-class …Master / …Worker; the
   wheel has no sbin/start-master.sh), one core and 1 GiB each.
4. The job: a session on spark://127.0.0.1:PORT whose executors run the
   nodes' Python; perfcalc shipped as its wheel renamed .zip with
   SparkContext.addPyFile (Spark puts .zip/.egg/.jar on the workers'
   sys.path, not .whl); a task checks that the executors import perfcalc
   from it; perfcalc.spark.convert(..., partition_by=("machine", "date"))
   reads every log with read_blg and each executor writes the logs it
   read as machine=…/date=…/<log>.parquet (native's layout).
5. The checks: every file's rows belong to its folder's machine and UTC
   date; every value is native perfcalc relog -f json's (the same double,
   or null), and every value of the JSON is in the dataset; the damaged
   log is among the failures and has no row; the dataset is native
   perfcalc convert --partition machine,date's of the same logs, file for
   file (the same names and _perfcalc lists, each file's table equal to
   native's as pyarrow reads it), and Spark reads both alike (the same
   rows per machine and date, and the same sums); then
   perfcalc.spark.analyze_machines over a few FLEET logs (several of one
   machine, one machine without alerts, a file that is not a log) gives
   native perfcalc analyze's reports and fleet summary
   (check_fleet_analysis, tests/fleetcheck.py).
5a. The shipping routes of spark-submit (submit_routes), once the
   session is stopped: cluster_submit_app.py submitted with pyspark's
   bin/spark-submit --py-files perfcalc.zip to the same master, its
   executors on the nodes' Python; it checks that they import perfcalc
   from the zip, and reads two logs (the corpus' Tx log, a fleet log)
   streamed (stream_above=0: each executor reads its log into the module
   itself), every value checked against native perfcalc relog -f json.
   Then the same job with --archives env.tar.gz#env (venv-pack of a new
   environment with perfcalc's dependencies and its wheel, kept for
   later runs), its executors on ./env/bin/python, read_blg's defaults;
   PERFCALC_CLUSTER_ARCHIVES=0 leaves it out, and it is left out with a
   note where venv-pack could not be installed.
6. The figures: logs/s and MB/s of the cluster's convert (its first run,
   whose executors start their Python workers, import perfcalc and
   compile the module, and its second, the steady state) beside native
   perfcalc convert -j 2 --partition machine,date on the same logs and
   local[2]'s convert (first and second) once the cluster is stopped
   (PERFCALC_CLUSTER_LOCAL=0 leaves local[2] out), and each executor's
   peak memory: its JVM's RSS and its Python workers' (read from /proc
   every 0.2 s), and Spark's own peakMemoryMetrics where the REST API has
   them. Then a fleet of larger logs: PERFCALC_CLUSTER_LARGE (default
   32) fleet logs of 20,000 samples (4.5 MB each, 146 MB in all),
   converted and checked file for file the same way, with their own
   figures (the peak memory then covers both); 0 leaves them out. Spark's
   cost per job (about a second: planning, tasks, binaryFile's transfer
   to the Python workers) outweighs the 244 small logs' work, not the
   larger fleet's.
7. The cluster is stopped whatever happens (the process groups it runs in
   are killed, SIGTERM then SIGKILL), and the run is bounded: an alarm
   ends it after PERFCALC_CLUSTER_TIMEOUT seconds (default 420: about
   160 s on two quiet cores, 230 s at a load of 13, more when CI shares
   the machine).

Exit status 0 when every check passed (or the test was skipped, saying
why), 1 otherwise.
"""

from __future__ import annotations

import glob
import importlib.metadata as md
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "blg")
FLEET = int(os.environ.get("PERFCALC_CLUSTER_LOGS", "240"))
TIMEOUT = int(os.environ.get("PERFCALC_CLUSTER_TIMEOUT", "420"))
NATIVE = os.environ.get("PERFCALC_NATIVE", "")
WHEEL = os.environ.get("PERFCALC_WHEEL", "")
LARGE = int(os.environ.get("PERFCALC_CLUSTER_LARGE", "32"))


def say(msg: str) -> None:
    print(f"spark-cluster-test: {msg}", flush=True)


def skip(msg: str) -> None:
    say(f"SKIPPED: {msg}")
    sys.exit(0)


class Failed(Exception):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The processes this test started (each the leader of its own group).
_started: list = []


def start(args, log, env) -> subprocess.Popen:
    p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    _started.append(p)
    return p


def stop_all() -> None:
    """Ends the groups of the processes this test started: SIGTERM, then
    SIGKILL for what is left after 10 s."""
    for p in reversed(_started):
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.time() + 10
    for p in reversed(_started):
        try:
            p.wait(max(0.1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(p.pid, signal.SIGKILL)  # the executors and Python workers of the group too
        except ProcessLookupError:
            pass
    _started.clear()


def node_python(venv: str) -> str:
    """The nodes' Python: a virtual environment with perfcalc's
    dependencies at the driver's versions, without perfcalc (made once,
    kept beside the driver's)."""
    node = os.path.join(venv, "cluster-node")
    py = os.path.join(node, "bin", "python")
    deps = [f"{d}=={md.version(d)}" for d in ("wasmtime", "pyarrow", "numpy", "pandas")]
    stamp = os.path.join(node, "deps.txt")
    if not (os.path.exists(stamp) and open(stamp).read() == " ".join(deps)):
        shutil.rmtree(node, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", node], check=True)
        r = subprocess.run([py, "-m", "pip", "--disable-pip-version-check", "-q", "install", *deps], capture_output=True, text=True)
        if r.returncode != 0:
            shutil.rmtree(node, ignore_errors=True)
            skip(f"pip could not install the nodes' environment ({' '.join(deps)}) from PyPI: {r.stderr.strip()[-300:]}")
        with open(stamp, "w") as f:
            f.write(" ".join(deps))
    if subprocess.run([py, "-c", "import perfcalc"], capture_output=True).returncode == 0:
        raise Failed(f"{py} imports perfcalc: the nodes' environment must not have it")
    return py


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


class MemoryWatch(threading.Thread):
    """The peak RSS of each executor's JVM and of its Python workers (its
    descendants), read from /proc every 0.2 s."""

    def __init__(self, app_marker: str):
        super().__init__(daemon=True)
        self.marker = app_marker
        self.peaks: dict = {}  # executor id → [jvm, python, total] MiB
        self.halt = threading.Event()

    @staticmethod
    def _rss(pid: int) -> float:
        try:
            with open(f"/proc/{pid}/statm") as f:
                return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
        except (OSError, IndexError, ValueError):
            return 0.0

    def run(self) -> None:
        while not self.halt.wait(0.2):
            children: dict = {}
            executors = {}
            for d in os.listdir("/proc"):
                if not d.isdigit():
                    continue
                try:
                    with open(f"/proc/{d}/stat") as f:
                        ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                    children.setdefault(ppid, []).append(int(d))
                    with open(f"/proc/{d}/cmdline", "rb") as f:
                        cmd = f.read().split(b"\0")
                except (OSError, IndexError, ValueError):
                    continue
                if b"org.apache.spark.executor.CoarseGrainedExecutorBackend" in cmd and self.marker.encode() in b" ".join(cmd):
                    i = cmd.index(b"--executor-id")
                    executors[cmd[i + 1].decode()] = int(d)
            for eid, pid in executors.items():
                jvm = self._rss(pid)
                py, todo = 0.0, list(children.get(pid, []))
                while todo:
                    c = todo.pop()
                    py += self._rss(c)
                    todo.extend(children.get(c, []))
                peak = self.peaks.setdefault(eid, [0.0, 0.0, 0.0])
                peak[0], peak[1], peak[2] = max(peak[0], jvm), max(peak[1], py), max(peak[2], jvm + py)


def native_values(log: str) -> tuple:
    """relog -f json's cells of a log: (local time, path) → values."""
    r = subprocess.run([NATIVE, "relog", log, "-f", "json"], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    cells: dict = {}
    n = 0
    for line in r.stdout.splitlines():
        row = json.loads(line)
        for k, v in row["values"].items():
            i = k.rfind(" (duplicate ")
            if i > 0:
                k = k[:i]
            cells.setdefault((row["time"], k), []).append(v)
            n += v is not None
    return (cells, n), None


def check_dataset(out: str, logs: list) -> int:
    """Checks the dataset under out (native's layout: machine=…/date=…/
    <log>.parquet) against the native command's values; returns its rows."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    by_log: dict = {}
    files = [f for f in glob.glob(os.path.join(out, "machine=*", "date=*", "*.parquet"))]
    if not files:
        raise Failed(f"no Parquet file under {out}/machine=*/date=*/")
    for f in files:
        rel = os.path.relpath(f, out).split(os.sep)
        machine = urllib.parse.unquote(rel[0][len("machine=") :])
        date = rel[1][len("date=") :]
        t = pq.read_table(f)
        micros = pc.cast(pc.cast(t["time"], pa.timestamp("us", tz="UTC")), "int64")
        days = pc.floor(pc.divide(pc.cast(micros, "float64"), 86_400_000_000.0)).to_pylist()
        days = [int(d) for d in days]
        for i, (m, path, lt, value, day) in enumerate(
            zip(t["machine"].to_pylist(), t["path"].to_pylist(), t["local_time"].to_pylist(), t["value"].to_pylist(), days)
        ):
            if m != machine or not path.startswith("\\\\" + machine + "\\") or time.strftime("%Y-%m-%d", time.gmtime(day * 86400)) != date:
                raise Failed(f"{f}: row {i} ({path} at day {day}) is not of machine {machine!r} and UTC date {date}")
            by_log.setdefault(rel[2], []).append((lt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{lt.microsecond // 1000:03d}", path, value))
    rows = 0
    for log in logs:
        want, err = native_values(log)
        have = by_log.pop(os.path.splitext(os.path.basename(log))[0] + ".parquet", [])
        if want is None:
            if have:
                raise Failed(f"{log}: the native command fails ({err}) but the dataset has {len(have)} rows")
            continue
        cells, values = want
        matched = 0
        for lt, path, value in have:
            cands = cells.get((lt, path), [])
            for j, w in enumerate(cands):
                if (w is None) == (value is None) and (w is None or (float(w) == value and not math.isnan(value))):
                    matched += w is not None
                    del cands[j]
                    break
            else:
                raise Failed(f"{log}: {path} at {lt}: {value!r} is not relog -f json's ({cands})")
        if matched != values:
            raise Failed(f"{log}: {matched} of relog -f json's {values} values are in the dataset")
        rows += len(have)
    if by_log:
        raise Failed(f"rows of files that are not the logs': {sorted(by_log)[:3]}")
    return rows


def same_files(have: str, want: str) -> int:
    """The dataset have is native's want file for file: the same relative
    names (the _perfcalc lists among them, naming the same log and files), each
    Parquet file's table equal to native's as pyarrow reads it; returns
    the Parquet files."""
    import pyarrow.parquet as pq

    def listing(d):
        return sorted(os.path.relpath(os.path.join(p, f), d) for p, _, fs in os.walk(d) for f in fs)

    names = listing(want)
    if listing(have) != names:
        extra, missing = sorted(set(listing(have)) - set(names)), sorted(set(names) - set(listing(have)))
        raise Failed(f"{have} holds other files than native's {want}: {extra[:3]} not in native's, {missing[:3]} missing")
    for rel in names:
        a, b = os.path.join(have, rel), os.path.join(want, rel)
        if rel.endswith(".parquet"):
            if not pq.read_table(a).equals(pq.read_table(b)):
                raise Failed(f"{rel}: its table is not native's")
        elif list_names(a) != list_names(b):
            raise Failed(f"{rel}: not native's list")
    return sum(n.endswith(".parquet") for n in names)


def list_names(path: str):
    """A list of outputs without its files' sizes and times (each
    dataset's own): its header, the log's identity, its files' names."""
    lines = open(path).read().splitlines()
    return lines[:2] + [line.split(" ", 3)[-1] for line in lines[2:]]


def native_convert(dirs: list, out: str, failures: int) -> float:
    """native perfcalc convert -j 2 --partition machine,date of dirs into
    out, twice (the second time into out + "-again", then removed); the
    faster run's seconds (the machine is shared: the native figure is the
    best of two, Spark's second run is timed alone)."""
    best = math.inf
    for dest in (out, out + "-again"):
        t0 = time.perf_counter()
        r = subprocess.run([NATIVE, "convert", *dirs, "-o", dest, "-j", "2", "--partition", "machine,date"], capture_output=True, text=True)
        best = min(best, time.perf_counter() - t0)
        if r.returncode not in (0, 1) or f"failed {failures}" not in r.stdout:
            raise Failed(f"perfcalc convert --partition: status {r.returncode}\n{r.stdout}{r.stderr}")
    shutil.rmtree(out + "-again", ignore_errors=True)
    return best


def job_profile(ui: int, app: str) -> str:
    """Where the application's last job spent its time, from Spark's REST
    API: its wall time and, per stage, its tasks and their summed run time
    on the executors (the rest of convert's time is the driver's)."""
    import datetime

    def when(t):
        return datetime.datetime.strptime(t.replace("GMT", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z")

    try:
        base = f"http://127.0.0.1:{ui}/api/v1/applications/{app}"
        job = max(get_json(f"{base}/jobs"), key=lambda j: j["jobId"])
        parts = [f"{(when(job['completionTime']) - when(job['submissionTime'])).total_seconds():.2f} s"]
        for sid in sorted(job["stageIds"]):
            for st in get_json(f"{base}/stages/{sid}"):
                if st.get("status") != "COMPLETE":
                    continue
                parts.append(f"stage {sid}: {st['numTasks']} tasks, run {st['executorRunTime'] / 1000:.2f} s"
                             f" (deserialize {st['executorDeserializeTime'] / 1000:.2f} s, GC {st['jvmGcTime'] / 1000:.2f} s)")
        return "; ".join(parts)
    except (OSError, ValueError, KeyError) as e:
        return f"not known ({e})"


def convert_once(spark, dirs: list, out: str):
    import perfcalc.spark

    say(f"read_blg's DataFrame: {perfcalc.spark.read_blg(spark, dirs).rdd.getNumPartitions()} partitions")
    t0 = time.perf_counter()
    failed = perfcalc.spark.convert(spark, dirs, out, partition_by=("machine", "date"), mode="overwrite")
    return time.perf_counter() - t0, failed


APP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cluster_submit_app.py")


def submit_logs(real: str, fleet: str) -> list:
    """The one or two logs the spark-submit jobs read: the corpus' Tx log
    (where the corpus is present) and the first fleet log."""
    logs = [os.path.join(real, "Tx_BasicPerfCounters.blg")] if os.path.exists(os.path.join(real, "Tx_BasicPerfCounters.blg")) else []
    return logs + sorted(glob.glob(os.path.join(fleet, "*.blg")))[:2 - len(logs)]


def spark_submit(spark_home: str, master_url: str, tmp: str, name: str, logs: list, stream: str, args: list, env: dict) -> tuple:
    """Runs cluster_submit_app.py with pyspark's bin/spark-submit against
    the test's master (client mode, two executors of one core); returns its
    JSON and the seconds the submit took."""
    out = os.path.join(tmp, f"{name}.json")
    cmd = [
        os.path.join(spark_home, "bin", "spark-submit"), "--master", master_url,
        "--driver-memory", "512m", "--executor-memory", "512m", "--executor-cores", "1", "--total-executor-cores", "2",
        "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
        "--conf", "spark.ui.enabled=false", "--conf", "spark.ui.showConsoleProgress=false",
        "--conf", "spark.sql.session.timeZone=UTC", "--conf", f"spark.pyspark.driver.python={sys.executable}",
        *args, APP, out, stream, *logs,
    ]
    env = dict(os.environ, SPARK_HOME=spark_home, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_DRIVER_PYTHON=sys.executable, **env)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=240)
    secs = time.perf_counter() - t0
    if r.returncode != 0 or not os.path.exists(out):
        raise Failed(f"spark-submit ({name}): status {r.returncode}\n{r.stderr[-3000:]}")
    with open(out) as f:
        return json.load(f), secs


def check_submitted_rows(name: str, logs: list, rows: list) -> int:
    """Every row of the submitted job's logs is native perfcalc relog -f
    json's value (the same double, or null), and every value of the JSON
    is among them; returns the rows."""
    by_log: dict = {}
    for file, path, lt, value, error in rows:
        if error is not None:
            raise Failed(f"{name}: {file}: error row {error!r}")
        by_log.setdefault(file, []).append((lt, path, value))
    if sorted(by_log) != sorted("file:" + l for l in logs):
        raise Failed(f"{name}: rows of {sorted(by_log)}, want the logs {logs}")
    for log in logs:
        want, err = native_values(log)
        if want is None:
            raise Failed(f"{name}: {log}: the native command fails: {err}")
        cells, values = want
        matched = 0
        for lt, path, value in by_log["file:" + log]:
            cands = cells.get((lt, path), [])
            for j, w in enumerate(cands):
                if (w is None) == (value is None) and (w is None or float(w) == value):
                    matched += w is not None
                    del cands[j]
                    break
            else:
                raise Failed(f"{name}: {log}: {path} at {lt}: {value!r} is not relog -f json's ({cands})")
        if matched != values:
            raise Failed(f"{name}: {log}: {matched} of relog -f json's {values} values")
    return len(rows)


def submit_py_files(spark_home: str, master_url: str, tmp: str, node: str, shipped: str, logs: list) -> float:
    """The README's spark-submit --py-files perfcalc.zip: a job whose
    executors run the nodes' Python (without perfcalc) and import perfcalc
    from the shipped zip; it reads the logs streamed (stream_above=0: each
    executor opens its log and reads it into the module itself). Returns
    the seconds of the submit."""
    got, secs = spark_submit(spark_home, master_url, tmp, "py-files", logs, "0", ["--py-files", shipped], {"PYSPARK_PYTHON": node})
    origins = got["origins"]
    if not origins or not all("perfcalc.zip" in o for o in origins):
        raise Failed(f"spark-submit --py-files: the executors import perfcalc from {origins}, not from perfcalc.zip")
    n = check_submitted_rows("spark-submit --py-files", logs, got["rows"])
    say(f"spark-submit --py-files perfcalc.zip: the executors import perfcalc from {origins[0]};"
        f" {n} rows of {len(logs)} logs (streamed) are relog -f json's, in {secs:.1f} s")
    return secs


def packed_env(venv: str, tmp: str) -> tuple:
    """env.tar.gz: venv-pack of a new virtual environment with wasmtime,
    pyarrow, numpy, pandas (the driver's versions) and the perfcalc wheel;
    kept beside the driver's environment for later runs of the same
    wheel and versions. Returns (path, seconds to make it: 0 when kept),
    or (None, reason) where venv-pack or PyPI is missing."""
    import hashlib
    import zipfile

    try:
        import venv_pack  # noqa: F401
    except ImportError:
        return None, "venv-pack is not installed (python/test.sh --cluster installs it from PyPI)"
    deps = [f"{d}=={md.version(d)}" for d in ("wasmtime", "pyarrow", "numpy", "pandas")]
    with open(WHEEL, "rb") as f:
        key = hashlib.sha256(f.read() + " ".join(deps).encode()).hexdigest()[:16]
    keep = os.path.join(venv, "cluster-pack")
    archive = os.path.join(keep, f"env-{key}.tar.gz")
    if os.path.exists(archive):
        return archive, 0.0
    t0 = time.perf_counter()
    shutil.rmtree(keep, ignore_errors=True)
    os.makedirs(keep)
    with zipfile.ZipFile(WHEEL) as z:  # pip wants the wheel's own name
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        version = next(l.split(":", 1)[1].strip() for l in z.read(meta).decode().splitlines() if l.startswith("Version:"))
    wheel = os.path.join(tmp, f"perfcalc-{version}-py3-none-any.whl")
    shutil.copy(WHEEL, wheel)
    env = os.path.join(tmp, "packenv")
    subprocess.run([sys.executable, "-m", "venv", env], check=True)
    r = subprocess.run([os.path.join(env, "bin", "python"), "-m", "pip", "--disable-pip-version-check", "-q", "install", *deps, wheel],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"pip could not install the packed environment ({' '.join(deps)}) from PyPI: {r.stderr.strip()[-300:]}"
    part = archive + ".part"
    r = subprocess.run([sys.executable, "-m", "venv_pack", "-p", env, "-o", part, "--format", "tar.gz", "--compress-level", "1", "-q"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise Failed(f"venv-pack: status {r.returncode}: {r.stderr.strip()[-1000:]}")
    os.rename(part, archive)
    shutil.rmtree(env, ignore_errors=True)
    return archive, time.perf_counter() - t0


def submit_archives(spark_home: str, master_url: str, tmp: str, venv: str, logs: list):
    """The README's spark-submit --archives env.tar.gz#env: the executors
    run ./env/bin/python of the packed environment, which has perfcalc,
    and read the logs (read_blg's default). Returns the seconds (packing,
    submit), or None where it was skipped (said)."""
    archive, made = packed_env(venv, tmp)
    if archive is None:
        say(f"note: --archives env.tar.gz#env not run: {made}")
        return None
    got, secs = spark_submit(spark_home, master_url, tmp, "archives", logs, "default", ["--archives", archive + "#env"],
                             {"PYSPARK_PYTHON": "./env/bin/python"})
    origins = got["origins"]
    if not origins or not all("/env/lib/" in o and "site-packages" in o for o in origins):
        raise Failed(f"spark-submit --archives: the executors import perfcalc from {origins}, not from the packed env")
    n = check_submitted_rows("spark-submit --archives", logs, got["rows"])
    say(f"spark-submit --archives env.tar.gz#env ({os.path.getsize(archive) / 1e6:.0f} MB, made in {made:.1f} s"
        f"{'' if made else ': kept from an earlier run'}): the executors import perfcalc from {origins[0]};"
        f" {n} rows of {len(logs)} logs are relog -f json's, in {secs:.1f} s")
    return made, secs


def submit_routes(spark_home: str, master_url: str, tmp: str, venv: str, node: str, shipped: str, logs: list) -> None:
    """The shipping routes of spark-submit, once the test's session is
    stopped (its executors hold both cores): --py-files, then --archives
    (PERFCALC_CLUSTER_ARCHIVES=0 leaves it out: about 75 s, a third of
    them to make the packed environment)."""
    submit_py_files(spark_home, master_url, tmp, node, shipped, logs)
    if os.environ.get("PERFCALC_CLUSTER_ARCHIVES", "1") != "0":
        submit_archives(spark_home, master_url, tmp, venv, logs)
    else:
        say("note: spark-submit --archives env.tar.gz#env not run (PERFCALC_CLUSTER_ARCHIVES=0)")


def main() -> int:
    if not NATIVE or not WHEEL:
        raise Failed("run through python/test.sh --cluster (make spark-cluster-test): PERFCALC_NATIVE and PERFCALC_WHEEL are unset")
    if shutil.which("java") is None:
        skip("no java on PATH (Spark needs Java 17)")
    try:
        import pyspark
    except ImportError:
        skip("pyspark is not installed (pip could not install it from PyPI)")
    spark_home = os.path.dirname(pyspark.__file__)
    spark_class = os.path.join(spark_home, "bin", "spark-class")
    venv = os.path.dirname(os.path.dirname(sys.executable))
    began = time.perf_counter()

    tmp = tempfile.mkdtemp(prefix="perfcalc-cluster-")
    try:
        return run(tmp, spark_home, spark_class, venv, began)
    finally:
        try:
            from pyspark.sql import SparkSession

            active = SparkSession.getActiveSession()
            if active is not None:
                active.stop()
        except Exception as e:  # the cluster is stopped below all the same
            say(f"note: stopping the session: {e}")
        stop_all()
        shutil.rmtree(tmp, ignore_errors=True)


def run(tmp: str, spark_home: str, spark_class: str, venv: str, began: float) -> int:
    # 1. The logs.
    real = os.path.join(tmp, "logs", "real")
    fleet = os.path.join(tmp, "logs", "fleet")
    os.makedirs(real)
    if os.path.isdir(CORPUS):
        for f in glob.glob(os.path.join(CORPUS, "*.blg")):
            shutil.copy(f, real)
    else:
        say(f"note: {CORPUS} is absent: the shared corpus' logs are left out")
    subprocess.run(["go", "run", "./tools/gencorpus/cmd/fleetlogs", "-n", str(FLEET), "-o", fleet], cwd=ROOT, check=True)
    dirs = [d for d in (real, fleet) if os.listdir(d)]
    logs = sorted(glob.glob(os.path.join(real, "*.blg")) + glob.glob(os.path.join(fleet, "*.blg")))
    size = sum(os.path.getsize(f) for f in logs)
    say(f"{len(logs)} logs, {size / 1e6:.1f} MB")

    # 2. The nodes' Python, and the package as the job ships it.
    node = node_python(venv)
    shipped = os.path.join(tmp, "perfcalc.zip")
    shutil.copy(WHEEL, shipped)

    # 3. The cluster.
    env = dict(os.environ, SPARK_HOME=spark_home, SPARK_LOCAL_IP="127.0.0.1", SPARK_DAEMON_MEMORY="256m",
               SPARK_LOG_DIR=os.path.join(tmp, "log"), SPARK_NO_DAEMONIZE="1")
    mport, mweb = free_port(), free_port()
    master_url = f"spark://127.0.0.1:{mport}"
    logdir = os.path.join(tmp, "log")
    os.makedirs(logdir)
    t0 = time.perf_counter()
    start([spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(mport), "--webui-port", str(mweb)],
          open(os.path.join(logdir, "master.log"), "w"), env)
    for i in (1, 2):
        work = os.path.join(tmp, f"work{i}")
        start([spark_class, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "1", "--memory", "1g",
               "--webui-port", str(free_port()), "--work-dir", work, master_url],
              open(os.path.join(logdir, f"worker{i}.log"), "w"), env)
    alive = 0
    while time.perf_counter() - t0 < 90:
        try:
            alive = sum(w["state"] == "ALIVE" for w in get_json(f"http://127.0.0.1:{mweb}/json/")["workers"])
        except (OSError, ValueError, KeyError):
            pass
        if alive == 2:
            break
        if any(p.poll() is not None for p in _started):
            break
        time.sleep(0.5)
    if alive != 2:
        for name in sorted(os.listdir(logdir)):
            say(f"--- {name}:\n" + open(os.path.join(logdir, name)).read()[-2000:])
        raise Failed(f"the master has {alive} live workers after {time.perf_counter() - t0:.0f} s, want 2")
    say(f"master {master_url} and 2 workers (1 core, 1 GiB each) up in {time.perf_counter() - t0:.1f} s")

    # 4. The job.
    from pyspark.sql import SparkSession

    ui = free_port()
    t0 = time.perf_counter()
    # SparkContext takes the executors' Python from PYSPARK_PYTHON (the
    # spark.pyspark.python setting is spark-submit's).
    os.environ["PYSPARK_PYTHON"] = node
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    spark = (
        SparkSession.builder.master(master_url)
        .appName("perfcalc-cluster-test")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.memory", "512m")
        .config("spark.executor.memory", "512m")
        .config("spark.executor.cores", "1")
        .config("spark.cores.max", "2")
        .config("spark.pyspark.python", node)
        .config("spark.pyspark.driver.python", sys.executable)
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.port", str(ui))
        .config("spark.executor.processTreeMetrics.enabled", "true")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    sc.addPyFile(shipped)
    app = sc.applicationId
    watch = MemoryWatch(app)
    watch.start()
    say(f"session {app} in {time.perf_counter() - t0:.1f} s")

    def where(_):
        import perfcalc

        yield perfcalc.__file__

    origins = set(sc.parallelize(range(4), 4).mapPartitions(where).collect())
    if not origins or not all("perfcalc.zip" in o for o in origins):
        raise Failed(f"the executors import perfcalc from {origins}, not from the shipped perfcalc.zip")
    say(f"the executors import perfcalc from the shipped zip ({sorted(origins)[0]})")

    out = os.path.join(tmp, "out")
    # Twice: the first run's executors start their Python workers, import
    # perfcalc from the zip and compile the module; the second is the
    # steady state (into another folder: its dataset is the one checked).
    seconds, failed = convert_once(spark, dirs, os.path.join(tmp, "out-first"))
    cold = (len(logs), size, seconds)
    seconds, failed = convert_once(spark, dirs, out)
    cluster = (len(logs), size, seconds)
    say(f"the second run's job: {job_profile(ui, app)}")
    large = None
    if LARGE:
        # Fewer, larger logs: LARGE fleet logs of 20,000 samples (4.5 MB each).
        big = os.path.join(tmp, "logs", "large")
        subprocess.run(["go", "run", "./tools/gencorpus/cmd/fleetlogs", "-n", str(LARGE), "-samples", "20000", "-o", big], cwd=ROOT, check=True)
        big_size = sum(os.path.getsize(f) for f in glob.glob(os.path.join(big, "*.blg")))
        big_seconds, big_failed = convert_once(spark, [big], os.path.join(tmp, "out-large"))
        if big_failed:
            raise Failed(f"failures among the large logs: {big_failed}")
        large = (LARGE, big_size, big_seconds)
    watch.halt.set()
    watch.join()
    bad = [f for f, _ in failed]
    if os.path.isdir(CORPUS) and bad != ["file:" + os.path.join(real, "PowerShell_CorruptBlg.blg")]:
        raise Failed(f"the failures are {failed}, want the corrupt corpus log alone")
    if not os.path.isdir(CORPUS) and bad:
        raise Failed(f"failures: {failed}")
    executors = []
    try:
        executors = [e for e in get_json(f"http://127.0.0.1:{ui}/api/v1/applications/{app}/executors") if e["id"] != "driver"]
    except (OSError, ValueError):
        pass

    # 5. The checks.
    rows = check_dataset(out, logs)
    say(f"every value of {len(logs)} logs ({rows} rows) in {out}/machine=*/date=* is native relog -f json's")

    native_out = os.path.join(tmp, "native")
    native = (len(logs), size, native_convert(dirs, native_out, 1 if os.path.isdir(CORPUS) else 0))
    say(f"the dataset is native perfcalc convert --partition machine,date's, file for file: {same_files(out, native_out)} Parquet files")
    if large:
        native_large = (large[0], large[1], native_convert([big], os.path.join(tmp, "native-large"), 0))
        say(f"the large logs' dataset is native's, file for file: {same_files(os.path.join(tmp, 'out-large'), os.path.join(tmp, 'native-large'))} files")
    q = "SELECT machine, CAST(date AS STRING) AS date, count(*) AS n, count(value) AS nv, sum(value) AS s FROM {} GROUP BY 1, 2 ORDER BY 1, 2"
    spark.read.parquet(out).createOrReplaceTempView("from_spark")
    spark.read.parquet(native_out).createOrReplaceTempView("from_native")
    a = [tuple(x) for x in spark.sql(q.format("from_spark")).collect()]
    b = [tuple(x) for x in spark.sql(q.format("from_native")).collect()]
    if len(a) != len(b) or any(x[:4] != y[:4] or not math.isclose(x[4] or 0, y[4] or 0, rel_tol=1e-12) for x, y in zip(a, b)):
        raise Failed(f"Spark reads other rows from perfcalc convert --partition's dataset: {a[:3]} vs {b[:3]}")
    say(f"Spark reads both datasets alike: {len(a)} partitions, the same counts and sums")
    check_fleet_analysis(spark, tmp)
    spark.stop()
    submit_routes(spark_home, master_url, tmp, venv, node, shipped, submit_logs(real, fleet))

    # 6. The figures.
    def figure(name, fig, base):
        n, b, s = fig
        say(f"  {name:46s} {s:6.2f} s  {n / s:7.1f} logs/s  {b / 1e6 / s:6.2f} MB/s  ({s / base[2]:.1f}x native)")

    locals_ = {}
    if os.environ.get("PERFCALC_CLUSTER_LOCAL", "1") == "1":
        stop_all()  # the cluster is done: local[2] gets the cores
        os.environ["PYSPARK_PYTHON"] = sys.executable
        spark = (
            SparkSession.builder.master("local[2]")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        spark.range(2).collect()
        locals_["cold"] = (len(logs), size, convert_once(spark, dirs, os.path.join(tmp, "local"))[0])
        locals_["small"] = (len(logs), size, convert_once(spark, dirs, os.path.join(tmp, "local"))[0])
        if large:
            locals_["large"] = (large[0], large[1], convert_once(spark, [big], os.path.join(tmp, "local-large"))[0])
        spark.stop()
    say(f"throughput (read the logs, write the partitioned Parquet dataset; {len(logs)} logs, {size / 1e6:.1f} MB):")
    figure("native perfcalc convert -j 2", native, native)
    if "small" in locals_:
        figure("local[2], perfcalc.spark.convert, first", locals_["cold"], native)
        figure("local[2], perfcalc.spark.convert, second", locals_["small"], native)
    figure("cluster, 2 workers x 1 core, convert, first", cold, native)
    figure("cluster, 2 workers x 1 core, convert, second", cluster, native)
    if large:
        say(f"throughput, {large[0]} large logs ({large[1] / 1e6:.1f} MB):")
        figure("native perfcalc convert -j 2", native_large, native_large)
        if "large" in locals_:
            figure("local[2], perfcalc.spark.convert", locals_["large"], native_large)
        figure("cluster, 2 workers x 1 core, convert", large, native_large)
    for eid, (jvm, py, total) in sorted(watch.peaks.items()):
        say(f"  executor {eid}: peak RSS {total:.0f} MiB (JVM {jvm:.0f} MiB, Python workers {py:.0f} MiB)")
    for e in executors:
        m = e.get("peakMemoryMetrics") or {}
        say(f"  executor {e['id']} (Spark's peakMemoryMetrics): JVM heap {m.get('JVMHeapMemory', 0) / 2**20:.0f} MiB,"
            f" process tree JVM RSS {m.get('ProcessTreeJVMRSSMemory', 0) / 2**20:.0f} MiB,"
            f" Python RSS {m.get('ProcessTreePythonRSSMemory', 0) / 2**20:.0f} MiB")
    if len(watch.peaks) != 2:
        raise Failed(f"{len(watch.peaks)} executors were seen, want 2 (one per worker)")
    say(f"PASSED in {time.perf_counter() - began:.0f} s")
    return 0


def _alarm(signum, frame):
    raise Failed(f"the test took more than {TIMEOUT} s")


def _term(signum, frame):
    raise SystemExit(f"spark-cluster-test: signal {signum}: stopping the cluster")


def check_fleet_analysis(spark, tmp: str) -> None:
    """Analysis at fleet scale on the cluster (issue 23, item 4): the
    executors group a few FLEET logs by machine and analyse each machine's
    logs together (perfcalc.spark.analyze_machines); every machine's row,
    its alerts and its fleet summary must be native perfcalc analyze's
    (tests/fleetcheck.py: one machine's log cut in two, another's copied,
    a machine without alerts, a file that is not a log). A few seconds."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests"))
    import fleetcheck
    import perfcalc.spark

    d = os.path.join(tmp, "logs", "analyze")
    logs, groups = fleetcheck.fleet_logs(NATIVE, ROOT, d)
    t0 = time.perf_counter()
    rows = perfcalc.spark.analyze_machines(spark, d).collect()
    seconds = time.perf_counter() - t0
    try:
        n = fleetcheck.check(rows, NATIVE, logs, groups)
    except AssertionError as e:
        raise Failed(f"perfcalc.spark.analyze_machines on the cluster: {e}") from None
    say(f"perfcalc.spark.analyze_machines: {len(logs)} logs, {len(groups)} machines, {n} alerts and the fleet summary"
        f" as native perfcalc analyze's, in {seconds:.1f} s")


if __name__ == "__main__":
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGTERM, _term)
    signal.alarm(TIMEOUT)
    try:
        sys.exit(main())
    except Failed as e:
        say(f"FAIL: {e}")
        sys.exit(1)
