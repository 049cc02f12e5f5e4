"""perfcalc.spark.convert's default writer: native perfcalc convert
--partition's dataset, file for file (the same relative names, each file's
table equal to native's as pyarrow reads it, the same _perfcalc lists), its
modes, and reruns mixed with the native command; writer="spark" still
writes Spark's layout. write_log alone (no Spark) is checked the same way."""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
import urllib.parse

import pytest

from conftest import ROOT, corpus_logs, need_corpus, run_native

FLEET = 12  # fleet logs (tools/gencorpus/cmd/fleetlogs): odd ones span midnight UTC; FLEET:000 and FLEET:010 are escaped


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """The corpus' logs (one of them not a log at all), a damaged log (the
    Tx log cut after 200,000 bytes) and FLEET fleet logs, in one folder."""
    need_corpus()
    if shutil.which("go") is None:
        pytest.skip("no Go to write the fleet logs (tools/gencorpus/cmd/fleetlogs)")
    d = tmp_path_factory.mktemp("logs")
    subprocess.run(["go", "run", "./tools/gencorpus/cmd/fleetlogs", "-n", str(FLEET), "-o", str(d)], cwd=ROOT, check=True)
    for log in corpus_logs():
        shutil.copy(log, d / log.name)
    (d / "Damaged.blg").write_bytes((d / "Tx_BasicPerfCounters.blg").read_bytes()[:200_000])
    return d


def listing(d) -> list:
    """Every file under d, as a path relative to d."""
    return sorted(os.path.relpath(os.path.join(a, f), d) for a, _, fs in os.walk(d) for f in fs)


def read_list(path):
    """A list of outputs: its header, the log's identity and its files'
    names (their sizes and times are each dataset's own)."""
    lines = open(path).read().splitlines()
    assert lines[0] == "perfcalc convert outputs 1" and lines[1].startswith("log "), path
    return lines[1], [line.split(" ", 3)[3] for line in lines[2:]]


def assert_same_dataset(have, want) -> int:
    """have's files are want's: the same names, each Parquet file's table
    equal to want's as pyarrow reads it, each list naming the same log and
    files, each file of the size and time its list records; returns the
    Parquet files."""
    import perfcalc.spark as ps
    import pyarrow.parquet as pq

    names = listing(want)
    assert listing(have) == names
    n = 0
    for rel in names:
        a, b = os.path.join(have, rel), os.path.join(want, rel)
        if rel.endswith(".parquet"):
            ta, tb = pq.read_table(a), pq.read_table(b)
            assert ta.schema.equals(tb.schema), rel
            assert ta.equals(tb), rel
            assert pq.read_metadata(a).metadata == pq.read_metadata(b).metadata
            n += 1
        else:
            assert read_list(a) == read_list(b), rel
            for d in (have, want):
                fs, root = ps.output_fs(str(d))
                ident, files = ps._read_list(fs, f"{root}/{rel}")
                assert all(ps._proven(fs, root, f) for f in files), (d, rel)
    return n


def native_convert(native, out, *args):
    p = run_native(native, "convert", *args, "-o", out, check=False)
    assert p.returncode in (0, 1), p.stderr
    return p.stdout.decode()


