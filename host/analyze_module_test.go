package host

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// availableLog returns a small .blg log of \\M\Memory\Available MBytes,
// one sample a minute at 100, 50, 20 and 10 MB (perfcalc's default
// analyses alert on it).
func availableLog() []byte {
	const start = 130_057_734_178_440_000
	l := blgbuild.New(64<<10, start)
	c := blgbuild.Counter{Type: 0x10000, Machine: `\\M`, Object: "Memory", Counter: "Available MBytes"}
	l.Record(blgbuild.EventCounterList, start, blgbuild.AppendCounterList(nil, c), blgbuild.MaxEventData)
	for i, v := range []uint64{100, 50, 20, 10} {
		ts := start + int64(i)*600_000_000
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, v), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// TestAnalyzeModuleLazy: New does not load the analyze module; the first
// Analyze does (an Engine of its own, analyzeOnly, with the Engine's pool
// size), and the next ones reuse it; the reports are the native ones.
// Close closes it too, and Analyze after Close is ErrClosed.
func TestAnalyzeModuleLazy(t *testing.T) {
	e := faultEngine(t, NewConfig())
	if e.analyzer.e != nil || e.analyzer.err != nil {
		t.Fatal("New loaded the analyze module")
	}
	log := availableLog()
	want, err := Native{}.Analyze(log, &AnalyzeConfig{})
	if err != nil || !bytes.Contains(want, []byte(`"alerts":[{`)) {
		t.Fatalf("Native.Analyze: %v, %q; want a report with alerts", err, want)
	}
	var first *Engine
	for i := range 2 {
		have, err := e.Analyze(log, &AnalyzeConfig{})
		if err != nil || !bytes.Equal(have, want) {
			t.Errorf("Analyze %d: %v, %d bytes; want the native report's %d bytes", i, err, len(have), len(want))
		}
		a := e.analyzer.e
		if a == nil || !a.analyzeOnly || a.cfg.pool() != 1 || (first != nil && a != first) {
			t.Fatalf("Analyze %d: the analyze module's Engine is %p (analyzeOnly %v), after %p; want one, made once, with a pool of 1", i, a, a != nil && a.analyzeOnly, first)
		}
		first = a
	}
	if first.Instances() != 1 || e.Instances() != 1 {
		t.Errorf("instances: %d of the analyze module, %d of perfcalc.wasm; want 1 and 1", first.Instances(), e.Instances())
	}
	// perfcalc.wasm itself has no analyze: the call goes nowhere else.
	inst, err := e.get()
	if err != nil {
		t.Fatal(err)
	}
	if inst.fn[fnAnalyze] != nil {
		t.Error("perfcalc.wasm exports analyze")
	}
	e.put(inst)
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !first.closed.Load() {
		t.Error("Close left the analyze module's Engine open")
	}
	if _, err := e.Analyze(log, &AnalyzeConfig{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Analyze after Close: %v, want ErrClosed", err)
	}
}

// TestAnalyzeModuleNotLoaded: an Engine closed before any Analyze never
// loads the analyze module; WithAnalyzeModule's module is loaded by the
// first Analyze, and one that is not an analyze module (perfcalc.wasm,
// without analyze) gives every Analyze ErrModule, naming the module, while
// the Engine's other calls work.
func TestAnalyzeModuleNotLoaded(t *testing.T) {
	e := faultEngine(t, NewConfig())
	e.Close(context.Background())
	if _, err := e.Analyze(availableLog(), &AnalyzeConfig{}); !errors.Is(err, ErrClosed) || e.analyzer.e != nil {
		t.Errorf("Analyze after Close: %v, analyze module %p; want ErrClosed and none", err, e.analyzer.e)
	}
	e = faultEngine(t, NewConfig().WithAnalyzeModule(Module()))
	for i := range 2 {
		_, err := e.Analyze(availableLog(), &AnalyzeConfig{})
		if !errors.Is(err, ErrModule) || !strings.Contains(err.Error(), `analyze module (perfcalc-analyze.wasm): perfcalc host: not a perfcalc module: export "analyze" is missing`) {
			t.Errorf("Analyze %d with perfcalc.wasm as the analyze module: %v, want ErrModule naming analyze", i, err)
		}
	}
	healthy(t, e)
}
