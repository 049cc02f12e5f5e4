package host

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/wasm/module"
)

// ABIVersion is the version of the module's ABI (wasm/ABI.md) that this
// package speaks.
const ABIVersion = abi.Version

// Module returns the bytes of the embedded perfcalc.wasm, the module that
// "make wasm" commits as wasm/module/perfcalc.wasm (package module embeds
// it; do not change them).
func Module() []byte { return module.Bytes() }

// AnalyzeModule returns the bytes of the embedded perfcalc-analyze.wasm,
// the module with the analyze export that Engine.Analyze runs (do not
// change them). A program that calls neither it nor Analyze does not
// carry them (see package wasm/module).
func AnalyzeModule() []byte { return module.AnalyzeBytes() }

// The module's exports, by index into instance.fn.
const (
	fnABIVersion = iota
	fnInPtr
	fnInCap
	fnOutPtr
	fnOutCap
	fnErrPtr
	fnErrLen
	fnLastStatus
	fnLastDetail
	fnCompute
	fnComputeBatch
	fnDecodeV1
	fnDecodeV2
	fnDecodeNames
	fnDecodeBlg
	fnQuery
	fnRelogText
	fnInReserve
	fnOutReserve
	fnRelogStats
	fnQueryText
	fnDecodeNext
	fnAnalyze
	fnLogPart
	fnMaxColumns
	fnIdentity
	fnIdentityBreaks
	numFn
)

// exports names the exports, by index into instance.fn; their signatures
// are abi.Exports'.
var exports = [numFn]string{
	fnABIVersion:     "abi_version",
	fnInPtr:          "in_ptr",
	fnInCap:          "in_cap",
	fnOutPtr:         "out_ptr",
	fnOutCap:         "out_cap",
	fnErrPtr:         "err_ptr",
	fnErrLen:         "err_len",
	fnLastStatus:     "last_status",
	fnLastDetail:     "last_detail",
	fnCompute:        "compute",
	fnComputeBatch:   "compute_batch",
	fnDecodeV1:       "decode_v1",
	fnDecodeV2:       "decode_v2",
	fnDecodeNames:    "decode_names",
	fnDecodeBlg:      "decode_blg",
	fnQuery:          "query",
	fnRelogText:      "relog_text",
	fnInReserve:      "in_reserve",
	fnOutReserve:     "out_reserve",
	fnRelogStats:     "relog_stats",
	fnQueryText:      "query_text",
	fnDecodeNext:     "decode_next",
	fnAnalyze:        "analyze",
	fnLogPart:        "log_part",
	fnMaxColumns:     "max_columns",
	fnIdentity:       "identity",
	fnIdentityBreaks: "identity_breaks",
}

// optional are the exports that perfcalc.wasm may lack (they came later
// within ABI version 1, and analyze is in the analyze module only; a module
// of version 2 has the first ones): a call that needs a missing one
// returns an *Error with CodeUnsupported.
var optional = [numFn]bool{fnRelogStats: true, fnQueryText: true, fnAnalyze: true, fnLogPart: true, fnMaxColumns: true, fnIdentity: true, fnIdentityBreaks: true}

// required reports whether a module must have the export i: the analyze
// module (analyzeOnly) every one of abi.AnalyzeModuleExports (its Engine
// calls no other), perfcalc.wasm every one but the optional ones.
func required(i int, analyzeOnly bool) bool {
	if analyzeOnly {
		inAnalyze, _ := abi.InAnalyzeModule(exports[i])
		return inAnalyze
	}
	return !optional[i]
}

// Engine runs perfcalc's engine and decoders inside perfcalc.wasm, through
// wazero: the module is compiled once, and each call runs on one of a pool
// of instances, so that untrusted input is decoded in a sandbox whose
// memory, time and failures cannot reach the caller's process.
//
// An Engine is safe for concurrent use by many goroutines: one instance is
// one single-threaded Go runtime and serves one call at a time; the pool
// holds at most Config.WithPoolSize instances, created when needed. An
// instance that traps, panics, runs out of memory or times out is
// discarded (the call returns a *FaultError) and replaced by the next call
// that needs one.
type Engine struct {
	cfg     Config
	ctx     context.Context // the calls' context (no deadline: CallWithStack allocates nothing)
	rt      wazero.Runtime
	cm      wazero.CompiledModule
	cache   wazero.CompilationCache
	slots   chan struct{} // one token per instance that may exist; held during a call
	done    chan struct{} // closed by Close
	closed  atomic.Bool
	mu      sync.Mutex
	idle    []*instance
	created atomic.Int64 // instances created, for tests
	once    sync.Once
	err     error // Close's result

	// largeIdle is the linear memory of the idle instances larger than
	// idleMemoryLimit (each one's instance.large), which
	// Config.WithIdleMemory bounds; under mu.
	largeIdle int64

	// analyzeOnly is set on the Engine of the analyze module, which
	// Analyze creates; analyzer is that Engine, created on the first
	// Analyze (or its error), once.
	analyzeOnly bool
	analyzer    struct {
		once sync.Once
		e    *Engine
		err  error
	}
}

