"""perfcalc.analyze (issue 24): the module's report equals, byte for byte,
what the native perfcalc analyze -f json writes; its alerts and statistics
tables hold the report's figures; perfcalc.spark.analyze gives the alerts
of several logs as one DataFrame."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import perfcalc
from perfcalc import _module
from conftest import CORPUS, ROOT, corpus_logs, need_corpus, run_native

PAL = ROOT.parent / "shared" / "pal"
LOGS = ["Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"]


def need_pal() -> Path:
    if not (PAL / "QuickSystemOverview.xml").is_file():
        pytest.skip(f"PAL's threshold files {PAL} are absent (a clone without shared/)")
    return PAL


def _reset_runtime():
    _module._runtime = None
    _module._local.instance = None


@pytest.fixture(scope="module")
def analyze_module(tmp_path_factory):
    """A module with the analyze export: the installed one when it has it,
    else ./wasm built with the tag perfcalcanalyze (the shipped module
    leaves analyze out while it exceeds its size budget), loaded through
    $PERFCALC_WASM for this file's tests."""
    if _module.instance().has("analyze"):
        yield None
        return
    out = tmp_path_factory.mktemp("wasm") / "perfcalc.wasm"
    env = {**os.environ, "GOOS": "wasip1", "GOARCH": "wasm", "GOFLAGS": ""}
    subprocess.run(
        ["go", "build", "-tags", "perfcalcanalyze", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w -buildid=",
         "-buildvcs=false", "-o", str(out), "./wasm"],
        cwd=ROOT, env=env, check=True,
    )
    old = os.environ.get("PERFCALC_WASM")
    os.environ["PERFCALC_WASM"] = str(out)
    _reset_runtime()
    yield out
    if old is None:
        del os.environ["PERFCALC_WASM"]
    else:
        os.environ["PERFCALC_WASM"] = old
    _reset_runtime()


def test_without_the_export():
    """The shipped module without analyze: a clear UnsupportedError."""
    if _module.instance().has("analyze"):
        pytest.skip("the installed module has analyze")
    with pytest.raises(perfcalc.UnsupportedError, match="lacks analyze"):
        perfcalc.analyze(b"")


