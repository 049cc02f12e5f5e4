package perfdata_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/tools/encode"
	"github.com/perfcalc/perfcalc/tools/importban"
)

// walkAll decodes everything in data: every object, counter definition,
// instance, name, raw value and engine input, and the PDH names. It returns
// the first error, and counts what it saw.
func walkAll(data []byte) (values int, err error) {
	blk, err := perfdata.Parse(data)
	if err != nil {
		return 0, err
	}
	_ = blk.SystemName()
	var nm perfdata.Namer
	var defs [64]perfdata.CounterDef
	objs := blk.Objects()
	for objs.Next() {
		o := objs.Object()
		cs := o.Counters()
		n := 0
		for cs.Next() {
			c := cs.Counter()
			if n < len(defs) {
				defs[n] = *c
				n++
			}
			if _, err := o.Counter(c.Index); err != nil {
				return values, err
			}
		}
		if err := cs.Err(); err != nil {
			return values, err
		}
		is := o.Instances()
		for is.Next() {
			in := is.Instance()
			if _, err := in.Name(); err != nil {
				return values, err
			}
			for i := range defs[:n] {
				var x engine.Input
				if err := o.Fill(&x, &defs[i], in.CounterBlock); err != nil {
					return values, err
				}
				engine.Compute(&x, 0)
				values++
			}
		}
		if err := is.Err(); err != nil {
			return values, err
		}
		if _, err := nm.Names(&blk, o); err != nil {
			return values, err
		}
	}
	if err := objs.Err(); err != nil {
		return values, err
	}
	return values, nil
}

// checkFormatError fails unless err is a *engine.FormatError of perfdata
// whose text names an offset.
func checkFormatError(t *testing.T, err error) *engine.FormatError {
	t.Helper()
	var fe *engine.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error: have %T %v, want a *engine.FormatError", err, err)
	}
	if fe.Format != "perfdata" || !strings.Contains(err.Error(), " at 0x") {
		t.Fatalf("error text: have %q, want a perfdata error naming an offset", err)
	}
	return fe
}

func mustEncode(t testing.TB, b encode.V1Blob) []byte {
	t.Helper()
	data, err := encode.EncodeV1(&b)
	if err != nil {
		t.Fatalf("EncodeV1: %v", err)
	}
	return data
}

func laid(cs ...encode.V1Counter) []encode.V1Counter {
	cs = append([]encode.V1Counter(nil), cs...)
	encode.V1Layout(cs)
	return cs
}

// sampleBlob is a two-object blob: Process-like parents with duplicate
// names, and Thread-like children.
func sampleBlob() encode.V1Blob {
	rate := encode.V1Counter{CounterNameTitleIndex: 6, CounterType: engine.Timer100ns, CounterSize: 8}
	raw := encode.V1Counter{CounterNameTitleIndex: 180, CounterType: engine.CounterRawcount, CounterSize: 4}
	return encode.V1Blob{
		SystemName: "HOST", PerfTime: 1000, PerfFreq: 100, PerfTime100nSec: 5_000_000,
		Objects: []encode.V1Object{
			{ObjectNameTitleIndex: 230, NumInstances: 3, Counters: laid(rate, raw), Instances: []encode.V1Instance{
				{Name: "svchost", UniqueID: -1, Values: []uint64{10, 1}},
				{Name: "SvcHost", UniqueID: -1, Values: []uint64{20, 2}},
				{Name: "Idle", UniqueID: -1, Values: []uint64{30, 3}},
			}},
			{ObjectNameTitleIndex: 232, NumInstances: 4, Counters: laid(raw), Instances: []encode.V1Instance{
				{Name: "0", ParentObjectTitleIndex: 230, ParentObjectInstance: 0, UniqueID: -1, Values: []uint64{1}},
				{Name: "0", ParentObjectTitleIndex: 230, ParentObjectInstance: 1, UniqueID: -1, Values: []uint64{2}},
				{Name: "1", ParentObjectTitleIndex: 230, ParentObjectInstance: 2, UniqueID: -1, Values: []uint64{3}},
				{Name: "2", ParentObjectTitleIndex: 230, ParentObjectInstance: 9, UniqueID: -1, Values: []uint64{4}},
			}},
		},
	}
}

// TestImportBan: the package imports only the standard library (without fmt
// and os, which would bloat the WebAssembly module) and perfcalc's engine.
func TestImportBan(t *testing.T) { importban.Check(t, "github.com/perfcalc/perfcalc/engine") }

// readCorpusFile reads a real capture, or skips when the corpus is absent.
func readCorpusFile(t testing.TB, dir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
