"""The build hook of the perfcalc package (pyproject.toml holds the rest).

The repository commits the WebAssembly module once, as
wasm/module/perfcalc.wasm. Building the package from a clone (pip install
./python, an sdist or a wheel) copies it into src/perfcalc/ first, where
the package data takes it from; git ignores that copy. A package built from
an sdist has its copy already. Without either, the build stops saying so.
"""

import shutil
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
MODULE = HERE.parent / "wasm" / "module" / "perfcalc.wasm"
COPY = HERE / "src" / "perfcalc" / "perfcalc.wasm"

if MODULE.is_file():
    if not COPY.is_file() or COPY.read_bytes() != MODULE.read_bytes():
        shutil.copyfile(MODULE, COPY)
elif not COPY.is_file():
    raise SystemExit(
        f"perfcalc: neither {MODULE} nor {COPY} exists: build the package from a clone "
        "of the repository (make wasm builds the module) or from its sdist"
    )

setup()
