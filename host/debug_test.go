package host

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine"
)

// The kinds of the debug module's debug_fault export (wasm/debug.go).
const (
	debugPanic     = 0 // a panic that no recover catches: the module traps
	debugRecovered = 1 // a panic recovered by the facade: ErrPanic
	debugAlloc     = 2 // allocates without bound
	debugSpin      = 3 // loops forever
)

// buildDebugModule builds ./wasm with -tags perfcalcdebug and the flags of
// the Makefile's wasm target into dir, and returns its bytes. A failed
// build fails the test with the build's output.
func buildDebugModule(t *testing.T, dir string) []byte {
	t.Helper()
	// The go command of GOROOT (go test sets it for the toolchain that
	// runs the test), else the one on PATH.
	gobin := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if os.Getenv("GOROOT") == "" || !fileExists(gobin) {
		p, err := exec.LookPath("go")
		if err != nil {
			t.Fatalf("building the debug module: no go command: %v", err)
		}
		gobin = p
	}
	out := filepath.Join(dir, "perfcalc-debug.wasm")
	cmd := exec.Command(gobin, "build", "-tags", "perfcalcdebug",
		"-buildmode=c-shared", "-trimpath", "-ldflags=-s -w -buildid=", "-buildvcs=false",
		"-o", out, "./wasm")
	cmd.Dir = ".." // the module's root: the test runs in host/
	// GOFLAGS is cleared so that flags meant for the test (-race, …) do not
	// reach a wasip1 build.
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0", "GOFLAGS=")
	start := time.Now()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the debug module (%s): %v\n%s", strings.Join(cmd.Args, " "), err, b)
	}
	t.Logf("built the debug module in %v", time.Since(start).Round(time.Millisecond))
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// debugCall calls the debug module's debug_fault(kind) on an instance of
// e's pool, as Engine.call and guestError do for the ABI's exports: a wazero
// error becomes a *FaultError, a negative result an *Error. It returns the
// instance it used (already back in the pool, or discarded).
func debugCall(t *testing.T, e *Engine, kind uint32) (*instance, error) {
	t.Helper()
	inst, err := e.get()
	if err != nil {
		t.Fatal(err)
	}
	defer e.put(inst)
	fn := inst.mod.ExportedFunction("debug_fault")
	if fn == nil {
		t.Fatal("the debug module does not export debug_fault")
	}
	clear(inst.stack[:])
	inst.stack[0] = uint64(kind)
	ctx := inst.ctx
	if ctx == nil {
		ctx = e.ctx
	}
	if err := fn.CallWithStack(ctx, inst.stack[:]); err != nil {
		return inst, inst.faulted("debug_fault", err)
	}
	if rc := int32(uint32(inst.stack[0])); rc < 0 {
		return inst, inst.guestError(e, "debug_fault", rc)
	}
	return inst, nil
}

// sameAsNative checks that e computes a few values of several types as the
// native engine does, bit for bit.
func sameAsNative(t *testing.T, e *Engine) {
	t.Helper()
	ins := []engine.Input{
		{Counter: engine.Counter{Type: engine.RawFraction}, New: engine.RawCounter{FirstValue: 1, SecondValue: 8}},
		{Counter: engine.Counter{Type: engine.CounterCounter, TimeBase: 10_000_000}, HasOld: true,
			Old: engine.RawCounter{FirstValue: 100, SecondValue: 1_000_000_000},
			New: engine.RawCounter{FirstValue: 1100, SecondValue: 1_010_000_000}},
		{Counter: engine.Counter{Type: engine.Timer100nsInv}, HasOld: true,
			Old: engine.RawCounter{FirstValue: 5_000, SecondValue: 10_000},
			New: engine.RawCounter{FirstValue: 7_500, SecondValue: 20_000}},
		{Counter: engine.Counter{Type: engine.CounterType(0xFFFFFFFF)}},
	}
	for i := range ins {
		want := engine.Compute(&ins[i], engine.Cap100|engine.Scale)
		have, err := e.Compute(&ins[i], engine.Cap100|engine.Scale)
		if err != nil || math.Float64bits(have.Value) != math.Float64bits(want.Value) || have.Status != want.Status {
			t.Fatalf("the next Compute, input %d: have %v, %v; want %v (native)", i, have, err, want)
		}
	}
}

// afterFault checks that the failed instance was discarded and that the
// next calls succeed on a new one, equal to the native engine.
func afterFault(t *testing.T, e *Engine, inst *instance) {
	t.Helper()
	if !inst.fault || !inst.mod.IsClosed() {
		t.Errorf("the failed instance was kept (fault %v, closed %v)", inst.fault, inst.mod.IsClosed())
	}
	if n := e.Instances(); n != 1 {
		t.Errorf("before the next call: %d instances, want 1", n)
	}
	sameAsNative(t, e)
	if n := e.Instances(); n != 2 {
		t.Errorf("after the next call: %d instances, want 2 (the failed one replaced)", n)
	}
}

