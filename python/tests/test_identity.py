"""identity="pid" (issue 21) against the native perfcalc --identity pid, on
the PAL sample log (one identity break: rundll32#1) and its variant in
which svchost#2 exits mid-log (11 breaks; written by tools/wasmref exitlog,
with the project's log writer): read_blg equals relog -f parquet column for
column (the pid column included), relog's text byte for byte, stats'
figures, values' CSV; the breaks equal those the command notes."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import warnings

import pyarrow.parquet as pq
import pytest

import perfcalc

from conftest import ROOT, need_corpus, run_native
from test_blg import assert_stats, bits, plain


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> list:
    """[(name, path, breaks)]: the PAL log and its exit variant."""
    pal = need_corpus() / "blg" / "PAL_SamplePerfmonLog.blg"
    if shutil.which("go") is None:
        pytest.skip("no Go to write the PAL variant with (tools/wasmref exitlog)")
    exit_log = tmp_path_factory.mktemp("identity") / "exit.blg"
    subprocess.run(["go", "run", "./tools/wasmref", "exitlog", str(pal), str(exit_log)], cwd=ROOT, check=True)
    return [("pal", pal, 1), ("exit", exit_log, 11)]


def noted(p: subprocess.CompletedProcess) -> int:
    """The identity breaks of the command's note on standard error."""
    m = re.search(r"identity: (\d+|no) identity break", p.stderr.decode())
    assert m, p.stderr
    return 0 if m.group(1) == "no" else int(m.group(1))


def test_relog_and_stats_equal_native_pid(native, logs):
    for name, log, breaks in logs:
        p = run_native(native, "relog", "--identity", "pid", log)
        assert noted(p) == breaks, name
        with pytest.warns(perfcalc.IdentityBreaksWarning) as w:
            text = perfcalc.relog(log, identity="pid")
        assert text == p.stdout.decode("utf-8"), name
        assert w[0].message.count == breaks
        assert '\\Process(rundll32:580)\\% Processor Time"' in text.split("\r\n", 1)[0]
        # pdh stays the default: relog's CSV, no warning.
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert perfcalc.relog(log) == perfcalc.relog(log, identity="pdh") == run_native(native, "relog", log).stdout.decode("utf-8")
        # pid mode is read in one piece whatever the workers.
        with pytest.warns(perfcalc.IdentityBreaksWarning):
            assert perfcalc.relog(log, identity="pid", workers=4) == text

        p = run_native(native, "stats", "--json", "--identity", "pid", log)
        with pytest.warns(perfcalc.IdentityBreaksWarning):
            table = perfcalc.stats(log, identity="pid")
        assert_stats(table, json.loads(p.stdout))
        assert table.schema.metadata[b"perfcalc.identity_breaks"] == str(breaks).encode()
        assert b"perfcalc.identity_breaks" not in (perfcalc.stats(log).schema.metadata or {})


def test_read_blg_equals_native_pid_parquet(native, logs, tmp_path):
    for name, log, breaks in logs:
        out = tmp_path / f"{name}.parquet"
        run_native(native, "relog", "--identity", "pid", log, "-f", "parquet", "-o", out)
        want = plain(pq.read_table(out))
        with pytest.warns(perfcalc.IdentityBreaksWarning):
            table = perfcalc.read_blg(log, identity="pid")
        assert table.schema.metadata[b"perfcalc.identity_breaks"] == str(breaks).encode()
        have = plain(table)
        assert have.column_names == want.column_names
        assert have.num_rows == want.num_rows > 0
        key = [("path", "ascending"), ("local_time", "ascending")]
        have, want = have.sort_by(key), want.sort_by(key)
        for col in have.column_names:
            h, w = have[col].to_pylist(), want[col].to_pylist()
            if col == "value":
                assert all((a is None) == (b is None) and (a is None or bits(a) == bits(b)) for a, b in zip(h, w)), name
            else:
                assert h == w, (name, col)
        pids = set(have["pid"].to_pylist())
        assert 580 in pids and 3320 in pids, "rundll32's two processes are two series"


def test_values_equal_native_pid(native):
    d = need_corpus() / "v1"
    names, older, newer = d / "pal_counter_009.multisz", d / "s06_obj230.bin", d / "s07_obj230.bin"
    sel = r"\Process(rundll32*)\% Processor Time"
    p = run_native(native, "values", "--identity", "pid", "--names", names, older, newer, "-c", sel, "-f", "csv")
    assert noted(p) == 1
    with pytest.warns(perfcalc.IdentityBreaksWarning):
        assert perfcalc.values_text(older, newer, names, sel, identity="pid") == p.stdout.decode("utf-8")
    with pytest.warns(perfcalc.IdentityBreaksWarning):
        t = perfcalc.values(older, newer, names, sel, identity="pid")
    assert t.schema.metadata[b"perfcalc.identity_breaks"] == b"1"
    assert any("rundll32:580" in x for x in t["path"].to_pylist())
    assert not any("rundll32#1" in x for x in t["path"].to_pylist())
    assert any("rundll32#1" in x for x in perfcalc.values(older, newer, names, sel)["path"].to_pylist())


def test_identity_refused():
    with pytest.raises(perfcalc.ArgumentError, match="want 'pdh'"):
        perfcalc.relog(b"", identity="PID")
    with pytest.raises(perfcalc.ArgumentError, match="want 'pdh'"):
        perfcalc.stats(b"", identity=None)


def test_shared_ids_stay_distinct_pid(native, tmp_path):
    """Instances that share their IDs in a sample (wasmref identitylog: the
    Idle threads Idle/0..3, all ID Process 0 and ID Thread 0; two svchost
    with PID 500) stay distinct series, as perfcalc relog --identity pid
    writes them; _Total/_Total keeps its name."""
    if shutil.which("go") is None:
        pytest.skip("no Go to write the log with (tools/wasmref identitylog)")
    log = tmp_path / "shared.blg"
    subprocess.run(["go", "run", "./tools/wasmref", "identitylog", str(log)], cwd=ROOT, check=True)
    p = run_native(native, "relog", "--identity", "pid", log)
    assert noted(p) == 2
    with pytest.warns(perfcalc.IdentityBreaksWarning):
        text = perfcalc.relog(log, identity="pid")
    assert text == p.stdout.decode("utf-8")
    header = text.split("\r\n", 1)[0]
    for inst in ("Thread(Idle:0/0)", "Thread(Idle:0/0#3)", "Thread(_Total/_Total)", "Process(svchost:500)", "Process(svchost:500#1)"):
        assert f'"\\\\HOST\\{inst}\\ID Process"' in header, inst
    assert header.count(",") == 39
    with pytest.warns(perfcalc.IdentityBreaksWarning):
        table = perfcalc.read_blg(log, identity="pid")
    assert len(set(table["path"].to_pylist())) == 39