// New compiles the module of cfg (the embedded one by default), creates one
// instance to check its ABI version and exports, and returns an Engine.
// ctx is used for compilation and start-up only.
//
// # Notes
//
//   - Measured on two shared cores: New takes about 0.75 s, of which
//     compiling is about 0.55 s (with two compilation workers) and the
//     first instance about 0.2 s; with a warm compilation cache
//     (Config.WithCompilationCacheDir) about 0.2 s, nearly all of it the
//     instance's start-up.
//   - An instance's start-up is wazero's instantiation (about 4 ms) plus
//     the module's _initialize (the Go runtime's start-up and the packages'
//     initialisation).
//   - Close the Engine to release its memory and compiled code.
func New(ctx context.Context, cfg Config) (*Engine, error) {
	wasm := cfg.module
	if wasm == nil {
		wasm = module.Bytes()
	}
	return newEngine(ctx, cfg, wasm, false)
}

// newEngine is New with the module's bytes, wasm: perfcalc.wasm, or the
// analyze module (analyzeOnly), whose exports are abi.AnalyzeModuleExports.
func newEngine(ctx context.Context, cfg Config, wasm []byte, analyzeOnly bool) (*Engine, error) {
	rc := wazero.NewRuntimeConfig()
	if cfg.memoryPages > 0 {
		rc = rc.WithMemoryLimitPages(cfg.memoryPages)
	}
	if cfg.timeout > 0 {
		rc = rc.WithCloseOnContextDone(true)
	}
	e := &Engine{cfg: cfg, ctx: context.Background(), done: make(chan struct{}), analyzeOnly: analyzeOnly}
	if cfg.cacheDir != "" {
		c, err := wazero.NewCompilationCacheWithDir(cfg.cacheDir)
		if err != nil {
			return nil, err
		}
		e.cache = c
		rc = rc.WithCompilationCache(c)
	}
	e.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	fail := func(err error) (*Engine, error) {
		e.rt.Close(ctx)
		if e.cache != nil {
			e.cache.Close(ctx)
		}
		return nil, err
	}
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, e.rt); err != nil {
		return fail(err)
	}
	cm, err := e.rt.CompileModule(experimental.WithCompilationWorkers(ctx, e.cfg.pool()), wasm)
	if err != nil {
		return fail(errors.Join(ErrModule, err))
	}
	e.cm = cm
	if err := checkExports(cm, analyzeOnly); err != nil {
		// Report a version mismatch before a missing export when the
		// module answers abi_version.
		if _, ok := cm.ExportedFunctions()[exports[fnABIVersion]]; ok {
			if inst, ierr := e.instantiate(ctx); ierr != nil {
				return fail(ierr)
			} else {
				inst.close(ctx)
			}
		}
		return fail(err)
	}
	n := cfg.pool()
	e.slots = make(chan struct{}, n)
	e.idle = make([]*instance, 0, n)
	inst, err := e.instantiate(ctx)
	if err != nil {
		return fail(err)
	}
	e.idle = append(e.idle, inst)
	return e, nil
}

// checkExports checks that the module exports every function of the ABI
// that it must (required) with its signature, and its memory.
func checkExports(cm wazero.CompiledModule, analyzeOnly bool) error {
	defs := cm.ExportedFunctions()
	for i, name := range exports {
		d, ok := defs[name]
		if !ok {
			if !required(i, analyzeOnly) {
				continue
			}
			return &moduleError{name, "is missing"}
		}
		params, results := signature(name)
		if sig(d.ParamTypes()) != params || sig(d.ResultTypes()) != results {
			return &moduleError{name, "has the signature (" + sig(d.ParamTypes()) + ") -> (" + sig(d.ResultTypes()) + "), want (" + params + ") -> (" + results + ")"}
		}
	}
	if _, ok := cm.ExportedMemories()["memory"]; !ok {
		return &moduleError{"memory", "is missing"}
	}
	return nil
}

// signature returns the signature that abi.Exports gives the export name,
// in sig's letters.
func signature(name string) (params, results string) {
	for _, x := range abi.Exports {
		if x.Name == name {
			return x.Signature()
		}
	}
	return "?", "?"
}