// TestDebugFaults builds the test-only debug module (wasm/debug.go, -tags
// perfcalcdebug) and forces, through its debug_fault export, the failures
// that the shipped ABI cannot provoke: an unrecovered Go panic, a recovered
// one, unbounded allocation under a memory limit, and an endless loop under
// a deadline. Each gives its error, and the next call on the same Engine
// succeeds on a new instance.
func TestDebugFaults(t *testing.T) {
	if bytes.Contains(Module(), []byte("debug_fault")) {
		t.Fatal("the shipped module contains debug_fault")
	}
	mod := buildDebugModule(t, t.TempDir())
	if !bytes.Contains(mod, []byte("debug_fault")) {
		t.Fatal("the debug module lacks debug_fault")
	}
	cfg := NewConfig().WithModule(mod)

	t.Run("UnknownKind", func(t *testing.T) {
		e := faultEngine(t, cfg)
		inst, err := debugCall(t, e, 9)
		var ge *Error
		if !errors.As(err, &ge) || ge.Code != CodeArgument || ge.Text != "perfcalc debug: debug_fault: unknown kind" {
			t.Fatalf("have %v, want an *Error with CodeArgument", err)
		}
		if inst.fault || inst.mod.IsClosed() {
			t.Error("an error code discarded the instance")
		}
		sameAsNative(t, e)
		if n := e.Instances(); n != 1 {
			t.Errorf("%d instances, want 1", n)
		}
	})

	t.Run("Panic", func(t *testing.T) {
		e := faultEngine(t, cfg)
		inst, err := debugCall(t, e, debugPanic)
		t.Logf("error: %v", err)
		var fe *FaultError
		if !errors.As(err, &fe) || fe.Fault != Panic {
			t.Fatalf("have %v, want a Panic *FaultError", err)
		}
		t.Logf("wazero: %v", firstLine(fe.Err.Error()))
		t.Logf("stderr: %q", fe.Stderr)
		if !strings.HasPrefix(fe.Stderr, "panic: perfcalc debug: forced panic (debug_fault 0)") {
			t.Errorf("stderr %q lacks the guest's panic", fe.Stderr)
		}
		if !strings.Contains(err.Error(), "debug_fault: panic (instance discarded)") {
			t.Errorf("text %q does not name the call and the fault", err)
		}
		if ErrorCode(err) != 0 {
			t.Errorf("ErrorCode of a fault: have %v, want 0", ErrorCode(err))
		}
		afterFault(t, e, inst)
	})

	t.Run("RecoveredPanic", func(t *testing.T) {
		e := faultEngine(t, cfg)
		inst, err := debugCall(t, e, debugRecovered)
		t.Logf("error: %v", err)
		var ge *Error
		if !errors.As(err, &ge) || ge.Code != CodePanic || ge.Op != "debug_fault" {
			t.Fatalf("have %v, want an *Error with CodePanic", err)
		}
		if ge.Text != "perfcalc: panic: perfcalc debug: forced panic (debug_fault 1)" {
			t.Errorf("text %q, want the recovered panic's", ge.Text)
		}
		var fe *FaultError
		if errors.As(err, &fe) {
			t.Errorf("a recovered panic gave a *FaultError: %v", err)
		}
		if ErrorCode(err) != CodePanic {
			t.Errorf("ErrorCode: have %v, want %v", ErrorCode(err), CodePanic)
		}
		// The host discards an instance after ErrPanic, although the ABI
		// says it stays usable (guestError).
		afterFault(t, e, inst)
	})

	t.Run("OutOfMemory", func(t *testing.T) {
		e := faultEngine(t, cfg.WithMemoryLimitPages(300))
		inst, err := debugCall(t, e, debugAlloc)
		t.Logf("error: %v", err)
		var fe *FaultError
		if !errors.As(err, &fe) || fe.Fault != OutOfMemory {
			t.Fatalf("have %v, want an OutOfMemory *FaultError", err)
		}
		t.Logf("wazero: %v", firstLine(fe.Err.Error()))
		t.Logf("stderr: %q", firstLine(fe.Stderr))
		if !strings.Contains(fe.Stderr, "out of memory") {
			t.Errorf("stderr %q does not say out of memory", fe.Stderr)
		}
		if !strings.Contains(err.Error(), "debug_fault: out of memory (instance discarded)") {
			t.Errorf("text %q does not name the call and the fault", err)
		}
		afterFault(t, e, inst)
	})

	t.Run("Timeout", func(t *testing.T) {
		e := faultEngine(t, cfg.WithCallTimeout(100*time.Millisecond))
		start := time.Now()
		inst, err := debugCall(t, e, debugSpin)
		d := time.Since(start)
		t.Logf("error after %v: %v", d.Round(time.Millisecond), err)
		var fe *FaultError
		if !errors.As(err, &fe) || fe.Fault != Timeout || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("have %v, want a Timeout *FaultError", err)
		}
		if d > 5*time.Second {
			t.Errorf("the deadline of 100ms stopped the call after %v", d)
		}
		if !strings.Contains(err.Error(), "debug_fault: timeout (instance discarded)") {
			t.Errorf("text %q does not name the call and the fault", err)
		}
		afterFault(t, e, inst)
	})
}
