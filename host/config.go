package host

import (
	"runtime"
	"time"
)

// Config is an Engine's configuration. It is immutable: each WithX method
// returns a changed copy, so a Config may be shared and reused. The zero
// Config is NewConfig's.
type Config struct {
	module        []byte
	analyzeModule []byte
	cacheDir      string
	memoryPages   uint32
	timeout       time.Duration
	poolSize      int
	// idleBytes is WithIdleMemory's budget; idleSet tells a budget of 0
	// from the default.
	idleBytes int64
	idleSet   bool
}

// NewConfig returns the default configuration: the embedded module, no
// compilation cache, wazero's memory limit (4 GiB), no per-call deadline,
// a pool of GOMAXPROCS instances, and DefaultIdleMemory for the large ones
// it keeps idle.
func NewConfig() Config { return Config{} }

// WithModule returns a copy of c that loads the module in wasm (the bytes of
// a perfcalc.wasm file) instead of the embedded one. New refuses a module
// whose abi_version differs from ABIVersion (ErrABIVersion) or that lacks an
// export of the ABI.
//
// The bytes are kept, not copied: do not change them afterwards.
func (c Config) WithModule(wasm []byte) Config {
	c.module = wasm
	return c
}

// WithAnalyzeModule returns a copy of c whose Engine runs Analyze in the
// module in wasm (the bytes of a perfcalc-analyze.wasm file) instead of
// the embedded one. It is loaded by the first Analyze, not by New: that
// Analyze returns the error of a module that speaks another ABI version
// (ErrABIVersion) or lacks an export of abi.AnalyzeModuleExports
// (ErrModule).
//
// The bytes are kept, not copied: do not change them afterwards.
func (c Config) WithAnalyzeModule(wasm []byte) Config {
	c.analyzeModule = wasm
	return c
}

// WithCompilationCacheDir returns a copy of c that keeps the machine code
// compiled from the module in dir (created if needed), shared by every
// Engine and process that uses the same directory.
//
// # Notes
//
//   - Compiling the module takes 0.5 to 1 s on two cores; with a warm
//     cache, loading it takes tens of milliseconds (New then spends most of
//     its time starting the first instance).
//   - The cache is keyed by the module's contents and wazero's version.
func (c Config) WithCompilationCacheDir(dir string) Config {
	c.cacheDir = dir
	return c
}

// WithMemoryLimitPages returns a copy of c that caps the linear memory of
// every instance at pages × 64 KiB. A call that needs more traps with an
// out-of-memory FaultError; its instance is discarded and replaced.
//
// # Notes
//
//   - After start-up the module uses about 235 pages (its static buffers
//     take 12 MiB, of which only the pages written are resident; see
//     WithPoolSize); New fails when the limit does not allow start-up.
//   - The decoders' measured peaks are 292 to 320 pages: allow at least 512
//     (32 MiB) for arbitrary inputs.
//   - 0 means wazero's default, 65,536 pages (4 GiB).
func (c Config) WithMemoryLimitPages(pages uint32) Config {
	c.memoryPages = pages
	return c
}

// WithCallTimeout returns a copy of c that bounds every Engine call (a
// Compute, a ComputeBatch, a whole decode with all its pages) by d: a call
// still running after d is stopped, returns a FaultError whose Fault is
// Timeout (it wraps context.DeadlineExceeded), and its instance is
// discarded and replaced.
//
// # Notes
//
//   - This uses wazero's close-on-context-done, which inserts termination
//     checks into the compiled code and starts a goroutine per call into
//     the module, plus a context with a timer per Engine call: measured
//     here, Compute goes from about 0.5 µs and no allocation to about
//     4 µs and a dozen allocations (a trivial call into the module, from
//     about 30 ns to 1.7 µs: the "40 times" of wazero's documentation).
//     Batch work (ComputeBatch, the decoders) when you enable it, or
//     enable it only for inputs that may run long.
//   - The module is compiled with the checks, so its compilation cache
//     entry differs from the one without.
//   - Without it (0, the default), a call runs until it returns: the
//     module's work is bounded by its input (see ABI.md), but nothing stops
//     a runaway call.
func (c Config) WithCallTimeout(d time.Duration) Config {
	c.timeout = d
	return c
}

