# perfcalc's build, test and measurement targets. Every target works on a
# fresh machine with Go; nothing here needs the network beyond the Go module
# proxy.

GO       ?= go
FUZZTIME ?= 20s
FUZZMIN  ?= 2s
# Targets that run the WebAssembly module through wazero, or that write and
# read back files for every input (the collector's saved captures, convert's
# partitioned reruns), execute
# far fewer inputs per second; FUZZTIME_SLOW bounds them on their own.
FUZZSLOW ?= FuzzHostCompute FuzzHostDecode FuzzRegistryCollect FuzzPDHSavedRequests FuzzConvertReruns
FUZZTIME_SLOW ?= $(FUZZTIME)
BENCH    ?= .
COUNT    ?= 5
BENCHTIME ?= 300ms


.PHONY: deps-check
.PHONY: external-test staticcheck all run test bench bench-compute bench-walk bench-compare bench-growth web-bench bench-format format-check fuzz fuzz-long check build corpus generate wasm wasm-check wasm-test web-test serve e2e windows-check wine-smoke
.PHONY: python-test python-bench spark-cluster-test

PORT ?= 8080

# The committed modules, one copy each (package wasm/module embeds them for
# package host; the npm and Python packages copy them when packed or
# installed): perfcalc.wasm, every export but analyze, and
# perfcalc-analyze.wasm, analyze alone (the build tag perfcalcanalyze),
# loaded only when analysis is asked for (doc/ANALYSIS.md says why).
WASM      := wasm/module/perfcalc.wasm
WASMANALYZE := wasm/module/perfcalc-analyze.wasm
WASMFLAGS := -buildmode=c-shared -trimpath -ldflags="-s -w -buildid=" -buildvcs=false

all: test

# The main job on the data the project ships: every counter of a
# Global-style snapshot pair, named by its name table.
run:
	$(GO) run ./cmd/perfcalc values testdata/corpus/global-1.bin testdata/corpus/global-2.bin --names testdata/corpus/counter-009.multisz

build:
	$(GO) build -o bin/perfcalc ./cmd/perfcalc

# vet + every test (the fuzz targets run their seed corpora here too), and
# the Python package's tests.
test:
	$(GO) vet ./...
	$(GO) test ./...
	$(MAKE) python-test

# Benchmarks of every package, COUNT runs each, for benchstat.
bench:
	$(GO) test -run='^$$' -bench='$(BENCH)' -benchmem -count=$(COUNT) -benchtime=$(BENCHTIME) ./...