// sig writes value types as abi.Export.Signature does: 'i' i32, 'I' i64,
// 'F' f64.
func sig(ts []api.ValueType) string {
	var b strings.Builder
	for _, t := range ts {
		switch t {
		case api.ValueTypeI32:
			b.WriteByte('i')
		case api.ValueTypeI64:
			b.WriteByte('I')
		case api.ValueTypeF64:
			b.WriteByte('F')
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

// instance is one instance of the module with its cached exports, buffer
// addresses and call stack. It serves one call at a time.
type instance struct {
	mod    api.Module
	mem    api.Memory
	fn     [numFn]api.Function
	stack  [16]uint64 // CallWithStack's parameters and results: no allocation per call
	in     uint32     // address of the input buffer
	inCap  uint32
	out    uint32 // address of the output buffer
	outCap uint32
	errPtr uint32
	stderr *capped
	// large is the instance's memory while it is idle in the pool and
	// larger than idleMemoryLimit (counted in Engine.largeIdle), else 0.
	large int64
	// fault is set when the instance failed; it is then closed and
	// dropped instead of going back to the pool.
	fault bool
	// part is the part of a log that the instance's decode_blg and
	// relog_text read (log_part; 0, 0: the whole log).
	part [2]int64
	// maxColumns is the most columns of a log that the instance's log
	// exports accept (max_columns; abi.DefaultMaxColumns until set, 0: no
	// limit).
	maxColumns uint32
	// identity is the pairing that the instance's log exports use (the
	// identity export; identity.PDH until set).
	identity identity.Mode
	// ctx is the context of the current Engine call: the Engine's, or one
	// with the call's deadline, which cancel releases.
	ctx    context.Context
	cancel context.CancelFunc
}

// capped keeps the first bytes written to it (a panic's message comes
// first) and drops the rest.
type capped struct{ b []byte }

const stderrCap = 8 << 10

func (c *capped) Write(p []byte) (int, error) {
	if n := stderrCap - len(c.b); n > 0 {
		c.b = append(c.b, p[:min(n, len(p))]...)
	}
	return len(p), nil
}

// instantiate creates and starts an instance and reads its buffers.
func (e *Engine) instantiate(ctx context.Context) (*instance, error) {
	inst := &instance{stderr: &capped{}, maxColumns: abi.DefaultMaxColumns}
	mod, err := e.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, mmapAllocator), e.cm, wazero.NewModuleConfig().
		WithName(""). // anonymous: many instances of one compiled module
		WithStartFunctions("_initialize").
		WithStderr(inst.stderr).
		WithStdout(inst.stderr))
	if err != nil {
		if inst.stderr.b != nil {
			err = errors.Join(err, errors.New(strings.TrimSpace(string(inst.stderr.b))))
		}
		return nil, err
	}
	inst.mod, inst.mem = mod, mod.Memory()
	if f := mod.ExportedFunction(exports[fnABIVersion]); f != nil {
		if err := f.CallWithStack(ctx, inst.stack[:]); err != nil {
			mod.Close(ctx)
			return nil, err
		}
		if v := uint32(inst.stack[0]); v != ABIVersion {
			mod.Close(ctx)
			return nil, &versionError{v}
		}
	}
	for i, name := range exports {
		inst.fn[i] = mod.ExportedFunction(name)
		if inst.fn[i] == nil && required(i, e.analyzeOnly) {
			mod.Close(ctx)
			return nil, &moduleError{name, "is missing"}
		}
	}
	get := func(f int) uint32 {
		if err == nil {
			err = inst.fn[f].CallWithStack(ctx, inst.stack[:])
		}
		return uint32(inst.stack[0])
	}
	inst.in, inst.inCap = get(fnInPtr), get(fnInCap)
	inst.out, inst.outCap = get(fnOutPtr), get(fnOutCap)
	inst.errPtr = get(fnErrPtr)
	size := uint64(inst.mem.Size())
	if err == nil && (uint64(inst.in)+uint64(inst.inCap) > size || uint64(inst.out)+uint64(inst.outCap) > size ||
		uint64(inst.errPtr)+abi.ErrCap > size || inst.outCap < 2*abi.HeaderSize) {
		err = &moduleError{"in_ptr", "names buffers outside the module's memory"}
	}
	if err != nil {
		mod.Close(ctx)
		return nil, err
	}
	e.created.Add(1)
	return inst, nil
}

func (inst *instance) close(ctx context.Context) { inst.mod.Close(ctx) }

// get takes an instance for one call: an idle one, or a new one when the
// pool has room, or it waits for one. It fails with ErrClosed after Close.
func (e *Engine) get() (*instance, error) {
	if e.closed.Load() {
		return nil, ErrClosed
	}
	select {
	case e.slots <- struct{}{}:
	case <-e.done:
		return nil, ErrClosed
	}
	if e.closed.Load() {
		<-e.slots
		return nil, ErrClosed
	}
	var inst *instance
	e.mu.Lock()
	if n := len(e.idle); n > 0 {
		inst = e.idle[n-1]
		e.idle = e.idle[:n-1]
		e.largeIdle -= inst.large
		inst.large = 0
	}
	e.mu.Unlock()
	if inst == nil {
		var err error
		if inst, err = e.instantiate(e.ctx); err != nil {
			<-e.slots
			return nil, err
		}
	}
	// The deadline covers the whole Engine call (every page of a decode).
	inst.ctx = e.ctx
	if e.cfg.timeout > 0 {
		inst.ctx, inst.cancel = context.WithTimeout(e.ctx, e.cfg.timeout)
	}
	return inst, nil
}

// idleMemoryLimit is the largest linear memory an instance may keep in the
// pool whatever Config.WithIdleMemory allows: a pool of n such instances
// keeps at most n × 32 MiB idle. An instance that a large input grew beyond
// it is a large one: it goes back to the pool only while the large idle
// instances' memory stays within Config.WithIdleMemory's budget, and is
// otherwise closed after its call (its pages return to the system) and
// replaced when a call needs it.
const idleMemoryLimit = 32 << 20

// put returns an instance after a call, or discards it after a fault or
// when its memory grew beyond idleMemoryLimit and the budget of large idle
// instances (Config.WithIdleMemory) cannot hold it.
func (e *Engine) put(inst *instance) {
	if inst.cancel != nil {
		inst.cancel()
		inst.cancel = nil
	}
	keep := !inst.fault && !e.closed.Load()
	if keep {
		e.mu.Lock()
		size := int64(inst.mem.Size())
		switch {
		case size <= idleMemoryLimit:
			inst.large = 0
		case e.largeIdle+size <= e.cfg.idleMemory():
			inst.large = size
			e.largeIdle += size
		default:
			keep = false
		}
		if keep {
			e.idle = append(e.idle, inst)
		}
		e.mu.Unlock()
	}
	if !keep {
		inst.close(e.ctx)
	}
	<-e.slots
}

// call runs f with the instance's stack, within the deadline of the
// current Engine call. Any error from wazero is a fault:
// the instance is marked for discarding and the error says why.
func (e *Engine) call(inst *instance, f int) error {
	ctx := inst.ctx
	if ctx == nil {
		ctx = e.ctx
	}
	if inst.fn[f] == nil {
		return &Error{Op: exports[f], Code: CodeUnsupported, Text: "perfcalc host: the module lacks the export " + exports[f] + " (an older perfcalc.wasm)"}
	}
	if err := inst.fn[f].CallWithStack(ctx, inst.stack[:]); err != nil {
		return inst.faulted(exports[f], err)
	}
	return nil
}

// faulted marks the instance failed and classifies err.
func (inst *instance) faulted(op string, err error) error {
	inst.fault = true
	stderr := string(inst.stderr.b)
	fe := &FaultError{Op: op, Fault: Trap, Stderr: stderr, Err: err}
	var exit *sys.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == sys.ExitCodeDeadlineExceeded:
		fe.Fault = Timeout
	case errors.As(err, &exit) && exit.ExitCode() == sys.ExitCodeContextCanceled:
		fe.Fault = Timeout
	case strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "cannot allocate memory"):
		fe.Fault = OutOfMemory
	case strings.HasPrefix(stderr, "panic: ") || strings.Contains(stderr, "\npanic: "):
		fe.Fault = Panic
	case errors.As(err, &exit):
		fe.Fault = Exit
	}
	return fe
}

