"""perfcalc.analyze (issue 24): the module's report equals, byte for byte,
what the native perfcalc analyze -f json writes; its alerts and statistics
tables hold the report's figures; perfcalc.spark.analyze gives the alerts
of several logs as one DataFrame."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pyarrow as pa
import pytest

import perfcalc
from perfcalc import _module
from conftest import CORPUS, FIGURES, ROOT, corpus_logs, need_corpus, run_native

PAL = ROOT.parent / "shared" / "pal"
LOGS = ["Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"]


def need_pal() -> Path:
    if not (PAL / "QuickSystemOverview.xml").is_file():
        pytest.skip(f"PAL's threshold files {PAL} are absent (a clone without shared/)")
    return PAL


def test_analyze_module_is_loaded_once_per_process_and_thread():
    """perfcalc.wasm lacks analyze; perfcalc.analyze uses the analyze module
    (perfcalc-analyze.wasm), compiled once per process, one instance per
    thread, which holds analyze alone."""
    assert not _module.instance().has("analyze"), "perfcalc.wasm exports analyze: it would grow by 750 KB"
    a = _module.analyze_instance()
    assert a.has("analyze") and not a.has("compute") and not a.has("decode_blg")
    assert a is _module.analyze_instance()
    assert _module.runtime(_module.ANALYZE_MODULE) is _module.runtime(_module.ANALYZE_MODULE)
    assert _module.runtime(_module.ANALYZE_MODULE) is not _module.runtime()
    seen = []
    t = threading.Thread(target=lambda: seen.append((_module.analyze_instance(), _module.runtime(_module.ANALYZE_MODULE))))
    t.start()
    t.join()
    assert seen[0][0] is not a and seen[0][1] is _module.runtime(_module.ANALYZE_MODULE)
    # The module's refusal of a non-log: the analyze export answered.
    with pytest.raises(perfcalc.Error, match="blg"):
        perfcalc.analyze(b"\0" * 64)


def test_an_analyze_module_without_the_export(monkeypatch, tmp_path):
    """$PERFCALC_ANALYZE_WASM naming perfcalc.wasm: the first analyze says
    which export is missing."""
    wasm = tmp_path / "perfcalc.wasm"
    wasm.write_bytes(_module.module_bytes())
    monkeypatch.setenv("PERFCALC_ANALYZE_WASM", str(wasm))
    monkeypatch.setattr(_module, "_runtimes", {})
    monkeypatch.setattr(_module, "_local", threading.local())
    with pytest.raises(perfcalc.Error, match="perfcalc-analyze.wasm is not a perfcalc module: export 'analyze' is missing"):
        perfcalc.analyze(b"\0" * 64)


@pytest.mark.parametrize("name", LOGS)
def test_matches_command(native, name):
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
        # issue 21: pairing by process (the report's parameters.identity, identityBreaks)
        (["--identity", "pid"], {"identity": "pid"}),
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
        # The analysis' id and the series' datasource, as in the JSON and the alerts.
        assert (row["id"], row["datasource"], row["machine"]) == (an["id"], s["datasource"], report["parameters"]["machine"])
        ids = {(a["analysis"], a["id"]) for a in report["alerts"]}
        assert ids <= {(x["analysis"], x["id"]) for x in stats.select(["analysis", "id"]).to_pylist()}


def test_thresholds_as_bytes(native):
    """(name, bytes) pairs, their INHERITANCE given in include (any case),
    give the command's report for the files on disk."""
    need_corpus()
    pal = need_pal()
    log = CORPUS / "blg" / "Tx_BasicPerfCounters.blg"
    want = run_native(native, "analyze", log, "--thresholds", pal / "SystemOverview.xml", "-f", "json").stdout.decode()
    system = ("SystemOverview.xml", (pal / "SystemOverview.xml").read_bytes())
    quick = ("quicksystemoverview.XML", (pal / "QuickSystemOverview.xml").read_bytes())
    assert perfcalc.analyze(log.read_bytes(), [system], include=[quick]).json == want
    with pytest.raises(perfcalc.InputError, match="QuickSystemOverview.xml") as e:
        perfcalc.analyze(log.read_bytes(), [system])
    # The module names the file as data (last_detail bytes of its output
    # buffer), not in its text only.
    assert e.value.missing_file == "QuickSystemOverview.xml" and e.value.detail == len("QuickSystemOverview.xml")
    with pytest.raises(perfcalc.InputError) as e:
        perfcalc.analyze(log.read_bytes(), [("some/folder/SystemOverview.xml", system[1])])
    assert e.value.missing_file == "some/folder/QuickSystemOverview.xml"


