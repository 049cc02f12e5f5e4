package properties

import (
	"context"
	"math"
	"os"
	"reflect"
	"sync"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/host"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// sandbox is the wazero Engine of the differential properties, created once
// (compiling the module takes about a second).
var sandbox = sync.OnceValues(func() (*host.Engine, error) {
	return host.New(context.Background(), host.NewConfig().WithPoolSize(1))
})

func sandboxed(t *testing.T) *host.Engine {
	t.Helper()
	e, err := sandbox()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func sameBits(a, b engine.Result) bool {
	return math.Float64bits(a.Value) == math.Float64bits(b.Value) && a.Status == b.Status
}

// TestPropertiesHostMatchesNative: the WebAssembly module run by package
// host computes what the engine computes, bit for bit, for one value and
// for batches, on any input (every counter type, unknown ones included) and
// on mostly valid ones.
func TestPropertiesHostMatchesNative(t *testing.T) {
	e := sandboxed(t)
	props := gopter.NewProperties(parameters())
	one := func(in engine.Input, opts engine.Options) bool {
		have, err := e.Compute(&in, opts)
		return err == nil && sameBits(have, engine.Compute(&in, opts))
	}
	props.Property("host Compute == engine.Compute, any input", prop.ForAll(one, InputOf(AnyType()), AnyOptions()))
	props.Property("host Compute == engine.Compute, plausible input", prop.ForAll(one, PlausibleInput(), AnyOptions()))
	props.Property("host ComputeBatch == engine.ComputeBatch", prop.ForAll(
		func(ins []engine.Input, opts engine.Options) bool {
			want := make([]engine.Result, len(ins))
			have := make([]engine.Result, len(ins))
			engine.ComputeBatch(ins, opts, want)
			n, err := e.ComputeBatch(ins, opts, have)
			if err != nil || n != len(ins) {
				return false
			}
			for i := range want {
				if !sameBits(have[i], want[i]) {
					return false
				}
			}
			return true
		}, gen.SliceOf(weighted(1, InputOf(AnyType()), 1, PlausibleInput())), AnyOptions()))
	props.TestingRun(t)
}

// TestPropertiesHostDecodeMatchesNative: V1 blobs with random bytes
// overwritten decode to the same records, or the same error code and text,
// natively and in the module.
func TestPropertiesHostDecodeMatchesNative(t *testing.T) {
	e := sandboxed(t)
	blob, err := os.ReadFile(corpus.Project(t, "global-1.bin"))
	if err != nil {
		t.Fatal(err)
	}
	names, err := os.ReadFile(corpus.Project(t, "counter-009.multisz"))
	if err != nil {
		t.Fatal(err)
	}
	p := parameters()
	p.MinSuccessfulTests = cases(300) // each case decodes 15 KB twice
	props := gopter.NewProperties(p)
	outcomes := map[bool]int{}
	type patch struct {
		at  int
		val uint8
		n   int
	}
	edit := gopter.CombineGens(gen.IntRange(0, len(blob)-1), gen.UInt8(), gen.IntRange(1, 4)).Map(func(v []interface{}) patch {
		return patch{v[0].(int), v[1].(uint8), v[2].(int)}
	})
	props.Property("DecodeV1 host == native on damaged blobs", prop.ForAll(
		func(edits []patch, opts engine.Options, named bool) bool {
			b := append([]byte(nil), blob...)
			for _, x := range edits {
				for i := x.at; i < min(x.at+x.n, len(b)); i++ {
					b[i] = x.val
				}
			}
			var tbl []byte
			if named {
				tbl = names
			}
			have, herr := e.DecodeV1(b, tbl, opts)
			want, werr := host.Native{}.DecodeV1(b, tbl, opts)
			outcomes[werr == nil]++
			if host.ErrorCode(herr) != host.ErrorCode(werr) || (herr == nil) != (werr == nil) {
				return false
			}
			if werr != nil {
				return herr.Error() == werr.Error()
			}
			if len(have.Records) != len(want.Records) || have.Info != want.Info || have.Columns != want.Columns {
				return false
			}
			for i := range want.Records {
				h, w := have.Records[i], want.Records[i]
				if math.Float64bits(h.Value) != math.Float64bits(w.Value) {
					return false
				}
				h.Value, w.Value = 0, 0
				if !reflect.DeepEqual(h, w) {
					return false
				}
			}
			return true
		}, gen.SliceOfN(3, edit), AnyOptions(), gen.Bool()))
	props.TestingRun(t)
	// Both outcomes must be exercised, or the property proves little.
	if outcomes[true] == 0 || outcomes[false] == 0 {
		t.Errorf("decoded %d blobs and refused %d: want both", outcomes[true], outcomes[false])
	}
	t.Logf("decoded %d damaged blobs, refused %d", outcomes[true], outcomes[false])
}
