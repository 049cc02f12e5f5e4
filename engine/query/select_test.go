package query_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// TestSelectionDoesNotHideDamage: a capture is as malformed whatever the
// selection (issue 12: a filter that selected nothing returned no value
// for a malformed capture, whose damage only the selected objects
// revealed). The damage lies in the second object, which the filters
// leave out: an instance name past the end, and a value outside its block.
func TestSelectionDoesNotHideDamage(t *testing.T) {
	obj := func(index uint32) encode.V1Object {
		o := encode.V1Object{ObjectNameTitleIndex: index, NumInstances: 2, PerfFreq: 1,
			Counters: []encode.V1Counter{{CounterNameTitleIndex: 6, CounterType: engine.CounterRawcount, CounterSize: 4}}}
		encode.V1Layout(o.Counters)
		for _, n := range []string{"a", "b"} {
			o.Instances = append(o.Instances, encode.V1Instance{Name: n, UniqueID: -1, Values: []uint64{7}})
		}
		return o
	}
	good, err := encode.EncodeV1(&encode.V1Blob{SystemName: "HOST", PerfFreq: 1000, PerfTime100nSec: 1,
		Objects: []encode.V1Object{obj(230), obj(238)}})
	if err != nil {
		t.Fatal(err)
	}
	// Where the second object's second instance and its first counter
	// definition lie.
	b, _ := perfdata.Parse(good)
	objs := b.Objects()
	objs.Next()
	objs.Next()
	o2 := objs.Object()
	insts := o2.Instances()
	insts.Next()
	insts.Next()
	in2 := insts.Instance()
	defs := o2.Counters()
	defs.Next()
	d := defs.Counter()
	le := binary.LittleEndian
	for _, tc := range []struct {
		name  string
		at    int
		value uint32
	}{
		{"instance name past the end", in2.Offset + 20, 0xFFFF}, // NameLength
		{"value outside its block", d.Offset + 36, 0x100},       // CounterOffset
	} {
		bad := bytes.Clone(good)
		le.PutUint32(bad[tc.at:], tc.value)
		_, want := query.New(query.Config{}).Run(nil, bad, bad)
		var fe *engine.FormatError
		if !errors.As(want, &fe) {
			t.Fatalf("%s: the whole capture gives %v, want a FormatError", tc.name, want)
		}
		for _, sel := range [][]string{{`\#230(*)\*`}, {`\#999(*)\*`}, {`\#238(a)\*`}} {
			vals, err := query.New(query.Config{Paths: mustPaths(t, sel...)}).Run(nil, bad, bad)
			if err == nil || err.Error() != want.Error() {
				t.Errorf("%s, selecting %s: %d values, %v; want %v", tc.name, sel, len(vals), err, want)
			}
		}
	}
}