def check_partitions(out) -> set:
    """Every file's rows are of its folder's machine (unescaped) and UTC
    date; returns the logs whose rows span two dates."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    dates: dict = {}
    for rel in listing(out):
        if not rel.endswith(".parquet"):
            continue
        m, d, name = rel.split(os.sep)
        t = pq.read_table(os.path.join(out, rel))
        machine = urllib.parse.unquote(m[len("machine=") :])
        assert set(t["machine"].to_pylist()) == {machine}, rel
        days = {x.date() for x in pc.cast(t["time"], "timestamp[us]").to_pylist()}
        assert days == {datetime.date.fromisoformat(d[len("date=") :])}, rel
        dates.setdefault(name, set()).add(d)
    return {n for n, ds in dates.items() if len(ds) > 1}


def test_hive_escape_and_log_base():
    import perfcalc.spark as ps

    assert ps.hive_escape("") == "__HIVE_DEFAULT_PARTITION__"
    # issue 32, item 4: a machine named so has a folder of its own, read back as its name.
    assert ps.hive_escape("__HIVE_DEFAULT_PARTITION__") == "%5F_HIVE_DEFAULT_PARTITION__"
    assert urllib.parse.unquote(ps.hive_escape("__HIVE_DEFAULT_PARTITION__")) == "__HIVE_DEFAULT_PARTITION__"
    assert ps.hive_escape("FLEET:010") == "FLEET%3A010"
    assert ps.hive_escape('a/b%c=d?e*f"g#h\'i\\j{k[l]m^n\x01o\x7fp é') == "a%2Fb%25c%3Dd%3Fe%2Af%22g%23h%27i%5Cj%7Bk%5Bl%5Dm%5En%01o%7Fp é"
    assert ps.log_base("file:/logs/SERVER1.blg") == "SERVER1"
    assert ps.log_base("file:/logs/a.b.blg") == "a.b"
    assert ps.log_base("s3://bucket/x") == "x"


def test_write_log_is_natives_file_for_file(native, logs, tmp_path):
    """write_log (what each executor runs), log by log: native's dataset,
    and nothing for the damaged and the unreadable log."""
    import perfcalc
    import perfcalc.spark as ps

    fs, root = ps.output_fs(str(tmp_path / "have"))
    errors = {}
    for log in sorted(logs.glob("*.blg")):
        rows, files, error = ps.write_log(fs, root, "file:" + str(log), log.read_bytes(), ("machine", "date"))
        assert (rows > 0 and files > 0) != bool(error), log
        if error:
            errors[log.name] = error
    out = native_convert(native, tmp_path / "want", logs, "--partition", "machine,date")
    assert sorted(line.split(": ")[1].rsplit("/", 1)[1] for line in out.splitlines() if line.startswith("failed: ")) == sorted(errors)
    assert sorted(errors) == ["Damaged.blg", "PowerShell_CorruptBlg.blg"]
    with pytest.raises(perfcalc.DamagedError) as e:
        perfcalc.read_blg(logs / "Damaged.blg")
    assert errors["Damaged.blg"] == e.value.message
    assert assert_same_dataset(tmp_path / "have", tmp_path / "want") > FLEET
    assert {f"FLEET-{i:03d}.parquet" for i in range(1, FLEET, 2)} <= check_partitions(tmp_path / "have")
    assert (tmp_path / "have" / "machine=FLEET%3A010").is_dir()
    # Partitioned by date alone: one folder per date, machine inside the files.
    fs2, root2 = ps.output_fs("file:" + str(tmp_path / "by date"))
    assert ps.write_log(fs2, root2, "file:/x/FLEET-001.blg", (logs / "FLEET-001.blg").read_bytes(), ("date",))[1:] == (2, None)
    native_convert(native, tmp_path / "by date native", logs / "FLEET-001.blg", "--partition", "date")
    assert_same_dataset(tmp_path / "by date", tmp_path / "by date native")


@pytest.fixture(scope="module")
def spark(spark):
    """conftest's session, in a time zone other than UTC for this module's
    tests: the date folders stay UTC's."""
    spark.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")
    yield spark
    spark.conf.set("spark.sql.session.timeZone", "UTC")


def test_spark_convert_is_natives_dataset(spark, native, logs, tmp_path):
    import perfcalc.spark

    out = tmp_path / "spark"
    failed = perfcalc.spark.convert(spark, str(logs), str(out), partition_by=("machine", "date"))
    assert [f for f, _ in failed] == ["file:" + str(logs / n) for n in ("Damaged.blg", "PowerShell_CorruptBlg.blg")]
    native_convert(native, tmp_path / "native", logs, "--partition", "machine,date")
    assert assert_same_dataset(out, tmp_path / "native") > FLEET
    assert not any(n.startswith(".") for rel in listing(out) for n in rel.split(os.sep)), "a temporary file is left"
    # Spark reads both alike (machine from the folder and the files).
    q = "SELECT machine, CAST(date AS STRING), count(*), count(value), sum(value) FROM parquet.`{}` GROUP BY 1, 2 ORDER BY 1, 2"
    a = spark.sql(q.format(out)).collect()
    assert a == spark.sql(q.format(tmp_path / "native")).collect() and len(a) > FLEET


def test_spark_convert_streamed_logs_are_natives_dataset(spark, native, logs, tmp_path):
    """stream_above=0: every log is read by the executor itself
    (read_file_parts) and written as from binaryFile's content."""
    import perfcalc.spark

    out = tmp_path / "spark"
    failed = perfcalc.spark.convert(spark, str(logs), str(out), partition_by=("machine", "date"), stream_above=0)
    assert [f for f, _ in failed] == ["file:" + str(logs / n) for n in ("Damaged.blg", "PowerShell_CorruptBlg.blg")]
    native_convert(native, tmp_path / "native", logs, "--partition", "machine,date")
    assert assert_same_dataset(out, tmp_path / "native") > FLEET


