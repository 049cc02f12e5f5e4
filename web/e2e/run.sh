#!/usr/bin/env bash
# The viewer's end-to-end test (make e2e): installs what it needs, then runs
# viewer.e2e.mjs and analysis.e2e.mjs in headless Chromium.
#
#   - Debian's chromium, with apt-get, when /usr/bin/chromium is missing
#     (as root, or through sudo);
#   - playwright-core, with npm ci from package-lock.json (no browser download);
#   - Go builds the native perfcalc command the test compares with.
#
# Where Debian's archive or the npm registry cannot be reached, the test is
# skipped with a message and the script exits 0; E2E_REQUIRE=1 makes that a
# failure instead.
set -euo pipefail
cd "$(dirname "$0")"

CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
export CHROMIUM

skip() {
	echo "e2e: SKIPPED: $*"
	if [ "${E2E_REQUIRE:-0}" = 1 ]; then
		echo "e2e: E2E_REQUIRE=1: a skipped test is a failure"
		exit 1
	fi
	exit 0
}

# unreachable reports whether a command's output says the network failed.
unreachable() {
	grep -Eqi 'could not resolve|temporary failure (in name resolution|resolving)|failed to fetch|unable to connect|connection (refused|timed out)|network is unreachable|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|getaddrinfo' "$1"
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT

if [ ! -x "$CHROMIUM" ]; then
	sudo=""
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null 2>&1 || { echo "e2e: $CHROMIUM is missing and installing Debian's chromium needs root (or sudo)"; exit 1; }
		sudo="sudo"
	fi
	echo "e2e: installing Debian's chromium (apt-get update; apt-get install chromium)"
	start=$SECONDS
	if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium; } >"$log" 2>&1; then
		cat "$log"
		if unreachable "$log"; then skip "Debian's archive cannot be reached: chromium cannot be installed"; fi
		echo "e2e: installing chromium failed"
		exit 1
	fi
	# apt-get update only warns when the archive is unreachable; the
	# install then fails to find or fetch the package (handled above).
	echo "e2e: chromium installed in $((SECONDS - start)) s"
	[ -x "$CHROMIUM" ] || { echo "e2e: $CHROMIUM is still missing after installing chromium"; exit 1; }
fi
"$CHROMIUM" --version 2>/dev/null | grep -v 'unexpected operator' || true

echo "e2e: npm ci (playwright-core)"
start=$SECONDS
if ! npm ci --no-audit --no-fund --loglevel=error >"$log" 2>&1; then
	cat "$log"
	if unreachable "$log"; then skip "the npm registry cannot be reached: playwright-core cannot be installed"; fi
	echo "e2e: npm ci failed"
	exit 1
fi
echo "e2e: npm ci took $((SECONDS - start)) s"

command -v go >/dev/null 2>&1 || { echo "e2e: go is missing: the test compares the page with the native perfcalc command"; exit 1; }

# The viewer, then its Analysis view (which loads the second module,
# perfcalc-analyze.wasm, when first opened); both run, and the script fails
# when either does.
# Each bounded (about 2 and 1 minutes here): a browser that stops
# answering fails the run in 10 minutes, not at CI's limit.
status=0
timeout -k 10 600 node viewer.e2e.mjs || status=$?
timeout -k 10 600 node analysis.e2e.mjs || status=$?
exit $status
