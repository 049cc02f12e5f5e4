package host_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/host"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/blgedit"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// cacheDir is a compilation cache shared by the tests' engines: the first
// New compiles (about a second), the others load machine code.
var cacheDir string

// shared is the Engine most tests use.
var shared *host.Engine

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "perfcalc-host-test")
	if err != nil {
		panic(err)
	}
	cacheDir = dir
	shared, err = host.New(context.Background(), host.NewConfig().WithCompilationCacheDir(cacheDir).WithPoolSize(4))
	if err != nil {
		panic(err)
	}
	code := m.Run()
	shared.Close(context.Background())
	os.RemoveAll(dir)
	os.Exit(code)
}

func newEngine(t testing.TB, cfg host.Config) *host.Engine {
	t.Helper()
	e, err := host.New(context.Background(), cfg.WithCompilationCacheDir(cacheDir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// edgeInputs covers every counter type with samples at the edges of the
// arithmetic, every option and both sample counts.
func edgeInputs() ([]engine.Input, []engine.Options) {
	const max = math.MaxUint64
	samples := []struct{ old, new engine.RawCounter }{
		{engine.RawCounter{FirstValue: 1843201, SecondValue: 7178903079, MultiCount: 2}, engine.RawCounter{FirstValue: 1851877, SecondValue: 7393676247, MultiCount: 2}},
		{engine.RawCounter{}, engine.RawCounter{FirstValue: max, SecondValue: max, MultiCount: math.MaxUint32}},
		{engine.RawCounter{FirstValue: 0xFFFFFFF0, SecondValue: 0xFFFFFF00}, engine.RawCounter{FirstValue: 0x10, SecondValue: 0x100, MultiCount: 3}},
		{engine.RawCounter{FirstValue: 100, SecondValue: 50}, engine.RawCounter{FirstValue: 50, SecondValue: 100, MultiCount: 4}},
		{engine.RawCounter{FirstValue: 1, SecondValue: 1, CStatus: engine.CStatusNoMachine}, engine.RawCounter{FirstValue: 2, SecondValue: 4}},
		{engine.RawCounter{FirstValue: max - 1, SecondValue: 1 << 63}, engine.RawCounter{FirstValue: max, SecondValue: 1<<63 + 12345, CStatus: engine.CStatusNewData}},
	}
	var ins []engine.Input
	var opts []engine.Options
	for _, typ := range append(engine.Types(), 0x12345678, 0xFFFFFFFF) {
		for si, s := range samples {
			for ti, tb := range []int64{3579545, engine.Frequency100NS, 0, -1, math.MaxInt64} {
				ins = append(ins, engine.Input{Counter: engine.Counter{Type: typ, TimeBase: tb, Scale: int32(si%5) - 2}, HasOld: ti != 2, Old: s.old, New: s.new})
				opts = append(opts, engine.Options(si*3+ti)) // undefined bits included: ignored both ways
			}
		}
	}
	return ins, opts
}

func sameResult(a, b engine.Result) bool {
	return math.Float64bits(a.Value) == math.Float64bits(b.Value) && a.Status == b.Status
}

// TestComputeMatchesNative checks Compute and ComputeBatch against the
// engine, bit for bit, on every type and edge.
func TestComputeMatchesNative(t *testing.T) {
	ins, opts := edgeInputs()
	for i := range ins {
		want := engine.Compute(&ins[i], opts[i])
		have, err := shared.Compute(&ins[i], opts[i])
		if err != nil || !sameResult(have, want) {
			t.Fatalf("case %d %v opts %d: have %v %v (%v), want %v %v", i, ins[i].Type, opts[i], have.Value, have.Status, err, want.Value, want.Status)
		}
	}
	for _, o := range []engine.Options{0, engine.Cap100 | engine.Scale, engine.Times1000 | engine.Wrap32, 0xFFFF} {
		want := make([]engine.Result, len(ins))
		have := make([]engine.Result, len(ins)+3)
		engine.ComputeBatch(ins, o, want)
		n, err := shared.ComputeBatch(ins, o, have)
		if err != nil || n != len(ins) {
			t.Fatalf("batch: have %d, %v; want %d", n, err, len(ins))
		}
		for i := range want {
			if !sameResult(have[i], want[i]) {
				t.Fatalf("batch opts %d case %d: have %v, want %v", o, i, have[i], want[i])
			}
		}
		if have[len(ins)] != (engine.Result{}) {
			t.Errorf("batch wrote past the shorter length")
		}
	}
}

// TestComputeBatchChunks checks a batch larger than one call into the
// module (116,508 requests).
func TestComputeBatchChunks(t *testing.T) {
	base, _ := edgeInputs()
	ins := make([]engine.Input, 250_000)
	for i := range ins {
		ins[i] = base[i%len(base)]
		ins[i].New.FirstValue += uint64(i)
	}
	want := make([]engine.Result, len(ins))
	have := make([]engine.Result, len(ins))
	engine.ComputeBatch(ins, engine.Cap100, want)
	if n, err := shared.ComputeBatch(ins, engine.Cap100, have); n != len(ins) || err != nil {
		t.Fatalf("have %d, %v", n, err)
	}
	for i := range want {
		if !sameResult(have[i], want[i]) {
			t.Fatalf("case %d: have %v, want %v", i, have[i], want[i])
		}
	}
}

// TestAllocs is the zero-allocation gate of the compute path.
func TestAllocs(t *testing.T) {
	ins, _ := edgeInputs()
	out := make([]engine.Result, len(ins))
	in := ins[0]
	if a := testing.AllocsPerRun(200, func() { shared.Compute(&in, engine.Cap100) }); a != 0 {
		t.Errorf("Compute: %v allocations per call, want 0", a)
	}
	if a := testing.AllocsPerRun(50, func() { shared.ComputeBatch(ins, engine.Cap100, out) }); a != 0 {
		t.Errorf("ComputeBatch: %v allocations per call, want 0", a)
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameDecoded compares two decode results field by field, values bit for bit.
func sameDecoded(t testing.TB, what string, have, want *host.Decoded) {
	t.Helper()
	if have.Kind != want.Kind || have.Columns != want.Columns || have.Rows != want.Rows || have.Info != want.Info || have.Bias != want.Bias {
		t.Fatalf("%s: header: have %v %d×%d %q %d, want %v %d×%d %q %d", what, have.Kind, have.Columns, have.Rows, have.Info, have.Bias,
			want.Kind, want.Columns, want.Rows, want.Info, want.Bias)
	}
	if (have.Damage == nil) != (want.Damage == nil) || (have.Damage != nil && have.Damage.Error() != want.Damage.Error()) {
		t.Fatalf("%s: damage: have %v, want %v", what, have.Damage, want.Damage)
	}
	if len(have.Records) != len(want.Records) {
		t.Fatalf("%s: have %d records, want %d", what, len(have.Records), len(want.Records))
	}
	for i := range want.Records {
		h, w := have.Records[i], want.Records[i]
		if math.Float64bits(h.Value) != math.Float64bits(w.Value) {
			t.Fatalf("%s: record %d (%s): value bits %#x, want %#x", what, i, w.Path, math.Float64bits(h.Value), math.Float64bits(w.Value))
		}
		h.Value, w.Value = 0, 0
		if !reflect.DeepEqual(h, w) {
			t.Fatalf("%s: record %d:\nhave %+v\nwant %+v", what, i, h, w)
		}
	}
}

// sameStats compares two RelogStats results, and the native one with
// relog.Converter.Statistics.
func sameStats(t testing.TB, what string, log []byte, sel relog.Options, have, want *host.Decoded) {
	t.Helper()
	if have.Kind != host.KindStats || len(have.Records) != 0 {
		t.Fatalf("%s: kind %v, %d records", what, have.Kind, len(have.Records))
	}
	if !reflect.DeepEqual(have.Statistics, want.Statistics) || have.Columns != want.Columns || have.Rows != want.Rows ||
		have.Info != want.Info || have.Bias != want.Bias || (have.Damage == nil) != (want.Damage == nil) {
		t.Fatalf("%s: statistics differ:\nhave %+v\nwant %+v", what, have, want)
	}
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), sel)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := c.Statistics()
	if len(st) != len(want.Statistics) {
		t.Fatalf("%s: %d statistics, relog has %d", what, len(want.Statistics), len(st))
	}
	for i := range st {
		w := &want.Statistics[i]
		if !reflect.DeepEqual(w.Statistics, st[i]) || w.Path != c.Columns()[i].Path || w.Type != c.Columns()[i].Type {
			t.Fatalf("%s: column %d: %+v, relog %+v", what, i, *w, st[i])
		}
	}
}

// sameError compares two errors by their code and text.
func sameError(t testing.TB, what string, have, want error) {
	t.Helper()
	if host.ErrorCode(have) != host.ErrorCode(want) || (have == nil) != (want == nil) || (have != nil && have.Error() != want.Error()) {
		t.Fatalf("%s: error: have %v (%v), want %v (%v)", what, have, host.ErrorCode(have), want, host.ErrorCode(want))
	}
}

// TestDecodeCorpusMatchesNative decodes the project's captures and the real
// ones of ../shared/corpus both ways.
func TestDecodeCorpusMatchesNative(t *testing.T) {
	var native host.Native
	names := readFile(t, corpus.Project(t, "counter-009.multisz"))
	g1, g2 := readFile(t, corpus.Project(t, "global-1.bin")), readFile(t, corpus.Project(t, "global-2.bin"))
	for _, tc := range []struct {
		name        string
		data, names []byte
	}{{"global-1", g1, names}, {"global-2 unnamed", g2, nil}, {"names as V1", names, nil}} {
		for _, o := range []engine.Options{0, engine.Cap100 | engine.Scale} {
			have, herr := shared.DecodeV1(tc.data, tc.names, o)
			want, werr := native.DecodeV1(tc.data, tc.names, o)
			sameError(t, tc.name, herr, werr)
			if werr == nil {
				sameDecoded(t, tc.name, have, want)
			}
		}
	}
	for _, f := range []string{"counter-009.multisz", "help-009.multisz", "global-1.bin"} {
		b := readFile(t, corpus.Project(t, f))
		have, herr := shared.DecodeNames(b)
		want, werr := native.DecodeNames(b)
		sameError(t, f, herr, werr)
		if werr == nil {
			sameDecoded(t, f, have, want)
		}
	}
	// V2: the project's captures.
	cs := host.V2Counterset{RegInfo: readFile(t, corpus.Project(t, "v2-reginfo.bin")), Strings: readFile(t, corpus.Project(t, "v2-strings.bin"))}
	for _, f := range []string{"v2-data-1.bin", "v2-data-2.bin"} {
		b := readFile(t, corpus.Project(t, f))
		have, herr := shared.DecodeV2(b, cs, engine.Scale)
		want, werr := native.DecodeV2(b, cs, engine.Scale)
		sameError(t, f, herr, werr)
		if werr == nil {
			if len(want.Records) == 0 {
				t.Errorf("%s: no records", f)
			}
			sameDecoded(t, f, have, want)
		}
	}
	// Queries: V1 with and without the older capture and a selection, V2.
	pat, _ := counterpath.Parse(`\Processor(*)\*`)
	v2d1, v2d2 := readFile(t, corpus.Project(t, "v2-data-1.bin")), readFile(t, corpus.Project(t, "v2-data-2.bin"))
	for _, tc := range []struct {
		name          string
		cfg           host.QueryConfig
		older, newer  []byte
		wantSomething bool
	}{
		{"v1 pair", host.QueryConfig{Names: names, Options: engine.Cap100}, g1, g2, true},
		{"v1 first", host.QueryConfig{Names: names}, nil, g1, true},
		{"v1 selected", host.QueryConfig{Names: names, Paths: []counterpath.Path{pat}}, g1, g2, true},
		{"v2 pair", host.QueryConfig{RegInfo: cs.RegInfo, Strings: cs.Strings, CounterSet: "PerfCalc"}, v2d1, v2d2, true},
		{"mismatch", host.QueryConfig{}, g1, v2d2, false},
	} {
		have, herr := shared.Query(nil, &tc.cfg, tc.older, tc.newer)
		want, werr := native.Query(nil, &tc.cfg, tc.older, tc.newer)
		sameError(t, tc.name, herr, werr)
		if tc.wantSomething && len(want) == 0 {
			t.Errorf("%s: no values", tc.name)
		}
		if !reflect.DeepEqual(have, want) {
			t.Errorf("%s: have %d values, want %d; first differences: %v", tc.name, len(have), len(want), firstDiff(have, want))
		}
		// Their text, as perfcalc values -f csv and tsv write it.
		for _, f := range []struct {
			tsv    bool
			digits int
		}{{false, 0}, {false, 17}, {true, 20}} {
			htext, herr := shared.QueryText(&tc.cfg, tc.older, tc.newer, f.tsv, f.digits)
			wtext, werr := native.QueryText(&tc.cfg, tc.older, tc.newer, f.tsv, f.digits)
			sameError(t, tc.name+" text", herr, werr)
			if !bytes.Equal(htext, wtext) || (werr == nil) != (len(wtext) > 0) {
				t.Errorf("%s: text (tsv %v, %d digits) of %d bytes, native %d", tc.name, f.tsv, f.digits, len(htext), len(wtext))
			}
		}
	}
	if _, err := shared.QueryText(&host.QueryConfig{}, nil, g1, false, 21); host.ErrorCode(err) != host.CodeArgument {
		t.Errorf("QueryText with 21 digits: %v, want CodeArgument", err)
	}
	// The real captures, where present.
	root := corpus.Root()
	v1files, _ := filepath.Glob(filepath.Join(filepath.Dir(root), "shared", "corpus", "v1", "s0*_obj*.bin"))
	pal, _ := os.ReadFile(filepath.Join(filepath.Dir(root), "shared", "corpus", "v1", "pal_counter_009.multisz"))
	for _, f := range v1files {
		b := readFile(t, f)
		have, herr := shared.DecodeV1(b, pal, engine.Cap100)
		want, werr := native.DecodeV1(b, pal, engine.Cap100)
		sameError(t, f, herr, werr)
		if werr == nil {
			sameDecoded(t, filepath.Base(f), have, want)
		}
	}
	blgs, _ := filepath.Glob(filepath.Join(filepath.Dir(root), "shared", "corpus", "blg", "*.blg"))
	every, _ := counterpath.Parse(`\\*\*(*)\*`)
	for _, f := range blgs {
		b := readFile(t, f)
		for _, sel := range []relog.Options{{}, {Every: 2}, {Counters: []counterpath.Path{every}}} {
			have, herr := shared.DecodeBlg(b, sel)
			want, werr := native.DecodeBlg(b, sel)
			sameError(t, f, herr, werr)
			if werr == nil {
				sameDecoded(t, filepath.Base(f), have, want)
			}
			for _, format := range []relog.Format{relog.CSV, relog.JSON} {
				for _, digits := range []int{0, 17} {
					sel := sel
					sel.Digits = digits
					htext, herr := shared.RelogText(b, sel, format)
					wtext, werr := native.RelogText(b, sel, format)
					if (herr == nil) != (werr == nil) || (herr != nil && herr.Error() != werr.Error()) || !bytes.Equal(htext, wtext) {
						t.Fatalf("%s relog %d, %d digits: have %d bytes (%v), want %d bytes (%v)", filepath.Base(f), format, digits, len(htext), herr, len(wtext), werr)
					}
				}
			}
			hst, herr := shared.RelogStats(b, sel)
			wst, werr := native.RelogStats(b, sel)
			sameError(t, f, herr, werr)
			if werr == nil {
				sameStats(t, filepath.Base(f), b, sel, hst, wst)
			}
		}
	}
	t.Logf("%d real V1 blocks, %d real logs", len(v1files), len(blgs))
}

func firstDiff(a, b []query.Value) string {
	for i := range min(len(a), len(b)) {
		if !reflect.DeepEqual(a[i], b[i]) {
			return string(a[i].Path) + " vs " + string(b[i].Path)
		}
	}
	return ""
}

// TestDecodeErrors checks that refusals come back with the native texts
// and codes, and that errors.Is finds the engine's sentinels.
func TestDecodeErrors(t *testing.T) {
	var native host.Native
	g1 := readFile(t, corpus.Project(t, "global-1.bin"))
	bad := append([]byte(nil), g1...)
	bad[24] ^= 0xFF // HeaderLength
	for _, tc := range []struct {
		name string
		data []byte
	}{{"empty", nil}, {"truncated", g1[:100]}, {"bad header", bad}, {"garbage", []byte("not a perf data block at all........................................................................................")}} {
		_, herr := shared.DecodeV1(tc.data, nil, 0)
		_, werr := native.DecodeV1(tc.data, nil, 0)
		if werr == nil {
			t.Fatalf("%s: native accepted it", tc.name)
		}
		sameError(t, tc.name, herr, werr)
		for _, s := range []error{engine.ErrTruncated, engine.ErrMalformed, engine.ErrUnsupported} {
			if errors.Is(herr, s) != errors.Is(werr, s) {
				t.Errorf("%s: errors.Is(%v): have %v, want %v", tc.name, s, errors.Is(herr, s), errors.Is(werr, s))
			}
		}
	}
	// V2 blocks without their ids.
	cs := host.V2Counterset{RegInfo: readFile(t, corpus.Project(t, "v2-reginfo.bin"))}
	_, herr := shared.DecodeV2(g1, cs, 0)
	_, werr := native.DecodeV2(g1, cs, 0)
	sameError(t, "v1 as v2", herr, werr)
	// An input larger than the static buffer is decoded in a larger one (9
	// MiB of zeros: an empty name table, as natively).
	hz, herr := shared.DecodeNames(make([]byte, 9<<20))
	wz, werr := native.DecodeNames(make([]byte, 9<<20))
	sameError(t, "9 MiB of zeros", herr, werr)
	if herr == nil && len(hz.Records) != len(wz.Records) {
		t.Errorf("9 MiB of zeros: %d records, natively %d", len(hz.Records), len(wz.Records))
	}
	// An input larger than the largest buffer (1 GiB) is refused before the
	// module sees it (the slice is never touched: its pages stay unmapped).
	_, err := shared.DecodeNames(make([]byte, 1<<30+1))
	if host.ErrorCode(err) != host.CodeLimit {
		t.Errorf("1 GiB + 1 input: have %v, want CodeLimit", err)
	}
}

// TestConcurrent runs many goroutines against one small pool (run it with
// -race): every result equals the native one.
func TestConcurrent(t *testing.T) {
	e := newEngine(t, host.NewConfig().WithPoolSize(3))
	ins, opts := edgeInputs()
	g1 := readFile(t, corpus.Project(t, "global-1.bin"))
	names := readFile(t, corpus.Project(t, "counter-009.multisz"))
	wantDecoded, err := host.Native{}.DecodeV1(g1, names, 0)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]engine.Result, 64)
			for k := range 60 {
				i := (g*131 + k*17) % len(ins)
				r, err := e.Compute(&ins[i], opts[i])
				if err != nil || !sameResult(r, engine.Compute(&ins[i], opts[i])) {
					errs <- errors.New("compute differs")
					return
				}
				j := min(i, len(ins)-64)
				if n, err := e.ComputeBatch(ins[j:j+64], opts[i], out); n != 64 || err != nil {
					errs <- errors.New("batch failed")
					return
				}
				for m := range out {
					if !sameResult(out[m], engine.Compute(&ins[j+m], opts[i])) {
						errs <- errors.New("batch differs")
						return
					}
				}
				if k%20 == 0 {
					d, err := e.DecodeV1(g1, names, 0)
					if err != nil || len(d.Records) != len(wantDecoded.Records) || !reflect.DeepEqual(d.Records[7], wantDecoded.Records[7]) {
						errs <- errors.New("decode differs")
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := e.Instances(); n < 1 || n > 3 {
		t.Errorf("pool of 3 created %d instances", n)
	}
}

// TestCloseLeaks checks that Close releases the goroutines and that calls
// after Close fail with ErrClosed.
func TestCloseLeaks(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, timeout := range []time.Duration{0, time.Second} {
		e, err := host.New(context.Background(), host.NewConfig().WithCompilationCacheDir(cacheDir).WithPoolSize(2).WithCallTimeout(timeout))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				in := engine.Input{Counter: engine.Counter{Type: engine.RawFraction}, New: engine.RawCounter{FirstValue: 1, SecondValue: 4}}
				for range 100 {
					if r, err := e.Compute(&in, 0); err != nil || r.Value != 25 {
						t.Errorf("have %v, %v", r, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if err := e.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := e.Close(context.Background()); err != nil {
			t.Errorf("second Close: %v", err)
		}
		in := engine.Input{}
		if _, err := e.Compute(&in, 0); !errors.Is(err, host.ErrClosed) {
			t.Errorf("Compute after Close: have %v, want ErrClosed", err)
		}
		if _, err := e.ComputeBatch([]engine.Input{in}, 0, make([]engine.Result, 1)); !errors.Is(err, host.ErrClosed) {
			t.Errorf("ComputeBatch after Close: have %v, want ErrClosed", err)
		}
		if _, err := e.DecodeNames(nil); !errors.Is(err, host.ErrClosed) {
			t.Errorf("DecodeNames after Close: have %v, want ErrClosed", err)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("goroutines: %d before, %d after Close", before, after)
	}
}

// TestCloseWaitsForCalls checks that Close waits for a call in progress.
func TestCloseWaitsForCalls(t *testing.T) {
	e, err := host.New(context.Background(), host.NewConfig().WithCompilationCacheDir(cacheDir).WithPoolSize(1))
	if err != nil {
		t.Fatal(err)
	}
	ins, _ := edgeInputs()
	big := make([]engine.Input, 200_000)
	for i := range big {
		big[i] = ins[i%len(ins)]
	}
	out := make([]engine.Result, len(big))
	started := make(chan struct{})
	var n int
	var berr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		close(started)
		n, berr = e.ComputeBatch(big, 0, out)
	}()
	<-started
	time.Sleep(time.Millisecond)
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	// Either the batch ran before Close took the pool, or it was refused.
	if !(n == len(big) && berr == nil) && !(n == 0 && errors.Is(berr, host.ErrClosed)) {
		t.Errorf("batch during Close: have %d, %v", n, berr)
	}
}

// TestModuleVersion checks that a module speaking another ABI version, and
// bytes that are not a module, are refused with clear errors.
func TestModuleVersion(t *testing.T) {
	// A hand-assembled module: _initialize, abi_version returning 3, memory.
	v3 := []byte{
		0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
		0x01, 0x08, 0x02, 0x60, 0x00, 0x00, 0x60, 0x00, 0x01, 0x7f, // types: () -> (), () -> i32
		0x03, 0x03, 0x02, 0x00, 0x01, // functions
		0x05, 0x03, 0x01, 0x00, 0x01, // memory: 1 page
		0x07, 0x26, 0x03, // exports
		0x0b, '_', 'i', 'n', 'i', 't', 'i', 'a', 'l', 'i', 'z', 'e', 0x00, 0x00,
		0x0b, 'a', 'b', 'i', '_', 'v', 'e', 'r', 's', 'i', 'o', 'n', 0x00, 0x01,
		0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00,
		0x0a, 0x09, 0x02, 0x02, 0x00, 0x0b, 0x04, 0x00, 0x41, 0x03, 0x0b, // code
	}
	_, err := host.New(context.Background(), host.NewConfig().WithModule(v3))
	if !errors.Is(err, host.ErrABIVersion) || err.Error() != "perfcalc host: the module speaks ABI version 3, this package speaks 2" {
		t.Errorf("version 3: have %v", err)
	}
	v2 := bytes.Replace(v3, []byte{0x41, 0x03}, []byte{0x41, 0x02}, 1)
	_, err = host.New(context.Background(), host.NewConfig().WithModule(v2))
	if !errors.Is(err, host.ErrModule) {
		t.Errorf("version 2 without exports: have %v, want ErrModule", err)
	}
	_, err = host.New(context.Background(), host.NewConfig().WithModule([]byte("not wasm")))
	if !errors.Is(err, host.ErrModule) {
		t.Errorf("not wasm: have %v, want ErrModule", err)
	}
	// The real module, given explicitly, works.
	e := newEngine(t, host.NewConfig().WithModule(readFile(t, filepath.Join("..", "wasm", "module", "perfcalc.wasm"))))
	in := engine.Input{Counter: engine.Counter{Type: engine.CounterRawcount}, New: engine.RawCounter{FirstValue: 42}}
	if r, err := e.Compute(&in, 0); err != nil || r.Value != 42 {
		t.Errorf("explicit module: have %v, %v", r, err)
	}
}

// TestEmbeddedModuleUpToDate checks that the embedded module is the one
// "make wasm" built (../wasm/module/perfcalc.wasm).
func TestEmbeddedModuleUpToDate(t *testing.T) {
	want := readFile(t, filepath.Join("..", "wasm", "module", "perfcalc.wasm"))
	if !bytes.Equal(host.Module(), want) {
		t.Errorf("host.Module() (%d bytes) differs from wasm/module/perfcalc.wasm (%d bytes): run make wasm", len(host.Module()), len(want))
	}
}

// TestCompilationCache checks that the cache directory holds the compiled
// module and that an Engine loaded from it works. (TestMain's New filled
// it; the time of a warm New is logged, not asserted: it varies with the
// machine's load and -race, from tens to hundreds of milliseconds.)
func TestCompilationCache(t *testing.T) {
	files := 0
	filepath.WalkDir(cacheDir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files++
		}
		return nil
	})
	if files == 0 {
		t.Fatalf("the compilation cache %s is empty", cacheDir)
	}
	start := time.Now()
	e := newEngine(t, host.NewConfig())
	t.Logf("New with a warm cache: %v (%d cached files)", time.Since(start), files)
	in := engine.Input{Counter: engine.Counter{Type: engine.CounterRawcount}, New: engine.RawCounter{FirstValue: 7}}
	if r, err := e.Compute(&in, 0); err != nil || r.Value != 7 {
		t.Errorf("have %v, %v", r, err)
	}
}

// TestDecodePaging decodes a blob whose records do not fit the module's
// 4 MiB output buffer: the Engine reads the first page, reserves a buffer
// for the rest, and gets every record, as natively.
func TestDecodePaging(t *testing.T) {
	data := syntheticV1(t)
	have, err := shared.DecodeV1(data, nil, engine.Cap100)
	if err != nil {
		t.Fatal(err)
	}
	want, err := host.Native{}.DecodeV1(data, nil, engine.Cap100)
	if err != nil {
		t.Fatal(err)
	}
	if pageRecords := abi.OutCap / abi.RecordSize; len(want.Records) <= pageRecords {
		t.Fatalf("%d records fit one page: the test does not page", len(want.Records))
	}
	sameDecoded(t, "synthetic", have, want)
}

// TestLargeLog converts a log larger than the module's static input buffer
// (8 MiB), whose records and JSON text exceed its static output buffer
// (4 MiB): the host reserves a larger input buffer (in_reserve), reads the
// records page by page (decode_next) and the text in a larger output
// buffer (out_reserve), and the results equal the native ones. The log is
// the real Tx log repeated.
func TestLargeLog(t *testing.T) {
	tx := readFile(t, corpus.Shared(t, "blg", "Tx_BasicPerfCounters.blg"))
	rl, err := gencorpus.NewRepeatedLog(tx, 40)
	if err != nil {
		t.Fatal(err)
	}
	log := rl.Bytes()
	if len(log) <= abi.InCap {
		t.Fatalf("the log is %d bytes: not larger than the static input buffer", len(log))
	}
	e := newEngine(t, host.NewConfig().WithPoolSize(1))
	native := host.Native{}
	have, herr := e.DecodeBlg(log, relog.Options{})
	want, werr := native.DecodeBlg(log, relog.Options{})
	if herr != nil || werr != nil {
		t.Fatalf("DecodeBlg: host %v, native %v", herr, werr)
	}
	if len(want.Records)*abi.RecordSize <= abi.OutCap {
		t.Fatalf("%d records fit the static output buffer", len(want.Records))
	}
	sameDecoded(t, "repeated Tx", have, want)
	htext, herr := e.RelogText(log, relog.Options{}, relog.JSON)
	wtext, werr := native.RelogText(log, relog.Options{}, relog.JSON)
	if herr != nil || werr != nil || !bytes.Equal(htext, wtext) || len(wtext) <= abi.OutCap {
		t.Fatalf("relog JSON: host %d bytes (%v), native %d bytes (%v)", len(htext), herr, len(wtext), werr)
	}
	// The same instance goes on with small inputs.
	small, err := e.RelogText(tx, relog.Options{}, relog.CSV)
	if wsmall, _ := native.RelogText(tx, relog.Options{}, relog.CSV); err != nil || !bytes.Equal(small, wsmall) {
		t.Fatalf("a small log after the large one: %v", err)
	}
	t.Logf("log %d bytes: %d records, JSON %d bytes", len(log), len(have.Records), len(htext))
}

// TestReserveUnderMemoryLimit checks that an input the memory limit cannot
// hold is refused with CodeLimit, and the instance goes on.
func TestReserveUnderMemoryLimit(t *testing.T) {
	e := newEngine(t, host.NewConfig().WithPoolSize(1).WithMemoryLimitPages(512))
	_, err := e.DecodeNames(make([]byte, 40<<20))
	var he *host.Error
	if !errors.As(err, &he) || he.Code != host.CodeLimit {
		t.Fatalf("a 40 MiB input under a 32 MiB limit: %v, want a CodeLimit *host.Error", err)
	}
	if _, err := e.DecodeNames(nil); err != nil {
		t.Fatalf("after the refusal: %v", err)
	}
}

// TestRecordLargerThanOutputBuffer decodes a name table whose second text
// (5 MB) does not fit the module's 4 MiB output buffer: the module returns
// a page without it and the bytes it needs, the host reserves them and
// goes on with decode_next; the records equal the native ones.
func TestRecordLargerThanOutputBuffer(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	tab := encode.NameTable{Pairs: []encode.NameTablePair{{Index: 1, Text: "one"}, {Index: 3, Text: big}, {Index: 5, Text: "five"}}}
	b, err := encode.EncodeNameTable(&tab)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, host.NewConfig().WithPoolSize(1))
	have, err := e.DecodeNames(b)
	if err != nil {
		t.Fatal(err)
	}
	want, err := host.Native{}.DecodeNames(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(have.Records) != 3 || have.Records[1].Path != big || have.Records[2].Path != "five" {
		t.Fatalf("%d records", len(have.Records))
	}
	sameDecoded(t, "a 5 MB name", have, want)
}

// TestIdentityModule: relog.Options.Identity pid reaches the module's
// identity export: DecodeBlg, RelogStats, RelogText and RelogTextParts of
// the Engine pair Process and Thread instances by process, as Native does
// (the same records, statistics, text and Breaks: 1 and 11),
// on the PAL sample log and its variant with svchost#2 exiting mid-log;
// after a pid call the instance pairs by name again for a pdh call (the
// CSV of pdh mode is Native's), and pid mode names other columns than pdh
// (name:pid). Before, the Engine refused Identity pid (CodeUnsupported).
func TestIdentityModule(t *testing.T) {
	pal := readFile(t, filepath.Join(corpus.Shared(t, "blg"), "PAL_SamplePerfmonLog.blg"))
	exit, changed, err := blgedit.ExitInstance(pal, "Process", "svchost#2", 5)
	if err != nil || changed != 6 {
		t.Fatalf("ExitInstance: %d samples changed, %v", changed, err)
	}
	// One instance in the pool, so that the pdh calls after the pid ones
	// meet the instance whose identity was set.
	e, err := host.New(context.Background(), host.NewConfig().WithCompilationCacheDir(cacheDir).WithPoolSize(1))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	var native host.Native
	for _, tc := range []struct {
		name   string
		log    []byte
		breaks int64
	}{{"pal", pal, 1}, {"exit", exit, 11}} {
		pid := relog.Options{Identity: identity.PID}
		have, herr := e.DecodeBlg(tc.log, pid)
		want, werr := native.DecodeBlg(tc.log, pid)
		if herr != nil || werr != nil {
			t.Fatalf("%s: DecodeBlg: %v, native %v", tc.name, herr, werr)
		}
		sameDecoded(t, tc.name+" DecodeBlg pid", have, want)
		if have.Breaks != tc.breaks || want.Breaks != tc.breaks {
			t.Fatalf("%s: DecodeBlg pid: %d breaks, native %d, want %d", tc.name, have.Breaks, want.Breaks, tc.breaks)
		}
		named := 0
		for _, r := range have.Records {
			if strings.Contains(r.Path, `\Process(svchost:`) {
				named++
			}
		}
		if named == 0 {
			t.Fatalf("%s: no column named svchost:pid in pid mode", tc.name)
		}
		have, herr = e.RelogStats(tc.log, pid)
		want, werr = native.RelogStats(tc.log, pid)
		if herr != nil || werr != nil {
			t.Fatalf("%s: RelogStats: %v, native %v", tc.name, herr, werr)
		}
		sameStats(t, tc.name+" RelogStats pid", tc.log, pid, have, want)
		if have.Breaks != tc.breaks || want.Breaks != tc.breaks {
			t.Fatalf("%s: RelogStats pid: %d breaks, native %d, want %d", tc.name, have.Breaks, want.Breaks, tc.breaks)
		}
		wtext, werr := native.RelogText(tc.log, pid, relog.CSV)
		for _, n := range []int{0, 4} {
			var htext []byte
			if n == 0 {
				htext, herr = e.RelogText(tc.log, pid, relog.CSV)
			} else {
				htext, herr = e.RelogTextParts(tc.log, pid, relog.CSV, n)
			}
			if herr != nil || werr != nil || !bytes.Equal(htext, wtext) {
				t.Fatalf("%s: RelogText pid (parts %d): %d bytes (%v), native %d (%v)", tc.name, n, len(htext), herr, len(wtext), werr)
			}
		}
		// pdh again on the same instance: by name, Native's CSV.
		htext, herr := e.RelogText(tc.log, relog.Options{}, relog.CSV)
		ptext, perr := native.RelogText(tc.log, relog.Options{}, relog.CSV)
		if herr != nil || perr != nil || !bytes.Equal(htext, ptext) || bytes.Equal(ptext, wtext) {
			t.Fatalf("%s: RelogText pdh after pid: %d bytes (%v), native %d (%v); pid's %d", tc.name, len(htext), herr, len(ptext), perr, len(wtext))
		}
	}
}
