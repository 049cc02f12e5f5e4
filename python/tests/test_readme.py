"""The README's Python examples run as shown (doctest), in a folder holding
the files they name."""

from __future__ import annotations

import doctest
import shutil

from conftest import CORPUS, ROOT, TESTDATA, need_corpus


def test_readme_examples(tmp_path, monkeypatch):
    need_corpus()
    for f in ("Tx_BasicPerfCounters.blg", "PowerShell_CorruptBlg.blg"):
        shutil.copy(CORPUS / "blg" / f, tmp_path / f)
    for f in ("global-1.bin", "global-2.bin", "counter-009.multisz"):
        shutil.copy(TESTDATA / f, tmp_path / f)
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(
        str(ROOT / "python" / "README.md"),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
        raise_on_error=False,
    )
    assert result.attempted >= 10 and result.failed == 0, result
