"""The build hook of the perfcalc package (pyproject.toml holds the rest).

The repository commits the WebAssembly modules once each, as
wasm/module/perfcalc.wasm and wasm/module/perfcalc-analyze.wasm (the
analyze export, loaded by the first perfcalc.analyze). Building the package
from a clone (pip install ./python, an sdist or a wheel) copies them into
src/perfcalc/ first, where the package data takes them from; git ignores
the copies. A package built from an sdist has its copies already. Without
either, the build stops saying so.
"""

import shutil
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent

for name in ("perfcalc.wasm", "perfcalc-analyze.wasm"):
    module = HERE.parent / "wasm" / "module" / name
    copy = HERE / "src" / "perfcalc" / name
    if module.is_file():
        if not copy.is_file() or copy.read_bytes() != module.read_bytes():
            shutil.copyfile(module, copy)
    elif not copy.is_file():
        raise SystemExit(
            f"perfcalc: neither {module} nor {copy} exists: build the package from a clone "
            "of the repository (make wasm builds the modules) or from its sdist"
        )

setup()
