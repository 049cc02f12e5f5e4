"""Shared fixtures: the repository, the real corpus (../shared/corpus beside
the repository, skipped where absent) and the native perfcalc command that
every result is compared with."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

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
