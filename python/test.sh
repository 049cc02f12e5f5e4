#!/usr/bin/env bash
# The Python package's tests (make python-test), its benchmark (--bench),
# or the Spark cluster test (--cluster: make spark-cluster-test, python/cluster_test.py).
#
# Everything is installed here, on any fresh machine with python3, Go and
# Debian's apt: a virtual environment (.venv-python at the repository's
# root, reused by later runs), the package's dependencies from PyPI, the
# package itself from ./python as a user installs it (its wheel, with its
# extras [pandas] and, for the Spark test, [spark]),
# the native perfcalc command (go build) the tests compare with, and for the
# Spark test pyspark and Java 17 (the machine's, or Debian's
# openjdk-17-jre-headless). Where a registry cannot be reached the part that
# needs it is skipped with a message saying so; a failure of the package
# itself always fails.
#
# Time (two cores under the team's load): about 2 minutes to fill a new
# environment (pyspark is a 450 MB download), then about 20 s of tests
# without Spark and 1.5 to 3 minutes more with it. PYTHON_SPARK=0 leaves
# the Spark part out (said in the test summary), for quick local runs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=${PYTHON_VENV:-$root/.venv-python}
python=${PYTHON:-python3}
mode=${1:-test}

say() { echo "python-test: $*"; }

if ! command -v "$python" >/dev/null 2>&1; then
	say "SKIPPED: no $python on this machine (the Python package needs Python 3.9 or later)"
	exit 0
fi
if [ ! -x "$venv/bin/python" ]; then
	"$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)

# The dependencies first: a failure here is the registry's.
if ! "${pip[@]}" install "wasmtime>=20" "pyarrow>=14" "numpy>=1.22" "pytest>=7" "pandas>=1.5"; then
	say "SKIPPED: pip could not install wasmtime, pyarrow, numpy, pytest and pandas from PyPI (no registry?)"
	exit 0
fi
# The package as users install it (pip builds its wheel from ./python in
# an isolated environment, as pip install ./python does); its failure is
# ours. The module is committed once, as wasm/module/perfcalc.wasm:
# python/setup.py copies it into the package when it is built (git ignores
# the copy; test_module.py checks that the installed package has the same
# bytes). The wheel is built once, then installed with each extra
# (pip install "./python[pandas]" as the README says first; [spark] below).
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
"${pip[@]}" wheel --no-deps -w "$wheels" "$root/python" >/dev/null
wheel=("$wheels"/perfcalc-*.whl)
"${pip[@]}" install --force-reinstall --no-deps "${wheel[0]}"
# extra NAME CHECK: installs the wheel with its extra NAME (what that names
# and is missing comes from the registry), then runs the Python CHECK.
extra() {
	local out
	if ! out=$("${pip[@]}" install "${wheel[0]}[$1]" 2>&1); then
		echo "$out"
		return 1
	fi
	if echo "$out" | grep -q "does not provide the extra"; then
		echo "$out"
		say "FAIL: the package has no extra [$1]"
		exit 1
	fi
	"$venv/bin/python" -c "$2"
}
extra pandas 'import perfcalc, pandas; df = perfcalc.read_blg("testdata/corpus/sample.blg").to_pandas(); assert len(df) == 30, len(df)' ||
	{ say "FAIL: pip install \"./python[pandas]\" then read_blg(...).to_pandas()"; exit 1; }
say "pip install \"./python[pandas]\": read_blg(...).to_pandas() works"

# The native command, to compare with.
mkdir -p "$venv/native"
go build -o "$venv/native/perfcalc" ./cmd/perfcalc
export PERFCALC_NATIVE="$venv/native/perfcalc"

# Spark: pyspark and Java 17, or the reason the Spark test is skipped.
export PERFCALC_SPARK_SKIP=""
if [ "${PYTHON_SPARK:-1}" = 0 ]; then
	PERFCALC_SPARK_SKIP="PYTHON_SPARK=0 was given (the Spark part takes 1.5-3 minutes and 1 GB for its JVM)"
elif ! extra spark 'from pyspark.sql.pandas.utils import require_minimum_pandas_version as a, require_minimum_pyarrow_version as b; a(); b()'; then
	# pip install "./python[spark]": pyspark and what its Arrow path asks for (the check is pyspark's own).
	if "$venv/bin/python" -c 'import pyspark' 2>/dev/null; then
		say "FAIL: pip install \"./python[spark]\" left pyspark without what its Arrow path needs"
		exit 1
	fi
	PERFCALC_SPARK_SKIP="pip could not install pyspark from PyPI"
else
	say "pip install \"./python[spark]\": pyspark's minimum pandas and pyarrow for its Arrow path are met"
fi
java_major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1; }
if [ -z "$PERFCALC_SPARK_SKIP" ] && { ! command -v java >/dev/null 2>&1 || [ "$(java_major)" -lt 17 ]; }; then
	say "Java 17 is missing: installing Debian's openjdk-17-jre-headless"
	if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless; } >/dev/null 2>&1; then
		PERFCALC_SPARK_SKIP="no Java 17 and Debian's openjdk-17-jre-headless could not be installed"
	fi
fi
if [ -n "$PERFCALC_SPARK_SKIP" ]; then
	if [ "$mode" = --cluster ]; then
		say "spark-cluster-test SKIPPED: $PERFCALC_SPARK_SKIP"
		exit 0
	fi
	say "the Spark test will be SKIPPED: $PERFCALC_SPARK_SKIP"
fi
if [ "$mode" = --cluster ]; then
	# The wheel the cluster test ships to the executors (as perfcalc.zip).
	mkdir -p "$venv/cluster"
	cp "${wheel[0]}" "$venv/cluster/perfcalc.whl"
	export PERFCALC_WHEEL="$venv/cluster/perfcalc.whl"
	# The --archives route packs an environment with venv-pack (PyPI);
	# PERFCALC_CLUSTER_ARCHIVES=0 leaves it out. Without venv-pack the test
	# says it did not run it.
	if [ "${PERFCALC_CLUSTER_ARCHIVES:-1}" != 0 ] && ! "${pip[@]}" install venv-pack; then
		say "note: pip could not install venv-pack from PyPI: the --archives route will not run"
	fi
fi

rm -rf "$wheels"
trap - EXIT

cd "$root/python"
if [ "$mode" = --cluster ]; then
	# Bounded twice: the test's own alarm (PERFCALC_CLUSTER_TIMEOUT, 420 s)
	# stops the cluster and fails; timeout ends it 60 s later if that did
	# not work.
	exec timeout -k 10 $((${PERFCALC_CLUSTER_TIMEOUT:-420} + 60)) "$venv/bin/python" cluster_test.py
fi
if [ "$mode" = --bench ]; then
	exec "$venv/bin/python" bench/bench.py "${@:2}"
fi
exec "$venv/bin/python" -m pytest -q -rs --durations=8 tests "${@:2}"