def test_spark_convert_modes_and_reruns_as_native(spark, native, logs, tmp_path):
    """errorifexists and ignore leave an existing dataset alone; append
    with force converts a log again as a native rerun with --force does
    (its earlier files that the run does not write are removed, other
    logs' stay); overwrite empties the folder first."""
    import perfcalc.spark

    out, want = tmp_path / "out", tmp_path / "want"
    few = [str(logs / "Tx_BasicPerfCounters.blg"), str(logs / "FLEET-003.blg")]
    assert perfcalc.spark.convert(spark, few, str(out), partition_by=("machine", "date")) == []
    native_convert(native, want, *few, "--partition", "machine,date")
    assert_same_dataset(out, want)
    with pytest.raises(FileExistsError, match="mode='errorifexists'"):
        perfcalc.spark.convert(spark, few, str(out), partition_by=("machine", "date"))
    assert perfcalc.spark.convert(spark, few[1:], str(out), partition_by=("machine",), mode="ignore") == []
    assert_same_dataset(out, want)
    # FLEET-003 again, by machine alone: its two date files go, Tx's stay.
    assert perfcalc.spark.convert(spark, few[1:], str(out), partition_by=("machine",), mode="append", force=True) == []
    native_convert(native, want, few[1], "--partition", "machine", "--force")
    assert_same_dataset(out, want)
    assert "machine=FLEET-003/FLEET-003.parquet" in listing(out) and not any("FLEET-003/date=" in p for p in listing(out))
    # A native rerun finds Spark's lists up to date; Spark's append over native's dataset gives native's.
    assert "converted 0, skipped 1" in native_convert(native, out, few[1], "--partition", "machine")
    assert perfcalc.spark.convert(spark, str(logs), str(want), partition_by=("machine",), mode="append", force=True)
    native_convert(native, out, logs, "--partition", "machine", "--force")
    assert_same_dataset(want, out)
    # overwrite: this run's files alone; convert's open cost per file is the session's again after it.
    key, other = "spark.sql.files.openCostInBytes", "spark.sql.files.minPartitionNum"
    assert spark.conf.get(key, None) is None and spark.conf.get(other, None) is None
    spark.conf.set(key, "8m")
    try:
        assert perfcalc.spark.convert(spark, few[:1], str(out), partition_by=("date", "machine"), mode="overwrite") == []
        assert spark.conf.get(key) == "8m" and spark.conf.get(other, None) is None
    finally:
        spark.conf.unset(key)
    assert listing(out) == ["_perfcalc/Tx_BasicPerfCounters.parts", "date=2013-02-20/machine=GEORGIS3/Tx_BasicPerfCounters.parquet"]


def test_spark_convert_append_skips_up_to_date_logs_as_native(spark, native, logs, tmp_path):
    """append without force converts what a native rerun converts: a log
    newer than its list and a log with an output missing, not the log whose
    outputs are up to date (its files are not written again)."""
    import perfcalc.spark

    src, out, want = tmp_path / "in", tmp_path / "out", tmp_path / "want"
    src.mkdir()
    names = ["Tx_BasicPerfCounters.blg", "FLEET-003.blg", "FLEET-004.blg"]
    for n in names:
        shutil.copy(logs / n, src / n)
    assert perfcalc.spark.convert(spark, str(src), str(out), partition_by=("machine", "date")) == []
    native_convert(native, want, src, "--partition", "machine,date")
    assert_same_dataset(out, want)

    def stamps():
        return {p: os.stat(out / p).st_mtime_ns for p in listing(out)}

    before = stamps()
    assert perfcalc.spark.convert(spark, str(src), str(out), partition_by=("machine", "date"), mode="append") == []
    assert stamps() == before, "an up-to-date log was written again"
    assert "converted 0, skipped 3" in native_convert(native, want, src, "--partition", "machine,date")
    # FLEET-003 newer than its list; one of FLEET-004's files gone (in both datasets).
    later = os.stat(out / "_perfcalc" / "FLEET-003.parts").st_mtime + 10
    os.utime(src / "FLEET-003.blg", (later, later))
    gone = next(p for p in listing(out) if p.endswith("FLEET-004.parquet"))
    os.remove(out / gone)
    os.remove(want / gone)
    before = stamps()
    assert perfcalc.spark.convert(spark, str(src), str(out), partition_by=("machine", "date"), mode="append") == []
    after = stamps()
    assert "converted 2, skipped 1" in native_convert(native, want, src, "--partition", "machine,date")
    assert_same_dataset(out, want)
    for p in after:
        rewritten = "FLEET-003" in p or "FLEET-004" in p
        assert (after[p] != before.get(p)) == rewritten, p
    # force converts the up-to-date log too.
    assert perfcalc.spark.convert(spark, str(src), str(out), partition_by=("machine", "date"), mode="append", force=True) == []
    assert all(stamps()[p] != after[p] for p in after)


