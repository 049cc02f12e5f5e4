#!/usr/bin/env bash
# The external readers of perfcalc's outputs (make external-test):
#   - promtool (Debian's prometheus package) backfills the OpenMetrics text
#     of every corpus log and of perfcalc values on capture pairs; the
#     blocks hold exactly the samples written (go test -run TestPromtool
#     ./internal/openmetrics ./cmd/perfcalc);
#   - pyarrow and DuckDB (PyPI, in a virtual environment) read the Parquet
#     of every corpus log: the schema, every value against relog's CSV, and
#     the README's query over the folder (check_parquet.py).
# Each part installs what it needs, or is skipped with a message where
# Debian's archive or PyPI cannot be reached (EXTERNAL_REQUIRE=1 makes a skip
# a failure). Takes about 1-2 minutes on a fresh machine (apt-get and pip
# downloads), seconds once installed; each step is bounded by timeout.
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$PWD

skip() {
	echo "external-test: SKIPPED: $*"
	if [ "${EXTERNAL_REQUIRE:-0}" = 1 ]; then
		echo "external-test: EXTERNAL_REQUIRE=1: a skipped part is a failure"
		exit 1
	fi
}

corpus="$(dirname "$root")/shared/corpus/blg"
if [ ! -d "$corpus" ]; then
	skip "$corpus is absent: the external readers check the real logs"
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/perfcalc" ./cmd/perfcalc

# promtool
if ! command -v promtool >/dev/null 2>&1; then
	echo "external-test: installing Debian's prometheus (promtool)"
	start=$SECONDS
	sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
	if timeout 600 $sudo apt-get update -qq >"$work/apt.log" 2>&1 &&
		DEBIAN_FRONTEND=noninteractive timeout 600 $sudo apt-get install -y -qq --no-install-recommends prometheus >>"$work/apt.log" 2>&1; then
		echo "external-test: prometheus installed in $((SECONDS - start)) s"
	else
		tail -5 "$work/apt.log"
	fi
fi
if command -v promtool >/dev/null 2>&1; then
	promtool --version 2>&1 | head -1
	PERFCALC_REQUIRE_PROMTOOL=1 timeout 600 go test -count=1 -run 'TestPromtool' -v ./internal/openmetrics ./cmd/perfcalc | grep -E '^(---|ok|FAIL|PASS)|blocks'
else
	skip "promtool cannot be installed (Debian's prometheus package): the OpenMetrics backfill is not checked"
fi

# pyarrow and DuckDB
venv="${PERFCALC_VENV:-${TMPDIR:-/tmp}/perfcalc-external-venv}"
req=cmd/perfcalc/external/requirements.txt
if ! cmp -s "$req" "$venv/requirements.txt" 2>/dev/null; then
	echo "external-test: creating $venv (pip install $(tr '\n' ' ' <"$req"))"
	start=$SECONDS
	rm -rf "$venv"
	if timeout 900 python3 -m venv "$venv" >"$work/pip.log" 2>&1 &&
		timeout 900 "$venv/bin/pip" install -q --disable-pip-version-check -r "$req" >>"$work/pip.log" 2>&1; then
		cp "$req" "$venv/requirements.txt"
		echo "external-test: pip install took $((SECONDS - start)) s"
	else
		tail -5 "$work/pip.log"
		rm -rf "$venv"
	fi
fi
if [ -x "$venv/bin/python" ]; then
	timeout 600 "$venv/bin/python" cmd/perfcalc/external/check_parquet.py "$work/perfcalc" "$corpus" "$work"
else
	skip "pyarrow and duckdb cannot be installed from PyPI: perfcalc's Parquet is checked by parquet-go's reader only"
fi