// WithPoolSize returns a copy of c whose Engine holds at most n instances
// of the module, created when concurrent calls need them: at most n calls
// run at once, and the others wait. n ≤ 0 means runtime.GOMAXPROCS(0).
//
// # Notes
//
//   - Each instance is one Go runtime with its own linear memory (about
//     15 MiB after start-up, of which the static buffers take 12 MiB). On
//     Linux and macOS the memory is a mapping of its maximum size that only
//     the pages the module writes make resident, and that grows in place;
//     elsewhere it is wazero's Go slice, which copies itself as it grows.
//   - An instance whose memory a call grew beyond 32 MiB (an input or a
//     result of more than about 12 MB) goes back to the pool only within
//     the budget of WithIdleMemory (by default DefaultIdleMemory); beyond
//     it, it is closed after that call, its memory returned to the system,
//     and the next call that needs it pays for a new one.
//   - Measured resident memory per idle pooled instance (Linux, a pool of 8
//     under a 64 MiB limit, TestPooledInstanceMemory): 2.5 MB fresh,
//     3.7 MB after a 1 MB input, 18 MB after a 12 MB input; at most about
//     36 MB (32 MiB of memory and the instance's own). Measured again
//     with the memory advised to huge pages (Linux's transparent huge
//     pages on): 6.8, 11.4 and 25.1 MB. Before the mapping and the 32 MiB
//     rule: 19, 19 and 30 MB, and 1.1 GB of RSS for 8 instances that had
//     each decoded a 10 MB log.
//   - Creating an instance takes 130 to 200 ms here (see New), paid by the
//     first call that needs it and by the call after a fault.
func (c Config) WithPoolSize(n int) Config {
	c.poolSize = n
	return c
}

func (c Config) pool() int {
	if c.poolSize > 0 {
		return c.poolSize
	}
	return max(runtime.GOMAXPROCS(0), 1)
}

// DefaultIdleMemory is WithIdleMemory's default budget, 256 MiB: a call
// leaves an instance about 14 MiB more linear memory than its input (56
// MiB after the 42 MB log's relog or statistics, whose outputs are read in
// pages), so the pool keeps an instance per core of a two-core machine for
// logs of up to about 100 MB, or one for a log of up to about 240 MB; the
// instance of a larger log (by the same rule about 415 MiB for a 420 MB
// log) is closed after its call, as before. Idle memory stays bounded by
// this budget plus WithPoolSize × 32 MiB.
const DefaultIdleMemory = 256 << 20

// WithIdleMemory returns a copy of c whose pool keeps at most n bytes of
// linear memory idle in large instances: those that a call grew beyond 32
// MiB (an input or a result of more than about 12 MB). Such an instance
// goes back to the pool when the large idle instances' memory, its own
// included, stays within n; otherwise it is closed after its call, its
// memory returned to the system. Smaller instances always go back to the
// pool (at most WithPoolSize × 32 MiB). n = 0 keeps no large instance;
// the default is DefaultIdleMemory.
//
// # Notes
//
//   - A kept instance serves the next large input without a new instance
//     and without faulting its memory in again: its input buffer already
//     holds a log as large (the module keeps a buffer that is large
//     enough, and the host asks for a larger one only), and the Go heap
//     inside it has grown. Measured on the 42 MB log, one core, CPU time
//     per call (BenchmarkModuleSpeed, side=module against side=fresh,
//     whose budget is 0): relog's CSV and the statistics 1.07 to 1.10×
//     faster, decode_blg 1.07×; doc/PERFORMANCE.md §3 "The module's
//     profiles".
//   - The memory stays resident while the instance is idle: a linear
//     memory never shrinks, and the module's heap and buffers hold the
//     last input's pages. Measured (TestLargeIdleInstanceMemory, Linux):
//     after the 42 MB log's relog CSV or statistics, the kept instance has
//     56 MiB of linear memory and the process 46 MB more resident than
//     before the call (a fresh instance idle); with a budget of 0, 6 MB
//     less (the instance is closed). A process that reads large logs and
//     then idles keeps up to n bytes more than with n = 0.
//   - A kept instance's memory still holds the last call's input: the
//     calls of one Engine share instances, as they do for small inputs.
func (c Config) WithIdleMemory(n int64) Config {
	c.idleBytes, c.idleSet = max(n, 0), true
	return c
}

func (c Config) idleMemory() int64 {
	if c.idleSet {
		return c.idleBytes
	}
	return DefaultIdleMemory
}
