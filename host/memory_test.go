package host

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// TestLargeInstanceRetired: without a budget for large idle instances
// (WithIdleMemory(0)), an instance whose memory a large input grew beyond
// idleMemoryLimit is closed after its call instead of going back to the
// pool, and the next call gets a new one that computes as well.
func TestLargeInstanceRetired(t *testing.T) {
	e := faultEngine(t, NewConfig().WithIdleMemory(0))
	// A name table of zeros is an empty table: the module copies it in and
	// reads it at once.
	if _, err := e.DecodeNames(make([]byte, 1<<20)); err != nil {
		t.Fatal(err)
	}
	if len(e.idle) != 1 || e.idle[0].mem.Size() > idleMemoryLimit {
		t.Fatalf("after a small input: %d idle instances, want 1 within the limit", len(e.idle))
	}
	if _, err := e.DecodeNames(make([]byte, 24<<20)); err != nil {
		t.Fatal(err)
	}
	if len(e.idle) != 0 {
		t.Fatalf("after a large input: %d idle instances of %d bytes, want the instance closed", len(e.idle), e.idle[0].mem.Size())
	}
	if n := healthy(t, e); n != 2 {
		t.Errorf("have %d instances, want 2", n)
	}
}

// TestLargeInstanceKept: within WithIdleMemory's budget (the default), an
// instance that a large input grew beyond idleMemoryLimit goes back to the
// pool, and the next large input reuses it and its memory: no new
// instance, no growth (the module keeps its large input buffer, the host
// does not ask for a smaller one). One that does not fit the budget is
// closed, and the budget is given back when a kept one is taken.
func TestLargeInstanceKept(t *testing.T) {
	e := faultEngine(t, NewConfig())
	input := make([]byte, 24<<20)
	if _, err := e.DecodeNames(input); err != nil {
		t.Fatal(err)
	}
	if len(e.idle) != 1 || e.idle[0].mem.Size() <= idleMemoryLimit || e.largeIdle != int64(e.idle[0].mem.Size()) {
		t.Fatalf("after a large input: %d idle instances, %d bytes counted, want the large one kept and counted", len(e.idle), e.largeIdle)
	}
	size := e.idle[0].mem.Size()
	for range 3 {
		if _, err := e.DecodeNames(input); err != nil {
			t.Fatal(err)
		}
	}
	if len(e.idle) != 1 || e.idle[0].mem.Size() != size || e.Instances() != 1 {
		t.Fatalf("after three more: %d idle, memory %d bytes (was %d), %d instances; want the same instance and memory",
			len(e.idle), e.idle[0].mem.Size(), size, e.Instances())
	}
	// A small call takes it (and gives the budget back), and returns it.
	if n := healthy(t, e); n != 1 || e.largeIdle != int64(size) {
		t.Errorf("after a small call: %d instances, %d bytes counted, want 1 and %d", n, e.largeIdle, size)
	}

	// A budget smaller than the instance: closed after its call.
	small := faultEngine(t, NewConfig().WithIdleMemory(int64(size)-1))
	if _, err := small.DecodeNames(input); err != nil {
		t.Fatal(err)
	}
	if len(small.idle) != 0 || small.largeIdle != 0 {
		t.Fatalf("over the budget: %d idle instances, %d bytes counted, want none", len(small.idle), small.largeIdle)
	}

	// Two instances, a budget for one and a half: the first large one is
	// kept, the second (while the first is idle) closed after its call.
	two, err := New(t.Context(), NewConfig().WithCompilationCacheDir(faultCache).WithPoolSize(2).WithIdleMemory(int64(size)*3/2))
	if err != nil {
		t.Fatal(err)
	}
	defer two.Close(t.Context())
	a, err := two.get()
	if err != nil {
		t.Fatal(err)
	}
	b, err := two.get()
	if err != nil {
		t.Fatal(err)
	}
	two.put(a)
	if _, err := two.DecodeNames(input); err != nil {
		t.Fatal(err)
	}
	two.put(b) // idle: a (large), then b, which the next call takes
	if _, err := two.DecodeNames(input); err != nil {
		t.Fatal(err)
	}
	if len(two.idle) != 1 || two.idle[0] != a || two.largeIdle != int64(a.mem.Size()) || two.Instances() != 2 {
		t.Fatalf("two large instances, a budget for one: %d idle (the first kept: %v), %d bytes counted, %d instances",
			len(two.idle), len(two.idle) > 0 && two.idle[0] == a, two.largeIdle, two.Instances())
	}
}

// TestMappedMemory: the mapped linear memory grows in place up to its
// maximum and refuses more.
func TestMappedMemory(t *testing.T) {
	if mmapAllocator == nil {
		t.Skip("no mapped memory on " + runtime.GOOS)
	}
	m := mmapAllocator.Allocate(1<<16, 64<<20)
	defer m.Free()
	a := m.Reallocate(1 << 16)
	a[0] = 7
	b := m.Reallocate(32 << 20)
	if len(b) != 32<<20 || unsafe.SliceData(a) != unsafe.SliceData(b) || b[0] != 7 {
		t.Fatalf("growing moved or lost the memory")
	}
	if m.Reallocate(64<<20+1) != nil {
		t.Fatal("grew past the maximum")
	}
}