def test_missing_file_found_by_name_only(tmp_path):
    """The file an INHERITANCE names is found in the folder of the file
    given by path from the name the module gives as data, even where its
    error text would not tell it (a name with the words of that text)."""
    need_corpus()
    pal = need_pal()
    odd = "x was given (INHERITANCE needs it) y.xml"
    (tmp_path / odd).write_bytes((pal / "QuickSystemOverview.xml").read_bytes())
    data = (pal / "SystemOverview.xml").read_bytes().replace(b'"QuickSystemOverview.xml"', f'"{odd}"'.encode())
    assert odd.encode() in data
    (tmp_path / "main.xml").write_bytes(data)
    log = CORPUS / "blg" / "Tx_BasicPerfCounters.blg"
    want = perfcalc.analyze(log, [pal / "SystemOverview.xml"]).json
    assert perfcalc.analyze(log, tmp_path / "main.xml").json == want


def test_refusals():
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
        assert len(r["files"]) == 1, r["files"]  # the corpus logs are of four machines
        by_file.setdefault(Path(r["files"][0].replace("file:", "")).name, []).append(r)
    assert any(r["error"] for r in by_file["not-a-log.blg"])
    for l in corpus_logs():
        if "Corrupt" in l.name:
            continue
        want = perfcalc.analyze(l, pal / "SystemOverview.xml").alerts
        have = [r for r in by_file.get(l.name, []) if r["error"] is None]
        assert len(have) == want.num_rows, l.name
        if have:
            assert (have[0]["analysis"], have[0]["path"], have[0]["max"]) == tuple(want.slice(0, 1).to_pylist()[0][k] for k in ("analysis", "path", "max"))


def test_spark_fleet_summary(spark, native, tmp_path):
    """perfcalc.spark.fleet over the alerts of three logs of three
    machines: per machine with alerts, the critical and warning counts and
    the critical slices' UTC starts of perfcalc analyze -f text's Fleet
    lines (its first five, and how many more)."""
    import re

    need_corpus()
    names = ["PAL_SamplePerfmonLog.blg", "Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg"]
    for n in names:
        (tmp_path / n).write_bytes((CORPUS / "blg" / n).read_bytes())
    text = run_native(native, "analyze", *[tmp_path / n for n in names], "-f", "text").stdout.decode()
    fleet = text[text.index("\nFleet: 3 machines\n") :].splitlines()[2:]
    want = {}
    for line in fleet:
        m = re.match(r"^  (\S+)\s+(\d+) critical\s+(\d+) warning(?:  critical at (.*?))?(?: \(\+(\d+) more\))?$", line)
        assert m, line
        want[m[1]] = (int(m[2]), int(m[3]), m[4].split(", ") if m[4] else [], int(m[5] or 0))
    assert any(c for c, _, _, _ in want.values()), "the corpus should give a machine critical alerts"
    rows = perfcalc.spark.fleet(perfcalc.spark.analyze(spark, str(tmp_path))).collect()
    have = {}
    for r in rows:
        at = [t.strftime("%Y-%m-%dT%H:%M:%SZ") for t in r["critical_at"]]
        have[r["machine"]] = (r["critical"], r["warning"], at[:5], max(0, len(at) - 5))
    assert have == {m: w for m, w in want.items() if w[0] or w[1]}


def test_fleet_functions_without_spark(native, tmp_path):
    """perfcalc.spark's fleet analysis without Spark: its first pass (each
    log's machine, as the command groups logs, or its error) and its
    grouped function (a machine's logs analysed together, in path order),
    run here on Arrow tables grouped by hand, give the rows that match
    perfcalc analyze's reports and fleet summary; the key is the first
    column's machine in lower case."""
    import collections

    import fleetcheck
    from perfcalc import spark_analyze as sa

    logs, groups = fleetcheck.fleet_logs(native, str(ROOT), str(tmp_path))
    files = pa.table({"path": ["file:" + l for l in reversed(logs)], "content": [Path(l).read_bytes() for l in reversed(logs)]})
    keyed = pa.Table.from_batches(list(sa._keyer(files.to_batches(max_chunksize=3))))
    keys = dict(zip(keyed.column("path").to_pylist(), keyed.column("key").to_pylist()))
    assert keys["file:" + str(tmp_path / "FLEET-000.blg")] == "fleet:000"
    assert keys["file:" + str(tmp_path / "FLEET-001-a.blg")] == keys["file:" + str(tmp_path / "FLEET-001-b.blg")] == "fleet-001"
    assert keys["file:" + str(tmp_path / "broken.blg")] is None
    assert keyed.column("content").null_count == 1  # the log not read is not carried on
    by_key = collections.defaultdict(list)
    for r in keyed.to_pylist():
        by_key[r["key"]].append(r)
    run = sa._grouped([], [], {}, None, False, "pdh")

    class Row(dict):
        def asDict(self):
            return dict(self)

    rows = []
    for part in by_key.values():
        for r in run(pa.Table.from_pylist(part, schema=sa._KEYED)).to_pylist():
            r["alerts"] = [Row(a) for a in r["alerts"] or []]
            rows.append(r)
    assert [r["files"] for r in rows if r["machine"] == "FLEET-001"] == [["file:" + str(tmp_path / n) for n in ("FLEET-001-a.blg", "FLEET-001-b.blg")]]
    assert fleetcheck.check(rows, native, logs, groups) > 0
    # The check fails where the rows are not the command's.
    rows[[r["machine"] for r in rows].index("FLEET-002")]["alerts"].pop()
    with pytest.raises(AssertionError, match=r"FLEET-002: \d+ alerts, want \d+"):
        fleetcheck.check(rows, native, logs, groups)