def test_spark_convert_same_names_as_native(spark, native, logs, tmp_path):
    """issue 32: two machines' logs of one name (every data collector's
    DataCollector01.blg) in two folders, in one run and one after the
    other: both converted, each under its identity's name, native's
    dataset file for file; a rerun skips both; the same log in two
    folders is converted once."""
    import perfcalc.spark as ps

    for d, n in (("a", "FLEET-001.blg"), ("b c", "FLEET-002.blg"), ("copy", "FLEET-001.blg")):
        (tmp_path / d).mkdir()
        shutil.copy(logs / n, tmp_path / d / "DataCollector01.blg")
    ids = {ps.log_identity((logs / n).read_bytes()) for n in ("FLEET-001.blg", "FLEET-002.blg")}
    # One run: the name is shared, both logs take their identities' names.
    two = [str(tmp_path / "a"), str(tmp_path / "b c")]
    assert ps.convert(spark, two, str(tmp_path / "one run"), partition_by=("machine", "date")) == []
    assert "converted 2, skipped 0" in native_convert(native, tmp_path / "one run native", *two, "--partition", "machine,date")
    assert assert_same_dataset(tmp_path / "one run", tmp_path / "one run native") >= 2
    assert {p for p in listing(tmp_path / "one run") if p.startswith("_perfcalc")} == {f"_perfcalc/DataCollector01~{i[:12]}.parts" for i in ids}
    # One after the other: the first keeps the plain name, the second takes its identity's.
    out, want = tmp_path / "out", tmp_path / "want"
    assert ps.convert(spark, two[:1], str(out), partition_by=("machine", "date")) == []
    assert ps.convert(spark, two[1:], str(out), partition_by=("machine", "date"), mode="append") == []
    native_convert(native, want, two[0], "--partition", "machine,date")
    assert "converted 1, skipped 0" in native_convert(native, want, two[1], "--partition", "machine,date")
    assert assert_same_dataset(out, want) >= 2
    assert "_perfcalc/DataCollector01.parts" in listing(out)
    before = {p: os.stat(out / p).st_mtime_ns for p in listing(out)}
    assert ps.convert(spark, two + [str(tmp_path / "copy")], str(out), partition_by=("machine", "date"), mode="append") == []
    assert {p: os.stat(out / p).st_mtime_ns for p in listing(out)} == before, "an up-to-date log was written again"
    assert "converted 0, skipped 3" in native_convert(native, want, *two, tmp_path / "copy", "--partition", "machine,date")


def test_spark_convert_writer_spark_writes_sparks_layout(spark, logs, tmp_path):
    import pyarrow.parquet as pq

    import perfcalc
    import perfcalc.spark

    few = [str(logs / n) for n in ("Tx_BasicPerfCounters.blg", "FLEET-001.blg", "Damaged.blg")]
    out = tmp_path / "out"
    failed = perfcalc.spark.convert(spark, few, str(out), partition_by=("machine", "date"), writer="spark")
    assert [f.rsplit("/", 1)[1] for f, _ in failed] == ["Damaged.blg"]
    files = [p for p in listing(out) if p.endswith(".parquet")]
    assert files and all(p.split(os.sep)[-1].startswith("part-") for p in files)
    assert "machine" not in pq.read_table(os.path.join(out, files[0])).column_names
    # Spark's writer keeps the damaged log's rows before the damage.
    with pytest.raises(perfcalc.DamagedError) as e:
        perfcalc.read_blg(few[2])
    want = sum(perfcalc.read_blg(f).num_rows for f in few[:2]) + e.value.partial.num_rows
    assert spark.read.parquet(str(out)).count() == want


def test_spark_convert_refuses_bad_arguments(spark, tmp_path):
    import perfcalc.spark

    for kw, msg in ((dict(partition_by=("counter",)), "partition_by"), (dict(partition_by=()), "partition_by"),
                    (dict(writer="hive"), "writer"), (dict(mode="upsert"), "mode")):
        with pytest.raises(ValueError, match=msg):
            perfcalc.spark.convert(spark, str(tmp_path), str(tmp_path / "out"), **kw)
    (tmp_path / "file").write_text("x")
    with pytest.raises(FileExistsError, match="is a file"):
        perfcalc.spark.convert(spark, str(tmp_path), str(tmp_path / "file"), mode="overwrite")
