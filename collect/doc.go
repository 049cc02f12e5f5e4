// Package collect samples live Windows performance counters and computes
// them with perfcalc's own decoders and engine, so that a live value is
// exactly the value that the same raw capture gives offline (perfcalc
// values, package query).
//
// A Collector takes its raw data from one of three sources:
//
//   - the registry (V1): RegQueryValueEx(HKEY_PERFORMANCE_DATA, "230 238")
//     returns one PERF_DATA_BLOCK per sample, decoded by engine/perfdata
//     and named by the "Counter 009" table (engine/nametable);
//   - PerfLib V2: one PerfQueryCounterData query per counter set, decoded
//     by engine/perflibv2 with the set's registration, for providers that
//     exist only in V2;
//   - PDH's raw values (PdhGetRawCounterArray), computed with
//     engine.Compute, as a fallback and a cross-check.
//
// Open opens the live source of a kind on Windows (and returns
// ErrNeedsWindows elsewhere); NewRegistry, NewPerfLib and NewPDH take any
// implementation of the source interfaces, so that recorded captures can
// be replayed on every OS (ReplayRegistry).
//
//	col, err := collect.Open(collect.Registry, collect.Config{Paths: paths})
//	…
//	err = col.Run(ctx, time.Second, 0, func(s *collect.Sample) error { … })
//
// # Objects, instances and failures
//
// Paths may use wildcards in the instance and the counter; objects and
// counters may be named in English or in the system's language (the two
// name tables map one to the other through the title indexes). Instances
// are paired by name from one sample to the next: one that appears has no
// value yet (engine.NewData), one that goes away is dropped, duplicates
// are numbered name#1, name#2 as PDH numbers them.
//
// Each object (counter set, PDH counter) is computed on its own: the
// registry source cuts each object of the sample, with the objects its
// instances name as parents, into a blob of its own. An object that is
// malformed, missing from a sample or redefined is reported in
// Sample.Errors and starts again as a first sample when it comes back;
// the others keep their values. When the one query of every object fails,
// the registry source asks for each object alone.
//
// # Cost
//
// On the registry path a sample allocates nothing once the buffers have
// grown (TestRegistrySteadyStateAllocs pins it): the blob buffer is
// reused (grown ×2 on ERROR_MORE_DATA up to 512 MiB), and each object's
// query keeps its names. BenchmarkRegistryCollect: one sample of 8 real
// objects and 51 processes (1,664 values), 0 allocs/op.
//
// Run's schedule does not drift: samples are taken at start + k·interval,
// and a tick that a slow collection missed is skipped, not caught up.
//
// # Raw captures
//
// Config.SaveDir writes every raw capture as it is collected: the
// registry's blobs (v1-NNNNNN.bin) with counter-009.multisz and
// counter-local.multisz (the system's language; SaveNameTables writes
// both alone), each V2 result with its registration and names, and PDH's
// raw values as
// perfcalc calc --batch requests, so that any live value can be computed
// again offline.
//
// # Security
//
// Everything a source returns is untrusted: perfdata, perflibv2 and
// nametable check every length and offset, buffers are bounded, and a
// malformed object becomes an ObjectError, never a panic. The PDH source
// reads PDH's structures from the bytes of its buffers, every string
// pointer checked to lie inside the buffer it came in (pdhbuf.go), and
// the PerfLib source builds its PERF_COUNTER_IDENTIFIER the same way
// (perflib.go): both portable, fuzzed on every OS.
//
// Windows code lives in the _windows.go files, through
// golang.org/x/sys/windows; everything else builds and is tested on every
// OS.
package collect