# Side-by-side comparisons for issue 14's figures: one test binary run
# BENCHRUNS times, every variant once per run (interleaved, so that the
# load of a shared machine falls on all of them alike), then benchstat.
# Benchmarks report wall ns and the thread's CPU ns per unit
# (tools/cputime); on a busy machine read the cpu-ns rows.
BENCHRUNS ?= 8
BENCHSTAT ?= $(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da

# benchrun PKG BENCH: runs PKG's benchmarks matching BENCH, BENCHRUNS
# times, into $$d/out.txt ($$d: a temporary folder removed on exit).
benchrun = set -e; d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; \
	$(GO) test -c -o $$d/bench.test $(1); \
	for i in $$(seq $(BENCHRUNS)); do \
		$$d/bench.test -test.run '^$$' -test.bench '$(2)' -test.benchtime 100ms -test.benchmem >> $$d/out.txt; \
	done

# ComputeBatch and Compute against the plain loops and the rejected designs.
bench-compute:
	@$(call benchrun,./engine,^Benchmark(ComputeBatch|Compute)$$$$); \
	for b in ComputeBatch Compute; do \
		$(BENCHSTAT) -col /impl -filter ".name:$$b .unit:(cpu-ns/counter OR allocs/op)" $$d/out.txt; \
	done

# The V1 fill walk (a Plan per object) against Fill per value and binary.Read.
bench-walk:
	@$(call benchrun,./engine/perfdata,^BenchmarkWalk$$$$); \
	$(BENCHSTAT) -col /impl -filter ".unit:(cpu-MB/s OR B/s OR allocs/op)" $$d/out.txt

# perfcalc relog of the 42 MB log (the real Tx log x160) by the build of
# BASE (eba2a2e, issue 14's reference) and by the working tree, BENCHRUNS
# interleaved runs each: wall time, MB/s, CPU time and peak RSS of each
# process, then benchstat. COPIES=1600 makes the 420 MB log of the memory
# goal; BENCHARGS changes the command ({log} is the log). Needs the real
# captures in ../shared/corpus.
BASE      ?= eba2a2e
COPIES    ?= 160
BENCHARGS ?= relog {log} -f csv
bench-compare:
	@set -e; d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; \
	$(GO) run ./tools/benchcmp -base $(BASE) -copies $(COPIES) -runs $(BENCHRUNS) -args '$(BENCHARGS)' > $$d/out.txt; \
	$(BENCHSTAT) -col /bin $$d/out.txt

# engine.AppendFloat against strconv.AppendFloat at 17 and 20 digits, on
# the real values and on random doubles.
bench-format:
	@$(call benchrun,./engine,^BenchmarkAppendFloat$$$$); \
	$(BENCHSTAT) -col /impl -filter ".unit:(cpu-ns/value OR ns/value OR allocs/op)" $$d/out.txt

# The formatter's long check: 10^8 random doubles at 17 and 20 digits
# against strconv (10^6 of them also against math/big); make test checks
# 10^6. About 4 minutes of CPU, spread over every core (12 minutes on a
# busy 2-core machine).
FORMATVALUES ?= 100000000
format-check:
	PERFCALC_FORMAT_VALUES=$(FORMATVALUES) $(GO) test -count=1 -timeout 0 -run '^TestAppendFloatRandom$$' -v ./engine

# Growth (doc/PERFORMANCE.md's table): ComputeBatch per counter at 100,
# 10^4 and 10^6 counters; perfcalc relog of the 42 MB and the 420 MB logs
# (MB/s and peak RSS). Linear costs keep ns/counter and MB/s put.
bench-growth:
	@$(call benchrun,./engine,^BenchmarkComputeBatchGrowth$$$$); \
	$(BENCHSTAT) -col /n -filter ".unit:cpu-ns/counter" $$d/out.txt; \
	for c in 160 1600; do $(GO) run ./tools/benchcmp -only head -copies $$c -runs 3 -args 'relog {log} -f csv'; done > $$d/relog.txt; \
	$(BENCHSTAT) -col /log $$d/relog.txt

# The JS package's batch APIs against the bare compute_batch export, and
# load() after the first, in one Node process (medians of interleaved runs).
web-bench:
	cd web && node bench/compute.bench.mjs 10000 41

# Every fuzz target of FUZZPKGS (./...: every package) for FUZZTIME each
# (go test -fuzz takes one target per run), found in the tree by
# tools/fuzztargets: every func FuzzX(*testing.F) of a _test.go file, with
# the build tag its file needs (wasm's analyze target: perfcalcanalyze), so a
# new target is fuzzed without editing a list (a test fails if one is not).
FUZZPKGS ?= ./...
fuzz:
	@set -e; targets=$$($(GO) run ./tools/fuzztargets $(FUZZPKGS)); \
	for x in $$targets; do \
		p=$${x%%:*}; r=$${x#*:}; t=$${r%%:*}; tags=$${r#*:}; \
		ft=$(FUZZTIME); case " $(FUZZSLOW) " in *" $$t "*) ft=$(FUZZTIME_SLOW);; esac; \
		echo "== $$p $$t ($$ft$${tags:+, -tags $$tags})"; \
		$(GO) test -tags="$$tags" -run='^$$' -fuzz="^$$t$$" -fuzztime=$$ft -fuzzminimizetime=$(FUZZMIN) $$p; \
	done

# Long fuzzing, by hand or at night (CI keeps make fuzz's short budgets):
# every target of FUZZPKGS for FUZZLONG each (10 minutes by default), with two
# workers, the machine's two cores. Inputs that fail land in the package's
# testdata/fuzz/<target>/: commit them with the fix, as seeds.
FUZZLONG ?= 10m
fuzz-long:
	@set -e; targets=$$($(GO) run ./tools/fuzztargets $(FUZZPKGS)); \
	for x in $$targets; do \
		p=$${x%%:*}; r=$${x#*:}; t=$${r%%:*}; tags=$${r#*:}; \
		echo "== $$p $$t ($(FUZZLONG)$${tags:+, -tags $$tags})"; \
		$(GO) test -tags="$$tags" -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZLONG) -parallel=2 $$p; \
	done

# Regenerates testdata/corpus/ from tools/gencorpus (byte-identical;
# a test fails when the committed files are stale).
corpus:
	$(GO) run ./tools/gencorpus/cmd/gencorpus -o testdata/corpus

# staticcheck, pinned, over every package (the linux build; the windows and
# wasip1 builds leave platform-only helpers that it would call unused).
# Skipped, saying why, where the Go module proxy cannot be reached; about a
# minute once built (building it takes another minute or two).
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
staticcheck:
	@out=$$($(GO) run $(STATICCHECK) -version 2>&1) || { \
		if echo "$$out" | grep -Eqi 'dial tcp|lookup |no such host|connection refused|network is unreachable|i/o timeout|tls handshake|proxyconnect'; then \
			echo "staticcheck: SKIPPED: the Go module proxy cannot be reached to fetch $(STATICCHECK):"; echo "$$out" | tail -2; exit 0; \
		fi; echo "$$out"; exit 1; }; \
	echo "$(GO) run $(STATICCHECK) ./..."; $(GO) run $(STATICCHECK) ./...

# The files generated from internal/abi/layout.go (web/abi.mjs, the tables
# of wasm/ABI.md), engine/formatpow.go (tools/genpow5) and the table of
# doc/DEFAULT-ANALYSES.md (analysis.Defaults); a test fails
# when they are stale.
generate:
	$(GO) generate ./internal/abi ./engine ./analysis

# The WebAssembly modules, built reproducibly (the committed files must
# equal a fresh build: wasm-check). They are the only copies in the
# repository: package host embeds them through package wasm/module,
# web/package.json's prepack and python/setup.py copy them into the packed
# npm and the built Python packages (git-ignored copies; a Python test
# checks that the installed ones have the same bytes), and the JS package's
# load() reads them here in a clone.
wasm:
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASMFLAGS) -o $(WASM) ./wasm
	GOOS=wasip1 GOARCH=wasm $(GO) build -tags perfcalcanalyze $(WASMFLAGS) -o $(WASMANALYZE) ./wasm