// violation marks the instance failed because its result broke the ABI.
func (inst *instance) violation(op, what string) error {
	inst.fault = true
	return &FaultError{Op: op, Fault: Protocol, Stderr: string(inst.stderr.b), Err: errors.New(what)}
}

// Close waits for the calls in progress to return (or for ctx to be done),
// then closes every instance, the compiled module and the runtime. Calls
// after Close return ErrClosed. Close may be called more than once.
func (e *Engine) Close(ctx context.Context) error {
	e.once.Do(func() {
		e.closed.Store(true)
		close(e.done)
	wait:
		for i := 0; i < cap(e.slots); i++ {
			select {
			case e.slots <- struct{}{}:
			case <-ctx.Done():
				break wait
			}
		}
		e.mu.Lock()
		for _, inst := range e.idle {
			inst.close(ctx)
		}
		e.idle = nil
		e.mu.Unlock()
		// No analyze module after Close; one created before closes too.
		e.analyzer.once.Do(func() { e.analyzer.err = ErrClosed })
		if a := e.analyzer.e; a != nil {
			e.err = a.Close(ctx)
		}
		e.err = errors.Join(e.err, e.rt.Close(ctx))
		if e.cache != nil {
			e.err = errors.Join(e.err, e.cache.Close(ctx))
		}
	})
	return e.err
}

// Instances returns the number of instances created so far, replacements
// included (for tests and monitoring).
func (e *Engine) Instances() int { return int(e.created.Load()) }
