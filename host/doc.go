// Package host runs perfcalc's engine and decoders as a sandboxed plugin:
// the WebAssembly module perfcalc.wasm (see wasm/ABI.md), embedded in the
// program (package wasm/module holds the one committed copy), executed by wazero, a WebAssembly runtime written in Go without
// cgo.
//
// An Engine has the same methods as the native packages, plus an error:
//
//	r := engine.Compute(&in, opts)             // native
//	r, err := eng.Compute(&in, opts)           // sandboxed
//
//	n := engine.ComputeBatch(ins, opts, outs)
//	n, err := eng.ComputeBatch(ins, opts, outs)
//
//	vals, err := query.New(cfg).Run(nil, older, newer)
//	vals, err := eng.Query(nil, &host.QueryConfig{…}, older, newer)
//
// and decodes V1 blobs, PerfLib V2 results, name tables and .blg logs into
// Records (DecodeV1, DecodeV2, DecodeNames, DecodeBlg, RelogText),
// computes a log's statistics as perfcalc stats does (RelogStats, and
// RelogStatsPercentiles as perfcalc stats --percentiles), and
// runs perfcalc analyze over a log (Analyze: the report's JSON, computed
// by a second module, perfcalc-analyze.wasm, which the first Analyze
// compiles and starts: a program that never analyses neither loads nor
// carries it; AnalyzeLogs groups several logs by machine as the command
// does, the fleet JSON for several machines; an inherited threshold file
// not given is a *MissingFileError naming it). Values, statuses and error
// texts are those of the native packages, bit for bit: the module is the
// same Go code compiled for wasip1.
//
// # Instances
//
// New compiles the module once (about a second; tens of milliseconds with
// Config.WithCompilationCacheDir). Each call runs on one instance of it, a
// single-threaded Go runtime with its own linear memory, taken from a pool
// that grows up to Config.WithPoolSize instances as concurrent calls need
// them; an Engine is safe for concurrent use. An instance that a large
// input grew beyond 32 MiB of memory goes back to the pool, for the next
// large input to reuse, while the idle large instances' memory fits
// Config.WithIdleMemory (DefaultIdleMemory, 256 MiB), and is closed after
// its call otherwise. Close releases everything.
//
// DecodeBlgParts and RelogTextParts read one large .blg log with several
// instances at once, one part of the log each on a goroutine of its own
// (the module's log_part, wasm/ABI.md "Parts"), for the cores of the
// machine: their results are DecodeBlg's and RelogText's, record for
// record and byte for byte. Each instance reads the whole log's columns
// first, and holds the whole log in its memory. With relog.Options.Identity
// pid (the module's identity export, set per call: pairing by process, as
// perfcalc --identity pid) they read the log in one piece.
//
// relog.Options.MaxColumns reaches the module (max_columns) in every call
// over a log: a log of more columns is refused with CodeLimit before its
// columns take memory, as perfcalc --max-columns refuses it. 0 is the
// command's default, 1,000,000 columns, and a negative value sets no
// limit (Native reads MaxColumns the same way).
//
// # Failures
//
// A call whose instance traps, panics, exhausts Config.WithMemoryLimitPages,
// runs past Config.WithCallTimeout or returns a result that breaks the ABI
// returns a *FaultError naming what happened, with what the module wrote to
// its standard error; the instance is discarded, and the next call gets a
// new one. Errors that the module reports for its input are *Error values
// with the native packages' texts.
//
// # Security
//
// Inputs are untrusted and so is the module: the host checks every offset
// and length the module returns against the module's memory before reading
// it, copies out what it returns (no view of the module's memory escapes a
// call), and gives the module no file system, arguments, environment,
// network or real clock (wazero's defaults: a fake clock and a
// deterministic random source). The module can only use the CPU and the
// memory it is allowed.
//
// # Speed
//
// Compute and ComputeBatch allocate nothing per call: parameters travel
// through a stack owned by the instance (api.Function.CallWithStack), and
// requests and results through the module's static buffers. A call into
// the module costs about 30 ns; the module's own code (Go compiled to
// WebAssembly) runs about 13 times slower than natively, so Compute costs
// about 0.5 µs and ComputeBatch about 0.43 µs per counter. On a 42 MB log,
// RelogText's CSV and RelogStats take about 6 times the native time on one
// core, DecodeBlg about 2 times (making its records costs the host as much
// as either side's decoding): BenchmarkModuleSpeed, and doc/PERFORMANCE.md.
// The decoders copy their input into the module and their records out.
// Measurements are in each method's Notes.
package host