wasm-check:
	@set -e; for m in "$(WASM):" "$(WASMANALYZE):perfcalcanalyze"; do \
		file=$${m%%:*}; tags=$${m#*:}; \
		fresh=$$(mktemp $${TMPDIR:-/tmp}/perfcalc.wasm.XXXXXX); \
		GOOS=wasip1 GOARCH=wasm $(GO) build -tags "$$tags" $(WASMFLAGS) -o $$fresh ./wasm || { rm -f $$fresh; exit 1; }; \
		same=0; cmp -s $$file $$fresh || same=$$?; rm -f $$fresh; \
		[ $$same = 0 ] || { echo "$$file differs from a fresh build of ./wasm (tags \"$$tags\"): run make wasm and commit it"; exit 1; }; \
	done

# The modules' own Go tests, run as wasip1 in wazero (tools/wasip1exec,
# built into a temporary folder), on the debug build (-tags perfcalcdebug:
# its mallocs export is tested too), of perfcalc.wasm and of the analyze
# module (perfcalcanalyze; about 10 s). Node's WASI crashed at exit in about
# one run of three (issue 26); the JS package's tests run the module in Node.
wasm-test:
	@set -e; d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; \
	$(GO) build -o $$d/wasip1exec ./tools/wasip1exec; \
	for tags in perfcalcdebug perfcalcanalyze,perfcalcdebug; do \
		echo "GOOS=wasip1 GOARCH=wasm $(GO) test -tags $$tags -exec wasip1exec ./wasm"; \
		GOOS=wasip1 GOARCH=wasm $(GO) test -tags $$tags -exec $$d/wasip1exec ./wasm; \
	done

# The JS package's tests (node --test), against the native command, and
# the viewer model's unit tests. test/install.test.mjs installs the package
# as users do, offline, into temporary projects: npm install ./web (a link
# to the clone) and npm install of npm pack's tarball (a few seconds).
web-test:
	cd web && npm test

# The Python package's tests (pytest) in a virtual environment that the
# target makes itself (.venv-python): the package's wheel built from
# ./python and installed as a user installs it, with its [pandas] extra
# (checked), and with [spark], pyspark and Java 17 for the Spark test
# (installed here, or that test skipped saying why; PYTHON_SPARK=0 leaves
# it out), compared with the native command.
python-test:
	python/test.sh

# perfcalc.spark on a Spark standalone master and two workers on 127.0.0.1
# (python/cluster_test.py): perfcalc shipped to the executors as a wheel,
# the corpus and 240 small logs (then 32 larger ones) read and written
# as machine=…/date=… Parquet, each executor writing the logs it read:
# every value checked against the native command, the dataset native
# convert --partition's file for file; analyze_machines and fleet; the
# throughput beside native convert -j 2 and each executor's peak memory;
# then spark-submit --py-files perfcalc.zip (python/cluster_submit_app.py)
# against the same master, then the --archives env.tar.gz#env route
# (venv-pack; PERFCALC_CLUSTER_ARCHIVES=0 leaves it out).
# Skipped, saying why, without Java 17 or PyPI; bounded to five minutes.
spark-cluster-test:
	python/test.sh --cluster

# read_blg on a 42 MB log (the real Tx log repeated) beside the native
# command, interleaved runs, and Spark's throughput on the corpus.
python-bench:
	python/test.sh --bench

# The browser viewer on 127.0.0.1 for a person to open; prints the URL.
serve:
	node web/viewer/serve.mjs --port $(PORT)

# The viewer in headless Chromium, compared with the native command
# (about two minutes, a 118 MB log included). It installs Debian's chromium
# and playwright-core itself (or skips, saying why, where the archive or the
# registry cannot be reached).
e2e:
	web/e2e/run.sh

# perfcalc's Parquet read by pyarrow and DuckDB, its OpenMetrics backfilled
# by promtool: installs them itself (a virtual environment, Debian's
# prometheus) or skips, saying why.
external-test:
	cmd/perfcalc/external/run.sh

# Cross-builds for every platform perfcalc supports, go.mod tidiness, and
# no counter path parsed outside engine/counterpath (but user input).
check:
	GOOS=linux   GOARCH=amd64 $(GO) build ./...
	GOOS=darwin  GOARCH=arm64 $(GO) build ./...
	GOOS=windows GOARCH=amd64 $(GO) build ./...
	$(MAKE) windows-check
	GOOS=wasip1  GOARCH=wasm  $(GO) build ./engine/...
	$(GO) mod tidy -diff
	$(GO) run ./tools/abigen -check
	$(GO) test -count=1 -run '^(TestNoOtherPathParser|TestPathParserPatterns)$$' ./engine/counterpath
	$(MAKE) deps-check
	$(MAKE) wasm-check

# Dependencies run downhill (issue 20): engine/query does not import
# engine/relog, the command does not import the module's ABI, and nothing
# that ships links a package of tools/.
deps-check:
	@set -e; p=github.com/perfcalc/perfcalc; \
	if $(GO) list -deps ./engine/query | grep -qx "$$p/engine/relog"; then echo "deps-check: engine/query imports engine/relog"; exit 1; fi; \
	if $(GO) list -deps ./cmd/perfcalc | grep -qx "$$p/internal/abi"; then echo "deps-check: cmd/perfcalc imports internal/abi"; exit 1; fi; \
	for goos in linux windows; do \
		bad=$$(GOOS=$$goos $(GO) list -deps ./cmd/perfcalc ./host ./collect ./wasm/... | grep "^$$p/tools/" || true); \
		if [ -n "$$bad" ]; then echo "deps-check: a shipped package links tools/ ($$goos): $$bad"; exit 1; fi; \
	done; \
	echo "deps-check: engine/query does not import engine/relog; cmd/perfcalc does not import internal/abi; nothing shipped links tools/"

# The Windows code (collect's _windows.go files, perfcalc watch) checked
# from any OS: vet and the test binaries of every package, built for
# windows/amd64 (run by wine-smoke and on Windows).
windows-check:
	GOOS=windows GOARCH=amd64 $(GO) vet ./...
	@out=$$(GOOS=windows GOARCH=amd64 $(GO) test -count=1 -exec=true ./... 2>&1) || { echo "$$out"; exit 1; }; \
		echo "windows/amd64: the test binary of every package builds (go test -exec=true: built, not run)"

# collect's Windows tests and perfcalc.exe watch under Debian's Wine (it
# installs wine64 and gcc-mingw-w64-x86-64 itself, or skips saying why;
# about a minute after the install).
wine-smoke:
	.ci/wine-smoke