def test_spark_machines_fleet(spark, native, tmp_path):
    """perfcalc.spark.analyze_machines groups logs by machine as perfcalc
    analyze does: over FLEET logs (one machine's log cut in two, another's
    copied, one machine without alerts, a file that is not a log) and the
    Tx log cut in two, each machine's row holds the logs analysed together
    and every alert of the command's JSON report of them; fleet gives the
    command's "Fleet:" lines, machines without alerts with 0 and 0; the
    log not read has its row, with the command's error; alerts_of (and
    analyze) give every alert and that error as rows."""
    import fleetcheck

    logs, groups = fleetcheck.fleet_logs(native, str(ROOT), str(tmp_path))
    tx = CORPUS / "blg" / "Tx_BasicPerfCounters.blg"
    if tx.is_file():
        fleetcheck.split(native, str(tx), str(tmp_path / "Tx-a.blg"), str(tmp_path / "Tx-b.blg"))
        logs, groups = sorted(logs + [str(tmp_path / "Tx-a.blg"), str(tmp_path / "Tx-b.blg")]), groups + [{"Tx-a.blg", "Tx-b.blg"}]
    machines = perfcalc.spark.analyze_machines(spark, str(tmp_path)).cache()
    assert [f.name for f in machines.schema.fields] == [f.name for f in perfcalc.spark.machines_schema().fields]
    t0 = time.perf_counter()
    rows = machines.collect()
    t1 = time.perf_counter()
    run_native(native, "analyze", *logs, "-f", "json", check=False)
    t2 = time.perf_counter()
    FIGURES.append(("Spark local[2] analyze_machines", f"{len(logs)} logs, {len(groups)} machines in {t1 - t0:.1f} s (native perfcalc analyze {t2 - t1:.2f} s)"))
    n = fleetcheck.check(rows, native, logs, groups)
    assert n > 0 and any(r["machine"] and r["critical"] == 0 and r["warning"] == 0 for r in rows)
    summary = perfcalc.spark.fleet(machines).collect()
    assert [r["machine"] for r in summary] == sorted(r["machine"] for r in rows if r["machine"] is not None)
    for r in summary:
        m = next(x for x in rows if x["machine"] == r["machine"])
        assert (r["critical"], r["warning"], r["critical_at"]) == (m["critical"], m["warning"], m["critical_at"])
    alerts = perfcalc.spark.alerts_of(machines)
    assert [f.name for f in alerts.schema.fields] == [f.name for f in perfcalc.spark.alerts_schema().fields]
    got = alerts.collect()
    errors = [r for r in got if r["error"] is not None]
    assert len(got) - len(errors) == n
    assert [(r["files"], r["error"]) for r in errors] == [(r["files"], r["error"]) for r in rows if r["error"] is not None]
    assert all(r["machine"] is None for r in errors)
    assert perfcalc.spark.analyze(spark, str(tmp_path)).count() == len(got)
    machines.unpersist()


def test_merged_logs(native, tmp_path):
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


def test_machines(native, tmp_path):
    """Logs of two machines (the PAL sample log and the Tx log; with a
    copy of the Tx log, merged with it): the fleet object, byte for byte
    what perfcalc analyze -f json writes for the same logs; the alerts and
    statistics tables hold every machine's rows."""
    need_corpus()
    pal_log, tx = CORPUS / "blg" / "PAL_SamplePerfmonLog.blg", CORPUS / "blg" / "Tx_BasicPerfCounters.blg"
    copy = tmp_path / "copy.blg"
    copy.write_bytes(tx.read_bytes())
    for logs in ([pal_log, tx], [tx, pal_log, copy]):
        want = run_native(native, "analyze", *logs, "-f", "json").stdout.decode()
        r = perfcalc.analyze([l.read_bytes() if l is copy else l for l in logs])
        assert r.json == want, f"{[l.name for l in logs]}: the module's JSON differs from the command's"
        report = json.loads(want)
        assert set(report) == {"alerts", "machines"} and len(r.machines) == 2
        machines = [m["parameters"]["machine"] for m in report["machines"]]
        assert len(set(machines)) == 2
        assert r.alerts.num_rows == len(report["alerts"]) == sum(len(m["alerts"]) for m in report["machines"])
        stats = r.statistics
        assert stats.num_rows == sum(len(a["series"]) for m in report["machines"] for a in m["analyses"])
        assert set(stats.column("machine").to_pylist()) == set(machines)
        assert "2 machines" in repr(r)