@pytest.mark.parametrize("name", LOGS)
def test_matches_command(analyze_module, native, name):
    need_corpus()
    pal = need_pal()
    log = CORPUS / "blg" / name
    system = pal / "SystemOverview.xml"
    for args, kwargs in [
        ([], {}),
        (["--pal-compat", "--interval", "60"], {"pal_compat": True, "interval": 60}),
        # by path: the inherited QuickSystemOverview.xml is read from its folder
        (["--thresholds", system], {"thresholds": system}),
        (["--thresholds", system, "--set", "PhysicalMemory=2", "--set", "UserVa=3072"],
         {"thresholds": [system], "set": {"PhysicalMemory": 2, "UserVa": "3072"}}),
    ]:
        want = run_native(native, "analyze", log, *args, "-f", "json").stdout.decode("utf-8")
        r = perfcalc.analyze(log, **kwargs)
        assert r.json == want, f"{name} {args}: the module's JSON differs from the command's"
        assert r.damage is None
        report = json.loads(want)
        alerts = r.alerts
        assert alerts.schema == perfcalc.ALERTS_SCHEMA
        assert alerts.num_rows == len(report["alerts"])
        for i in (0, alerts.num_rows // 2, alerts.num_rows - 1) if alerts.num_rows else ():
            row, a = alerts.slice(i, 1).to_pylist()[0], report["alerts"][i]
            assert {k: row[k] for k in a if k not in ("start", "end")} == {k: a[k] for k in a if k not in ("start", "end")}
            assert row["start"].isoformat(timespec="milliseconds").replace("+00:00", "Z") == a["start"]
            assert row["end"].isoformat(timespec="milliseconds").replace("+00:00", "Z") == a["end"]
        stats = r.statistics
        series = [(an, s) for an in report["analyses"] for s in an["series"]]
        assert stats.num_rows == len(series) > 0
        k = stats.num_rows // 2
        an, s = series[k]
        row = stats.slice(k, 1).to_pylist()[0]
        assert (row["analysis"], row["path"], row["n"], row["max"], row["p95"]) == (an["name"], s["path"], s["n"], s["max"], s["p95"])


def test_thresholds_as_bytes(analyze_module, native):
    """(name, bytes) pairs, their INHERITANCE given in include (any case),
    give the command's report for the files on disk."""
    need_corpus()
    pal = need_pal()
    log = CORPUS / "blg" / "Tx_BasicPerfCounters.blg"
    want = run_native(native, "analyze", log, "--thresholds", pal / "SystemOverview.xml", "-f", "json").stdout.decode()
    system = ("SystemOverview.xml", (pal / "SystemOverview.xml").read_bytes())
    quick = ("quicksystemoverview.XML", (pal / "QuickSystemOverview.xml").read_bytes())
    assert perfcalc.analyze(log.read_bytes(), [system], include=[quick]).json == want
    with pytest.raises(perfcalc.InputError, match="QuickSystemOverview.xml"):
        perfcalc.analyze(log.read_bytes(), [system])


def test_refusals(analyze_module):
    need_corpus()
    log = CORPUS / "blg" / "Tx_BasicPerfCounters.blg"
    with pytest.raises(perfcalc.ArgumentError):
        perfcalc.analyze(log, interval=-1)
    with pytest.raises(perfcalc.ArgumentError):
        perfcalc.analyze(log, set={"A": "1\n2"})
    with pytest.raises(perfcalc.ArgumentError, match="no such question"):
        perfcalc.analyze(log, set={"PhysicalMemory": 8})
    with pytest.raises(perfcalc.Error, match="blg"):
        perfcalc.analyze(b"\0" * 64)
    # The damage of a cut log: the report of the samples before it.
    r = perfcalc.analyze(log.read_bytes()[:200000])
    assert r.damage and "blg" in r.damage
    assert r.report["parameters"]["samples"] > 0


@pytest.fixture(scope="module")
def spark(analyze_module):
    reason = os.environ.get("PERFCALC_SPARK_SKIP")
    if reason:
        pytest.skip(f"Spark test skipped: {reason}")
    pytest.importorskip("pyspark", reason="pyspark is not installed (python/test.sh installs it)")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    b = SparkSession.builder.master("local[2]").appName("perfcalc-analyze-test").config("spark.ui.enabled", "false")
    b = b.config("spark.sql.session.timeZone", "UTC")
    if analyze_module is not None:
        b = b.config("spark.executorEnv.PERFCALC_WASM", str(analyze_module))
    s = b.getOrCreate()
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


def test_spark_alerts(spark, tmp_path):
    """The alerts of the corpus logs (one damaged, one not a log) as one
    DataFrame: each log's rows are perfcalc.analyze's, errors in rows."""
    need_corpus()
    pal = need_pal()
    for l in corpus_logs():
        (tmp_path / l.name).write_bytes(l.read_bytes())
    (tmp_path / "not-a-log.blg").write_bytes(b"not a log")
    df = perfcalc.spark.analyze(spark, str(tmp_path), thresholds=pal / "SystemOverview.xml")
    rows = df.collect()
    by_file = {}
    for r in rows:
        by_file.setdefault(Path(r["file"].replace("file:", "")).name, []).append(r)
    assert any(r["error"] for r in by_file["not-a-log.blg"])
    for l in corpus_logs():
        if "Corrupt" in l.name:
            continue
        want = perfcalc.analyze(l, pal / "SystemOverview.xml").alerts
        have = [r for r in by_file.get(l.name, []) if r["error"] is None]
        assert len(have) == want.num_rows, l.name
        if have:
            assert (have[0]["analysis"], have[0]["path"], have[0]["max"]) == tuple(want.slice(0, 1).to_pylist()[0][k] for k in ("analysis", "path", "max"))


def test_merged_logs(analyze_module, native, tmp_path):
    """A list of logs of one machine: merged as perfcalc analyze merges them."""
    need_corpus()
    tx = CORPUS / "blg" / "Tx_BasicPerfCounters.blg"
    copy = tmp_path / "copy.blg"
    copy.write_bytes(tx.read_bytes())
    # The Tx log and the PAL sample log are of other machines: the command
    # analyses them apart; two copies of one log merge into one report.
    want = run_native(native, "analyze", tx, copy, "-f", "json").stdout.decode()
    assert perfcalc.analyze([tx, copy.read_bytes()]).json == want
    with pytest.raises(perfcalc.ArgumentError, match="no log"):
        perfcalc.analyze([])
