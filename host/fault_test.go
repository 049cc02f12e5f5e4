package host

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// faultCache is the compilation cache of the fault tests' engines: one
// fixed directory, reused from run to run rather than left behind per run.
var faultCache = filepath.Join(os.TempDir(), "perfcalc-host-test-cache")

func faultEngine(t *testing.T, cfg Config) *Engine {
	t.Helper()
	e, err := New(context.Background(), cfg.WithCompilationCacheDir(faultCache).WithPoolSize(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// healthy checks that the engine still computes, and returns how many
// instances it has created.
func healthy(t *testing.T, e *Engine) int {
	t.Helper()
	in := engine.Input{Counter: engine.Counter{Type: engine.RawFraction}, New: engine.RawCounter{FirstValue: 1, SecondValue: 8}}
	if r, err := e.Compute(&in, 0); err != nil || r.Value != 12.5 || r.Status != engine.Valid {
		t.Fatalf("the next call: have %v, %v; want 12.5 Valid", r, err)
	}
	return e.Instances()
}

// bigNameTable is a valid name table of about n bytes: decoding it makes the
// module allocate about 2.5 times its size.
func bigNameTable(t testing.TB, n int) []byte {
	var nt encode.NameTable
	text := strings.Repeat("A long counter name, ", 6)
	for i, size := 2, 0; size < n; i += 2 {
		nt.Pairs = append(nt.Pairs, encode.NameTablePair{Index: uint32(i), Text: text + strconv.Itoa(i)})
		size += 2 * (len(text) + 16)
	}
	b, err := encode.EncodeNameTable(&nt)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHostilePointers calls the raw exports with offsets and lengths outside
// the module's buffers, overflowing sums included: each returns ErrBounds
// (or ErrArgument) with a text, and the instance keeps working.
func TestHostilePointers(t *testing.T) {
	e := faultEngine(t, NewConfig())
	inst, err := e.get()
	if err != nil {
		t.Fatal(err)
	}
	const max = math.MaxUint32
	in, out := uint64(inst.inCap), uint64(inst.outCap)
	for _, tc := range []struct {
		name string
		fn   int
		args []uint64
		want Code
	}{
		{"batch past the input", fnComputeBatch, []uint64{in - abi.ReqSize + 1, 1, 0}, CodeBounds},
		{"batch count overflow", fnComputeBatch, []uint64{0, max, 0}, CodeBounds},
		{"batch past the output", fnComputeBatch, []uint64{0, 2, out - abi.ResSize}, CodeBounds},
		{"batch offset wraps", fnComputeBatch, []uint64{max, 2, 0}, CodeBounds},
		{"v1 past the input", fnDecodeV1, []uint64{in, 1, 0, 0, 0, 0}, CodeBounds},
		{"v1 length wraps", fnDecodeV1, []uint64{8, max - 4, 0, 0, 0, 0}, CodeBounds},
		{"v1 names past the input", fnDecodeV1, []uint64{0, 0, max, 16, 0, 0}, CodeBounds},
		{"v1 reserved option", fnDecodeV1, []uint64{0, 0, 0, 0, 1 << 8, 0}, CodeArgument},
		{"v2 registration wraps", fnDecodeV2, []uint64{0, 0, 1, max, 0, 0, 0, 0, 0, 0}, CodeBounds},
		{"v2 ids overflow", fnDecodeV2, []uint64{0, 0, 0, 0, 0, 0, 0, max, 0, 0}, CodeBounds},
		{"names past the input", fnDecodeNames, []uint64{in - 1, 2, 0}, CodeBounds},
		{"blg patterns wrap", fnDecodeBlg, []uint64{0, 0, max, max, 0, 0, 0, 0}, CodeBounds},
		{"blg every too large", fnDecodeBlg, []uint64{0, 0, 0, 0, 0, 0, 1<<30 + 1, 0}, CodeArgument},
		{"query descriptor past the input", fnQuery, []uint64{in - abi.QuerySize + 1, 0, 0}, CodeBounds},
		{"relog bad format", fnRelogText, []uint64{0, 0, 0, 0, 0, 0, 0, abi.FormatBin + 1}, CodeArgument},
	} {
		clear(inst.stack[:])
		copy(inst.stack[:], tc.args)
		if err := e.call(inst, tc.fn); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		rc := Code(int32(uint32(inst.stack[0])))
		text := inst.errorText(e)
		if rc != tc.want || text == "" {
			t.Errorf("%s: have %v %q, want %v with a text", tc.name, rc, text, tc.want)
		}
	}
	// A query descriptor whose regions lie outside the input buffer.
	desc, _ := inst.mem.Read(inst.in, abi.QuerySize)
	clear(desc)
	abi.PutRegion(desc, abi.QueryNewer, math.MaxUint32, 2) // newer at 2^32−1
	clear(inst.stack[:])
	if err := e.call(inst, fnQuery); err != nil || Code(int32(uint32(inst.stack[0]))) != CodeBounds {
		t.Errorf("query region outside: have %d, %v", int32(uint32(inst.stack[0])), err)
	}
	if inst.fault {
		t.Fatal("an error code marked the instance failed")
	}
	e.put(inst)
	if n := healthy(t, e); n != 1 {
		t.Errorf("hostile arguments replaced the instance: %d instances", n)
	}
}

// TestTrapReplacesInstance corrupts an instance's memory (the Go runtime's
// heap and stacks) so that its next call traps: the caller gets a
// *FaultError, the instance is discarded, and the next call succeeds on a
// new one. (The shipped ABI offers no export that panics without
// recovering, so corrupting memory is how a trap is forced here;
// TestDebugFaults forces a panic through the debug module.)
func TestTrapReplacesInstance(t *testing.T) {
	e := faultEngine(t, NewConfig().WithCallTimeout(5*time.Second))
	inst, err := e.get()
	if err != nil {
		t.Fatal(err)
	}
	heap := inst.in + inst.inCap
	mem, ok := inst.mem.Read(heap, inst.mem.Size()-heap)
	if !ok {
		t.Fatal("cannot read the heap")
	}
	for i := range mem {
		mem[i] = 0xA5
	}
	low, _ := inst.mem.Read(0, inst.errPtr)
	for i := range low {
		low[i] = 0xA5
	}
	e.put(inst)
	g1 := bigNameTable(t, 1<<10)
	_, err = e.DecodeNames(g1)
	var fe *FaultError
	if !errors.As(err, &fe) || (fe.Fault != Trap && fe.Fault != Panic && fe.Fault != Timeout) {
		t.Fatalf("call on a corrupted instance: have %v, want a *FaultError", err)
	}
	t.Logf("fault: %v", err)
	if n := healthy(t, e); n != 2 {
		t.Errorf("have %d instances, want 2 (the failed one replaced)", n)
	}
}

// TestOutOfMemory decodes a name table that needs more memory than the
// limit allows (the module uses 235 pages after start-up): the call fails
// with OutOfMemory, and the next succeeds.
func TestOutOfMemory(t *testing.T) {
	table := bigNameTable(t, 3<<20)
	e := faultEngine(t, NewConfig().WithMemoryLimitPages(240))
	_, err := e.DecodeNames(table)
	var fe *FaultError
	if !errors.As(err, &fe) || fe.Fault != OutOfMemory || !strings.Contains(fe.Stderr, "out of memory") {
		t.Fatalf("have %v, want an OutOfMemory *FaultError", err)
	}
	if ErrorCode(err) != 0 {
		t.Errorf("ErrorCode of a fault: have %v, want 0", ErrorCode(err))
	}
	if !strings.Contains(err.Error(), "decode_names: out of memory (instance discarded)") {
		t.Errorf("text %q does not name the call and the fault", err)
	}
	if n := healthy(t, e); n != 2 {
		t.Errorf("have %d instances, want 2", n)
	}
}

// TestDeadline runs a long decode past a short per-call deadline: the call
// fails with Timeout (and context.DeadlineExceeded), and the next succeeds.
func TestDeadline(t *testing.T) {
	table := bigNameTable(t, 3<<20)
	e := faultEngine(t, NewConfig().WithCallTimeout(20*time.Millisecond))
	start := time.Now()
	_, err := e.DecodeNames(table)
	var fe *FaultError
	if !errors.As(err, &fe) || fe.Fault != Timeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("have %v, want a Timeout *FaultError", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the deadline of 20ms stopped the call after %v", d)
	}
	if n := healthy(t, e); n != 2 {
		t.Errorf("have %d instances, want 2", n)
	}
}

// TestFaultClassification checks how errors and stderr are classified
// (the panic case cannot be provoked through the shipped ABI: every export
// recovers; TestDebugFaults provokes it with the debug module).
func TestFaultClassification(t *testing.T) {
	for _, tc := range []struct {
		stderr string
		want   Fault
	}{
		{"panic: assignment to entry in nil map\n\ngoroutine 1 [running]:\n", Panic},
		{"runtime: out of memory: cannot allocate 16777216-byte block (1 in use)\nfatal error: out of memory\n", OutOfMemory},
		{"fatal error: all goroutines are asleep - deadlock!\n", Trap},
		{"", Trap},
	} {
		inst := &instance{stderr: &capped{b: []byte(tc.stderr)}}
		err := inst.faulted("compute", errors.New("wasm error: unreachable"))
		var fe *FaultError
		if !errors.As(err, &fe) || fe.Fault != tc.want || !inst.fault {
			t.Errorf("%q: have %v, want %v", tc.stderr, err, tc.want)
		}
	}
	c := &capped{}
	c.Write(make([]byte, stderrCap+100))
	if len(c.b) != stderrCap {
		t.Errorf("stderr kept %d bytes, want %d", len(c.b), stderrCap)
	}
}

// TestOptionalExport checks that a module without relog_stats (one older
// than the export) is still loaded, and that RelogStats then returns an
// *Error with CodeUnsupported while the other calls work.
func TestOptionalExport(t *testing.T) {
	e := faultEngine(t, NewConfig().WithPoolSize(1))
	inst, err := e.get()
	if err != nil {
		t.Fatal(err)
	}
	inst.fn[fnRelogStats] = nil // as instantiate leaves it for such a module
	e.put(inst)
	_, err = e.RelogStats(nil, relog.Options{})
	var he *Error
	if !errors.As(err, &he) || he.Code != CodeUnsupported || !strings.Contains(he.Text, "relog_stats") {
		t.Fatalf("RelogStats without the export: %v", err)
	}
	if n := healthy(t, e); n != 1 {
		t.Errorf("the instance was replaced: %d instances", n)
	}
}
