"""A fleet of logs for perfcalc.spark.analyze_machines and its check against
the native command, shared by test_analyze.py (local[2]) and
cluster_test.py (the standalone cluster): logs of FLEET machines
(tools/gencorpus/cmd/fleetlogs), one machine's log cut in two with relog
-e/-b, another's copied, a machine without alerts, and a file that is not
a log. The check raises AssertionError."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from datetime import timezone

# "  MACHINE   N critical   N warning  critical at T, T (+N more)": the
# command's text fleet summary (cmd/perfcalc appendFleetText).
_FLEET_LINE = re.compile(r"^  (.+?)\s+(\d+) critical\s+(\d+) warning(?:  critical at (.*?))?(?: \(\+(\d+) more\))?$")


def _native(native: str, *args) -> subprocess.CompletedProcess:
    return subprocess.run([native, *map(str, args)], capture_output=True)


def split(native: str, log: str, a: str, b: str) -> None:
    """Writes log's samples up to its middle one into a, and from it on
    into b (relog -e and -b at that sample's time: both hold it, which the
    merge of a and b keeps once)."""
    p = _native(native, "relog", log, "-f", "csv")
    rows = p.stdout.decode("utf-8").splitlines()[1:]
    if p.returncode != 0 or len(rows) < 2:
        raise AssertionError(f"perfcalc relog {log} -f csv: exit {p.returncode}, {len(rows)} rows: {p.stderr.decode()}")
    at = rows[len(rows) // 2].split(",")[0].strip('"')
    for flag, out in (("-e", a), ("-b", b)):
        q = _native(native, "relog", log, flag, at, "-o", out)
        if q.returncode != 0:
            raise AssertionError(f"perfcalc relog {log} {flag} {at!r} -o {out}: exit {q.returncode}: {q.stderr.decode()}")


def fleet_logs(native: str, root: str, out: str) -> tuple:
    """Writes the fleet into the folder out (created): FLEET:000 (no alert
    with perfcalc's default analyses), FLEET-001 in two halves, FLEET-002
    and a copy of it, FLEET-003, and broken.blg (not a log). Returns the
    logs' paths, sorted, and the groups the command makes of them (sets of
    file names, the broken log apart)."""
    os.makedirs(out, exist_ok=True)
    subprocess.run(["go", "run", "./tools/gencorpus/cmd/fleetlogs", "-n", "4", "-o", out], cwd=root, check=True)
    one = os.path.join(out, "FLEET-001.blg")
    split(native, one, os.path.join(out, "FLEET-001-a.blg"), os.path.join(out, "FLEET-001-b.blg"))
    os.remove(one)
    shutil.copy(os.path.join(out, "FLEET-002.blg"), os.path.join(out, "FLEET-002-copy.blg"))
    with open(os.path.join(out, "broken.blg"), "wb") as f:
        f.write(b"not a .blg log")
    groups = [{"FLEET-000.blg"}, {"FLEET-001-a.blg", "FLEET-001-b.blg"}, {"FLEET-002.blg", "FLEET-002-copy.blg"}, {"FLEET-003.blg"}]
    return sorted(os.path.join(out, n) for n in os.listdir(out)), groups


def _iso(t) -> str | None:
    """A timestamp that Spark returned (naive local time) as the report's
    ISO 8601 UTC text with milliseconds."""
    if t is None:
        return None
    t = t.astimezone(timezone.utc)  # a naive time is taken as local
    return f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z"


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def check(rows: list, native: str, logs: list, groups: list) -> int:
    """Checks analyze_machines' rows over logs (every file, sorted) against
    perfcalc analyze LOGS -f json and -f text: one row per machine, of the
    expected groups of files, its begin, end, samples and every alert the
    JSON report's, its critical and warning counts and critical slices
    those of the text's "Fleet:" line (machines without alerts with 0 and
    0); each log the command cannot read has its row, with the error the
    command names it with. Returns the number of alerts."""
    p = _native(native, "analyze", *logs, "-f", "json")
    t = _native(native, "analyze", *logs, "-f", "text")
    if p.returncode not in (0, 1) or not p.stdout:
        raise AssertionError(f"perfcalc analyze -f json: exit {p.returncode}: {p.stderr.decode()}")
    doc = json.loads(p.stdout)
    reports = doc["machines"] if "machines" in doc else [doc]
    text = t.stdout.decode("utf-8")
    want_lines = {}
    if len(reports) > 1:
        lines = text[text.index("\nFleet: ") :].splitlines()
        if lines[1] != f"Fleet: {len(reports)} machines":
            raise AssertionError(f"the text's fleet summary begins {lines[1]!r}, want {len(reports)} machines")
        for line in lines[2:]:
            m = _FLEET_LINE.match(line)
            if not m:
                raise AssertionError(f"not a fleet line: {line!r}")
            want_lines[m[1]] = (int(m[2]), int(m[3]), m[4].split(", ") if m[4] else [], int(m[5] or 0))

    analysed = [r for r in rows if r["machine"] is not None]
    failed = [r for r in rows if r["machine"] is None]
    by_machine = {r["machine"]: r for r in analysed}
    if len(by_machine) != len(analysed) or sorted(by_machine) != sorted(r["parameters"]["machine"] for r in reports):
        raise AssertionError(f"machines {sorted(r['machine'] for r in analysed)}, want {sorted(r['parameters']['machine'] for r in reports)}")
    have_groups = sorted(sorted(_name(f) for f in r["files"]) for r in analysed)
    if have_groups != sorted(sorted(g) for g in groups):
        raise AssertionError(f"the machines' logs are {have_groups}, want {sorted(sorted(g) for g in groups)}")
    n = 0
    for rep in reports:
        par = rep["parameters"]
        row = by_machine[par["machine"]]
        if row["error"] is not None:
            raise AssertionError(f"{par['machine']}: error {row['error']!r}")
        got = (_iso(row["begin"]), _iso(row["end"]), row["samples"])
        if got != (par["begin"], par["end"], par["samples"]):
            raise AssertionError(f"{par['machine']}: begin, end, samples {got}, want {(par['begin'], par['end'], par['samples'])}")
        alerts = [{**a.asDict(), "start": _iso(a["start"]), "end": _iso(a["end"])} for a in row["alerts"]]
        if alerts != rep["alerts"]:
            raise AssertionError(f"{par['machine']}: {len(alerts)} alerts, want {len(rep['alerts'])}; first {alerts[:1]} vs {rep['alerts'][:1]}")
        n += len(alerts)
        crit = [a for a in rep["alerts"] if a["condition"] == "Critical"]
        at = []
        for a in crit:
            if not at or at[-1][0] != a["slice"]:
                at.append((a["slice"], a["start"]))
        want = (len(crit), sum(a["condition"] == "Warning" for a in rep["alerts"]), [s for _, s in at])
        got = (row["critical"], row["warning"], [_iso(x) for x in row["critical_at"]])
        if got != want:
            raise AssertionError(f"{par['machine']}: critical, warning, critical_at {got}, want {want}")
        if want_lines:
            line = want_lines[par["machine"] or "(local machine)"]
            secs = [s[:19] + "Z" for s in got[2]]
            if (got[0], got[1], secs[:5], max(0, len(secs) - 5)) != line:
                raise AssertionError(f"{par['machine']}: {got[:2]} {secs[:5]}, want the text's fleet line {line}")
    stderr = p.stderr.decode("utf-8")
    for r in failed:
        if len(r["files"]) != 1 or not r["error"] or f"{_name(r['files'][0])}: not a readable .blg log: {r['error']}" not in stderr:
            raise AssertionError(f"failed row {r['files']} {r['error']!r} is not among the command's errors:\n{stderr}")
    unread = sorted(_name(line.split(": ")[1]) for line in stderr.splitlines() if ": not a readable .blg log: " in line)
    if sorted(_name(r["files"][0]) for r in failed) != unread:
        raise AssertionError(f"failed rows {[r['files'] for r in failed]}, the command could not read {unread}")
    return n