// TestPooledInstanceMemory measures the resident memory of idle pooled
// instances (Linux): a pool of eight under a 64 MiB limit, each instance
// fresh, then after a call that copied a 1 MB or a 12 MB input into it
// (the largest that stays in the pool). The figures are in
// Config.WithPoolSize's notes; the test fails above 40 MB per instance.
func TestPooledInstanceMemory(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("a measurement on Linux")
	}
	e, err := New(t.Context(), NewConfig().WithCompilationCacheDir(faultCache).WithPoolSize(8).WithMemoryLimitPages(1024))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(t.Context())
	debug.FreeOSMemory()
	base := rss(t)
	// Take every slot, creating the instances; then run each call on one
	// chosen instance by making it the only idle one.
	held := make([]*instance, 8)
	for i := range held {
		if held[i], err = e.get(); err != nil {
			t.Fatal(err)
		}
	}
	measure := func(what string) {
		debug.FreeOSMemory()
		per := float64(rss(t)-base) / 7 // one instance existed at base
		t.Logf("%s: %.1f MB resident per instance", what, per/(1<<20))
		if per > 40<<20 {
			t.Errorf("%s: %.1f MB per instance, want at most 40", what, per/(1<<20))
		}
	}
	measure("8 fresh instances")
	for _, size := range []int{1 << 20, 12 << 20} {
		input := make([]byte, size)
		for i, inst := range held {
			e.put(inst)
			if _, err := e.DecodeNames(input); err != nil {
				t.Fatal(err)
			}
			if held[i], err = e.get(); err != nil || held[i] != inst {
				t.Fatalf("the instance did not come back to the pool (%d bytes of memory)", inst.mem.Size())
			}
		}
		measure("8 instances after a " + strconv.Itoa(size>>20) + " MB input each")
	}
	for _, inst := range held {
		e.put(inst)
	}
}

// TestLargeIdleInstanceMemory measures the resident memory that a large
// instance keeps idle in the pool (Linux): the 42 MB log (the real Tx log
// repeated 160 times) converted to CSV and its statistics taken, on an
// Engine with the default budget (DefaultIdleMemory: the instance is kept)
// and on one with WithIdleMemory(0) (closed after each call). The figures
// are in Config.WithIdleMemory's notes and doc/PERFORMANCE.md; the test
// fails when a kept instance's resident memory exceeds its linear memory
// by more than 16 MiB, or when an instance closed after its call leaves
// more than 32 MiB resident.
func TestLargeIdleInstanceMemory(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("a measurement on Linux")
	}
	tx, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), "Tx_BasicPerfCounters.blg"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := gencorpus.NewRepeatedLog(tx, 160)
	if err != nil {
		t.Fatal(err)
	}
	log := l.Bytes()
	for _, c := range []struct {
		name   string
		budget int64
	}{{"default budget", DefaultIdleMemory}, {"budget 0", 0}} {
		e := faultEngine(t, NewConfig().WithIdleMemory(c.budget))
		debug.FreeOSMemory()
		base := rss(t)
		for _, work := range []string{"relog CSV", "relog_stats"} {
			var err error
			if work == "relog CSV" {
				_, err = e.RelogText(log, relog.Options{}, relog.CSV)
			} else {
				_, err = e.RelogStats(log, relog.Options{})
			}
			if err != nil {
				t.Fatal(err)
			}
			debug.FreeOSMemory()
			more := rss(t) - base
			kept := int64(0)
			if len(e.idle) == 1 {
				kept = int64(e.idle[0].mem.Size())
			}
			t.Logf("%s, after %s of the %d MB log: %.1f MB more resident; %d idle, %.1f MiB of linear memory kept",
				c.name, work, len(log)/1e6, float64(more)/1e6, len(e.idle), float64(kept)/(1<<20))
			switch {
			case c.budget > 0 && kept == 0:
				t.Errorf("%s: the instance was not kept", c.name)
			case c.budget > 0 && more > kept+16<<20:
				t.Errorf("%s: %d bytes more resident, its linear memory %d", c.name, more, kept)
			case c.budget == 0 && (kept != 0 || more > 32<<20):
				t.Errorf("%s: %d bytes more resident, %d kept; want the instance closed", c.name, more, kept)
			}
		}
	}
}

// rss returns the process's resident set size (VmRSS).
func rss(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := bytes.Cut(b, []byte("VmRSS:"))
	line, _, _ := bytes.Cut(after, []byte("kB"))
	kb, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return kb << 10
}

// TestTruncationReported: a log shorter than its header says (the real Tx
// log cut after 3 of its 6 buffers) gives, through the module, the rows
// before the cut and the native damage's text (issue 12), which the JS and
// Python packages show as they get it.
func TestTruncationReported(t *testing.T) {
	tx, err := os.ReadFile(filepath.Join(filepath.Dir(corpus.Root()), "shared", "corpus", "blg", "Tx_BasicPerfCounters.blg"))
	if err != nil {
		t.Skip("../shared/corpus is absent")
	}
	cut := tx[:196608]
	e := faultEngine(t, NewConfig())
	have, herr := e.DecodeBlg(cut, relog.Options{})
	want, werr := Native{}.DecodeBlg(cut, relog.Options{})
	if herr != nil || werr != nil {
		t.Fatalf("host %v, native %v", herr, werr)
	}
	if have.Damage == nil || want.Damage == nil || have.Damage.Error() != want.Damage.Error() ||
		!strings.Contains(want.Damage.Error(), "3 of the 6 buffers that its header counts (BuffersWritten) are whole") {
		t.Fatalf("damage: host %v, native %v", have.Damage, want.Damage)
	}
	if have.Rows != 248 || want.Rows != 248 || len(have.Records) != len(want.Records) {
		t.Errorf("rows: host %d (%d records), native %d (%d records), want 248", have.Rows, len(have.Records), want.Rows, len(want.Records))
	}
	text, err := e.RelogText(cut, relog.Options{}, relog.CSV)
	if err == nil || !strings.Contains(err.Error(), "3 of the 6 buffers") || bytes.Count(text, []byte("\r\n")) != 249 {
		t.Errorf("relog_text: %d lines, %v", bytes.Count(text, []byte("\r\n")), err)
	}
}
